// Filter the ledger table by paper and status, and search its text. Local, no dependency.
// The URL query (?paper=002&status=refuted&q=text) presets the filters, so the summary links to them.
(function () {
  "use strict";
  var table = document.getElementById("ledger");
  var rows = Array.prototype.slice.call(table.tBodies[0].rows);
  var paper = document.getElementById("filter-paper");
  var status = document.getElementById("filter-status");
  var search = document.getElementById("search");
  var count = document.getElementById("count");
  var params = new URLSearchParams(window.location.search);
  function preset(el, name) {
    var v = params.get(name);
    if (v !== null) { el.value = v; }
  }
  preset(paper, "paper");
  preset(status, "status");
  preset(search, "q");
  function apply() {
    var p = paper.value, s = status.value, q = search.value.trim().toLowerCase();
    var shown = 0;
    rows.forEach(function (r) {
      var ok = (!p || r.dataset.paper === p) && (!s || r.dataset.status === s) &&
               (!q || r.textContent.toLowerCase().indexOf(q) !== -1);
      r.hidden = !ok;
      if (ok) { shown += 1; }
    });
    count.textContent = shown + " of " + rows.length + " rows";
  }
  paper.addEventListener("change", apply);
  status.addEventListener("change", apply);
  search.addEventListener("input", apply);
  apply();
}());
