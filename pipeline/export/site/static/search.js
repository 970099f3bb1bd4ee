// Search as you type and filters for the index page. The index (window.SITE_INDEX, from
// search-index.js) maps each entry to the words of its names in every inflected form;
// each typed word must begin one of them.
(function () {
  "use strict";
  var form = document.getElementById("search");
  var index = window.SITE_INDEX || {};
  if (!form) { return; }
  form.hidden = false;
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  var box = document.getElementById("q");
  var items = Array.prototype.slice.call(document.querySelectorAll("ul.list > li"));
  var words = {};
  items.forEach(function (li) {
    var id = li.getAttribute("data-id");
    words[id] = (index[id] || "").split(" ");
  });
  function norm(s) { return s.toLowerCase().replace(/ё/g, "е"); }
  function checked(kind) {
    var out = {};
    form.querySelectorAll('input.filter[data-kind="' + kind + '"]').forEach(function (b) {
      if (b.checked) { out[b.value] = true; }
    });
    return out;
  }
  function update() {
    var query = norm(box.value).split(/[^0-9a-zа-я]+/i).filter(Boolean);
    var kinds = checked("kind"), langs = checked("lang"), cov = checked("coverage");
    var shown = 0;
    items.forEach(function (li) {
      var kind = li.getAttribute("data-kind");
      var ls = li.getAttribute("data-langs").split(" ").filter(Boolean);
      var ok = kinds[kind] === true;
      if (ok && ls.length) { ok = ls.some(function (l) { return langs[l] === true; }); }
      if (ok && kind !== "unit") { ok = cov[li.getAttribute("data-coverage")] === true; }
      if (ok) {
        var ws = words[li.getAttribute("data-id")];
        ok = query.every(function (q) {
          return ws.some(function (w) { return w.indexOf(q) === 0; });
        });
      }
      li.hidden = !ok;
      if (ok) { shown += 1; }
    });
    document.getElementById("shown").textContent = shown + " of " + items.length + " shown";
  }
  box.addEventListener("input", update);
  form.querySelectorAll("input.filter").forEach(function (b) {
    b.addEventListener("change", update);
  });
  update();
}());
