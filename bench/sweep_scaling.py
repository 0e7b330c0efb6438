#!/usr/bin/env python3
"""Sweep throughput against threads and MPI ranks, as speed-ups over the one-thread run of the same session.

Runs bench/sweep_scaling.json (90 free-body cells of unequal cost: three step sizes, explicit and implicit
methods; the exact reference, so no shared numerical reference serialises the cells) as
`gibench sweep --jobs 1`, `--jobs 2`, `mpirun -n 1` and `mpirun -n 2` (one thread per rank), interleaved
over --reps rounds so that machine drift spreads over every configuration, and records the wall time of
each whole command (process start, MPI start-up and the results file included). Every run's rows must
be byte-identical to the first (the files are written with --reproducible); a difference is an error.
Writes results/bench/sweep_scaling.json and .md atomically, and a bar figure with Debian's python3.

  /usr/bin/python3 bench/sweep_scaling.py [--gibench build/gibench] [--reps 3]
"""
import argparse
import filecmp
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from bench_common import cpu_model, plot_module, write_atomic

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MPIRUN = ["mpirun", "--oversubscribe", "--allow-run-as-root"]


def configurations(gibench, config, have_mpi):
    sweep = [gibench, "sweep", config, "--reproducible"]
    runs = [("threads", 1, sweep + ["--jobs", "1"]), ("threads", 2, sweep + ["--jobs", "2"])]
    if have_mpi:
        runs += [("mpi_ranks", k, MPIRUN + ["-n", str(k)] + sweep + ["--jobs", "1"]) for k in (1, 2)]
    return runs


def timed(cmd, out):
    t0 = time.perf_counter()
    subprocess.run(cmd + ["--out", out], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def measure(runs, reps, work):
    times = {(kind, n): [] for kind, n, _ in runs}
    reference = os.path.join(work, "reference.json")
    for r in range(reps):
        for kind, n, cmd in runs:
            out = os.path.join(work, "%s-%d.json" % (kind, n))
            times[(kind, n)].append(timed(cmd, out))
            if not os.path.exists(reference):
                shutil.copy(out, reference)
            elif not filecmp.cmp(reference, out, shallow=False):
                sys.exit("sweep_scaling: %s %d wrote different bytes from the first run" % (kind, n))
    return times


def report(times, cells, reps):
    base = statistics.median(times[("threads", 1)])
    rows = []
    for (kind, n), ts in times.items():
        med = statistics.median(ts)
        rows.append({"route": kind, "n": n, "wall_s_median": med, "wall_s": ts, "speedup_vs_1_thread": base / med,
                     "cells_per_s": cells / med})
    return {"schema_version": 1, "kind": "gibench.sweep_scaling", "cpu_model": cpu_model(), "cores": os.cpu_count(),
            "reps": reps, "cells": cells, "config": "bench/sweep_scaling.json", "identical_bytes": True, "rows": rows}


def markdown(doc):
    lines = ["# Sweep throughput: threads and MPI ranks", "",
             "%d cells of bench/sweep_scaling.json on %s (%d cores), median of %d interleaved runs; every run wrote "
             "the same bytes." % (doc["cells"], doc["cpu_model"], doc["cores"], doc["reps"]), "",
             "| route | n | wall time (s) | cells/s | speed-up vs 1 thread |", "|---|---|---|---|---|"]
    for r in doc["rows"]:
        lines.append("| %s | %d | %.2f | %.1f | %.2f |" % (r["route"], r["n"], r["wall_s_median"], r["cells_per_s"],
                                                          r["speedup_vs_1_thread"]))
    return "\n".join(lines) + "\n"


def figure(doc, path):
    gp = plot_module()
    plt = gp.plt
    labels = ["%s %d" % (r["route"].replace("_", " "), r["n"]) for r in doc["rows"]]
    speed = [r["speedup_vs_1_thread"] for r in doc["rows"]]
    fig, ax = plt.subplots(figsize=(5.5, 3.2))
    ax.bar(labels, speed, color=["#4c72b0", "#4c72b0", "#dd8452", "#dd8452"][:len(labels)])
    ax.axhline(1, color="grey", lw=0.8)
    ax.axhline(min(2, doc["cores"]), color="grey", lw=0.8, ls="--")
    ax.set_ylabel("speed-up over 1 thread")
    ax.set_title("sweep throughput, %d cells, %d cores" % (doc["cells"], doc["cores"]), fontsize=10)
    fig.tight_layout()
    gp.save(fig, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gibench", default=os.path.join(ROOT, "build", "gibench"))
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "bench", "sweep_scaling.json"))
    a = ap.parse_args()
    config = os.path.join(HERE, "sweep_scaling.json")
    have_mpi = shutil.which("mpirun") is not None
    with tempfile.TemporaryDirectory() as work:
        times = measure(configurations(a.gibench, config, have_mpi), a.reps, work)
        with open(os.path.join(work, "reference.json")) as f:
            cells = len(json.load(f)["rows"])
    doc = report(times, cells, a.reps)
    write_atomic(a.out, json.dumps(doc, indent=1) + "\n")
    write_atomic(a.out[:-5] + ".md", markdown(doc))
    figure(doc, a.out[:-5] + ".png")
    print(markdown(doc))


if __name__ == "__main__":
    main()
