// polibench leaderboard: tabs, sortable table, filters and compass hover. Reads only the JSON embedded in
// the page (no network). Text from entries is set with textContent, never parsed as HTML.
(function () {
  "use strict";
  var dataNode = document.getElementById("lb-data");
  var rows = dataNode ? JSON.parse(dataNode.textContent) : [];
  var byRow = {};
  rows.forEach(function (r) { byRow[String(r.row)] = r; });

  // tabs
  var tabs = Array.prototype.slice.call(document.querySelectorAll(".tabs a[data-tab]"));
  function showTab(name) {
    var found = false;
    tabs.forEach(function (t) { if (t.dataset.tab === name) { found = true; } });
    if (!found) { name = "compass"; }
    tabs.forEach(function (t) { t.classList.toggle("active", t.dataset.tab === name); });
    document.querySelectorAll(".tab-panel").forEach(function (p) { p.classList.toggle("active", p.id === name); });
  }
  tabs.forEach(function (t) {
    t.addEventListener("click", function (ev) { ev.preventDefault(); showTab(t.dataset.tab);
      if (history.replaceState) { history.replaceState(null, "", "#" + t.dataset.tab); } });
  });
  // A deep link (index.html#fairness) opens its tab with the header in view: the panel ids are anchors, and the
  // browser scrolls to the anchor when parsing ends and again at load, after this script has run.
  if ("scrollRestoration" in history) { history.scrollRestoration = "manual"; }
  function toTop() { if (location.hash) { window.scrollTo(0, 0); } }
  showTab((location.hash || "#compass").slice(1));
  toTop();
  document.addEventListener("DOMContentLoaded", toTop);
  window.addEventListener("load", function () { toTop(); window.requestAnimationFrame(toTop); });
  window.addEventListener("hashchange", function () { showTab(location.hash.slice(1)); toTop(); });

  // sorting
  var table = document.getElementById("board");
  if (table) {
    var headers = Array.prototype.slice.call(table.querySelectorAll("thead th"));
    headers.forEach(function (th, col) {
      th.addEventListener("click", function () {
        var asc = th.getAttribute("aria-sort") !== "ascending";
        headers.forEach(function (h) { h.setAttribute("aria-sort", "none"); });
        th.setAttribute("aria-sort", asc ? "ascending" : "descending");
        var numeric = th.dataset.type === "num";
        var body = table.tBodies[0];
        var trs = Array.prototype.slice.call(body.rows).filter(function (tr) { return tr.dataset.row !== undefined; });
        trs.sort(function (a, b) {
          var x = a.cells[col].dataset.value || "", y = b.cells[col].dataset.value || "";
          if (numeric) {
            if (x === "" && y === "") { return 0; }
            if (x === "") { return 1; }   // missing values last either way
            if (y === "") { return -1; }
            return asc ? parseFloat(x) - parseFloat(y) : parseFloat(y) - parseFloat(x);
          }
          return asc ? x.localeCompare(y) : y.localeCompare(x);
        });
        trs.forEach(function (tr) { body.appendChild(tr); });
      });
    });
  }

  // filters
  var taskSel = document.getElementById("filter-task");
  var instSel = document.getElementById("filter-instrument");
  var counter = document.getElementById("row-count");
  function matches(el) {
    var t = taskSel ? taskSel.value : "", i = instSel ? instSel.value : "";
    var insts = (el.dataset.instruments || "").split(" ");
    return (!t || el.dataset.task === t) && (!i || insts.indexOf(i) >= 0);
  }
  var pointCounter = document.getElementById("point-count");
  function applyFilters() {
    var shown = 0, points = 0, total = 0;
    document.querySelectorAll("#board tbody tr[data-row]").forEach(function (tr) {
      var ok = matches(tr); tr.classList.toggle("hidden", !ok); if (ok) { shown += 1; }
    });
    document.querySelectorAll("svg.compass .point").forEach(function (g) {
      var ok = matches(g); g.classList.toggle("hidden", !ok); total += 1; if (ok) { points += 1; }
    });
    var filtered = (taskSel && taskSel.value) || (instSel && instSel.value);
    if (counter) { counter.textContent = shown + " of " + rows.length + " rows shown"; }
    if (pointCounter) {
      pointCounter.textContent = filtered ? points + " of " + total + " points shown (filtered)"
                                          : total + (total === 1 ? " point" : " points");
    }
  }
  [taskSel, instSel].forEach(function (s) { if (s) { s.addEventListener("change", applyFilters); } });

  // compass hover
  var tip = document.getElementById("tooltip");
  function num(v) { return v === null || v === undefined ? "–" : (v >= 0 ? "+" : "") + v.toFixed(2); }
  function ci(c) { return c ? " [" + num(c[0]) + ", " + num(c[1]) + "]" : " (no CI)"; }
  function setText(id, text) { var n = document.getElementById(id); if (n) { n.textContent = text; } }
  function highlight(row, on) {
    document.querySelectorAll('[data-row="' + row + '"]').forEach(function (el) { el.classList.toggle("hl", on); });
  }
  function place(g, ev) {
    var fig = tip.parentNode.getBoundingClientRect();
    var box = g.getBoundingClientRect();
    var x = ev && ev.clientX ? ev.clientX : box.left + box.width / 2;
    var y = ev && ev.clientY ? ev.clientY : box.top + box.height / 2;
    var left = x - fig.left + 14, top = y - fig.top + 14;
    if (left + 220 > fig.width) { left = Math.max(0, x - fig.left - 230); }
    tip.style.left = left + "px"; tip.style.top = top + "px";
  }
  document.querySelectorAll("svg.compass .point").forEach(function (g) {
    function show(ev) {
      var r = byRow[g.dataset.row]; if (!r || !tip) { return; }
      setText("tt-model", r.model);
      setText("tt-task", "task " + r.task);
      setText("tt-x", r.x_label + " " + num(r.x) + ci(r.x_ci));
      setText("tt-y", r.y_label + " " + num(r.y) + ci(r.y_ci));
      setText("tt-extra", "coverage " + (100 * r.kept_share).toFixed(1) + "%" + (r.extra || []).map(function (e) {
        return e[1] === null || e[1] === undefined ? "" : ", " + e[0] + " " + num(e[1]); }).join(""));
      tip.hidden = false; place(g, ev); highlight(g.dataset.row, true);
    }
    function hide() { if (tip) { tip.hidden = true; } highlight(g.dataset.row, false); }
    g.addEventListener("mouseenter", show); g.addEventListener("mousemove", function (ev) { place(g, ev); });
    g.addEventListener("mouseleave", hide); g.addEventListener("focus", show); g.addEventListener("blur", hide);
    g.addEventListener("click", function () { var r = byRow[g.dataset.row]; if (r) { window.location.href = r.page; } });
  });
  applyFilters();
  document.documentElement.classList.add("js-ready");
})();
