/* Entry through a dead network, and a login that expired, on the game page.

   While the network is down the scorer goes on: each hand (or correction) is
   priced on the phone by the server's own Python (engine.js), kept in this
   browser's storage (localStorage: it survives closing the tab and restarting
   the phone) and listed as "on this phone, not yet saved". When the network is
   back the queue is sent in order, the kept new hands in ONE request (kept/),
   each entry as its save would post it: its hand number, the digest of the
   hands it was built on, its own key, the digest of the hand (`checked`, as
   the server's preview gives it) and the payments the phone showed (`seen`).
   The server takes each exactly as if typed online, prices it as its preview
   would and stops at the first it does not save; a key seen before is never
   saved twice. A correction goes as its own save. The page after the last
   hand comes in the answer (no page load), or loads once.
   A conflict (another scorer's hand, a correction that moved the game) stops
   the queue and shows both sides; nothing leaves the phone's list without the
   scorer's tap. The page's own script (staff_game.js) hands its preview and
   Save over to this one while there is a queue or no network.

   An expired login: the server answers the page's requests with a 401, and
   the password is asked for here, in place; then the same request goes again.
   Without engine.js's files (engine.json says so) nothing is queued: the
   page keeps an unsent hand on screen and sends it when the network is back.
   Every word it writes comes from the server, in the page's language (words.js). */
(function () {
  var form = document.querySelector("form.hand-form");
  var page = document.querySelector("[data-game-url]");
  if (!page || !window.fetch || !window.localStorage || !window.JSON || !window.TenbouWords) return;
  var E = window.TenbouEngine, W = window.TenbouWords;
  var gameUrl = page.dataset.gameUrl, base = page.dataset.staffUrl, user = page.dataset.user;
  var storeKey = "tenbou.queue." + gameUrl;
  var canQueue = !!(E && localStorage.getItem("tenbou.engine") === "1");
  var offline = !navigator.onLine, syncing = false, correcting = null, loggingIn = null, engine = "";
  var store = load();
  var server = null;  // the game as the server last told it (offline.json)

  function load() {
    try { return JSON.parse(localStorage.getItem(storeKey)) || null; } catch (e) { return null; }
  }
  function save() {
    if (store && (store.ops.length || store.stop)) localStorage.setItem(storeKey, JSON.stringify(store));
    else localStorage.removeItem(storeKey);
  }
  function uuid() {
    return window.crypto && crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random();
  }
  function csrf() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function pts(n) { return n.toLocaleString("en-US"); }
  function signed(n) { return n > 0 ? "+" + pts(n) : pts(n); }

  // -- the service worker, and the files it keeps for an offline reload --------------
  if ("serviceWorker" in navigator && base) {
    navigator.serviceWorker.register(base + "sw.js", {scope: base}).catch(function () {});
  }
  function prepare() {
    // Online: learn whether the engine can run here, and have the worker keep its files.
    fetch(base + "offline/engine.json", {credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (info) {
        if (!info) return;
        localStorage.setItem("tenbou.engine", info.available ? "1" : "0");
        canQueue = !!(E && info.available);
        var urls = [gameUrl, gameUrl + "offline.json", base + "offline/engine.json"]
          .concat(info.available ? info.files : []);
        if (navigator.serviceWorker) {
          navigator.serviceWorker.ready.then(function (reg) {
            if (reg.active) reg.active.postMessage({type: "keep", urls: urls});
          });
        }
      }).catch(function () {});
    fetchServer().catch(function () {});
  }
  function fetchServer() {
    return fetch(gameUrl + "offline.json", {credentials: "same-origin", headers: {"X-Tenbou-Entry": "1"}})
      .then(function (r) { return r.ok ? r.json() : Promise.reject(r.status); })
      .then(function (g) { server = g; return g; });
  }
  // The phone's view of the game: the server's, with every queued entry applied.
  function phoneGame() {
    if (store && store.game) return Promise.resolve(store.game);
    return server ? Promise.resolve(server) : fetchServer();
  }

  // -- the banner -------------------------------------------------------------------------
  var banner = el("div", "offline-banner");
  banner.setAttribute("role", "status");
  banner.hidden = true;
  // In the save bar when there is one (at the bottom of the screen, where nothing is
  // tapped through it), else at the top of the page's content: never over the header,
  // the breadcrumbs or "Log out".
  var main = document.querySelector("main"), bar = document.querySelector(".savebar");
  if (bar) bar.insertBefore(banner, bar.firstChild);
  else if (main) main.insertBefore(banner, main.firstChild);
  function showBanner() {
    var n = store ? store.ops.length : 0;
    var text = "";
    if (offline && engine === "loading") text = W.t("banner_loading");
    else if (offline && canQueue) text = n ? W.n("banner_offline", n) : W.t("banner_offline_empty");
    else if (offline) text = W.t("banner_no_engine");
    else if (store && store.stop) text = W.n("banner_stopped", n);
    else if (n) text = W.n("banner_sending", n);
    banner.textContent = text;
    banner.hidden = !text;
    document.body.classList.toggle("banner-on", !!text);
    document.body.classList.toggle("queue-mode", active());
  }

  function active() { return canQueue && (offline || !!(store && (store.ops.length || store.stop))); }

  // -- the page after each queued entry --------------------------------------------------
  function render() {
    showBanner();
    if (!store || !store.game) return;
    var g = store.game;
    var where = document.querySelector(".state .where"), who = document.querySelector(".state .who");
    var after = store.table;
    if (after && after.round && where) {
      where.textContent = W.where(after.round, after.honba, after.riichi_sticks);
    }
    if (after && after.dealer !== null && who) {
      // The server's sentence with the dealer's name in bold where its {dealer} is.
      var parts = W.t("hand_deals", {number: g.number}).split("{dealer}");
      who.textContent = "";
      who.append(parts[0]);
      who.appendChild(el("strong", "", g.names[after.dealer]));
      who.append(parts.slice(1).join(""));
    }
    if (after) {
      document.querySelectorAll(".state .scores li").forEach(function (li, i) {
        var p = li.querySelector(".pts");
        if (p) p.textContent = pts(after.scores[i]);
        li.classList.toggle("dealer", i === after.dealer);
        var tag = li.querySelector(".tag");
        if (tag) tag.hidden = i !== after.dealer;
      });
    }
    if (form && !correcting) setEntry(g.number, g.state, W.t("hand_title", {number: g.number}),
                                          W.t("save_hand", {number: g.number}));
    if (form) form.hidden = !!g.finished && !correcting;
    var over = document.getElementById("phone-over");
    if (g.finished && !over && form) {
      over = el("p", "notice", W.t("phone_over"));
      over.id = "phone-over";
      form.parentNode.insertBefore(over, form);
    }
    listQueued();
  }
  function setEntry(number, state, title, label) {
    form.querySelector("input[name=number]").value = number;
    form.querySelector("input[name=state]").value = state;
    var h = document.querySelector("h2.entry-title");
    if (h) h.textContent = title;
    var saveButton = document.getElementById("save-button");
    if (saveButton) saveButton.textContent = label;
  }
  function listQueued() {
    var box = document.getElementById("queued");
    if (!box) {
      box = el("section", "queued");
      box.id = "queued";
      box.setAttribute("aria-label", W.t("queued_title"));
      var hands = document.querySelector(".table-wrap:has(table.hands)") || document.querySelector("p.muted");
      var column = hands ? hands.parentNode : document.querySelector(".columns > div:last-child");
      if (!column) return;
      column.insertBefore(box, hands ? hands.nextSibling : null);
    }
    box.textContent = "";
    if (!store || !store.ops.length) { box.hidden = true; return; }
    box.hidden = false;
    box.appendChild(el("h3", "", W.t("queued_title")));
    var list = el("ol", "queue");
    store.ops.forEach(function (op) {
      var li = el("li", "op");
      li.classList.toggle("correction", op.kind === "correction");
      li.dataset.number = op.number;
      li.appendChild(el("strong", "", opName(op)));
      li.append(": " + op.summary + " ");
      li.appendChild(el("span", "badge", W.t("badge")));
      li.appendChild(el("span", "pay", op.lines.join("; ")));
      if (op.kind === "hand" && !store.stop) {
        var fix = el("button", "fix", W.t("correct"));
        fix.type = "button";
        fix.setAttribute("aria-label", W.t("correct_title", {number: op.number}));
        fix.addEventListener("click", function () { startCorrection(op); });
        li.appendChild(fix);
      }
      list.appendChild(li);
    });
    box.appendChild(list);
  }

  function opName(op) {
    return W.t(op.kind === "correction" ? "queued_correction" : "queued_hand", {number: op.number});
  }

  // -- pricing and queueing on the phone --------------------------------------------------
  function fields() {
    var f = E.fieldsOf(form);
    ["csrfmiddlewaretoken", "action", "checked", "number", "state", "key", "editing"].forEach(function (n) {
      delete f[n];
    });
    return f;
  }
  function showPrice(box, result, number) {
    box.textContent = "";
    if (!result.ok) {
      var errs = el("div", "preview pending");
      errs.dataset.errors = "1";
      errs.appendChild(el("p")).appendChild(el("strong", "", W.t("before_saved")));
      var ul = el("ul", "errorlist");
      result.errors.forEach(function (e) {
        var li = el("li", "", e.message);
        if (e.field) { li.dataset.field = e.field; li.dataset.message = e.message; }
        ul.appendChild(li);
      });
      errs.appendChild(ul);
      box.appendChild(errs);
      return false;
    }
    var div = el("div", "preview phone");
    div.dataset.summary = result.payments.map(function (d, i) { return d ? store_names()[i] + " " + signed(d) : ""; })
      .filter(Boolean).join(" · ");
    div.appendChild(el("h3", "", W.t("phone_pays", {number: number})));
    if (result.counted && result.counted.length) {
      var counted = el("ul", "counted");
      result.counted.forEach(function (l) { counted.appendChild(el("li", "", l)); });
      div.appendChild(counted);
    }
    var pay = el("ul", "payments");
    result.lines.forEach(function (l) { pay.appendChild(el("li", "", l)); });
    div.appendChild(pay);
    var rows = el("ul", "scores");
    result.payments.forEach(function (d, i) {
      rows.appendChild(el("li", "", store_names()[i] + " " + signed(d) + " → " + pts(result.after.scores[i])));
    });
    div.appendChild(rows);
    box.appendChild(div);
    return true;
  }
  function store_names() { return (store && store.game || server || {names: ["", "", "", ""]}).names; }

  function price() {
    return phoneGame().then(function (g) {
      var number = correcting ? correcting.number : g.number;
      return E.price(g, fields(), number).then(function (result) { return {game: g, result: result, number: number}; });
    }).catch(function (why) {
      // No engine after all (its files were not kept, or it failed): the page keeps
      // the hand on screen instead, as without this script.
      if (window.console) console.warn("Tenbou: this phone cannot price the hand:", why);
      canQueue = !!(store && store.ops.length);
      render();
      throw why;
    });
  }

  /* The live preview while queueing: what the hand pays, from the phone. */
  function preview(box) {
    return price().then(function (p) {
      if (!store) store = {game: p.game, ops: [], sent: {}, stop: null};
      if (p.result.ok && !correcting && store.ops.length) {
        store.table = Object.assign({}, p.result.before, {scores: p.result.before.scores});
        render();
      }
      return showPrice(box, p.result, p.number) ? "phone" : "";
    });
  }

  /* Save while queueing: the entry joins the queue (never the network directly). */
  function queue(box) {
    return price().then(function (p) {
      if (!store) store = {game: p.game, ops: [], sent: {}, stop: null};
      if (!showPrice(box, p.result, p.number)) return false;
      var r = p.result, key = form.querySelector("input[name=key]").value;
      var op = {
        id: uuid(), kind: correcting ? "correction" : "hand", number: p.number,
        slot: correcting ? correcting.slot : null, fields: fields(), state: r.state, key: key,
        payments: r.payments, lines: r.lines, summary: r.summary, after: r.after, digest: r.digest,
        checked: r.checked,
        at: Date.now(),
      };
      if (!op.slot) op.slot = op.id;
      store.game = E.apply(p.game, r);
      // The phone's price of every hand, as it stands after this entry (a correction
      // re-prices the later hands): what the server must agree with.
      store.priced = store.priced || {};
      var old = Object.assign({}, store.priced);
      store.priced[p.number] = r.payments;
      (r.later || []).forEach(function (l) { if (l.payments) store.priced[l.number] = l.payments; });
      if (!correcting || !store.table || p.number === p.game.number - 1) {
        store.table = r.after;
      } else {
        // A correction of an earlier hand: the scores move by what its hand and the later
        // ones pay differently; where the game stands comes with the next hand's price.
        var scores = store.table.scores.slice();
        Object.keys(store.priced).forEach(function (n) {
          (old[n] || [0, 0, 0, 0]).forEach(function (v, i) { scores[i] += store.priced[n][i] - v; });
        });
        store.table = Object.assign({}, store.table, {scores: scores});
      }
      store.ops.push(op);
      save();
      box.textContent = "";
      var status = document.getElementById("save-status");
      if (status) {
        status.textContent = W.t(op.kind === "correction" ? "queued_status_correction" : "queued_status_hand",
                                 {number: op.number});
      }
      endCorrection();
      nextEntry();
      render();
      if (!offline) sync();
      return true;
    });
  }
  function nextEntry() {
    form.reset();
    form.querySelector("input[name=key]").value = uuid();
    form.querySelector("input[name=checked]").value = "";
    form.querySelectorAll(".field.has-error").forEach(function (f) { f.classList.remove("has-error"); });
    form.querySelectorAll(".errorlist").forEach(function (e) { e.remove(); });
  }

  // -- a correction of a hand still on this phone --------------------------------------
  function startCorrection(op) {
    var latest = op;
    store.ops.forEach(function (o) { if (o.slot === op.slot) latest = o; });
    correcting = {slot: op.slot, number: op.number};
    nextEntry();
    Object.keys(latest.fields).forEach(function (name) {
      var values = [].concat(latest.fields[name]);
      form.querySelectorAll('[name="' + name + '"]').forEach(function (input) {
        if (input.type === "radio" || input.type === "checkbox") input.checked = values.indexOf(input.value) !== -1;
        else input.value = values[0];
      });
    });
    setEntry(op.number, store.game.state, W.t("correct_title", {number: op.number}), W.t("save_correction"));
    var cancel = document.getElementById("cancel-correction");
    if (!cancel) {
      cancel = el("button", "", W.t("cancel_correction"));
      cancel.type = "button";
      cancel.id = "cancel-correction";
      cancel.addEventListener("click", function () { endCorrection(); nextEntry(); render(); });
      form.parentNode.insertBefore(cancel, form);
    }
    form.hidden = false;
    form.dispatchEvent(new Event("change"));
    form.scrollIntoView({block: "start"});
  }
  function endCorrection() {
    correcting = null;
    var cancel = document.getElementById("cancel-correction");
    if (cancel) cancel.remove();
  }

  // -- sending the queue -----------------------------------------------------------------
  function bodyOf(op, action, checked) {
    var body = new FormData();
    Object.keys(op.fields).forEach(function (name) {
      [].concat(op.fields[name]).forEach(function (v) { body.append(name, v); });
    });
    body.set("csrfmiddlewaretoken", csrf());
    body.set("number", op.kind === "correction" ? op.number : op.number);
    body.set("state", op.state);
    body.set("key", op.key);
    if (op.kind === "correction") body.set("editing", op.number);
    if (action) body.set("action", action);
    if (checked) body.set("checked", checked);
    return body;
  }
  function post(url, body, inPlace) {
    var headers = {"X-Tenbou-Entry": "1"};
    if (inPlace) headers["X-Tenbou-In-Place"] = "1";
    return fetch(url, {method: "POST", body: body, credentials: "same-origin", headers: headers})
      .then(function (r) {
        if (r.status === 401) return login().then(function () { return "again"; });
        return r;
      });
  }
  function urlOf(op) { return op.kind === "correction" ? gameUrl + "hands/" + op.number + "/" : gameUrl; }

  /* One request per kept hand: the save itself carries the phone's digest of the hand
     (`checked`, computed by the server's own code in the engine) and the payments the
     scorer saw (`seen`); the server prices it as its preview would and refuses it, nothing
     saved, when its payments differ (the "price" stop). An entry kept before the phone
     knew its digest goes the old way, a preview then the save. */
  function sendOne(op) {
    if (!op.checked) return previewThenSave(op);
    var body = bodyOf(op, "save", op.checked);
    if (!op.anyPrice) body.set("seen", op.payments.join(" "));
    // A new hand is answered in place (the parts of the page, as online); a correction with
    // the address of the page after it.
    return post(urlOf(op), body, op.kind === "hand").then(function (s) { return answered(s, op); });
  }
  function answered(s, op) {
    if (s === "again") return sendOne(op);
    if (s.status === 409 && s.headers.get("X-Tenbou-Stop") === "price") {
      return s.json().then(function (j) { return Promise.reject({kind: "price", theirs: j.theirs, op: op}); });
    }
    // A gateway with no server behind it: as no answer (tried again), as a failed preview was.
    if (s.status === 502 || s.status === 503 || s.status === 504) return Promise.reject({kind: "http", status: s.status});
    return s.text().then(function (text) {
      var saved = s.status === 200 && s.headers.get("X-Tenbou-Saved");
      if (saved === "in-place") return JSON.parse(text);
      if (saved) return text;
      if (s.status === 409) return Promise.reject({kind: "conflict", html: text, op: op});
      return Promise.reject({kind: "refused", html: text, op: op, status: s.status});
    });
  }
  function previewThenSave(op) {
    return post(gameUrl + "preview/", bodyOf(op)).then(function (r) {
      if (r === "again") return sendOne(op);
      if (!r.ok) return Promise.reject({kind: "http", status: r.status});
      return r.text().then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var ok = doc.querySelector("[data-digest]"), errors = doc.querySelector("[data-errors]");
        if (errors && !doc.querySelector("[data-stale]")) {
          return Promise.reject({kind: "refused", html: errors.outerHTML, op: op});
        }
        if (ok && ok.dataset.deltas && !op.anyPrice) {
          var theirs = ok.dataset.deltas.split(" ").map(Number);
          if (theirs.join() !== op.payments.join()) {
            return Promise.reject({kind: "price", theirs: theirs, op: op});
          }
        }
        // A stale entry goes to the server all the same: it knows a key it saved before,
        // and answers anything else with its conflict page.
        return post(urlOf(op), bodyOf(op, "save", ok ? ok.dataset.digest : "")).then(function (s) {
          return answered(s, op);
        });
      });
    });
  }

  /* The kept new hands at the head of the queue, in ONE request (the server's kept/):
     each entry as its single save would post it, taken in order, each in its own
     transaction; the first one not saved stops the rest. Its answer: each entry taken
     (saved, or its key known from before), the stop, and the page after the last. */
  var BATCH = 50;  // as the server's MAX_KEPT
  function batchOf(ops) {
    var run = [];
    for (var i = 0; i < ops.length && run.length < BATCH; i++) {
      if (ops[i].kind !== "hand" || !ops[i].checked) break;
      run.push(ops[i]);
    }
    return run;
  }
  function sendBatch(run) {
    var entries = run.map(function (op) {
      var e = {fields: op.fields, number: String(op.number), state: op.state, key: op.key, checked: op.checked};
      if (!op.anyPrice) e.seen = op.payments.join(" ");
      return e;
    });
    var headers = {"X-Tenbou-Entry": "1", "Content-Type": "application/json", "X-CSRFToken": csrf()};
    return fetch(gameUrl + "kept/", {method: "POST", body: JSON.stringify({entries: entries}),
                                     credentials: "same-origin", headers: headers})
      .then(function (r) {
        if (r.status === 401) return login().then(function () { return sendBatch(run); });
        if (r.status >= 500) return Promise.reject({kind: "http", status: r.status});
        if (!r.ok) {
          return r.json().catch(function () { return {}; }).then(function (j) {
            var said = j.error ? [{message: j.error.message}] : [{message: W.t("stop_refused")}];
            return Promise.reject({kind: "refused", html: errorsHtml(said), op: run[0]});
          });
        }
        return r.json();
      });
  }
  // The server's reasons as the preview lists them, for the stop's side by side.
  function errorsHtml(errors) {
    var ul = el("ul", "errorlist");
    errors.forEach(function (e) { ul.appendChild(el("li", "", e.message)); });
    return ul.outerHTML;
  }

  function sync() {
    if (syncing || offline || !store || !store.ops.length || store.stop || loggingIn) return;
    syncing = true;
    render();
    var next = null;
    function failed(why) {
      syncing = false;
      if (why instanceof TypeError || why && why.kind === "http" && why.status >= 500) {
        wentOffline();  // no answer: the entry stays first in the queue, tried again later
        return;
      }
      store.stop = {kind: why.kind, html: why.html || "", theirs: why.theirs || null, id: store.ops[0].id};
      save();
      render();
      showStop();
      prepare();  // the server answers: the worker's copies are renewed while the scorer reads
    }
    (function step() {
      if (!store.ops.length) {
        syncing = false;
        store = null;
        save();
        // The last hand answered in place: its parts of the page, as an online save has them
        // (staff_game.js), and no page load; else the page after it, loaded once.
        if (next && typeof next === "object" && window.TenbouQueue.placed) {
          window.TenbouQueue.placed(next);
          render();
          prepare();  // the worker's copies renewed, as the page load did
          return;
        }
        window.location.assign((next && next.url) || next || gameUrl);
        return;
      }
      var run = batchOf(store.ops);
      if (run.length) {
        sendBatch(run).then(function (a) {
          a.entries.forEach(function () {
            var op = store.ops.shift();
            store.sent[op.slot] = op.number;
          });
          if (a.then) {
            next = a.then.parts ? a.then : a.then.url;
            if (a.then.game) saved(a.then.game);  // the engine's game, as the server now has it
          }
          save();
          render();
          if (!a.stop) { step(); return; }
          failed({kind: a.stop.kind, theirs: a.stop.theirs,
                  html: a.stop.html || (a.stop.errors ? errorsHtml(a.stop.errors) : "")});
        }, failed);
        return;
      }
      var op = store.ops[0];  // a correction, or an entry kept before the phone knew its digest
      sendOne(op).then(function (url) {
        store.sent[op.slot] = op.number;
        store.ops.shift();
        next = url;
        if (url && typeof url === "object") saved(url.game);  // the engine's game, as the server now has it
        save();
        render();
        step();
      }, failed);
    })();
  }

  // -- a stop: both sides, and the scorer's choice --------------------------------------
  function showStop() {
    var old = document.getElementById("stopped");
    if (old) old.remove();
    if (!store || !store.stop) return;
    var stop = store.stop, op = store.ops[0];
    var box = el("section", "stopped");
    box.id = "stopped";
    box.setAttribute("role", "alert");
    var title = W.t("stop_" + stop.kind);
    box.appendChild(el("h2", "", title));
    var sides = el("div", "conflict");
    var mine = el("section", "side mine");
    mine.appendChild(el("h3", "", W.t("on_phone")));
    mine.appendChild(el("p", "", opName(op) + ": " + op.summary + "."));
    mine.appendChild(el("p", "", op.lines.join("; ")));
    if (store.ops.length > 1) mine.appendChild(el("p", "muted", W.n("more_kept", store.ops.length - 1)));
    var theirs = el("section", "side now");
    theirs.appendChild(el("h3", "", W.t("on_server")));
    if (stop.kind === "price") {
      theirs.appendChild(el("p", "", store_names().map(function (n, i) { return n + " " + signed(stop.theirs[i]); })
        .join(" · ")));
    } else {
      var doc = new DOMParser().parseFromString(stop.html, "text/html");
      var now = doc.querySelector("section.now") || doc.querySelector(".notice, [data-errors], .errorlist");
      if (now) {
        now.querySelectorAll("h2").forEach(function (h) { h.remove(); });
        now.querySelectorAll("[id]").forEach(function (n) { n.removeAttribute("id"); });
        // The server's own words for the game as it is now (its conflict page), not a copy of ours.
        Array.prototype.forEach.call(now.matches("section") ? now.childNodes : [now], function (n) {
          theirs.appendChild(document.importNode(n, true));
        });
      }
    }
    sides.appendChild(mine);
    sides.appendChild(theirs);
    box.appendChild(sides);
    var buttons = el("div", "buttons");
    function button(text, cls, fn) {
      var b = el("button", cls, text);
      b.type = "button";
      b.addEventListener("click", fn);
      buttons.appendChild(b);
      return b;
    }
    if (stop.kind === "price") {
      button(W.t("send_as_server"), "", function () { op.anyPrice = true; resume(); });
    } else if (op.kind === "hand") {
      button(W.t("keep_mine"), "primary", function () { rebase(null); });
    }
    var drop = button(W.t("remove_mine"), "danger", function () {
      if (!drop.dataset.sure) {
        drop.dataset.sure = "1";
        drop.textContent = W.t(op.kind === "correction" ? "remove_correction_again" : "remove_hand_again",
                               {number: op.number});
        return;
      }
      rebase(op.id);
    });
    box.appendChild(buttons);
    var at = document.querySelector(".columns") || main;
    at.parentNode.insertBefore(box, at);
    box.scrollIntoView({block: "start"});
  }
  function resume() {
    store.stop = null;
    save();
    var old = document.getElementById("stopped");
    if (old) old.remove();
    render();
    sync();
  }

  /* The queue aimed anew at the game as the server has it now: each entry
     re-priced on the phone, in order, with its new number and state. The
     dropped one (if the scorer said so) is the only one that goes. Nothing is
     sent until the scorer has seen the new prices and tapped Send. */
  function rebase(dropId) {
    fetchServer().then(function (g) {
      var numbers = {}, ops = store.ops.filter(function (o) { return o.id !== dropId; }), out = [];
      Object.keys(store.sent).forEach(function (s) { numbers[s] = store.sent[s]; });
      var priced = {};
      var chain = Promise.resolve(g);
      ops.forEach(function (op) {
        chain = chain.then(function (game) {
          if (op.kind === "correction" && !(op.slot in numbers)) return game;  // its hand was removed
          var number = op.kind === "correction" ? numbers[op.slot] : game.number;
          return E.price(game, op.fields, number).then(function (r) {
            if (!r.ok) return Promise.reject({op: op, errors: r.errors});
            if (op.kind === "hand") numbers[op.slot] = number;
            priced[number] = r.payments;
            (r.later || []).forEach(function (l) { if (l.payments) priced[l.number] = l.payments; });
            out.push(Object.assign({}, op, {number: number, state: r.state, payments: r.payments, lines: r.lines,
                                            summary: r.summary, after: r.after, digest: r.digest,
                                            checked: r.checked, anyPrice: false}));
            return E.apply(game, r);
          });
        });
      });
      return chain.then(function (game) {
        store.ops = out;
        store.game = game;
        store.priced = priced;
        if (out.length) store.table = out[out.length - 1].after;
        store.stop = null;
        save();
        var old = document.getElementById("stopped");
        if (old) old.remove();
        render();
        showReview();
      });
    }).catch(function (why) {
      var box = document.getElementById("stopped");
      var msg = why && why.errors ? W.t("no_longer_fits", {number: why.op.number,
        errors: why.errors.map(function (e) { return e.message; }).join(" ")}) : W.t("unreachable");
      if (box) box.appendChild(el("p", "notice", msg));
    });
  }
  function showReview() {
    if (!store || !store.ops.length) {  // nothing left on the phone: the game as the server has it
      store = null;
      save();
      window.location.assign(gameUrl);
      return;
    }
    store.stop = {kind: "review"};
    save();
    showBanner();
    var box = el("section", "stopped");
    box.id = "stopped";
    box.appendChild(el("h2", "", W.t("review_title")));
    box.appendChild(el("p", "", W.t("review_text")));
    var send = el("button", "primary", W.n("send_entries", store.ops.length));
    send.type = "button";
    send.addEventListener("click", resume);
    box.appendChild(send);
    var at = document.querySelector(".columns") || main;
    at.parentNode.insertBefore(box, at);
  }

  // -- a login that expired, asked for in place -----------------------------------------
  function login() {
    if (loggingIn) return loggingIn;
    loggingIn = new Promise(function (resolve) {
      var box = el("form", "login-again notice");
      box.setAttribute("role", "alert");
      box.appendChild(el("p", "", W.t("login_text", {user: user})));
      var label = el("label", "", W.t("password") + " ");
      var input = el("input");
      input.type = "password";
      input.name = "password";
      input.autocomplete = "current-password";
      input.id = "login-again-password";
      label.appendChild(input);
      box.appendChild(label);
      var go = el("button", "primary", W.t("log_in_again"));
      go.type = "submit";
      box.appendChild(go);
      var said = el("p", "errorlist");
      box.appendChild(said);
      box.addEventListener("submit", function (e) {
        e.preventDefault();
        var body = new FormData();
        body.set("username", user);
        body.set("password", input.value);
        body.set("csrfmiddlewaretoken", csrf());
        fetch(base + "session/", {method: "POST", body: body, credentials: "same-origin"})
          .then(function (r) { return r.json().then(function (j) { return {ok: r.ok, j: j}; }); })
          .then(function (a) {
            if (!a.ok) { said.textContent = a.j.error ? a.j.error.message : W.t("not_logged_in"); return; }
            document.querySelectorAll("input[name=csrfmiddlewaretoken]").forEach(function (i) { i.value = a.j.csrf; });
            box.remove();
            var done = loggingIn;
            loggingIn = null;
            resolve();
            return done;
          })
          .catch(function () { said.textContent = W.t("no_answer"); });
      });
      (main || document.body).insertBefore(box, (main || document.body).firstChild);
      input.focus();
    });
    return loggingIn;
  }

  // -- the network going and coming ----------------------------------------------------
  function wentOffline() {
    offline = true;
    start();
    render();
    return canQueue;
  }
  // The engine starts when the network goes (it holds the page for a few seconds, so
  // not on every page load): by the time the hand is entered, it prices it.
  var engineTries = 0;
  function start() {
    if (!canQueue || engine) return;
    engine = "loading";
    E.ready().then(function () { engine = "ready"; engineTries = 0; render(); }, function (why) {
      if (window.console) console.warn("Tenbou: no engine on this phone:", why);
      engine = "";
      // A look the network cut short is asked again from the kept copy, twice, before giving up.
      if (offline && ++engineTries < 3) { setTimeout(start, 1000); return; }
      canQueue = !!(store && store.ops.length);
      render();
    });
  }
  window.addEventListener("offline", wentOffline);
  window.addEventListener("online", function () {
    offline = false;
    render();
    // The kept entries first: the page the last one leads to renews the worker's copies (the
    // engine's files among them), which would otherwise compete with them for the server.
    if (store && store.ops.length && !store.stop) sync(); else prepare();
  });
  // A network that fails without the browser noticing: try the first entry again every
  // 300 ms while some wait (its one save request, and a refused connection costs nothing; a
  // failure puts the page back offline, and one try at a time: sync() sends nothing while
  // one is under way), so the queue goes as soon after the server answers again as after
  // an "online" event. Nothing waiting, or a stop for the scorer: no request.
  setInterval(function () { if (offline && navigator.onLine && store && store.ops.length) { offline = false; sync(); } },
    300);

  // A save answered in place (staff_game.js): the game as the server now has it, for the
  // phone's engine, and for the worker's copy of offline.json, which no page load renews now.
  function saved(g) {
    server = g;
    var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (worker) worker.postMessage({type: "put", url: gameUrl + "offline.json", body: JSON.stringify(g)});
  }

  window.TenbouQueue = {
    saved: saved,
    active: active,
    preview: preview,
    save: queue,
    down: wentOffline,
    login: login,
  };
  if (navigator.onLine) prepare();
  // Opened offline from the worker's copy of the page, which saves answered in place
  // did not renew: the form aims at the next hand of offline.json's game (which they did).
  if (offline && !store && form) {
    fetchServer().then(function (g) {
      if (!store && g.number > Number(form.querySelector("input[name=number]").value)) {
        setEntry(g.number, g.state, W.t("hand_title", {number: g.number}), W.t("save_hand", {number: g.number}));
      }
    }).catch(function () {});
  }
  if (offline || store) start();
  render();
  if (store && store.stop) {
    if (store.stop.kind === "review") { store.stop = null; showReview(); } else showStop();
  } else if (!offline) sync();
})();
