// Every check of every committed figure spec can fail, and this proves it (GUIDE 7): each numeric check is fed a
// value just inside and just outside each of its bounds (both sides of a two-sided one, and its direction bound),
// each categorical check every value it can take, each order check a conclusive fit inside and outside its
// tolerance and an undecided one, and the verdict must change. The judge is the one the figures use
// (harness/figure_verdict.hpp), so a check that passes anything cannot hide here. The second half feeds the spec
// loader checks a referee would reject and requires it to refuse them.
#include <catch2/catch.hpp>
#include <cmath>
#include <set>
#include <string>

#include "core/errors.hpp"
#include "harness/figure_verdict.hpp"
#include "harness/reproduce.hpp"

namespace gibench_test_figure_checks_mutation {

namespace {

using gib::Json;

// The verdict of a judged number in the scale's words: "holds" for reproduced / a gibench check that holds.
std::string outcome_of(const Json& row) {
  const std::string v = row.value("verdict", "");
  if (v == "gibench check") {
    const Json& h = row.value("holds", Json(nullptr));
    return h.is_null() ? "inconclusive" : h.get<bool>() ? "holds" : "fails";
  }
  if (v == "reproduced") return "holds";
  if (v == "direction only") return "direction only";
  if (v == "refuted") return "fails";
  return v;
}

// A value `steps` nudges inside (+1) or outside (-1) of bound b of interval i (an integer-valued quantity moves by 1).
double nudge(const gib::Interval& i, bool upper, bool inside, bool integer) {
  const double b = upper ? i.hi : i.lo;
  const double sign = (upper ? -1.0 : 1.0) * (inside ? 1.0 : -1.0);
  if (integer) {
    const double in = upper ? std::floor(b) : std::ceil(b);
    return inside ? in : (upper ? std::floor(b) + 1 : std::ceil(b) - 1);
  }
  double eps = b == 0 ? 1e-12 : 1e-7 * std::abs(b);
  if (i.bounded_below() && i.bounded_above()) eps = std::min(eps, 1e-3 * (i.hi - i.lo));
  if (inside && i.lo == i.hi) return b;
  return b + sign * eps;
}

Json fit_for(const Json& check, double order, int n, double half_width) {
  Json f = check.value("where", Json::object());
  f["metric"] = check.value("metric", "");
  f["ok"] = true;
  f["order_hat"] = order;
  f["ci95"] = {order - half_width, order + half_width};
  f["window"] = {{"n", n}, {"h_max", 0.1}, {"h_min", 0.01}};
  f["note"] = "";
  return f;
}

struct Tally {
  int numeric = 0, categorical = 0, order = 0, unjudged = 0, bounds = 0;
};

void mutate_order(const Json& c, Tally& t) {
  const gib::Criterion crit = gib::check_criterion(c);
  ++t.order;
  const double e = 0.5 * (crit.magnitude.lo + crit.magnitude.hi);
  const double tol = 0.5 * (crit.magnitude.hi - crit.magnitude.lo);
  auto verdict = [&](double order, int n, double hw) { return outcome_of(gib::check_order(c, Json::array({fit_for(c, order, n, hw)}))); };
  const std::string expect_hold = c.contains("not_reproducible") ? "not reproducible" : "holds";
  CHECK(verdict(e, 5, 0.05) == expect_hold);
  for (const double side : {-1.0, 1.0}) {
    ++t.bounds;
    CHECK(verdict(e + side * (tol - 0.01), 5, 0.05) == expect_hold);
    if (!c.contains("not_reproducible")) CHECK(verdict(e + side * (tol + 0.01), 5, 0.05) == "fails");
  }
  // Undecided fits: too few points, or too wide an interval, never pass.
  if (!c.contains("not_reproducible")) {
    CHECK(verdict(e, 4, 0.05) == "inconclusive");
    CHECK(verdict(e, 7, 0.16) == "inconclusive");
  }
}

void mutate_numeric(const Json& c, const Json& all, Tally& t) {
  const gib::Criterion crit = gib::check_criterion(c, all);
  ++t.numeric;
  const bool nr = c.contains("not_reproducible");
  auto run = [&](double x) {
    INFO("value " << x);
    if (nr) return gib::judge(crit, x) == gib::Outcome::holds ? std::string("holds") : std::string("fails");
    const Json row = gib::judge_row(c, x, "", all);
    return outcome_of(row);
  };
  int tested = 0;
  for (const bool upper : {false, true}) {
    if (upper ? !crit.magnitude.bounded_above() : !crit.magnitude.bounded_below()) continue;
    const double in = nudge(crit.magnitude, upper, true, crit.integer);
    const double out = nudge(crit.magnitude, upper, false, crit.integer);
    if (!crit.attainable.contains(out)) continue;  // the other side is the quantity's own limit
    ++tested;
    ++t.bounds;
    INFO((upper ? "upper" : "lower") << " bound of " << crit.magnitude.text());
    CHECK(run(in) == "holds");
    const std::string o = run(out);
    CHECK(o != "holds");
    if (!nr) {
      const bool in_direction = crit.direction && crit.direction->contains(out);
      CHECK(o == (in_direction ? "direction only" : "fails"));
    }
  }
  CHECK(tested > 0);  // at least one bound the measurement can cross
  if (crit.direction) {
    for (const bool upper : {false, true}) {
      const gib::Interval& d = *crit.direction;
      if (upper ? !d.bounded_above() : !d.bounded_below()) continue;
      const double in = nudge(d, upper, true, crit.integer), out = nudge(d, upper, false, crit.integer);
      if (crit.magnitude.contains(in) || !crit.attainable.contains(out)) continue;
      ++t.bounds;
      INFO("direction bound of " << d.text());
      if (!nr) {
        CHECK(run(in) == "direction only");
        CHECK(run(out) == "fails");
      }
    }
  }
}

void mutate_categorical(const Json& c, Tally& t) {
  const gib::Criterion crit = gib::check_criterion(c);
  ++t.categorical;
  int holds = 0, fails = 0;
  for (const auto& v : crit.values) {
    const bool accepted = gib::judge(crit, v) == gib::Outcome::holds;
    holds += accepted;
    fails += !accepted;
    const Json row = gib::verdict_row(c, v, accepted ? gib::Outcome::holds : gib::Outcome::fails, "");
    if (!c.contains("not_reproducible")) CHECK(outcome_of(row) == (accepted ? "holds" : "fails"));
  }
  ++t.bounds;
  CHECK(holds > 0);
  CHECK(fails > 0);
}

}  // namespace

TEST_CASE("every figure check changes its verdict just outside its bounds", "[figure_checks][mutation]") {
  Tally t;
  int figures = 0;
  for (const auto& fig : gib::load_figure_specs()) {
    ++figures;
    const Json& checks = fig.spec["checks"];
    for (const auto& c : checks) {
      INFO(fig.id << ": " << c.value("statement", ""));
      if (!gib::is_judged(c)) {
        ++t.unjudged;
        continue;
      }
      const gib::Criterion crit = gib::check_criterion(c, checks);
      if (gib::check_kind(c).criterion == gib::CriterionForm::order) mutate_order(c, t);
      else if (crit.categorical) mutate_categorical(c, t);
      else mutate_numeric(c, checks, t);
    }
  }
  // Everything the specs hold was exercised: the counts are printed so that a reader sees how much.
  WARN(figures << " figures: " << t.numeric << " numeric, " << t.categorical << " categorical and " << t.order
               << " order checks mutated across " << t.bounds << " bounds; " << t.unjudged << " measured rows without a verdict");
  CHECK(figures >= 30);
  CHECK(t.numeric + t.categorical + t.order > 400);
}

TEST_CASE("the spec loader refuses checks that cannot fail, cannot hold, or are wider than they say",
          "[figure_checks][mutation]") {
  auto rejects = [](const Json& c) { CHECK_THROWS_AS(gib::check_criterion(c), gib::InputError); };
  // A distance between two rotations is at most 2 in the spectral norm: a bound of 2.8 passes anything.
  rejects({{"kind", "max"}, {"statement", "s"}, {"metric", "rot_2norm_max"}, {"at_most", 2.8}});
  // ... and a geodesic angle is at most pi; a share at most 1.
  rejects({{"kind", "max"}, {"statement", "s"}, {"metric", "rot_geodesic_final"}, {"at_most", 4}});
  rejects({{"kind", "spikes"}, {"statement", "s"}, {"stat", "near_fraction"}, {"at_most", 1}});
  // The ranges come from the metrics' declarations (core/metrics.hpp): a turn per step is at most 180 degrees, an
  // error is never negative.
  rejects({{"kind", "max"}, {"statement", "s"}, {"metric", "rotation_per_step_max_deg"}, {"at_most", 200}});
  rejects({{"kind", "min"}, {"statement", "s"}, {"metric", "state_err_max"}, {"at_least", 0}});
  // A ratio of magnitudes is never negative; a bound it can never meet is as wrong as one it can never miss.
  rejects({{"kind", "metric_ratio"}, {"statement", "s"}, {"at_least", 0}});
  rejects({{"kind", "metric_ratio"}, {"statement", "s"}, {"at_most", -1}});
  rejects({{"kind", "series_stat"}, {"statement", "s"}, {"stat", "low_freq_share"}, {"at_least", 1.5}});
  // "About 10x" judged as "at least 1" (Tao-Owhadi Fig 1 before), or within +/-80 % (Krysl Fig 5 before): too wide
  // without a written reason; a factor above 1.25 likewise.
  rejects({{"kind", "ratio"}, {"statement", "s"}, {"paper_value", 9.5}, {"at_least", 1}});
  rejects({{"kind", "ratio"}, {"statement", "s"}, {"paper_value", 5}, {"rel_tol", 0.8}});
  rejects({{"kind", "time_ratio"}, {"statement", "s"}, {"paper_value", 3}, {"factor", 1.5}});
  rejects({{"kind", "max"}, {"statement", "s"}, {"metric", "tip_err_max"}, {"yardstick", 0.134}, {"at_most", 0.2}});
  rejects({{"kind", "metric_ratio"}, {"statement", "s"}, {"range", {0.7, 1.4}}});
  // A numeric paper value needs its tolerance stated; a categorical check must be able to fail.
  rejects({{"kind", "value"}, {"statement", "s"}, {"metric", "energy_final"}, {"paper_value", 82.1}});
  rejects({{"kind", "energy_behaviour"}, {"statement", "s"}, {"expect", {"bounded", "drift", "blow-up", "solver failure"}}});
  rejects({{"kind", "status"}, {"statement", "s"}, {"status", {"ok", "not ok"}}});
  rejects({{"kind", "energy_behaviour"}, {"statement", "s"}, {"expect", "stable"}});
  // Order tolerances above 0.3 need a reason too.
  rejects({{"kind", "order"}, {"statement", "s"}, {"expected", 2}, {"tolerance", 0.5}});
  // The same checks with their reason, or within the rule, load.
  CHECK_NOTHROW(gib::check_criterion({{"kind", "ratio"}, {"statement", "s"}, {"paper_value", 9.5}, {"factor", 1.5},
                                      {"tolerance_reason", "why"}, {"direction", {{"at_least", 1}}}}));
  CHECK_NOTHROW(gib::check_criterion({{"kind", "ratio"}, {"statement", "more than 30-fold"}, {"paper_value", 30}, {"at_least", 30}}));
  CHECK_NOTHROW(gib::check_criterion({{"kind", "metric_ratio"}, {"statement", "s"}, {"range", {0.8, 1.25}}}));
  // A statement gibench posed must say so, so that it is counted apart from the paper's.
  CHECK_THROWS_AS(gib::posed_by_gibench({{"statement", "(gibench) ours"}}), gib::InputError);
  CHECK(gib::posed_by_gibench({{"statement", "(gibench) ours"}, {"posed_by", "gibench"}}));
}

TEST_CASE("verdict counts print paper statements first and gibench checks apart", "[figure_checks]") {
  gib::VerdictCounts n;
  for (const char* v : {"reproduced", "reproduced", "direction only", "refuted", "measured"}) n.add(Json{{"verdict", v}});
  n.add(Json{{"verdict", "gibench check"}, {"holds", true}});
  n.add(Json{{"verdict", "gibench check"}, {"holds", false}});
  CHECK(n.summary() == "2 reproduced, 1 direction only, 1 refuted; 2 gibench checks (1 hold, 1 FAIL)");
  CHECK(n.paper() == 4);
}

}  // namespace gibench_test_figure_checks_mutation
