"""Readable convergence and work-precision plots with many methods (issue 21 item 2): at most gp.MAX_CURVES curves
per panel, a best-of-family panel plus one panel per family, notes below the axes, the same bytes twice.

Run:  /usr/bin/python3 -m unittest discover -s plots/tests
"""

import math
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PLOTS = os.path.dirname(HERE)
ROOT = os.path.dirname(PLOTS)
sys.path.insert(0, PLOTS)

import matplotlib.pyplot as plt  # noqa: E402

import gibench_plot as gp  # noqa: E402
import plot_results as pr  # noqa: E402

# 17 methods in three families: rkmk has 12 (more than one panel holds), classical 3, splitting 2.
FAMILIES = {"rkmk": 12, "classical": 3, "splitting": 2}
HS = [0.4 * 2.0 ** -k for k in range(6)]
T = 10.0


def method_table():
    out = {}
    for fam, n in FAMILIES.items():
        for k in range(n):
            out["%s_%02d" % (fam, k)] = {"display_name": "%s method %d" % (fam, k), "order": 1 + k % 4, "family": fam}
    return out


def make_row(method, info, h, k):
    steps = int(round(T / h))
    stages = 1 + k % 3
    # classical_00 is the cheapest method of all at every error: it must be its family's best and on the front.
    c = 0.01 if method == "classical_00" else 0.5 + 0.1 * k
    err = c * h ** info["order"]
    return {"problem": "free_rigid_body", "preset": "fixture", "ic": "preset", "T": T, "method": method,
            "method_params": {}, "h": h, "steps": steps, "status": "ok", "metrics": {"state_err_final": err},
            "cost": {"steps": steps, "rhs_evals": steps * stages, "exp_evals": 0},
            "timing": {"median_s": steps * stages * 1e-7, "min_s": steps * stages * 0.9e-7,
                       "max_s": steps * stages * 1.2e-7}}


def make_results(with_note=True):
    methods = method_table()
    rows = [make_row(m, info, h, k) for k, (m, info) in enumerate(methods.items()) for h in HS]
    if with_note:
        rows[0] = dict(rows[0], status="diverged", metrics={"state_err_final": None})
    return {"schema_version": 1, "kind": "gibench.results", "methods": methods, "rows": rows, "series": [], "fits": []}


def curves(ax):
    """The method curves of a panel: its legend entries other than the Pareto front."""
    return [l for l in ax.get_legend_handles_labels()[1] if not l.startswith("Pareto")]


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def overlaps(a, b):
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def note_problems(fig):
    """What is wrong with the figure's footnote: outside the saved (tight) box, or over an axis' labels."""
    note = fig._gibench_note_artist
    if note is None:
        return ["no note"]
    r = fig.canvas.get_renderer()
    nb = note.get_window_extent(r)
    tight = fig.get_tightbbox(r).transformed(fig.dpi_scale_trans)
    out = []
    if not (tight.x0 - 1 <= nb.x0 and nb.x1 <= tight.x1 + 1 and tight.y0 - 1 <= nb.y0 and nb.y1 <= tight.y1 + 1):
        out.append("note outside the saved box")
    for k, ax in enumerate(fig.axes):
        for what, artist in (("x label", ax.xaxis.label), ("axes", ax)):
            if overlaps(nb, artist.get_window_extent(r)):
                out.append("note over panel %d's %s" % (k, what))
    return out


class FamilyHelpers(unittest.TestCase):
    def test_family_chunks_split_evenly_past_max_curves(self):
        groups = [("g%d" % k, []) for k in range(23)] + [("h%d" % k, []) for k in range(10)]
        chunks = gp.family_chunks(groups, lambda g: g[0][0], max_curves=10)
        self.assertEqual([(f, p, n, len(c)) for f, p, n, c in chunks],
                         [("g", 1, 3, 8), ("g", 2, 3, 8), ("g", 3, 3, 7), ("h", 1, 1, 10)])

    def test_best_of_family_most_front_points(self):
        # Family A: a2 holds three points of A's front, a1 none (each of its points is dominated by one of a2's).
        a1 = (("a1",), [(1e-1, 10.0), (1e-2, 100.0)])
        a2 = (("a2",), [(1e-1, 5.0), (1e-3, 50.0), (1e-4, 500.0)])
        # Family B: b1 and b2 have one front point each; the tie goes to the smaller error reached (b2).
        b1 = (("b1",), [(1e-2, 1.0)])
        b2 = (("b2",), [(1e-5, 1000.0)])
        best = gp.best_of_family([a1, b1, a2, b2], lambda g: g[0][0][0])
        self.assertEqual([g[0][0] for g in best], ["a2", "b2"])
        # Neither "the first listed" (a1, b1) nor "the lowest work anywhere" (b1 in B) would give this.
        self.assertEqual(gp.best_of_family([a1, b1], lambda g: g[0][0][0]), [a1, b1])


class FamilyLayout(unittest.TestCase):
    def setUp(self):
        self.data = make_results()
        self.style = gp.Style(self.data)

    def tearDown(self):
        plt.close("all")

    def wp(self, **extra):
        spec = dict({"type": "work_precision", "file": "wp.png", "metric": "state_err_final"}, **extra)
        return pr.draw(self.data, pr.validate_spec(spec), self.style)

    def test_work_precision_panels_and_curves(self):
        fig = self.wp()
        # best-of-family for time and cost, rkmk in two panels of 6, classical, splitting
        self.assertEqual(len(fig.axes), 6)
        counts = [len(curves(ax)) for ax in fig.axes]
        self.assertEqual(counts, [3, 3, 6, 6, 3, 2])
        self.assertLessEqual(max(counts), gp.MAX_CURVES)
        for ax in fig.axes:  # the overall front on every panel
            self.assertIn("Pareto front (all methods)", ax.get_legend_handles_labels()[1])

    def test_best_of_family_panel_names_the_family_best(self):
        fig = self.wp()
        labels = curves(fig.axes[0])
        self.assertIn("classical: classical method 0", labels)
        self.assertEqual(sorted(l.split(":")[0] for l in labels), ["classical", "rkmk", "splitting"])

    def test_single_layout_up_to_max_curves(self):
        fig = self.wp(where={"method": list(method_table())[:gp.MAX_CURVES]})
        self.assertEqual(len(fig.axes), 2)  # time and cost, one panel each, as before
        fig = self.wp(layout="single")
        self.assertEqual(len(fig.axes), 2)
        self.assertGreater(len(curves(fig.axes[0])), gp.MAX_CURVES)  # what the family layout prevents

    def test_convergence_panels(self):
        spec = pr.validate_spec({"type": "convergence", "file": "c.png", "metric": "state_err_final",
                                 "guides": [{"slope": 2, "label": "h^2"}]})
        fig = pr.draw(self.data, spec, self.style)
        self.assertEqual([len(curves(ax)) - ("$h^{2}$" in ax.get_legend_handles_labels()[1]) for ax in fig.axes],
                         [6, 6, 3, 2])

    def test_notes_below_the_axes(self):
        for fig in (self.wp(), self.wp(layout="single")):
            fig.draw_without_rendering()
            self.assertEqual(note_problems(fig), [])

    def test_note_check_can_fail(self):
        fig = self.wp(layout="single")
        fig.draw_without_rendering()
        # Where the old footnote sat: the figure's bottom edge, in the rect tight_layout was asked to keep free.
        fig._gibench_note_artist.set_position((0.01, 0.005))
        fig._gibench_note_artist.set_va("bottom")
        fig._gibench_note_artist.set_text("\n".join(["excluded: a long list of rows"] * 6))
        self.assertTrue(any("x label" in p or "axes" in p for p in note_problems(fig)))

    def test_same_bytes_twice(self):
        with tempfile.TemporaryDirectory() as d:
            paths = []
            for k in range(2):
                spec = pr.validate_spec({"type": "work_precision", "file": "wp%d.png" % k, "metric": "state_err_final"})
                paths.append(pr.render(make_results(), spec, os.path.join(d, "wp%d.png" % k)))
            a, b = (read_bytes(p) for p in paths)
            self.assertEqual(a, b)
            self.assertNotIn(b"Software", a)
            self.assertNotIn(b"Creation Time", a)


class CommittedRank(unittest.TestCase):
    def test_buss2001_rank_within_max_curves(self):
        path = os.path.join(ROOT, "results", "rank", "free_rigid_body-buss2001.json")
        if not os.path.exists(path):
            self.skipTest("no committed rank")
        data = gp.load(path)
        spec = pr.validate_spec({"type": "work_precision", "file": "x.png", "metric": data["metric"]})
        fig = pr.draw(data, spec)
        try:
            self.assertGreater(len(data["methods"]), 50)
            self.assertLessEqual(max(len(curves(ax)) for ax in fig.axes), gp.MAX_CURVES)
            fig.draw_without_rendering()
            self.assertEqual(note_problems(fig), [])
        finally:
            plt.close(fig)


if __name__ == "__main__":
    unittest.main()
