#!/usr/bin/python3
"""Draw the plots of a gibench results / figure file.

    /usr/bin/python3 plots/plot_results.py FILE.json [--out-dir DIR] [--format png|svg|pdf]
    /usr/bin/python3 plots/plot_results.py FILE.json --plot TYPE [--metric M] [--where key=value ...]
        [--file NAME] [--set key=JSON ...]

Without --plot, every entry of FILE's figure.plots is drawn (kind gibench.figure).
With --plot, one ad-hoc plot is drawn from the rows of any results file.
Prints one line per written file; a malformed file or spec, or an unknown plot
type, exits 2 with a one-line error; a plot that cannot be drawn exits 1.
Plot types and their fields: plots/README.md.
"""

import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

import gibench_plot as gp  # noqa: E402
from gibench_plot import MalformedError, PlotError  # noqa: E402

# ---------------------------------------------------------------------------
# Labels

METRIC_LABELS = {
    "rot_geodesic": ("rotation error (geodesic angle)", "rad"),
    "rot_2norm": ("rotation error $\\|R - R_\\mathrm{ref}\\|_2$", None),
    "mom_err": ("momentum error $|\\Pi - \\Pi_\\mathrm{ref}|$", None),
    "mom_rel_err": ("relative momentum error", None),
    "state_err": ("state error", None),
    "energy_rel_err": ("relative energy error", None),
    "energy_abs_err": ("energy error", None),
    "casimir_err": ("Casimir error", None),
    "spatial_momentum_err": ("spatial momentum error", None),
    "manifold_residual": ("manifold residual $\\|R^TR - I\\|_F$", None),
}

# (signed label, absolute-value label) of series quantities
SERIES_LABELS = {
    "energy_rel_err": ("$(H(t) - H_0)/|H_0|$", "$|H(t) - H_0|/|H_0|$"),
    "energy_abs_err": ("$H(t) - H_0$", "$|H(t) - H_0|$"),
    "casimir_err": ("$C(t) - C_0$", "$|C(t) - C_0|$"),
    "spatial_momentum_err": ("$|R\\Pi - R_0\\Pi_0|$", "$|R\\Pi - R_0\\Pi_0|$"),
    "manifold_residual": ("$\\|R^TR - I\\|_F$", "$\\|R^TR - I\\|_F$"),
    "state_err": ("state error", "state error"),
}

COST_LABELS = {
    "rhs_evals": "right-hand-side evaluations",
    "force_evals": "force evaluations",
    "exp_evals": "exponential evaluations",
    "steps": "steps",
    "nonlinear_iters": "nonlinear iterations",
    "linear_solves": "linear solves",
}


SIGNED_METRICS = ("energy_rel_err", "energy_abs_err", "casimir_err")


def metric_base(metric):
    for suffix in ("_final", "_max"):
        if metric.endswith(suffix):
            return metric[: -len(suffix)]
    return metric


def metric_label(metric):
    """Axis label of an error metric; values are drawn as absolute values."""
    base = metric_base(metric)
    name, unit = METRIC_LABELS.get(base, (metric, None))
    if base in SIGNED_METRICS or base not in METRIC_LABELS:
        name = "|%s|" % name
    when = " at $T$" if metric.endswith("_final") else (" (max over $[0,T]$)" if metric.endswith("_max") else "")
    return name + when + (" [%s]" % unit if unit else "")


def context_title(rows, skip=()):
    """'problem / preset / ic / T = 10' from the fields all rows share."""
    parts = []
    for key in ("problem", "preset", "ic"):
        v = gp.unique_value(rows, key) if key not in skip else None
        if isinstance(v, str) and v:
            parts.append(v)
    T = gp.unique_value(rows, "T") if "T" not in skip else None
    if gp.is_number(T):
        parts.append("T = %s" % gp.fmt_num(T))
    return " / ".join(parts)


def set_title(fig, ax, spec, rows, default_what):
    title = spec.get("title")
    if title is None:
        ctx = context_title(rows)
        title = default_what + (" — " + ctx if ctx else "")
    if title:
        if ax is not None:
            ax.set_title(title)
        else:
            fig.suptitle(title, fontsize=10)


def params_text(value, defaults):
    """Method parameters that differ from the method's defaults, as 'k=v, ...'."""
    try:
        params = json.loads(value) if isinstance(value, str) else value
    except ValueError:
        return str(value)
    if not isinstance(params, dict):
        return str(value)
    defaults = defaults if isinstance(defaults, dict) else {}
    return ", ".join("%s=%s" % (k, gp.fmt_num(v)) for k, v in sorted(params.items()) if defaults.get(k) != v)


def group_suffix(key, extra_keys, style=None, method=None):
    """' (preset=x, ic=y)' for the group keys beyond the method; method parameters show only what
    differs from the method's defaults."""
    bits = []
    for k, v in zip(extra_keys, key):
        if k == "method_params":
            defaults = style.info(method).get("default_params") if style is not None else None
            text = params_text(v, defaults)
            if text:
                bits.append(text)
        elif k == "overrides":
            text = params_text(v, {})
            if text:
                bits.append(text)
        else:
            bits.append("%s=%s" % (k, gp.fmt_num(v)))
    return " (" + ", ".join(bits) + ")" if bits else ""


def ok_rows(items, notes, value_of, positive=True, what=None):
    """Filter (index, row) items: status ok and a finite (positive) value.
    Returns [(index, row, value)]; everything else goes into `notes`."""
    out = []
    for i, r in items:
        status = r.get("status")
        if status != "ok":
            notes.add_row(r, status if isinstance(status, str) else "no status")
            continue
        v, reason = value_of(r)
        if v is None:
            notes.add_row(r, reason)
            continue
        if positive and v <= 0:
            notes.add_row(r, "%s = %s" % (what or "value", gp.fmt_num(v)))
            continue
        out.append((i, r, v))
    return out


def metric_of(metric):
    def f(row):
        m = row.get("metrics")
        if not isinstance(m, dict) or metric not in m:
            return None, "no %s" % metric
        v = gp.finite(m[metric])
        return (abs(v), None) if v is not None else (None, "%s null" % metric)

    return f


def positive_h(items, notes):
    out = []
    for item in items:
        h = gp.finite(item[1].get("h"))
        if h is None or h <= 0:
            notes.add_row(item[1], "invalid h")
        else:
            out.append(item)
    return out


def same_T(a, b):
    return gp.is_number(a) and gp.is_number(b) and abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-300)


def find_fit(data, rows, metric):
    """The entry of top-level fits for this group of rows and metric, or None."""
    cands = []
    for f in data.get("fits", []):
        if f.get("metric") != metric:
            continue
        if any(f.get(k) != gp.unique_value(rows, k) for k in ("problem", "preset", "ic", "method")):
            continue
        if not all(same_T(f.get("T"), r.get("T")) for r in rows):
            continue
        cands.append(f)
    if len(cands) > 1:  # same method with different parameters: match method_params
        mp = gp.unique_value(rows, "method_params")
        narrowed = [f for f in cands if gp._hashable(f.get("method_params")) == mp]
        cands = narrowed or cands
    return cands[0] if cands else None


def order_text(fit):
    p = gp.finite(fit.get("order_hat")) if fit else None
    if p is None:
        return ""
    s = "  p̂ = %.2f" % p
    ci = fit.get("ci95")
    if isinstance(ci, list) and len(ci) == 2 and all(gp.finite(c) is not None for c in ci):
        s += " [%.2f, %.2f]" % (ci[0], ci[1])
    return s


def in_window(h, fit):
    w = fit.get("window") if fit else None
    if not isinstance(w, dict):
        return True
    lo, hi = gp.finite(w.get("h_min")), gp.finite(w.get("h_max"))
    if lo is None or hi is None:
        return True
    return lo * (1 - 1e-9) <= h <= hi * (1 + 1e-9)


def guide_label(label, slope):
    if not isinstance(label, str):
        label = "h^%s" % gp.fmt_num(slope)
    if "$" not in label and "^" in label:
        import re

        label = "$" + re.sub(r"\^([0-9A-Za-z.\-]+)", r"^{\1}", label) + "$"
    return label


_WARNINGS = []  # "file: what" for plots drawn without data; printed by main()


def no_data_warning(ax, spec, what="no plottable data"):
    gp.no_data(ax, what)
    _WARNINGS.append("%s: %s" % (spec.get("file") or spec.get("type"), what))


def selected(data, spec):
    items = gp.select(data["rows"], spec.get("where"))
    if not items:
        raise PlotError("no rows match where %s" % json.dumps(spec.get("where") or {}, sort_keys=True))
    return items


# ---------------------------------------------------------------------------
# 1. convergence

GUIDE_OFFSET = 0.3  # guides start a factor 0.3 below the anchor point, so they do not hide the data


def draw_convergence(data, spec, style):
    metric = spec["metric"]
    items = selected(data, spec)
    notes = gp.Notes(style)
    good = ok_rows(positive_h(items, notes), notes, metric_of(metric), positive=True, what=metric)
    rows = [r for _, r, _ in good]
    keys = spec.get("group_by") or gp.default_group_keys(rows or [r for _, r in items])
    extra = [k for k in keys if k != "method"]
    groups = gp.group(good, keys, key_of=lambda it: it[1])
    groups.sort(key=lambda g: (style.sort_key(g[1][0][1].get("method")), [str(x) for x in g[0]]))

    fig, ax = plt.subplots(figsize=(6.4, 4.3))
    ax.set_xscale("log")
    ax.set_yscale("log")
    variant_ls = {}
    anchors = []  # (group rows, points, fit) for guides
    any_hollow = False
    ymin = min((v for _, _, v in good), default=None)
    for key, pts in groups:
        pts.sort(key=lambda it: -it[1]["h"])
        grows = [r for _, r, _ in pts]
        method = grows[0].get("method")
        hs = np.array([r["h"] for r in grows], dtype=float)
        ys = np.array([v for _, _, v in pts], dtype=float)
        fit = find_fit(data, grows, metric)
        inside = [k for k, h in enumerate(hs) if in_window(h, fit)]
        outside = [k for k in range(len(hs)) if k not in inside]
        ext_key = tuple(x for k, x in zip(keys, key) if k != "method")
        ls = variant_ls.setdefault(method, {}).setdefault(ext_key, gp.LINESTYLES[len(variant_ls[method]) % 4])
        color, marker = style.color(method), style.marker(method)
        label = style.name(method) + group_suffix(ext_key, extra, style, method) + order_text(fit)
        ax.plot(hs, ys, color=color, ls=ls, marker=marker, markevery=inside, mfc=color, mec=color,
                label=label, zorder=3)
        if outside:
            any_hollow = True
            ax.plot(hs[outside], ys[outside], ls="none", marker=marker, mfc="white", mec=color, mew=1.1, zorder=4)
        anchors.append((method, hs, ys, fit))

    handles, labels = ax.get_legend_handles_labels()
    for g_i, g in enumerate(spec.get("guides") or []):
        slope = float(g["slope"])
        cands = [a for a in anchors if a[0] == g.get("anchor")] or \
                [a for a in anchors if style.declared_order(a[0]) == slope] or anchors[:1]
        if not cands:
            continue
        method, hs, ys, fit = cands[0]
        h0, y0 = hs[0], ys[0] * float(g.get("offset", GUIDE_OFFSET))
        h_lo = hs[-1]
        w = fit.get("window") if fit else None
        if isinstance(w, dict) and gp.finite(w.get("h_min")):
            h_lo = max(h_lo, float(w["h_min"]))
        hh = np.geomspace(h0, h_lo, 50) if h_lo < h0 else np.array([h0])
        yy = y0 * (hh / h0) ** slope
        if ymin is not None:
            keep = yy >= 0.5 * ymin
            hh, yy = hh[keep], yy[keep]
        line, = ax.plot(hh, yy, color="0.35", ls=["--", ":", "-."][g_i % 3], lw=1.0, zorder=2)
        handles.append(line)
        labels.append(guide_label(g.get("label"), slope))
    if any_hollow:
        handles.append(Line2D([], [], ls="none", marker="o", mfc="white", mec="0.3"))
        labels.append("outside fit window")

    if not good:
        no_data_warning(ax, spec)
    ax.set_xlabel("step size $h$")
    ax.set_ylabel(metric_label(metric))
    gp.log_grid(ax)
    set_title(fig, ax, spec, rows or [r for _, r in items], "Convergence")
    gp.legend(ax, handles, labels)
    return gp.finish(fig, notes)



# ---------------------------------------------------------------------------
# 2. invariant_time


def _series_array(values):
    return np.array([np.nan if gp.finite(v) is None else float(v) for v in values], dtype=float)


def draw_invariant_time(data, spec, style):
    quantities = spec["quantities"]
    signed = bool(spec.get("signed", False))
    items = selected(data, spec)
    wanted = {i for i, _ in items}
    notes = gp.Notes(style)
    rows = data["rows"]
    series = [s for s in data.get("series", []) if s["row"] in wanted]
    ok = []
    for s in series:
        r = rows[s["row"]]
        if r.get("status") != "ok":
            notes.add_row(r, r.get("status") if isinstance(r.get("status"), str) else "no status")
        else:
            ok.append(s)
    extra = gp.varying_keys([rows[s["row"]] for s in ok], ("method_params", "overrides", "problem", "preset", "ic", "T"))
    ok.sort(key=lambda s: (style.sort_key(rows[s["row"]].get("method")), -(gp.finite(rows[s["row"]].get("h")) or 0)))

    n = len(quantities)
    fig, axes = plt.subplots(n, 1, figsize=(6.4, 1.2 + 2.3 * n), sharex=True, squeeze=False)
    axes = axes[:, 0]
    rank = {}
    drawn_any = False
    for s in ok:
        r = rows[s["row"]]
        method = r.get("method")
        ls_idx = rank.setdefault(method, {}).setdefault(s["row"], len(rank[method]))
        label = style.row_label(r, extra)
        t = _series_array(s["t"])
        for ax, q in zip(axes, quantities):
            if q not in s:
                notes.add_row(r, "no %s series" % q)
                continue
            y = _series_array(s[q])
            mask = np.isfinite(t) & np.isfinite(y)
            if np.count_nonzero(np.isfinite(y)) < len(y):
                notes.add_row(r, "%d null %s values dropped" % (len(y) - np.count_nonzero(np.isfinite(y)), q))
            if not signed:
                y = np.abs(y)
                mask &= y > 0
            if not mask.any():
                notes.add_row(r, "%s identically 0" % q if not signed else "no finite %s" % q)
                continue
            ax.plot(t[mask], y[mask], color=style.color(method), ls=gp.LINESTYLES[ls_idx % 4], lw=1.0,
                    label=label)
            drawn_any = True
    for ax, q in zip(axes, quantities):
        signed_lab, abs_lab = SERIES_LABELS.get(q, (q, "|%s|" % q))
        if signed:
            ax.set_ylabel(signed_lab)
            ax.axhline(0.0, color="0.6", lw=0.6, zorder=1)
            ax.ticklabel_format(axis="y", style="sci", scilimits=(-3, 3), useMathText=True)
            ax.grid(True, color="0.9", linewidth=0.5)
            ax.set_axisbelow(True)
        else:
            ax.set_ylabel(abs_lab)
            if ax.lines:
                ax.set_yscale("log")
                gp.log_grid(ax, which="major")
        if not ax.lines:
            gp.no_data(ax, "no data for %s" % q)
    axes[-1].set_xlabel("time $t$")
    if not drawn_any:
        _WARNINGS.append("%s: no plottable data" % (spec.get("file") or spec.get("type")))
    what = "Invariant errors" if not signed else "Invariant errors (signed)"
    set_title(fig, axes[0], spec, [rows[s["row"]] for s in ok] or [r for _, r in items], what)
    # one legend for all panels: the panel with the most lines
    best = max(axes, key=lambda a: len(a.get_legend_handles_labels()[0]))
    gp.legend(best, outside=True if n > 1 or len(ok) > 4 else None)
    return gp.finish(fig, notes)


# ---------------------------------------------------------------------------
# 3. work_precision


def pareto_front(points):
    """Non-dominated (err, work, ...) tuples (lower err and lower work), sorted by err."""
    front = []
    best = math.inf
    for p in sorted(points, key=lambda p: (p[0], p[1])):
        if p[1] < best:
            front.append(p)
            best = p[1]
    return front


def draw_work_precision(data, spec, style):
    metric = spec["metric"]
    items = selected(data, spec)
    works = spec.get("work")
    if works is None:
        works = (["time"] if any(isinstance(r.get("timing"), dict) for _, r in items) else []) + ["cost"]
    cost_field = spec.get("cost_field", "rhs_evals")
    notes = gp.Notes(style)
    good = ok_rows(positive_h(items, notes), notes, metric_of(metric), positive=True, what=metric)
    rows = [r for _, r, _ in good]
    keys = spec.get("group_by") or gp.default_group_keys(rows or [r for _, r in items])
    extra = [k for k in keys if k != "method"]

    fig, axes = plt.subplots(1, len(works), figsize=(4.6 * len(works) + 0.6, 4.2), squeeze=False)
    axes = axes[0]
    for ax, work in zip(axes, works):
        pts = []  # (err, work, lo, hi, row)
        for i, r, err in good:
            if work == "time":
                tm = r.get("timing")
                med = gp.finite(tm.get("median_s")) if isinstance(tm, dict) else None
                if med is None or med <= 0:
                    notes.add_row(r, "no timing")
                    continue
                lo, hi = gp.finite(tm.get("min_s")), gp.finite(tm.get("max_s"))
                pts.append((err, med, med if lo is None else min(lo, med), med if hi is None else max(hi, med), r))
            else:
                c = r.get("cost")
                v = gp.finite(c.get(cost_field)) if isinstance(c, dict) else None
                if v is None or v <= 0:
                    notes.add_row(r, "no cost.%s" % cost_field)
                    continue
                pts.append((err, v, v, v, r))
        groups = gp.group(pts, keys, key_of=lambda p: p[4])
        groups.sort(key=lambda g: (style.sort_key(g[1][0][4].get("method")), [str(x) for x in g[0]]))
        variant_ls = {}
        for key, gpts in groups:
            gpts.sort(key=lambda p: -p[4]["h"])
            method = gpts[0][4].get("method")
            ext_key = tuple(x for k, x in zip(keys, key) if k != "method")
            ls = variant_ls.setdefault(method, {}).setdefault(ext_key, gp.LINESTYLES[len(variant_ls[method]) % 4])
            e = np.array([p[0] for p in gpts])
            w = np.array([p[1] for p in gpts])
            label = style.name(method) + group_suffix(ext_key, extra, style, method)
            kw = dict(color=style.color(method), ls=ls, marker=style.marker(method), label=label, zorder=3)
            if work == "time":
                yerr = np.array([[p[1] - p[2] for p in gpts], [p[3] - p[1] for p in gpts]])
                ax.errorbar(e, w, yerr=yerr, capsize=2, elinewidth=0.8, **kw)
            else:
                ax.plot(e, w, **kw)
        front = pareto_front([p[:2] for p in pts])
        if front:
            fe, fw = [p[0] for p in front], [p[1] for p in front]
            ax.plot(fe, fw, drawstyle="steps-post", color="0.55", lw=4.0, alpha=0.45, zorder=1,
                    solid_capstyle="butt", label="Pareto front")
            ax.plot(fe, fw, ls="none", marker="o", ms=11, mfc="none", mec="0.35", mew=1.3, zorder=5)
        ax.set_xscale("log")
        ax.set_yscale("log")
        gp.log_grid(ax)
        ax.set_xlabel(metric_label(metric))
        if work == "time":
            ax.set_ylabel("wall time [s] (median; bars min–max)")
        else:
            ax.set_ylabel("cost: " + COST_LABELS.get(cost_field, cost_field))
        if not pts:
            no_data_warning(ax, spec, "no %s data" % work)
    ctx = context_title(rows or [r for _, r in items])
    title = spec.get("title", "Work–precision" + (" — " + ctx if ctx else ""))
    if len(axes) == 1:
        axes[0].set_title(title)
    elif title:
        fig.suptitle(title, fontsize=10)
    best = max(axes, key=lambda a: len(a.get_legend_handles_labels()[0]))
    h, l = best.get_legend_handles_labels()
    if h:
        if len(axes) > 1:
            axes[-1].legend(h, l, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)
        else:
            gp.legend(axes[0], h, l)
    return gp.finish(fig, notes)


# ---------------------------------------------------------------------------
# 4. sphere_trajectories


def draw_sphere_trajectories(data, spec, style):
    field = spec.get("field", "Pi")
    normalise = bool(spec.get("normalise", False))
    items = selected(data, spec)
    wanted = {i for i, _ in items}
    rows = data["rows"]
    notes = gp.Notes(style)
    trajs = []  # (row, xyz array)
    for s in data.get("series", []):
        if s["row"] not in wanted:
            continue
        r = rows[s["row"]]
        if r.get("status") != "ok":
            notes.add_row(r, r.get("status") if isinstance(r.get("status"), str) else "no status")
            continue
        pts = s.get(field)
        if not isinstance(pts, list):
            notes.add_row(r, "no %s series" % field)
            continue
        xyz = np.array([[float(c) for c in p] if isinstance(p, list) and len(p) == 3 and
                        all(gp.finite(c) is not None for c in p) else [np.nan] * 3 for p in pts], dtype=float)
        bad = ~np.isfinite(xyz).all(axis=1)
        if bad.all() or len(xyz) == 0:
            notes.add_row(r, "no finite %s" % field)
            continue
        if bad.any():
            notes.add_row(r, "%d invalid %s points dropped" % (int(bad.sum()), field))
        if normalise:
            first = xyz[~bad][0]
            n0 = float(np.linalg.norm(first))
            if n0 <= 0:
                notes.add_row(r, "|%s0| = 0" % field)
                continue
            xyz = xyz / n0
        trajs.append((r, xyz))

    fig = plt.figure(figsize=(5.6, 5.2))
    ax = fig.add_subplot(projection="3d")
    if normalise or not trajs:
        radius = 1.0
    else:
        radius = float(np.median([np.linalg.norm(x[np.isfinite(x).all(axis=1)][0]) for _, x in trajs]))
    u = np.linspace(0, 2 * np.pi, 37)
    v = np.linspace(0, np.pi, 19)
    sx = radius * np.outer(np.cos(u), np.sin(v))
    sy = radius * np.outer(np.sin(u), np.sin(v))
    sz = radius * np.outer(np.ones_like(u), np.cos(v))
    ax.plot_wireframe(sx, sy, sz, color="0.8", linewidth=0.3, alpha=0.6, rstride=2, cstride=2)

    methods = [r.get("method") for r, _ in trajs]
    per_method = len(set(methods)) == len(methods)
    cmap = plt.get_cmap("tab10" if len(trajs) <= 10 else "viridis")
    extra = gp.varying_keys([r for r, _ in trajs], ("preset", "overrides", "ic", "T"))
    for k, (r, xyz) in enumerate(trajs):
        color = style.color(r.get("method")) if per_method else cmap(k % 10 if len(trajs) <= 10 else k / max(1, len(trajs) - 1))
        ax.plot(xyz[:, 0], xyz[:, 1], xyz[:, 2], color=color, lw=1.1, label=style.row_label(r, extra))
        start = xyz[np.isfinite(xyz).all(axis=1)][0]
        ax.scatter([start[0]], [start[1]], [start[2]], color=color, edgecolors="k", s=28, depthshade=False, zorder=5)
    lim = 1.05 * radius
    ax.set_xlim(-lim, lim)
    ax.set_ylim(-lim, lim)
    ax.set_zlim(-lim, lim)
    ax.set_box_aspect((1, 1, 1))
    sym = "\\" + field if field in ("Pi", "pi", "omega", "Omega", "mu") else "\\mathrm{%s}" % field
    for k, setter in enumerate((ax.set_xlabel, ax.set_ylabel, ax.set_zlabel)):
        comp = "%s_%d" % (sym, k + 1)
        setter("$%s / |%s_0|$" % (comp, sym) if normalise else "$%s$" % comp, labelpad=2)
    ticks = [-radius, 0.0, radius]
    ax.set_xticks(ticks)
    ax.set_yticks(ticks)
    ax.set_zticks(ticks)
    for axis in (ax.xaxis, ax.yaxis, ax.zaxis):
        axis.set_pane_color((1.0, 1.0, 1.0, 0.0))
        axis._axinfo["grid"].update(color=(0.9, 0.9, 0.9, 1.0), linewidth=0.4)
    ax.view_init(elev=float(spec.get("elev", 20)), azim=float(spec.get("azim", -60)))
    if not trajs:
        no_data_warning(ax, spec)
    elif len(trajs) <= 12:
        handles, labels = ax.get_legend_handles_labels()
        handles.append(Line2D([], [], ls="none", marker="o", mfc="0.6", mec="k", ms=5))
        labels.append("start")
        ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=7)
    set_title(fig, ax, spec, [r for r, _ in trajs] or [r for _, r in items], "Trajectories")
    return gp.finish(fig, notes)


# ---------------------------------------------------------------------------
# 5. order_bars


def draw_order_bars(data, spec, style):
    metric = spec["metric"]
    fits = [f for f in data.get("fits", []) if f.get("metric") == metric and gp.matches(f, spec.get("where"))]
    if not fits:
        raise PlotError("no fits for metric %s match where %s" % (metric, json.dumps(spec.get("where") or {}, sort_keys=True)))
    notes = gp.Notes(style)
    extra = gp.varying_keys(fits, ("problem", "preset", "ic", "T"))
    good = []
    for f in fits:
        p = gp.finite(f.get("order_hat"))
        what = style.name(f.get("method")) + group_suffix(tuple(gp._hashable(f.get(k)) for k in extra), extra, style, f.get("method"))
        if p is None:
            notes.add(what, "no fitted order")
        else:
            good.append((what, p, f))
    good.sort(key=lambda g: (style.sort_key(g[2].get("method")), g[0]))
    fig, ax = plt.subplots(figsize=(max(4.0, 0.7 * len(good) + 2.0), 3.8))
    x = np.arange(len(good))
    for k, (what, p, f) in enumerate(good):
        m = f.get("method")
        ax.bar(k, p, width=0.6, color=style.color(m), alpha=0.85, zorder=2)
        ci = f.get("ci95")
        if isinstance(ci, list) and len(ci) == 2 and all(gp.finite(c) is not None for c in ci):
            ax.errorbar(k, p, yerr=[[max(0.0, p - ci[0])], [max(0.0, ci[1] - p)]], color="k", capsize=4,
                        lw=1.0, zorder=3)
        d = style.declared_order(m)
        if d is not None:
            ax.hlines(d, k - 0.38, k + 0.38, colors="k", linewidth=2.2, zorder=4)
    handles = [Line2D([], [], color="k", lw=2.2), Line2D([], [], color="k", lw=1.0, marker="_", ms=8)]
    ax.legend(handles, ["declared order", "95% interval"], loc="upper left", fontsize=7)
    ax.set_xticks(x)
    ax.set_xticklabels([g[0] for g in good], rotation=30 if len(good) > 3 else 0, ha="right" if len(good) > 3 else "center")
    ax.set_ylabel("fitted order $\\hat p$ (%s)" % metric)
    ax.set_xlim(-0.6, len(good) - 0.4)
    ax.set_ylim(bottom=0)
    ax.grid(True, axis="y", color="0.88", linewidth=0.6)
    ax.set_axisbelow(True)
    if not good:
        no_data_warning(ax, spec)
    set_title(fig, ax, spec, fits, "Fitted order")
    return gp.finish(fig, notes)


# ---------------------------------------------------------------------------
# 6. rank_table (gibench rank output)


def _fmt_time(e):
    t = gp.finite(e.get("time_median_s"))
    if t is None:
        return "-"
    lo, hi = gp.finite(e.get("time_min_s")), gp.finite(e.get("time_max_s"))
    spread = " (%s-%s)" % (gp.fmt_num(lo), gp.fmt_num(hi)) if lo is not None and hi is not None else ""
    return gp.fmt_num(t) + spread


def draw_rank_table(data, spec, style):
    boards = data.get("leaderboard")
    if not isinstance(boards, list) or not boards:
        raise PlotError("rank_table needs a gibench rank file (top-level 'leaderboard')")
    notes = gp.Notes(style)
    methods = []
    for b in boards:
        for e in b.get("entries", []):
            if e.get("method") not in methods:
                methods.append(e.get("method"))
    order = {m: k for k, m in enumerate(methods)}
    first = boards[0].get("entries", [])
    methods.sort(key=lambda m: next((k for k, e in enumerate(first) if e.get("method") == m), order[m]))
    header = ["method"]
    for b in boards:
        header += ["rank @%s" % gp.fmt_num(b.get("target")), "time / best"]
    cells, colours = [], []
    cmap = plt.get_cmap("RdYlGn_r")
    for m in methods:
        row, row_col = [style.name(m)], ["white"]
        for b in boards:
            e = next((x for x in b.get("entries", []) if x.get("method") == m), {})
            n = max(1, sum(1 for x in b.get("entries", []) if x.get("reached")))
            if e.get("reached"):
                rank = e.get("rank")
                row += [str(rank), gp.fmt_num(e.get("time_ratio_to_best"))]
                c = cmap(0.1 + 0.8 * ((rank or 1) - 1) / max(1, n - 1))
                row_col += [c, c]
            else:
                row += ["not reached", "best err %s" % gp.fmt_num(e.get("best_error"))]
                row_col += ["0.85", "0.85"]
        cells.append(row)
        colours.append(row_col)
    fig, ax = plt.subplots(figsize=(2.6 + 1.7 * 2 * len(boards), 0.9 + 0.3 * len(methods)))
    ax.axis("off")
    widths = [0.3] + [0.7 / (len(header) - 1)] * (len(header) - 1)
    table = ax.table(cellText=cells, colLabels=header, cellColours=colours, colWidths=widths, loc="center",
                     cellLoc="center")
    table.auto_set_font_size(False)
    table.set_fontsize(8)
    table.scale(1.0, 1.3)
    for (r, c), cell in table.get_celld().items():
        if r == 0:
            cell.set_text_props(weight="bold")
        if c == 0:
            cell.set_text_props(ha="left")
    title = spec.get("title") or "Ranking"
    ax.set_title("%s (%s, T = %s; time ratios from %s interleaved repetitions, %s)" % (
        title, data.get("metric", "error"), gp.fmt_num(data.get("T")), data.get("reps", "?"),
        data.get("cpu_model", "this machine")), fontsize=9)
    return gp.finish(fig, notes)


# ---------------------------------------------------------------------------
# Spec validation and dispatch

PLOT_TYPES = {
    "convergence": draw_convergence,
    "invariant_time": draw_invariant_time,
    "work_precision": draw_work_precision,
    "sphere_trajectories": draw_sphere_trajectories,
    "order_bars": draw_order_bars,
    "rank_table": draw_rank_table,
}


def _need(spec, key, check, what):
    if key not in spec:
        raise MalformedError("'%s' plot needs field '%s'" % (spec["type"], key))
    if not check(spec[key]):
        raise MalformedError("'%s' plot: field '%s' must be %s" % (spec["type"], key, what))


def _opt(spec, key, check, what):
    if key in spec and not check(spec[key]):
        raise MalformedError("'%s' plot: field '%s' must be %s" % (spec.get("type"), key, what))


def is_str(x):
    return isinstance(x, str) and x != ""


def str_list(x):
    return isinstance(x, list) and len(x) > 0 and all(is_str(v) for v in x)


def validate_spec(spec, need_file=True):
    if not isinstance(spec, dict):
        raise MalformedError("plot spec is not an object")
    t = spec.get("type")
    if t not in PLOT_TYPES:
        raise MalformedError("unknown plot type %r (known: %s)" % (t, ", ".join(PLOT_TYPES)))
    if need_file:
        _need(spec, "file", is_str, "a file name")
    _opt(spec, "title", lambda v: isinstance(v, str), "a string")
    _opt(spec, "where", lambda v: isinstance(v, dict), "an object")
    _opt(spec, "group_by", str_list, "a non-empty list of row fields")
    if t in ("convergence", "work_precision", "order_bars"):
        _need(spec, "metric", is_str, "a metric name")
    if t == "convergence":
        _opt(spec, "guides", lambda v: isinstance(v, list) and all(
            isinstance(g, dict) and gp.finite(g.get("slope")) is not None
            and gp.finite(g.get("offset", 1.0)) not in (None, 0.0) for g in v),
            "a list of {slope, label} objects")
    elif t == "invariant_time":
        _need(spec, "quantities", str_list, "a non-empty list of series quantities")
        _opt(spec, "signed", lambda v: isinstance(v, bool), "true or false")
    elif t == "work_precision":
        _opt(spec, "work", lambda v: isinstance(v, list) and len(v) > 0 and all(w in ("time", "cost") for w in v)
             and len(set(v)) == len(v), 'a list from ["time", "cost"]')
        _opt(spec, "cost_field", is_str, "a cost field name")
    elif t == "sphere_trajectories":
        _opt(spec, "normalise", lambda v: isinstance(v, bool), "true or false")
        _opt(spec, "field", is_str, "a series field name")
        for k in ("elev", "azim"):
            _opt(spec, k, lambda v: gp.finite(v) is not None, "a number")
    return spec


def draw(data, spec, style=None):
    """Figure for one validated plot spec."""
    return PLOT_TYPES[spec["type"]](data, spec, style or gp.Style(data))


def render(data, spec, path, fmt="png", style=None):
    fig = draw(data, spec, style)
    return gp.save(fig, path, fmt)


def take_warnings():
    out = list(_WARNINGS)
    del _WARNINGS[:]
    return out


# ---------------------------------------------------------------------------
# CLI


class OneLineParser(argparse.ArgumentParser):
    def error(self, message):
        self.exit(2, "%s: error: %s\n" % (self.prog, " ".join(message.split())))


def parse_value(text):
    """JSON if it parses (numbers, lists, true/false), else the text itself."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def parse_pairs(pairs, what):
    out = {}
    for p in pairs or []:
        if "=" not in p:
            raise MalformedError("%s expects key=value, got %r" % (what, p))
        k, v = p.split("=", 1)
        if not k:
            raise MalformedError("%s expects key=value, got %r" % (what, p))
        v = parse_value(v)
        if what == "--where" and k in out:  # repeated key: any of
            prev = out[k] if isinstance(out[k], list) else [out[k]]
            v = prev + (v if isinstance(v, list) else [v])
        out[k] = v
    return out


def main(argv=None):
    ap = OneLineParser(prog="plot_results.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("file", help="gibench results or figure JSON")
    ap.add_argument("--out-dir", help="output directory (default: the JSON's directory)")
    ap.add_argument("--format", choices=gp.FORMATS, default="png")
    ap.add_argument("--plot", metavar="TYPE", help="draw one ad-hoc plot of this type (%s)" % ", ".join(PLOT_TYPES))
    ap.add_argument("--metric", help="metric for convergence, work_precision, order_bars")
    ap.add_argument("--where", action="append", metavar="KEY=VALUE", help="row filter (repeatable)")
    ap.add_argument("--file", dest="name", metavar="NAME", help="output file name of the ad-hoc plot")
    ap.add_argument("--title")
    ap.add_argument("--set", action="append", metavar="KEY=JSON",
                    help='any other spec field, e.g. --set quantities=\'["energy_rel_err"]\'')
    args = ap.parse_args(argv)
    prog = ap.prog
    try:
        data = gp.load(args.file)
        if args.plot is not None:
            spec = parse_pairs(args.set, "--set")
            spec["type"] = args.plot
            if args.metric is not None:
                spec["metric"] = args.metric
            if args.where:
                spec["where"] = parse_pairs(args.where, "--where")
            if args.title is not None:
                spec["title"] = args.title
            spec["file"] = args.name or (args.plot + ("_" + args.metric if args.metric else ""))
            specs = [validate_spec(spec)]
        else:
            if data["kind"] != "gibench.figure":
                raise MalformedError("%s is %s without a figure spec; use --plot TYPE" % (args.file, data["kind"]))
            plots = data["figure"].get("plots", [])
            if not plots:
                raise MalformedError("%s: figure.plots is empty" % args.file)
            specs = []
            for k, p in enumerate(plots):
                try:
                    specs.append(validate_spec(p))
                except MalformedError as e:
                    raise MalformedError("%s: figure.plots[%d]: %s" % (args.file, k, e))
        out_dir = args.out_dir or os.path.dirname(os.path.abspath(args.file))
        paths = [gp.output_path(out_dir, s["file"], args.format) for s in specs]
        dup = {p for p in paths if paths.count(p) > 1}
        if dup:
            raise MalformedError("two plots write the same file %s" % sorted(dup)[0])
    except gp.GibenchError as e:
        sys.stderr.write("%s: error: %s\n" % (prog, e))
        return 2

    style = gp.Style(data)
    status = 0
    for spec, path in zip(specs, paths):
        take_warnings()
        before = set(plt.get_fignums())
        try:
            render(data, spec, path, args.format, style)
        except gp.GibenchError as e:
            sys.stderr.write("%s: error: %s: %s\n" % (prog, spec["file"], e))
            status = 1
            continue
        except Exception as e:  # a bug or an unforeseen data shape: still one line (GIBENCH_PLOT_DEBUG=1: traceback)
            if os.environ.get("GIBENCH_PLOT_DEBUG"):
                raise
            msg = " ".join(("%s: %s" % (type(e).__name__, e)).split())
            sys.stderr.write("%s: error: %s: internal error: %s\n" % (prog, spec["file"], msg))
            status = 1
            continue
        finally:
            for num in set(plt.get_fignums()) - before:  # figures left open by a failed plot
                plt.close(num)
        for w in take_warnings():
            sys.stderr.write("%s: warning: %s\n" % (prog, w))
        print(path, flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
