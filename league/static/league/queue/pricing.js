/* Pricing and keeping a hand on the phone: the server's own Python prices it
   (engine.js), the entry joins the queue (never the network directly), and a
   correction of a hand still on this phone. */
import {E, W, el, form, pts, q, save, signed, uuid, phoneGame} from "./store.js";
import {render, setEntry} from "./banner.js";
import {sync} from "./sending.js";

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
  div.dataset.summary = result.payments.map(function (d, i) { return d ? storeNames()[i] + " " + signed(d) : ""; })
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
    rows.appendChild(el("li", "", storeNames()[i] + " " + signed(d) + " → " + pts(result.after.scores[i])));
  });
  div.appendChild(rows);
  box.appendChild(div);
  return true;
}
export function storeNames() { return (q.store && q.store.game || q.server || {names: ["", "", "", ""]}).names; }

function price() {
  return phoneGame().then(function (g) {
    var number = q.correcting ? q.correcting.number : g.number;
    return E.price(g, fields(), number).then(function (result) { return {game: g, result: result, number: number}; });
  }).catch(function (why) {
    // No engine after all (its files were not kept, or it failed): the page keeps
    // the hand on screen instead, as without this script.
    if (window.console) console.warn("Tenbou: this phone cannot price the hand:", why);
    q.canQueue = !!(q.store && q.store.ops.length);
    render();
    throw why;
  });
}

/* The live preview while queueing: what the hand pays, from the phone. */
export function preview(box) {
  return price().then(function (p) {
    if (!q.store) q.store = {game: p.game, ops: [], sent: {}, stop: null};
    if (p.result.ok && !q.correcting && q.store.ops.length) {
      q.store.table = Object.assign({}, p.result.before, {scores: p.result.before.scores});
      render();
    }
    return showPrice(box, p.result, p.number) ? "phone" : "";
  });
}

/* Save while queueing: the entry joins the queue (never the network directly). */
export function queue(box) {
  return price().then(function (p) {
    if (!q.store) q.store = {game: p.game, ops: [], sent: {}, stop: null};
    if (!showPrice(box, p.result, p.number)) return false;
    var r = p.result, key = form.querySelector("input[name=key]").value;
    var op = {
      id: uuid(), kind: q.correcting ? "correction" : "hand", number: p.number,
      slot: q.correcting ? q.correcting.slot : null, fields: fields(), state: r.state, key: key,
      payments: r.payments, lines: r.lines, summary: r.summary, after: r.after, digest: r.digest,
      checked: r.checked,
      at: Date.now(),
    };
    if (!op.slot) op.slot = op.id;
    q.store.game = E.apply(p.game, r);
    // The phone's price of every hand, as it stands after this entry (a correction
    // re-prices the later hands): what the server must agree with.
    q.store.priced = q.store.priced || {};
    var old = Object.assign({}, q.store.priced);
    q.store.priced[p.number] = r.payments;
    (r.later || []).forEach(function (l) { if (l.payments) q.store.priced[l.number] = l.payments; });
    if (!q.correcting || !q.store.table || p.number === p.game.number - 1) {
      q.store.table = r.after;
    } else {
      // A correction of an earlier hand: the scores move by what its hand and the later
      // ones pay differently; where the game stands comes with the next hand's price.
      var scores = q.store.table.scores.slice();
      Object.keys(q.store.priced).forEach(function (n) {
        (old[n] || [0, 0, 0, 0]).forEach(function (v, i) { scores[i] += q.store.priced[n][i] - v; });
      });
      q.store.table = Object.assign({}, q.store.table, {scores: scores});
    }
    q.store.ops.push(op);
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
    if (!q.offline) sync();
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
export function startCorrection(op) {
  var latest = op;
  q.store.ops.forEach(function (o) { if (o.slot === op.slot) latest = o; });
  q.correcting = {slot: op.slot, number: op.number};
  nextEntry();
  Object.keys(latest.fields).forEach(function (name) {
    var values = [].concat(latest.fields[name]);
    form.querySelectorAll('[name="' + name + '"]').forEach(function (input) {
      if (input.type === "radio" || input.type === "checkbox") input.checked = values.indexOf(input.value) !== -1;
      else input.value = values[0];
    });
  });
  setEntry(op.number, q.store.game.state, W.t("correct_title", {number: op.number}), W.t("save_correction"));
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
  q.correcting = null;
  var cancel = document.getElementById("cancel-correction");
  if (cancel) cancel.remove();
}
