/* Sending the queue when the network is back: the kept new hands in ONE request
   (the server's kept/), each entry as its save would post it; a correction, or an
   entry kept before the phone knew its digest, as its own save. */
import {W, csrf, el, gameUrl, q, save, saved, prepare} from "./store.js";
import {render} from "./banner.js";
import {showStop} from "./conflict.js";
import {login} from "./login.js";
import {wentOffline} from "./network.js";

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

/* A correction as its own save (a new hand goes in the batch): it carries the phone's
   digest of the hand (`checked`, computed by the server's own code in the engine) and
   the payments the scorer saw (`seen`); the server prices it as its preview would and
   refuses it, nothing saved, when its payments differ (the "price" stop). An entry kept
   before the phone knew its digest goes the old way, a preview then the save. */
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
    var how = s.status === 200 && s.headers.get("X-Tenbou-Saved");
    if (how === "in-place") return JSON.parse(text);
    if (how) return text;
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
      // A gateway with no server behind it: as no answer (tried again), as a single save's.
      if (r.status === 502 || r.status === 503 || r.status === 504) {
        return Promise.reject({kind: "http", status: r.status});
      }
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

export function sync() {
  if (q.syncing || q.offline || !q.store || !q.store.ops.length || q.store.stop || q.loggingIn) return;
  q.syncing = true;
  render();
  var next = null;
  function failed(why) {
    q.syncing = false;
    if (why instanceof TypeError || why && why.kind === "http" && why.status >= 500) {
      wentOffline();  // no answer: the entry stays first in the queue, tried again later
      return;
    }
    q.store.stop = {kind: why.kind, html: why.html || "", theirs: why.theirs || null, id: q.store.ops[0].id};
    save();
    render();
    showStop();
    prepare();  // the server answers: the worker's copies are renewed while the scorer reads
  }
  (function step() {
    if (!q.store.ops.length) {
      q.syncing = false;
      q.store = null;
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
    var run = batchOf(q.store.ops);
    if (run.length) {
      sendBatch(run).then(function (a) {
        a.entries.forEach(function () {
          var op = q.store.ops.shift();
          q.store.sent[op.slot] = op.number;
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
    var op = q.store.ops[0];  // a correction, or an entry kept before the phone knew its digest
    sendOne(op).then(function (url) {
      q.store.sent[op.slot] = op.number;
      q.store.ops.shift();
      next = url;
      if (url && typeof url === "object") saved(url.game);  // the engine's game, as the server now has it
      save();
      render();
      step();
    }, failed);
  })();
}
