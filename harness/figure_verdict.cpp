// The verdict scale and the one judge every figure check goes through (see the header).
#include "harness/figure_verdict.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "core/errors.hpp"
#include "harness/check_kinds.hpp"
#include "harness/json_util.hpp"

namespace gib {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double number_field(const Json& c, const char* key) {
  const Json& v = c.at(key);
  if (!v.is_number()) throw InputError(check_name(c) + ": '" + key + "' must be a number");
  return v.get<double>();
}

bool has_number(const Json& c, const char* key) { return c.contains(key) && c[key].is_number(); }

Interval intersect(const Interval& a, const Interval& b) { return {std::max(a.lo, b.lo), std::min(a.hi, b.hi)}; }

bool covers(const Interval& outer, const Interval& inner) { return outer.lo <= inner.lo && outer.hi >= inner.hi; }

// The bounds written as at_most / at_least / range in `j` (the check itself or its "direction" object).
std::optional<Interval> explicit_bounds(const Json& j, const Json& c) {
  Interval out;
  bool any = false;
  if (j.contains("at_most")) out.hi = number_field(j, "at_most"), any = true;
  if (j.contains("at_least")) out.lo = number_field(j, "at_least"), any = true;
  if (j.contains("range")) {
    const Json& r = j["range"];
    if (!r.is_array() || r.size() != 2 || !r[0].is_number() || !r[1].is_number())
      throw InputError(check_name(c) + ": 'range' must be [lo, hi]");
    out.lo = std::max(out.lo, r[0].get<double>());
    out.hi = std::min(out.hi, r[1].get<double>());
    any = true;
  }
  if (!any) return std::nullopt;
  if (out.lo > out.hi) throw InputError(check_name(c) + ": its bounds are empty (" + out.text() + ")");
  return out;
}

// A printed value with d significant digits matches when ours rounds to it: half a unit in its last digit
// (plus a hair for binary rounding).
double printed_half_unit(double paper, int digits) {
  const double exponent = std::floor(std::log10(std::abs(paper))) - digits + 1;
  return 0.5 * std::pow(10.0, exponent) * (1 + 1e-9);
}

// The magnitude interval around a numeric paper value (sig_digits, abs_tol, rel_tol or factor).
std::optional<Interval> tolerance_bounds(const Json& c, double p) {
  if (c.contains("sig_digits")) {
    const Json& d = c["sig_digits"];
    if (!d.is_number_integer() || d.get<int>() < 1 || d.get<int>() > 17) throw InputError(check_name(c) + ": sig_digits must be 1 ... 17");
    const double half = printed_half_unit(p, d.get<int>());
    return Interval{p - half, p + half};
  }
  if (c.contains("abs_tol")) {
    const double t = number_field(c, "abs_tol");
    if (!(t >= 0)) throw InputError(check_name(c) + ": abs_tol must be >= 0");
    return Interval{p - t, p + t};
  }
  if (c.contains("rel_tol")) {
    const double t = number_field(c, "rel_tol");
    if (!(t >= 0)) throw InputError(check_name(c) + ": rel_tol must be >= 0");
    const double a = p * (1 - t), b = p * (1 + t);
    return Interval{std::min(a, b), std::max(a, b)};
  }
  if (c.contains("factor")) {
    const double f = number_field(c, "factor");
    if (!(f >= 1)) throw InputError(check_name(c) + ": factor must be >= 1");
    if (!(p > 0)) throw InputError(check_name(c) + ": a factor tolerance needs a positive paper value");
    return Interval{p / f, p * f};
  }
  return std::nullopt;
}

// A check's kind; a check without one (made by hand in a test) is judged as a plain bounds check. A spec never
// gets here with an unknown kind: validate_figure_checks refuses it when the specs load.
const CheckKind& kind_of(const Json& c) {
  static const CheckKind plain{.name = "", .evaluate = nullptr};
  const CheckKind* k = find_check_kind(c.value("kind", ""));
  return k != nullptr ? *k : plain;
}

}  // namespace

std::string check_name(const Json& c) {
  std::string s = c.value("statement", std::string());
  if (s.size() > 90) s = s.substr(0, 87) + "...";
  return "check '" + s + "'" + (c.contains("id") && c["id"].is_string() ? " (id " + c["id"].get<std::string>() + ")" : "");
}

std::string Interval::text() const {
  if (bounded_below() && bounded_above()) return lo == hi ? "exactly " + short_number(lo, 4) : "[" + short_number(lo, 4) + ", " + short_number(hi, 4) + "]";
  if (bounded_below()) return "at least " + short_number(lo, 4);
  if (bounded_above()) return "at most " + short_number(hi, 4);
  return "any value";
}

bool where_matches(const Json& item, const Json& where) {
  if (where.is_null()) return true;
  for (auto it = where.begin(); it != where.end(); ++it) {
    if (!item.contains(it.key())) return false;
    const Json& v = item[it.key()];
    if (it.value().is_array() && !v.is_array()) {  // a list in `where` matches any of its values
      if (std::none_of(it.value().begin(), it.value().end(), [&](const Json& w) { return where_matches(Json{{"x", v}}, Json{{"x", w}}); }))
        return false;
    } else if (v.is_object() && it.value().is_object()) {
      if (!where_matches(v, it.value())) return false;
    } else if (v.is_number() && it.value().is_number()) {
      if (std::abs(v.get<double>() - it.value().get<double>()) > 1e-12 * std::abs(it.value().get<double>()))
        return false;
    } else if (v != it.value()) {
      return false;
    }
  }
  return true;
}

bool posed_by_gibench(const Json& c) {
  const std::string by = c.value("posed_by", std::string("paper"));
  if (by != "paper" && by != "gibench") throw InputError(check_name(c) + ": posed_by must be \"paper\" or \"gibench\"");
  const std::string s = c.value("statement", std::string());
  if (by == "paper" && s.rfind("(gibench)", 0) == 0)
    throw InputError(check_name(c) + ": a statement marked (gibench) needs \"posed_by\": \"gibench\"");
  return by == "gibench";
}

bool is_judged(const Json& c) { return !c.value("report", false) && kind_of(c).judged; }

Interval attainable_range(const Json& c, const Json& all) {
  const CheckKind& kind = kind_of(c);
  return kind.attainable != nullptr ? kind.attainable(c, all) : Interval{};
}

Criterion check_criterion(const Json& c, const Json& all) {
  Criterion out;
  const CheckKind& kind = kind_of(c);
  if (kind.criterion == CriterionForm::categorical) {
    out.categorical = true;
    const Json& e = c.contains("expect") ? c["expect"] : c.value("status", Json("ok"));
    if (e.is_string()) out.accepted.push_back(e.get<std::string>());
    else if (e.is_array())
      for (const auto& x : e) out.accepted.push_back(x.get<std::string>());
    if (out.accepted.empty()) throw InputError(check_name(c) + ": needs the accepted behaviour(s) in 'expect'");
    out.values = kind.values;
    for (const auto& a : out.accepted)
      if (std::find(out.values.begin(), out.values.end(), a) == out.values.end() && !(kind.any_failure != nullptr && a == kind.any_failure))
        throw InputError(check_name(c) + ": unknown " + kind.value_noun + " '" + a + "'");
    if (std::none_of(out.values.begin(), out.values.end(), [&](const std::string& v) { return judge(out, v) == Outcome::fails; }))
      throw InputError(check_name(c) + ": accepts every outcome, so it can never fail");
    return out;
  }
  out.attainable = attainable_range(c, all);
  out.integer = kind.integer != nullptr && kind.integer(c);
  const Json& pv = c.value("paper_value", Json(nullptr));
  if (kind.criterion == CriterionForm::steps && pv.is_string()) {  // "failed": the paper's cap was reached
    out.categorical = true;
    out.accepted = {"failed"};
    out.values = {"failed", "reached"};
    return out;
  }
  if (kind.criterion == CriterionForm::order) {
    const Json& e = c.contains("expected") ? c["expected"] : pv;
    if (!e.is_number()) throw InputError(check_name(c) + ": an order check needs a numeric expected order");
    const double tol = c.value("tolerance", 0.3);
    if (!(tol > 0)) throw InputError(check_name(c) + ": tolerance must be > 0");
    if (tol > 0.3 && !c.contains("tolerance_reason"))
      throw InputError(check_name(c) + ": an order tolerance above 0.3 needs a tolerance_reason");
    out.magnitude = {e.get<double>() - tol, e.get<double>() + tol};
    out.reference = e.get<double>();
    return out;
  }
  if (kind.criterion == CriterionForm::steps) {
    if (!pv.is_number()) throw InputError(check_name(c) + ": paper_value must be a step count or \"failed\"");
    const double p = pv.get<double>();
    const double tol = std::max(c.value("abs_steps", 0.0), c.value("rel", 0.0) * p);
    out.magnitude = {p - tol, p + tol};
    out.reference = p;
  } else if (kind.criterion == CriterionForm::best) {
    // ours = (best error among the expected methods) / (best error of all): 1 when an expected method is the best.
    const double within = c.value("within", 1.0);
    if (!(within >= 1)) throw InputError(check_name(c) + ": within must be >= 1");
    out.magnitude = {-kInf, within};
    out.reference = 1;
  } else {
    std::optional<Interval> b = explicit_bounds(c, c);
    if (pv.is_number()) {
      out.reference = pv.get<double>();
      const std::optional<Interval> t = tolerance_bounds(c, out.reference);
      if (b && t) throw InputError(check_name(c) + ": give either bounds (at_most / at_least / range) or a tolerance, not both");
      if (t) b = t;
      if (!b) throw InputError(check_name(c) + ": a numeric paper_value needs its tolerance (sig_digits, abs_tol, rel_tol or factor)");
    } else if (has_number(c, "yardstick")) {
      out.reference = number_field(c, "yardstick");
      if (!b) b = tolerance_bounds(c, out.reference);
    }
    if (!b) throw InputError(check_name(c) + ": needs at_most, at_least, range or a numeric paper_value with a tolerance");
    out.magnitude = *b;
  }
  if (c.contains("direction")) {
    if (!c["direction"].is_object()) throw InputError(check_name(c) + ": direction must be an object with at_least / at_most");
    out.direction = explicit_bounds(c["direction"], c);
    if (!out.direction) throw InputError(check_name(c) + ": direction needs at_least, at_most or range");
  }

  // Bounds a measurement can never violate, or never meet, are spec errors (GUIDE 7).
  const Interval& att = out.attainable;
  auto reject_trivial = [&](const Interval& i, const char* what) {
    if (covers(i, att))
      throw InputError(check_name(c) + ": its " + what + " " + i.text() + " contains every value the measured quantity can take (" +
                       att.text() + "), so it can never fail");
    const Interval meet = intersect(i, att);
    if (meet.lo > meet.hi || (out.integer && std::floor(meet.hi) < std::ceil(meet.lo)))
      throw InputError(check_name(c) + ": its " + what + " " + i.text() + " lies outside what the measured quantity can take (" +
                       att.text() + "), so it can never hold");
  };
  reject_trivial(out.magnitude, "bound");
  if (out.direction) reject_trivial(*out.direction, "direction");

  // Tolerances wider than +/-25 % of the number the statement is held to need a written reason.
  // A bound at the number itself is the claim "more (less) than X", whose other side is open by nature.
  const Interval eff = intersect(out.magnitude, att);
  double ref = out.reference;
  if (!std::isfinite(ref) && c.contains("range") && eff.lo + eff.hi != 0)
    ref = 0.5 * (eff.lo + eff.hi);  // a range without a number: its half-width relative to its centre
  if (std::isfinite(ref) && ref != 0 && kind.criterion != CriterionForm::best) {
    const bool at_ref_lo = std::abs(eff.lo - ref) <= 1e-12 * std::abs(ref), at_ref_hi = std::abs(eff.hi - ref) <= 1e-12 * std::abs(ref);
    double width = 0;
    for (const double b : {eff.lo, eff.hi}) {
      if (std::isfinite(b)) width = std::max(width, std::abs(b / ref - 1));
      else if (!at_ref_lo && !at_ref_hi) width = kInf;
    }
    if (width > 0.25 + 1e-12 && !c.contains("tolerance_reason"))
      throw InputError(check_name(c) + ": accepts " + out.magnitude.text() + ", wider than +/-25 % of " + short_number(ref, 4) +
                       "; give the reason in tolerance_reason");
  }
  return out;
}

Outcome judge(const Criterion& c, double x) {
  if (c.categorical || !std::isfinite(x)) return Outcome::fails;
  if (c.magnitude.contains(x)) return Outcome::holds;
  if (c.direction && c.direction->contains(x)) return Outcome::direction_only;
  return Outcome::fails;
}

Outcome judge(const Criterion& c, const std::string& x) {
  if (!c.categorical) return Outcome::fails;
  const auto accepts = [&](const char* v) { return std::find(c.accepted.begin(), c.accepted.end(), v) != c.accepted.end(); };
  if (accepts(x.c_str()) || (x != "ok" && accepts("not ok"))) return Outcome::holds;  // "not ok": any failure
  return Outcome::fails;
}

namespace {

Json base_row(const Json& check, const Json& ours, const std::string& note) {
  Json v;
  v["statement"] = check.value("statement", "");
  v["source"] = check.value("source", "");
  v["kind"] = check.value("kind", "");
  v["class"] = posed_by_gibench(check) ? "gibench" : "paper";
  v["paper_value"] = check.value("paper_value", Json(nullptr));
  if (has_number(check, "yardstick")) v["yardstick"] = check["yardstick"];
  v["ours"] = ours;
  const Json& pv = v["paper_value"];
  const Json& ref = pv.is_number() ? pv : v.value("yardstick", Json(nullptr));
  v["ratio"] = (ref.is_number() && ours.is_number() && ref.get<double>() != 0) ? json_number(ours.get<double>() / ref.get<double>())
                                                                                 : Json(nullptr);
  std::string reason = check.value("reason", "");
  if (!note.empty()) reason = reason.empty() ? note : reason + " " + note;
  v["reason"] = reason;
  if (check.contains("id")) v["id"] = check["id"];
  return v;
}

}  // namespace

Json verdict_row(const Json& check, const Json& ours, Outcome o, const std::string& note) {
  Json v = base_row(check, ours, note);
  if (check.contains("not_reproducible")) {
    v["verdict"] = "not reproducible";
    v["reason"] = check.value("not_reproducible", "") + " " + v.value("reason", "");
    return v;
  }
  if (v["class"] == "gibench") {
    v["verdict"] = "gibench check";
    v["holds"] = o == Outcome::holds ? Json(true) : o == Outcome::inconclusive ? Json(nullptr) : Json(false);
    return v;
  }
  switch (o) {
    case Outcome::holds: v["verdict"] = "reproduced"; break;
    case Outcome::direction_only: v["verdict"] = "direction only"; break;
    case Outcome::fails: v["verdict"] = "refuted"; break;
    case Outcome::inconclusive: v["verdict"] = "inconclusive"; break;
  }
  return v;
}

Json no_data_row(const Json& check, const std::string& why) {
  Json v = base_row(check, nullptr, why);
  v["verdict"] = "no data";
  return v;
}

Json measured_row(const Json& check, const Json& ours, const std::string& note) {
  Json v = base_row(check, ours, note);
  v["verdict"] = "measured";
  return v;
}

Json judge_row(const Json& check, double ours, const std::string& note, const Json& all) {
  if (!std::isfinite(ours)) return no_data_row(check, "no finite value: " + note);
  if (!is_judged(check)) return measured_row(check, json_number(ours), note);
  const Criterion crit = check_criterion(check, all);
  const Outcome o = judge(crit, ours);
  std::string how = note + " Holds for " + crit.magnitude.text();
  if (crit.direction) how += "; the direction for " + crit.direction->text();
  how += ".";
  if (o == Outcome::direction_only && std::isfinite(crit.reference) && crit.reference != 0)
    how += " Measured " + short_number(ours, 4) + " against " + short_number(crit.reference, 4) + ": a factor " +
           short_number(ours / crit.reference >= 1 ? ours / crit.reference : crit.reference / ours, 4) + " off.";
  return verdict_row(check, json_number(ours), o, how);
}

void VerdictCounts::add(const Json& r) {
  const std::string v = r.value("verdict", "");
  if (v == "reproduced") ++reproduced;
  else if (v == "direction only") ++direction_only;
  else if (v == "refuted") ++refuted;
  else if (v == "not reproducible") ++not_reproducible;
  else if (v == "inconclusive") ++inconclusive;
  else if (v == "measured") ++measured;
  else if (v == "no data") ++no_data;
  else if (v == "gibench check") {
    ++gibench;
    const Json& h = r.value("holds", Json(nullptr));
    if (h.is_null()) ++gibench_inconclusive;
    else if (h.get<bool>()) ++gibench_hold;
    else ++gibench_fail;
  }
}

void VerdictCounts::add(const VerdictCounts& o) {
  reproduced += o.reproduced, direction_only += o.direction_only, refuted += o.refuted;
  not_reproducible += o.not_reproducible, inconclusive += o.inconclusive;
  gibench += o.gibench, gibench_hold += o.gibench_hold, gibench_fail += o.gibench_fail;
  gibench_inconclusive += o.gibench_inconclusive, measured += o.measured, no_data += o.no_data;
}

std::string VerdictCounts::summary() const {
  std::ostringstream s;
  std::vector<std::string> parts;
  auto part = [&](int n, const char* what) {
    if (n > 0) parts.push_back(std::to_string(n) + " " + what);
  };
  part(reproduced, "reproduced");
  part(direction_only, "direction only");
  part(refuted, "refuted");
  part(not_reproducible, "not reproducible");
  part(inconclusive, "inconclusive");
  if (parts.empty()) parts.push_back(measured > 0 ? "no paper statement judged (" + std::to_string(measured) + " measured)" : "no paper statements");
  for (std::size_t i = 0; i < parts.size(); ++i) s << (i ? ", " : "") << parts[i];
  if (gibench > 0) {
    s << "; " << gibench << " gibench check" << (gibench == 1 ? "" : "s") << " (" << gibench_hold << " hold";
    if (gibench_fail > 0) s << ", " << gibench_fail << " FAIL";
    if (gibench_inconclusive > 0) s << ", " << gibench_inconclusive << " inconclusive";
    s << ")";
  }
  if (no_data > 0) s << "; " << no_data << " without data (spec or harness error)";
  return s.str();
}

}  // namespace gib
