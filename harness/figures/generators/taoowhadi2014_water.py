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


LOCAL = [2.0, 8.0]
LOCAL_WHY = ("Compared on O-O distances in [2, 8) A, the first and second shells: the lattice start holds about 100 "
             "kcal/mol more than the relaxed cluster, the heat boils a few molecules off, and where they fly differs from "
             "seed to seed, so over the whole range the seeds' spread leaves the test powerless (a shift of 6 A "
             "undetected on the committed run); the local structure is what an RDF figure shows.")


def agreement(fig, what, n, T, burn_in, seeds):
    local = n > 7
    c = {"kind": "distribution_agreement",
            "statement": "the O-O radial distributions of SHAKE and Integrator 5 (both with GLA) agree: N = %d, %s" % (n, what),
            "source": SRC + ", Figure %d and section 4.3" % fig, "distribution": "oo_distance",
            "where": {"method": "gla_zs_stiff"}, "reference": {"method": "gla_rattle"},
            "paper_value": "agree", "at_least": ALPHA,
            "reason": "%d seeds per method, T = %g, histograms from t = %g on; an exact permutation test of the seeds at "
                      "alpha = %g (the figure's notes)." % (len(seeds), T, burn_in, ALPHA) + (" " + LOCAL_WHY if local else "")}
    if local:
        c["values_in"] = LOCAL
    return c


def figure(fid, fig, n, preset, T, burn_in, seeds, default, title, extra_notes, xlim):
    return {"id": fid, "title": title, "source": SRC + ", Figure %d and section 4.3" % fig, "default": default,
            "notes": COMMON + extra_notes,
            "sweeps": [sweep(fid.split("-", 1)[1], preset, seeds, T, burn_in)],
            "plots": [dict({"type": "histogram", "distribution": "oo_distance", "file": fid + ".png", "xlabel": "O-O distance r (A)",
                            "title": "%s: O-O distances, N = %d, T = %g, %d seeds per method" % (title.split(":")[0], n, T, len(seeds))},
                           **({"xlim": xlim} if xlim else {}))],
            "checks": [agreement(fig, "T = %g" % T, n, T, burn_in, seeds)]}


figs = [
    figure("taoowhadi2014-fig4", 4, 7, "n7", 10000, 1000, list(range(1, 9)), False,
           "Tao-Owhadi Fig 4: O-O radial distribution of the 7-water cluster, SHAKE vs Integrator 5 with GLA, T = 10000",
           ["The paper's run: N = 7, T = 10000 (200 000 steps) per seed, 8 seeds per method, burn-in 1000 (the paper "
            "states none). Opt-in: `gibench reproduce taoowhadi2014-fig4` (wall time in the README).",
            "Measured on the committed run (2026-11-26): the first-shell (r < 3.2 A) mean O-O distance is 2.713 +- 0.006 A "
            "with Integrator 5 and 2.738 +- 0.004 A with SHAKE (mean and standard error over the 8 seeds), a difference of "
            "0.024 A, 3.3 standard errors: the penalised-against-constrained difference the spec anticipates (4.3, "
            "Fixman-type corrections; the flexible O-H bonds let the hydrogen bonds shorten), half a bin, which the KS "
            "test over the whole distribution does not separate at alpha = 0.01 (p = 0.13)"],
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
            "`gibench reproduce taoowhadi2014-fig7` (wall time in the README)."], None),
    figure("taoowhadi2014-fig7-fast", 7, 100, "n100", 25, 5, list(range(1, 6)), True,
           "Tao-Owhadi Fig 7 (fast): O-O distances of the 100-water cluster, SHAKE vs Integrator 5 with GLA, T = 25",
           ["The fast variant of taoowhadi2014-fig7 in the default set: T = 25 (500 steps) per seed, 5 seeds per method, "
            "histograms from t = 5: the first moments of the lattice's relaxation, the same statement on a transient.",
            "Over the whole range (not only [2, 8) A) the two groups differ in this transient: p = 0.0079, the smallest "
            "5 + 5 seeds can give, from the long-distance tail. At T = 25 the penalised runs have given up less of the "
            "lattice's heat (energy -12.8 +- 1.5 kcal/mol against SHAKE's -36.5 +- 1.1, mean and standard error over the "
            "seeds; Integrator 5 gains energy without a thermostat too, taoowhadi2014-fig6), and the hotter clusters "
            "spread their evaporating molecules differently (measured on the committed run, 2026-11-26)."],
           None),
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

# The paper's timings (spec 4.3 "Timings [PAPER]"), Matlab seconds of its Langevin runs: ours are ratios and shares of
# our own median times (timing pass; the split from the clocked repetitions, results/SCHEMA.md "Timing").
TIMING_TOL = ("The paper's seconds are Matlab (fsolve) on a 2008 laptop, ours C++ on the machine in the manifest: an "
              "'about' claim gets a factor 1.5 (README, Verdicts), and a share a factor 1.5 on either side.")
FSOLVE_DEV = ("The paper's SHAKE solves all 3N multipliers with Matlab's fsolve (tolerances 1e-6 / 1e-10), whose nonlinear "
              "solves cost 91 % of its run at N = 7; ours, even in the global form that mimics it, is one Newton iteration "
              "or two on an analytic Jacobian in C++, so the solve's share and SHAKE's cost against Integrator 5 shrink "
              "(spec 4.3: 'a C++ SHAKE with per-molecule 3x3 Newton will be far cheaper than Matlab fsolve').")
RATTLE_GLOBAL = {"id": "gla_rattle", "params": {"seed": 1, "multiplier_solve": "global"}}


def wall(cid, where, paper_seconds, fig_what):
    return {"kind": "wall_time", "id": cid, "statement": "%s: the run's wall time" % fig_what, "source": SRC + ", section 4.3",
            "where": where, "paper_value": "%g s" % paper_seconds, "paper_seconds": paper_seconds}


def ratio(statement, num, den, paper, deviation=None, method=None):
    c = {"kind": "ratio", "statement": statement, "source": SRC + ", section 4.3 (timings)", "numerator": num,
         "denominator": den, "paper_value": paper, "factor": 1.5, "tolerance_reason": TIMING_TOL,
         "direction": {"at_least": 1.0}}
    if deviation:
        c["deviation"] = deviation
    if method:
        c["method"] = method
    return c


def share(statement, where, of, paper, deviation=None):
    c = {"kind": "model_share", "statement": statement, "source": SRC + ", section 4.3 (timings)", "where": where, "of": of,
         "paper_value": round(paper, 3), "range": [round(paper / 1.5, 3), round(min(1.0, paper * 1.5), 3)],
         "tolerance_reason": TIMING_TOL}
    if deviation:
        c["deviation"] = deviation
    return c


def timing_sweep(name, preset, T, methods):
    return {"name": name, "problems": [{"problem": "water_cluster", "presets": [preset]}], "methods": methods,
            "h": [0.05], "T": T, "observe": {"reference": False, "ref_samples": 0}, "timing": {"reps": 3}}


N7 = {"problem": "water_cluster", "preset": "n7"}
N100 = {"problem": "water_cluster", "preset": "n100"}
I5 = {"method": "gla_zs_stiff"}
SHAKE_BLOCK = {"method": "gla_rattle", "method_params": {"multiplier_solve": "block"}}
SHAKE_GLOBAL = {"method": "gla_rattle", "method_params": {"multiplier_solve": "global"}}
timing = {
    "id": "taoowhadi2014-water-timing", "default": True,
    "title": "Tao-Owhadi 4.3 timings: SHAKE against Integrator 5 on 7 and 100 waters with GLA, and where the time goes",
    "source": SRC + ", section 4.3",
    "notes": [
        "The paper's Langevin runs (N = 7, T = 10000; N = 100, T = 1000) in Matlab: SHAKE 13472 s of which 12284 s "
        "nonlinear solves, Integrator 5 1549 s of which 67 s linear solves (N = 7); SHAKE 42234 s of which 14272 s solves "
        "and about 28000 s V and grad V, Integrator 5 30059 s of which 319 s linear solves and about 29000 s V, grad V "
        "and Hess V (N = 100). Ours: T = 50 at N = 7 and T = 2.5 at N = 100 (1000 and 50 steps of h = 0.05), seed 1, "
        "3 timing repetitions, the same ratios and shares.",
        "SHAKE runs in two forms: multiplier_solve 'block' (each molecule's 3 multipliers by their own 3x3 Newton, the "
        "C++ way) and 'global' (one Newton on all 3N multipliers with a dense Jacobian, which mimics the paper's fsolve; "
        "at N = 7 only: at N = 100 it costs a 300 x 300 factorisation per iteration).",
        "'Inside the model' is V, grad V and the Hessians (the penalty's included); the rest is the multiplier or linear "
        "solves, the constraint Jacobians and the method's own arithmetic, GLA's noise included.",
    ],
    "sweeps": [timing_sweep("timing-n7", "n7", 50, [{"id": "gla_zs_stiff", "params": {"seed": 1}},
                                                    {"id": "gla_rattle", "params": {"seed": 1, "multiplier_solve": "block"}},
                                                    RATTLE_GLOBAL]),
               timing_sweep("timing-n100", "n100", 2.5, [{"id": "gla_zs_stiff", "params": {"seed": 1}},
                                                         {"id": "gla_rattle", "params": {"seed": 1, "multiplier_solve": "block"}}])],
    "plots": [],
    "checks": [
        wall("w7_i5", dict(N7, **I5), 1549, "Integrator 5, N = 7"),
        wall("w7_shake", dict(N7, **SHAKE_GLOBAL), 13472, "SHAKE (global Newton, as the paper's fsolve), N = 7"),
        wall("w7_shake_block", dict(N7, **SHAKE_BLOCK), 13472, "SHAKE (per-molecule Newton), N = 7"),
        wall("w100_i5", dict(N100, **I5), 30059, "Integrator 5, N = 100"),
        wall("w100_shake", dict(N100, **SHAKE_BLOCK), 42234, "SHAKE (per-molecule Newton), N = 100"),
        ratio("N = 7: SHAKE takes 8.7 times as long as Integrator 5 (13472 s against 1549 s)", "w7_shake", "w7_i5", 13472 / 1549,
              deviation=FSOLVE_DEV, method="gla_rattle"),
        {"kind": "ratio", "statement": "(gibench) N = 7: SHAKE with per-molecule Newton against Integrator 5 (the run's "
         "wall time over Integrator 5's)", "source": "Tao-Owhadi spec 4.3 (timings)", "numerator": "w7_shake_block",
         "denominator": "w7_i5", "report": True, "posed_by": "gibench"},
        ratio("N = 100: SHAKE takes 1.4 times as long as Integrator 5 (42234 s against 30059 s)", "w100_shake", "w100_i5",
              42234 / 30059, deviation=FSOLVE_DEV, method="gla_rattle"),
        share("N = 7: nonlinear solves are 91 % of SHAKE's time (12284 of 13472 s)", dict(N7, **SHAKE_GLOBAL), "rest",
              12284 / 13472, deviation=FSOLVE_DEV),
        share("N = 7: linear solves are 4.3 % of Integrator 5's time (67 of 1549 s)", dict(N7, **I5), "rest", 67 / 1549,
              deviation="Our 'rest' is everything outside V, grad V and the Hessians: the 9 x 9 block solves, GLA's "
                        "noise (a hash and a logarithm per coordinate) and the step's vector arithmetic, which at N = 7 "
                        "cost about as much as the pair loop of 21 molecule pairs; the paper counts the linear solves alone."),
        share("N = 100: V and grad V are about 66 % of SHAKE's time (28000 of 42234 s)", dict(N100, **SHAKE_BLOCK), "model",
              28000 / 42234),
        share("N = 100: V, grad V and Hess V are about 96 % of Integrator 5's time (29000 of 30059 s): force evaluation "
              "dominates for large N", dict(N100, **I5), "model", 29000 / 30059),
    ],
}
figs.append(timing)

for f in figs:
    with open(OUT + f["id"] + ".json", "w") as out:
        json.dump(f, out, indent=1)
        out.write("\n")
print("ok", [f["id"] for f in figs])
