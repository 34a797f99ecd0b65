/* The network going and coming: the page offline (and the engine started), the
   queue sent on the browser's "online" event or, without one, as soon as the
   server answers again. */
import {E, q, prepare} from "./store.js";
import {render} from "./banner.js";
import {sync} from "./sending.js";

export function wentOffline() {
  q.offline = true;
  start();
  render();
  return q.canQueue;
}
// The engine starts when the network goes (it holds the page for a few seconds, so
// not on every page load): by the time the hand is entered, it prices it.
var engineTries = 0;
export function start() {
  if (!q.canQueue || q.engine) return;
  q.engine = "loading";
  E.ready().then(function () { q.engine = "ready"; engineTries = 0; render(); }, function (why) {
    if (window.console) console.warn("Tenbou: no engine on this phone:", why);
    q.engine = "";
    // A look the network cut short is asked again from the kept copy, twice, before giving up.
    if (q.offline && ++engineTries < 3) { setTimeout(start, 1000); return; }
    q.canQueue = !!(q.store && q.store.ops.length);
    render();
  });
}
// The browser's "offline" and "online" events, and the probe while entries wait.
export function listen() {
  window.addEventListener("offline", wentOffline);
  window.addEventListener("online", function () {
    q.offline = false;
    render();
    // The kept entries first: the page the last one leads to renews the worker's copies (the
    // engine's files among them), which would otherwise compete with them for the server.
    if (q.store && q.store.ops.length && !q.store.stop) sync(); else prepare();
  });
  // A network that fails without the browser noticing: try the first entry again every
  // 300 ms while some wait (its one save request, and a refused connection costs nothing; a
  // failure puts the page back offline, and one try at a time: sync() sends nothing while
  // one is under way), so the queue goes as soon after the server answers again as after
  // an "online" event. Nothing waiting, or a stop for the scorer: no request.
  setInterval(function () {
    if (q.offline && navigator.onLine && q.store && q.store.ops.length) { q.offline = false; sync(); }
  }, 300);
}
