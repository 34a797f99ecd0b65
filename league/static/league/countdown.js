// Counts down every element with data-ends (an ISO time: the round's end,
// which the page carries) to mm:ss, then "time is up". The server's clock is
// the reference, read fresh from data-time (a small endpoint never cached),
// never from the page: a page may come from the cache minutes after it was
// made. Until the answer comes, and offline, the browser's own clock counts.
(function () {
  var script = document.currentScript;
  var timeUrl = script && script.getAttribute("data-time");
  var up = script && script.getAttribute("data-up") || "";  // "Time is up", in the page's language
  var offset = 0; // the server's clock minus the browser's, in ms
  var bestTrip = Infinity;
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    var items = document.querySelectorAll("[data-ends]");
    for (var i = 0; i < items.length; i++) {
      var el = items[i];
      var left = Math.floor((Date.parse(el.getAttribute("data-ends")) - (Date.now() + offset)) / 1000);
      if (left <= 0) { el.textContent = el.getAttribute("data-up") || up; el.classList.add("up"); }
      else { var h = Math.floor(left / 3600), m = Math.floor(left % 3600 / 60), s = left % 60;
             el.textContent = (h ? h + ":" + pad(m) : m) + ":" + pad(s); el.classList.remove("up"); }
    }
  }
  function sync() {
    if (!timeUrl || !window.fetch) return;
    var sent = Date.now();
    fetch(timeUrl, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (body) {
        if (!body || typeof body.now !== "number") return;
        var received = Date.now(), trip = received - sent;
        // The answer was made about half-way through the trip; the
        // shortest trip measured is the most exact.
        if (trip <= bestTrip || trip < 2000) {
          bestTrip = Math.min(bestTrip, trip);
          offset = body.now + trip / 2 - received;
          document.documentElement.setAttribute("data-clock-offset", String(Math.round(offset)));
          tick();
        }
      })
      .catch(function () {});
  }
  function start() {
    tick(); window.setInterval(tick, 1000);
    sync(); window.setInterval(sync, 5 * 60 * 1000); // a projector runs all day: a drifting clock is caught
  }
  // Deferred scripts run before DOMContentLoaded, when the page is parsed.
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
