#!/usr/bin/env python3
"""What the harness adds to a step, from ONE Google Benchmark run (issue 19 item 5).

(a) gibench's odeint_rk4_quat through Stepper::advance against the same Odeint RK4 on the same 7-double quaternion
    state written directly against Boost.Odeint (bench/bench_floor.cpp, peer/odeint_rk4_quat_plain), both on Buss's
    free body: target ratio <= 1.15.
(b) every free-body method's step against its counted-operation floor: the operations it counts per step
    (OpCounters: right-hand sides, torques, exponentials, logarithms, Cayley maps, linear solves), each priced by
    its own microbenchmark (primitive/...) in the same run: target ratio <= 1.5, outliers explained.

Every benchmark runs --reps times, randomly interleaved, so drift of a shared machine hits all of them alike; the
tables use medians. Writes results/bench/overhead.md and .json with the CPU, its vector features, the compiler and
its flags, the date and the load average before and after.

  /usr/bin/python3 bench/overhead.py [--bench build/bench/gibench_bench] [--reps 5] [--min-time 0.2]
                                     [--from-json raw.json] [--out results/bench/overhead.json]
"""
import argparse
import datetime
import json
import math
import os
import re
import statistics
import subprocess
import sys

from bench_common import cpu_model, run_benchmarks, write_atomic

PROBLEM = "free_rigid_body/buss2001"
GIBENCH_PEER = "odeint_rk4_quat"
PLAIN_PEER = "peer/odeint_rk4_quat_plain"
FILTER = "^(peer/|primitive/|%s/)" % PROBLEM
# The benchmark's cost-currency counter (core/counters.hpp work()): a sum of the counted operations, not one of them.
CURRENCY = "work_per_step"
PEER_TARGET = 1.15
FLOOR_TARGET = 1.5

# What one counted operation costs, as sums of primitives. An exponential or a Cayley map in these methods is
# always applied to the attitude (OpCounters counts "the one inside the group action"), so it is priced with the
# 3x3 product that applies it. A linear solve is priced at the 3x3 size, the smallest an implicit method here
# uses, so the floor stays a lower bound. A Newton iteration is not priced on its own: it is a map evaluation
# (counted as right-hand sides where the method counts them) plus a linear solve (counted as a solve).
PRICES = {
    "rhs_per_step": ["primitive/free_body_rhs"],
    "exp_per_step": ["primitive/exp", "primitive/mat3_product"],
    "log_per_step": ["primitive/log"],
    "cayley_per_step": ["primitive/cayley", "primitive/mat3_product"],
    "solve_per_step": ["primitive/solve/3"],
}

# Why a method's step costs more than 1.5 times its counted operations: work the counters do not see. Keyed by
# method id, or by id prefix ending in "*" or suffix starting with "*"; checked against the source of each family (methods/).
TAYLOR = ("the Taylor terms of the average angular velocity (w1, w2, w3 of methods/buss/taylor.cpp: cross products "
          "and J^-1 products, more of them with the order) and the back-rotation of Pi (exp(u)^T Pi) are not "
          "counted operations; the ratio grows with the order")
IMPLICIT = ("each Newton iteration builds its map's Jacobian (dexp, dexp^-1 and torque-free Euler terms as 3x3 "
            "matrices) besides the counted solve and right-hand sides, and a step adds the predictor, the "
            "convergence tests and the safeguard's check (methods/implicit/nonlinear_solver.hpp)")
EXPLAINED = {
    "odeint_*": "Odeint's stage arithmetic (the Butcher-tableau combinations of 7 or 12 doubles, which is most of a "
                "step here: the right-hand side is 1.7 ns) and the embedded state's own derivative (qdot or "
                "R hat(omega) besides Pidot) are not counted; (a) compares this loop with plain Odeint instead",
    "rkmk*": "RKMK acts on T*SO(3): each counted exponential also moves the momentum (tso3::act_momentum: a cosine "
             "and three cross products) and every stage after the first applies a dexp^-1 series of brackets on "
             "so(3) x so(3)* (three cross products each); none of these is a counted primitive. An RKMK4 step is "
             "about 2350 instructions (callgrind, this body and step): the series 31%, the momentum actions 24%, "
             "the Rodrigues coefficients of the four actions 13%, the final action's 3x3 exponential and product "
             "8%, the loop over the run-time tableau 7%. The zero-coefficient "
             "bracket RKMK4's series used to compute and the momentum action's stalled loads are gone",
    "cg3": "Crouch-Grossman stages compose up to three exponentials on the 3x3 attitude and combine stage "
           "momenta; the products beyond the one per exponential are not counted",
    "buss1": TAYLOR, "buss2": TAYLOR, "buss3": TAYLOR, "buss4": TAYLOR, "buss3false": TAYLOR, "buss2aug": TAYLOR,
    "*_ec": "Buss's energy correction adds, besides its counted solve, right-hand side and exponential, the energy "
            "and its gradient and the scalar equation for the correcting angle; the base method's own uncounted "
            "work (above) stays",
    "buss_rk_rotvec": "stage momenta are rotated by Rodrigues on vectors (rotate_back: cross products, uncounted) "
                      "and the stages are combined as rotation vectors",
    "buss_abm": "the predictor-corrector keeps its history in world angular velocities: four 3x3 matrix-vector "
                "products per step (R nu twice, R^T w twice) and the predicted momentum rotated back and forth on "
                "vectors (rotate_back, rotate_forward), none counted; its check of the caller's state runs once "
                "per advance",
    "simo_wong*": "explicit two-step: as buss1 (uncounted back-rotation of Pi, exp(u)^T Pi) plus the lagged "
                  "difference of nu; its check of the caller's state runs once per advance",
    "imid": IMPLICIT, "trap": IMPLICIT, "imidm": IMPLICIT, "trapm": IMPLICIT, "akw": IMPLICIT, "swc1": IMPLICIT,
    "bbtrap": IMPLICIT, "hp_cayley_euler": IMPLICIT,
    "bbtrapwd": IMPLICIT + "; its solves have 6 unknowns, priced at the 3x3 solve (solve/6 is 2.7x that)",
    "mkrk_implicit": IMPLICIT + "; its solves have 6 unknowns per stage, priced at the 3x3 solve",
    "zs*": "the relaxed-rotation form integrates a Newtonian system on R^{3x3} (the penalty's gradient and Hessian "
           "on 9 + 9 unknowns): its force and 9x9 solve are not the free body's right-hand side and 3x3 solve",
}
# Ratios below 1: the floor overprices these methods' counted exponentials.
BELOW_ONE = {
    "mr*": "each counted exponential is a planar rotation about a principal axis (one sin/cos pair, Buss's unit of "
           "cost), cheaper than the general Rodrigues exp + product it is priced at",
    "dlm*": "as MR: the free-body sub-flows are planar rotations about principal axes",
}


def lookup(table, method):
    if method in table:
        return table[method]
    for key, why in table.items():
        if (key.endswith("*") and method.startswith(key[:-1])) or (key.startswith("*") and method.endswith(key[1:])):
            return why
    return None


def explanation(method, ratio):
    if ratio is not None and ratio < 1:
        return lookup(BELOW_ONE, method)
    return lookup(EXPLAINED, method)


def per_call_ns(b):
    scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
    per = b.get("steps_per_iteration") or b.get("calls_per_iteration") or 1.0
    return b["cpu_time"] * scale / per


def collect(data):
    """{run_name: {"ns": [per-repetition ns per step or call], "counters": {...}}}"""
    out = {}
    for b in data["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        c = out.setdefault(b["run_name"], {"ns": [], "counters": {}})
        c["ns"].append(per_call_ns(b))
        for k, v in b.items():
            if k.endswith("_per_step") or k == "declared_order":
                c["counters"][k] = v
    for c in out.values():
        c["median"] = statistics.median(c["ns"])
        c["min"] = min(c["ns"])
        c["max"] = max(c["ns"])
    return out


def cpu_features():
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    flags = next((l.split(":", 1)[1].split() for l in out.splitlines() if l.startswith("Flags:")), [])
    wanted = [f for f in flags if f in ("sse4_2", "avx", "avx2", "fma") or f.startswith("avx512")]
    return " ".join(wanted) if wanted else "none of sse4_2, avx, avx2, fma, avx512*"


def compiler_info(build_dir):
    cache = {}
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt")) as f:
            for line in f:
                m = re.match(r"^(CMAKE_CXX_COMPILER|CMAKE_CXX_FLAGS|CMAKE_CXX_FLAGS_RELEASE|CMAKE_BUILD_TYPE):[A-Z]+=(.*)$", line)
                if m:
                    cache[m.group(1)] = m.group(2).strip()
    except OSError:
        pass
    version = "unknown"
    if cache.get("CMAKE_CXX_COMPILER"):
        try:
            version = subprocess.run([cache["CMAKE_CXX_COMPILER"], "--version"], capture_output=True, text=True,
                                     check=True).stdout.splitlines()[0]
        except (OSError, subprocess.CalledProcessError, IndexError):
            pass
    flags = " ".join(x for x in (cache.get("CMAKE_CXX_FLAGS", ""), cache.get("CMAKE_CXX_FLAGS_RELEASE", "")) if x)
    return {"compiler": version, "build_type": cache.get("CMAKE_BUILD_TYPE", "?"), "flags": flags or "(none)"}


def floor_of(counters, cells):
    """(floor ns, {counter: ns}) from the counted operations per step and the primitives' medians."""
    parts = {}
    for counter, prims in PRICES.items():
        n = counters.get(counter, 0.0)
        if n:
            parts[counter] = n * sum(cells[p]["median"] for p in prims)
    return sum(parts.values()), parts


def report(data, build_dir, load_before, load_after):
    cells = collect(data)
    missing = [n for n in [PLAIN_PEER, PROBLEM + "/" + GIBENCH_PEER] + [p for ps in PRICES.values() for p in ps]
               if n not in cells]
    if missing:
        sys.exit("overhead.py: missing benchmarks: " + ", ".join(missing))
    peer = cells[PLAIN_PEER]
    ours = cells[PROBLEM + "/" + GIBENCH_PEER]
    peer_ratio = ours["median"] / peer["median"]

    methods = []
    for name, c in cells.items():
        if not name.startswith(PROBLEM + "/"):
            continue
        method = name.split("/")[-1]
        fl, parts = floor_of(c["counters"], cells)
        ratio = c["median"] / fl if fl > 0 else None
        methods.append({"method": method, "order": int(c["counters"].get("declared_order", 0)),
                        "ns_per_step": c["median"], "min": c["min"], "max": c["max"],
                        "counted_per_step": {k: v for k, v in c["counters"].items()
                                             if k.endswith("_per_step") and k != CURRENCY and v},
                        "floor_ns": fl, "floor_parts_ns": parts, "ratio_to_floor": ratio,
                        "explanation": explanation(method, ratio)
                        if ratio is None or ratio > FLOOR_TARGET or ratio < 1 else None})
    methods.sort(key=lambda r: (r["ratio_to_floor"] is None, r["ratio_to_floor"] or 0))
    primitives = [{"primitive": n, "ns": c["median"], "min": c["min"], "max": c["max"]}
                  for n, c in sorted(cells.items()) if n.startswith("primitive/")]
    ctx = data.get("context", {})
    reps = max(len(c["ns"]) for c in cells.values())
    return {
        "kind": "gibench.bench.overhead",
        "date": run_date(data),
        "cpu": cpu_model(), "cpu_features": cpu_features(), "num_cpus": ctx.get("num_cpus"),
        "compiler": compiler_info(build_dir), "repetitions": reps,
        "load_average_before": load_before, "load_average_after": load_after,
        "problem": PROBLEM,
        "peer": {"plain_odeint_ns": peer["median"], "plain_min": peer["min"], "plain_max": peer["max"],
                 "gibench_ns": ours["median"], "gibench_min": ours["min"], "gibench_max": ours["max"],
                 "ratio": peer_ratio, "target": PEER_TARGET},
        "primitives": primitives,
        "floor_target": FLOOR_TARGET,
        "methods": methods,
    }


def markdown(r):
    p = r["peer"]
    ok = lambda v, t: "meets" if v is not None and v <= t else "misses"
    lines = [
        "# What the harness adds to a step (bench/overhead.py)",
        "",
        "CPU: %s (%s cores seen), vector features: %s. Compiler: %s, %s, flags `%s`. %s; median of %d randomly "
        "interleaved repetitions of ONE Google Benchmark run; load average %s before, %s after (a 2-core machine "
        "shared with other builds)." % (r["cpu"], r["num_cpus"], r["cpu_features"], r["compiler"]["compiler"],
                                        r["compiler"]["build_type"], r["compiler"]["flags"], r["date"],
                                        r["repetitions"], r["load_average_before"], r["load_average_after"]),
        "",
        "Rerun: `/usr/bin/python3 bench/overhead.py` (builds nothing: build `gibench_bench` first).",
        "",
        "## (a) gibench's Odeint RK4 against plain Odeint, %s" % r["problem"],
        "",
        "| | ns/step (median) | min..max |",
        "|---|---|---|",
        "| plain Boost.Odeint RK4, `integrate_n_steps` on `std::array<double, 7>` | %.1f | %.1f..%.1f |"
        % (p["plain_odeint_ns"], p["plain_min"], p["plain_max"]),
        "| gibench `odeint_rk4_quat`, `Stepper::advance` | %.1f | %.1f..%.1f |"
        % (p["gibench_ns"], p["gibench_min"], p["gibench_max"]),
        "",
        "Ratio **%.3f** (target <= %.2f: %s). Both take 64 steps per benchmark iteration; gibench converts (R, Pi) "
        "to the quaternion state and back once per call of advance, as it does once per observation interval in a "
        "run." % (p["ratio"], p["target"], ok(p["ratio"], p["target"])),
        "",
        "## (b) Every free-body method against its counted-operation floor, %s" % r["problem"],
        "",
        "Primitives, each timed on its own in the same run (ns per call):",
        "",
        "| primitive | ns (median) | min..max |",
        "|---|---|---|",
    ]
    for q in r["primitives"]:
        lines.append("| %s | %.2f | %.2f..%.2f |" % (q["primitive"][len("primitive/"):], q["ns"], q["min"], q["max"]))
    lines += [
        "",
        "Floor of a step = sum over its counted operations per step of their price: right-hand side = "
        "`free_body_rhs`; exponential = `exp` + `mat3_product` (it is applied to R); Cayley = `cayley` + "
        "`mat3_product`; log = `log`; linear solve = `solve/3` (the smallest size used, so a lower bound). A Newton "
        "iteration is not separable: its map is counted as right-hand sides, its solve as a solve. A torque-free "
        "body has no force evaluation; `force/*` rows price those of the other problems.",
        "",
        "| method | order | ns/step (median) | counted per step | floor ns | ratio | |",
        "|---|---|---|---|---|---|---|",
    ]
    short = {"rhs_per_step": "rhs", "force_per_step": "force", "exp_per_step": "exp", "log_per_step": "log",
             "cayley_per_step": "cay", "solve_per_step": "solve", "newton_iter_per_step": "newton"}
    within = 0
    for m in r["methods"]:
        counted = ", ".join("%g %s" % (round(v, 3), short.get(k, k)) for k, v in m["counted_per_step"].items())
        ratio = m["ratio_to_floor"]
        if ratio is not None and ratio < 1:
            mark = "below the floor, explained" if m["explanation"] else "**below the floor, unexplained**"
        elif ratio is not None and ratio <= r["floor_target"]:
            mark = ""
        else:
            mark = "outlier, explained" if m["explanation"] else "**outlier, unexplained**"
        within += ratio is not None and ratio <= r["floor_target"]
        lines.append("| %s | %d | %.1f | %s | %.1f | %s | %s |" % (
            m["method"], m["order"], m["ns_per_step"], counted or "-", m["floor_ns"],
            "%.2f" % ratio if ratio is not None else "-", mark))
    lines += ["", "%d of %d methods within %.1fx of their floor." % (within, len(r["methods"]), r["floor_target"]), "",
              "### Outliers and ratios below 1: what the counters do not see", ""]
    seen = {}
    for m in r["methods"]:
        if m["explanation"]:
            seen.setdefault(m["explanation"], []).append(m["method"])
    for why, ms in seen.items():
        lines.append("- %s: %s." % (", ".join(ms), why))
    unexplained = [m["method"] for m in r["methods"]
                   if (m["ratio_to_floor"] is None or m["ratio_to_floor"] > r["floor_target"]) and not m["explanation"]]
    if unexplained:
        lines.append("- **unexplained**: " + ", ".join(unexplained))
    return "\n".join(lines) + "\n"


def run_date(data):
    """When the benchmarks ran (Google Benchmark's context), so that a re-rendering keeps the run's date."""
    try:
        return datetime.datetime.fromisoformat(data["context"]["date"]).astimezone(
            datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    except (KeyError, ValueError):
        return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def load_average():
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "unknown"


def finite_only(x):
    """x with NaN and infinities as null: Google Benchmark writes NaN for the coefficient of variation of a counter
    that is the same in every repetition (0/0), and NaN is not JSON."""
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: finite_only(v) for k, v in x.items()}
    if isinstance(x, list):
        return [finite_only(v) for v in x]
    return x


def raw_text(data):
    """The raw run, one benchmark per line: indented, it took 70 kB more of the results/ budget."""
    line = lambda x: json.dumps(x, separators=(",", ":"), allow_nan=False)
    return ('{\n "context": ' + line(data["context"]) + ',\n "benchmarks": [\n' +
            ",\n".join("  " + line(b) for b in data["benchmarks"]) + "\n ]\n}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap.add_argument("--bench", default=os.path.join(root, "build", "bench", "gibench_bench"))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--min-time", type=float, default=0.2)
    ap.add_argument("--from-json", help="a Google Benchmark JSON already run with the filter, instead of running")
    ap.add_argument("--out", default=os.path.join(root, "results", "bench", "overhead.json"))
    a = ap.parse_args()
    before = load_average()
    if a.from_json:
        with open(a.from_json) as f:
            data = json.load(f)
        # The machine's load now says nothing about the run: take Google Benchmark's record of it at the start.
        run_load = data.get("context", {}).get("load_avg")
        before = " ".join("%.2f" % x for x in run_load) if run_load else "unknown"
    else:
        data = run_benchmarks(a.bench, ["--benchmark_filter=" + FILTER, "--benchmark_repetitions=%d" % a.reps,
                                        "--benchmark_enable_random_interleaving=true",
                                        "--benchmark_min_time=%g" % a.min_time])
    after = load_average() if not a.from_json else "not recorded"
    if not a.from_json:  # the raw run beside the report, so the tables can be re-rendered without re-measuring
        write_atomic(os.path.splitext(a.out)[0] + "_raw.json", raw_text(finite_only(data)))
    r = report(data, os.path.dirname(os.path.dirname(os.path.abspath(a.bench))), before, after)
    write_atomic(a.out, json.dumps(r, indent=1) + "\n")
    write_atomic(os.path.splitext(a.out)[0] + ".md", markdown(r))
    print("peer ratio %.3f; %d methods; wrote %s" % (r["peer"]["ratio"], len(r["methods"]), a.out))


if __name__ == "__main__":
    main()
