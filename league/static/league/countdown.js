// Counts down every element with data-ends (an ISO time) to mm:ss, then
// "time is up". The server's clock is the reference: the offset to the
// browser's is measured once, from this script tag's data-now.
(function () {
  var script = document.currentScript;
  var now = script && script.getAttribute("data-now");
  var offset = now ? Date.parse(now) - Date.now() : 0;
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    var items = document.querySelectorAll("[data-ends]");
    for (var i = 0; i < items.length; i++) {
      var el = items[i];
      var left = Math.floor((Date.parse(el.getAttribute("data-ends")) - (Date.now() + offset)) / 1000);
      if (left <= 0) { el.textContent = el.getAttribute("data-up") || "Time is up"; el.classList.add("up"); }
      else { var h = Math.floor(left / 3600), m = Math.floor(left % 3600 / 60), s = left % 60;
             el.textContent = (h ? h + ":" + pad(m) : m) + ":" + pad(s); el.classList.remove("up"); }
    }
  }
  function start() { tick(); window.setInterval(tick, 1000); }
  // Deferred scripts run before DOMContentLoaded, when the page is parsed.
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
