/* Live preview and one-tap save. The server says what the hand pays as the
   scorer taps; Save stays where it is (a fixed bar) and, tapped while a
   preview is on its way, waits for it and then saves: one tap. Each entry
   carries a key made here, so a double tap, a retry or a lost answer never
   saves twice; a Save with no network keeps the entry on screen, marked as
   not sent, and sends it (same key) when the network is back.
   Without this script "Show what is paid", then Save, do the same.
   While there is no network (or hands wait to be sent), queue.js prices and
   keeps each hand on the phone instead (window.TenbouQueue); an expired login
   is asked for there too, and the request then goes again.
   Online, once the phone's engine (engine.js: the server's own pricer, in a
   Web Worker) is ready, each change is priced here with no request: the save
   then carries the phone's digest (`checked`) and the payments shown (`seen`),
   and the server refuses it unsaved when it prices the hand otherwise (its
   price is then shown, from its own preview). Until the engine is ready, if it
   fails, and for a correction or a hand that ends the game: the server's preview.
   The engine speaks the page's language (the server's catalogue of its words).
   The save bar says what the hand pays, seat by seat, or what stops it (the
   field in error, a stale form); tapping that line shows the full preview
   or the error. Every word comes from the server (words.js). docs/entry.md. */
(function () {
  var form = document.querySelector("form.hand-form");
  if (!form || !window.fetch || !window.FormData || !window.TenbouWords) return;
  var box = document.getElementById("preview"), save = document.getElementById("save-button");
  var status = document.getElementById("save-status"), look = form.querySelector("button.look");
  var checked = form.querySelector("input[name=checked]"), key = form.querySelector("input[name=key]");
  var timer = null, seq = 0, pending = null, sending = false, waiting = false, tried = false, dirty = false;
  // The server's key is the fallback; a key made on the phone replaces it, unless the
  // browser restored an earlier one (Back): then the entry is the one already sent.
  if (key && window.crypto && crypto.randomUUID && key.value === key.defaultValue) key.value = crypto.randomUUID();
  save.hidden = false;
  if (look) look.hidden = true;
  form.classList.add("js");
  var Q = window.TenbouQueue, W = window.TenbouWords;
  // The save bar's line: the payments seat by seat, or what stops the save and where it is.
  // It is a button: one tap shows the full preview (or the error) below the form.
  function say(text, target) {
    status.textContent = "";
    if (!text) return;
    var go = document.createElement("button");
    go.type = "button";
    go.className = "say";
    if (target === "pays") {
      text.split(" · ").forEach(function (part) {
        var span = document.createElement("span");
        span.textContent = part;
        go.appendChild(span);
        go.append(" ");
      });
    } else go.textContent = text;
    go.addEventListener("click", function () {
      if (target === "errors") { tried = true; showErrors(); return; }
      var at = target === "pays" ? box : box.querySelector("[data-stale], [data-errors]") || box;
      at.scrollIntoView({block: "start", behavior: "smooth"});
    });
    status.appendChild(go);
  }
  // The first field in error, by its label: where the scorer must look.
  function notReady() {
    var li = box.querySelector("[data-field]"), input = li && form.querySelector('[name="' + li.dataset.field + '"]');
    var field = input && input.closest(".field"), label = field && field.querySelector(".group-label, label");
    var name = label ? label.textContent.trim() : "";
    if (name && field.checkVisibility && field.checkVisibility()) say(W.t("not_ready_field", {field: name}), "errors");
    else say(W.t("not_ready_below"), "errors");
  }
  function shown() {
    var ok = box.querySelector("[data-summary]");
    if (ok) say(ok.dataset.summary, "pays");
    else if (box.querySelector("[data-stale]")) say(W.t("stale"), "stale");
    else if (box.querySelector("[data-errors]")) notReady();
    else say("");
    return ok;
  }
  function update() {
    var n = ++seq, body = new FormData(form);
    dirty = false;
    body.delete("action");
    form.classList.add("loading");
    if (!(Q && Q.active()) && onPhone()) return phonePreview(n);
    if (Q && Q.active()) {
      pending = Q.preview(box).then(function (ok) {
        if (n !== seq) return pending;
        if (dirty) return priceNow();  // the form changed since: price it as it is now
        markErrors();
        checked.value = ok;
        shown();
        form.classList.remove("loading");
        pending = null;
        return ok;
      });
      pending.catch(function () { form.classList.remove("loading"); pending = null; });
      return pending;
    }
    return serverPreview(n, body);
  }
  // What a preview or a save posts: the form's fields URL-encoded (not multipart: the form
  // holds no file, and the server parses it for less), the empty ones left out. The server
  // reads a field not sent as an empty one (league/entry/fields.py clean_one, as Django's
  // fields do), and a tap's form is two thirds empty fields: their parse cost the server
  // more than the rest of the body (docs/entry.md).
  function posted(body) {
    var out = new URLSearchParams();
    body.forEach(function (value, name) { if (value !== "") out.append(name, value); });
    return out;
  }
  function serverPreview(n, body) {
    pending = fetch(form.dataset.preview, {method: "POST", body: posted(body), credentials: "same-origin",
                                           headers: {"X-Tenbou-Entry": "1"}})
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        if (n !== seq) return pending;
        if (dirty) return priceNow();  // the form changed since: price it as it is now
        box.innerHTML = html;
        markErrors();
        var ok = box.querySelector("[data-digest]");
        checked.value = ok ? ok.dataset.digest : "";
        shown();
        form.classList.remove("loading");
        pending = null;
        return ok;
      });
    pending.catch(function (why) {
      form.classList.remove("loading");
      pending = null;
      if (why === 401 && Q) Q.login().then(update);
      else if (typeof why !== "number" && Q && !Q.active() && Q.down() && n === seq) update();  // priced here
    });
    return pending;
  }
  // Each error next to its field, as the page without this script shows it: once Save
  // was tapped (before that, a half-entered hand is not an error, just not finished).
  function markErrors() {
    form.querySelectorAll(".field.has-error").forEach(function (f) {
      f.classList.remove("has-error");
      f.querySelectorAll(":scope > .errorlist").forEach(function (e) { e.remove(); });
    });
    if (!tried) return;
    box.querySelectorAll("[data-field]").forEach(function (li) {
      var input = form.querySelector('[name="' + li.dataset.field + '"]');
      var field = input && input.closest(".field");
      if (!field) return;
      var list = document.createElement("ul"), item = document.createElement("li");
      list.className = "errorlist";
      item.textContent = li.dataset.message;
      list.appendChild(item);
      field.classList.add("has-error");
      field.appendChild(list);
    });
  }
  // -- the price on the phone (online) -------------------------------------------------
  // The engine loads once the page is idle: its files are the ones the service worker
  // keeps for offline use anyway, and Pyodide boots in a worker, off the page's thread.
  // The game it prices against is offline.json's, then each in-place save's answer.
  var E = window.TenbouEngine, gameUrl = (document.querySelector("[data-game-url]") || {dataset: {}}).dataset.gameUrl;
  var phone = {game: null, on: false};
  // The engine speaks the page's language: its worker installs the server's catalogue of
  // the engine's words in it (league/engine_catalogue.py), so every page prices here.
  function startPhone() {
    // The server says whether phones price online (settings.PHONE_PRICING).
    if (!document.querySelector("[data-phone-pricing]")) return;
    // Without the address of its words (a page without the words script) the engine would
    // write English: the server's preview keeps the page's language.
    if (!(window.TenbouWordsData || {}).engine_words) return;
    if (!E || !gameUrl || !window.Worker || typeof WebAssembly !== "object") return;
    E.ready().then(function () {
      return fetch(gameUrl + "offline.json", {credentials: "same-origin", headers: {"X-Tenbou-Entry": "1"}});
    }).then(function (r) { return r.ok ? r.json() : Promise.reject(r.status); })
      .then(function (g) { if (!phone.game) phone.game = g; phone.on = true; form.dataset.pricing = "phone"; })
      .catch(function (why) { if (window.console) console.info("Tenbou: hands priced by the server:", why); });
  }
  function idle() {
    if (window.requestIdleCallback) requestIdleCallback(startPhone, {timeout: 3000}); else setTimeout(startPhone, 500);
  }
  if (document.readyState === "complete") idle(); else window.addEventListener("load", idle);
  // Only a new hand of the game the phone holds, as this form was made for it (a
  // correction, or a copy of the game that is not this form's, goes to the server).
  function onPhone() {
    var g = phone.game;
    return phone.on && g && !g.finished && String(g.number) === form.querySelector("input[name=number]").value &&
      g.state === form.querySelector("input[name=state]").value;
  }
  function phonePreview(n) {
    var fields = E.fieldsOf(form);
    ["csrfmiddlewaretoken", "action", "checked", "number", "state", "key", "editing"].forEach(function (k) {
      delete fields[k];
    });
    pending = E.price(phone.game, fields, phone.game.number).then(function (r) {
      if (n !== seq) return pending;
        if (dirty) return priceNow();  // the form changed since: price it as it is now
      // A hand that ends the game: the server's preview says why and how it settles.
      if (r.ok && r.after.ended) return serverPreview(n, new FormData(form));
      showPhone(r);
      markErrors();
      checked.value = r.ok ? r.checked : "";
      shown();
      form.classList.remove("loading");
      pending = null;
      return r.ok;
    }, function (why) {
      // The engine failed: the server prices from now on.
      if (window.console) console.warn("Tenbou: the phone could not price the hand:", why);
      phone.on = false;
      return serverPreview(n, new FormData(form));
    });
    return pending;
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function pts(v) { return v.toLocaleString("en-US"); }
  function signed(v) { return v > 0 ? "+" + pts(v) : pts(v); }
  // The phone's price, in the shape of the server's preview (the same data-* the save
  // bar and the errors read); `data-deltas` is what the save carries as `seen`.
  function showPhone(r) {
    box.textContent = "";
    if (!r.ok) {
      var errs = box.appendChild(el("div", "preview pending"));
      errs.dataset.errors = "1";
      errs.appendChild(el("p")).appendChild(el("strong", "", W.t("before_saved")));
      var ul = errs.appendChild(el("ul", "errorlist"));
      r.errors.forEach(function (e) {
        var li = ul.appendChild(el("li", "", e.message));
        if (e.field) { li.dataset.field = e.field; li.dataset.message = e.message; }
      });
      return;
    }
    var names = phone.game.names, div = box.appendChild(el("div", "preview"));
    div.dataset.digest = r.checked;
    div.dataset.deltas = r.payments.join(" ");
    div.dataset.priced = "phone";
    div.dataset.summary = r.payments.map(function (d, i) { return d ? names[i] + " " + signed(d) : ""; })
      .filter(Boolean).join(" · ");
    div.appendChild(el("h3", "", W.t("pays", {number: r.number})));
    if (r.counted.length) {
      var counted = div.appendChild(el("ul", "counted"));
      r.counted.forEach(function (l) { counted.appendChild(el("li", "", l)); });
    }
    var pay = div.appendChild(el("ul", "payments"));
    r.lines.forEach(function (l) { pay.appendChild(el("li", "", l)); });
    var rows = div.appendChild(el("ul", "scores"));
    r.payments.forEach(function (d, i) {
      rows.appendChild(el("li", "", names[i] + " " + signed(d) + " → " + pts(r.after.scores[i])));
    });
  }
  // The server prices the phone's hand otherwise (409, the "price" stop): nothing was
  // saved. Its own preview shows its price, and Save saves that; this page's copy of
  // the game or its engine is not to be trusted, so the server prices from now on.
  function priceStop() {
    phone.on = false;
    delete form.dataset.pricing;
    sending = false;
    return update().then(function () {
      var note = el("p", "errorlist", W.t("stop_price"));
      note.dataset.stop = "price";
      box.insertBefore(note, box.firstChild);
      say(W.t("stop_price"), "pays");
    });
  }
  // An answer for a form changed since it was asked for is not shown: the change is
  // priced now, not at the end of its wait, and the answer awaited is that one.
  function priceNow() { clearTimeout(timer); return update(); }
  function later(ms) { clearTimeout(timer); checked.value = ""; dirty = true; timer = setTimeout(update, ms); }
  function showErrors() {
    markErrors();
    var bad = form.querySelector(".has-error") || box.querySelector("[data-errors], [data-stale]");
    if (bad) bad.scrollIntoView({block: "center"});
  }
  function send() {
    if (sending) return;
    if (Q && Q.active()) { keep(); return; }
    sending = true;
    var body = new FormData(form), mine = box.querySelector("[data-priced=phone][data-digest]");
    body.set("action", "save");
    // Priced on the phone: the server checks that price in the save itself.
    if (mine && mine.dataset.digest === checked.value) body.set("seen", mine.dataset.deltas);
    say(W.t("saving"));
    fetch(form.getAttribute("action"), {method: "POST", body: posted(body), credentials: "same-origin",
                                        headers: {"X-Tenbou-Entry": "1", "X-Tenbou-In-Place": "1"}})
      .then(function (r) {
        if (r.status === 401 && Q) {
          sending = false;
          say(W.t("login_expired_save"));
          return Q.login().then(send);
        }
        if (r.status === 409 && r.headers.get("X-Tenbou-Stop") === "price") return priceStop();
        return r.text().then(function (text) {
          var saved = r.status === 200 && r.headers.get("X-Tenbou-Saved");
          if (saved === "in-place") { inPlace(JSON.parse(text)); return; }
          if (saved) { window.location.assign(text); return; }
          // Refused or a conflict: the server's page, as it would be without this script.
          document.open(); document.write(text); document.close();
        });
      })
      .catch(function () {
        // Not sent (no network, or no answer): keep everything on screen; the same key goes
        // again when the network returns, so the server saves it at most once. With
        // the phone's engine, it joins the queue of hands kept on the phone (same key).
        sending = false;
        if (Q && Q.down()) keep(); else unsent();
      });
  }
  // The save answered in place (the next hand, the game not over): the parts of the page
  // that changed, from the server, and the form as a fresh page has it, with the next
  // hand's number, state and a new key. A correction, or a save that ends the game, is
  // answered with the address of the page instead, as before.
  function swap(old, html, before) {
    var t = document.createElement("template");
    t.innerHTML = html.trim();
    var fresh = t.content.firstElementChild;
    if (old && fresh) old.replaceWith(fresh);
    else if (old) old.remove();
    else if (fresh && before) before.parentNode.insertBefore(fresh, before);
  }
  // A new hand past the first: its row under the others (the list keeps its last few),
  // the links and buttons below it, and the history's newest entry on top (the list keeps
  // its last few): the column as the whole answer would have it.
  function placeHand(column, parts) {
    var rows = column.querySelector("table.hands > tbody"), changes = column.querySelector("details.history > ul");
    if (!rows || !changes || !column.querySelector(".buttons")) return false;  // not the page the answer expects
    var t = document.createElement("template");
    t.innerHTML = parts.hand.trim();
    rows.appendChild(t.content.firstElementChild);
    while (rows.rows.length > Number(rows.dataset.keep)) rows.deleteRow(0);
    var all = column.querySelector("p.all-hands");
    if (all) all.remove();
    t.innerHTML = parts.below.trim();
    column.querySelector(".buttons").replaceWith(t.content);
    t = document.createElement("template");
    t.innerHTML = parts.change.trim();
    changes.insertBefore(t.content, changes.firstElementChild);
    while (changes.children.length > Number(changes.dataset.keep)) changes.lastElementChild.remove();
    return true;
  }
  function inPlace(a) {
    var state = document.querySelector("section.state");
    swap(document.getElementById("clock-notice"), a.parts.clock, state);
    // The earlier hands to correct: the page's own list and the one hand it gains.
    var fixes = state && a.parts.fix !== undefined ? state.querySelector("details.fix-other .fix-panel > ul") : null;
    if (a.parts.fix !== undefined && !fixes) { window.location.assign(a.url); return; }
    swap(state, a.parts.state);
    if (fixes) {
      var into = document.querySelector("section.state .fix-panel > ul"), t = document.createElement("template");
      t.innerHTML = a.parts.fix.trim();
      while (fixes.firstChild) into.appendChild(fixes.firstChild);
      into.appendChild(t.content);
    }
    var column = document.querySelector(".columns > div:last-child");
    if (column && a.parts.hands !== undefined) column.innerHTML = a.parts.hands;
    else if (column && !placeHand(column, a.parts)) { window.location.assign(a.url); return; }
    seq++;  // a preview still on its way is for the hand just saved
    clearTimeout(timer);
    form.reset();
    form.querySelectorAll("details[open]").forEach(function (d) { d.open = false; });
    form.querySelector("input[name=number]").value = a.number;
    form.querySelector("input[name=state]").value = a.state;
    key.value = window.crypto && crypto.randomUUID ? crypto.randomUUID() : a.key;
    checked.value = "";
    tried = false;
    dirty = false;
    pending = null;
    markErrors();
    box.textContent = "";
    var title = document.querySelector("h2.entry-title");
    if (title) title.textContent = W.t("hand_title", {number: a.number});
    save.textContent = W.t("save_hand", {number: a.number});
    status.textContent = "";
    var list = document.createElement("ul"), item = document.createElement("li");
    list.className = "messages";
    item.textContent = a.message;
    list.appendChild(item);
    status.appendChild(list);
    // Each hand its own step in the history, as the pages were: Back shows the game as it is.
    history.pushState({tenbou: a.number}, "", a.url);
    here = address();
    window.scrollTo(0, 0);  // the next hand from the top, as a new page opens
    if (Q && Q.saved) Q.saved(a.game);
    phone.game = a.game;  // the next hand is priced against the game as the server now has it
    sending = false;
  }
  // The queue's last hand, answered in place, goes on the page as an online save does.
  if (Q) Q.placed = inPlace;
  // Back or Forward to another hand's address reloads the game as it is; a fragment
  // (a link within the page) is not another address.
  function address() { return location.pathname + location.search; }
  var here = address();
  window.addEventListener("popstate", function () { if (address() !== here) window.location.reload(); });
  function unsent() {
    form.classList.add("unsent");
    say(W.t("unsent"));
    if (!waiting) {
      waiting = true;
      window.addEventListener("online", function again() {
        window.removeEventListener("online", again); waiting = false;
        form.classList.remove("unsent");
        if (checked.value) send(); else update().then(function () { if (checked.value) send(); });
      });
    }
  }
  // Queued on the phone: priced there; kept and listed, or its errors shown by their fields.
  function keep() {
    Q.save(box).then(function (kept) {
      if (kept) { checked.value = ""; tried = false; } else { tried = true; showErrors(); }
    }, unsent);  // the phone could not price it (its engine did not load): kept on screen
  }
  form.addEventListener("change", function () { later(60); });
  form.addEventListener("input", function (e) { if (e.target.type === "text" || e.target.type === "number") later(400); });
  form.addEventListener("submit", function (e) {
    var action = e.submitter ? e.submitter.value : "save";
    if (action !== "save") return;
    e.preventDefault();
    tried = true;
    if (sending || form.classList.contains("unsent") && !navigator.onLine) return;
    clearTimeout(timer);
    // One tap: wait for the preview of the form as it is now (asking for it if the last
    // change has not been sent yet; an older one on its way does not count), then save it.
    var ready = dirty || !(checked.value || pending) ? update() : (pending || Promise.resolve(true));
    ready.then(function () {
      // A stale form goes to the server all the same: it answers with the conflict page.
      if (checked.value || box.querySelector("[data-stale]")) send(); else showErrors();
    }, function () { send(); });
  });
  if (form.querySelector("input[name=outcome]:checked")) update();
  var marked = form.querySelector(".has-error");
  if (marked) { tried = true; marked.scrollIntoView({block: "center"}); }
})();
