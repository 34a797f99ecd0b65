/* The staff game page's offline queue, started (issue 30; docs/offline.md).

   While the network is down the scorer goes on: each hand (or correction) is
   priced on the phone by the server's own Python (engine.js), kept in this
   browser's storage and listed as "on this phone, not yet saved". When the
   network is back the kept new hands go in ONE request (the server's kept/),
   each as its save would post it, with the digest of the hand (`checked`) and
   the payments the phone showed (`seen`); the server takes each exactly as if
   typed online and stops at the first it does not save; a key seen before is
   never saved twice. A conflict stops the queue and shows both sides. The page's
   own script (staff_game.js, loaded after this module) hands its preview and
   Save over to this one through window.TenbouQueue while there is a queue or no
   network. Every word it writes comes from the server (words.js). */
import {W, base, fetchServer, form, ok, prepare, q, saved} from "./store.js";
import {active, mountBanner, render, setEntry, showRefused} from "./banner.js";
import {preview, queue} from "./pricing.js";
import {sync} from "./sending.js";
import {showReview, showStop} from "./conflict.js";
import {login} from "./login.js";
import {listen, start, wentOffline} from "./network.js";

if (ok) {
  // The service worker, and the files it keeps for an offline reload.
  if ("serviceWorker" in navigator && base) {
    navigator.serviceWorker.register(base + "sw.js", {scope: base}).catch(function () {});
  }
  mountBanner();
  listen();
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
  if (q.offline && !q.store && form) {
    fetchServer().then(function (g) {
      if (showRefused(g)) return;
      if (!q.store && g.number > Number(form.querySelector("input[name=number]").value)) {
        setEntry(g.number, g.state, W.t("hand_title", {number: g.number}), W.t("save_hand", {number: g.number}));
      }
    }).catch(function () {});
  }
  if (q.offline || q.store) start();
  render();
  if (q.store && q.store.stop) {
    if (q.store.stop.kind === "review") { q.store.stop = null; showReview(); } else showStop();
  } else if (!q.offline) sync();
}
