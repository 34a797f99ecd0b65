/* The queue's state and what the phone holds (queue/ is the offline queue of the
   staff game page, as small ES modules; main.js starts it, docs/offline.md).

   The page's own parts (its form, addresses, the engine and the server's words),
   the state every module shares (`q`: the kept entries, the server's last game,
   the network as the page knows it) and the browser's storage: each hand or
   correction kept while the network is down stays in localStorage, which
   survives closing the tab and restarting the phone. */
const page = document.querySelector("[data-game-url]");
export const form = document.querySelector("form.hand-form");
export const E = window.TenbouEngine, W = window.TenbouWords;
// Without a game page, fetch, storage or the server's words there is no queue:
// staff_game.js goes on alone, as on a browser without modules.
export const ok = !!(page && window.fetch && window.localStorage && window.JSON && W);
export const gameUrl = ok ? page.dataset.gameUrl : "", base = ok ? page.dataset.staffUrl : "";
export const user = ok ? page.dataset.user : "";
export const main = document.querySelector("main");
const storeKey = "tenbou.queue." + gameUrl;

export const q = {
  canQueue: ok && !!(E && localStorage.getItem("tenbou.engine") === "1"),
  offline: !navigator.onLine, syncing: false, correcting: null, loggingIn: null, engine: "",
  store: ok ? load() : null,  // the kept entries, the phone's game after them, a stop
  server: null,  // the game as the server last told it (offline.json)
};

function load() {
  try { return JSON.parse(localStorage.getItem(storeKey)) || null; } catch (e) { return null; }
}
export function save() {
  if (q.store && (q.store.ops.length || q.store.stop)) localStorage.setItem(storeKey, JSON.stringify(q.store));
  else localStorage.removeItem(storeKey);
}
export function uuid() {
  return window.crypto && crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random();
}
export function csrf() {
  var input = document.querySelector("input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}
export function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
export function pts(n) { return n.toLocaleString("en-US"); }
export function signed(n) { return n > 0 ? "+" + pts(n) : pts(n); }

export function prepare() {
  // Online: learn whether the engine can run here, and have the worker keep its files.
  fetch(base + "offline/engine.json", {credentials: "same-origin"})
    .then(function (r) { return r.ok ? r.json() : null; })
    .then(function (info) {
      if (!info) return;
      localStorage.setItem("tenbou.engine", info.available ? "1" : "0");
      q.canQueue = !!(E && info.available);
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
export function fetchServer() {
  return fetch(gameUrl + "offline.json", {credentials: "same-origin", headers: {"X-Tenbou-Entry": "1"}})
    .then(function (r) { return r.ok ? r.json() : Promise.reject(r.status); })
    .then(function (g) { q.server = g; return g; });
}
// The phone's view of the game: the server's, with every queued entry applied.
export function phoneGame() {
  if (q.store && q.store.game) return Promise.resolve(q.store.game);
  return q.server ? Promise.resolve(q.server) : fetchServer();
}

// A save answered in place (staff_game.js): the game as the server now has it, for the
// phone's engine, and for the worker's copy of offline.json, which no page load renews now.
export function saved(g) {
  q.server = g;
  var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
  if (worker) worker.postMessage({type: "put", url: gameUrl + "offline.json", body: JSON.stringify(g)});
}
