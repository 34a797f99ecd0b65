/* The light staff game page: the rare chips (7+ han, 80+ fu, more yakuman,
   the yaku, the tile situations) come once, as data in the page's #rare-chips
   block, instead of four times in the markup; this builds each seat's chips
   where the server marked the place (data-fill="han_2": the kind, the seat),
   the markup templates/league/staff_field.html gives, and the help each
   seat repeats (data-text="yaku"). It runs before the
   page's other scripts, so they find the form a full page has, and offline
   too: the data is part of the page. */
(function () {
  "use strict";
  // A fresh page sends the rare values of the first seat only (yakuman, pao, yaku,
  // dora, tiles: the seat's "More"); each other seat's is a copy, its fields renamed
  // for its seat (yaku_0 -> yaku_2, id_tiles_0_helptext -> id_tiles_2_helptext).
  var copies = document.querySelectorAll("details.seat-more[data-copy]");
  var source = copies.length && document.querySelector(".seat-value details.seat-more:not([data-copy])");
  var ATTRS = ["id", "name", "for", "aria-labelledby", "aria-describedby", "data-fill"];
  for (var c = 0; source && c < copies.length; c++) {
    var seat = copies[c].getAttribute("data-copy");
    for (var node = source.firstElementChild; node; node = node.nextElementSibling) {
      if (node.tagName === "SUMMARY") continue;
      var copy = node.cloneNode(true), all = [copy].concat(Array.prototype.slice.call(copy.querySelectorAll("*")));
      all.forEach(function (el) {
        ATTRS.forEach(function (a) {
          var v = el.getAttribute(a);
          if (v) el.setAttribute(a, v.replace(/_0(?=_|$)/, "_" + seat));
        });
      });
      copies[c].appendChild(copy);
    }
    copies[c].removeAttribute("data-copy");
  }
  var block = document.getElementById("rare-chips");
  if (!block) return;
  var kinds = JSON.parse(block.textContent);
  var places = document.querySelectorAll("[data-fill]");
  for (var i = 0; i < places.length; i++) {
    var place = places[i], m = /^(\w+)_([0-3])$/.exec(place.getAttribute("data-fill"));
    var kind = m && kinds[m[1]];
    if (!kind) continue;
    var name = m[1] + "_" + m[2];
    place.textContent = "";
    kind.choices.forEach(function (choice, n) {
      var id = "id_" + name + "_" + (kind.first + n);
      var label = document.createElement("label"), input = document.createElement("input"),
          span = document.createElement("span");
      label.className = "chip";  // it holds its input: no "for" needed
      input.type = kind.type;
      input.name = name;
      input.value = choice[0];
      input.id = id;
      input.defaultChecked = input.checked = choice[0] === kind.checked;  // a form.reset() keeps it
      span.textContent = choice[1];
      label.appendChild(input);
      label.appendChild(span);
      place.appendChild(label);
    });
    place.removeAttribute("data-fill");
  }
  var texts = document.querySelectorAll("[data-text]");
  for (var j = 0; j < texts.length; j++) {
    texts[j].textContent = kinds.texts[texts[j].getAttribute("data-text")] || "";
  }
})();
