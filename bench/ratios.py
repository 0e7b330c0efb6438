#!/usr/bin/env python3
"""Per-step cost ratios from one Google Benchmark run of every method on every free-body preset.

Runs build/bench/gibench_bench with repetitions and random interleaving (so machine drift hits every
method alike), takes the median CPU time per step, and reports each method's ratio to odeint RK4 on
the quaternion ODE, measured in the same run; plus RKMK4 and the fastest order-4 method explicitly.
Absolute times are labelled with the CPU model; the ratios are what carries over between machines.

  /usr/bin/python3 bench/ratios.py [--bench build/bench/gibench_bench] [--reps 5] [--out results/bench/step_cost.json]
"""
import argparse
import json
import os
import statistics
import sys

from bench_common import cpu_model, run_benchmarks, write_atomic

PEER = "odeint_rk4_quat"
# The non-geometric peer per problem: classical RK4 on the embedded ODE (quaternions for one body; the 3x3
# matrices for particles, the embedding the particle baseline has).
PEERS = {"dipolar_spheres": "odeint_rk4_matrix"}


def peer_of(preset):
    return PEERS.get(preset.split("/")[0], PEER)


def run_bench(binary, reps, min_time, filt):
    return run_benchmarks(binary, ["--benchmark_filter=" + filt, "--benchmark_repetitions=%d" % reps,
                                   "--benchmark_enable_random_interleaving=true", "--benchmark_min_time=%g" % min_time])


def collect(data):
    """{(problem/preset, method): {"ns": [per-rep cpu ns/step], "order": int}}"""
    cells = {}
    for b in data["benchmarks"]:
        if b.get("run_type") != "iteration" or b["run_name"].split("/")[0] in ("pair_kernel", "peer", "primitive"):
            continue  # the pair kernel, the plain Odeint peer and the primitives have their own reports
        problem, preset, method = b["run_name"].split("/")
        c = cells.setdefault((problem + "/" + preset, method), {"ns": [], "order": int(b.get("declared_order", 0))})
        scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
        c["ns"].append(b["cpu_time"] * scale / b.get("steps_per_iteration", 1.0))
    return cells


def ratio_of(rows, method):
    return next((r["ratio_to_peer"] for r in rows if r["method"] == method), None)


def summarise(cells):
    presets = sorted({p for p, _ in cells})
    table = []
    for p in presets:
        peer = cells.get((p, peer_of(p)))
        if not peer:
            continue
        peer_ns = statistics.median(peer["ns"])
        rows = []
        for (pp, m), c in cells.items():
            if pp != p:
                continue
            med = statistics.median(c["ns"])
            spread = (min(c["ns"]), max(c["ns"]))
            rows.append({"method": m, "order": c["order"], "ns_per_step": med, "min_ns": spread[0],
                         "max_ns": spread[1], "ratio_to_peer": med / peer_ns})
        rows.sort(key=lambda r: r["ns_per_step"])
        order4 = [r for r in rows if r["order"] == 4]
        table.append({"preset": p, "peer": peer_of(p), "peer_ns_per_step": peer_ns, "rows": rows,
                      "rkmk4_ratio": ratio_of(rows, "rkmk4"),
                      # Buss (spec 6) predicts 3rd order + EC : RK of about 1 : 1.7 from operation counts.
                      "buss3_ec_ratio": ratio_of(rows, "buss3_ec"),
                      "fastest_order4": order4[0]["method"] if order4 else None,
                      "fastest_order4_ratio": order4[0]["ratio_to_peer"] if order4 else None})
    return table


def fmt_ratio(x):
    return "n/a" if x is None else "%.2f" % x


def report(doc, reps):
    out = ["# Per-step cost (bench/ratios.py)", "",
           "CPU: %s; median of %d interleaved repetitions; ratio = method / the preset's peer, same run" % (doc["cpu_model"], reps)]
    for t in doc["presets"]:
        peer = t["peer"]
        out += ["", "## %s (peer %s, %.1f ns/step)" % (t["preset"], peer, t["peer_ns_per_step"]), "",
                "| method | order | ns/step (median) | min..max | ratio to %s |" % peer, "|---|---|---|---|---|"]
        for r in t["rows"]:
            out.append("| %s | %d | %.1f | %.1f..%.1f | %.2f |" % (r["method"], r["order"], r["ns_per_step"], r["min_ns"],
                                                                  r["max_ns"], r["ratio_to_peer"]))
        out += ["", "RKMK4 / %s = %s; 3rd order + EC (buss3_ec) / %s = %s; fastest order-4 method: %s, ratio %s" % (
            peer, fmt_ratio(t["rkmk4_ratio"]), peer, fmt_ratio(t.get("buss3_ec_ratio")), t["fastest_order4"],
            fmt_ratio(t["fastest_order4_ratio"]))]
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bench", default="build/bench/gibench_bench")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--min-time", type=float, default=0.1)
    ap.add_argument("--filter", default="free_rigid_body/")
    ap.add_argument("--out", default="results/bench/step_cost.json")
    a = ap.parse_args()
    data = run_bench(a.bench, a.reps, a.min_time, a.filter)
    table = summarise(collect(data))
    doc = {"schema_version": 1, "kind": "gibench.step_cost", "cpu_model": cpu_model(),
           "context": data.get("context", {}), "repetitions": a.reps, "interleaved": True, "presets": table}
    write_atomic(a.out, json.dumps(doc, indent=1))
    text = report(doc, a.reps)
    print(text)
    write_atomic(os.path.splitext(a.out)[0] + ".md", text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
