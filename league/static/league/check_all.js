// The players page: "select all" ticks every check-in box.
(function () {
  var all = document.getElementById("select-all");
  if (!all) return;
  all.addEventListener("change", function () {
    document.querySelectorAll("#check-in-form input[name=number]").forEach(function (b) { b.checked = all.checked; });
  });
})();
