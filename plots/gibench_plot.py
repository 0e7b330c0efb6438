"""Small helper library for drawing gibench results (see results/SCHEMA.md).

Loading and validating a results / figure JSON file, selecting rows with a
``where`` filter, grouping rows, a consistent style (colour per method id,
marker per method family), an "excluded rows" footnote, and saving in PNG,
SVG or PDF.

Run with Debian's interpreter (/usr/bin/python3: matplotlib + numpy).
Drawing only: fits and metrics come from the C++ side.
"""

import argparse
import json
import math
import os
import stat
import tempfile
import textwrap
import warnings
import zlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)
from matplotlib.ticker import LogLocator, NullFormatter  # noqa: E402

SCHEMA_VERSION = 1
KINDS = ("gibench.results", "gibench.figure", "gibench.reference", "gibench.rank")
FORMATS = ("png", "svg", "pdf")
PNG_DPI = 150
# Every PNG is saved as a palette PNG of at most this many colours (quantized_png): line art, markers and shaded bands
# on white use a few dozen, and the file is about a third of the RGBA one (README, Results size).
PNG_COLORS = 256

RC = {
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "legend.framealpha": 0.9,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "lines.linewidth": 1.3,
    "lines.markersize": 5,
    "savefig.dpi": PNG_DPI,
    "pdf.fonttype": 42,  # TrueType in PDFs (journals reject Type 3 fonts)
    "ps.fonttype": 42,
    "axes.unicode_minus": True,
}
matplotlib.rcParams.update(RC)


class GibenchError(Exception):
    """An error reported as one line by the CLI."""

    def __init__(self, msg):
        super().__init__(" ".join(str(msg).split()))


class OneLineParser(argparse.ArgumentParser):
    """argparse whose usage errors are one line and exit 2, like the CLI's."""

    def error(self, message):
        self.exit(2, "%s: error: %s\n" % (self.prog, " ".join(message.split())))


class MalformedError(GibenchError):
    """The file (or a plot spec in it) does not follow the schema."""


class PlotError(GibenchError):
    """A well-formed spec that cannot be drawn (e.g. its filter matches nothing)."""


# ---------------------------------------------------------------------------
# Loading and validation


def _reject_constant(name):
    raise ValueError("non-JSON constant %s (non-finite numbers must be null)" % name)


def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def finite(x):
    """x as a float if it is a finite number, else None (null, string, NaN...)."""
    if is_number(x) and math.isfinite(x):
        return float(x)
    return None


def load(path):
    """Read and validate a gibench JSON file; raise MalformedError on any problem."""
    try:
        with open(path, "r", encoding="utf-8") as f:
            data = json.load(f, parse_constant=_reject_constant)
    except OSError as e:
        raise MalformedError("cannot read %s: %s" % (path, e.strerror or e))
    except ValueError as e:  # JSONDecodeError is a ValueError
        raise MalformedError("%s: invalid JSON: %s" % (path, e))
    try:
        validate(data)
        resolve_params_table(data)
    except MalformedError as e:
        raise MalformedError("%s: %s" % (path, e))
    return data


def resolve_params_table(data):
    """Put back the problem parameters results storage moved to params_table (harness/results_storage.hpp)."""
    table = data.get("params_table", {}) if isinstance(data, dict) else {}
    for row in data.get("rows", []) if isinstance(data, dict) else []:
        ref = row.get("params") if isinstance(row, dict) else None
        if isinstance(ref, dict) and "$table" in ref:
            if ref["$table"] not in table:
                raise MalformedError("rows: params refer to %r, which params_table lacks" % (ref["$table"],))
            row["params"] = table[ref["$table"]]


def validate(data):
    """Structural checks of a loaded results file (fields a plot relies on)."""
    if not isinstance(data, dict):
        raise MalformedError("top level is not a JSON object")
    sv = data.get("schema_version")
    if not is_number(sv) or int(sv) != sv:
        raise MalformedError("missing or non-integer schema_version")
    if sv != SCHEMA_VERSION:
        raise MalformedError("unsupported schema_version %s (this plotter reads %d)" % (sv, SCHEMA_VERSION))
    kind = data.get("kind")
    if kind not in KINDS:
        raise MalformedError("unknown kind %r (expected one of %s)" % (kind, ", ".join(KINDS)))
    rows = data.get("rows")
    if not isinstance(rows, list):
        raise MalformedError("'rows' is missing or not an array")
    for i, r in enumerate(rows):
        if not isinstance(r, dict):
            raise MalformedError("rows[%d] is not an object" % i)
        for key in ("metrics", "cost", "timing"):
            if r.get(key) is not None and not isinstance(r[key], dict):
                raise MalformedError("rows[%d].%s is not an object" % (i, key))
    methods = data.get("methods", {})
    if not isinstance(methods, dict) or not all(isinstance(v, dict) for v in methods.values()):
        raise MalformedError("'methods' is not an object of objects")
    series = data.get("series", [])
    if not isinstance(series, list):
        raise MalformedError("'series' is not an array")
    for j, s in enumerate(series):
        if not isinstance(s, dict):
            raise MalformedError("series[%d] is not an object" % j)
        row = s.get("row")
        if not is_number(row) or int(row) != row or not 0 <= row < len(rows):
            raise MalformedError("series[%d].row is not an index into rows" % j)
        t = s.get("t")
        if not isinstance(t, list):
            raise MalformedError("series[%d].t is missing or not an array" % j)
        for key, val in s.items():
            if key in ("row", "t") or not isinstance(val, list):
                continue
            if len(val) != len(t):
                raise MalformedError("series[%d].%s has %d entries but t has %d" % (j, key, len(val), len(t)))
    fits = data.get("fits", [])
    if not isinstance(fits, list) or not all(isinstance(f, dict) for f in fits):
        raise MalformedError("'fits' is not an array of objects")
    if kind == "gibench.figure":
        fig = data.get("figure")
        if not isinstance(fig, dict):
            raise MalformedError("figure file without a 'figure' object")
        plots = fig.get("plots", [])
        if not isinstance(plots, list):
            raise MalformedError("figure.plots is not an array")
        for k, p in enumerate(plots):
            if not isinstance(p, dict):
                raise MalformedError("figure.plots[%d] is not an object" % k)
    return data


# ---------------------------------------------------------------------------
# Cost currency (core/counters.hpp)

COUNTER_FIELDS = ("steps", "rhs_evals", "force_evals", "exp_evals", "log_evals", "cayley_evals", "linear_solves",
                  "nonlinear_iters", "nonlinear_iters_max", "solver_failures")


def cost_value(cost, field):
    """One field of a row's cost object as a float, or None.

    The stored value when the row carries it. Otherwise, for a cost object with steps, it is derived by the rule
    of harness/json_util.cpp cost_value: a missing counter is 0 (stored rank rows leave zeros out);
    function_evals = max(rhs_evals, force_evals) (a stage under a potential counts one of each); work =
    function_evals + exp, log and Cayley maps + linear solves + Newton iterations (both absent from files written
    before them); X_per_step = X over the steps (at least one). A cost object without steps, or an unknown name,
    derives nothing."""
    if not isinstance(cost, dict):
        return None
    if field in cost:
        return finite(cost[field])
    per = field.endswith("_per_step")
    total = field[: -len("_per_step")] if per else field
    if "steps" not in cost or total not in COUNTER_FIELDS + ("function_evals", "work"):
        return None
    c = {}
    for k in COUNTER_FIELDS:
        v = cost.get(k, 0)
        if not is_number(v):
            return None
        c[k] = int(round(v))
    if total in COUNTER_FIELDS:
        value = c[total]
    else:
        value = max(c["rhs_evals"], c["force_evals"])
        if total == "work":
            value += c["exp_evals"] + c["log_evals"] + c["cayley_evals"] + c["linear_solves"] + c["nonlinear_iters"]
    return float(value) / max(c["steps"], 1) if per else float(value)


# ---------------------------------------------------------------------------
# Selection and grouping


def get_field(obj, key):
    """obj[key]; a dotted key ("method_params.stages") descends into objects.
    Returns (found, value)."""
    if key in obj:
        return True, obj[key]
    cur = obj
    for part in key.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return False, None
        cur = cur[part]
    return True, cur


def _value_matches(actual, wanted):
    if actual == wanted and type(actual) is type(wanted):
        return True
    if isinstance(wanted, list):
        return any(_value_matches(actual, w) for w in wanted)
    if is_number(actual) and is_number(wanted):
        a, w = float(actual), float(wanted)
        return a == w or abs(a - w) <= 1e-9 * max(abs(a), abs(w))
    if isinstance(actual, str) and not isinstance(wanted, str) and wanted is not None:
        return actual == (json.dumps(wanted) if isinstance(wanted, bool) else str(wanted))
    return actual == wanted


def matches(obj, where):
    """True if every key of `where` is a field of obj with an equal value.
    A list value means "any of"; numbers compare with a 1e-9 relative tolerance."""
    for key, wanted in (where or {}).items():
        found, actual = get_field(obj, key)
        if not found or not _value_matches(actual, wanted):
            return False
    return True


def select(rows, where=None):
    """[(index, row)] of the rows matching `where`, in file order."""
    return [(i, r) for i, r in enumerate(rows) if matches(r, where)]


def _hashable(v):
    if isinstance(v, (dict, list)):
        return json.dumps(v, sort_keys=True)
    if isinstance(v, float):
        # T = steps * h can miss the requested T in the last bit (h = T / N rounded); the harness groups fits at 12
        # significant digits too (harness/sweep.cpp).
        return float("%.12g" % v)
    return v


def varying_keys(rows, candidates):
    """The candidate fields whose value is not the same in all rows."""
    out = []
    for key in candidates:
        vals = {_hashable(get_field(r, key)[1]) for r in rows}
        if len(vals) > 1:
            out.append(key)
    return out


def default_group_keys(rows, base=("method",), extra=("method_params", "overrides", "problem", "preset", "ic", "T")):
    """`base` plus those `extra` fields in which the rows differ."""
    return list(base) + [k for k in varying_keys(rows, extra) if k not in base]


def group(items, keys, key_of=lambda item: item):
    """Group items (in first-seen order) by the tuple of fields `keys`.
    `key_of(item)` gives the row dict of an item. Returns [(key tuple, [items])]."""
    groups = {}
    for item in items:
        row = key_of(item)
        k = tuple(_hashable(get_field(row, key)[1]) for key in keys)
        groups.setdefault(k, []).append(item)
    return list(groups.items())


def unique_value(rows, key):
    vals = {_hashable(get_field(r, key)[1]) for r in rows}
    return next(iter(vals)) if len(vals) == 1 else None


def fmt_num(x):
    return "%.3g" % x if is_number(x) else str(x)


# ---------------------------------------------------------------------------
# Style

# No greys: grey is reserved for Pareto fronts and guides. The first tier are
# mutually distinct colours; the second tier is used only once the first is full.
PALETTE = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
    "#e377c2", "#17becf", "#bcbd22",
]
PALETTE_EXTRA = [
    "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#000000",
    "#9ecae1", "#fdae6b", "#a1d99b", "#bcbddc",
]
FAMILY_MARKERS = {
    "rkmk": "o", "classical": "s", "buss": "^", "splitting": "D",
    "krysl": "v", "zhang_skeel": "P",
}
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "<", ">", "h", "p", "*"]

# At most this many curves in one panel of a convergence or work-precision plot; beyond it the plot switches to one
# panel per method family (plot_results.use_family_layout).
MAX_CURVES = 10
LINESTYLES = ["-", "--", ":", "-."]


def _assign(ids, tiers, fixed=None):
    """Deterministic id -> choice. crc32 of the id picks a slot in the first tier of
    choices; collisions among `ids` (taken in sorted order) move to the next free
    slot, then to the next tier. The same id gets the same choice in every plot of
    a file and, barring collisions, across files."""
    out = dict(fixed or {})
    used = set(out.values())
    for i in sorted(set(ids) - set(out)):
        h = zlib.crc32(i.encode("utf-8"))
        choice = None
        for tier in tiers:
            for k in range(len(tier)):
                c = tier[(h + k) % len(tier)]
                if c not in used:
                    choice = c
                    break
            if choice is not None:
                break
        if choice is None:  # everything taken: reuse
            choice = tiers[0][h % len(tiers[0])]
        out[i] = choice
        used.add(choice)
    return out


class Style:
    """Colours, markers and names for the methods of one results file."""

    def __init__(self, data):
        self.methods = data.get("methods", {}) or {}
        ids = set(self.methods) | {r.get("method") for r in data.get("rows", []) if isinstance(r.get("method"), str)}
        ids |= {f.get("method") for f in data.get("fits", []) if isinstance(f.get("method"), str)}
        self._order = {m: k for k, m in enumerate(self.methods)}
        self._colors = _assign(ids, [PALETTE, PALETTE_EXTRA])
        families = {self.family(m) for m in ids}
        fixed = {f: m for f, m in FAMILY_MARKERS.items() if f in families}
        self._markers = _assign(families, [MARKERS], fixed)

    def info(self, method):
        m = self.methods.get(method)
        return m if isinstance(m, dict) else {}

    def name(self, method):
        n = self.info(method).get("display_name")
        return n if isinstance(n, str) and n else str(method)

    def family(self, method):
        f = self.info(method).get("family")
        return f if isinstance(f, str) and f else "other"

    def declared_order(self, method):
        o = self.info(method).get("order")
        return o if is_number(o) else None

    def color(self, method):
        return self._colors.get(method, "#000000")

    def marker(self, method):
        return self._markers.get(self.family(method), "o")

    def sort_key(self, method):
        """Methods in the order of the file's `methods` object, then by id."""
        return (self._order.get(method, len(self._order)), str(method))

    def row_label(self, row, extra_keys=()):
        """'display name h=0.01' plus any extra distinguishing fields."""
        parts = [self.name(row.get("method")), "h=%s" % fmt_num(row.get("h"))]
        for k in extra_keys:
            v = get_field(row, k)[1]
            if isinstance(v, dict):  # overrides, method parameters: their items, not the object
                parts.extend("%s=%s" % (kk, fmt_num(vv)) for kk, vv in sorted(v.items()))
            else:
                parts.append("%s=%s" % (k, fmt_num(v)))
        return " ".join(parts)


# ---------------------------------------------------------------------------
# Families (the family tag of methods[id].family, core/method_tags.hpp)


def by_family(groups, family_of):
    """[(family, [groups])] in the order families first appear in groups."""
    out = {}
    for g in groups:
        out.setdefault(family_of(g), []).append(g)
    return list(out.items())


def family_chunks(groups, family_of, max_curves=None):
    """[(family, part, parts, [groups])]: each family's groups, a family of more than max_curves (MAX_CURVES) split
    into the fewest parts of at most max_curves, sizes as equal as possible, in the groups' order."""
    max_curves = max_curves or MAX_CURVES
    out = []
    for fam, members in by_family(groups, family_of):
        parts = -(-len(members) // max_curves)
        base, extra = divmod(len(members), parts)
        start = 0
        for k in range(parts):
            size = base + (1 if k < extra else 0)
            out.append((fam, k + 1, parts, members[start:start + size]))
            start += size
    return out


def best_of_family(groups, family_of):
    """Each family's best group, in family order. groups: [(key, points)], a point (error, work, ...). The rule:
    the group with the most points on its family's Pareto front (lower error and lower work than any other point of
    the family); ties go to the smaller error reached, then to the earlier group."""
    best = []
    for _, members in by_family(groups, family_of):
        pts = sorted(((p[0], p[1], k) for k, (_, gpts) in enumerate(members) for p in gpts), key=lambda t: (t[0], t[1]))
        on_front = [0] * len(members)
        lowest = math.inf
        for err, work, k in pts:
            if work < lowest:
                on_front[k] += 1
                lowest = work
        min_err = [min((p[0] for p in gpts), default=math.inf) for _, gpts in members]
        k = min(range(len(members)), key=lambda k: (-on_front[k], min_err[k], k))
        best.append(members[k])
    return best


def wrap_label(label, width=34):
    """A legend label wrapped to lines of about width characters (long display names)."""
    return "\n".join(textwrap.wrap(label, width)) or label


# ---------------------------------------------------------------------------
# Exclusion notes


class Notes:
    """Rows left out of a plot, shown as a footnote "excluded: ..."."""

    MAX_ITEMS = 10

    def __init__(self, style):
        self.style = style
        self.items = []

    def add_row(self, row, reason):
        self.add("%s h=%s" % (self.style.name(row.get("method")), fmt_num(row.get("h"))), reason)

    def add(self, what, reason):
        item = "%s (%s)" % (what, reason)
        if item not in self.items:
            self.items.append(item)

    def text(self):
        if not self.items:
            return ""
        shown = self.items[: self.MAX_ITEMS]
        s = "excluded: " + "; ".join(shown)
        if len(self.items) > len(shown):
            s += "; and %d more" % (len(self.items) - len(shown))
        return s

    def __bool__(self):
        return bool(self.items)


NOTE_GAP_PT = 6.0  # between the lowest drawn element (an x-axis label, a legend) and the footnote


def finish(fig, notes=None, width_chars=None):
    """Layout, then the footnote with the exclusions below everything drawn: the figure's tight box is measured
    after the layout, and the note hangs from below it, so it never overprints an axis label or a legend however
    the layout went (an outside legend can defeat tight_layout). Saving with bbox_inches="tight" takes it in.
    The text artist is fig._gibench_note_artist (None without notes), for the tests."""
    text = notes.text() if notes else ""
    fig._gibench_notes = list(notes.items) if notes else []
    fig._gibench_note_artist = None
    if fig.get_layout_engine() is None:  # a constrained-layout figure (the family grids) lays itself out
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # tight_layout is best effort (3D axes, outside legends)
            fig.tight_layout()
    if text:
        fig.draw_without_rendering()  # runs a constrained layout; positions are final from here
        box = fig.get_tightbbox(fig.canvas.get_renderer())  # inches, figure origin
        y = (box.y0 - NOTE_GAP_PT / 72.0) / fig.get_figheight()
        x = max(box.x0, 0.0) / fig.get_figwidth() + 0.005
        chars = width_chars or max(100, int(16 * box.width))
        fig._gibench_note_artist = fig.text(x, y, "\n".join(textwrap.wrap(text, chars)), fontsize=7, color="0.3",
                                            ha="left", va="top")
    return fig


def log_grid(ax, which="both"):
    """Grid for log axes; call after the data are drawn. An axis spanning more than
    6 decades gets minor ticks at the decades only (no 2..9 subdivisions, which are
    unreadable there and make drawing slow)."""
    minor = which == "both"
    for axis, scale, lim in ((ax.xaxis, ax.get_xscale(), ax.get_xlim()), (ax.yaxis, ax.get_yscale(), ax.get_ylim())):
        if scale != "log":
            continue
        lo, hi = sorted(lim)
        if lo > 0 and math.log10(hi / lo) > 6:
            axis.set_major_locator(LogLocator(base=10.0, numticks=9))
            axis.set_minor_locator(LogLocator(base=10.0, subs=(1.0,), numticks=100))
            axis.set_minor_formatter(NullFormatter())
        if minor:
            axis.grid(True, which="minor", color="0.93", linewidth=0.4)
        axis.grid(True, which="major", color="0.85", linewidth=0.6)
    ax.set_axisbelow(True)


def legend(ax, handles=None, labels=None, outside=None, **kw):
    if handles is None:
        handles, labels = ax.get_legend_handles_labels()
    if not handles:
        return None
    if outside is None:
        outside = len(handles) > 5 or max(len(l) for l in labels) > 40
    if outside:
        # Widen the figure by the legend's width so the axes keep their size.
        fig = ax.figure
        w, h = fig.get_size_inches()
        fig.set_size_inches(w + min(6.0, 0.062 * max(len(l) for l in labels) + 0.7), h)
        return ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, **kw)
    return ax.legend(handles, labels, loc="best", **kw)


def no_data(ax, what="no plottable data"):
    ax.text(0.5, 0.5, what, transform=ax.transAxes, ha="center", va="center", color="0.4")


# ---------------------------------------------------------------------------
# Saving


def output_path(out_dir, name, fmt):
    """out_dir/name with its extension replaced by .fmt (name must stay inside out_dir)."""
    if fmt not in FORMATS:
        raise GibenchError("unknown format %r (use one of %s)" % (fmt, ", ".join(FORMATS)))
    if not isinstance(name, str) or not name.strip():
        raise MalformedError("plot file name is empty")
    norm = os.path.normpath(name)
    if os.path.isabs(name) or norm == ".." or norm.startswith(".." + os.sep):
        raise MalformedError("plot file name %r leaves the output directory" % name)
    root, ext = os.path.splitext(norm)
    if ext.lower().lstrip(".") not in FORMATS + ("eps", "jpg", "jpeg", "tif", "tiff", "ps"):
        root = norm  # "fig3.3" keeps its dot
    return os.path.join(out_dir, root + "." + fmt)


def refuse_non_regular(path):
    """The C++ side's rule (README, File safety): a figure replaces only a regular file of its name, never a
    link (rename would drop the link a user planted) nor a FIFO, device or directory."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISREG(st.st_mode):
        kind = "a symbolic link" if stat.S_ISLNK(st.st_mode) else "not a regular file"
        raise GibenchError("%s is %s; gibench replaces only a new or regular file" % (path, kind))


def _same_bytes(a, b):
    if not os.path.isfile(b) or os.path.getsize(a) != os.path.getsize(b):
        return False
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def quantized_png(fig, colors, savefig_kw):
    """The figure as a palette PNG of at most `colors` colours (median cut, no dithering: deterministic). Line art on
    white loses nothing visible and the file shrinks about 3.5 times (the Buss 2001 rank grid: 539 -> 151 kB)."""
    import io

    from PIL import Image

    buf = io.BytesIO()
    fig.savefig(buf, format="png", **savefig_kw)
    buf.seek(0)
    with Image.open(buf) as im:
        q = im.convert("RGB").quantize(colors=colors, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    out = io.BytesIO()
    q.save(out, format="png", optimize=True)
    return out.getvalue()


def replace_file(path, data):
    """Write `data` (bytes) to `path` atomically: a private temporary file beside it (mkstemp's name, never a fixed one
    a link could already hold), then a rename. Only a new or regular file is replaced (refuse_non_regular), and
    unchanged bytes leave the file and its mtime alone. Every file gibench's Python side writes goes through here."""
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    refuse_non_regular(path)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=os.path.splitext(path)[1], dir=d)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp creates 0600; give the usual permissions
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        refuse_non_regular(path)  # again: a caller may have taken a while since the first look
        if _same_bytes(tmp, path):
            os.unlink(tmp)
        else:
            os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


def save(fig, path, fmt=None):
    """Write fig atomically (replace_file) as png (150 dpi), svg or pdf."""
    import io

    fmt = fmt or os.path.splitext(path)[1].lstrip(".").lower() or "png"
    try:
        if fmt not in FORMATS:
            raise GibenchError("unknown format %r (use one of %s)" % (fmt, ", ".join(FORMATS)))
        refuse_non_regular(path)  # before drawing, which takes a while
        # Reproducible files: no dates, and no matplotlib version (an upgrade alone would change every PNG's bytes).
        meta = {"png": {"Software": None}, "svg": {"Date": None}, "pdf": {"CreationDate": None}}[fmt]
        kw = dict(dpi=getattr(fig, "_gibench_dpi", PNG_DPI), bbox_inches="tight", pad_inches=0.05, metadata=meta)
        if fmt == "png":
            data = quantized_png(fig, PNG_COLORS, kw)
        else:
            buf = io.BytesIO()
            fig.savefig(buf, format=fmt, **kw)
            data = buf.getvalue()
        return replace_file(path, data)
    finally:
        plt.close(fig)
