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
