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
    "linear_momentum_err": ("$|P(t) - P_0|$", "$|P(t) - P_0|$"),
    "angular_momentum_err": ("$|L(t) - L_0|$", "$|L(t) - L_0|$"),
    "min_pair_distance": ("min pair distance", "min pair distance"),
}

COST_LABELS = {
    "work": "counted work",
    "work_per_step": "counted work per step",
    "function_evals": "function evaluations (RHS or force)",
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


def draw_convergence_curves(ax, data, groups, keys, metric, style, colors=None):
    """One line per group on ax; returns (anchors, any_hollow). colors: per-panel {method: (color, marker)}."""
    extra = [k for k in keys if k != "method"]
    variant_ls = {}
    anchors = []  # (method, hs, ys, fit) for guides
    any_hollow = False
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
        color, marker = colors[key] if colors else (style.color(method), style.marker(method))
        label = style.name(method) + group_suffix(ext_key, extra, style, method) + order_text(fit)
        ms = {"ms": FAMILY_MARKERSIZE} if colors else {}
        ax.plot(hs, ys, color=color, ls=ls, marker=marker, markevery=inside, mfc=color, mec=color,
                label=label, zorder=3, **ms)
        if outside:
            any_hollow = True
            ax.plot(hs[outside], ys[outside], ls="none", marker=marker, mfc="white", mec=color, mew=1.1, zorder=4,
                    **ms)
        anchors.append((method, hs, ys, fit))
    return anchors, any_hollow


def draw_guides(ax, spec, anchors, style, ymin, handles, labels, fallback=True):
    """The spec's slope guides, each from its anchor group among `anchors`: the named anchor, else the first group of
    that declared order, else (fallback) the first group. A family panel passes fallback=False: a guide appears only
    in the panels that hold its anchor or a method of its order."""
    for g_i, g in enumerate(spec.get("guides") or []):
        slope = float(g["slope"])
        cands = [a for a in anchors if a[0] == g.get("anchor")] or \
                [a for a in anchors if style.declared_order(a[0]) == slope] or \
                (anchors[:1] if fallback else [])
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


def draw_convergence(data, spec, style):
    metric = spec["metric"]
    items = selected(data, spec)
    notes = gp.Notes(style)
    good = ok_rows(positive_h(items, notes), notes, metric_of(metric), positive=True, what=metric)
    rows = [r for _, r, _ in good]
    keys = spec.get("group_by") or gp.default_group_keys(rows or [r for _, r in items])
    groups = gp.group(good, keys, key_of=lambda it: it[1])
    groups.sort(key=lambda g: (style.sort_key(g[1][0][1].get("method")), [str(x) for x in g[0]]))
    ymin = min((v for _, _, v in good), default=None)
    if use_family_layout(spec, len(groups)):
        return draw_convergence_families(data, spec, style, groups, keys, rows or [r for _, r in items], ymin, notes)

    fig, ax = plt.subplots(figsize=(6.4, 4.3))
    ax.set_xscale("log")
    ax.set_yscale("log")
    anchors, any_hollow = draw_convergence_curves(ax, data, groups, keys, metric, style)
    handles, labels = ax.get_legend_handles_labels()
    draw_guides(ax, spec, anchors, style, ymin, handles, labels)
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


def draw_convergence_families(data, spec, style, groups, keys, rows, ymin, notes):
    """More curves than one panel can show: one panel per family (split past gp.MAX_CURVES methods), all on the
    same axes limits so that panels compare."""
    metric = spec["metric"]
    chunks = gp.family_chunks(groups, lambda g: style.family(g[1][0][1].get("method")))
    fig, axes = family_grid(len(chunks))
    xs = [r["h"] for _, pts in groups for _, r, _ in pts]
    ys = [v for _, pts in groups for _, _, v in pts]
    for ax, (family, part, parts, chunk) in zip(axes, chunks):
        ax.set_xscale("log")
        ax.set_yscale("log")
        anchors, any_hollow = draw_convergence_curves(ax, data, chunk, keys, metric, style, panel_colors(chunk))
        handles, labels = ax.get_legend_handles_labels()
        draw_guides(ax, spec, anchors, style, ymin, handles, labels, fallback=False)
        if any_hollow:
            handles.append(Line2D([], [], ls="none", marker="o", mfc="white", mec="0.3"))
            labels.append("outside fit window")
        ax.set_title(family_title(family, part, parts, chunk, groups, style), fontsize=9)
        ax.set_xlabel("step size $h$")
        ax.set_ylabel(metric_label(metric))
        same_limits(ax, xs, ys)
        gp.log_grid(ax)
        panel_legend(ax, handles, labels)
    if not groups:
        no_data_warning(axes[0], spec)
    set_title(fig, None, spec, rows, "Convergence")
    return gp.finish(fig, notes)


# ---------------------------------------------------------------------------
# 2. invariant_time


def _series_array(values):
    return np.array([np.nan if gp.finite(v) is None else float(v) for v in values], dtype=float)


def draw_invariant_time(data, spec, style):
    # A panel per entry; an entry that is a list overlays its quantities (line style by quantity), each optionally
    # multiplied by spec["scale"][quantity] (Tao-Owhadi Fig 5: -omega^2 g over SHAKE's lambda on one axis).
    panels = [q if isinstance(q, list) else [q] for q in spec["quantities"]]
    scale = spec.get("scale", {})
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

    n = len(panels)
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
        for ax, panel in zip(axes, panels):
            for qi, q in enumerate(panel):
                if q not in s:
                    if len(panel) == 1:
                        notes.add_row(r, "no %s series" % q)
                    continue
                y = _series_array(s[q]) * scale.get(q, 1.0)
                mask = np.isfinite(t) & np.isfinite(y)
                if np.count_nonzero(np.isfinite(y)) < len(y):
                    notes.add_row(r, "%d null %s values dropped" % (len(y) - np.count_nonzero(np.isfinite(y)), q))
                if not signed:
                    y = np.abs(y)
                    mask &= y > 0
                if not mask.any():
                    notes.add_row(r, "%s identically 0" % q if not signed else "no finite %s" % q)
                    continue
                overlay = len(panel) > 1
                ax.plot(t[mask], y[mask], color=style.color(method), ls=gp.LINESTYLES[(qi if overlay else ls_idx) % 4], lw=1.0,
                        label=label + (": %s%s" % ("%g x " % scale[q] if q in scale else "", q) if overlay else ""))
                drawn_any = True
    for ax, panel in zip(axes, panels):
        q = panel[0]
        signed_lab, abs_lab = SERIES_LABELS.get(q, (q, "|%s|" % q))
        if len(panel) > 1:
            signed_lab = abs_lab = ", ".join(("%g %s" % (scale[p], p) if p in scale else p) for p in panel)
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
            gp.no_data(ax, "no data for %s" % ", ".join(panel))
    axes[-1].set_xlabel("time $t$")
    if spec.get("log_t"):  # growth laws (error ~ t^k) are straight lines
        for ax in axes:
            ax.set_xscale("log")
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


def wp_points(good, work, cost_field, notes):
    """(err, work, lo, hi, row) of the rows with this work measure; the others go into notes."""
    pts = []
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
            v = gp.cost_value(r.get("cost"), cost_field)
            if v is None or v <= 0:
                notes.add_row(r, "no cost.%s" % cost_field)
                continue
            pts.append((err, v, v, v, r))
    return pts


def wp_groups(pts, keys, style):
    groups = gp.group(pts, keys, key_of=lambda p: p[4])
    groups.sort(key=lambda g: (style.sort_key(g[1][0][4].get("method")), [str(x) for x in g[0]]))
    for _, gpts in groups:
        gpts.sort(key=lambda p: -p[4]["h"])
    return groups


def draw_wp_curves(ax, groups, keys, work, style, colors=None, label_of=None):
    """One line per group (method across h); time with min-max bars. colors: per-panel {key: (color, marker)}."""
    extra = [k for k in keys if k != "method"]
    variant_ls = {}
    for key, gpts in groups:
        method = gpts[0][4].get("method")
        ext_key = tuple(x for k, x in zip(keys, key) if k != "method")
        ls = variant_ls.setdefault(method, {}).setdefault(ext_key, gp.LINESTYLES[len(variant_ls[method]) % 4])
        e = np.array([p[0] for p in gpts])
        w = np.array([p[1] for p in gpts])
        label = style.name(method) + group_suffix(ext_key, extra, style, method)
        if label_of is not None:
            label = label_of(method, label)
        color, marker = colors[key] if colors else (style.color(method), style.marker(method))
        kw = dict(color=color, ls=ls, marker=marker, label=label, zorder=3)
        if colors:  # a family panel: smaller markers, so that curves close together stay apart
            kw["ms"] = FAMILY_MARKERSIZE
        if work == "time":
            yerr = np.array([[p[1] - p[2] for p in gpts], [p[3] - p[1] for p in gpts]])
            ax.errorbar(e, w, yerr=yerr, capsize=2, elinewidth=0.8, **kw)
        else:
            ax.plot(e, w, **kw)


def draw_front(ax, pts, rings=True, label="Pareto front"):
    """The Pareto front of pts (all methods): a thick grey step line, rings on its points."""
    front = pareto_front([p[:2] for p in pts])
    if not front:
        return
    fe, fw = [p[0] for p in front], [p[1] for p in front]
    ax.plot(fe, fw, drawstyle="steps-post", color="0.55", lw=4.0, alpha=0.45, zorder=1,
            solid_capstyle="butt", label=label)
    if rings:
        ax.plot(fe, fw, ls="none", marker="o", ms=11 if rings is True else 7, mfc="none", mec="0.35", mew=1.3,
                zorder=5)


def wp_labels(ax, metric, work, cost_field):
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(metric_label(metric))
    if work == "time":
        ax.set_ylabel("wall time [s] (median; bars min–max)")
    else:
        ax.set_ylabel("cost: " + COST_LABELS.get(cost_field, cost_field))


def draw_work_precision(data, spec, style):
    metric = spec["metric"]
    items = selected(data, spec)
    works = spec.get("work")
    if works is None:
        works = (["time"] if any(isinstance(r.get("timing"), dict) for _, r in items) else []) + ["cost"]
    cost_field = spec.get("cost_field", "work")
    notes = gp.Notes(style)
    good = ok_rows(positive_h(items, notes), notes, metric_of(metric), positive=True, what=metric)
    rows = [r for _, r, _ in good]
    keys = spec.get("group_by") or gp.default_group_keys(rows or [r for _, r in items])
    n_groups = len(gp.group(good, keys, key_of=lambda it: it[1]))
    ctx = context_title(rows or [r for _, r in items])
    title = spec.get("title", "Work–precision" + (" — " + ctx if ctx else ""))
    if use_family_layout(spec, n_groups):
        return draw_work_precision_families(spec, style, good, keys, works, cost_field, notes, title)

    fig, axes = plt.subplots(1, len(works), figsize=(4.6 * len(works) + 0.6, 4.2), squeeze=False)
    axes = axes[0]
    for ax, work in zip(axes, works):
        pts = wp_points(good, work, cost_field, notes)
        draw_wp_curves(ax, wp_groups(pts, keys, style), keys, work, style)
        draw_front(ax, pts)
        wp_labels(ax, metric, work, cost_field)
        gp.log_grid(ax)
        if not pts:
            no_data_warning(ax, spec, "no %s data" % work)
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


WORK_NAMES = {"time": "wall time", "cost": "counted cost"}


def draw_work_precision_families(spec, style, good, keys, works, cost_field, notes, title):
    """Too many methods for one panel: a best-of-family panel per work measure (each family's method with the most
    points on its family's Pareto front, gp.best_of_family), then one panel per family (split past gp.MAX_CURVES
    methods) on the first work measure. Every panel marks the Pareto front over all methods and shares the axes
    limits of its work measure."""
    metric = spec["metric"]
    family_of = lambda g: style.family(g[1][0][4].get("method"))  # noqa: E731
    per_work = {w: wp_points(good, w, cost_field, notes) for w in works}
    panels = []  # (work, groups, title, best?)
    for w in works:
        groups = wp_groups(per_work[w], keys, style)
        best = gp.best_of_family(groups, family_of)
        panels.append((w, best, "Best of each family — %s\n(rule: most points on its family's Pareto front)"
                       % WORK_NAMES[w], True))
    all_groups = wp_groups(per_work[works[0]], keys, style)
    for family, part, parts, chunk in gp.family_chunks(all_groups, family_of):
        panels.append((works[0], chunk, family_title(family, part, parts, chunk, all_groups, style,
                                                     getter=lambda g: g[1][0][4].get("method")), False))
    fig, axes = family_grid(len(panels))
    for ax, (work, groups, ptitle, is_best) in zip(axes, panels):
        pts = per_work[work]
        label_of = (lambda m, l: "%s: %s" % (style.family(m), l)) if is_best else None
        draw_wp_curves(ax, groups, keys, work, style, panel_colors(groups), label_of)
        draw_front(ax, pts, rings=True if is_best else "small", label="Pareto front (all methods)")
        wp_labels(ax, metric, work, cost_field)
        same_limits(ax, [p[0] for p in pts], [v for p in pts for v in (p[2], p[3])])
        gp.log_grid(ax)
        ax.set_title(ptitle, fontsize=9)
        panel_legend(ax, *ax.get_legend_handles_labels())
        if not pts:
            no_data_warning(ax, spec, "no %s data" % work)
    if title:
        fig.suptitle(title, fontsize=11)
    return gp.finish(fig, notes)


# Family layout (convergence and work-precision plots with more than gp.MAX_CURVES curves)


def use_family_layout(spec, n_groups):
    layout = spec.get("layout", "auto")
    return layout == "families" or (layout == "auto" and n_groups > gp.MAX_CURVES)


FAMILY_PANEL_SIZE = (3.9, 2.9)  # inches of one panel; its legend takes about as much again on the right
# A grid of panels is a large figure: 100 dpi keeps its text readable on a screen and its PNG within the results
# budget (about 250 kB), where 150 dpi made 900 kB of the Buss 2001 rank.
FAMILY_DPI = 100
FAMILY_MARKERSIZE = 3.5


def family_grid(n_panels, ncols=2):
    """A constrained-layout grid of n_panels axes, ncols wide, unused cells removed."""
    nrows = max(1, -(-n_panels // ncols))
    w, h = FAMILY_PANEL_SIZE
    fig = plt.figure(figsize=(ncols * (w + 2.6), nrows * h + 0.6), layout="constrained")
    fig._gibench_dpi = FAMILY_DPI
    grid = fig.subplots(nrows, ncols, squeeze=False).ravel()
    for ax in grid[n_panels:]:
        ax.remove()
    return fig, list(grid[:n_panels])


def panel_colors(groups):
    """Colours and markers by position in the panel: at most gp.MAX_CURVES curves, all distinct."""
    colors = gp.PALETTE + gp.PALETTE_EXTRA
    return {key: (colors[i % len(colors)], gp.MARKERS[i % len(gp.MARKERS)]) for i, (key, _) in enumerate(groups)}


def family_title(family, part, parts, chunk, groups, style, getter=lambda g: g[1][0][1].get("method")):
    n = sum(1 for g in groups if style.family(getter(g)) == family)
    what = "family %s" % family + (" (%d/%d)" % (part, parts) if parts > 1 else "")
    return "%s — %d of %d curves" % (what, len(chunk), n) if parts > 1 else "%s — %d curve%s" % (
        what, n, "" if n == 1 else "s")


def same_limits(ax, xs, ys):
    """Log limits covering every point of the plot (not only this panel's), so that panels compare."""
    for setter, vals in ((ax.set_xlim, xs), (ax.set_ylim, ys)):
        v = [x for x in vals if gp.finite(x) is not None and x > 0]
        if v:
            lo, hi = min(v), max(v)
            setter(lo / 10 ** 0.25, hi * 10 ** 0.25)


def panel_legend(ax, handles, labels):
    """Compact legend to the right of its panel, long names wrapped (constrained layout makes room)."""
    if handles:
        ax.legend(handles, [gp.wrap_label(l) for l in labels], loc="upper left", bbox_to_anchor=(1.02, 1.0),
                  borderaxespad=0.0, fontsize=6.5, handlelength=2.2, labelspacing=0.35, frameon=False)


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


def draw_final_vs_T(data, spec, style):
    """Final-time metrics against the run length T, one line per method and metric, log-log (|value|): growth laws
    measured at several T rather than along one series (M2's phase and shape parts, mq1998-pendulum-phase)."""
    metrics = spec.get("metrics")
    if not isinstance(metrics, list) or not metrics:
        raise PlotError("final_vs_T needs 'metrics', a non-empty list of metric names")
    items = selected(data, spec)
    notes = gp.Notes(style)
    fig, ax = plt.subplots(figsize=(6.4, 4.3))
    ax.set_xscale("log")
    ax.set_yscale("log")
    drawn = 0
    for k, metric in enumerate(metrics):
        good = ok_rows([(i, r) for i, r in items if gp.finite(r.get("T")) is not None and r["T"] > 0], notes,
                       metric_of(metric), positive=True, what=metric)
        groups = gp.group(good, ["method"], key_of=lambda it: it[1])
        groups.sort(key=lambda g: style.sort_key(g[0][0]))
        for (method,), pts in groups:
            pts.sort(key=lambda it: it[1]["T"])
            ts = [it[1]["T"] for it in pts]
            ys = [it[2] for it in pts]
            ax.plot(ts, ys, color=style.color(method), ls=gp.LINESTYLES[k % 4], marker=style.marker(method),
                    label="%s: %s" % (style.name(method), metric))
            drawn += 1
    ax.set_xlabel("run length $T$")
    ax.set_ylabel("|final value|")
    gp.log_grid(ax)
    if drawn:
        gp.legend(ax)
    else:
        no_data_warning(ax, spec)
    set_title(fig, ax, spec, [r for _, r in items], "Final-time metrics against T")
    return gp.finish(fig, notes)


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
                best = e.get("best_error")
                # No run of the method ended ok (best_error null): there is no error to quote.
                row += ["not reached", "best err %s" % gp.fmt_num(best) if best is not None else "no run ok"]
                row_col += ["0.85", "0.85"]
        cells.append(row)
        colours.append(row_col)
    # The name column fits the longest display name at 8 pt (about 0.075 in per character); the table hangs from
    # the top of its axes, which is as tall as its rows, so no band of white separates it from the title.
    name_in = max(2.6, 0.075 * max(len(r[0]) for r in cells) + 0.3) if cells else 2.6
    width_in = name_in + 1.7 * 2 * len(boards)
    fig, ax = plt.subplots(figsize=(width_in, 0.4 + 0.26 * (len(methods) + 1)))
    ax.axis("off")
    widths = [name_in / width_in] + [(1 - name_in / width_in) / (len(header) - 1)] * (len(header) - 1)
    table = ax.table(cellText=cells, colLabels=header, cellColours=colours, colWidths=widths, loc="upper center",
                     cellLoc="center")
    table.auto_set_font_size(False)
    table.set_fontsize(8)
    table.scale(1.0, 1.3)
    fig._gibench_dpi = FAMILY_DPI
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
# 7.-10. N rigid particles (dipolar soft spheres; Kjer Figs 3.6, 3.9-3.14)

MACHINE_EPS = float(np.finfo(float).eps)
ROW_KEYS = ("method_params", "overrides", "problem", "preset", "ic", "T")


def missing(spec, notes, row, what):
    """A row without data the plot needs: footnote, and a warning on stderr, since the run was most
    likely made without the observer option that records it (observe.series_extra: "configuration", "orthogonality")."""
    notes.add_row(row, "no %s" % what)
    _WARNINGS.append("%s: %s h=%s has no %s" % (spec.get("file") or spec.get("type"),
                                              notes.style.name(row.get("method")), gp.fmt_num(row.get("h")), what))


def ok_runs(data, spec, style, notes):
    """(selected items, [(row, series)]) of the selected rows with status ok and a series, sorted by
    method and decreasing h; the others go into the notes."""
    items = selected(data, spec)
    first = {}
    for s in data.get("series", []):
        first.setdefault(s["row"], s)
    runs = []
    for i, r in items:
        status = r.get("status")
        if status != "ok":
            notes.add_row(r, status if isinstance(status, str) else "no status")
        elif i not in first:
            missing(spec, notes, r, "series")
        else:
            runs.append((r, first[i]))
    runs.sort(key=lambda rs: (style.sort_key(rs[0].get("method")), -(gp.finite(rs[0].get("h")) or 0)))
    return items, runs


def _entry(e, inner):
    if not inner:
        return gp.finite(e)
    n = int(np.prod(inner))
    if isinstance(e, list) and len(e) == n and all(gp.finite(c) is not None for c in e):
        return np.array(e, dtype=float).reshape(inner)
    return None


def particle_array(values, inner=()):
    """Per-sample lists of N entries (numbers; [x, y, z] for inner=(3,); 9 numbers for inner=(9,)) as a
    float array (samples, N, *inner). null, non-finite and malformed entries become NaN."""
    try:  # regular data (the usual case): one numpy conversion, None -> NaN
        a = np.array(values, dtype=float)
        if a.ndim == 2 + len(inner) and a.shape[2:] == tuple(inner):
            return np.where(np.isfinite(a), a, np.nan)
    except (TypeError, ValueError):
        pass
    n = max((len(v) for v in values if isinstance(v, list)), default=0)
    a = np.full((len(values), n) + tuple(inner), np.nan)
    for k, sample in enumerate(values):
        for i, e in enumerate(sample if isinstance(sample, list) else []):
            v = _entry(e, inner)
            if v is not None:
                a[k, i] = v
    return a


def nan_joined(t, Y):
    """The columns of Y (samples x N) against t as one polyline broken by NaNs: one artist instead of N,
    which keeps 100-particle plots fast."""
    N = Y.shape[1]
    gap = np.full((1, N), np.nan)
    x = np.vstack([np.repeat(t[:, None], N, axis=1), gap])
    y = np.vstack([Y, gap])
    return x.T.ravel(), y.T.ravel()


def particle_colors(n):
    """One colour per particle: the method palette (no grey, no black: black marks start points) up to
    9 particles, else evenly spaced on a rainbow map."""
    if n <= len(gp.PALETTE):
        return gp.PALETTE[:n]
    cmap = plt.get_cmap("turbo")
    return [cmap(0.05 + 0.9 * k / (n - 1)) for k in range(n)]


def mark_indices(t, every):
    """Indices of the samples nearest to t0 + k*every, k >= 1 (the circles of Kjer Figs 3.11/3.13, drawn
    "every 100 steps"; the start, k = 0, is marked separately). Every sample when `every` is finer than
    the series spacing."""
    ok = np.flatnonzero(np.isfinite(t))
    if every is None or every <= 0 or len(ok) < 2:
        return []
    tt = t[ok]
    n = int(math.floor((tt[-1] - tt[0]) / every + 1e-9))  # + 1e-9: 100 / (100 * 0.1) must give 10
    if n >= len(tt):
        return ok[1:].tolist()
    targets = tt[0] + every * np.arange(1, n + 1)
    j = np.clip(np.searchsorted(tt, targets), 1, len(tt) - 1)
    j = np.where(np.abs(tt[j - 1] - targets) <= np.abs(tt[j] - targets), j - 1, j)
    return sorted(set(ok[j].tolist()) - {int(ok[0])})


def mark_every(spec, row, t):
    """(interval, legend text) of the circles: spec mark_every_t, else 100 steps of the row's h."""
    if "mark_every_t" in spec:
        return float(spec["mark_every_t"]), "every $\\Delta t$ = %s" % gp.fmt_num(spec["mark_every_t"])
    h = gp.finite(row.get("h"))
    if h is not None and h > 0:
        return 100.0 * h, "every 100 steps"
    span = np.nanmax(t) - np.nanmin(t) if np.isfinite(t).any() else 0.0
    return (span / 10.0, "every T/10") if span > 0 else (None, "")


def panels(n, width=5.0, height=4.6):
    """Figure with one panel per run (at least one), two per row."""
    ncols = min(max(n, 1), 2)
    nrows = max(1, -(-n // ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(width * ncols, height * nrows), squeeze=False)
    axes = list(axes.flat)
    for ax in axes[max(n, 1):]:
        ax.axis("off")
    return fig, axes[:max(n, 1)]


def panel_titles(fig, axes, spec, rows, items, what, style):
    extra = gp.varying_keys(rows, ROW_KEYS)
    if len(rows) == 1:
        set_title(fig, axes[0], spec, rows, "%s, %s" % (what, style.row_label(rows[0], extra)))
        return
    for ax, r in zip(axes, rows):
        ax.set_title(style.row_label(r, extra), fontsize=9)
    set_title(fig, None, spec, rows or [r for _, r in items], what)


def plane_note(ax, z, what):
    """Say so when the data are not planar: the panel then shows a projection."""
    z = z[np.isfinite(z)]
    if z.size and np.ptp(z) > 1e-9 * max(1.0, float(np.max(np.abs(z)))):
        ax.text(0.99, 0.01, what, transform=ax.transAxes, ha="right", va="bottom", fontsize=7, color="0.4")


def particle_legend(ax, colors, extra_handles, extra_labels):
    """Particle entries up to 10 particles (beyond that a legend says nothing), then the markers."""
    handles = [Line2D([], [], color=c) for c in colors] if len(colors) <= 10 else []
    labels = ["particle %d" % (k + 1) for k in range(len(handles))]
    handles, labels = handles + extra_handles, labels + extra_labels
    if handles:
        ax.legend(handles, labels, loc="best", fontsize=7, ncol=2 if len(handles) > 6 else 1)


START_HANDLE = Line2D([], [], ls="none", marker="o", color="k", ms=4)


def particle_positions(spec, notes, row, series):
    """(t, q) with q (samples, N, 3), or None (noted) when the row has no usable q series."""
    if "q" not in series:
        missing(spec, notes, row, "q series")
        return None
    q = particle_array(series["q"], (3,))
    if not np.isfinite(q).any():
        notes.add_row(row, "no finite q")
        return None
    return _series_array(series["t"]), q


# 7. particle_orthogonality (Kjer Fig 3.6)


def orthogonality_of(spec, notes, row, series):
    """(t, D) with D (samples, N) the defects; zeros and nulls become NaN (log axis), noted."""
    if "orthogonality" not in series:
        missing(spec, notes, row, "orthogonality series")
        return None
    D = particle_array(series["orthogonality"])
    if D.size == 0:
        notes.add_row(row, "empty orthogonality series")
        return None
    nulls, zeros = np.count_nonzero(~np.isfinite(D)), np.count_nonzero(D == 0)
    if nulls:
        notes.add_row(row, "%d null orthogonality values" % nulls)
    if zeros:
        notes.add_row(row, "%d exact zeros not drawn on the log axis" % zeros)
    t = _series_array(series["t"])
    D = np.where((D > 0) & np.isfinite(t)[:, None], D, np.nan)
    return t, D


def draw_particle_orthogonality(data, spec, style):
    notes = gp.Notes(style)
    items, runs = ok_runs(data, spec, style, notes)
    extra = gp.varying_keys([r for r, _ in runs], ROW_KEYS)
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    ax.set_yscale("log")
    handles, labels, seen = [], [], {}
    for r, s in runs:
        got = orthogonality_of(spec, notes, r, s)
        if got is None:
            continue
        t, D = got
        method = r.get("method")
        color = style.color(method)
        seen[method] = seen.get(method, -1) + 1  # same method again (other h): next line style
        ls = gp.LINESTYLES[seen[method] % 4]
        ax.plot(*nan_joined(t, D), color=color, lw=0.4, alpha=0.35, zorder=2)
        worst = np.where(np.isfinite(D), D, -np.inf).max(axis=1)
        worst[~np.isfinite(worst)] = np.nan
        line, = ax.plot(t, worst, color=color, ls=ls, lw=1.8, zorder=3)
        handles += [line, Line2D([], [], color=color, lw=0.4, alpha=0.6)]
        labels += ["%s: max over %d particles" % (style.row_label(r, extra), D.shape[1]), "each particle"]
    if not handles:
        no_data_warning(ax, spec)
    eps = ax.axhline(MACHINE_EPS, color="0.35", ls="--", lw=1.0, zorder=1)
    handles.append(eps)
    labels.append("machine $\\varepsilon$ = %.2g" % MACHINE_EPS)
    ax.set_xlabel("time $t$")
    ax.set_ylabel("$\\|Q_i^TQ_i - I\\|_F$")
    gp.log_grid(ax, which="major")
    set_title(fig, ax, spec, [r for r, _ in runs] or [r for _, r in items], "Orthogonality of every particle")
    gp.legend(ax, handles, labels)
    return gp.finish(fig, notes)


# 8. trajectories_2d (Kjer Figs 3.11, 3.13)


def draw_paths(ax, t, q, every):
    colors = particle_colors(q.shape[1])
    marks = mark_indices(t, every)
    for i, c in enumerate(colors):
        x, y = q[:, i, 0], q[:, i, 1]
        ok = np.isfinite(x) & np.isfinite(y)
        if not ok.any():
            continue
        ax.plot(x, y, color=c, lw=0.9, zorder=2)
        mk = [k for k in marks if ok[k]]
        ax.plot(x[mk], y[mk], ls="none", marker="o", mfc="none", mec=c, ms=6, mew=1.0, zorder=3)
        k0 = np.flatnonzero(ok)[0]
        ax.plot([x[k0]], [y[k0]], ls="none", marker="o", color="k", ms=4, zorder=4)
    return colors


def draw_trajectories_2d(data, spec, style):
    notes = gp.Notes(style)
    items, runs = ok_runs(data, spec, style, notes)
    got = [(r, particle_positions(spec, notes, r, s)) for r, s in runs]
    got = [(r, tq) for r, tq in got if tq is not None]
    fig, axes = panels(len(got))
    for ax, (r, (t, q)) in zip(axes, got):
        every, mark_text = mark_every(spec, r, t)
        colors = draw_paths(ax, t, q, every)
        ring = Line2D([], [], ls="none", marker="o", mfc="none", mec="0.3", ms=6)
        particle_legend(ax, colors, [START_HANDLE, ring], ["start", mark_text])
        plane_note(ax, q[..., 2], "projection onto the $x$–$y$ plane ($z$ varies)")
        ax.set_aspect("equal", adjustable="datalim")
        ax.set_xlabel("$x$")
        ax.set_ylabel("$y$")
        ax.grid(True, color="0.9", linewidth=0.5)
    if not got:
        no_data_warning(axes[0], spec)
    panel_titles(fig, axes, spec, [g[0] for g in got], items, "Positions", style)
    return gp.finish(fig, notes)


# 9. directions_2d (Kjer Figs 3.12, 3.14)


def dipole_angles(Q_series, mu_bar, unwrap=True):
    """In-plane dipole angle atan2(mu_y, mu_x) [rad] of mu_i = Q_i mu_bar, shape (samples, N).

    Q_series: per sample, N row-major 3x3 rotations (9 numbers each; lists with nulls, or an array
    (samples, N, 9) or (samples, N, 3, 3)). NaN where Q is missing or mu has no in-plane part.
    unwrap: continuous in t per particle (numpy.unwrap over the finite samples), so a bonded pair that
    turns together shows as two parallel lines instead of jumps at +-pi."""
    Q = np.asarray(Q_series, dtype=float) if isinstance(Q_series, np.ndarray) else particle_array(Q_series, (9,))
    Q = Q.reshape(Q.shape[:2] + (3, 3))
    mu_bar = np.asarray(mu_bar, dtype=float)
    mu = Q @ mu_bar
    ang = np.arctan2(mu[..., 1], mu[..., 0])
    ang[~(np.hypot(mu[..., 0], mu[..., 1]) > 1e-12 * np.linalg.norm(mu_bar))] = np.nan
    if unwrap:
        for i in range(ang.shape[1]):
            ok = np.isfinite(ang[:, i])
            ang[ok, i] = np.unwrap(ang[ok, i])
    return ang


def mu_bar_of(row):
    mb = row.get("params", {}).get("mu_bar") if isinstance(row.get("params"), dict) else None
    if isinstance(mb, list) and len(mb) == 3 and all(gp.finite(c) is not None for c in mb) and any(mb):
        return [float(c) for c in mb]
    return None


def directions_of(spec, notes, row, series):
    """(t, angles (samples, N) [rad], Q) of a run, or None (noted)."""
    mb = mu_bar_of(row)
    if mb is None:
        missing(spec, notes, row, "params.mu_bar (3 numbers, not all 0)")
        return None
    if "Q" not in series:
        missing(spec, notes, row, "Q series")
        return None
    Q = particle_array(series["Q"], (9,))
    ang = dipole_angles(Q, mb)
    if not np.isfinite(ang).any():
        notes.add_row(row, "no in-plane dipole direction")
        return None
    mu_z = Q.reshape(Q.shape[:2] + (3, 3))[..., 2, :] @ np.asarray(mb)
    return _series_array(series["t"]), ang, mu_z


def angle_ticks(ax, deg):
    """Grid every 90 deg (Kjer's 'differ by more than 90 degrees' heuristic); 180, 360, 720 ... deg for
    long spins, so at most about 12 ticks; 45, 15 or 5 deg when fewer than two multiples of 90 fall in the
    range (a bonded pair whose dipoles stay within a few tens of degrees), so the axis keeps its labels."""
    from matplotlib.ticker import MultipleLocator

    finite = deg[np.isfinite(deg)]
    lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 0.0)
    step = 90.0
    while (hi - lo) / step > 12:
        step *= 2
    for finer in (45.0, 15.0, 5.0):
        if np.floor(hi / step) - np.ceil(lo / step) + 1 >= 2:
            break
        step = finer
    ax.yaxis.set_major_locator(MultipleLocator(step))


def draw_angle_panel(ax, t, ang):
    deg = np.degrees(ang)
    colors = particle_colors(ang.shape[1])
    for i, c in enumerate(colors):
        ax.plot(t, deg[:, i], color=c, lw=1.0)
    angle_ticks(ax, deg)
    ax.set_xlabel("time $t$")
    ax.set_ylabel("dipole angle atan2$(\\mu_y, \\mu_x)$ [deg], unwrapped")
    ax.grid(True, color="0.9", linewidth=0.5)
    particle_legend(ax, colors, [], [])


def draw_arrow_panel(ax, t, ang, q, every, mark_text):
    """Faint paths with an arrow along mu_i (in-plane, unit length on screen) at the start and every mark."""
    colors = particle_colors(min(ang.shape[1], q.shape[1]))  # q and Q of different N: the common ones
    pts = [0] + mark_indices(t, every)
    xy = q[..., :2]
    ext = np.nanmax(xy) - np.nanmin(xy) if np.isfinite(xy).any() else 1.0
    L = 0.05 * max(ext, 1.0)
    for i, c in enumerate(colors):
        ax.plot(xy[:, i, 0], xy[:, i, 1], color=c, lw=0.6, alpha=0.4, zorder=1)
        ok = [k for k in pts if np.isfinite(xy[k, i]).all() and np.isfinite(ang[k, i])]
        a = ang[ok, i]
        ax.quiver(xy[ok, i, 0], xy[ok, i, 1], L * np.cos(a), L * np.sin(a), color=c, angles="xy",
                  scale_units="xy", scale=1.0, width=0.004, zorder=3)
        k0 = np.flatnonzero(np.isfinite(xy[:, i]).all(axis=1))[:1]
        ax.plot(xy[k0, i, 0], xy[k0, i, 1], ls="none", marker="o", color="k", ms=3, zorder=4)
    ax.set_aspect("equal", adjustable="datalim")
    ax.set_xlabel("$x$")
    ax.set_ylabel("$y$")
    ax.grid(True, color="0.9", linewidth=0.5)
    arrow = Line2D([], [], ls="none", marker=r"$\rightarrow$", color="0.3", ms=10)
    particle_legend(ax, colors, [START_HANDLE, arrow], ["start", "$\\mu_i$ " + mark_text])


def draw_directions_2d(data, spec, style):
    arrows = spec.get("as", "angle") == "arrows"
    notes = gp.Notes(style)
    items, runs = ok_runs(data, spec, style, notes)
    got = []
    for r, s in runs:
        d = directions_of(spec, notes, r, s)
        tq = particle_positions(spec, notes, r, s) if arrows and d is not None else None
        if d is not None and (tq is not None or not arrows):
            got.append((r, d, tq))
    fig, axes = panels(len(got), height=4.6 if arrows else 3.8)
    for ax, (r, (t, ang, mu_z), tq) in zip(axes, got):
        if arrows:
            every, mark_text = mark_every(spec, r, t)
            draw_arrow_panel(ax, t, ang, tq[1], every, mark_text)
        else:
            draw_angle_panel(ax, t, ang)
        plane_note(ax, mu_z, "$\\mu$ has a $z$ part: angle of its $x$–$y$ projection")
    if not got:
        no_data_warning(axes[0], spec)
    panel_titles(fig, axes, spec, [g[0] for g in got], items, "Dipole directions", style)
    return gp.finish(fig, notes)


# 10. spikes (Kjer Figs 3.9, 3.10: energy error spikes against close encounters)


def below_intervals(t, d, threshold):
    """[(t_start, t_end)] of the runs of samples with d < threshold (null d counts as not below). A run
    reaches half a sample spacing beyond its samples, so a one-sample dip still shows as a band."""
    ok = np.isfinite(t)
    t, d = t[ok], d[ok]
    low = np.isfinite(d) & (d < threshold)
    if not low.any():
        return []
    edges = np.diff(np.concatenate([[0], low.astype(int), [0]]))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1) - 1
    half = 0.5 * float(np.median(np.diff(t))) if len(t) > 1 else 0.0
    return [(max(t[a] - half, t[0]), min(t[b] + half, t[-1])) for a, b in zip(starts, ends)]


def auto_linthresh(values):
    """symlog linear band: the decade of the median |value|, so the round-off level before the first
    encounter stays in the band and the spikes get the log decades."""
    v = np.abs(np.concatenate(values)) if values else np.array([])
    v = v[np.isfinite(v) & (v > 0)]
    return 10.0 ** math.floor(math.log10(float(np.median(v)))) if v.size else 1e-16


def spike_quantity(ax, spec, notes, row, series, quantity, signed, kw):
    """Top panel line of one run; the values drawn (for the symlog band), or None."""
    if quantity not in series:
        missing(spec, notes, row, "%s series" % quantity)
        return None
    t, y = _series_array(series["t"]), _series_array(series[quantity])
    nulls = np.count_nonzero(~np.isfinite(y))
    if nulls:
        notes.add_row(row, "%d null %s values dropped" % (nulls, quantity))
    if not signed:
        y = np.abs(y)
    mask = np.isfinite(t) & np.isfinite(y)
    if not signed:
        mask &= y > 0  # log axis
    if not mask.any():
        notes.add_row(row, "no finite %s" % quantity if signed else "%s identically 0" % quantity)
        return None
    ax.plot(t[mask], y[mask], **kw)
    return y[mask]


def spike_distance(axes, spec, notes, row, series, below, kw):
    """Bottom panel line of one run and its shaded close encounters (both panels); number of bands."""
    if "min_pair_distance" not in series:
        missing(spec, notes, row, "min_pair_distance series")
        return None
    t, d = _series_array(series["t"]), _series_array(series["min_pair_distance"])
    nulls = np.count_nonzero(~np.isfinite(d))
    if nulls:
        notes.add_row(row, "%d null min_pair_distance values dropped" % nulls)
    mask = np.isfinite(t) & np.isfinite(d)
    if not mask.any():
        notes.add_row(row, "no finite min_pair_distance")
        return None
    axes[1].plot(t[mask], d[mask], **kw)
    bands = below_intervals(t, d, below)
    for a, b in bands:
        for ax in axes:
            ax.axvspan(a, b, color=kw["color"], alpha=0.13, lw=0, zorder=0)
    return len(bands)


def draw_spikes(data, spec, style):
    from matplotlib.patches import Patch

    quantity = spec.get("quantity", "energy_rel_err")
    signed = bool(spec.get("signed", False))
    below = float(spec.get("distance_below", 1.5))
    notes = gp.Notes(style)
    items, runs = ok_runs(data, spec, style, notes)
    extra = gp.varying_keys([r for r, _ in runs], ROW_KEYS)
    fig, axes = plt.subplots(2, 1, figsize=(6.4, 5.6), sharex=True, gridspec_kw={"height_ratios": [3, 2]})
    drawn, bands, seen = [], 0, {}
    # A decimated series keeps each bucket's extremes (harness/results_storage.hpp): close encounters within one
    # bucket merge, so its count of intervals is a lower bound.
    decimated = any(isinstance(s.get("decimated"), dict) for _, s in runs)
    for r, s in runs:
        method = r.get("method")
        seen[method] = seen.get(method, -1) + 1  # same method again (other h): next line style
        kw = dict(color=style.color(method), ls=gp.LINESTYLES[seen[method] % 4], lw=1.0,
                  label=style.row_label(r, extra))
        y = spike_quantity(axes[0], spec, notes, r, s, quantity, signed, kw)
        if y is not None:
            drawn.append(y)
        n = spike_distance(axes, spec, notes, r, s, below, dict(kw, label="_"))
        bands += n or 0
    spike_axes(axes, spec, quantity, signed, drawn, below)
    if not drawn and not axes[1].lines:
        no_data_warning(axes[0], spec)
    handles, labels = axes[0].get_legend_handles_labels()
    handles += [Line2D([], [], color="0.35", ls="--", lw=1.0), Patch(color="0.5", alpha=0.25, lw=0)]
    count = ("at least %d intervals: stored series decimated" if decimated else "%d intervals") % bands
    labels += ["distance %s" % gp.fmt_num(below), "min distance < %s (%s)" % (gp.fmt_num(below), count)]
    set_title(fig, axes[0], spec, [r for r, _ in runs] or [r for _, r in items], "Energy error and closest approach")
    gp.legend(axes[0], handles, labels, outside=len(handles) > 5 or None)
    return gp.finish(fig, notes)


def symlog_ticks(ax, lt):
    """0 and +-10^k outside the linear band (the default locator also labels +-lt, which crowds 0),
    every few decades when the data span many."""
    from matplotlib.ticker import FixedLocator

    lo, hi = ax.get_ylim()
    k0 = int(round(math.log10(lt))) + 1
    k1 = int(math.ceil(math.log10(max(abs(lo), abs(hi), 10.0 * lt))))
    ks = list(range(k0, k1 + 1))
    ks = ks[::-1][:: max(1, -(-len(ks) // 5))][::-1]  # at most 5 decades per sign, keeping the largest
    ticks = [0.0] + [s * 10.0 ** k for k in ks for s in (-1, 1) if lo <= s * 10.0 ** k <= hi]
    ax.yaxis.set_major_locator(FixedLocator(sorted(ticks)))


def spike_axes(axes, spec, quantity, signed, drawn, below):
    ax_e, ax_d = axes
    signed_lab, abs_lab = SERIES_LABELS.get(quantity, (quantity, "|%s|" % quantity))
    if signed:
        lt = float(spec["linthresh"]) if "linthresh" in spec else auto_linthresh(drawn)
        ax_e.set_yscale("symlog", linthresh=lt, linscale=0.5)
        symlog_ticks(ax_e, lt)
        ax_e.axhline(0.0, color="0.6", lw=0.6, zorder=1)
        ax_e.set_ylabel(signed_lab)
        ax_e.text(0.005, 0.995, "symlog: linear within $\\pm$%s" % gp.fmt_num(lt), transform=ax_e.transAxes,
                  ha="left", va="top", fontsize=7, color="0.4")
        ax_e.grid(True, color="0.9", linewidth=0.5)
    else:
        ax_e.set_ylabel(abs_lab)
        if drawn:
            ax_e.set_yscale("log")
            gp.log_grid(ax_e, which="major")
    ax_d.axhline(below, color="0.35", ls="--", lw=1.0, zorder=1)
    d = np.concatenate([l.get_ydata() for l in ax_d.lines if len(l.get_ydata()) > 1] or [np.array([])])
    if d.size and np.min(d) > 0 and np.max(d) / np.min(d) > 30:
        ax_d.set_yscale("log")  # dilute starts (r ~ 50) and bonds (r ~ 1.1) on one axis
        gp.log_grid(ax_d, which="major")
    else:
        ax_d.set_ylim(bottom=0)
        ax_d.grid(True, color="0.9", linewidth=0.5)
    ax_d.set_ylabel("min pair distance $r_{\\min}$")
    ax_d.set_xlabel("time $t$")


# ---------------------------------------------------------------------------
# phase_portrait: the state series x = (q, p) of a vector field, one panel per method and step size


def draw_phase_portrait(data, spec, style):
    notes = gp.Notes(style)
    items, runs = ok_runs(data, spec, style, notes)
    by_panel = {}
    for r, s in runs:
        if "x" not in s:
            notes.add_row(r, "no state series (observe.series_extra state)")
            continue
        params = json.dumps(r.get("method_params") or {}, sort_keys=True)
        by_panel.setdefault((r.get("method"), gp.finite(r.get("h")) or 0.0, params), []).append((r, s))
    keys = sorted(by_panel, key=lambda k: (style.sort_key(k[0]), k[1], k[2]))
    # a method's parameters name its panel only when they differ between panels of that method
    varying = {m for m in {k[0] for k in keys} if len({k[2] for k in keys if k[0] == m}) > 1}
    fig, axes = panels(len(keys), width=4.6, height=4.2)
    size = float(spec.get("markersize", 1.5))
    for ax, key in zip(axes, keys):
        orbits = sorted(by_panel[key], key=lambda rs: json.dumps(rs[0].get("overrides"), sort_keys=True))
        cmap = plt.get_cmap("viridis")
        for k, (_, s) in enumerate(orbits):
            x = np.array([[np.nan, np.nan] if v is None else v[:2] for v in s["x"]], dtype=float)
            if spec.get("wrap_q"):  # an angle on its covering space, drawn on the circle [-pi, pi)
                x[:, 0] = np.mod(x[:, 0] + np.pi, 2 * np.pi) - np.pi
            ax.plot(x[:, 0], x[:, 1], ".", ms=size, color=cmap(k / max(len(orbits) - 1, 1)), rasterized=True)
        method, h, params = key
        what = "" if method not in varying else ", " + ", ".join(
            "%s=%s" % (k, gp.fmt_num(v)) for k, v in sorted(json.loads(params).items()))
        ax.set_title("%s%s, h = %g (%d orbit%s)" % (style.name(method), what, h, len(orbits), "" if len(orbits) == 1 else "s"),
                     fontsize=9)
        ax.set_xlabel(spec.get("xlabel", "$q$ (mod $2\\pi$)" if spec.get("wrap_q") else "$q$"))
        ax.set_ylabel(spec.get("ylabel", "$p$"))
        if "xlim" in spec:
            ax.set_xlim(*spec["xlim"])
        if "ylim" in spec:
            ax.set_ylim(*spec["ylim"])
        ax.grid(True, color="0.9", linewidth=0.5)
        ax.set_axisbelow(True)
    if not keys:
        no_data_warning(axes[0], spec)
    set_title(fig, None, spec, [r for _, r in items], "Phase portraits")
    return gp.finish(fig, notes)


# ---------------------------------------------------------------------------
# histogram: a sampled distribution (observe.distributions) per method, across seeds


def draw_histogram(data, spec, style):
    """Each method's histogram of `distribution` (Tao-Owhadi Figs 4 and 7: O-O distances) as a density per bin: the
    mean over its runs (seeds) as a line, their min-max as a band. A radial distribution gets a second panel divided
    by the shell volume 4 pi r^2 dr, where its peaks at large r are visible."""
    name = spec["distribution"]
    items = selected(data, spec)
    notes = gp.Notes(style)
    by_method = {}
    grid = None
    for _, r in items:
        d = (r.get("distributions") or {}).get(name)
        if r.get("status") != "ok" or not isinstance(d, dict):
            notes.add_row(r, r.get("status") if r.get("status") != "ok" else "no %s histogram" % name)
            continue
        g = (d["lo"], d["hi"], d["bin"], bool(d.get("radial")))
        if grid is None:
            grid = g
        elif g != grid:
            notes.add_row(r, "other bins")
            continue
        total = d["samples"]
        if not total:
            notes.add_row(r, "no samples")
            continue
        by_method.setdefault(r.get("method"), []).append(np.asarray(d["counts"], dtype=float) / (total * d["bin"]))
    radial = grid is not None and grid[3]
    fig, axes = plt.subplots(2 if radial else 1, 1, figsize=(6.4, 6.6 if radial else 3.8), sharex=True, squeeze=False)
    axes = axes[:, 0]
    if grid is None:
        for ax in axes:
            gp.no_data(ax)
        _WARNINGS.append("%s: no plottable data" % (spec.get("file") or spec.get("type")))
        return gp.finish(fig, notes)
    lo, hi, width, _ = grid
    edges = lo + width * np.arange(len(next(iter(by_method.values()))[0]) + 1)
    centres = 0.5 * (edges[:-1] + edges[1:])
    shell = 4 * np.pi * centres ** 2 if radial else None
    for method in sorted(by_method, key=style.sort_key):
        runs = np.vstack(by_method[method])
        label = "%s (%d run%s)" % (style.name(method), len(runs), "s" if len(runs) > 1 else "")
        for ax, scale in zip(axes, [None, shell] if radial else [None]):
            y = runs if scale is None else runs / scale
            ax.fill_between(centres, y.min(axis=0), y.max(axis=0), step="mid", color=style.color(method), alpha=0.25, lw=0)
            ax.step(centres, y.mean(axis=0), where="mid", color=style.color(method), lw=1.0, label=label)
    xlim = spec.get("xlim")
    occupied = np.nonzero(np.any(np.vstack([np.vstack(v) for v in by_method.values()]) > 0, axis=0))[0]
    if xlim is None and occupied.size:
        xlim = [edges[occupied[0]], edges[occupied[-1] + 1]]
    for ax in axes:
        if xlim is not None:
            ax.set_xlim(*xlim)
        ax.grid(True, color="0.9", linewidth=0.5)
        ax.set_axisbelow(True)
    xlabel = spec.get("xlabel", name.replace("_", " "))
    axes[0].set_ylabel("density per unit of %s" % xlabel)
    if radial:
        axes[1].set_ylabel("density / $4\\pi r^2$ (radial)")
    axes[-1].set_xlabel(xlabel)
    set_title(fig, axes[0], spec, [r for _, r in items], "Distribution of %s" % name)
    gp.legend(axes[0])
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
    "particle_orthogonality": draw_particle_orthogonality,
    "trajectories_2d": draw_trajectories_2d,
    "directions_2d": draw_directions_2d,
    "spikes": draw_spikes,
    "phase_portrait": draw_phase_portrait,
    "final_vs_T": draw_final_vs_T,
    "histogram": draw_histogram,
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


def is_positive(x):
    return gp.finite(x) is not None and x > 0


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
    if t in ("convergence", "work_precision"):
        _opt(spec, "layout", lambda v: v in ("auto", "single", "families"), '"auto", "single" or "families"')
    if t == "convergence":
        _opt(spec, "guides", lambda v: isinstance(v, list) and all(
            isinstance(g, dict) and gp.finite(g.get("slope")) is not None
            and gp.finite(g.get("offset", 1.0)) not in (None, 0.0) for g in v),
            "a list of {slope, label} objects")
    elif t == "final_vs_T":
        _need(spec, "metrics", str_list, "a non-empty list of metric names")
    elif t == "invariant_time":
        _need(spec, "quantities", lambda v: isinstance(v, list) and len(v) > 0 and all(is_str(q) or str_list(q) for q in v),
              "a non-empty list of series quantities (a list of them overlays them in one panel)")
        _opt(spec, "scale", lambda v: isinstance(v, dict) and all(gp.finite(x) not in (None, 0.0) for x in v.values()),
             "an object {quantity: nonzero factor}")
        _opt(spec, "signed", lambda v: isinstance(v, bool), "true or false")
        _opt(spec, "log_t", lambda v: isinstance(v, bool), "true or false")
    elif t == "work_precision":
        _opt(spec, "work", lambda v: isinstance(v, list) and len(v) > 0 and all(w in ("time", "cost") for w in v)
             and len(set(v)) == len(v), 'a list from ["time", "cost"]')
        _opt(spec, "cost_field", is_str, "a cost field name")
    elif t == "sphere_trajectories":
        _opt(spec, "normalise", lambda v: isinstance(v, bool), "true or false")
        _opt(spec, "field", is_str, "a series field name")
        for k in ("elev", "azim"):
            _opt(spec, k, lambda v: gp.finite(v) is not None, "a number")
    elif t in ("trajectories_2d", "directions_2d"):
        _opt(spec, "mark_every_t", is_positive, "a positive number (time units)")
        if t == "directions_2d":
            _opt(spec, "as", lambda v: v in ("angle", "arrows"), '"angle" or "arrows"')
    elif t == "spikes":
        _opt(spec, "quantity", is_str, "a series quantity")
        _opt(spec, "signed", lambda v: isinstance(v, bool), "true or false")
        _opt(spec, "distance_below", is_positive, "a positive number")
        _opt(spec, "linthresh", is_positive, "a positive number")
    elif t == "histogram":
        _need(spec, "distribution", is_str, "a distribution name (observe.distributions)")
        _opt(spec, "xlabel", is_str, "a string")
        _opt(spec, "xlim", lambda v: isinstance(v, list) and len(v) == 2 and all(gp.finite(e) is not None for e in v),
             "[low, high]")
    elif t == "phase_portrait":
        _opt(spec, "markersize", is_positive, "a positive number")
        _opt(spec, "wrap_q", lambda v: isinstance(v, bool), "true or false")
        for k in ("xlim", "ylim"):
            _opt(spec, k, lambda v: isinstance(v, list) and len(v) == 2 and all(gp.finite(e) is not None for e in v),
                 "[low, high]")
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
    ap = gp.OneLineParser(prog="plot_results.py", description=__doc__.split("\n\n")[0])
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
