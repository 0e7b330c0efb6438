#!/usr/bin/env python3
"""Pair-kernel cost report: ns per pair, per particle and the growth exponent of one evaluation.

Runs the pair_kernel benchmarks of build/bench/gibench_bench (all pairs at N = 10 .. 10000 and the cutoff
variant) with repetitions, takes the median CPU time per evaluation, and fits the exponent b of
time ~ N^b by least squares over log N for each variant (all pairs: 2 expected; cutoff with cell lists:
1 expected). Writes results/bench/pair_kernel.json and .md atomically.

  /usr/bin/python3 bench/pair_kernel.py [--bench build/bench/gibench_bench] [--reps 3]
"""
import argparse
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

from bench_common import cpu_model, run_benchmarks, write_atomic

TARGET_NS_PER_PAIR = 10.0  # issue target for the all-pairs kernel on one core


def run_bench(binary, reps, min_time):
    args = ["--benchmark_filter=^pair_kernel/", "--benchmark_repetitions=%d" % reps, "--benchmark_min_time=%g" % min_time]
    return run_benchmarks(binary, args, env=dict(os.environ, OMP_NUM_THREADS="1"))  # one core, as the target says


def run_floor(binary, reps, min_time):
    """The floor: gibench_pair_floor (bench/floor/pair_floor.cpp), the row kernel on L1-resident data built with
    -march=native. None when the binary was not built (a compiler without -march=native)."""
    if not os.path.exists(binary):
        return None
    data = run_benchmarks(binary, ["--benchmark_repetitions=%d" % reps, "--benchmark_min_time=%g" % min_time],
                          env=dict(os.environ, OMP_NUM_THREADS="1"))
    per_n = {}
    for b in data["benchmarks"]:
        if b.get("run_type") == "iteration":
            per_n.setdefault(int(b["run_name"].split("/")[2]), []).append(b["time_per_pair"] * 1e9)
    medians = {n: statistics.median(v) for n, v in per_n.items()}
    best = min(medians, key=medians.get)
    return {"ns_per_pair": medians[best], "row_length": best, "by_row_length": medians}


# LAMMPS's lj/cut/dipole/cut on 1000 spheres (a simple cubic lattice of spacing 1.3, random unit dipoles), both
# cutoffs beyond the system so that every pair counts (the all-pairs sum), an N^2 half neighbour list built once:
# the "Pair" row of its timing breakdown over a run without integration is the pair loop alone.
LAMMPS_STEPS = 20
LAMMPS_INPUT = """units lj
atom_style hybrid sphere dipole
boundary s s s
atom_modify map array
lattice sc 0.4551
region box block 0 9.99 0 9.99 0 9.99
create_box 1 box
create_atoms 1 box
set type 1 dipole/random 2026 1.0
set type 1 mass 1.0
set type 1 diameter 1.0
pair_style lj/cut/dipole/cut 1000 1000
pair_coeff * * 1.0 1.0
neighbor 1.0 nsq
neigh_modify every 1000 delay 0 check no
run %d
""" % LAMMPS_STEPS


def run_lammps(lmp, reps):
    """ns per pair of LAMMPS's dipole pair loop, median of reps runs; None without LAMMPS on PATH."""
    exe = shutil.which(lmp)
    if exe is None:
        return None
    per_pair = []
    version = None
    with tempfile.TemporaryDirectory() as work:
        with open(os.path.join(work, "in.pair"), "w") as f:
            f.write(LAMMPS_INPUT)
        for _ in range(reps):
            subprocess.run([exe, "-in", "in.pair", "-log", "log.pair", "-screen", "none"], cwd=work, check=True,
                           env=dict(os.environ, OMP_NUM_THREADS="1"))
            log = open(os.path.join(work, "log.pair")).read()
            atoms = int(re.search(r"Created (\d+) atoms", log).group(1))
            pair_seconds = float(re.search(r"^Pair\s*\|\s*([0-9.eE+-]+)", log, re.M).group(1))
            per_pair.append(pair_seconds / LAMMPS_STEPS / (atoms * (atoms - 1) / 2) * 1e9)
            first = log.splitlines()[0].strip()  # "LAMMPS (29 Sep 2021 - Update 2)"
            version = first[len("LAMMPS ("):-1] if first.startswith("LAMMPS (") else first
    return {"ns_per_pair": statistics.median(per_pair), "N": atoms, "version": version, "runs": per_pair}


def vector_features():
    """The CPU's vector extensions, from /proc/cpuinfo (what -march=native can use)."""
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((line.split(":", 1)[1].split() for line in f if line.startswith("flags")), [])
    except OSError:
        return []
    return [x for x in ("sse4_2", "avx", "avx2", "fma", "avx512f", "avx512vl") if x in flags]


def collect(data):
    """{variant: {N: [cpu ns per evaluation]}}"""
    out = {}
    for b in data["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        _, variant, n = b["run_name"].split("/")[:3]
        scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
        out.setdefault(variant, {}).setdefault(int(n), []).append(b["cpu_time"] * scale)
    return out


def growth_exponent(points):
    """Least-squares slope of log t against log N."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(t) for _, t in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx > 0 else float("nan")


def summarise(cells, pairs_of):
    table = {}
    for variant, by_n in sorted(cells.items()):
        rows = []
        for n in sorted(by_n):
            ns = statistics.median(by_n[n])
            pairs = pairs_of(variant, n)
            rows.append({"N": n, "ns_per_evaluation": ns, "ns_per_particle": ns / n,
                         "ns_per_pair": ns / pairs if pairs else None})
        fit = [(r["N"], r["ns_per_evaluation"]) for r in rows if r["N"] >= 100]
        table[variant] = {"rows": rows, "growth_exponent": growth_exponent(fit) if len(fit) >= 2 else None,
                          "fit_over_N": [n for n, _ in fit]}
    return table


def report(doc):
    out = ["# Pair kernel cost (bench/pair_kernel.py)", "",
           "CPU: %s; one thread; median of %d repetitions; growth exponent = slope of log(time per evaluation) "
           "against log N for N >= 100" % (doc["cpu_model"], doc["repetitions"])]
    for variant, t in doc["variants"].items():
        out += ["", "## %s (growth exponent %s)" % (variant, "n/a" if t["growth_exponent"] is None else "%.2f" % t["growth_exponent"]),
                "", "| N | ns per evaluation | ns per particle | ns per pair |", "|---|---|---|---|"]
        for r in t["rows"]:
            pair = "—" if r["ns_per_pair"] is None else "%.2f" % r["ns_per_pair"]
            out.append("| %d | %.0f | %.1f | %s |" % (r["N"], r["ns_per_evaluation"], r["ns_per_particle"], pair))
    ap = doc["variants"].get("all_pairs", {"rows": []})["rows"]
    worst = max((r["ns_per_pair"] for r in ap if r["N"] >= 100 and r["ns_per_pair"]), default=None)
    if worst is not None:
        out += ["", "All pairs, N >= 100: at most %.2f ns per pair (target <= %.0f): %s" % (
            worst, TARGET_NS_PER_PAIR, "met" if worst <= TARGET_NS_PER_PAIR else "NOT met")]
    floor = doc.get("floor")
    if floor:
        out += ["", "## Floor", "",
                "The row kernel on %d particles in L1, built with -march=native (vector features: %s): %.2f ns per "
                "pair (rows of 63 / 127 / 255 pairs: %s)." % (
                    floor["row_length"], ", ".join(doc["vector_features"]) or "none found", floor["ns_per_pair"],
                    " / ".join("%.2f" % floor["by_row_length"][n] for n in sorted(floor["by_row_length"])))]
        big = [r for r in ap if r["N"] >= 1000 and r["ns_per_pair"]]
        if big:
            r = big[0]
            ratio = r["ns_per_pair"] / floor["ns_per_pair"]
            # No verdict against the 3x target: this floor is this code at the best ISA, not the arithmetic peak
            # the target means (issue 24 estimates 1-1.5 ns per pair from the operation count).
            out.append("All pairs at N = %d: %.2f ns per pair = %.2f x this floor. It is gibench's own row code with "
                       "the best vector instructions, not the hardware's arithmetic peak (about 100 flops, a square "
                       "root and a division per pair: 1-1.5 ns on two FMA units, issue 24), so no verdict is drawn "
                       "against the 3x target here." % (r["N"], r["ns_per_pair"], ratio))
    plain = {r["N"]: r["ns_per_pair"] for r in doc["variants"].get("plain", {"rows": []})["rows"]}
    kernel = {r["N"]: r["ns_per_pair"] for r in ap}
    lammps = doc.get("lammps")
    if lammps and lammps["N"] in kernel:
        out.append("Against LAMMPS %s (pair lj/cut/dipole/cut over every pair, Lennard-Jones where gibench's soft "
                   "spheres drop r^-6, N = %d, its Pair time): %.2f against %.2f ns per pair, %.2f x its time." % (lammps["version"], lammps["N"], kernel[lammps["N"]],
                                                           lammps["ns_per_pair"], kernel[lammps["N"]] / lammps["ns_per_pair"]))
    for n in sorted(set(plain) & set(kernel)):
        out.append("Against the plain kernel (the same pair formula in an untuned i < j loop over 3-vectors), N = %d: "
                   "%.2f against %.2f ns per pair, %.2f x its time." % (n, kernel[n], plain[n], kernel[n] / plain[n]))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bench", default="build/bench/gibench_bench")
    ap.add_argument("--floor", default="build/bench/gibench_pair_floor")
    ap.add_argument("--lammps", default="lmp", help="the LAMMPS executable (skipped when not found)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--min-time", type=float, default=0.2)
    ap.add_argument("--out", default="results/bench/pair_kernel.json")
    a = ap.parse_args()
    data = run_bench(a.bench, a.reps, a.min_time)
    floor = run_floor(a.floor, a.reps, a.min_time)
    lammps = run_lammps(a.lammps, a.reps)
    # Pairs per evaluation: all pairs N(N-1)/2; the cutoff variant reports its own count per particle.
    pairs_per_particle = {}
    for b in data["benchmarks"]:
        if b.get("run_type") == "iteration" and "pairs_per_particle" in b:
            pairs_per_particle[b["run_name"]] = b["pairs_per_particle"]

    def pairs_of(variant, n):
        if variant in ("all_pairs", "plain"):
            return n * (n - 1) / 2
        ppp = pairs_per_particle.get("pair_kernel/%s/%d" % (variant, n))
        return ppp * n if ppp else None

    doc = {"schema_version": 1, "kind": "gibench.pair_kernel", "cpu_model": cpu_model(),
           "context": data.get("context", {}), "repetitions": a.reps,
           "variants": summarise(collect(data), pairs_of), "floor": floor, "lammps": lammps, "vector_features": vector_features()}
    write_atomic(a.out, json.dumps(doc, indent=1) + "\n")
    text = report(doc)
    write_atomic(os.path.splitext(a.out)[0] + ".md", text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
