#!/usr/bin/env python3
"""Writes harness/figures/taoowhadi2014-fig4*.json and -fig7*.json: the water cluster's Langevin runs (Tao & Owhadi
2014 4.3, Figs 4 and 7), whose claim is about sampled distributions: the O-O radial distributions of SHAKE + GLA and
Integrator 5 + GLA agree. Each figure has the paper's run (opt-in: `gibench reproduce taoowhadi2014-fig4`) and a fast
variant in the default set that keeps the statement at a shorter T. Run with /usr/bin/python3 from this directory.
"""
import json
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..") + "/"
SRC = "Tao & Owhadi 2014"
GLA_METHODS = ("gla_zs_stiff", "gla_rattle")
ALPHA = 0.01

COMMON = [
    "Rigid TIP3P waters (problem water_cluster), omega = 20, h = 0.05 for both methods, the GLA thermostat at the "
    "paper's friction 0.01 and inverse temperature 50 (about 10 K), spec 4.3. Integrator 5 is gla_zs_stiff (Newmark "
    "beta = 0.4 on the penalised model), SHAKE is gla_rattle (constrained). The paper gives no initial condition: ours "
    "is the spec's assumed recipe (compact lattice, random orientations, Maxwell-Boltzmann velocities at beta = 50 "
    "projected to the constraints), the same for every run; the runs differ by the thermostat's seed only.",
    "With the constraints enforced, GLA's Ornstein-Uhlenbeck flow decays every coordinate at one rate, friction / m_h "
    "with m_h the harmonic mean of the masses (1.47 amu for water), instead of the paper's per-atom friction / m: only "
    "a uniform decay commutes with the velocity projection and keeps the constrained Maxwell-Boltzmann distribution "
    "(the per-atom form measured T_kin beta = 0.952 +- 0.009 on the battery's cluster; methods/gla/gla.cpp). The two "
    "methods therefore thermalise at slightly different rates; the distributions they sample are the same.",
    "The comparison: each seed's run is one histogram of all N(N-1)/2 O-O distances at every step after the burn-in "
    "(bins of 0.05 A, spec 4.3 [ASSUMPTION]); the two methods' groups of seeds are compared by the Kolmogorov-Smirnov "
    "distance of their pooled histograms, with an exact permutation test over the seeds (the runs are the independent "
    "units, not the autocorrelated samples of one run). The statement is reproduced when p >= %g; the row states "
    "the smallest shift of every distance the same test would reject (its power)." % ALPHA,
    "The spec expects small systematic differences between the penalised and the constrained measures (Fixman-type "
    "corrections, spec 4.3); none is visible at these numbers of seeds (the power row says how large a difference "
    "would be).",
]


def sweep(name, preset, seeds, T, burn_in):
    return {"name": name, "problems": [{"problem": "water_cluster", "presets": [preset]}],
            "methods": [{"id": m, "params": {"seed": s}} for m in GLA_METHODS for s in seeds],
            "h": [0.05], "T": T,
            "observe": {"reference": False, "ref_samples": 0, "quantities_after": burn_in,
                        "distributions": ["oo_distance"]}}


def agreement(fig, what, n, T, burn_in, seeds):
    return {"kind": "distribution_agreement",
            "statement": "the O-O radial distributions of SHAKE and Integrator 5 (both with GLA) agree: N = %d, %s" % (n, what),
            "source": SRC + ", Figure %d and section 4.3" % fig, "distribution": "oo_distance",
            "where": {"method": "gla_zs_stiff"}, "reference": {"method": "gla_rattle"},
            "paper_value": "agree", "at_least": ALPHA,
            "reason": "%d seeds per method, T = %g, histograms from t = %g on; an exact permutation test of the seeds at "
                      "alpha = %g (the figure's notes)." % (len(seeds), T, burn_in, ALPHA)}


def figure(fid, fig, n, preset, T, burn_in, seeds, default, title, extra_notes, xlim):
    return {"id": fid, "title": title, "source": SRC + ", Figure %d and section 4.3" % fig, "default": default,
            "notes": COMMON + extra_notes,
            "sweeps": [sweep(fid.split("-", 1)[1], preset, seeds, T, burn_in)],
            "plots": [{"type": "histogram", "distribution": "oo_distance", "file": fid + ".png", "xlabel": "O-O distance r (A)",
                       "xlim": xlim,
                       "title": "%s: O-O distances, N = %d, T = %g, %d seeds per method" % (title.split(":")[0], n, T, len(seeds))}],
            "checks": [agreement(fig, "T = %g" % T, n, T, burn_in, seeds)]}


figs = [
    figure("taoowhadi2014-fig4", 4, 7, "n7", 10000, 1000, list(range(1, 9)), False,
           "Tao-Owhadi Fig 4: O-O radial distribution of the 7-water cluster, SHAKE vs Integrator 5 with GLA, T = 10000",
           ["The paper's run: N = 7, T = 10000 (200 000 steps) per seed, 8 seeds per method, burn-in 1000 (the paper "
            "states none). Opt-in: `gibench reproduce taoowhadi2014-fig4` (wall time in the README).",
            "Measured on the committed run (2026-11-26): the first-shell (r < 3.2 A) mean O-O distance is 2.713 +- 0.006 A "
            "with Integrator 5 and 2.730 +- 0.004 A with SHAKE (mean and standard error over the 8 seeds), a difference of "
            "0.017 A, 2.2 standard errors: the penalised-against-constrained difference the spec anticipates (4.3, "
            "Fixman-type corrections), a sixth of a bin and below what the test separates at alpha = 0.01 (p = 0.013)."],
           [2.0, 9.0]),
    figure("taoowhadi2014-fig4-fast", 4, 7, "n7", 500, 100, list(range(1, 6)), True,
           "Tao-Owhadi Fig 4 (fast): O-O distances of the 7-water cluster, SHAKE vs Integrator 5 with GLA, T = 500",
           ["The fast variant of taoowhadi2014-fig4 in the default set: T = 500 (10 000 steps), 5 seeds per method "
            "(the fewest for which the permutation test can reject at alpha = 0.01), histograms from t = 100. The "
            "cluster is still cooling from the lattice start (its energy relaxes over the OU time m / friction), so this "
            "compares the two methods' transients as well as their equilibria."], [2.0, 9.0]),
    figure("taoowhadi2014-fig7", 7, 100, "n100", 1000, 100, list(range(1, 6)), False,
           "Tao-Owhadi Fig 7: O-O radial distribution of the 100-water cluster, SHAKE vs Integrator 5 with GLA, T = 1000",
           ["The paper's run: N = 100, T = 1000 (20 000 steps) per seed, 5 seeds per method, burn-in 100. Opt-in: "
            "`gibench reproduce taoowhadi2014-fig7` (wall time in the README)."], [2.0, 20.0]),
    figure("taoowhadi2014-fig7-fast", 7, 100, "n100", 25, 5, list(range(1, 6)), True,
           "Tao-Owhadi Fig 7 (fast): O-O distances of the 100-water cluster, SHAKE vs Integrator 5 with GLA, T = 25",
           ["The fast variant of taoowhadi2014-fig7 in the default set: T = 25 (500 steps) per seed, 5 seeds per method, "
            "histograms from t = 5: the first moments of the lattice's relaxation, the same statement on a transient."],
           [2.0, 20.0]),
]


def follows(k, h, paper):
    """Fig 2b's criterion for the same eq. (8) claim: relative RMS distance at most 0.15 over the run."""
    c = {"kind": "series_compare", "id": "avg%d_h%g" % (k, h),
         "statement": ("lambda_%d (molecule 1's %s O-H bond): the windowed (0.2) average of -omega^2 g_%d of the penalised "
                       "run at omega = 500 follows SHAKE's multiplier%s") % (
                           k, "first" if k == 1 else "second", k, "" if paper else ", h = %g (the fast bonds resolved)" % h),
         "source": SRC + ", Figure 5 and eq. (8)" if paper else "Tao-Owhadi spec 4.3, eq. (8)",
         "subject": {"where": {"method": "zs_stiff", "h": h}, "series": "omega2_g%d" % k, "scale": -1.0, "window": 0.2},
         "reference": {"where": {"method": "rattle", "h": h}, "series": "lambda_%d" % k, "lag_samples": 1 if paper else 0},
         "skip_t": 0.1, "paper_value": "follows" if paper else None, "at_most": 0.15,
         "reason": "Relative RMS distance over t in [0.1, %g]; 0.15 is the bound of the same claim on the double pendulum "
                   "(taoowhadi2014-fig2, Fig 2b)." % (FIG5_T - 0.1)}
    if paper:
        c["expected_verdict"] = "refuted"
        c["deviation"] = (
            "At the spec's assumed h = 0.05 (the paper gives no step for Fig 5) the O-H penalty at omega = 500 oscillates "
            "at h omega ~ 49 and Integrator 5 does not average it: -omega^2 g_1 has mean -438 and spread 388 against "
            "SHAKE's -15.4 over T = 5, its energy error reaches 0.58, and the run blows up at t = 6.9. The estimate "
            "converges as the bonds are resolved (mean -23.6 at h = 0.005, -15.5 at h = 0.0005, against SHAKE's -15.44 at "
            "every h): eq. (8) holds for the penalised flow, which Integrator 5 at h = 0.05 does not follow; the gibench "
            "checks below hold it at h = 0.0005.")
    else:
        c["posed_by"] = "gibench"
        c["reason"] += (" Both runs are sampled every 10 steps (h = 0.0005: every 0.005 against the bonds' period of 0.0064), "
                        "so each window averages 40 samples of the aliased oscillation; SHAKE's Lambda_k is sampled at "
                        "the end of the sampled step, 0.0005 after its own time, a lag far below the window.")
    return c


FIG5_T = 5
FIG5_H = (0.05, 0.0005)
fig5 = {
    "id": "taoowhadi2014-fig5", "default": True,
    "title": "Tao-Owhadi Fig 5: SHAKE's multipliers of the 7-water cluster against the penalised run's omega^2 g at omega = 500",
    "source": SRC + ", Figure 5 and section 4.3",
    "notes": [
        "N = 7 rigid TIP3P waters, deterministic (no thermostat), the penalty raised to omega = 500 for Integrator 5 "
        "(zs_stiff); SHAKE (rattle) runs the constrained system from the same initial state (the spec's seeded recipe). "
        "The paper's run 'terminated before chaos' at an unstated T and states no step: ours is T = %g at h = 0.05 "
        "[spec 4.3 ASSUMPTION: unchanged], and at h = 0.0005, where the O-H bonds (period 0.0064) are resolved." % FIG5_T,
        "The paper shows 'only the 1st oxygen atom'; which quantity is ambiguous (spec 4.3 [ASSUMPTION]). We compare the "
        "multipliers of molecule 1's two O-H bonds (constraints 1 and 2, which act on its oxygen): SHAKE's lambda_k "
        "against the estimate -omega^2 g_k of eq. (8), averaged over a window of 0.2 as the paper says.",
    ],
    "sweeps": [{"name": "fig5", "problems": [{"problem": "water_cluster", "presets": ["n7"], "overrides": [{"omega": 500}]}],
                "methods": ["zs_stiff", "rattle"], "h": list(FIG5_H), "T": FIG5_T,
                "observe": {"reference": False, "series_points": int(FIG5_T / 0.005)}}],
    "plots": [{"type": "invariant_time", "quantities": [["omega2_g1", "lambda_1"], ["omega2_g2", "lambda_2"]],
               "scale": {"omega2_g1": -1, "omega2_g2": -1}, "signed": True, "where": {"h": h},
               "file": "taoowhadi2014-fig5-h%g.png" % h,
               "title": "Tao-Owhadi Fig 5, h = %g: molecule 1's O-H multipliers, SHAKE's lambda and Integrator 5's "
                        "-omega^2 g at omega = 500" % h} for h in FIG5_H],
    "checks": [follows(k, h, h == 0.05) for h in FIG5_H for k in (1, 2)],
}
figs.append(fig5)
# Fig 7 (N = 100) waits for SHAKE's per-molecule multiplier solve: the dense Newton on 300 multipliers costs 0.12 s a
# step at N = 100, five minutes for the fast variant's ten runs.
figs = [f for f in figs if "fig7" not in f["id"]]

for f in figs:
    with open(OUT + f["id"] + ".json", "w") as out:
        json.dump(f, out, indent=1)
        out.write("\n")
print("ok", [f["id"] for f in figs])
