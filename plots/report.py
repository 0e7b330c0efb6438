"""Build the gibench report: a static site of verdicts, leaderboards, methods and problems.

Called by `gibench report`, which passes the registries as data (--catalog, harness/catalog.cpp) and the results
files or directories to read. Writes into --out (a staging directory the command moves into place):

  index.html                  per-paper verdict counts, the leaderboards, the methods and problems
  papers/<paper>.html         every figure: its PNGs, its verdict table with reasons and deviations, its notes
  leaderboards/<stem>.html    family filters, best-of-family view, interactive work-precision and convergence plots
  methods/<id>.html           claims, the conformance battery on every compatible problem, where it ranks
  problems/<id>.html          presets, parameters, reference, which methods run, figures and leaderboards on it
  img/, assets/               the committed PNGs, plotly.js (Debian's python3-plotly), the site's CSS and JS

It works from file:// with nothing fetched at view time, and it is deterministic: the same inputs give the same
bytes (no dates but the inputs' own, sorted keys, numbers at 7 significant digits).

Run with Debian's interpreter (/usr/bin/python3): it needs python3-plotly for plotly.js.
"""

import glob
import html
import json
import math
import os
import shutil
import sys

import gibench_plot as gp

RESULT_KINDS = ("gibench.figure", "gibench.rank", "gibench.conformance")

# (prefix of the figure ids, short name, title): the five sources and gibench's own statements, in the README's order.
PAPERS = [
    ("kjer2017", "Kjer 2017", "RKMK integrators on cotangent bundles T*G: the free rigid body and dipolar soft spheres"),
    ("buss2001", "Buss 2001", "Accurate and efficient simulation of rigid-body rotations"),
    ("krysl2006", "Krysl 2006", "IMID / TRAP and the momentum-conserving variants against AKW, BBTRAP and SWC1"),
    ("taoowhadi2014", "Tao & Owhadi 2014", "Variational, linearly implicit Zhang-Skeel integrators; penalties and multipliers"),
    ("mq1998", "McLachlan & Quispel 1998", "Six lectures on the geometric integration of ODEs"),
    ("gibench", "gibench", "Statements gibench poses itself (not from the five sources)"),
]

# Verdict classes (GUIDE 7) in the order the tables count them, with their CSS class.
PAPER_VERDICTS = ["reproduced", "direction only", "refuted", "not reproducible", "inconclusive", "measured", "no data"]
GIBENCH_VERDICTS = ["holds", "fails", "inconclusive", "measured", "no data"]


def css_class(verdict):
    return "v-" + verdict.replace(" ", "-")


def esc(x):
    return html.escape("" if x is None else str(x), quote=True)


def num(x, digits=4):
    if isinstance(x, bool) or x is None:
        return "" if x is None else str(x)
    if isinstance(x, (int, float)):
        if isinstance(x, float) and not math.isfinite(x):
            return str(x)
        if isinstance(x, int) or float(x).is_integer() and abs(x) < 1e7:
            return str(int(x))
        return "%.*g" % (digits, x)
    return str(x)


def r7(x):
    """A number at 7 significant digits for the embedded plot data (the results files keep the same)."""
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
        return None
    return float("%.7g" % x) if isinstance(x, float) else x


# ---------------------------------------------------------------------------
# Inputs


class Inputs:
    def __init__(self):
        self.figures = []      # (path, data), sorted by figure id
        self.ranks = []        # (path, data), sorted by stem
        self.conformance = []  # report entries of every conformance file
        self.ignored = []


def expand(paths):
    """Files as given; a directory gives its *.json, paper/*.json, rank/*.json (a results/ tree), sorted."""
    out = []
    for p in paths:
        if os.path.isdir(p):
            found = []
            for pattern in ("*.json", "paper/*.json", "rank/*.json"):
                found += glob.glob(os.path.join(p, pattern))
            out += [(f, False) for f in sorted(found)]
        else:
            out.append((p, True))
    return out


def load_inputs(paths):
    inputs = Inputs()
    for path, explicit in expand(paths):
        try:
            with open(path, "r", encoding="utf-8") as f:
                head = json.load(f, parse_constant=gp._reject_constant)
        except (OSError, ValueError) as e:
            if explicit:
                raise gp.MalformedError("%s: cannot read it as JSON: %s" % (path, e))
            inputs.ignored.append(path)
            continue
        kind = head.get("kind") if isinstance(head, dict) else None
        if kind not in RESULT_KINDS:
            if explicit:
                raise gp.MalformedError("%s is %r, not a figure, rank or conformance results file" % (path, kind))
            inputs.ignored.append(path)
            continue
        if kind == "gibench.conformance":
            reports = head.get("reports")
            if not isinstance(reports, list):
                raise gp.MalformedError("%s: conformance file without a reports list" % path)
            inputs.conformance += reports
            continue
        data = gp.load(path)  # validated, parameters resolved
        (inputs.figures if kind == "gibench.figure" else inputs.ranks).append((path, data))
    inputs.figures.sort(key=lambda fd: fd[1]["figure"].get("id", ""))
    inputs.ranks.sort(key=lambda rd: rank_stem(rd[0]))
    return inputs


def rank_stem(path):
    return os.path.splitext(os.path.basename(path))[0]


def paper_of(figure_id):
    for key, _, _ in PAPERS:
        if figure_id.startswith(key + "-"):
            return key
    return "other"


def paper_info(key):
    for k, name, title in PAPERS:
        if k == key:
            return name, title
    return "Other figures", "Figures whose id names none of the five sources"


# ---------------------------------------------------------------------------
# Writing


class Site:
    def __init__(self, out):
        self.out = out
        self.pages = []

    def write(self, rel, text):
        path = os.path.join(self.out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        if rel.endswith(".html"):
            self.pages.append(rel)

    def copy(self, src, rel):
        path = os.path.join(self.out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        shutil.copyfile(src, path)


def page(title, body, depth, scripts=(), nav_active=""):
    up = "../" * depth
    nav = [("index.html", "Overview"), ("index.html#papers", "Papers"), ("index.html#leaderboards", "Leaderboards"),
           ("index.html#methods", "Methods"), ("index.html#problems", "Problems")]
    links = " ".join('<a href="%s%s"%s>%s</a>' % (up, href, ' class="active"' if label == nav_active else "", esc(label))
                     for href, label in nav)
    tags = "".join('<script src="%sassets/%s"></script>\n' % (up, s) for s in scripts)
    return """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%s &middot; gibench report</title>
<link rel="stylesheet" href="%sassets/report.css">
%s</head>
<body>
<header><span class="brand">gibench report</span> <nav>%s</nav></header>
<main>
%s
</main>
</body>
</html>
""" % (esc(title), up, tags, links, body)


def table(headers, rows, cls="", attrs=None):
    """rows: lists of cell HTML (already escaped); attrs: per-row attribute strings."""
    head = "".join("<th>%s</th>" % h for h in headers)
    body = []
    for k, r in enumerate(rows):
        a = (" " + attrs[k]) if attrs and attrs[k] else ""
        body.append("<tr%s>%s</tr>" % (a, "".join("<td>%s</td>" % c for c in r)))
    return '<table class="%s"><thead><tr>%s</tr></thead><tbody>\n%s\n</tbody></table>' % (cls, head, "\n".join(body))


def badge(verdict, n=None, label=None):
    text = esc(label or verdict) if n is None else "%d %s" % (n, esc(label or verdict))
    return '<span class="badge %s">%s</span>' % (css_class(verdict), text)


def link(href, text):
    return '<a href="%s">%s</a>' % (esc(href), esc(text))


# ---------------------------------------------------------------------------
# Verdicts


def check_verdict(c):
    """(class, verdict) with a gibench check's verdict split into holds / fails / inconclusive."""
    v = c.get("verdict", "no data")
    if c.get("class") == "gibench":
        if v == "gibench check":
            h = c.get("holds")
            v = "inconclusive" if h is None else ("holds" if h else "fails")
        return "gibench", v
    return "paper", v


def count_verdicts(figures):
    paper = {v: 0 for v in PAPER_VERDICTS}
    ours = {v: 0 for v in GIBENCH_VERDICTS}
    for _, data in figures:
        for c in data.get("checks", []):
            cls, v = check_verdict(c)
            target = ours if cls == "gibench" else paper
            target[v] = target.get(v, 0) + 1
    return paper, ours


def verdict_badges(counts, gibench=False):
    parts = []
    for v, n in counts.items():
        if n:
            parts.append(badge(("g-" + v) if gibench else v, n, v))
    return " ".join(parts) or '<span class="muted">none</span>'


# ---------------------------------------------------------------------------
# Pages


def index_page(site, cat, inputs, by_paper, rank_pages):
    p_total, g_total = count_verdicts(inputs.figures)
    parts = ["<h1>gibench report</h1>",
             '<p class="lede">Every statement of the five source papers that gibench checks, with its verdict; '
             "gibench's own statements counted apart; work-precision leaderboards; every method's claims and the "
             "conformance battery that checks them.</p>",
             '<div class="totals"><div><h3>Paper statements</h3>%s</div><div><h3>gibench checks</h3>%s</div></div>'
             % (verdict_badges(p_total), verdict_badges(g_total, gibench=True))]
    rows = []
    for key, figs in by_paper:
        name, title = paper_info(key)
        pc, gc = count_verdicts(figs)
        rows.append([link("papers/%s.html" % key, name), esc(title), str(len(figs)), verdict_badges(pc),
                     verdict_badges(gc, gibench=True)])
    parts.append('<h2 id="papers">Papers</h2>')
    parts.append(table(["paper", "title", "figures", "paper statements", "gibench checks"], rows, "summary"))
    rows = []
    for stem, data in rank_pages:
        first = data["leaderboard"][0] if data.get("leaderboard") else None
        winners = []
        for lb in data.get("leaderboard", []):
            top = [e for e in lb["entries"] if e.get("rank") == 1]
            winners.append("%s: %s" % (num(lb.get("target")), esc(top[0]["display_name"]) if top else "none"))
        rows.append([link("leaderboards/%s.html" % stem, "%s / %s" % (data["problem"], data["preset"])),
                     esc(data.get("metric")), str(len(data.get("methods", {}))), str(len(data.get("rows", []))),
                     "<br>".join(winners) if first else ""])
    parts.append('<h2 id="leaderboards">Leaderboards</h2>')
    parts.append(table(["problem / preset", "metric", "methods", "runs", "first at each target error"], rows, "summary"))
    rows = [[link("methods/%s.html" % m["id"], m["id"]), esc(m["name"]), esc(m["family_name"]),
             esc(" ".join(m["tags"][1:]))] for m in cat["methods"]]
    parts.append('<h2 id="methods">Methods</h2>')
    parts.append(table(["id", "name", "family", "tags"], rows, "summary"))
    rows = [[link("problems/%s.html" % p["id"], p["id"]), esc(p["name"]), esc(p["kind"]),
             esc(", ".join(pr["name"] for pr in p["presets"])), str(len(p["methods"]))] for p in cat["problems"]]
    parts.append('<h2 id="problems">Problems</h2>')
    parts.append(table(["id", "name", "model kind", "presets", "methods"], rows, "summary"))
    parts.append(provenance(inputs))
    site.write("index.html", page("Overview", "\n".join(parts), 0, nav_active="Overview"))


def provenance(inputs):
    """Where the results came from: the commits, CPUs and dates their manifests record (no date of our own)."""
    seen = {}
    for _, data in inputs.figures + inputs.ranks:
        m = data.get("manifest", {})
        key = (str(m.get("git_commit", ""))[:12], str(m.get("cpu_model", "")))
        d = str(m.get("date_utc", ""))
        lo, hi, n = seen.get(key, (d, d, 0))
        seen[key] = (min(lo, d), max(hi, d), n + 1)
    rows = [[esc(k[0]), esc(k[1]), esc(v[0]), esc(v[1]), str(v[2])] for k, v in sorted(seen.items())]
    return ('<h2 id="provenance">Provenance</h2><p class="muted">From the results files\' manifests; the report adds no '
            "date of its own.</p>" + table(["git commit", "CPU", "earliest", "latest", "files"], rows, "summary"))


def figure_section(site, data, path):
    fig = data["figure"]
    fid = fig.get("id", "")
    out = ['<section class="figure" id="%s">' % esc(fid),
           "<h2>%s</h2>" % esc(fig.get("title", fid)),
           '<p class="meta"><code>%s</code> &middot; %s%s &middot; <code>gibench reproduce %s</code></p>'
           % (esc(fid), esc(fig.get("source", "")), " &middot; default set" if fig.get("default") else "", esc(fid))]
    src_dir = os.path.dirname(os.path.abspath(path))
    imgs = []
    for p in fig.get("plots", []):
        name = p.get("file") or ""
        name = name if os.path.splitext(name)[1] else name + ".png"
        png = os.path.join(src_dir, name)
        if os.path.isfile(png):
            site.copy(png, "img/" + name)
            imgs.append('<a href="../img/%s"><img src="../img/%s" alt="%s" loading="lazy"></a>'
                        % (esc(name), esc(name), esc(p.get("title", name))))
        else:
            imgs.append('<p class="warn">No PNG for plot <code>%s</code> beside %s (run <code>gibench reproduce %s</code>).</p>'
                        % (esc(name), esc(os.path.basename(path)), esc(fid)))
    if imgs:
        out.append('<div class="plots">%s</div>' % "".join(imgs))
    checks = data.get("checks", [])
    if checks:
        rows, attrs = [], []
        for c in checks:
            cls, v = check_verdict(c)
            why = esc(c.get("reason", ""))
            if c.get("deviation"):
                why += '<div class="deviation"><b>Deviation:</b> %s</div>' % esc(c["deviation"])
            rows.append([esc(c.get("statement", c.get("id", ""))), esc(c.get("source", "")),
                         num(c.get("paper_value")), num(c.get("ours")), num(c.get("ratio"), 3),
                         badge(("g-" + v) if cls == "gibench" else v, label=("gibench check: " + v) if cls == "gibench" else v),
                         why])
            attrs.append('class="%s"' % ("gibench" if cls == "gibench" else "paper"))
        out.append(table(["statement", "source", "paper", "ours", "ratio", "verdict", "reason"], rows, "verdicts", attrs))
    else:
        out.append('<p class="muted">No checks: this figure draws data only.</p>')
    notes = fig.get("notes", [])
    if notes:
        out.append('<details class="notes"><summary>Notes (%d)</summary><ul>%s</ul></details>'
                   % (len(notes), "".join("<li>%s</li>" % esc(n) for n in notes)))
    summ = data.get("summary", {})
    by = summ.get("by_status", {})
    out.append('<p class="meta">%s run(s): %s</p>' % (num(summ.get("cells", 0)),
                                                        ", ".join("%s %s" % (num(n), esc(s)) for s, n in sorted(by.items()))))
    out.append("</section>")
    return "\n".join(out)


def paper_page(site, key, figs):
    name, title = paper_info(key)
    pc, gc = count_verdicts(figs)
    toc = "".join('<li><a href="#%s">%s</a> %s</li>' % (esc(d["figure"]["id"]), esc(d["figure"]["id"]),
                                                        esc(d["figure"].get("title", ""))) for _, d in figs)
    body = ["<h1>%s</h1>" % esc(name), '<p class="lede">%s</p>' % esc(title),
            '<div class="totals"><div><h3>Paper statements</h3>%s</div><div><h3>gibench checks</h3>%s</div></div>'
            % (verdict_badges(pc), verdict_badges(gc, gibench=True)),
            '<ul class="toc">%s</ul>' % toc]
    body += [figure_section(site, d, p) for p, d in figs]
    site.write("papers/%s.html" % key, page(name, "\n".join(body), 1, nav_active="Papers"))


# ---------------------------------------------------------------------------
# Leaderboards


def error_metrics(cat, rows):
    """The *_final error and invariant-error keys the rows carry, for the metric selector."""
    wanted = set()
    for m in cat["metrics"]:
        if m["family"] in ("error", "invariant", "relative_invariant"):
            wanted |= {k for k in m["row_keys"] if k.endswith("_final") and k != "energy_final"}
    have = set()
    for r in rows:
        have |= set(r.get("metrics", {}))
    return sorted(wanted & have)


def rank_plot_data(data, cat):
    """Per method its ok runs: h, steps, work, time and each selectable error (absolute values)."""
    metrics = error_metrics(cat, data["rows"])
    methods = {}
    for r in data["rows"]:
        if r.get("status") != "ok":
            continue
        m = methods.setdefault(r["method"], {"h": [], "steps": [], "work": [], "time": [], "err": {k: [] for k in metrics}})
        m["h"].append(r7(r.get("h")))
        m["steps"].append(r.get("steps"))
        m["work"].append(r7(gp.cost_value(r.get("cost"), "work")))
        tm = r.get("timing")
        m["time"].append(r7(tm.get("median_s")) if isinstance(tm, dict) else None)
        for k in metrics:
            v = r.get("metrics", {}).get(k)
            m["err"][k].append(r7(abs(v)) if gp.is_number(v) else None)
    for m in methods.values():  # by decreasing h, so a curve runs from cheap to accurate
        order = sorted(range(len(m["h"])), key=lambda i: -(m["h"][i] or 0))
        for k in ("h", "steps", "work", "time"):
            m[k] = [m[k][i] for i in order]
        m["err"] = {k: [v[i] for i in order] for k, v in m["err"].items()}
    return metrics, methods


def best_of_family_ids(data, methods, metric):
    style = gp.Style(data)
    groups = []
    for mid in sorted(methods, key=style.sort_key):
        pts = [(e, w) for e, w in zip(methods[mid]["err"].get(metric, []), methods[mid]["work"])
               if e is not None and e > 0 and w is not None and w > 0]
        if pts:
            groups.append((mid, pts))
    return sorted(g[0] for g in gp.best_of_family(groups, lambda g: style.family(g[0])))


def leaderboard_page(site, stem, path, data, cat):
    style = gp.Style(data)
    fam_names = {f["id"]: f["name"] for f in cat["families"]}
    metrics, methods = rank_plot_data(data, cat)
    metric = data.get("metric", "state_err_final")
    best = best_of_family_ids(data, methods, metric)
    ids = sorted(set(data.get("methods", {})) | set(methods), key=style.sort_key)
    families = []
    for mid in ids:
        f = style.family(mid)
        if f not in families:
            families.append(f)
    plot = {
        "metric": metric,
        "metrics": metrics,
        "best": best,
        "methods": [{"id": mid, "name": style.name(mid), "family": style.family(mid), "color": style.color(mid),
                     **methods.get(mid, {"h": [], "steps": [], "work": [], "time": [], "err": {}})} for mid in ids],
    }
    counts = {f: sum(1 for mid in ids if style.family(mid) == f) for f in families}
    filt = ['<fieldset class="filters" id="family-filter"><legend>Families</legend>']
    for f in families:
        filt.append('<label><input type="checkbox" class="family" value="%s" checked> %s (%d)</label>'
                    % (esc(f), esc(fam_names.get(f, f)), counts[f]))
    filt.append('<button type="button" id="families-all">all</button> <button type="button" id="families-none">none</button>')
    filt.append('<label class="best"><input type="checkbox" id="best-only"> best of each family only</label></fieldset>')
    sel = ['<div class="controls"><label>error <select id="metric">%s</select></label>'
           % "".join('<option value="%s"%s>%s</option>' % (esc(k), " selected" if k == metric else "", esc(k)) for k in metrics),
           '<label>work <select id="work"><option value="work" selected>counted work (function-evaluation units)</option>'
           '<option value="time">time, median s</option></select></label></div>']
    body = ["<h1>Leaderboard: %s / %s</h1>" % (esc(data["problem"]), esc(data["preset"])),
            '<p class="meta">Problem %s &middot; T = %s &middot; %s methods, %s runs (%s) &middot; reference %s (error estimate %s)'
            " &middot; timings on %s &middot; <code>%s</code></p>"
            % (link("../problems/%s.html" % data["problem"], data["problem"]), num(data.get("T")), len(ids),
               len(data.get("rows", [])), esc(", ".join("%s %s" % (n, s) for s, n in sorted(data.get("summary", {}).get("by_status", {}).items()))),
               esc(data.get("reference", {}).get("kind", "")), num(data.get("reference", {}).get("error_estimate")),
               esc(data.get("cpu_model", "")), esc(" ".join(data.get("manifest", {}).get("command_line", [])))),
            "\n".join(filt), "\n".join(sel),
            '<div class="plotrow"><div id="wp" class="plot"></div><div id="conv" class="plot"></div></div>',
            '<p class="muted">Hover a point for the method, h, steps, error, time and work; click a legend entry to hide a '
            "method, double-click to isolate it. Runs that did not finish ok are left out of the plots and counted above. "
            "Best of family: each family's method with the most points on its family's Pareto front (error against "
            "counted work, the leaderboard's metric).</p>"]
    for lb in data.get("leaderboard", []):
        rows, attrs = [], []
        for e in lb["entries"]:
            mid = e["method"]
            reached = e.get("reached")
            rows.append([num(e.get("rank")) if reached else "&ndash;",
                         link("../methods/%s.html" % mid, e.get("display_name", mid)),
                         esc(fam_names.get(style.family(mid), style.family(mid))),
                         num(e.get("steps")) if reached else "not reached" + (" (best %s at %s steps)" % (num(e.get("best_error")), num(e.get("best_steps"))) if e.get("best_error") is not None else ""),
                         num(e.get("work")) if reached else "", num(e.get("time_median_s")) if reached else "",
                         num(e.get("time_ratio_to_best"), 3) if reached else "", esc(e.get("energy_class", "")),
                         esc(e.get("not_applicable", ""))])
            attrs.append('data-method="%s" data-family="%s"' % (esc(mid), esc(style.family(mid))))
        body.append("<h2>Target error %s</h2>" % num(lb.get("target")))
        body.append(table(["rank", "method", "family", "steps", "work", "time (s)", "time / best", "energy", "note"],
                          rows, "leaderboard", attrs))
    png = os.path.join(os.path.dirname(os.path.abspath(path)), stem + "-work-precision.png")
    if os.path.isfile(png):
        site.copy(png, "img/%s-work-precision.png" % stem)
        body.append('<h2>Static figure</h2><a href="../img/%s-work-precision.png"><img src="../img/%s-work-precision.png" '
                    'alt="work-precision figure" loading="lazy"></a>' % (esc(stem), esc(stem)))
    body.append('<script type="application/json" id="plot-data">%s</script>'
                % json.dumps(plot, sort_keys=True, separators=(",", ":")).replace("</", "<\\/"))
    body.append('<script src="../assets/report.js"></script>')
    site.write("leaderboards/%s.html" % stem, page("Leaderboard %s" % stem, "\n".join(body), 1, scripts=("plotly.js",),
                                                   nav_active="Leaderboards"))


# ---------------------------------------------------------------------------
# Methods and problems


def figure_methods(data):
    out = set()
    for sw in data["figure"].get("sweeps", []):
        for m in sw.get("methods", []):
            out.add(m if isinstance(m, str) else m.get("id"))
    for r in data.get("rows", []):
        out.add(r.get("method"))
    return out


def figure_problems(data):
    out = set()
    for sw in data["figure"].get("sweeps", []):
        for p in sw.get("problems", []):
            out.add(p if isinstance(p, str) else p.get("problem"))
    return out


def battery_matrix(reports):
    """Claims down, problem / preset across; a cell counts the verdicts over the target's initial conditions."""
    cols, claims, cells = [], [], {}
    for r in sorted(reports, key=lambda r: (r["problem"], r["preset"], r["ic"])):
        col = (r["problem"], r["preset"])
        if col not in cols:
            cols.append(col)
        for ch in r.get("checks", []):
            if ch.get("claim") not in claims:
                claims.append(ch.get("claim"))
            cell = cells.setdefault((ch.get("claim"), col), {})
            v = ch.get("verdict", "")
            cell[v] = cell.get(v, 0) + 1
    rows = [[esc(c)] + [" ".join(badge("c-" + v.lower(), n, v) for v, n in sorted(cells.get((c, col), {}).items()))
                        or "&ndash;" for col in cols] for c in claims]
    heads = ["claim"] + ['%s<br><span class="muted">%s</span>' % (link("../problems/%s.html" % p, p), esc(pr)) for p, pr in cols]
    return table(heads, rows, "matrix")


def method_page(site, m, inputs, rank_pages, battery):
    mid = m["id"]
    c = m["claims"]
    if c.get("stochastic"):
        claim_rows = [["stochastic: samples the kinetic temperature 1/beta, seeded", "always"]]
    else:
        claim_rows = [["order", "%d%s" % (c["order"], " (up to %d at finite T)" % c["finite_time_order"] if c["finite_time_order"] > c["order"] else "")]]
    claim_rows.append(["implicit" if c["implicit"] else "explicit", "always"])
    for k in ("symmetric", "symplectic", "stays_on_group", "volume_preserving", "lyapunov_monotone"):
        if c[k]:
            claim_rows.append([k.replace("_", " "), "always"])
    for inv in c["invariants"]:
        claim_rows.append(["%s %s" % (inv["how"], inv["invariant"].replace("_", " ")),
                           "always" if inv["when"] == "always" else "on " + inv["when"].replace("_", "-") + " problems"])
    body = ["<h1>%s</h1>" % esc(m["name"]),
            '<p class="meta"><code>%s</code> &middot; family %s &middot; %s</p>' % (esc(mid), esc(m["family_name"]), esc(m["citation"])),
            '<p>Tags: %s</p>' % " ".join('<span class="tag">%s</span>' % esc(t) for t in m["tags"]),
            "<h2>Claims</h2>", '<p>%s</p>' % esc(m["claims_text"]),
            table(["claim", "applies"], [[esc(a), esc(b)] for a, b in claim_rows], "claims")]
    if m["default_params"]:
        body.append("<p>Default parameters: <code>%s</code></p>" % esc(json.dumps(m["default_params"], sort_keys=True)))
    body.append("<h2>Conformance battery</h2>")
    reports = [r for r in battery if r.get("method") == mid]
    if not reports:
        body.append('<p class="warn">No battery results for this method in the inputs (results/conformance.json: '
                    "<code>gibench conformance --out results/conformance.json</code>).</p>")
    else:
        rows, attrs = [], []
        for r in sorted(reports, key=lambda r: (r["problem"], r["preset"], r["ic"])):
            for ch in r.get("checks", []):
                v = ch.get("verdict", "")
                note = esc(ch.get("detail", ""))
                if ch.get("expected_deviation"):
                    note += '<div class="deviation"><b>Expected deviation:</b> %s</div>' % esc(ch["expected_deviation"])
                rows.append([link("../problems/%s.html" % r["problem"], r["problem"]), esc(r["preset"]), esc(r["ic"]),
                             esc(ch.get("claim", "")), badge("c-" + v.lower(), label=v), note])
        counts = {}
        for r in reports:
            for ch in r.get("checks", []):
                counts[ch.get("verdict", "")] = counts.get(ch.get("verdict", ""), 0) + 1
        body.append("<p>%s on %d problem / preset / initial-condition targets.</p>"
                    % (" ".join(badge("c-" + v.lower(), n, v) for v, n in sorted(counts.items())), len(reports)))
        body.append(battery_matrix(reports))
        body.append('<details class="notes"><summary>Every check (%d), with what was measured</summary>%s</details>'
                    % (len(rows), table(["problem", "preset", "ic", "claim", "verdict", "measured"], rows, "battery")))
    body.append("<h2>Where it ranks</h2>")
    rows = []
    for stem, data in rank_pages:
        cells = []
        for lb in data.get("leaderboard", []):
            e = next((e for e in lb["entries"] if e["method"] == mid), None)
            if e is None:
                cells.append("&ndash;")
            elif e.get("reached"):
                cells.append("%s of %d (%s steps)" % (num(e.get("rank")), sum(1 for x in lb["entries"] if x.get("reached")), num(e.get("steps"))))
            else:
                cells.append("not applicable" if e.get("not_applicable") else "not reached")
        if any(c != "&ndash;" for c in cells):
            rows.append([link("../leaderboards/%s.html" % stem, "%s / %s" % (data["problem"], data["preset"]))] +
                        ["%s: %s" % (num(lb.get("target")), c) for lb, c in zip(data["leaderboard"], cells)])
    width = max((len(r) for r in rows), default=1)
    rows = [r + [""] * (width - len(r)) for r in rows]
    body.append(table(["leaderboard"] + ["target %d" % (k + 1) for k in range(width - 1)], rows, "summary")
                if rows else '<p class="muted">In no leaderboard of the inputs.</p>')
    figs = [d["figure"]["id"] for _, d in inputs.figures if mid in figure_methods(d)]
    body.append("<h2>Figures</h2>")
    body.append("<p>%s</p>" % (", ".join(link("../papers/%s.html#%s" % (paper_of(f), f), f) for f in figs) or
                               '<span class="muted">none</span>'))
    site.write("methods/%s.html" % mid, page(m["name"], "\n".join(body), 1, nav_active="Methods"))


def problem_page(site, p, cat, inputs, rank_pages):
    pid = p["id"]
    names = {m["id"]: m["name"] for m in cat["methods"]}
    body = ["<h1>%s</h1>" % esc(p["name"]),
            '<p class="meta"><code>%s</code> &middot; model kind %s &middot; %s%s%s</p>'
            % (esc(pid), esc(p["kind"]), esc(p["citation"]), " &middot; torque-free" if p["torque_free"] else "",
               " &middot; constrained" if p["constrained"] else ""),
            "<h2>Presets</h2>",
            table(["preset", "description", ""], [[esc(pr["name"]), esc(pr["description"]),
                                                   ("stress case (not in the battery)" if pr["stress"] else
                                                    "" if pr["in_battery"] else "not in the battery (cost)")]
                                                  for pr in p["presets"]], "summary")]
    if p["parameters"]:
        body.append("<h2>Parameters (<code>--set key=value</code>)</h2>")
        body.append(table(["parameter", "description"], [[esc(a["name"]), esc(a["description"])] for a in p["parameters"]], "summary"))
    refs = {}
    for _, d in inputs.figures + inputs.ranks:
        for r in d.get("rows", []):
            if r.get("problem") == pid and isinstance(r.get("reference"), dict):
                key = (r.get("preset"), r["reference"].get("kind"))
                est = r["reference"].get("error_estimate")
                if gp.is_number(est):
                    refs[key] = max(refs.get(key, 0.0), est)
                else:
                    refs.setdefault(key, None)
    body.append("<h2>Reference solution</h2>")
    body.append(table(["preset", "reference", "largest error estimate"],
                      [[esc(k[0]), esc(k[1]), num(v)] for k, v in sorted(refs.items(), key=lambda kv: (str(kv[0][0]), str(kv[0][1])))], "summary")
                if refs else '<p class="muted">No run of this problem in the inputs records its reference.</p>')
    body.append("<h2>Methods that run on it (%d)</h2>" % len(p["methods"]))
    body.append("<p>%s</p>" % ", ".join(link("../methods/%s.html" % mid, names.get(mid, mid)) for mid in p["methods"]))
    lbs = [(s, d) for s, d in rank_pages if d["problem"] == pid]
    body.append("<h2>Leaderboards</h2>")
    body.append("<p>%s</p>" % (", ".join(link("../leaderboards/%s.html" % s, "%s / %s" % (d["problem"], d["preset"])) for s, d in lbs)
                               or '<span class="muted">none</span>'))
    figs = [d["figure"]["id"] for _, d in inputs.figures if pid in figure_problems(d)]
    body.append("<h2>Figures</h2>")
    body.append("<p>%s</p>" % (", ".join(link("../papers/%s.html#%s" % (paper_of(f), f), f) for f in figs) or
                               '<span class="muted">none</span>'))
    site.write("problems/%s.html" % pid, page(p["name"], "\n".join(body), 1, nav_active="Problems"))


# ---------------------------------------------------------------------------


def plotly_js():
    try:
        from plotly.offline import get_plotlyjs
    except ImportError:
        raise gp.GibenchError("python3-plotly is not installed (scripts/install-deps.sh installs it): the report's "
                              "interactive plots need its plotly.js")
    return get_plotlyjs()


def build(out, catalog_path, paths):
    with open(catalog_path, "r", encoding="utf-8") as f:
        cat = json.load(f)
    inputs = load_inputs(paths)
    js = plotly_js()  # before any page: a missing package is an error, not a broken site
    site = Site(out)
    here = os.path.dirname(os.path.abspath(__file__))
    for asset in ("report.css", "report.js"):
        site.copy(os.path.join(here, "report_assets", asset), "assets/" + asset)
    site.write("assets/plotly.js", js)
    order = [k for k, _, _ in PAPERS]
    groups = {}
    for path, data in inputs.figures:
        groups.setdefault(paper_of(data["figure"].get("id", "")), []).append((path, data))
    by_paper = sorted(groups.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order))
    rank_pages = [(rank_stem(p), d) for p, d in inputs.ranks]
    index_page(site, cat, inputs, by_paper, rank_pages)
    for key, figs in by_paper:
        paper_page(site, key, figs)
    for (stem, data), (path, _) in zip(rank_pages, inputs.ranks):
        leaderboard_page(site, stem, path, data, cat)
    for m in cat["methods"]:
        method_page(site, m, inputs, rank_pages, inputs.conformance)
    for p in cat["problems"]:
        problem_page(site, p, cat, inputs, rank_pages)
    return site, inputs


def main(argv=None):
    ap = gp.OneLineParser(prog="report.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--catalog", required=True, help="gibench list all --json")
    ap.add_argument("--out", required=True, help="the site's directory")
    ap.add_argument("inputs", nargs="+", help="results files or directories")
    args = ap.parse_args(argv)
    try:
        site, inputs = build(args.out, args.catalog, args.inputs)
    except gp.GibenchError as e:
        print("gibench: error: %s" % e, file=sys.stderr)
        return 2
    print("report: %d pages from %d figure, %d rank and %d conformance entries%s"
          % (len(site.pages), len(inputs.figures), len(inputs.ranks), len(inputs.conformance),
             "; ignored %d other JSON file(s)" % len(inputs.ignored) if inputs.ignored else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
