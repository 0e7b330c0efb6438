// gibench report, leaderboard pages: interactive work-precision and convergence plots (plotly.js, bundled in
// assets/) and the family filters shared by the plots and the leaderboard tables. The page embeds its data as
// JSON (#plot-data, written by plots/report.py): per method its ok runs' h, steps, work, median time and errors.
(function () {
  "use strict";
  var holder = document.getElementById("plot-data");
  if (!holder || typeof Plotly === "undefined") return;
  var D = JSON.parse(holder.textContent);
  var metricSel = document.getElementById("metric");
  var workSel = document.getElementById("work");
  var bestOnly = document.getElementById("best-only");
  var boxes = Array.prototype.slice.call(document.querySelectorAll("#family-filter input.family"));
  var best = {};
  D.best.forEach(function (id) { best[id] = true; });

  function fmt(x) { return x === null || x === undefined ? "n/a" : Number(x).toPrecision(4); }

  // The methods the filters let through: a checked family, and the family's best method when "best only" is on.
  function shown() {
    var families = {};
    boxes.forEach(function (b) { if (b.checked) families[b.value] = true; });
    var out = {};
    D.methods.forEach(function (m) { out[m.id] = !!families[m.family] && (!bestOnly.checked || !!best[m.id]); });
    return out;
  }

  function hover(m, i, err) {
    return "<b>" + m.name + "</b> (" + m.id + ")<br>h = " + fmt(m.h[i]) + ", steps = " + m.steps[i] +
      "<br>error = " + fmt(err[i]) + "<br>time = " + fmt(m.time[i]) + " s<br>work = " + fmt(m.work[i]);
  }

  function points(m, xs, ys, err) {
    var x = [], y = [], text = [];
    for (var i = 0; i < m.h.length; ++i) {
      if (xs[i] === null || ys[i] === null || !(xs[i] > 0) || !(ys[i] > 0)) continue;
      x.push(xs[i]); y.push(ys[i]); text.push(hover(m, i, err));
    }
    return { x: x, y: y, text: text };
  }

  // The Pareto front of the shown methods' points: lower error and lower work than any other shown point.
  function front(traces) {
    var pts = [];
    traces.forEach(function (t) {
      if (t.visible !== true) return;
      for (var i = 0; i < t.x.length; ++i) pts.push([t.x[i], t.y[i]]);
    });
    pts.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    var x = [], y = [], lowest = Infinity;
    pts.forEach(function (p) { if (p[1] < lowest) { x.push(p[0]); y.push(p[1]); lowest = p[1]; } });
    return { type: "scatter", mode: "lines", name: "Pareto front (shown methods)", x: x, y: y, hoverinfo: "skip",
             line: { color: "#888888", width: 6 }, opacity: 0.35, meta: "front" };
  }

  // With 50 methods the file's colours repeat; the best-of-family view shows one per family, each its own colour.
  var DISTINCT = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
                  "#000000"];

  function traces(kind) {
    var metric = metricSel.value, work = workSel.value, on = shown(), k = 0;
    var out = D.methods.map(function (m) {
      var err = m.err[metric] || [];
      var p = kind === "wp" ? points(m, err, m[work], err) : points(m, m.h, err, err);
      var color = bestOnly.checked && on[m.id] ? DISTINCT[k++ % DISTINCT.length] : m.color;
      return { type: "scatter", mode: "lines+markers", name: m.name, x: p.x, y: p.y, text: p.text,
               hovertemplate: "%{text}<extra></extra>", line: { color: color, width: 1.5 },
               marker: { color: color, size: 6 }, meta: m.id, visible: on[m.id] ? true : false };
    });
    if (kind === "wp") out.unshift(front(out));
    return out;
  }

  function layout(kind) {
    var metric = metricSel.value;
    var work = workSel.value === "time" ? "time per run, median (s)" : "counted work (function-evaluation units)";
    return {
      title: { text: kind === "wp" ? "Work-precision" : "Convergence" },
      xaxis: { type: "log", title: { text: kind === "wp" ? metric : "step size h" }, exponentformat: "power" },
      yaxis: { type: "log", title: { text: kind === "wp" ? work : metric }, exponentformat: "power" },
      hovermode: "closest", margin: { l: 70, r: 10, t: 40, b: 60 }, height: 560,
      legend: { font: { size: 10 } }
    };
  }

  var config = { displaylogo: false, responsive: true };
  function draw() {
    Plotly.react("wp", traces("wp"), layout("wp"), config);
    Plotly.react("conv", traces("conv"), layout("conv"), config);
  }

  function filterTables() {
    var on = shown();
    Array.prototype.forEach.call(document.querySelectorAll("table.leaderboard tbody tr"), function (tr) {
      tr.classList.toggle("filtered-out", !on[tr.getAttribute("data-method")]);
    });
  }

  function apply() { draw(); filterTables(); }

  boxes.forEach(function (b) { b.addEventListener("change", apply); });
  bestOnly.addEventListener("change", apply);
  metricSel.addEventListener("change", draw);
  workSel.addEventListener("change", draw);
  document.getElementById("families-all").addEventListener("click", function () {
    boxes.forEach(function (b) { b.checked = true; }); apply();
  });
  document.getElementById("families-none").addEventListener("click", function () {
    boxes.forEach(function (b) { b.checked = false; }); apply();
  });
  apply();
})();
