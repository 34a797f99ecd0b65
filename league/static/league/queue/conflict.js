/* A stop: the phone's entry beside the server's own account of the game now,
   and the scorer's choice; nothing leaves the phone without a tap. */
import {E, W, el, main, q, save, signed, fetchServer, gameUrl} from "./store.js";
import {opName, render, showBanner} from "./banner.js";
import {storeNames} from "./pricing.js";
import {sync} from "./sending.js";

export function showStop() {
  var old = document.getElementById("stopped");
  if (old) old.remove();
  if (!q.store || !q.store.stop) return;
  var stop = q.store.stop, op = q.store.ops[0];
  var box = el("section", "stopped");
  box.id = "stopped";
  box.setAttribute("role", "alert");
  var title = W.t("stop_" + stop.kind);
  box.appendChild(el("h2", "", title));
  var sides = el("div", "conflict");
  var mine = el("section", "side mine");
  mine.appendChild(el("h3", "", W.t("on_phone")));
  mine.appendChild(el("p", "", W.t("named_sentence", {name: opName(op), entry: op.summary})));
  mine.appendChild(el("p", "", op.lines.join(W.t("list"))));
  if (q.store.ops.length > 1) mine.appendChild(el("p", "muted", W.n("more_kept", q.store.ops.length - 1)));
  var theirs = el("section", "side now");
  theirs.appendChild(el("h3", "", W.t("on_server")));
  if (stop.kind === "price") {
    theirs.appendChild(el("p", "", storeNames().map(function (n, i) { return n + " " + signed(stop.theirs[i]); })
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
  q.store.stop = null;
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
    var numbers = {}, ops = q.store.ops.filter(function (o) { return o.id !== dropId; }), out = [];
    Object.keys(q.store.sent).forEach(function (s) { numbers[s] = q.store.sent[s]; });
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
      q.store.ops = out;
      q.store.game = game;
      q.store.priced = priced;
      if (out.length) q.store.table = out[out.length - 1].after;
      q.store.stop = null;
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
export function showReview() {
  if (!q.store || !q.store.ops.length) {  // nothing left on the phone: the game as the server has it
    q.store = null;
    save();
    window.location.assign(gameUrl);
    return;
  }
  q.store.stop = {kind: "review"};
  save();
  showBanner();
  var box = el("section", "stopped");
  box.id = "stopped";
  box.appendChild(el("h2", "", W.t("review_title")));
  box.appendChild(el("p", "", W.t("review_text")));
  var send = el("button", "primary", W.n("send_entries", q.store.ops.length));
  send.type = "button";
  send.addEventListener("click", resume);
  box.appendChild(send);
  var at = document.querySelector(".columns") || main;
  at.parentNode.insertBefore(box, at);
}
