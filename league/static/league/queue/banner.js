/* What the page shows of the queue: the banner, the state line and the form's
   title after each kept entry, and the list "on this phone, not yet saved". */
import {W, el, form, main, pts, q} from "./store.js";
import {startCorrection} from "./pricing.js";

let banner = null;
// In the save bar when there is one (at the bottom of the screen, where nothing is
// tapped through it), else at the top of the page's content: never over the header,
// the breadcrumbs or "Log out".
export function mountBanner() {
  banner = el("div", "offline-banner");
  banner.setAttribute("role", "status");
  banner.hidden = true;
  var bar = document.querySelector(".savebar");
  if (bar) bar.insertBefore(banner, bar.firstChild);
  else if (main) main.insertBefore(banner, main.firstChild);
}

export function showBanner() {
  var n = q.store ? q.store.ops.length : 0;
  var text = "";
  if (q.offline && q.engine === "loading") text = W.t("banner_loading");
  else if (q.offline && q.canQueue) text = n ? W.n("banner_offline", n) : W.t("banner_offline_empty");
  else if (q.offline) text = W.t("banner_no_engine");
  else if (q.store && q.store.stop) text = W.n("banner_stopped", n);
  else if (n) text = W.n("banner_sending", n);
  banner.textContent = text;
  banner.hidden = !text;
  document.body.classList.toggle("banner-on", !!text);
  document.body.classList.toggle("queue-mode", active());
}

export function active() { return q.canQueue && (q.offline || !!(q.store && (q.store.ops.length || q.store.stop))); }

// -- the page after each queued entry --------------------------------------------------
export function render() {
  showBanner();
  if (!q.store || !q.store.game) return;
  var g = q.store.game;
  var where = document.querySelector(".state .where"), who = document.querySelector(".state .who");
  var after = q.store.table;
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
  if (form && !q.correcting) setEntry(g.number, g.state, W.t("hand_title", {number: g.number}),
                                        W.t("save_hand", {number: g.number}));
  var refused = showRefused(g);
  if (form) form.hidden = (!!g.finished || refused) && !q.correcting;
  var over = document.getElementById("phone-over");
  if (g.finished && !over && form) {
    over = el("p", "notice", W.t("phone_over"));
    over.id = "phone-over";
    form.parentNode.insertBefore(over, form);
  }
  listQueued();
}
// A stored hand the engine now refuses (offline.json's `refused`, in the words of the
// staff page's notice): no hand can be entered after it, on this phone either, until
// it is corrected or undone, which needs the network. Says so once, hides the form
// for a new hand, and answers whether it did. A page the server made since says it
// itself (#unreplayable) and has no such form.
export function showRefused(g) {
  var r = g && g.refused;
  if (!r || q.correcting) return false;
  if (!document.getElementById("unreplayable") && !document.getElementById("phone-refused")) {
    var box = el("div", "notice");
    box.id = "phone-refused";
    box.setAttribute("role", "alert");
    box.appendChild(el("p", "", W.t("sentence", {sentence: r.text})));
    box.appendChild(el("p", "", W.t("refused_after")));
    box.appendChild(el("p", "", W.t("refused_online")));
    var at = document.querySelector("section.state") || document.querySelector(".columns");
    if (at) at.parentNode.insertBefore(box, at);
    else if (main) main.appendChild(box);
  }
  if (form) form.hidden = true;
  var title = document.querySelector("h2.entry-title");
  if (title) title.hidden = true;
  return true;
}
export function setEntry(number, state, title, label) {
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
  if (!q.store || !q.store.ops.length) { box.hidden = true; return; }
  box.hidden = false;
  box.appendChild(el("h3", "", W.t("queued_title")));
  var list = el("ol", "queue");
  q.store.ops.forEach(function (op) {
    var li = el("li", "op");
    li.classList.toggle("correction", op.kind === "correction");
    li.dataset.number = op.number;
    var named = W.t("named", {entry: op.summary}).split("{name}");
    li.append(named[0]);
    li.appendChild(el("strong", "", opName(op)));
    li.append(named[1] + " ");
    li.appendChild(el("span", "badge", W.t("badge")));
    li.appendChild(el("span", "pay", op.lines.join(W.t("list"))));
    if (op.kind === "hand" && !q.store.stop) {
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

export function opName(op) {
  return W.t(op.kind === "correction" ? "queued_correction" : "queued_hand", {number: op.number});
}
