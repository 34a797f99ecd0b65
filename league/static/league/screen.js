// The projector screen: a progress bar along the bottom, then the next page
// (data-next) after data-seconds seconds.
(function () {
  var script = document.currentScript;
  if (!script) return;
  var seconds = parseInt(script.getAttribute("data-seconds"), 10) || 30;
  var next = script.getAttribute("data-next");
  var started = Date.now(), bar = document.getElementById("progress");
  if (bar) window.setInterval(function () { bar.style.width = Math.min(100, (Date.now() - started) / (seconds * 10)) + "%"; }, 250);
  if (next) window.setTimeout(function () { window.location.href = next; }, seconds * 1000);
})();
