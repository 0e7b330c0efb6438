#!/usr/bin/env python3
"""Writes harness/figures/taoowhadi2014-*.json from Tao & Owhadi 2014 and its spec (sections 4, 5, 7, 8).

The paper's figures are lost in the source text (only captions survive) and it prints no error values, so every
check is one of its statements (spec 5) or a finding of the spec's prototype (spec 8, marked "(gibench)"), judged
on our own runs. The paper's timings are Matlab (fsolve) seconds: they are reproduced as ratios of our own
measured times, printed next to the paper's ratio; the verdict judges only the direction the paper claims.
Run with /usr/bin/python3 from this directory; the JSON files are committed.
"""
import json
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..") + "/"
SRC = "Tao & Owhadi 2014"
COMMON = [
    "Gravity sign fixed to V = +g sum y (spec 4.1 [FIX], A2): as printed the bobs start at the potential maximum of an "
    "inverted pendulum and every method departs from the benchmark within t = 1.5-6. Newmark beta = 0.4, gamma = 1/2 "
    "(spec 4) unless stated.",
    "The paper prints no error values; the numbers in the reasons are the spec prototype's (spec 8), not the paper's. "
    "Timings: the paper's are Matlab 7.7 seconds with fsolve on a 2.4 GHz Core 2 Duo and only qualitative (spec 4); "
    "ours are median wall times of whole runs on this machine, compared as ratios.",
]
DP = {"problem": "double_pendulum", "presets": ["taoowhadi2014"]}
CONSTRAINED = {"reference": "constrained"}


def nm1(guess):
    return {"id": "newmark_1iter", "params": {"guess": guess}}


def wall(cid, statement, where, paper_seconds, fig):
    return {"kind": "wall_time", "id": cid, "statement": statement, "source": SRC + ", " + fig, "where": where,
            "paper_value": "%g s" % paper_seconds, "paper_seconds": paper_seconds}


TIMING_TOL = ("An 'about' claim gets a factor 1.5 (README, Verdicts); the paper's seconds are Matlab 7.7 with fsolve on a "
              "2.4 GHz Core 2 Duo, ours C++ on the machine in the manifest.")
TIMING_DEV = ("The paper's times are Matlab/fsolve, where a nonlinear solve (SHAKE, full Newmark) costs far more relative to one "
              "linear solve (Z&S) than in compiled C++ with analytic Jacobians; the direction holds, the factor shrinks.")


def time_ratio(statement, fig, num, den, paper, method, why, deviation=TIMING_DEV):
    """Ratio of two wall_time checks: the paper's factor within 1.5, its direction (num slower than den) below that."""
    c = {"kind": "ratio", "statement": statement, "source": SRC + ", " + fig, "numerator": num, "denominator": den,
         "paper_value": paper, "factor": 1.5, "tolerance_reason": TIMING_TOL, "direction": {"at_least": 1.0},
         "method": method, "reason": why}
    if deviation:
        c["deviation"] = deviation
    return c


def bounded(statement, source, where, reason=None, posed_by=None, expect="bounded", **extra):
    """A stability or boundedness claim, judged on the run's energy behaviour (bounded / drift / blow-up), not its status."""
    c = {"kind": "energy_behaviour", "statement": statement, "source": source, "where": where, "expect": expect,
         "paper_value": expect}
    if reason:
        c["reason"] = reason
    if posed_by:
        c["posed_by"] = posed_by
    c.update(extra)
    return c


# ---------------------------------------------------------------------------------------------- Figure 1
F1 = "Figure 1 and section 4.1"
fig1_obs = {"ref_samples": 500, "series_points": 500, "series_state_err": True}
fig1 = {
    "id": "taoowhadi2014-fig1",
    "title": "Tao-Owhadi Fig 1: penalised double pendulum (omega = 20), errors of x2, y2 against the constrained benchmark",
    "source": SRC + ", " + F1 + " (spec 4.1, 7 E1, 8.1)",
    "default": True,
    "notes": COMMON + [
        "Rows as the spec reads the caption (spec 4.1): SHAKE = RATTLE on the constrained system (h = 0.1), variational "
        "Euler = velocity Verlet on the penalised system (h = 0.005), Newmark with a full Newton solve, Newmark with one "
        "Newton iteration from q_k (fsolve's natural start; the a_k and zero starts of spec 2.2 are shown too), Z&S and "
        "Z&Ss, all at h = 0.1, T = 50.",
        "Benchmark: the constrained motion in the rod angles (theta, phi), solved by odeint's RKF78 to 1e-13 (the paper's "
        "small-step variational Euler has no stated step; spec 4.1 [ASSUMPTION]). tip_err = |(x2, y2) - benchmark|.",
    ],
    "sweeps": [
        {"name": "fig1-h0.1", "problems": [dict(DP, overrides=[CONSTRAINED])],
         "methods": ["rattle", "newmark", nm1("q_k"), nm1("a_k"), nm1("zero"), "zs", "zss"],
         "h": [0.1], "T": 50, "observe": fig1_obs, "timing": {"reps": 5}},
        {"name": "fig1-verlet", "problems": [dict(DP, overrides=[CONSTRAINED])], "methods": ["velocity_verlet"],
         "h": [0.005], "T": 50, "observe": fig1_obs, "timing": {"reps": 5}},
    ],
    "plots": [
        {"type": "invariant_time", "quantities": ["tip_err", "energy_abs_err"], "file": "taoowhadi2014-fig1.png",
         "title": "Tao-Owhadi Fig 1: |(x2, y2) - benchmark| and |E - E0|, omega = 20"},
    ],
    "checks": [
        {"kind": "best", "statement": "SHAKE (h = 0.1) is the most accurate row: max |(x2, y2) error| over t <= 50",
         "source": SRC + ", " + F1, "where": {}, "metric": "tip_err_max", "expected": "rattle",
         "paper_value": "smallest error", "reason": "Spec prototype: 0.023, the resolved penalised run 0.024."},
        {"kind": "metric_ratio", "statement": "Z&S errors are small and almost identical to fully solved Newmark's",
         "source": SRC + ", " + F1, "metric": "tip_err_max", "numerator": {"method": "zs"},
         "denominator": {"method": "newmark"}, "paper_value": "almost identical", "range": [0.8, 1.25],
         "reason": "'Almost identical' read as within 25 % either way. Spec prototype: 0.097 against 0.104."},
        {"kind": "metric_ratio", "statement": "Z&S error > SHAKE error",
         "source": SRC + ", " + F1, "metric": "tip_err_max", "numerator": {"method": "zs"},
         "denominator": {"method": "rattle"}, "paper_value": "larger", "at_least": 1,
         "reason": "Spec prototype: 0.097 against 0.023."},
        {"kind": "metric_ratio", "method": "velocity_verlet", "id": "modelling_error",
         "statement": "... because of the finite-omega modelling error, which the well-resolved penalised run (variational "
                      "Euler, h = 0.005) exhibits: its error is comparable to Z&S's (so it explains Z&S's excess)",
         "source": SRC + ", " + F1, "metric": "tip_err_max", "numerator": {"method": "velocity_verlet"},
         "denominator": {"method": "zs"}, "paper_value": "comparable", "range": [0.5, 2],
         "tolerance_reason": "The modelling error explains Z&S's excess error only if it is of the same size: within a factor 2.",
         "reason": "Spec prototype: 0.024 against 0.097.",
         "expected_verdict": "refuted",
         "deviation": "The resolved penalised run's error (0.024) is a quarter of Z&S's (0.097) and as small as SHAKE's (0.023): at "
                      "omega = 20 the modelling error is not the cause. Z&S's excess error is its own h = 0.1 discretisation error: "
                      "against the penalised solution itself Z&S's tip error is 0.074 at h = 0.1 and 0.002 at h = 0.01."},
        {"kind": "metric_ratio",
         "statement": "Newmark with only the first Newton iteration has a large error (loss of symplecticity): over Z&S's",
         "source": SRC + ", " + F1, "metric": "tip_err_max",
         "numerator": {"method": "newmark_1iter", "method_params": {"guess": "q_k"}}, "denominator": {"method": "zs"},
         "paper_value": "large error", "at_least": 3, "reason": "Spec prototype: 0.645 against 0.097."},
        {"kind": "max", "statement": "(gibench) one Newton iteration from the warm start a_k: its error matches the spec "
                                      "prototype's", "posed_by": "gibench",
         "source": "Tao-Owhadi spec 2.2, 8.1", "where": {"method": "newmark_1iter", "method_params": {"guess": "a_k"}},
         "metric": "tip_err_max", "paper_value": None, "yardstick": 0.134, "rel_tol": 0.05,
         "reason": "Spec prototype: 0.134 (close to full Newmark's 0.104)."},
        {"kind": "max", "statement": "(gibench) one Newton iteration from a = 0 (Z&Ss in Newmark's variables) likewise",
         "posed_by": "gibench",
         "source": "Tao-Owhadi spec 2.2, 8.1", "where": {"method": "newmark_1iter", "method_params": {"guess": "zero"}},
         "metric": "tip_err_max", "paper_value": None, "yardstick": 0.168, "rel_tol": 0.05, "reason": "Spec prototype: 0.168."},
        {"kind": "metric_ratio", "statement": "(gibench) Z&Ss (no V''') is less accurate than Z&S at h = 0.1",
         "posed_by": "gibench", "source": "Tao-Owhadi spec 2.5, 8.1", "metric": "tip_err_max",
         "numerator": {"method": "zss"}, "denominator": {"method": "zs"}, "paper_value": None, "at_least": 1,
         "reason": "Spec prototype: 0.160 against 0.097."},
        bounded("(gibench) ... but stable at h = 0.1: bounded energy over t <= 50", "Tao-Owhadi spec 2.5, 8.1",
                {"method": "zss"}, posed_by="gibench"),
        bounded("Z&S (symplectic) keeps the energy error bounded over t <= 50", SRC + ", Theorem 1.1 and " + F1,
                {"method": "zs"}, reason="Spec prototype: |E - E0| 0.027-0.033 (E0 = -3)."),
        wall("t_rattle", "SHAKE run time (h = 0.1, T = 50)", {"method": "rattle"}, 3.8, F1),
        wall("t_verlet", "variational Euler on the penalised system (h = 0.005)", {"method": "velocity_verlet"}, 1.0, F1),
        wall("t_newmark", "Newmark, full nonlinear solve", {"method": "newmark"}, 5.3, F1),
        wall("t_newmark1", "Newmark, first Newton iteration only",
             {"method": "newmark_1iter", "method_params": {"guess": "q_k"}}, 0.2, F1),
        wall("t_zs", "Z&S", {"method": "zs"}, 0.4, F1),
        time_ratio("Z&S is about 10x faster than SHAKE: SHAKE's time over Z&S's", F1, "t_rattle", "t_zs", 9.5, "rattle",
                   "Paper: 3.8 s / 0.4 s."),
        time_ratio("... and about 13x faster than fully solved Newmark", F1, "t_newmark", "t_zs", 13.25, "newmark",
                   "Paper: 5.3 s / 0.4 s."),
        time_ratio("... and faster than variational Euler at the 20x smaller step its stability needs", F1, "t_verlet",
                   "t_zs", 2.5, "velocity_verlet", "Paper: 1.0 s / 0.4 s."),
        time_ratio("one-iteration Newmark is cheaper than Z&S: Z&S's time over its", F1, "t_zs", "t_newmark1", 2.0,
                   "newmark_1iter", "Paper: 0.4 s / 0.2 s (0.4 s / 2.6 s when the solver approximates Hess V).",
                   deviation="One Newton iteration and one Z&S step are each one linear solve with the Hessian; the paper's "
                             "factor 2 is Matlab's overhead per call, ours the cost of Z&S's extra V''' term."),
    ],
}

# ---------------------------------------------------------------------------------------------- Figure 2
F2 = "Figure 2 and section 4.1"
OMEGAS = [10, 50, 100, 200, 500, 1000]  # and 20, the preset, from the Fig 2b run
PROTO_2A = {10: 1.19, 20: 0.27, 50: 1.35, 100: 1.54, 200: 1.74, 500: 4.37, 1000: 10.9}
checks2 = []
for w in [10, 20, 50, 100, 200]:
    checks2.append({"kind": "max", "statement": "omega^2 |g(q(50))| stays O(1) as omega grows: omega = %d" % w,
                    "source": SRC + ", Figure 2a, Remark 6.1", "where": {"method": "zs", "params": {"omega": w}},
                    "metric": "omega2_g_norm_final", "paper_value": "O(1)", "at_most": 3,
                    "reason": "Spec prototype: %g." % PROTO_2A[w]})
for w in [500, 1000]:
    checks2.append({"kind": "min",
                    "statement": "(gibench) omega^2 |g(q(50))| grows once h omega >> 1 (unresolved fast scale): omega = %d" % w,
                    "source": "Tao-Owhadi spec 8.1 (E2a)", "where": {"method": "zs", "params": {"omega": w}},
                    "metric": "omega2_g_norm_final", "paper_value": None, "at_least": 3,
                    "reason": "Spec prototype: %g; h omega = %g. The paper's omega range is not stated." % (PROTO_2A[w], 0.01 * w)})
for i in (1, 2):
    side = {"where": {"method": "zs", "params": {"omega": 20}}, "series": "omega2_g%d" % i, "scale": -1.0}
    ref = {"where": {"method": "rattle"}, "series": "lambda_%d" % i, "lag_samples": 1}
    checks2.append({"kind": "series_compare", "id": "avg%d" % i,
                    "statement": "lambda_%d: the windowed (0.2) average of -omega^2 g_%d follows SHAKE's multiplier" % (i, i),
                    "source": SRC + ", Figure 2b, eq. (8)", "subject": dict(side, window=0.2), "reference": ref,
                    "skip_t": 0.1, "paper_value": "follows", "at_most": 0.15,
                    "reason": "Relative RMS distance over t in [0.1, 49.9]; SHAKE's Lambda_k at the start of each step."})
    checks2.append({"kind": "series_compare", "id": "raw%d" % i,
                    "statement": "... while the raw -omega^2 g_%d does not converge strongly (its distance, reported)" % i,
                    "source": SRC + ", Figure 2b", "subject": side, "reference": ref, "skip_t": 0.1, "report": True})
    checks2.append({"kind": "ratio", "statement": "... raw distance over windowed distance, lambda_%d" % i,
                    "source": SRC + ", Figure 2b", "numerator": "raw%d" % i, "denominator": "avg%d" % i,
                    "paper_value": "only 2-scale F-convergence", "at_least": 3})
fig2 = {
    "id": "taoowhadi2014-fig2",
    "title": "Tao-Owhadi Fig 2: Z&S (h = 0.01) on the double pendulum: omega^2 |g| against omega, and the multipliers",
    "source": SRC + ", " + F2 + " (spec 4.1, 7 E2a/E2b, 8.1)",
    "default": True,
    "notes": COMMON + [
        "(a) omega in {10, 20, 50, 100, 200} as the spec assumes, plus 500 and 1000 as its stress cases (the paper's "
        "range is not stated); T = 50. (b) omega = 20, Z&S and SHAKE (RATTLE) both at h = 0.01 (SHAKE's step is not "
        "stated; spec A8), every step recorded; lambda = -omega^2 g averaged over a centred window of width 0.2.",
    ],
    "sweeps": [
        {"name": "fig2a", "problems": [dict(DP, overrides=[{"omega": w} for w in OMEGAS])], "methods": ["zs"],
         "h": [0.01], "T": 50, "observe": {"reference": False}},
        {"name": "fig2b", "problems": [DP], "methods": ["zs", "rattle"], "h": [0.01], "T": 50,
         "observe": {"reference": False, "series_points": 5000}},
    ],
    "plots": [
        {"type": "invariant_time", "quantities": ["omega2_g1", "lambda_1"], "signed": True,
         "file": "taoowhadi2014-fig2b.png", "where": {"problem": "double_pendulum", "T": 50, "h": 0.01, "method": ["rattle"]},
         "title": "Tao-Owhadi Fig 2b: SHAKE's lambda_1 (the penalised run's omega^2 g_1 is in the JSON series)"},
    ],
    "checks": checks2,
}

# ---------------------------------------------------------------------------------------------- Figure 3
F3 = "Figure 3 and section 4.2"
CH = {"problem": "pendulum_chain", "presets": ["taoowhadi2014_n10"], "overrides": [CONSTRAINED]}
ch_obs = {"ref_samples": 500, "series_points": 500}
fig3 = {
    "id": "taoowhadi2014-fig3",
    "title": "Tao-Owhadi Fig 3: chain of 10 pendula, Z&S (h = 0.05) against SHAKE (h = 0.05, 0.025)",
    "source": SRC + ", " + F3 + " (spec 4.2, 7 E3, 8.2)",
    "default": True,
    "notes": COMMON + [
        "n = 10, x_i(0) = i, y_i(0) = -2i, L_i = sqrt 5, omega = 20, T = 50 (not stated; spec 4.2 assumes 20-50). The "
        "paper shows trajectories only ('no accurate benchmark'); gibench has one, the constrained motion in the rod "
        "angles (RKF78 to 1e-13), so the agreement is measured as max_coord_err, the largest coordinate error.",
    ],
    "sweeps": [
        {"name": "fig3-h0.05", "problems": [CH], "methods": ["zs", "rattle"], "h": [0.05], "T": 50, "observe": ch_obs,
         "timing": {"reps": 3}},
        {"name": "fig3-h0.025", "problems": [CH], "methods": ["rattle"], "h": [0.025], "T": 50, "observe": ch_obs,
         "timing": {"reps": 3}},
    ],
    "plots": [
        {"type": "invariant_time", "quantities": ["x5", "y5", "x10", "y10"], "signed": True, "file": "taoowhadi2014-fig3.png",
         "title": "Tao-Owhadi Fig 3: bobs 5 and 10, Z&S and SHAKE"},
    ],
    "checks": [
        {"kind": "max", "statement": "good agreement between the Z&S and SHAKE trajectories: Z&S's largest coordinate error",
         "source": SRC + ", " + F3, "where": {"method": "zs"}, "metric": "max_coord_err_max",
         "paper_value": "good agreement", "at_most": 0.1,
         "reason": "Spec prototype: Z&S (0.05) against RATTLE (0.025) 0.034 at T = 50."},
        {"kind": "max", "statement": "(gibench) SHAKE at h = 0.05 against the benchmark", "posed_by": "gibench",
         "source": "Tao-Owhadi spec 8.2",
         "where": {"method": "rattle", "h": 0.05}, "metric": "max_coord_err_max", "paper_value": None, "at_most": 0.02,
         "reason": "Spec prototype: RATTLE 0.05 against 0.025 differ by 0.0024."},
        bounded("(gibench) Z&S's energy error stays bounded", "Tao-Owhadi spec 8.2", {"method": "zs"},
                reason="Spec prototype: |E - E0| 0.006 (E0 = -110).", posed_by="gibench"),
        wall("t_rattle05", "SHAKE, h = 0.05", {"method": "rattle", "h": 0.05}, 8.1, F3),
        wall("t_rattle025", "SHAKE, h = 0.025", {"method": "rattle", "h": 0.025}, 16.5, F3),
        wall("t_zs05", "Z&S, h = 0.05", {"method": "zs"}, 1.1, F3),
        time_ratio("Z&S is about 7x faster than SHAKE at the same h", F3, "t_rattle05", "t_zs05", 8.1 / 1.1, "rattle",
                   "Paper: 8.1 s / 1.1 s; the paper's argument is that coupled constraints make SHAKE solve a nonlinear "
                   "system while Z&S solves one sparse linear system."),
        time_ratio("... and SHAKE at h = 0.025 about 15x", F3, "t_rattle025", "t_zs05", 16.5 / 1.1, "rattle",
                   "Paper: 16.5 s / 1.1 s."),
    ],
}

# ---------------------------------------------------------------------------------------------- Figure 8
F8 = "Figure 8 and section 4.4"
DNA = {"problem": "dna_torsion", "presets": ["taoowhadi2014"]}
zs03 = {"id": "zs", "params": {"beta": 0.3}}
zss03 = {"id": "zss", "params": {"beta": 0.3}}
dna_obs = {"reference": False, "series_points": 2000}
DNA_BLOWUP = ("Blow-up: |E - E0| / E0 above 10; Z&S's large steps damp the energy by up to 70 % without growing it (the paper's "
              "own observation), while a blow-up grows it by orders of magnitude (2e3 to 7e5 at h = 2).")
fig8 = {
    "id": "taoowhadi2014-fig8",
    "title": "Tao-Owhadi Fig 8: DNA torsion chain (N = 200): mean angle, transitions, energy, and Z&S's blow-up at h = 2",
    "source": SRC + ", " + F8 + " (spec 4.4, 7 E8, 8.3)",
    "default": True,
    "notes": COMMON + [
        "Periodic ends and seed 1 for the xi_k draw (spec 4.4 [ASSUMPTION]); random:1-4 are four more draws. Velocity "
        "Verlet h = 0.2 is the paper's benchmark, Z&S beta = 0.3 at h = 2; Z&Ss at h = 2 and Z&S at h = 1.5 are the "
        "spec's controls. The system is chaotic, so there is no reference trajectory: runs are compared by their "
        "statistics (mean angle, energy) and their status.",
        "Long runs (T = 20000) show the spec's finding that Z&S at h = 2 blows up (t = 5000-8000 in the prototype); the "
        "short runs (T = 4000, before any blow-up) carry the energy claim and the timing.",
    ],
    "sweeps": [
        {"name": "fig8-long", "problems": [DNA], "methods": ["velocity_verlet"], "h": [0.2], "T": 20000,
         "observe": dna_obs},
        {"name": "fig8-long-zs", "problems": [dict(DNA, ics=["preset", "random:1", "random:2", "random:3", "random:4"])],
         "methods": [zs03], "h": [2], "T": 20000, "observe": {"reference": False}},
        {"name": "fig8-long-zss", "problems": [DNA], "methods": [zss03], "h": [2], "T": 20000, "observe": dna_obs},
        {"name": "fig8-long-zs1.5", "problems": [DNA], "methods": [zs03], "h": [1.5], "T": 19500, "observe": dna_obs},
        {"name": "fig8-short-vv", "problems": [DNA], "methods": ["velocity_verlet"], "h": [0.2], "T": 4000,
         "observe": {"reference": False}, "timing": {"reps": 3}},
        {"name": "fig8-short-zs", "problems": [DNA], "methods": [zs03], "h": [2], "T": 4000,
         "observe": {"reference": False}, "timing": {"reps": 3}},
    ],
    "plots": [
        {"type": "invariant_time", "quantities": ["mean_angle", "energy_abs_err"], "signed": True,
         "file": "taoowhadi2014-fig8.png", "where": {"ic": "preset", "method": ["velocity_verlet", "zss", "zs"]},
         "title": "Tao-Owhadi Fig 8: mean angle and energy error, T = 20000"},
    ],
    "checks": [
        {"kind": "series_stat", "statement": "the DNA transits between the metastable states (0.795 and 5.49): crossings "
                                              "of the mean angle through pi, velocity Verlet",
         "source": SRC + ", " + F8, "where": {"method": "velocity_verlet", "T": 20000}, "series": "mean_angle",
         "stat": "crossings", "level": 3.14159, "paper_value": "transitions", "at_least": 2},
        {"kind": "series_stat", "statement": "... and with Z&Ss at h = 2 the chain also opens (largest mean angle)",
         "source": SRC + ", " + F8, "where": {"method": "zss", "h": 2, "T": 20000}, "series": "mean_angle",
         "stat": "max", "paper_value": "transitions", "at_least": 3.14159},
        {"kind": "metric_ratio", "statement": "Z&S's energy is lower than the benchmark's (large steps damp fast "
                                               "oscillations): E(T) of Z&S (h = 2) over velocity Verlet's, T = 4000",
         "source": SRC + ", " + F8, "metric": "energy_final",
         "numerator": {"method": "zs", "h": 2, "T": 4000}, "denominator": {"method": "velocity_verlet", "T": 4000},
         "paper_value": "lower", "at_most": 1, "reason": "Spec prototype: 2.24 drops to about 1.2-1.5."},
        {"kind": "max", "statement": "(gibench) velocity Verlet h = 0.2 keeps |E - E0| at the spec prototype's level",
         "posed_by": "gibench", "source": "Tao-Owhadi spec 8.3",
         "where": {"method": "velocity_verlet", "T": 20000}, "metric": "energy_abs_err_max", "paper_value": None,
         "yardstick": 0.06, "range": [0.045, 0.075], "reason": "Spec prototype: 0.06 (E0 = 2.24; our draw has E0 = 2.36)."},
        bounded("(gibench) h = 2 is 'near the stability limit' of Z&S: it blows up before t = 20000 on every draw",
                "Tao-Owhadi spec 0 item 3, 8.3", {"method": "zs", "h": 2, "T": 20000}, posed_by="gibench",
                expect="blow-up", blowup_above=10, method="zs",
                reason="Spec prototype: blow-up at t = 5000-8000 on all 5 seeds, after the energy creeps up (the "
                       "1/2 beta^2 h^4 eps U''' a^2 correction). " + DNA_BLOWUP),
        bounded("(gibench) Z&Ss at h = 2 (no V''') stays bounded to t = 20000", "Tao-Owhadi spec 8.3",
                {"method": "zss", "h": 2, "T": 20000}, posed_by="gibench", blowup_above=10, reason=DNA_BLOWUP),
        bounded("(gibench) Z&S at h = 1.5 stays bounded to t = 19500 (13000 steps)", "Tao-Owhadi spec 8.3",
                {"method": "zs", "h": 1.5}, posed_by="gibench", blowup_above=10, reason=DNA_BLOWUP),
        wall("t_vv", "velocity Verlet h = 0.2, T = 4000", {"method": "velocity_verlet", "T": 4000}, 23.26, F8),
        wall("t_zs", "Z&S h = 2, T = 4000", {"method": "zs", "T": 4000}, 3.24, F8),
        time_ratio("Z&S is about 7x faster than velocity Verlet", F8, "t_vv", "t_zs", 23.26 / 3.24, "velocity_verlet",
                   "Paper: 23.26 s / 3.24 s (same simulated time; Z&S takes 10x fewer steps, each with one cyclic "
                   "tridiagonal solve).",
                   deviation="Z&S takes 10x fewer steps, but each costs a cyclic tridiagonal solve and the V''' term where a "
                             "Verlet step is one force evaluation: 2.0-2.6x on this machine across sessions (README, Known deviations)."),
    ],
}

# ---------------------------------------------------------------------------------------------- Figures 9, 10
F10 = "Figures 9, 10 and section 4.5"
MB = {"problem": "magnetized_body", "presets": ["taoowhadi2014"]}
SO3ZS = "so3_variational_zs"
PROTO_DEV = {10: (0.19, 0.30), 20: (0.35, 0.54), 50: (0.94, 1.40)}
so3_notes = COMMON[1:] + [
    "Identity inertia, V = B mu R33 with B mu = 1 (not given; spec A15), R(0) = I, Omega(0) = (1, 0.2, 0.1). "
    "Variational Z&S on the relaxed R with omega = 10, beta = 0.4 and the corrected f of spec 2.11 (the printed f "
    "blows up between t = 20 and 50); the Lie-group benchmark scheme is the Hamilton-Pontryagin variational Euler "
    "with the Cayley map (eq. 34-35), whose isotropic step is a scalar cubic.",
    "Deviation |R - R'| is the spectral norm against gibench's reference (RKF78 to 1e-13 in quaternions), not against "
    "the paper's h = 1e-4 run of eq. (34), which is first order; that run is included to show how close it is.",
]
SQRT2 = 2 ** 0.5
checks10 = []
for T, (hp, zs) in PROTO_DEV.items():
    for label, where, frob, src in (("Lie-group VE", {"method": "hp_cayley_euler", "h": 0.1, "T": T}, hp, "10b"),
                                    ("variational Z&S", {"method": SO3ZS, "T": T}, zs, "10a")):
        checks10.append({"kind": "max", "posed_by": "gibench",
                         "statement": "(gibench) deviation from the benchmark, %s h = 0.1, T = %d, matches the spec "
                                      "prototype's" % (label, T),
                         "source": SRC + ", Figure " + src + " (the paper prints no number); spec 8.4",
                         "where": where, "metric": "rot_2norm_max", "paper_value": None,
                         "yardstick": round(frob / SQRT2, 4), "rel_tol": 0.05,
                         "reason": "Spec prototype %g in the Frobenius norm, %.3g in the spectral norm we use (for two rotations "
                                   "|R - R'|_F = sqrt 2 |R - R'|_2)." % (frob, frob / SQRT2)})
checks10 += [
    {"kind": "metric_ratio", "statement": "the Lie-group integrator preserves the group structure much better: "
                                           "max |R^T R - I| of variational Z&S over Lie-group VE's",
     "source": SRC + ", " + F10, "metric": "manifold_residual_max", "numerator": {"method": SO3ZS, "T": 50},
     "denominator": {"method": "hp_cayley_euler", "h": 0.1, "T": 50}, "paper_value": "round-off against O(penalty)",
     "at_least": 1e8, "reason": "Spec prototype: 0.057 against 1e-14."},
    {"kind": "max", "statement": "(gibench) variational Z&S's |R^T R - I| is O(penalty), at the spec prototype's level",
     "posed_by": "gibench", "source": SRC + ", " + F10 + "; spec 8.4", "where": {"method": SO3ZS, "T": 50},
     "metric": "manifold_residual_max", "paper_value": None, "yardstick": 0.057, "rel_tol": 0.1,
     "reason": "Spec prototype: 0.057 (Frobenius, as ours)."},
    {"kind": "max", "statement": "(gibench) energy error of the Lie-group VE h = 0.1 matches the spec prototype's",
     "posed_by": "gibench", "source": SRC + ", Figure 10b; spec 8.4",
     "where": {"method": "hp_cayley_euler", "h": 0.1, "T": 50}, "metric": "energy_abs_err_max", "paper_value": None,
     "yardstick": 0.11, "rel_tol": 0.05, "reason": "Spec prototype: 0.11."},
    bounded("(gibench) variational Z&S h = 0.1 keeps its energy error bounded over t <= 50", SRC + ", Figure 10a; spec 8.4",
            {"method": SO3ZS, "T": 50}, posed_by="gibench", metric="energy_abs_err",
            reason="Absolute error (E0 is about 0.5). The spec prototype's 0.15-0.17 is not comparable as a number: its energy "
                   "uses the staggered p, an O(h) offset."),
    {"kind": "max", "statement": "(gibench) the paper's benchmark, eq. (34) at h = 1e-4, against gibench's reference",
     "posed_by": "gibench",
     "source": "Tao-Owhadi spec 4.5", "where": {"method": "hp_cayley_euler", "h": 0.0001}, "metric": "rot_2norm_max",
     "paper_value": None, "at_most": 1e-3, "reason": "A first-order scheme: its error is O(h) = 1e-4 times the motion's scale."},
    {"kind": "time_ratio", "method": "hp_cayley_euler", "id": "speed",
     "statement": "variational Z&S is about 50x faster than the Lie-group VE (time per step, both h = 0.1)",
     "source": SRC + ", " + F10, "where": {"method": "hp_cayley_euler", "h": 0.1, "T": 10},
     "reference": {"method": SO3ZS, "T": 10}, "paper_value": 1.45 / 0.03, "factor": 1.5, "tolerance_reason": TIMING_TOL,
     "direction": {"at_least": 1.0}, "reason": "Paper: 1.45 s against 0.03 s.",
     "expected_verdict": "refuted",
     "deviation": "The paper's 50x is Matlab's fsolve on the 3D implicit Cayley equation against one linear solve. gibench solves "
                  "the isotropic Lie-group step as a scalar cubic (spec 2.10), about 8x cheaper per step than variational Z&S's "
                  "9x9 solve, so the direction reverses."},
]
so3_sweeps = [
    {"name": "fig10-h0.1", "problems": [MB], "methods": ["hp_cayley_euler", SO3ZS], "h": [0.1], "T": [10, 20, 50],
     "observe": {"ref_samples": 500, "series_points": 500, "series_state_err": True}, "timing": {"reps": 5}},
    {"name": "fig10-benchmark", "problems": [MB], "methods": ["hp_cayley_euler"], "h": [0.0001], "T": 50,
     "observe": {"ref_samples": 500}},
]
fig10 = {
    "id": "taoowhadi2014-fig10",
    "title": "Tao-Owhadi Fig 10: magnetized body on SO(3), variational Z&S against the Lie-group variational Euler (h = 0.1)",
    "source": SRC + ", " + F10 + " (spec 2.10, 2.11, 4.5, 7 E9, 8.4)",
    "default": True,
    "notes": so3_notes,
    "sweeps": so3_sweeps,
    "plots": [
        {"type": "invariant_time", "quantities": ["energy_abs_err", "manifold_residual", "state_err"],
         "file": "taoowhadi2014-fig10.png", "where": {"h": 0.1, "T": 50},
         "title": "Tao-Owhadi Fig 10: |E - E0|, |R^T R - I| and the distance to the benchmark, h = 0.1"},
    ],
    "checks": checks10,
}
fig9 = {
    "id": "taoowhadi2014-fig9",
    "title": "Tao-Owhadi Fig 9: magnetized body snapshots (not reproducible as numbers; the trajectories of Fig 10 instead)",
    "source": SRC + ", Figure 9 (spec 4.5)",
    "default": False,
    "notes": so3_notes + [
        "Figure 9 shows field and dipole arrows of the simulated body (frames of a video): there are no numbers to "
        "compare. This entry plots what those frames show, the body's motion, as the distance of each scheme's R to "
        "the benchmark, and checks that both schemes keep the qualitative motion over t <= 10."],
    "sweeps": [dict(so3_sweeps[0], T=10, timing={"reps": 0})],
    "plots": [{"type": "invariant_time", "quantities": ["state_err"], "file": "taoowhadi2014-fig9.png",
               "title": "Tao-Owhadi Fig 9 (stand-in): distance to the benchmark trajectory, t <= 10"}],
    "checks": [
        {"kind": "max", "statement": "Figure 9: snapshots of the magnetized body (field and dipole arrows)",
         "source": SRC + ", Figure 9", "where": {"h": 0.1}, "metric": "rot_2norm_max", "paper_value": "video frames",
         "at_most": 1,
         "not_reproducible": "Figure 9 shows frames of a video (arrows of the field and the dipole) and no numbers; ours is the "
                             "larger distance of the two schemes' R to the benchmark over t <= 10, which the frames would show."},
        {"kind": "max", "statement": "(gibench) both schemes follow the benchmark motion over t <= 10 as closely as in the "
                                     "spec prototype: the larger max |R - R'|_2", "posed_by": "gibench",
         "source": "Tao-Owhadi spec 8.4", "where": {"h": 0.1}, "metric": "rot_2norm_max", "paper_value": None,
         "yardstick": round(0.30 / SQRT2, 4), "rel_tol": 0.05,
         "reason": "Spec prototype: 0.19 (Lie-group VE) and 0.30 (variational Z&S) in the Frobenius norm; 0.134 and 0.212 in the "
                   "spectral norm we use."},
    ],
}

# ---------------------------------------------------------------------------------------------- stability findings
FS = "section 4.1 and spec 0 item 3, 8.1"
DP_W = dict(DP, overrides=[{"omega": w} for w in (20, 25, 30, 40, 200, 2000)])
stab = {
    "id": "taoowhadi2014-stability",
    "title": "Tao-Owhadi: nonlinear stability of Z&S on the double pendulum (omega and h), against Z&Ss and Newmark",
    "source": SRC + ", " + FS,
    "default": True,
    "notes": COMMON + [
        "T = 50, beta = 0.4. Every claim is judged on the run's energy behaviour over the whole run: blow-up (status "
        "'diverged' or 'nonfinite', or |E - E0| / |E0| above 1 at any step, whatever the status), drift, or bounded. The paper says instability occurs for omega = 2000 in "
        "all of Z&S, Newmark and implicit midpoint; the spec's prototype finds full Z&S failing already at omega >= 40 "
        "with h = 0.1 and at h = 0.2 with omega = 20, because of the V''' correction (spec 8, cross-cutting finding).",
    ],
    "sweeps": [
        {"name": "stability-omega", "problems": [DP_W], "methods": ["zs", "zss", "newmark", "implicit_midpoint"],
         "h": [0.1], "T": 50, "observe": {"reference": False}},
        {"name": "stability-h", "problems": [DP], "methods": ["zs", "zss"], "h": [0.2], "T": 50,
         "observe": {"reference": False}},
    ],
    "plots": [],
    "checks": [
        bounded("(gibench) Z&S, h = 0.1: stable for omega = %d" % w, "Tao-Owhadi spec 8.1",
                {"method": "zs", "params": {"omega": w}, "h": 0.1}, posed_by="gibench")
        for w in (20, 25, 30)
    ] + [
        bounded(("instability occurs in Z&S for omega = %d" if w == 2000 else "(gibench) Z&S, h = 0.1: blows up for omega = %d") % w,
                "Tao-Owhadi spec 0 item 3, 8.1", {"method": "zs", "params": {"omega": w}, "h": 0.1}, expect="blow-up",
                posed_by=None if w == 2000 else "gibench", method="zs")
        for w in (40, 200, 2000)
    ] + [
        bounded("(gibench) Z&S, omega = 20: blows up at h = 0.2", "Tao-Owhadi spec 0 item 3, 8.1", {"method": "zs", "h": 0.2},
                expect="blow-up", posed_by="gibench", method="zs"),
        bounded("(gibench) ... while Z&Ss (no V''') stays bounded at h = 0.2", "Tao-Owhadi spec 8.1", {"method": "zss", "h": 0.2},
                posed_by="gibench"),
        bounded("instability occurs in original Newmark (full solve) at omega = 2000", SRC + ", section 4.1",
                {"method": "newmark", "params": {"omega": 2000}}, expect="blow-up", method="newmark", id="newmark_omega2000",
                expected_verdict="refuted",
                deviation="With a full Newton solve (analytic Hessian, tolerance 1e-13) Newmark at h = 0.1 stays bounded at "
                          "omega = 2000 (max |E - E0| / |E0| 2e-3; the spec prototype: stable, tip error 0.083 at T = 50). The "
                          "paper's instability is probably its solver's (fsolve), not the scheme's."),
        bounded("... and in implicit midpoint at omega = 2000", SRC + ", section 4.1",
                {"method": "implicit_midpoint", "params": {"omega": 2000}}, expect="blow-up", method="implicit_midpoint",
                reason="The energy grows steadily until it passes 100 energy scales (970 |E0|) at t = 13; left to run, it reaches 4e9 |E0| before the Newton iteration gives up at t = 28.6."),
    ],
}

for f in (fig1, fig2, fig3, fig8, fig9, fig10, stab):
    for c in f["checks"]:  # every statement gibench posed itself says so (counted apart from the paper's)
        if c["statement"].startswith("(gibench)"):
            c["posed_by"] = "gibench"
    with open(OUT + f["id"] + ".json", "w") as out:
        json.dump(f, out, indent=1)
        out.write("\n")
print("ok", [len(f["checks"]) for f in (fig1, fig2, fig3, fig8, fig9, fig10, stab)])
