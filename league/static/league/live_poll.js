// A light poll while something is being played: every data-seconds s fetch
// this page with ?partial=1 and swap #live. Each poll sends the ETag of the
// fragment it holds (data-etag on this script tag gives the first), so when
// nothing changed the answer is a 304 of a few hundred bytes and the page is
// left alone. Without JavaScript a <noscript> refresh keeps the page current.
(function () {
  var script = document.currentScript;
  var box = document.getElementById("live");
  if (!script || !box || !window.fetch) return;
  var seconds = parseInt(script.getAttribute("data-seconds"), 10) || 30;
  var etag = script.getAttribute("data-etag") || "";
  function tick() {
    if (box.getAttribute("data-live") !== "1" || document.hidden) { return schedule(); }
    var url = new URL(window.location.href);
    url.searchParams.set("partial", "1");
    var headers = {"X-Requested-With": "fetch"};
    if (etag) headers["If-None-Match"] = etag;
    // no-store: the browser's cache stays out of it, so a 304 reaches us as a 304.
    fetch(url, {headers: headers, credentials: "same-origin", cache: "no-store"})
      .then(function (r) {
        if (!r.ok) return null;  // a 304 is not "ok": nothing changed
        etag = r.headers.get("ETag") || "";
        return r.text();
      })
      .then(function (html) {
        if (html === null) return;
        var holder = document.createElement("div");
        holder.innerHTML = html;
        var fresh = holder.querySelector("#live");
        if (fresh) {
          // What the reader set in the box (a search being typed, "every
          // column" ticked) survives the swap.
          var kept = Array.prototype.map.call(box.querySelectorAll("input[id]"), function (el) {
            return {id: el.id, value: el.value, checked: el.checked, focused: el === document.activeElement};
          });
          box.innerHTML = fresh.innerHTML;
          kept.forEach(function (k) {
            var el = document.getElementById(k.id);
            if (!el) return;
            if (el.type === "checkbox") { el.checked = k.checked; } else { el.value = k.value; }
            if (k.focused) el.focus();
          });
          box.setAttribute("data-live", fresh.getAttribute("data-live"));
          var stamp = document.getElementById("live-updated");
          if (stamp && window.TenbouWords) {  // the server's words, the page's language
            stamp.textContent = TenbouWords.t("updated", {time: new Date().toLocaleTimeString(document.documentElement.lang)});
          }
        }
      })
      .catch(function () {})
      .then(schedule);
  }
  function schedule() { window.setTimeout(tick, seconds * 1000); }
  schedule();
})();
