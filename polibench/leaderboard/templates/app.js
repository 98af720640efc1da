// polibench leaderboard: tabs, the compass's task and comparison, sortable table, hover details. Reads only the
// JSON embedded in the page (no network). Text from entries is set with textContent, never parsed as HTML.
(function () {
  "use strict";
  var dataNode = document.getElementById("lb-data");
  var rows = dataNode ? JSON.parse(dataNode.textContent) : [];
  var byRow = {};
  rows.forEach(function (r) { byRow[String(r.row)] = r; });
  var SVG = "http://www.w3.org/2000/svg";

  // tabs
  var tabs = Array.prototype.slice.call(document.querySelectorAll(".tabs a[data-tab]"));
  var first = tabs.length ? tabs[0].dataset.tab : "";
  function showTab(name) {
    var found = false;
    tabs.forEach(function (t) { if (t.dataset.tab === name) { found = true; } });
    if (!found) { name = first; }
    tabs.forEach(function (t) { t.classList.toggle("active", t.dataset.tab === name); });
    document.querySelectorAll(".tab-panel").forEach(function (p) { p.classList.toggle("active", p.id === name); });
  }
  function openTab(name) {
    showTab(name);
    if (history.replaceState) { history.replaceState(null, "", "#" + name); }
    window.scrollTo(0, 0);
  }
  tabs.forEach(function (t) {
    t.addEventListener("click", function (ev) { ev.preventDefault(); openTab(t.dataset.tab); });
  });
  // links inside a panel to another tab (e.g. the frontier models' view beside the compass)
  document.querySelectorAll('main a[href^="#"]').forEach(function (a) {
    var name = a.getAttribute("href").slice(1);
    if (tabs.some(function (t) { return t.dataset.tab === name; })) {
      a.addEventListener("click", function (ev) { ev.preventDefault(); openTab(name); });
    }
  });
  // A deep link (index.html#fairness) opens its tab with the header in view: the panel ids are anchors, and the
  // browser scrolls to the anchor when parsing ends and again at load, after this script has run.
  if ("scrollRestoration" in history) { history.scrollRestoration = "manual"; }
  function toTop() { if (location.hash) { window.scrollTo(0, 0); } }
  showTab((location.hash || "#" + first).slice(1));
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

  // the compass: the chosen task's layer and table rows, another task on demand, intervals on demand
  var taskSel = document.getElementById("compass-task");
  var compareSel = document.getElementById("compass-compare");
  var ciBox = document.getElementById("show-ci");
  var svg = document.querySelector("svg.compass");
  var joins = svg ? svg.querySelector("g.joins") : null;
  var pointCounter = document.getElementById("point-count");
  var rowCounter = document.getElementById("row-count");
  function layer(task) { return svg ? svg.querySelector('g.layer[data-task="' + CSS.escape(task) + '"]') : null; }
  function applyTask() {
    var task = taskSel ? taskSel.value : "";
    var other = compareSel ? compareSel.value : "";
    if (other === task) { other = ""; }
    if (svg) {
      svg.querySelectorAll("g.layer").forEach(function (g) {
        var t = g.dataset.task;
        g.classList.toggle("hidden", t !== task && t !== other);
        g.classList.toggle("ghost", t === other);
      });
      var main = layer(task), second = other ? layer(other) : null;
      if (joins) {
        while (joins.firstChild) { joins.removeChild(joins.firstChild); }
        if (main && second) {
          main.querySelectorAll("g.point").forEach(function (p) {
            var q = second.querySelector('g.point[data-model="' + CSS.escape(p.dataset.model) + '"]');
            if (!q) { return; }
            var line = document.createElementNS(SVG, "line");
            line.setAttribute("class", "join");
            line.setAttribute("x1", p.dataset.cx); line.setAttribute("y1", p.dataset.cy);
            line.setAttribute("x2", q.dataset.cx); line.setAttribute("y2", q.dataset.cy);
            line.setAttribute("stroke", (byRow[p.dataset.row] || {}).colour || "#5d6677");
            joins.appendChild(line);
          });
        }
      }
      if (pointCounter) {
        var n = main ? main.querySelectorAll("g.point").length : 0;
        pointCounter.textContent = n + (n === 1 ? " model" : " models") +
          (second ? " (and " + second.querySelectorAll("g.point").length + " on " + other + ", faint)" : "");
      }
    }
    var shown = 0;
    document.querySelectorAll("#board tbody tr[data-row]").forEach(function (tr) {
      var ok = !task || tr.dataset.task === task; tr.classList.toggle("hidden", !ok); if (ok) { shown += 1; }
    });
    document.querySelectorAll("#board thead th[data-tasks]").forEach(function (th) {
      var col = th.cellIndex, keep = !task || th.dataset.tasks.split(" ").indexOf(task) >= 0;
      th.classList.toggle("hidden", !keep);
      document.querySelectorAll("#board tbody tr").forEach(function (tr) {
        if (tr.cells[col]) { tr.cells[col].classList.toggle("hidden", !keep); }
      });
    });
    if (rowCounter) { rowCounter.textContent = shown + " of " + rowCounter.dataset.total + " rows shown: task " + task; }
  }
  [taskSel, compareSel].forEach(function (s) { if (s) { s.addEventListener("change", applyTask); } });
  if (ciBox && svg) {
    ciBox.addEventListener("change", function () { svg.classList.toggle("no-ci", !ciBox.checked); });
    svg.classList.toggle("no-ci", !ciBox.checked);
  }

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
    if (left + 260 > fig.width) { left = Math.max(0, x - fig.left - 270); }
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
      setText("tt-warn", (r.warnings || []).map(function (w) { return "⚠ " + w; }).join(" "));
      tip.hidden = false; place(g, ev); highlight(g.dataset.row, true);
    }
    function hide() { if (tip) { tip.hidden = true; } highlight(g.dataset.row, false); }
    g.addEventListener("mouseenter", show); g.addEventListener("mousemove", function (ev) { place(g, ev); });
    g.addEventListener("mouseleave", hide); g.addEventListener("focus", show); g.addEventListener("blur", hide);
    g.addEventListener("click", function () { var r = byRow[g.dataset.row]; if (r) { window.location.href = r.page; } });
  });
  applyTask();
  document.documentElement.classList.add("js-ready");
})();
