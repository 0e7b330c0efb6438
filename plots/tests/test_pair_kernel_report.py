"""Tests of bench/pair_kernel.py's verdicts (issue 24) on synthetic Google Benchmark output.

Run:  /usr/bin/python3 -m unittest discover -s plots/tests
"""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(os.path.dirname(os.path.dirname(HERE)), "bench")
sys.path.insert(0, BENCH)

import pair_kernel as pk  # noqa: E402


def run(name, k, cpu_ns=None, real_ns=None, per_pair_ns=None, **extra):
    """One repetition of a benchmark as Google Benchmark's JSON has it (times in ns)."""
    b = {"name": name, "run_name": name, "run_type": "iteration", "repetition_index": k, "iterations": 10,
         "time_unit": "ns", "cpu_time": cpu_ns if cpu_ns is not None else real_ns,
         "real_time": real_ns if real_ns is not None else cpu_ns}
    if per_pair_ns is not None:
        b["time_per_pair"] = per_pair_ns * 1e-9
    b.update(extra)
    return b


def floor_runs(one, two, switched=None):
    """The floor mix on one and two threads (ns per pair per repetition), and the switched mix."""
    out = []
    for k, (a, b) in enumerate(zip(one, two)):
        out.append(run("pair_floor/mix/avx2", k, cpu_ns=1000.0, per_pair_ns=a, mul_per_pair=56, add_per_pair=42))
        out.append(run("pair_floor/mix_2threads/avx2/real_time", k, real_ns=1000.0, per_pair_ns=b,
                       mul_per_pair=56, add_per_pair=42))
    for k, s in enumerate(switched or []):
        out.append(run("pair_floor/switched_mix/avx2", k, cpu_ns=1000.0, per_pair_ns=s, mul_per_pair=76,
                       add_per_pair=51))
    return out


def kernel_runs(n, one, two):
    """The all-pairs kernel at N on one thread (CPU ns per evaluation) and two (wall ns)."""
    out = []
    for k, (a, b) in enumerate(zip(one, two)):
        out.append(run("pair_kernel/all_pairs/%d" % n, k, cpu_ns=a, real_ns=3 * a))  # wall time must not be read
        out.append(run("pair_kernel/all_pairs_2threads/%d/real_time" % n, k, cpu_ns=2 * b, real_ns=b))
    return out


class TwoThreadVerdict(unittest.TestCase):
    """Item 4: the paired speed-ups against the floor mix's own, within 1.1."""

    def verdict(self, kernel_one, kernel_two, floor_one=(2.0, 2.0, 2.0), floor_two=(1.0, 1.0, 1.0)):
        data = floor_runs(floor_one, floor_two) + kernel_runs(1000, kernel_one, kernel_two)
        return pk.two_thread_pairs(pk.per_repetition({"benchmarks": data}))

    def test_met_when_the_kernel_scales_as_the_floor_does(self):
        paired = self.verdict((100.0, 100.0, 100.0), (52.0, 53.0, 51.0))
        row = paired["by_N"]["1000"]
        self.assertAlmostEqual(paired["allowed"]["median"], 2.0)
        self.assertAlmostEqual(row["speedup_median"], 100.0 / 52.0)
        self.assertTrue(row["met"])
        self.assertEqual(row["met_pairs"], 3)

    def test_not_met_below_allowed_over_1_1(self):
        # 1.7 < 2.0 / 1.1 = 1.82 in every pair.
        paired = self.verdict((170.0, 170.0, 170.0), (100.0, 100.0, 100.0))
        row = paired["by_N"]["1000"]
        self.assertFalse(row["met"])
        self.assertEqual(row["met_pairs"], 0)

    def test_each_pair_is_held_to_its_own_repetition_of_the_floor(self):
        # The same speed-up 1.7 in every pair; the floor allows 1.8 (met, 1.7 >= 1.64) then 2.2 (not: 1.7 < 2.0).
        paired = self.verdict((170.0, 170.0, 170.0), (100.0, 100.0, 100.0), floor_one=(1.8, 2.2, 1.8))
        row = paired["by_N"]["1000"]
        self.assertEqual([p["met"] for p in row["pairs"]], [True, False, True])
        self.assertEqual(row["met_pairs"], 2)
        self.assertTrue(row["met"])  # medians: 1.7 >= 1.8 / 1.1

    def test_no_floor_no_verdict(self):
        data = kernel_runs(1000, (100.0,), (50.0,))
        self.assertIsNone(pk.two_thread_pairs(pk.per_repetition({"benchmarks": data})))


class Floor(unittest.TestCase):
    """The switched mix is a floor of its own, never one of the pair mix's ISAs."""

    def test_switched_mix_kept_apart(self):
        floor = pk.floor_of({"benchmarks": floor_runs((2.7, 2.6, 2.8), (1.5, 1.5, 1.5), switched=(3.5, 3.7, 3.6))})
        self.assertEqual(set(floor["by_isa"]), {"avx2"})
        self.assertAlmostEqual(floor["by_isa"]["avx2"], 2.7)
        self.assertAlmostEqual(floor["switched"]["ns_per_pair"], 3.6)
        self.assertEqual(floor["switched"]["operations_per_pair"]["mul"], 76)
        self.assertEqual(floor["operations_per_pair"]["mul"], 56)

    def test_a_stale_count_is_reported_not_timed(self):
        data = floor_runs((2.7,), (1.5,))
        data.append({"name": "pair_floor/switched_mix/avx2", "run_name": "pair_floor/switched_mix/avx2",
                     "run_type": "iteration", "error_occurred": True, "error_message": "update its counts"})
        floor = pk.floor_of({"benchmarks": data})
        self.assertIsNone(floor["switched"])
        self.assertEqual(floor["skipped"], {"switched_mix/avx2": "update its counts"})


if __name__ == "__main__":
    unittest.main()
