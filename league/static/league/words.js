/* The words the page's scripts show, in the page's language. The script before
   this one (/words/<language>.<version>.js, {% script_words %},
   league/script_words.py) puts them in window.TenbouWordsData; a script never
   writes words of its own, it asks here:
     TenbouWords.t("hand_title", {number: 5})     "Hand 5" / "第5局"
     TenbouWords.n("banner_sending", 3)           the plural form for 3, {n} filled
     TenbouWords.where("E3", 1, 2)                the state line, as the server's filters
   A missing key gives "" (tests/league/test_script_words.py checks every key). */
(function (root) {
  "use strict";
  var words = root.TenbouWordsData || {};
  function t(key, values) {
    var text = words[key];
    if (typeof text !== "string") return "";
    return text.replace(/\{(\w+)\}/g, function (slot, name) {
      return values && name in values ? String(values[name]) : slot;
    });
  }
  function n(key, count, values) {
    var all = Object.assign({n: count}, values || {});
    return t(key + (count === 1 ? "_one" : "_many"), all);
  }
  function round(label) { return (words.rounds || {})[label] || label; }
  function sticks(count) { return count ? n("sticks", count) : t("sticks_none"); }
  function where(label, honba, riichiSticks) {
    return t("where", {round: round(label), honba: t("honba", {n: honba}), sticks: sticks(riichiSticks)});
  }
  root.TenbouWords = {t: t, n: n, round: round, sticks: sticks, where: where};
})(window);
