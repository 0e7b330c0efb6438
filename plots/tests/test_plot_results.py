"""Tests of plots/plot_results.py on synthetic gibench files.

Run:  /usr/bin/python3 -m unittest discover -s plots/tests
"""

import contextlib
import copy
import io
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PLOTS = os.path.dirname(HERE)
SCRIPT = os.path.join(PLOTS, "plot_results.py")
sys.path.insert(0, PLOTS)

import numpy as np  # noqa: E402

import gibench_plot as gp  # noqa: E402
import plot_results as pr  # noqa: E402

# ---------------------------------------------------------------------------
# Synthetic data with the shapes of real runs

METHODS = {
    "rkmk1": {"display_name": "RKMK1 (Lie-Euler)", "order": 1, "family": "rkmk", "stages": 1, "C": 0.8},
    "rkmk2": {"display_name": "RKMK2", "order": 2, "family": "rkmk", "stages": 2, "C": 0.5},
    "rkmk3": {"display_name": "RKMK3", "order": 3, "family": "rkmk", "stages": 3, "C": 0.3},
    "rkmk4": {"display_name": "RKMK4", "order": 4, "family": "rkmk", "stages": 4, "C": 0.2},
    "odeint_rk4_matrix": {"display_name": "odeint rk4 (matrix)", "order": 4, "family": "classical",
                          "stages": 4, "C": 0.6},
}
HS = [0.5 * 2.0 ** -k for k in range(12)]
T = 10.0
FLOOR = 1e-15
DIVERGED = ("rkmk1", HS[0])  # status diverged, metrics null
NULL_METRIC = ("rkmk2", HS[3])  # status ok but state_err_final null
NO_TIMING = ("rkmk3", HS[2])  # timing null
SERIES_H = HS[4]


def err_model(method, h, k):
    m = METHODS[method]
    return m["C"] * h ** m["order"] + FLOOR * (1.0 + 0.4 * math.sin(3.0 * k + m["order"]))


def make_row(method, k, h):
    m = METHODS[method]
    steps = int(round(T / h))
    e = err_model(method, h, k)
    row = {
        "problem": "free_rigid_body", "preset": "kjer_sec5", "param_hash": "0123456789abcdef",
        "params": {"inertia": [1.0, 2.0, 3.0], "Pi0": [1.0, 0.0, 0.0]}, "overrides": {},
        "ic": "preset", "method": method, "method_params": {}, "h": h, "T": T, "steps": steps, "rep": 0,
        "status": "ok", "status_step": None, "status_detail": "",
        "metrics": {"state_err_final": e, "rot_geodesic_final": 0.7 * e, "mom_err_final": 0.5 * e,
                    "energy_rel_err_max": 0.1 * e, "energy_rel_err_final": -0.05 * e},
        "cost": {"steps": steps, "rhs_evals": steps * m["stages"], "exp_evals": steps * m["stages"]},
        "timing": {"reps": 5, "median_s": steps * m["stages"] * 2.0e-7, "min_s": steps * m["stages"] * 1.8e-7,
                   "max_s": steps * m["stages"] * 2.5e-7, "iqr_s": 1e-7, "ns_per_step": 200.0 * m["stages"],
                   "mode": "serial"},
        "final_state": {"R": [1, 0, 0, 0, 1, 0, 0, 0, 1], "Pi": [1, 0, 0]},
        "reference": {"kind": "exact", "error_estimate": 1e-16},
    }
    if (method, h) == DIVERGED:
        row.update(status="diverged", status_step=3, status_detail="|Pi| grew by 1e6")
        row["metrics"] = {k2: None for k2 in row["metrics"]}
    if (method, h) == NULL_METRIC:
        row["metrics"]["state_err_final"] = None
    if (method, h) == NO_TIMING:
        row["timing"] = None
    return row


def make_fit(method, rows):
    pts = [(r["h"], r["metrics"]["state_err_final"]) for r in rows
           if r["method"] == method and r["status"] == "ok" and r["metrics"]["state_err_final"] is not None]
    pts.sort(key=lambda p: -p[0])
    win = [p for p in pts if p[1] > 100 * FLOOR]
    x, y = np.log([p[0] for p in win]), np.log([p[1] for p in win])
    slope = float(np.polyfit(x, y, 1)[0])
    return {"problem": "free_rigid_body", "preset": "kjer_sec5", "ic": "preset", "method": method,
            "method_params": {}, "T": T, "metric": "state_err_final", "order_hat": slope,
            "ci95": [slope - 0.03, slope + 0.03], "r2": 0.999,
            "window": {"h_max": win[0][0], "h_min": win[-1][0], "n": len(win)}, "points": [list(p) for p in pts]}


def make_series(row_index, row, n=300):
    m = METHODS[row["method"]]
    h = row["h"]
    t = np.linspace(0.0, T, n)
    drift = m["C"] * h ** m["order"] * t * (1.0 if m["family"] == "classical" else -0.3)  # RKMK: energy decays
    osc = 0.2 * m["C"] * h ** m["order"] * np.sin(4.0 * t)
    rng = np.random.default_rng(m["order"])
    casimir = 1.1e-16 * np.concatenate([[0], rng.integers(-1, 2, n - 1).cumsum()])  # round-off walk, zeros
    a = 0.25 + 0.15 * m["order"]  # a closed curve on the unit sphere per method
    w = 2.0 * math.pi / T * (1 + m["order"] % 2)
    pi = np.stack([np.cos(a) * np.ones_like(t), np.sin(a) * np.cos(w * t), np.sin(a) * np.sin(w * t)], axis=1)
    if m["family"] == "classical":
        pi = pi * 2.0  # |Pi0| = 2, for the normalise option
    return {"row": row_index, "t": t.tolist(), "energy_rel_err": (drift + osc).tolist(),
            "energy_abs_err": (2.0 * (drift + osc)).tolist(), "casimir_err": casimir.tolist(),
            "Pi": pi.tolist()}


def make_results(small=False):
    """Full synthetic sweep; small=True: 2 methods, 5 step sizes, short series (cheap to draw)."""
    methods = ["rkmk1", "rkmk4"] if small else list(METHODS)
    hs = HS[:6] if small else HS
    n = 60 if small else 300
    rows = [make_row(m, k, h) for m in methods for k, h in enumerate(hs)]
    series = [make_series(i, r, n) for i, r in enumerate(rows) if r["h"] in (SERIES_H, HS[5])]
    # a series of the diverged row: must not be drawn
    div_index = next(i for i, r in enumerate(rows) if (r["method"], r["h"]) == DIVERGED)
    s = make_series(div_index, rows[div_index], n=5)
    s["energy_rel_err"][-1] = None
    series.append(s)
    return {
        "schema_version": 1, "kind": "gibench.results",
        "manifest": {"git_commit": "0" * 40, "git_dirty": False, "date_utc": "2024-01-01T00:00:00Z"},
        "methods": {k: {"display_name": v["display_name"], "order": v["order"], "family": v["family"]}
                    for k, v in METHODS.items()},
        "rows": rows, "series": series, "fits": [make_fit(m, rows) for m in methods],
    }


PLOT_SPECS = [
    {"type": "convergence", "file": "conv.png", "metric": "state_err_final",
     "guides": [{"slope": 4, "label": "h^4"}, {"slope": 1, "label": "h^1"}]},
    {"type": "invariant_time", "file": "inv_abs.png", "quantities": ["energy_rel_err", "casimir_err"],
     "signed": False, "where": {"h": SERIES_H}},
    {"type": "invariant_time", "file": "inv_signed.png", "quantities": ["energy_rel_err"], "signed": True,
     "title": "H(m_k) − H(m_1)", "where": {"h": SERIES_H, "method": ["rkmk2", "rkmk4"]}},
    {"type": "work_precision", "file": "wp.png", "metric": "state_err_final", "work": ["time", "cost"]},
    {"type": "sphere_trajectories", "file": "sphere.png", "normalise": True, "where": {"h": SERIES_H}},
    {"type": "order_bars", "file": "orders.pdf", "metric": "state_err_final"},
]


def make_figure(small=False):
    d = make_results(small)
    d["kind"] = "gibench.figure"
    d["figure"] = {"id": "synthetic", "cells": [], "plots": copy.deepcopy(PLOT_SPECS), "checks": []}
    d["checks"] = []
    return d


def write_json(path, obj):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(obj, f)
    return path


def run_cli(*args):
    return subprocess.run([sys.executable, SCRIPT] + list(args), capture_output=True, text=True, timeout=120)


def run_main(*args):
    """main() in-process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = pr.main(list(args))
        except SystemExit as e:
            code = e.code
    return code, out.getvalue(), err.getvalue()


PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def check_file(tc, path, fmt):
    tc.assertTrue(os.path.isfile(path), path)
    tc.assertGreater(os.path.getsize(path), 1000, path)
    with open(path, "rb") as f:
        head = f.read(400)
    if fmt == "png":
        tc.assertTrue(head.startswith(PNG_MAGIC), path)
    elif fmt == "pdf":
        tc.assertTrue(head.startswith(b"%PDF"), path)
    else:
        tc.assertIn(b"<svg", head, path)


# ---------------------------------------------------------------------------


class CliTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = cls.tmp.name
        cls.results = write_json(os.path.join(cls.dir, "results.json"), make_results())
        cls.small_results = write_json(os.path.join(cls.dir, "small_results.json"), make_results(small=True))
        cls.small_figure = write_json(os.path.join(cls.dir, "small_figure.json"), make_figure(small=True))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_figure_all_plot_types_png(self):
        # a real process, default out dir (the JSON's directory), default format png; the small data set
        # keeps the suite fast, DrawingTest draws the full one
        p = run_cli(self.small_figure)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stderr, "")
        lines = p.stdout.splitlines()
        want = [os.path.join(self.dir, os.path.splitext(s["file"])[0] + ".png") for s in PLOT_SPECS]
        self.assertEqual(lines, want)  # one line per written file, in spec order
        self.assertIn(os.path.join(self.dir, "orders.png"), lines)  # spec says orders.pdf: extension replaced
        for path in want:
            check_file(self, path, "png")

    def test_figure_svg_and_pdf(self):
        # every plot type once in a vector format (each render costs ~1 s; keeps the suite under 30 s)
        d = make_figure(small=True)
        vector = {"svg": ["convergence", "invariant_time", "work_precision"],
                  "pdf": ["sphere_trajectories", "order_bars"]}
        for fmt, types in vector.items():
            seen = set()
            d["figure"]["plots"] = [s for s in copy.deepcopy(PLOT_SPECS)
                                    if s["type"] in types and not (s["type"] in seen or seen.add(s["type"]))]
            path = write_json(os.path.join(self.dir, "vector_%s.json" % fmt), d)
            out = os.path.join(self.dir, "out_" + fmt)
            code, stdout, stderr = run_main(path, "--out-dir", out, "--format", fmt)
            self.assertEqual(code, 0, stderr)
            lines = stdout.splitlines()
            self.assertEqual(len(lines), len(types))
            for path in lines:
                self.assertTrue(path.endswith("." + fmt))
                check_file(self, path, fmt)

    def test_adhoc_plots_on_results(self):
        out = os.path.join(self.dir, "adhoc")
        code, stdout, stderr = run_main(self.small_results, "--out-dir", out, "--plot", "convergence",
                                        "--metric", "state_err_final", "--where", "method=rkmk4",
                                        "--where", "method=rkmk1", "--file", "c.png")
        self.assertEqual(code, 0, stderr)
        self.assertEqual(stdout.strip(), os.path.join(out, "c.png"))
        check_file(self, os.path.join(out, "c.png"), "png")
        cases = [
            ["--plot", "order_bars", "--metric", "state_err_final", "--where", "method=rkmk4"],
            ["--plot", "invariant_time", "--set", 'quantities=["energy_abs_err"]', "--set", "signed=true",
             "--where", "h=%r" % SERIES_H, "--file", "inv"],
            ["--plot", "sphere_trajectories", "--where", "h=%r" % HS[5], "--format", "svg"],
        ]
        for extra in cases:
            code, stdout, stderr = run_main(self.small_results, "--out-dir", out, *extra)
            self.assertEqual(code, 0, "%s: %s" % (extra, stderr))
            path = stdout.strip()
            self.assertEqual(len(stdout.splitlines()), 1)
            check_file(self, path, "svg" if "svg" in extra else "png")
        self.assertTrue(os.path.isfile(os.path.join(out, "inv.png")))
        self.assertTrue(os.path.isfile(os.path.join(out, "order_bars_state_err_final.png")))

    def assertOneLineFailure(self, code, stderr, exit_code=2, contains=None):
        self.assertNotEqual(code, 0)
        if exit_code is not None:
            self.assertEqual(code, exit_code)
        self.assertEqual(len(stderr.splitlines()), 1, stderr)
        self.assertTrue(stderr.endswith("\n"))
        if contains:
            self.assertIn(contains, stderr)

    def test_unknown_plot_type(self):
        code, stdout, stderr = run_main(self.small_results, "--plot", "pie_chart")
        self.assertOneLineFailure(code, stderr, contains="unknown plot type")
        self.assertEqual(stdout, "")
        d = make_figure(small=True)
        d["figure"]["plots"].append({"type": "pie", "file": "pie.png"})
        path = write_json(os.path.join(self.dir, "unknown_type.json"), d)
        out = os.path.join(self.dir, "unknown_out")
        code, stdout, stderr = run_main(path, "--out-dir", out)
        self.assertOneLineFailure(code, stderr, contains="figure.plots[6]")
        self.assertEqual(stdout, "")
        self.assertFalse(os.path.exists(out))  # specs are checked before anything is drawn

    def test_malformed_files(self):
        bad = {
            "not_json": "{\"schema_version\": 1, \"kind\": ",
            "nan": json.dumps(make_results(small=True)).replace("0.0625", "NaN", 1),
            "not_object": "[1, 2]",
        }
        d = make_results(small=True); d["rows"] = {"a": 1}; bad["rows_not_array"] = json.dumps(d)
        d = make_results(small=True); d["schema_version"] = 2; bad["schema2"] = json.dumps(d)
        d = make_results(small=True); d["kind"] = "something"; bad["kind"] = json.dumps(d)
        d = make_results(small=True); d["series"][0]["casimir_err"].pop(); bad["series_len"] = json.dumps(d)
        d = make_results(small=True); d["series"][0]["row"] = 10 ** 6; bad["series_row"] = json.dumps(d)
        d = make_figure(small=True); del d["figure"]["plots"][0]["metric"]; bad["spec_no_metric"] = json.dumps(d)
        d = make_figure(small=True); d["figure"]["plots"][1]["quantities"] = "energy_rel_err"; bad["spec_q"] = json.dumps(d)
        d = make_figure(small=True); d["figure"]["plots"][3]["work"] = ["flops"]; bad["spec_work"] = json.dumps(d)
        d = make_figure(small=True); d["figure"]["plots"][0]["file"] = "../escape.png"; bad["spec_path"] = json.dumps(d)
        d = make_figure(small=True); d["figure"]["plots"][1]["file"] = "conv.svg"; bad["spec_dup"] = json.dumps(d)
        d = make_figure(small=True); del d["figure"]; bad["figure_missing"] = json.dumps(d)
        for name, text in bad.items():
            path = os.path.join(self.dir, "bad_%s.json" % name)
            with open(path, "w") as f:
                f.write(text)
            code, stdout, stderr = run_main(path, "--out-dir", os.path.join(self.dir, "bad_out"))
            with self.subTest(name=name):
                self.assertOneLineFailure(code, stderr)
                self.assertEqual(stdout, "")
        # one through a real process, and a missing file
        p = run_cli(os.path.join(self.dir, "bad_series_len.json"))
        self.assertOneLineFailure(p.returncode, p.stderr, contains="has 59 entries")
        code, _, stderr = run_main(os.path.join(self.dir, "missing.json"))
        self.assertOneLineFailure(code, stderr, contains="cannot read")
        self.assertFalse(os.path.exists(os.path.join(self.dir, "bad_out")))

    def test_results_without_figure_spec_and_bad_usage(self):
        code, _, stderr = run_main(self.results)
        self.assertOneLineFailure(code, stderr, contains="--plot")
        code, _, stderr = run_main(self.results, "--format", "gif")
        self.assertOneLineFailure(code, stderr)
        code, _, stderr = run_main(self.results, "--plot", "convergence")  # no metric
        self.assertOneLineFailure(code, stderr, contains="metric")
        code, _, stderr = run_main(self.results, "--plot", "convergence", "--metric", "m", "--where", "novalue")
        self.assertOneLineFailure(code, stderr, contains="key=value")

    def test_filter_matching_nothing_fails(self):
        out = os.path.join(self.dir, "nothing")
        code, stdout, stderr = run_main(self.results, "--out-dir", out, "--plot", "convergence",
                                        "--metric", "state_err_final", "--where", "method=nosuch")
        self.assertOneLineFailure(code, stderr, exit_code=1, contains="no rows match")
        self.assertEqual(stdout, "")


class CostCurrencyTest(unittest.TestCase):
    """gibench_plot.cost_value against the fixture the C++ reader is tested on (tests/test_cost_currency.cpp)."""

    def test_old_and_new_rows_give_the_same_work(self):
        with open(os.path.join(PLOTS, "..", "tests", "support", "cost_currency_rows.json"), encoding="utf-8") as f:
            cases = json.load(f)["cases"]
        self.assertGreaterEqual(len(cases), 5)
        for k in cases:
            old, new, stored = k["old"], k["new"], k["stored"]
            self.assertNotIn("work", old)
            steps = old["steps"]
            for field, value in new.items():  # a stored rank row loses nothing a run wrote
                with self.subTest(case=k["name"], field=field):
                    self.assertAlmostEqual(gp.cost_value(stored, field), value)
            for name, cost in (("old", old), ("new", new), ("stored", stored)):
                with self.subTest(case=k["name"], fmt=name):
                    self.assertEqual(gp.cost_value(cost, "function_evals"), k["function_evals"])
                    self.assertEqual(gp.cost_value(cost, "work"), k["work"])
                    self.assertAlmostEqual(gp.cost_value(cost, "work_per_step"), k["work"] / steps)
                    self.assertAlmostEqual(gp.cost_value(cost, "function_evals_per_step"),
                                           k["function_evals"] / steps)
                    self.assertEqual(gp.cost_value(cost, "exp_evals"), old["exp_evals"])

    def test_nothing_to_derive_from(self):
        self.assertIsNone(gp.cost_value(None, "work"))
        self.assertIsNone(gp.cost_value({}, "work"))
        self.assertIsNone(gp.cost_value({"steps": 10}, "no_such_field"))
        self.assertIsNone(gp.cost_value({"steps": 10, "rhs_evals": "four"}, "work"))


class SaveTest(unittest.TestCase):
    def test_refuses_links_and_special_files_and_replaces_regular_ones(self):
        with tempfile.TemporaryDirectory() as d:
            victim = os.path.join(d, "victim.txt")
            with open(victim, "w") as f:
                f.write("keep me")
            link = os.path.join(d, "fig.png")
            os.symlink(victim, link)
            fifo = os.path.join(d, "fifo.png")
            os.mkfifo(fifo)
            for target in (link, fifo, d):
                fig = gp.plt.figure()
                with self.assertRaises(gp.GibenchError):
                    gp.save(fig, target if target != d else d, fmt="png")
            self.assertTrue(os.path.islink(link))
            with open(victim) as f:
                self.assertEqual(f.read(), "keep me")
            regular = os.path.join(d, "ok.png")
            with open(regular, "w") as f:
                f.write("old")
            gp.save(gp.plt.figure(), regular)
            with open(regular, "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
            self.assertEqual(sorted(os.listdir(d)), ["fifo.png", "fig.png", "ok.png", "victim.txt"])


class DrawingTest(unittest.TestCase):
    """In-process checks of what is drawn."""

    @classmethod
    def setUpClass(cls):
        cls.data = make_figure()
        gp.validate(cls.data)
        cls.style = gp.Style(cls.data)

    @classmethod
    def tearDownClass(cls):
        gp.plt.close("all")

    _cache = {}

    def draw(self, spec):
        """Figure for spec (drawn once per spec for the whole class; drawing is the slow part)."""
        key = json.dumps(spec, sort_keys=True)
        if key not in self._cache:
            pr.validate_spec(spec)
            self._cache[key] = pr.draw(self.data, spec, self.style)
        return self._cache[key]

    def notes_text(self, fig):
        return " ".join(t.get_text() for t in fig.texts)

    def data_lines(self, ax):
        return [l for l in ax.lines if len(l.get_xdata()) > 0 and l.get_label() and not l.get_label().startswith("_")]

    def test_convergence_skips_bad_rows(self):
        fig = self.draw(copy.deepcopy(PLOT_SPECS[0]))
        ax = fig.axes[0]
        labels = {l.get_label(): l for l in ax.lines}
        rk1 = next(l for lab, l in labels.items() if lab.startswith("RKMK1"))
        rk2 = next(l for lab, l in labels.items() if lab.startswith("RKMK2 "))
        self.assertNotIn(DIVERGED[1], list(rk1.get_xdata()))
        self.assertEqual(len(rk1.get_xdata()), len(HS) - 1)
        self.assertNotIn(NULL_METRIC[1], list(rk2.get_xdata()))
        for l in ax.lines:
            y = np.asarray(l.get_ydata(), dtype=float)
            self.assertTrue(np.all(np.isfinite(y)) and np.all(y > 0), l.get_label())
        text = self.notes_text(fig)
        self.assertIn("excluded:", text)
        self.assertIn("RKMK1 (Lie-Euler) h=0.5 (diverged)", text)
        self.assertIn("RKMK2 h=0.0625 (state_err_final null)", text)
        # legend shows the fitted order from top-level fits
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        self.assertTrue(any(t.startswith("RKMK4  p̂ = ") and "[" in t for t in legend), legend)
        self.assertIn("$h^{4}$", legend)
        self.assertIn("outside fit window", legend)

    def test_convergence_hollow_markers_outside_window(self):
        fig = self.draw(copy.deepcopy(PLOT_SPECS[0]))
        ax = fig.axes[0]
        fit = next(f for f in self.data["fits"] if f["method"] == "rkmk4")
        hollow = [l for l in ax.lines if l.get_linestyle() == "None" and l.get_markerfacecolor() in ("white", "w")]
        self.assertTrue(hollow)
        xs = np.concatenate([l.get_xdata() for l in hollow])
        self.assertTrue(any(x < fit["window"]["h_min"] for x in xs))

    def test_invariant_time_excludes_diverged_and_zeros(self):
        spec = {"type": "invariant_time", "file": "x.png", "quantities": ["energy_rel_err", "casimir_err"],
                "where": {"method": "rkmk1"}}
        fig = self.draw(spec)
        ax_e, ax_c = fig.axes[:2]
        self.assertEqual(ax_e.get_yscale(), "log")
        labels = [l.get_label() for l in self.data_lines(ax_e)]
        self.assertEqual(sorted(labels), sorted(["RKMK1 (Lie-Euler) h=%s" % gp.fmt_num(h) for h in (SERIES_H, HS[5])]))
        for l in self.data_lines(ax_c):  # |casimir| with zeros dropped
            self.assertTrue(np.all(np.asarray(l.get_ydata()) > 0))
            self.assertLess(len(l.get_ydata()), 300)
        self.assertIn("RKMK1 (Lie-Euler) h=0.5 (diverged)", self.notes_text(fig))

    def test_final_vs_T_one_line_per_method_and_metric(self):
        rows = []
        for method in ("rkmk1", "rkmk2"):
            for t_run in (1000.0, 10.0, 100.0):  # out of order: the lines must come out sorted by T
                rows.append({"method": method, "T": t_run, "h": 0.1, "status": "ok", "method_params": {},
                             "metrics": {"phase_shift_final": -0.01 * t_run, "shape_err_final": 1e-4}})
        rows.append({"method": "rkmk1", "T": 10000.0, "h": 0.1, "status": "diverged", "method_params": {},
                     "metrics": {"phase_shift_final": None, "shape_err_final": None}})
        data = {"schema_version": 1, "kind": "gibench.figure", "rows": rows, "methods": self.data["methods"]}
        spec = pr.validate_spec({"type": "final_vs_T", "file": "x.png", "metrics": ["phase_shift_final", "shape_err_final"]})
        fig = pr.draw(data, spec, self.style)
        ax = fig.axes[0]
        self.assertEqual((ax.get_xscale(), ax.get_yscale()), ("log", "log"))
        lines = self.data_lines(ax)
        self.assertEqual(len(lines), 4)
        for l in lines:
            self.assertEqual(list(l.get_xdata()), [10.0, 100.0, 1000.0])  # the diverged T = 10^4 row is left out
            self.assertTrue(np.all(np.asarray(l.get_ydata()) > 0))  # |phase shift|: negative shifts drawn as sizes
        self.assertIn("diverged", self.notes_text(fig))
        with self.assertRaises(gp.MalformedError):
            pr.validate_spec({"type": "final_vs_T", "file": "x.png"})

    def test_histogram_mean_and_band_over_seeds_and_radial_panel(self):
        def row(method, seed, counts, status="ok"):
            return {"method": method, "h": 0.05, "T": 10.0, "status": status, "method_params": {"seed": seed},
                    "distributions": {"oo_distance": {"lo": 0.0, "hi": 0.4, "bin": 0.1, "radial": True, "counts": counts,
                                                      "underflow": 0, "overflow": 0, "samples": sum(counts), "states": 5}}}
        rows = [row("rkmk1", 1, [0, 4, 4, 2]), row("rkmk1", 2, [0, 2, 6, 2]), row("rkmk2", 1, [0, 0, 5, 5]),
                row("rkmk2", 2, [1, 1, 1, 1], status="diverged")]
        rows.append({"method": "rkmk2", "h": 0.05, "T": 10.0, "status": "ok", "method_params": {"seed": 3}})
        data = {"schema_version": 1, "kind": "gibench.figure", "rows": rows, "methods": self.data["methods"]}
        spec = pr.validate_spec({"type": "histogram", "file": "x.png", "distribution": "oo_distance"})
        fig = pr.draw(data, spec, self.style)
        top, radial = fig.axes[0], fig.axes[1]
        lines = self.data_lines(top)
        self.assertEqual(len(lines), 2)
        by_label = {l.get_label(): l for l in lines}
        mean = [l for k, l in by_label.items() if "(2 runs)" in k][0]
        # density per unit: counts / (samples x bin), averaged over the two seeds of rkmk1
        np.testing.assert_allclose(mean.get_ydata(), [0.0, 3.0, 5.0, 2.0])
        self.assertIn("(1 run)", " ".join(by_label))
        centres = np.array([0.05, 0.15, 0.25, 0.35])
        np.testing.assert_allclose(self.data_lines(radial)[0].get_ydata(), mean.get_ydata() / (4 * np.pi * centres ** 2))
        notes = self.notes_text(fig)
        self.assertIn("diverged", notes)
        self.assertIn("no oo_distance histogram", notes)
        with self.assertRaises(gp.MalformedError):
            pr.validate_spec({"type": "histogram", "file": "x.png"})

    def test_invariant_time_log_t(self):
        spec = {"type": "invariant_time", "file": "x.png", "quantities": ["energy_rel_err"], "log_t": True}
        fig = self.draw(spec)
        self.assertEqual(fig.axes[0].get_xscale(), "log")
        with self.assertRaises(gp.MalformedError):
            pr.validate_spec(dict(spec, log_t="yes"))

    def test_invariant_time_signed_is_linear(self):
        fig = self.draw(copy.deepcopy(PLOT_SPECS[2]))
        ax = fig.axes[0]
        self.assertEqual(ax.get_yscale(), "linear")
        lines = self.data_lines(ax)
        self.assertEqual(len(lines), 2)
        self.assertTrue(any(np.min(l.get_ydata()) < 0 for l in lines))  # signed values kept
        self.assertEqual(self.notes_text(fig), "")

    def test_work_precision_pareto_and_timing_null(self):
        fig = self.draw(copy.deepcopy(PLOT_SPECS[3]))
        ax_time, ax_cost = fig.axes[:2]
        for ax in (ax_time, ax_cost):
            fronts = [l for l in ax.lines if l.get_label() == "Pareto front"]
            self.assertEqual(len(fronts), 1)
            self.assertEqual(fronts[0].get_drawstyle(), "steps-post")
            e, w = fronts[0].get_xdata(), fronts[0].get_ydata()
            self.assertTrue(np.all(np.diff(e) > 0) and np.all(np.diff(w) < 0))
        self.assertIn("RKMK3 h=0.125 (no timing)", self.notes_text(fig))
        self.assertIn("(diverged)", self.notes_text(fig))

    def test_work_precision_cost_axis_is_counted_work(self):
        # The synthetic rows are in the old format (rhs_evals and exp_evals only): the default axis derives work.
        fig = self.draw(copy.deepcopy(PLOT_SPECS[3]))
        ax_cost = fig.axes[1]
        self.assertIn("counted work", ax_cost.get_ylabel())
        rows = [r for r in self.data["rows"] if r["method"] == "rkmk4" and r["status"] == "ok"
                and r["metrics"]["state_err_final"] is not None]
        line = next(l for l in self.data_lines(ax_cost) if l.get_label().startswith("RKMK4"))
        expected = sorted(r["cost"]["rhs_evals"] + r["cost"]["exp_evals"] for r in rows)
        self.assertEqual(sorted(line.get_ydata().tolist()), expected)

    def test_pareto_front(self):
        pts = [(1.0, 10.0), (0.5, 20.0), (0.5, 15.0), (2.0, 5.0), (1.5, 12.0), (0.1, 100.0)]
        self.assertEqual(pr.pareto_front(pts), [(0.1, 100.0), (0.5, 15.0), (1.0, 10.0), (2.0, 5.0)])

    def test_sphere_normalised_on_unit_sphere(self):
        fig = self.draw(copy.deepcopy(PLOT_SPECS[4]))
        ax = fig.axes[0]
        self.assertEqual(ax.name, "3d")
        trajs = [l for l in ax.lines if l.get_label() and not l.get_label().startswith("_")]
        self.assertEqual(len(trajs), len(METHODS))
        for l in trajs:
            x, y, z = l.get_data_3d()
            r = np.sqrt(np.asarray(x) ** 2 + np.asarray(y) ** 2 + np.asarray(z) ** 2)
            np.testing.assert_allclose(r, 1.0, rtol=1e-12)

    def test_order_bars(self):
        fig = self.draw({"type": "order_bars", "file": "o.png", "metric": "state_err_final"})
        ax = fig.axes[0]
        self.assertEqual(len(ax.patches), len(METHODS))
        heights = sorted(round(p.get_height()) for p in ax.patches)
        self.assertEqual(heights, sorted(m["order"] for m in METHODS.values()))
        ticks = [t.get_text() for t in ax.get_xticklabels()]
        self.assertEqual(ticks[0], "RKMK1 (Lie-Euler)")  # order of the methods object

    def test_style_is_consistent(self):
        s2 = gp.Style(make_results())
        for m in METHODS:
            self.assertEqual(self.style.color(m), s2.color(m))
        self.assertEqual(len({self.style.color(m) for m in METHODS}), len(METHODS))
        self.assertEqual(self.style.marker("rkmk4"), "o")
        self.assertEqual(self.style.marker("odeint_rk4_matrix"), "s")
        self.assertEqual(self.style.name("nosuch"), "nosuch")

    def test_where_and_group(self):
        rows = self.data["rows"]
        self.assertEqual(len(gp.select(rows, {"method": "rkmk4"})), len(HS))
        self.assertEqual(len(gp.select(rows, {"method": ["rkmk4", "rkmk2"], "h": HS[1]})), 2)
        self.assertEqual(len(gp.select(rows, {"T": 10})), len(rows))
        self.assertEqual(len(gp.select(rows, {"params.inertia": [1.0, 2.0, 3.0]})), len(rows))  # equal list
        self.assertEqual(len(gp.select(rows, {"params.inertia": [[1.0, 2.0, 4.0], [1, 2, 3]]})), len(rows))
        self.assertEqual(len(gp.select(rows, {"params.inertia": [[1.0, 2.0, 3.0]]})), len(rows))
        self.assertEqual(len(gp.select(rows, {"nosuchfield": 1})), 0)
        groups = gp.group(rows, ["method"])
        self.assertEqual([k[0] for k, _ in groups], list(METHODS))
        self.assertEqual(gp.default_group_keys(rows), ["method"])


# ---------------------------------------------------------------------------
# N rigid particles (dipolar soft spheres): particle_orthogonality, trajectories_2d, directions_2d, spikes


def rot_z(theta):
    c, s = math.cos(theta), math.sin(theta)
    return [c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0]


def make_particle_series(row_index, n_particles, n=201, T_end=20.0, full=True):
    """Planar particles circling with a close encounter at t ~ 8-10 (energy spike there)."""
    rng = np.random.default_rng(n_particles)
    t = np.linspace(0.0, T_end, n)
    centres = rng.uniform(-10, 10, (n_particles, 2))
    theta0 = rng.uniform(0, 2 * np.pi, n_particles)
    q = [[[centres[i, 0] + math.cos(0.3 * tk + i), centres[i, 1] + math.sin(0.3 * tk + i), 0.0]
          for i in range(n_particles)] for tk in t]
    Q = [[rot_z(theta0[i] + 0.5 * (i + 1) * tk) for i in range(n_particles)] for tk in t]
    dist = 3.0 - 2.0 * np.exp(-((t - 9.0) / 1.0) ** 2)  # below 1.5 around t = 9
    energy = 1e-12 * np.sin(7 * t) + np.where(np.abs(t - 9.0) < 1.0, -0.2, 0.0)
    energy[0] = 0.0
    ortho = rng.uniform(1e-17, 3e-16, (n, n_particles))
    ortho[0, :] = 0.0  # exact zeros at the start (log axis: dropped, noted)
    s = {"row": row_index, "t": t.tolist(), "energy_rel_err": energy.tolist(),
         "energy_abs_err": (3e-4 * energy).tolist(), "linear_momentum_err": [0.0] * n,
         "angular_momentum_err": (1e-15 * t).tolist(), "manifold_residual": ortho.max(axis=1).tolist(),
         "min_pair_distance": dist.tolist()}
    s["min_pair_distance"][5] = None
    if full:
        s["orthogonality"] = ortho.tolist()
        s["orthogonality"][3][0] = None
        s["q"], s["Q"] = q, Q
    return s


def make_particle_row(method, h, status="ok", n_particles=3):
    return {"problem": "dipolar_spheres", "preset": "kjer2017_2d_n%d" % n_particles, "ic": "preset",
            "params": {"N": n_particles, "mu_bar": [1.0, 1.0, 0.0], "inertia": [1.0, 1.88, 2.88]},
            "overrides": {}, "method": method, "method_params": {}, "h": h, "T": 20.0,
            "steps": int(round(20.0 / h)), "status": status, "metrics": {}, "cost": {}, "timing": None}


def make_particle_results():
    """rows: 0 rkmk4 h=0.1 full series; 1 rkmk4 h=0.05 without q/Q/orthogonality; 2 rkmk2 diverged;
    3 rkmk4 h=0.2, 12 particles (colour map beyond the palette)."""
    rows = [make_particle_row("rkmk4", 0.1), make_particle_row("rkmk4", 0.05),
            make_particle_row("rkmk2", 0.1, status="diverged"), make_particle_row("rkmk4", 0.2, n_particles=12)]
    series = [make_particle_series(0, 3), make_particle_series(1, 3, full=False),
              make_particle_series(2, 3, n=11), make_particle_series(3, 12, n=101)]
    return {"schema_version": 1, "kind": "gibench.results",
            "methods": {"rkmk4": {"display_name": "RKMK4", "order": 4, "family": "rkmk"},
                        "rkmk2": {"display_name": "RKMK2", "order": 2, "family": "rkmk"}},
            "rows": rows, "series": series, "fits": []}


PARTICLE_SPECS = [
    {"type": "particle_orthogonality", "file": "ortho.png", "where": {"h": 0.1}},
    {"type": "trajectories_2d", "file": "traj.png", "where": {"h": 0.1}},
    {"type": "directions_2d", "file": "dirs.png", "where": {"h": [0.1, 0.2]}},
    {"type": "directions_2d", "file": "arrows.png", "as": "arrows", "mark_every_t": 5, "where": {"h": 0.1}},
    {"type": "spikes", "file": "spikes.png", "signed": True},
    {"type": "spikes", "file": "spikes_abs.png", "quantity": "energy_abs_err", "distance_below": 2.0,
     "where": {"h": 0.1}},
]


class ParticlePlotTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.data = gp.validate(make_particle_results())
        cls.style = gp.Style(cls.data)

    @classmethod
    def tearDownClass(cls):
        gp.plt.close("all")
        cls.tmp.cleanup()

    def draw(self, spec):
        pr.take_warnings()
        fig = pr.draw(self.data, pr.validate_spec(copy.deepcopy(spec)), self.style)
        return fig, pr.take_warnings()

    def notes_text(self, fig):
        return " ".join(t.get_text() for t in fig.texts).replace("\n", " ")  # the footnote is wrapped

    def test_render_png(self):
        for spec in PARTICLE_SPECS:
            with self.subTest(file=spec["file"]):
                path = os.path.join(self.tmp.name, spec["file"])
                pr.take_warnings()
                pr.render(self.data, pr.validate_spec(copy.deepcopy(spec)), path, "png", self.style)
                check_file(self, path, "png")
                self.assertEqual(pr.take_warnings(), [])

    def test_validation(self):
        bad = [
            {"type": "trajectories_2d", "mark_every_t": 0},
            {"type": "trajectories_2d", "mark_every_t": "100 steps"},
            {"type": "directions_2d", "as": "quiver"},
            {"type": "directions_2d", "mark_every_t": -1.0},
            {"type": "spikes", "signed": "yes"},
            {"type": "spikes", "quantity": 3},
            {"type": "spikes", "quantity": ""},
            {"type": "spikes", "distance_below": 0},
            {"type": "spikes", "distance_below": True},
            {"type": "spikes", "linthresh": -1e-12},
            {"type": "particle_orthogonality", "where": "h=0.1"},
            {"type": "particle_orthogonality"},  # no file
        ]
        for spec in bad:
            with self.subTest(spec=spec):
                if spec != {"type": "particle_orthogonality"}:
                    spec = dict(spec, file="x.png")
                with self.assertRaises(gp.MalformedError):
                    pr.validate_spec(spec)
        for spec in PARTICLE_SPECS:
            pr.validate_spec(copy.deepcopy(spec))

    def test_missing_series_fields_warn(self):
        # row 1 (h = 0.05) has no orthogonality, q or Q series: footnote and warning, no exception
        cases = [("particle_orthogonality", {}, "orthogonality series"), ("trajectories_2d", {}, "q series"),
                 ("directions_2d", {}, "Q series"), ("directions_2d", {"as": "arrows"}, "Q series")]
        for t, extra, what in cases:
            with self.subTest(type=t, **extra):
                fig, warnings = self.draw(dict({"type": t, "file": "m.png", "where": {"h": 0.05}}, **extra))
                self.assertIn("RKMK4 h=0.05 (no %s)" % what, self.notes_text(fig))
                self.assertTrue(any("RKMK4 h=0.05 has no %s" % what in w for w in warnings), warnings)
                self.assertTrue(any("no plottable data" in w for w in warnings), warnings)
        # spikes: the row lacks nothing it needs; one without the quantity warns but still draws distances
        fig, warnings = self.draw({"type": "spikes", "file": "s.png", "quantity": "casimir_err", "where": {"h": 0.05}})
        self.assertTrue(any("has no casimir_err series" in w for w in warnings), warnings)
        self.assertEqual(len(fig.axes[1].lines), 2)  # distance line and threshold
        # mu_bar missing from params
        d = make_particle_results()
        del d["rows"][0]["params"]["mu_bar"]
        pr.take_warnings()
        fig = pr.draw(d, {"type": "directions_2d", "file": "d.png", "where": {"h": 0.1}})
        self.assertTrue(any("params.mu_bar" in w for w in pr.take_warnings()))
        # a row without any series object
        d["series"] = [s for s in d["series"] if s["row"] != 0]
        fig = pr.draw(d, {"type": "spikes", "file": "s.png", "where": {"h": 0.1}})
        self.assertIn("RKMK4 h=0.1 (no series)", self.notes_text(fig))
        self.assertTrue(any("has no series" in w for w in pr.take_warnings()))

    def test_diverged_rows_skipped(self):
        for spec in PARTICLE_SPECS:
            with self.subTest(file=spec["file"]):
                fig, _ = self.draw(dict(spec, where={"h": 0.1}))
                self.assertIn("RKMK2 h=0.1 (diverged)", self.notes_text(fig))

    def test_orthogonality_lines(self):
        fig, _ = self.draw(PARTICLE_SPECS[0])
        ax = fig.axes[0]
        self.assertEqual(ax.get_yscale(), "log")
        s = self.data["series"][0]
        D = np.array([[np.nan if v is None else v for v in row] for row in s["orthogonality"]], dtype=float)
        thin, bold = ax.lines[0], ax.lines[1]
        self.assertEqual(len(thin.get_xdata()), 3 * (len(s["t"]) + 1))  # 3 particles, NaN-separated
        y = np.asarray(bold.get_ydata(), dtype=float)
        self.assertTrue(np.isnan(y[0]))  # all zeros at t = 0: not drawn on the log axis
        np.testing.assert_allclose(y[1:], np.nanmax(D[1:], axis=1))
        eps = [l for l in ax.lines if list(l.get_ydata()) == [np.finfo(float).eps] * 2]
        self.assertEqual(len(eps), 1)
        text = self.notes_text(fig)
        self.assertIn("3 exact zeros not drawn on the log axis", text)
        self.assertIn("1 null orthogonality values", text)

    def test_trajectory_marks_and_starts(self):
        fig, _ = self.draw(dict(PARTICLE_SPECS[1], mark_every_t=5.0))
        ax = fig.axes[0]
        starts = [l for l in ax.lines if l.get_color() == "k"]
        self.assertEqual(len(starts), 3)
        s = self.data["series"][0]
        for l in starts:
            i = starts.index(l)
            self.assertEqual((l.get_xdata()[0], l.get_ydata()[0]), tuple(s["q"][0][i][:2]))
        rings = [l for l in ax.lines if l.get_marker() == "o" and l.get_markerfacecolor() == "none"]
        self.assertEqual([len(l.get_xdata()) for l in rings], [4, 4, 4])  # t = 5, 10, 15, 20
        self.assertEqual(ax.get_aspect(), 1.0)

    def test_mark_indices(self):
        t = np.linspace(0.0, 100.0, 1001)
        self.assertEqual(pr.mark_indices(t, 100 * 0.1), list(range(100, 1001, 100)))  # 100 steps of h = 0.1
        self.assertEqual(pr.mark_indices(t, 0.01), list(range(1, 1001)))  # finer than the samples: all
        self.assertEqual(pr.mark_indices(t, 200.0), [])
        row = {"h": 0.05}
        self.assertEqual(pr.mark_every({}, row, t), (5.0, "every 100 steps"))

    def test_dipole_angles(self):
        s3 = math.sqrt(3.0) / 2.0
        Rx90 = [1, 0, 0, 0, 0, -1, 0, 1, 0]  # y -> z, z -> -y
        Q = [[rot_z(math.radians(30)), [1, 0, 0, 0, 1, 0, 0, 0, 1], Rx90]]
        ang = pr.dipole_angles(Q, [1.0, 1.0, 0.0], unwrap=False)
        np.testing.assert_allclose(np.degrees(ang[0, :2]), [75.0, 45.0], atol=1e-12)
        # mu_bar (0, 1, 1): identity -> 90 deg; R_x(90) maps it to (0, -1, 1) -> -90 deg
        ang = pr.dipole_angles(Q, [0.0, 1.0, 1.0])
        np.testing.assert_allclose(np.degrees(ang[0, 1:]), [90.0, -90.0], atol=1e-12)
        # R_z(30) (0, 1, 1): in-plane part (-1/2, sqrt3/2) -> 120 deg
        self.assertAlmostEqual(math.degrees(ang[0, 0]), math.degrees(math.atan2(s3, -0.5)))
        # unwrapping across +-180 deg, and a null sample
        Q = [[rot_z(math.radians(a))] for a in (170, 190, 210)] + [[None]] + [[rot_z(math.radians(250))]]
        raw = np.degrees(pr.dipole_angles(Q, [1, 0, 0], unwrap=False)[:, 0])
        np.testing.assert_allclose(raw[:3], [170, -170, -150], atol=1e-9)
        un = np.degrees(pr.dipole_angles(Q, [1, 0, 0])[:, 0])
        np.testing.assert_allclose(un[[0, 1, 2, 4]], [170, 190, 210, 250], atol=1e-9)
        self.assertTrue(np.isnan(un[3]))
        # no in-plane part: NaN
        self.assertTrue(np.isnan(pr.dipole_angles([[rot_z(0.3)]], [0, 0, 1])[0, 0]))

    def test_directions_plot_angles(self):
        fig, _ = self.draw(dict(PARTICLE_SPECS[2], where={"h": 0.1}))
        ax = fig.axes[0]
        s, mu_bar = self.data["series"][0], [1.0, 1.0, 0.0]
        want = np.degrees(pr.dipole_angles(s["Q"], mu_bar))
        lines = [l for l in ax.lines if len(l.get_xdata()) == len(s["t"])]
        self.assertEqual(len(lines), 3)
        for i, l in enumerate(lines):
            np.testing.assert_allclose(l.get_ydata(), want[:, i])
            self.assertTrue(np.all(np.abs(np.diff(l.get_ydata())) < 180))  # unwrapped: no jumps
        self.assertGreater(np.ptp(lines[2].get_ydata()), 360)  # spins more than a turn

    def test_angle_ticks_keep_labels_in_a_narrow_band(self):
        import matplotlib.pyplot as plt

        for lo, hi, want in ((-167.0, -130.0, 15.0), (-80.0, 10.0, 45.0), (-200.0, 200.0, 90.0), (0.0, 5000.0, 720.0)):
            with self.subTest(range=(lo, hi)):
                fig, ax = plt.subplots()
                pr.angle_ticks(ax, np.array([[lo], [hi]]))
                ax.set_ylim(lo, hi)
                ticks = [y for y in ax.get_yticks() if lo <= y <= hi]
                values = ax.yaxis.get_major_locator().tick_values(lo, hi)
                self.assertEqual(values[1] - values[0], want)
                self.assertGreaterEqual(len(ticks), 2)
                plt.close(fig)

    def test_below_intervals(self):
        t = np.arange(10.0)
        d = np.array([3, 1, 1, 3, np.nan, 1, 3, 3, 3, 1.0])
        self.assertEqual(pr.below_intervals(t, d, 1.5), [(0.5, 2.5), (4.5, 5.5), (8.5, 9.0)])
        self.assertEqual(pr.below_intervals(t, np.full(10, 2.0), 1.5), [])

    def test_spikes_panels(self):
        fig, _ = self.draw(PARTICLE_SPECS[4])
        ax_e, ax_d = fig.axes[:2]
        self.assertEqual(ax_e.get_yscale(), "symlog")
        self.assertEqual(len([l for l in ax_e.lines if not l.get_label().startswith("_")]), 3)  # 3 ok rows
        self.assertTrue(any(list(l.get_ydata()) == [1.5, 1.5] and l.get_linestyle() == "--" for l in ax_d.lines))
        self.assertEqual(len(ax_d.patches), 3)  # one close encounter per ok row, shaded in both panels
        self.assertEqual(len(ax_e.patches), 3)
        self.assertIn("1 null min_pair_distance values dropped", self.notes_text(fig))
        fig, _ = self.draw(PARTICLE_SPECS[5])
        self.assertEqual(fig.axes[0].get_yscale(), "log")

    def test_cli_particle_figure(self):
        d = make_particle_results()
        d["kind"] = "gibench.figure"
        d["figure"] = {"id": "p", "plots": copy.deepcopy(PARTICLE_SPECS) +
                       [{"type": "trajectories_2d", "file": "missing.png", "where": {"h": 0.05}}]}
        path = write_json(os.path.join(self.tmp.name, "particles.json"), d)
        out = os.path.join(self.tmp.name, "cli")
        code, stdout, stderr = run_main(path, "--out-dir", out)
        self.assertEqual(code, 0, stderr)
        self.assertEqual(len(stdout.splitlines()), len(PARTICLE_SPECS) + 1)
        self.assertIn("warning: missing.png: RKMK4 h=0.05 has no q series", stderr)
        for line in stdout.splitlines():
            check_file(self, line, "png")


class PhasePortraitTest(unittest.TestCase):
    """The state series of a vector field drawn as (q, p) points, one panel per method and step size."""

    def data(self):
        rows, series = [], []
        for k, (method, h, status) in enumerate([("leapfrog_dkd", 0.1, "ok"), ("leapfrog_dkd", 1.0, "ok"),
                                                 ("odeint_euler", 0.1, "diverged")]):
            rows.append({"problem": "pendulum", "preset": "mq1998", "method": method, "h": h, "T": 1.0,
                         "status": status, "overrides": {"p0": 1.0}, "metrics": {}})
            # a rotating orbit on the covering space: q runs from 0 to 9, past pi and 3 pi
            series.append({"row": k, "t": [0.0, 0.5, 1.0], "x": [[0.0, 1.0], [4.0, 1.0], [9.0, None]]})
        return {"schema_version": 1, "kind": "gibench.sweep", "rows": rows, "series": series,
                "methods": {"leapfrog_dkd": {"display_name": "Leapfrog"}, "odeint_euler": {"display_name": "Euler"}}}

    def test_panels_wrap_and_exclusions(self):
        data = self.data()
        spec = pr.validate_spec({"type": "phase_portrait", "file": "x.png", "wrap_q": True})
        fig = pr.draw(data, spec, gp.Style(data))
        titled = [ax for ax in fig.axes if ax.get_title()]
        self.assertEqual([ax.get_title() for ax in titled], ["Leapfrog, h = 0.1 (1 orbit)", "Leapfrog, h = 1 (1 orbit)"])
        q = titled[0].lines[0].get_xdata()
        self.assertTrue(np.all(q[np.isfinite(q)] < np.pi) and np.all(q[np.isfinite(q)] >= -np.pi))
        self.assertAlmostEqual(q[1], 4.0 - 2 * np.pi)
        self.assertTrue(np.isnan(titled[0].lines[0].get_ydata()[2]))  # a null coordinate is a gap, not a point
        self.assertIn("diverged", " ".join(t.get_text() for t in fig.texts))
        unwrapped = pr.draw(data, pr.validate_spec({"type": "phase_portrait", "file": "x.png"}), gp.Style(data))
        self.assertEqual(list(unwrapped.axes[0].lines[0].get_xdata()[:2]), [0.0, 4.0])
        gp.plt.close("all")

    def test_validation(self):
        for spec in ({"type": "phase_portrait", "wrap_q": "yes"}, {"type": "phase_portrait", "xlim": [0]},
                     {"type": "phase_portrait", "ylim": [0, "a"]}, {"type": "phase_portrait", "markersize": 0}):
            with self.subTest(spec=spec):
                with self.assertRaises(gp.MalformedError):
                    pr.validate_spec(dict(spec, file="x.png"))


class DeclaredMetricsTest(unittest.TestCase):
    """The plots label metrics and series by name; every name they know is one core/metrics.hpp declares, so a
    renamed metric cannot leave a label behind (`gibench list metrics`)."""

    def declared(self):
        binary = os.environ.get("GIBENCH_BIN")
        if not binary:
            self.skipTest("GIBENCH_BIN is not set (ctest sets it to the built gibench)")
        out = subprocess.run([binary, "list", "metrics"], check=True, capture_output=True, text=True).stdout
        names = set()
        for line in out.splitlines()[1:]:
            name = line.split()[0]
            names.add(name)
            if name.endswith("_rel_err"):  # a relative invariant's absolute companion
                names.add(name[: -len("_rel_err")] + "_abs_err")
        return names

    def test_labels_name_declared_metrics(self):
        names = self.declared()
        self.assertIn("state_err", names)
        for table in (pr.METRIC_LABELS, pr.SERIES_LABELS):
            for key in table:
                with self.subTest(key=key):
                    self.assertIn(key, names)
        for key in pr.SIGNED_METRICS:
            self.assertIn(key, names)
        # and the check itself fails on a name nobody declares
        self.assertNotIn("energy_err", names)


if __name__ == "__main__":
    unittest.main()
