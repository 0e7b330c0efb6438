#include "harness/particle_checks.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "harness/figure_verdict.hpp"
#include "harness/json_util.hpp"
#include "harness/reproduce.hpp"

namespace gib {
namespace {

struct P3 {
  double x = 0, y = 0, z = 0;
};

P3 operator-(const P3& a, const P3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
double dot(const P3& a, const P3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
double norm(const P3& a) { return std::sqrt(dot(a, a)); }

bool read_point(const Json& v, P3* out) {
  if (!v.is_array() || v.size() != 3 || !v[0].is_number() || !v[1].is_number() || !v[2].is_number()) return false;
  *out = {v[0].get<double>(), v[1].get<double>(), v[2].get<double>()};
  return true;
}

bool read_points(const Json& v, std::vector<P3>* out) {
  out->clear();
  if (!v.is_array()) return false;
  for (const auto& p : v) {
    P3 q;
    if (!read_point(p, &q)) return false;
    out->push_back(q);
  }
  return true;
}

bool all_zero(const Json& v) {
  std::vector<P3> pts;
  if (!read_points(v, &pts)) return false;
  return std::all_of(pts.begin(), pts.end(), [](const P3& p) { return p.x == 0 && p.y == 0 && p.z == 0; });
}

// mu = Q mu_bar with Q row-major (the params' Q0).
bool dipole(const Json& Q, const P3& mu_bar, P3* out) {
  if (!Q.is_array() || Q.size() != 9) return false;
  double a[9];
  for (std::size_t k = 0; k < 9; ++k) {
    if (!Q[k].is_number()) return false;
    a[k] = Q[k].get<double>();
  }
  *out = {a[0] * mu_bar.x + a[1] * mu_bar.y + a[2] * mu_bar.z, a[3] * mu_bar.x + a[4] * mu_bar.y + a[5] * mu_bar.z,
          a[6] * mu_bar.x + a[7] * mu_bar.y + a[8] * mu_bar.z};
  return true;
}

double degrees(double rad) { return rad * 180.0 / std::numbers::pi; }

// (-180, 180]
double wrap180(double deg) {
  double w = std::fmod(deg, 360.0);
  if (w <= -180) w += 360;
  if (w > 180) w -= 360;
  return w;
}

// One two-particle row of an orientation_rule check.
struct PairRun {
  double d = 0;       // orientation difference, degrees in [0, 180]
  double mean = 0;    // mean angle modulo 180, degrees in [0, 180)
  double accel = 0;   // r'' = 2 (r(T) - r0) / T^2
  double theory = 0;  // -dU/dr at the start (its sign is what counts)
};

// Reads one row; returns an empty string or why the row cannot be used.
std::string read_pair_run(const Json& row, PairRun* out) {
  const Json& p = row.value("params", Json::object());
  std::vector<P3> q0, q1;
  P3 mu_bar, mu1, mu2;
  if (!read_points(p.value("q0", Json()), &q0) || q0.size() != 2)
    return "needs two-particle rows (params.q0 with 2 positions)";
  if (!read_points(row.value("final_state", Json::object()).value("q", Json()), &q1) || q1.size() != 2)
    return "a row has no final positions of its two particles";
  if (!read_point(p.value("mu_bar", Json()), &mu_bar) || !p.contains("Q0") || !p["Q0"].is_array() || p["Q0"].size() != 2 ||
      !dipole(p["Q0"][0], mu_bar, &mu1) || !dipole(p["Q0"][1], mu_bar, &mu2))
    return "a row lacks params mu_bar and Q0 (the dipoles)";
  if (!all_zero(p.value("p0", Json())) || !all_zero(p.value("m0", Json())))
    return "a row does not start at rest (p0, m0 not zero), so r(T) - r(0) is not its initial acceleration";
  const P3 sep = q0[1] - q0[0];
  const double r0 = norm(sep);
  if (!(r0 > 0)) return "a row starts with both particles at one point";
  const P3 e{sep.x / r0, sep.y / r0, sep.z / r0};
  const double planar = std::max({std::abs(e.z), std::abs(mu1.z), std::abs(mu2.z)});
  if (planar > 1e-12 * std::max(1.0, norm(mu1))) return "a row is not planar (separation or dipoles leave the x-y plane)";
  const double T = row.value("T", 0.0);
  if (!(T > 0)) return "a row has no positive T";
  auto angle_from_e = [&](const P3& mu) { return degrees(std::atan2(e.x * mu.y - e.y * mu.x, dot(e, mu))); };
  const double a1 = angle_from_e(mu1), a2 = angle_from_e(mu2);
  const double diff = wrap180(a1 - a2);
  out->d = std::abs(diff);
  out->mean = std::fmod(a2 + 0.5 * diff + 720.0, 180.0);
  out->accel = 2 * (norm(q1[1] - q1[0]) - r0) / (T * T);
  // -dU/dr at fixed orientations (the thesis's soft spheres, or Lennard-Jones when the row says lj).
  const double sigma = p.value("sigma", 1.0), eps = p.value("epsilon", 1.0);
  const double s6 = std::pow(sigma, 6);
  const double c12 = 4 * eps * s6 * s6, c6 = p.value("short_range", std::string("soft_sphere")) == "lj" ? 4 * eps * s6 : 0.0;
  const double angular = dot(mu1, mu2) - 3 * dot(mu1, e) * dot(mu2, e);
  out->theory = 12 * c12 / std::pow(r0, 13) - 6 * c6 / std::pow(r0, 7) + 3 * angular / std::pow(r0, 4);
  if (p.value("cutoff", 0.0) > 0) out->theory = NAN;  // the switch changes the force: the closed form does not apply
  return "";
}

int sign(double x) { return (x > 0) - (x < 0); }

}  // namespace

Json check_orientation_rule(const Json& c, const Json& rows) {
  const std::string stat = c.value("stat", std::string());
  if (stat != "on_average" && stat != "per_configuration" && stat != "dipole_theory")
    throw InputError("orientation_rule: unknown stat '" + stat + "' (on_average, per_configuration, dipole_theory)");
  std::vector<PairRun> runs;
  for (const auto& r : rows) {
    if (!where_matches(r, c.value("where", Json()))) continue;
    if (r.value("status", "") != "ok") return failed_run_row(c, r, "matching");
    PairRun run;
    const std::string why = read_pair_run(r, &run);
    if (!why.empty()) return no_data_row(c, "orientation_rule " + why + ".");
    runs.push_back(run);
  }
  if (runs.empty()) return no_data_row(c, "no row matches");

  // The rule's prediction: -1 attract (d < 90), +1 repel (d > 90), 0 silent (d = 90).
  auto rule = [](double d) { return std::abs(d - 90) <= 1e-6 ? 0 : d < 90 ? -1 : 1; };
  struct Group {
    double d = 0, sum = 0;
    int rows = 0, attract = 0, repel = 0, as_rule = 0;
  };
  std::map<long long, Group> groups;  // by d to 1e-6 degrees
  int judged = 0, per_config = 0, theory_rows = 0, theory_agree = 0, silent = 0;
  double weakest = INFINITY;  // the smallest |r''|: how far the closest call is from a sign change
  for (const auto& run : runs) {
    Group& g = groups[std::llround(run.d * 1e6)];
    g.d = run.d;
    g.sum += run.accel;
    ++g.rows;
    g.attract += run.accel < 0;
    g.repel += run.accel > 0;
    weakest = std::min(weakest, std::abs(run.accel));
    if (std::isfinite(run.theory)) {
      ++theory_rows;
      theory_agree += sign(run.accel) == sign(run.theory);
    }
    if (rule(run.d) == 0) {
      ++silent;
      continue;
    }
    ++judged;
    const bool agrees = sign(run.accel) == rule(run.d);
    per_config += agrees;
    g.as_rule += agrees;
  }
  int judged_groups = 0, average_agree = 0;
  Json by = Json::array();
  std::ostringstream means, counts;
  for (const auto& [key, g] : groups) {
    const double mean = g.sum / g.rows;
    by.push_back({{"d_deg", json_number(g.d)}, {"rows", g.rows}, {"attract", g.attract}, {"repel", g.repel},
                  {"mean_accel", json_number(mean)}});
    const char* sep = means.tellp() > 0 ? ", " : "";
    means << sep << short_number(g.d) << " deg " << short_number(mean);
    counts << sep << short_number(g.d) << " deg " << (rule(g.d) == 0 ? "(silent)" : std::to_string(g.as_rule) + " of " + std::to_string(g.rows));
    if (rule(g.d) == 0) continue;
    ++judged_groups;
    average_agree += sign(mean) == rule(g.d);
  }
  std::ostringstream note;
  note << runs.size() << " pairs from rest, r'' = 2 (r(T) - r(0)) / T^2 (negative: attract). ";
  double ours = NAN;
  if (stat == "on_average") {
    note << "Mean r'' over the mean angles, per orientation difference d: " << means.str() << ". The rule's sign (attract below 90 deg, "
         << "repel above) for " << average_agree << " of " << judged_groups << " differences; single pairs have it for " << per_config
         << " of " << judged << ".";
    ours = judged_groups > 0 ? static_cast<double>(average_agree) / judged_groups : NAN;
  } else if (stat == "per_configuration") {
    note << "Pairs whose r'' has the rule's sign, per d: " << counts.str() << "; " << per_config << " of " << judged << " in all.";
    ours = judged > 0 ? static_cast<double>(per_config) / judged : NAN;
  } else {
    note << "The sign of -dU/dr at the start matches r'' for " << theory_agree << " of " << theory_rows << " pairs; the smallest |r''| is "
         << short_number(weakest) << ".";
    ours = theory_rows > 0 ? static_cast<double>(theory_agree) / theory_rows : NAN;
  }
  if (silent > 0 && stat != "dipole_theory") note << " " << silent << " pairs at d = 90 deg, where the rule is silent, are not counted.";
  Json v = judge_row(c, ours, note.str());
  v["by_difference"] = by;
  return v;
}

namespace {

// The positions of every sample of the row's "q" series; empty with *why set when it cannot be read.
std::vector<std::vector<P3>> position_samples(const Json& s, std::size_t n, std::string* why) {
  std::vector<std::vector<P3>> out;
  for (const auto& sample : s["q"]) {
    std::vector<P3> pts;
    if (!read_points(sample, &pts) || pts.size() != n) {
      *why = "a sample of the q series is not " + std::to_string(n) + " finite positions";
      return {};
    }
    out.push_back(std::move(pts));
  }
  if (out.size() < 2) *why = "the q series has fewer than 2 samples";
  return out;
}

P3 centre(const std::vector<P3>& pts) {
  P3 c;
  for (const auto& p : pts) c = {c.x + p.x, c.y + p.y, c.z + p.z};
  const double k = static_cast<double>(pts.size());
  return {c.x / k, c.y / k, c.z / k};
}

}  // namespace

Json check_particle_fates(const Json& c, const Json& rows, const Json& series) {
  const std::string stat = c.value("stat", std::string());
  if (stat != "pushed_out" && stat != "bonded_throughout")
    throw InputError("particle_fates: unknown stat '" + stat + "' (pushed_out, bonded_throughout)");
  const double bond = c.value("bond_distance", 1.5), min_share = c.value("min_share", 0.9);
  if (!(bond > 0)) throw InputError("particle_fates: bond_distance must be positive");
  if (!(min_share > 0 && min_share <= 1)) throw InputError("particle_fates: min_share must lie in (0, 1]");
  if (stat == "pushed_out" && !(c.contains("grow_by") && c["grow_by"].is_number() && c["grow_by"].get<double>() >= 0))
    throw InputError("particle_fates pushed_out needs grow_by >= 0 (how much farther from the centre of mass a particle ends)");
  const double grow_by = c.value("grow_by", 0.0);
  const auto n = static_cast<std::size_t>(c.value("particles", 0));

  std::size_t index = rows.size();
  int matches = 0;
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (where_matches(rows[i], c.value("where", Json()))) index = i, ++matches;
  if (matches != 1) return no_data_row(c, std::to_string(matches) + " rows match; a particle_fates check needs one");
  if (rows[index].value("status", "") != "ok") return failed_run_row(c, rows[index], "matching");
  for (const auto& s : series) {
    if (s.value("row", rows.size()) != index || !s.contains("q")) continue;
    std::string why;
    const auto q = position_samples(s, n, &why);
    if (!why.empty()) return no_data_row(c, why + " (the check says particles = " + std::to_string(n) + ")");
    std::ostringstream note;
    int count = 0;
    if (stat == "pushed_out") {
      const P3 c0 = centre(q.front()), c1 = centre(q.back());
      std::ostringstream who, receded;
      for (std::size_t i = 0; i < n; ++i) {
        const double grew = norm(q.back()[i] - c1) - norm(q.front()[i] - c0);
        double nearest = INFINITY;
        for (std::size_t j = 0; j < n; ++j)
          if (j != i) nearest = std::min(nearest, norm(q.back()[i] - q.back()[j]));
        if (grew > grow_by && nearest > bond) {
          ++count;
          who << (count > 1 ? ", " : "") << i + 1 << " (+" << short_number(grew) << ", nearest " << short_number(nearest) << ")";
        } else if (grew > grow_by) {
          receded << (receded.tellp() > 0 ? ", " : "") << i + 1 << " (+" << short_number(grew) << ", but " << short_number(nearest) << " from another)";
        }
      }
      note << "Particles (1-based) ending more than " << short_number(grow_by) << " farther from the centre of mass than they started "
           << "and with no other within " << short_number(bond) << ": " << (count > 0 ? who.str() : "none") << ".";
      if (receded.tellp() > 0) note << " Receded but bonded: " << receded.str() << ".";
    } else {
      std::ostringstream who, partly;
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) {
          std::size_t close = 0;
          for (const auto& sample : q) close += norm(sample[i] - sample[j]) <= bond;
          const double share = static_cast<double>(close) / static_cast<double>(q.size());
          const std::string pair = "(" + std::to_string(i + 1) + ", " + std::to_string(j + 1) + ") " + short_number(100 * share, 3) + " %";
          if (share >= min_share) {
            ++count;
            who << (count > 1 ? ", " : "") << pair;
          } else if (close > 0) {
            partly << (partly.tellp() > 0 ? ", " : "") << pair;
          }
        }
      note << "Pairs (1-based) within " << short_number(bond) << " of each other in at least " << short_number(100 * min_share) << " % of the "
           << q.size() << " samples: " << (count > 0 ? who.str() : "none") << ".";
      note << " Pairs within it for part of the run: " << (partly.tellp() > 0 ? partly.str() : "none") << ".";
    }
    return judge_row(c, static_cast<double>(count), note.str());
  }
  return no_data_row(c, "the matching row recorded no q series (observe.series_particles)");
}

}  // namespace gib
