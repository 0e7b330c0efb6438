#!/usr/bin/python3
"""Cross-check gibench's dipolar spheres against LAMMPS (issue deliverable 7).

Run from the repository root with Debian's interpreter (numpy, matplotlib) and LAMMPS on PATH
(`apt-get install -y lammps`; Debian 12's package 20220106.git7586adbb6a reports "29 Sep 2021 - Update 2" and
has the DIPOLE package built in):

    /usr/bin/python3 scripts/lammps_crosscheck.py [--gibench build/gibench] [--h 0.002] [--steps 10000]

1. `gibench particles-dump` gives the `lammps_compatible` preset (N = 32 spheres, Lennard-Jones short range,
   isotropic inertia, small random p and m): positions, velocities p/M, space-frame dipoles Q_i mu_bar,
   space-frame angular velocities Q_i I^-1 m_i, and energy, forces and space-frame torques Q_i tau_i evaluated
   in long double.
2. The same system goes to LAMMPS (`atom_style hybrid sphere dipole`, `units lj`, shrink-wrapped open box
   `boundary s s s`, `pair_style lj/cut/dipole/cut` with both cutoffs beyond the system so every pair counts,
   N^2 neighbour list); `run 0` gives the potential energy (`compute pe`), the kinetic energies and a
   `dump custom` of fx fy fz tqx tqy tqz. Energies, forces and torques must agree to 1e-10 relative
   (forces and torques relative to the largest one of their kind); the script exits 1 otherwise. The atom
   attributes LAMMPS read back (x, v, mu, omega, mass, diameter) are checked against what was written first,
   so a misread data file cannot pass as a physics difference.
3. A timed NVE run of the same system: LAMMPS `fix nve/sphere update dipole/dlm` against gibench `dlm2`, same
   h and step count. Time per step of each (median of --reps timed runs without output; LAMMPS's "Loop time",
   gibench's timing pass), their ratio, and both relative energy errors (E(t) - E0)/|E0| sampled every
   --every steps: max and final, reported, not asserted (LAMMPS's DLM update for spheres and gibench's dlm2
   are the same kick-rotate-drift-kick family, so small differences are expected). Writes
   results/lammps/crosscheck.json, crosscheck.md and energy_drift.png.

How the conventions map (Kjer spec 5.1, 5.3 against LAMMPS's pair lj/cut/dipole/cut and atom styles):
  * Energy. gibench: V = sum over pairs 4 eps((sigma/r)^12 - (sigma/r)^6) + mu_i.mu_j/r^3 - 3(mu_i.r)(mu_j.r)/r^5
    (short_range = lj; Kjer's own soft spheres drop the r^-6 term, which LAMMPS cannot). LAMMPS computes
    qqrd2e (r^-3 mu_i.mu_j - 3 r^-5 (mu_i.r)(mu_j.r)) with qqrd2e = qqr2e = 1 in lj units, the same LJ form with
    no shift (pair_modify shift no, the default) and no charges (q = 0). r = x_i - x_j in both; the dipolar
    term is even in r, so the sign of r does not matter.
  * Forces are -dV/dq_i in both. Torques: gibench's body torque tau_i = mu_bar x (Q_i^T B_i) with B_i = -dV/dmu_i
    (spec 5.3); LAMMPS stores the space-frame torque mu_i x B_i, which is Q_i tau_i, what particles-dump prints.
  * Rotational state. LAMMPS's sphere has no orientation matrix, only the dipole vector mu_i (space frame) and
    the space-frame angular velocity omega_i; a sphere's inertia is 0.4 m r^2 = 0.1 M d^2, so the preset's
    isotropic I fixes the diameter d = sqrt(I / (0.1 M)) and the density 6 M / (pi d^3) makes LAMMPS's per-atom
    mass M. The script checks that the inertia is isotropic.
  * Units: lj, with sigma = epsilon = M = 1; thermo_modify norm no, so energies are totals, not per atom.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
TOLERANCE = 1e-10


class SetupError(RuntimeError):
    """Something outside the comparison went wrong (missing program, unreadable output)."""


def run(cmd: list[str], cwd: Path | None = None) -> str:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-5:]
        raise SetupError(f"{' '.join(cmd[:3])} ... failed ({proc.returncode}): {' | '.join(tail)}")
    return proc.stdout


# ---------------------------------------------------------------------------------------------------------
# gibench side


def gibench_dump(gibench: str, preset: str, sets: list[str]) -> dict:
    cmd = [gibench, "particles-dump", "--problem", "dipolar_spheres", "--preset", preset]
    for s in sets:
        cmd += ["--set", s]
    return json.loads(run(cmd))


def parse_sets(sets: list[str]) -> dict:
    """--set key=value items as a JSON object (values parsed as JSON when they can be, as gibench does)."""
    out = {}
    for item in sets:
        key, sep, text = item.partition("=")
        if not sep or not key or not text:
            raise SetupError(f"--set expects key=value, got '{item}'")
        try:
            out[key] = json.loads(text)
        except json.JSONDecodeError:
            out[key] = text
    return out


def gibench_nve(gibench: str, preset: str, sets: list[str], h: float, steps: int, every: int, reps: int,
                work: Path) -> dict:
    """dlm2 through a one-cell sweep whose config switches off the long double reference (not needed here, and it
    would cost minutes) and records the energy every `every` steps."""
    config = {"name": "lammps-crosscheck-dlm2",
              "problems": [{"problem": "dipolar_spheres", "presets": [preset], "overrides": [parse_sets(sets)]}],
              "methods": ["dlm2"], "h": [h], "steps": steps,
              "observe": {"reference": False, "ref_samples": 0, "series_points": steps // every + 1},
              "timing": {"reps": reps}}
    (work / "sweep.json").write_text(json.dumps(config))
    run([gibench, "sweep", str(work / "sweep.json"), "--out", str(work / "dlm2.json"), "--jobs", "1"])
    doc = json.loads((work / "dlm2.json").read_text())
    row, series = doc["rows"][0], doc["series"][0]
    if row["status"] != "ok":
        raise SetupError(f"gibench dlm2 run ended with status {row['status']}")
    return {"t": series["t"], "energy_rel_err": series["energy_rel_err"], "ns_per_step": row["timing"]["ns_per_step"],
            "timing": row["timing"], "energy_initial": row["metrics"]["energy_initial"], "manifest": doc["manifest"]}


# ---------------------------------------------------------------------------------------------------------
# LAMMPS side


def sphere_geometry(d: dict) -> tuple[float, float]:
    """Diameter and density that give LAMMPS's sphere the preset's mass M and isotropic inertia 0.1 M d^2."""
    inertia, mass = np.array(d["inertia"]), float(d["mass"])
    if np.ptp(inertia) > 1e-15 * inertia.max():
        raise SetupError(f"LAMMPS spheres need isotropic inertia, the preset has {inertia.tolist()}")
    diameter = math.sqrt(inertia[0] / (0.1 * mass))
    return diameter, 6.0 * mass / (math.pi * diameter**3)


def write_data(d: dict, path: Path) -> None:
    if d["cutoff"] != 0:
        raise SetupError("the cross-check compares all pairs; use a preset with cutoff = 0")
    if d["short_range"] != "lj":
        raise SetupError("lj/cut/dipole/cut has the Lennard-Jones r^-6 term: the cross-check needs short_range = lj")
    diameter, density = sphere_geometry(d)
    q = np.array(d["positions"])
    lo, hi = q.min() - 5.0, q.max() + 5.0
    lines = ["gibench lammps_compatible preset (scripts/lammps_crosscheck.py)", "",
             f"{d['N']} atoms", "1 atom types", "",
             f"{lo:.17g} {hi:.17g} xlo xhi", f"{lo:.17g} {hi:.17g} ylo yhi", f"{lo:.17g} {hi:.17g} zlo zhi", "",
             "Masses", "", f"1 {d['mass']:.17g}", "",
             "Atoms # hybrid sphere dipole: id type x y z diameter density q mux muy muz", ""]
    for i, (x, mu) in enumerate(zip(d["positions"], d["dipoles"]), start=1):
        lines.append(f"{i} 1 {x[0]:.17g} {x[1]:.17g} {x[2]:.17g} {diameter:.17g} {density:.17g} 0 "
                     f"{mu[0]:.17g} {mu[1]:.17g} {mu[2]:.17g}")
    lines += ["", "Velocities # id vx vy vz wx wy wz", ""]
    for i, (v, w) in enumerate(zip(d["velocities"], d["omega"]), start=1):
        lines.append(f"{i} {v[0]:.17g} {v[1]:.17g} {v[2]:.17g} {w[0]:.17g} {w[1]:.17g} {w[2]:.17g}")
    path.write_text("\n".join(lines) + "\n")


def setup_lines(d: dict) -> list[str]:
    # Both cutoffs far beyond the system (it spreads by a few sigma over the NVE run): every pair, no switch, no
    # shift. nsq: an N^2 neighbour list, the all-pairs loop gibench runs; rebuilt only when an atom moved.
    cutoff = 1000.0
    return ["units lj", "atom_style hybrid sphere dipole", "boundary s s s", "atom_modify map array",
            "read_data system.data", f"pair_style lj/cut/dipole/cut {cutoff} {cutoff}",
            f"pair_coeff * * {d['epsilon']:.17g} {d['sigma']:.17g}", "neighbor 1.0 nsq",
            "neigh_modify every 1 delay 0 check yes", "compute erot all erotate/sphere", "compute epot all pe",
            "thermo_modify norm no"]


def static_input(d: dict) -> str:
    lines = setup_lines(d) + [
        "dump forces all custom 1 forces.dump id fx fy fz tqx tqy tqz",
        "dump_modify forces sort id format float %.17g",
        "dump atoms all custom 1 atoms.dump id x y z vx vy vz mux muy muz omegax omegay omegaz mass diameter",
        "dump_modify atoms sort id format float %.17g",
        # thermo_style resets thermo_modify, so norm no comes after it; pe is tallied at step 0 because thermo
        # prints it there.
        "thermo_style custom step pe ke c_erot c_epot", "thermo_modify norm no",
        "run 0",
        'print "ENERGY $(pe:%.17g) $(ke:%.17g) $(c_erot:%.17g)"']
    return "\n".join(lines) + "\n"


def nve_input(d: dict, h: float, steps: int, every: int) -> str:
    # every = 0: the timed run, thermo only at the start and the end.
    lines = setup_lines(d) + [f"timestep {h!r}", "fix integrate all nve/sphere update dipole/dlm",
                               "thermo_style custom step pe ke c_erot", "thermo_modify norm no format float %.17g",
                               f"thermo {every}", f"run {steps}"]
    return "\n".join(lines) + "\n"


def lammps(lmp: str, work: Path, script: str, name: str) -> str:
    (work / f"in.{name}").write_text(script)
    run([lmp, "-in", f"in.{name}", "-log", f"log.{name}", "-screen", "none"], cwd=work)
    return (work / f"log.{name}").read_text()


def read_dump(path: Path) -> tuple[list[str], np.ndarray]:
    lines = path.read_text().splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("ITEM: ATOMS"))
    columns = lines[start].split()[2:]
    rows = [list(map(float, line.split())) for line in lines[start + 1:] if line.strip()]
    return columns, np.array(rows)


def column(columns: list[str], data: np.ndarray, names: list[str]) -> np.ndarray:
    return np.stack([data[:, columns.index(n)] for n in names], axis=1)


def thermo_table(log: str) -> np.ndarray:
    """Rows of (step, pe, ke, erot) from the thermo output of a log."""
    rows, active = [], False
    for line in log.splitlines():
        if line.split()[:4] == ["Step", "PotEng", "KinEng", "c_erot"]:
            active = True
            continue
        if active and line.startswith("Loop time"):
            break
        if active:
            rows.append([float(x) for x in line.split()])
    if not rows:
        raise SetupError("no thermo output in the LAMMPS log")
    return np.array(rows)


def loop_seconds(log: str) -> float:
    m = re.search(r"Loop time of ([0-9.eE+-]+) on", log)
    if not m:
        raise SetupError("no 'Loop time' in the LAMMPS log")
    return float(m.group(1))


def lammps_version(lmp: str) -> str:
    out = subprocess.run([lmp, "-h"], capture_output=True, text=True).stdout
    m = re.search(r"Large-scale Atomic/Molecular Massively Parallel Simulator - (.+)", out)
    version = m.group(1).strip() if m else "unknown"
    dpkg = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "lammps"], capture_output=True, text=True)
    return version + (f" (Debian package {dpkg.stdout.strip()})" if dpkg.returncode == 0 and dpkg.stdout else "")


# ---------------------------------------------------------------------------------------------------------
# Comparisons


def max_relative(ours: np.ndarray, theirs: np.ndarray) -> dict:
    """Largest difference relative to the largest entry of its kind, and the worst per-atom relative one."""
    diff = np.linalg.norm(ours - theirs, axis=1)
    size = np.linalg.norm(ours, axis=1)
    return {"max_abs_diff": float(diff.max()), "scale": float(size.max()),
            "max_rel_diff": float(diff.max() / size.max()),
            "max_per_atom_rel_diff": float((diff / np.maximum(size, 1e-300)).max())}


def check_read_back(d: dict, work: Path) -> dict:
    """What LAMMPS read must be what was written: otherwise differences would be input errors, not physics."""
    cols, data = read_dump(work / "atoms.dump")
    diameter, _ = sphere_geometry(d)
    pairs = {"positions": ["x", "y", "z"], "velocities": ["vx", "vy", "vz"], "dipoles": ["mux", "muy", "muz"],
             "omega": ["omegax", "omegay", "omegaz"]}
    out = {k: max_relative(np.array(d[k]), column(cols, data, names))["max_rel_diff"] for k, names in pairs.items()}
    out["mass"] = float(np.abs(column(cols, data, ["mass"]) / d["mass"] - 1).max())
    out["diameter"] = float(np.abs(column(cols, data, ["diameter"]) / diameter - 1).max())
    bad = {k: v for k, v in out.items() if not v <= 1e-14}
    if bad:
        raise SetupError(f"LAMMPS read the system differently from what was written: {bad}")
    return out


def static_comparison(d: dict, work: Path, lmp: str) -> dict:
    log = lammps(lmp, work, static_input(d), "static")
    check = check_read_back(d, work)
    m = re.search(r"^ENERGY (\S+) (\S+) (\S+)$", log, re.M)
    if not m:
        raise SetupError("no ENERGY line in the LAMMPS log")
    pe, ke, erot = map(float, m.groups())
    cols, data = read_dump(work / "forces.dump")
    kinetic_ours = d["kinetic_energy"]
    energies = {"potential": (d["potential_energy"], pe), "kinetic": (kinetic_ours, ke + erot),
                "total": (d["energy"], pe + ke + erot)}
    result = {"read_back_max_rel_diff": check,
              "energies": {k: {"gibench": a, "lammps": b, "rel_diff": abs(a - b) / abs(a)} for k, (a, b) in energies.items()},
              "forces": max_relative(np.array(d["forces"]), column(cols, data, ["fx", "fy", "fz"])),
              "torques": max_relative(np.array(d["torques"]), column(cols, data, ["tqx", "tqy", "tqz"]))}
    worst = max([e["rel_diff"] for e in result["energies"].values()] +
                [result["forces"]["max_rel_diff"], result["torques"]["max_rel_diff"]])
    result["worst_rel_diff"] = worst
    result["tolerance"] = TOLERANCE
    result["agree"] = worst <= TOLERANCE
    return result


def lammps_nve(d: dict, work: Path, lmp: str, h: float, steps: int, every: int, reps: int) -> dict:
    log = lammps(lmp, work, nve_input(d, h, steps, every), "nve")
    table = thermo_table(log)
    energy = table[:, 1] + table[:, 2] + table[:, 3]
    times = [loop_seconds(lammps(lmp, work, nve_input(d, h, steps, steps), f"timed{k}")) for k in range(reps)]
    e0 = energy[0]
    return {"t": (table[:, 0] * h).tolist(), "energy_rel_err": ((energy - e0) / abs(e0)).tolist(),
            "energy_initial": float(e0), "loop_seconds": times, "ns_per_step": statistics.median(times) / steps * 1e9}


def drift(series: dict) -> dict:
    """Max and final relative error, its RMS, and the least-squares slope per unit time (a drift, if any)."""
    t, e = np.array(series["t"], dtype=float), np.array(series["energy_rel_err"], dtype=float)
    return {"energy_rel_err_max_abs": float(np.abs(e).max()), "energy_rel_err_final": float(e[-1]),
            "energy_rel_err_rms": float(np.sqrt(np.mean(e**2))), "energy_rel_err_slope": float(np.polyfit(t, e, 1)[0])}


# ---------------------------------------------------------------------------------------------------------
# Output


def plot_module():
    """plots/gibench_plot.py: the figure style and the one atomic, link-refusing file writer."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "plots"))
    import gibench_plot
    return gibench_plot


def plot(ours: dict, theirs: dict, h: float, path: Path) -> None:
    gp = plot_module()
    plt = gp.plt
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    ax.plot(theirs["t"], theirs["energy_rel_err"], lw=0.9, label="LAMMPS nve/sphere update dipole/dlm")
    ax.plot(ours["t"], ours["energy_rel_err"], lw=0.9, ls="--", label="gibench dlm2")
    ax.set_xlabel("t (LJ time units)")
    ax.set_ylabel("(E(t) - E0) / |E0|")
    ax.set_title(f"Energy error, lammps_compatible (N = 32), h = {h:g}")
    ax.legend(loc="best", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    gp.save(fig, str(path))


def nve_row(code: str, integrator: str, r: dict) -> str:
    return (f"| {code} | {integrator} | {r['ns_per_step'] / 1e3:.2f} | {r['energy_rel_err_max_abs']:.3e} | "
            f"{r['energy_rel_err_final']:.3e} | {r['energy_rel_err_rms']:.3e} | {r['energy_rel_err_slope']:.2e} |")


def markdown(doc: dict) -> str:
    s, n = doc["static"], doc["nve"]
    e = s["energies"]
    lines = ["# LAMMPS cross-check: dipolar spheres (preset lammps_compatible)", "",
             f"LAMMPS {doc['lammps_version']} against gibench ({doc['gibench_commit'][:12]}), {doc['cpu']}. "
             "Generated by `scripts/lammps_crosscheck.py`.", "",
             "## One force evaluation (`run 0`)", "",
             "| quantity | gibench (long double) | LAMMPS | max relative difference |", "|---|---|---|---|",
             f"| potential energy | {e['potential']['gibench']:.15g} | {e['potential']['lammps']:.15g} | {e['potential']['rel_diff']:.2e} |",
             f"| kinetic energy (translation + rotation) | {e['kinetic']['gibench']:.15g} | {e['kinetic']['lammps']:.15g} | {e['kinetic']['rel_diff']:.2e} |",
             f"| total energy | {e['total']['gibench']:.15g} | {e['total']['lammps']:.15g} | {e['total']['rel_diff']:.2e} |",
             f"| forces (largest {s['forces']['scale']:.3g}) | | | {s['forces']['max_rel_diff']:.2e} (per atom {s['forces']['max_per_atom_rel_diff']:.2e}) |",
             f"| torques, space frame (largest {s['torques']['scale']:.3g}) | | | {s['torques']['max_rel_diff']:.2e} (per atom {s['torques']['max_per_atom_rel_diff']:.2e}) |",
             "", f"Tolerance {s['tolerance']:g}: **{'agree' if s['agree'] else 'DISAGREE'}** "
             f"(worst {s['worst_rel_diff']:.2e}). Forces and torques are relative to the largest of their kind.", "",
             f"## NVE, h = {n['h']:g}, {n['steps']} steps (T = {n['h'] * n['steps']:g})", "",
             "| code | integrator | time per step (µs, median) | max \\|ΔE/E0\\| | final ΔE/E0 | RMS ΔE/E0 | "
             "slope of ΔE/E0 per unit time |", "|---|---|---|---|---|---|---|",
             nve_row("LAMMPS", "nve/sphere update dipole/dlm", n["lammps"]),
             nve_row("gibench", "dlm2", n["gibench"]),
             "", f"Time per step, gibench / LAMMPS: {n['time_ratio_gibench_over_lammps']:.2f}. "
             f"Energies sampled every {n['every']} steps; timings are the median of {n['reps']} runs without output "
             "(LAMMPS: 'Loop time'; gibench: its timing pass). Both are the same splitting family "
             "(kick, free rotation of the dipole, drift, kick); differences in the drift are reported, not asserted.",
             "", "![energy error](energy_drift.png)", ""]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gibench", default=str(ROOT / "build" / "gibench"))
    ap.add_argument("--lmp", default=None, help="LAMMPS binary (default: lmp_serial or lmp on PATH)")
    ap.add_argument("--preset", default="lammps_compatible")
    ap.add_argument("--set", dest="sets", action="append", default=[], help="problem override key=value (repeatable)")
    ap.add_argument("--h", type=float, default=0.002)
    ap.add_argument("--steps", type=int, default=100000)
    ap.add_argument("--every", type=int, default=100, help="energy sample interval in steps")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--out-dir", default=str(ROOT / "results" / "lammps"))
    args = ap.parse_args()
    lmp = args.lmp or shutil.which("lmp_serial") or shutil.which("lmp")
    try:
        if not lmp:
            raise SetupError("LAMMPS not found (apt-get install -y lammps)")
        if args.steps % args.every != 0:
            raise SetupError("--steps must be a multiple of --every")
        d = gibench_dump(args.gibench, args.preset, args.sets)
        with tempfile.TemporaryDirectory(prefix="gibench-lammps-") as tmp:
            work = Path(tmp)
            write_data(d, work / "system.data")
            static = static_comparison(d, work, lmp)
            theirs = lammps_nve(d, work, lmp, args.h, args.steps, args.every, args.reps)
            ours = gibench_nve(args.gibench, args.preset, args.sets, args.h, args.steps, args.every, args.reps, work)
    except SetupError as e:
        print(f"lammps_crosscheck: error: {e}", file=sys.stderr)
        return 2
    nve = {"h": args.h, "steps": args.steps, "every": args.every, "reps": args.reps,
           "lammps": {**drift(theirs), "ns_per_step": theirs["ns_per_step"], "loop_seconds": theirs["loop_seconds"],
                      "energy_initial": theirs["energy_initial"], "t": theirs["t"], "energy_rel_err": theirs["energy_rel_err"]},
           "gibench": {**drift(ours), "ns_per_step": ours["ns_per_step"], "timing": ours["timing"],
                       "energy_initial": ours["energy_initial"], "t": ours["t"], "energy_rel_err": ours["energy_rel_err"]}}
    nve["time_ratio_gibench_over_lammps"] = ours["ns_per_step"] / theirs["ns_per_step"]
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    doc = {"schema_version": 1, "kind": "gibench.lammps_crosscheck", "lammps_version": lammps_version(lmp),
           "lammps_binary": lmp, "gibench_manifest": ours["manifest"],
           "gibench_commit": ours["manifest"].get("git_commit", "unknown"),
           "cpu": ours["manifest"].get("cpu_model", platform.processor()), "preset": args.preset,
           "overrides": args.sets, "system": {k: d[k] for k in ("N", "mass", "inertia", "mu_bar", "sigma", "epsilon", "short_range")},
           "lammps_sphere": dict(zip(("diameter", "density"), sphere_geometry(d))),
           "static": static, "nve": nve}
    plot(ours, theirs, args.h, out / "energy_drift.png")
    gp = plot_module()
    gp.replace_file(str(out / "crosscheck.json"), (json.dumps(doc, indent=1) + "\n").encode())
    gp.replace_file(str(out / "crosscheck.md"), markdown(doc).encode())
    print(markdown(doc))
    if not static["agree"]:
        print(f"lammps_crosscheck: energies/forces/torques differ by {static['worst_rel_diff']:.2e} > {TOLERANCE:g}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except plot_module().GibenchError as e:  # a link or non-regular file where an output goes: refused, one line
        sys.stderr.write(f"lammps_crosscheck: error: {e}\n")
        sys.exit(2)
