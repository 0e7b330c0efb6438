#include "harness/reproduce.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <map>
#include <sstream>

#include "core/errors.hpp"
#include "harness/comparison_checks.hpp"
#include "harness/expected_deviations.hpp"
#include "harness/figure_verdict.hpp"
#include "harness/json_util.hpp"
#include "harness/manifest.hpp"
#include "harness/plotting.hpp"
#include "harness/steps_check.hpp"
#include "harness/threads.hpp"

namespace gib {

namespace fs = std::filesystem;

std::vector<FigureSpec> load_figure_specs() {
  std::vector<FigureSpec> out;
  const fs::path dir = fs::path(project_root()) / "harness" / "figures";
  if (!fs::is_directory(dir)) throw InputError("figure specs not found in " + dir.string() + " (set GIBENCH_ROOT)");
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".json") continue;
    Json j = read_json_file(e.path());
    if (!j.contains("id") || !j["id"].is_string() || !j.contains("sweeps") || !j.contains("checks"))
      throw InputError(e.path().string() + ": a figure spec needs id, sweeps and checks");
    out.push_back({j["id"].get<std::string>(), j, j.value("default", false)});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return out;
}

const FigureSpec& find_figure(const std::vector<FigureSpec>& all, const std::string& id) {
  for (const auto& f : all)
    if (f.id == id) return f;
  throw InputError("unknown figure '" + id + "' (gibench list figures shows the ids)");
}

namespace {

bool matches(const Json& item, const Json& where) { return where_matches(item, where); }

std::string fmt(double x) {
  std::ostringstream s;
  s << std::setprecision(4) << x;
  return s.str();
}

Json verdict(const Json& check, const Json& ours, bool reproduced, const std::string& why) {
  return figure_verdict(check, ours, reproduced, why);
}

Json not_comparable(const Json& check, const std::string& why) { return figure_not_comparable(check, why); }

std::vector<double> metric_values(const Json& rows, const Json& check, bool ok_only) {
  std::vector<double> vals;
  const std::string metric = check.value("metric", "");
  for (const auto& r : rows) {
    if (!matches(r, check.value("where", Json()))) continue;
    if (ok_only && r.value("status", "") != "ok") continue;
    const Json& m = r.value("metrics", Json::object());
    if (m.contains(metric) && m[metric].is_number()) vals.push_back(std::abs(m[metric].get<double>()));
  }
  return vals;
}

Json check_order(const Json& c, const Json& fits) {
  std::vector<double> orders;
  int failed = 0;
  for (const auto& f : fits) {
    if (!matches(f, c.value("where", Json())) || f.value("metric", "") != c.value("metric", "")) continue;
    if (f.value("ok", false)) orders.push_back(f["order_hat"].get<double>());
    else ++failed;
  }
  if (orders.empty()) return not_comparable(c, "no successful order fit matches (" + std::to_string(failed) + " failed)");
  const Json& e = c.contains("expected") ? c["expected"] : c.value("paper_value", Json(nullptr));
  if (!e.is_number()) throw InputError("order check '" + c.value("statement", "") + "' needs a numeric expected order");
  const double expected = e.get<double>();
  const double tol = c.value("tolerance", 0.3);
  const auto [lo, hi] = std::minmax_element(orders.begin(), orders.end());
  const bool ok = failed == 0 && *lo >= expected - tol && *hi <= expected + tol;
  const Json ours = orders.size() == 1 ? json_number(orders[0]) : Json(fmt(*lo) + " .. " + fmt(*hi));
  return verdict(c, ours, ok, "Fitted slope" + std::string(orders.size() > 1 ? "s" : "") + " must lie within " +
                                  fmt(expected) + " +/- " + fmt(tol) + ".");
}

Json check_extreme(const Json& c, const Json& rows, bool is_max) {
  const auto vals = metric_values(rows, c, true);
  if (vals.empty()) return not_comparable(c, "no ok row matches");
  const double v = is_max ? *std::max_element(vals.begin(), vals.end()) : *std::min_element(vals.begin(), vals.end());
  const double bound = c.value(is_max ? "at_most" : "at_least", 0.0);
  const bool ok = is_max ? v <= bound : v >= bound;
  return verdict(c, json_number(v), ok,
                 std::string(is_max ? "Max" : "Min") + " of |" + c.value("metric", "") + "| over " +
                     std::to_string(vals.size()) + " run(s); threshold " + fmt(bound) + ".");
}

// A printed value with d significant digits matches when ours rounds to it: |ours - paper| <= half a
// unit in its last printed digit (plus a hair for binary rounding).
double printed_half_unit(double paper, int digits) {
  const double exponent = std::floor(std::log10(std::abs(paper))) - digits + 1;
  return 0.5 * std::pow(10.0, exponent) * (1 + 1e-9);
}

Json check_value(const Json& c, const Json& rows) {
  const auto vals = metric_values(rows, c, false);
  if (vals.size() != 1) return not_comparable(c, std::to_string(vals.size()) + " rows match; a value check needs one");
  const Json& pv = c.value("paper_value", Json(nullptr));
  if (!pv.is_number()) return not_comparable(c, "paper_value is not a number");
  const double paper = pv.get<double>();
  if (c.contains("sig_digits")) {
    const int d = c["sig_digits"].get<int>();
    const double half = printed_half_unit(paper, d);
    const bool ok = std::abs(vals[0] - paper) <= half;
    Json v = verdict(c, json_number(vals[0]), ok, "Matches when it rounds to the " + std::to_string(d) + " printed digits.");
    v["sig_digits"] = d;  // the table prints the paper's value as printed and ours with two more digits
    return v;
  }
  const double tol = c.value("rel_tol", 1e-3);
  const bool ok = std::abs(vals[0] / paper - 1.0) <= tol;
  return verdict(c, json_number(vals[0]), ok, "Relative tolerance " + fmt(tol) + ".");
}

// The stability findings (Tao-Owhadi: "blows up at t = 5000-8000") need the time each run stopped: listed in
// the note for every matching row that did not end ok.
Json check_status(const Json& c, const Json& rows) {
  int n = 0, bad = 0;
  std::string stops;
  for (const auto& r : rows) {
    if (!matches(r, c.value("where", Json()))) continue;
    ++n;
    const std::string want = c.value("status", "ok"), got = r.value("status", "");
    if (want == "not ok" ? got == "ok" : got != want) ++bad;  // "not ok": any failure (diverged, solver_failed, ...)
    const Json& step = r.value("status_step", Json(nullptr));
    if (r.value("status", "") != "ok" && step.is_number() && r.value("h", Json(nullptr)).is_number())
      stops += (stops.empty() ? "" : ", ") + r.value("ic", std::string("?")) + " " + r.value("status", "") + " at t = " +
               fmt(step.get<double>() * r["h"].get<double>());
  }
  if (n == 0) return not_comparable(c, "no row matches");
  return verdict(c, std::to_string(n - bad) + "/" + std::to_string(n) + " " + c.value("status", "ok"), bad == 0,
                 stops.empty() ? "" : "Runs that stopped: " + stops + ".");
}

}  // namespace

namespace {

// ratio: ours = ours(numerator) / ours(denominator) of two earlier checks (by "id"), against a paper
// claim such as "almost nine-fold"; passes within the relative tolerance, or above at_least.
Json check_ratio(const Json& c, const std::map<std::string, Json>& by_id) {
  const auto num = by_id.find(c.value("numerator", "")), den = by_id.find(c.value("denominator", ""));
  if (num == by_id.end() || den == by_id.end()) throw InputError("ratio check needs earlier checks 'numerator' and 'denominator' by id");
  const Json& a = num->second["ours"];
  const Json& b = den->second["ours"];
  if (!a.is_number() || !b.is_number() || b.get<double>() == 0) return not_comparable(c, "an operand has no number");
  const double r = a.get<double>() / b.get<double>();
  if (c.contains("at_least")) return verdict(c, json_number(r), r >= c["at_least"].get<double>(), "Needs at least " + fmt(c["at_least"].get<double>()) + ".");
  const Json& pv = c.value("paper_value", Json(nullptr));
  if (!pv.is_number()) return not_comparable(c, "ratio check needs a numeric paper_value or at_least");
  const double tol = c.value("rel_tol", 0.25);
  return verdict(c, json_number(r), std::abs(r / pv.get<double>() - 1) <= tol, "Relative tolerance " + fmt(tol) + ".");
}

// time_ratio: median time per step of the row matching `where` over that of `reference` (Buss's
// Figure 3 normalises by 3rd order + EP); needs timing in the sweep.
Json check_time_ratio(const Json& c, const Json& rows) {
  auto ns_of = [&](const Json& where) -> double {
    for (const auto& r : rows)
      if (matches(r, where) && r.value("timing", Json(nullptr)).is_object()) return r["timing"].value("ns_per_step", NAN);
    return NAN;
  };
  const double a = ns_of(c.value("where", Json())), b = ns_of(c.value("reference", Json()));
  if (!std::isfinite(a) || !std::isfinite(b) || b <= 0) return not_comparable(c, "no timed row matches where/reference");
  const double r = a / b;
  const Json& pv = c.value("paper_value", Json(nullptr));
  if (!pv.is_number()) return not_comparable(c, "time_ratio needs a numeric paper_value");
  const double tol = c.value("rel_tol", 0.5);
  return verdict(c, json_number(r), std::abs(r / pv.get<double>() - 1) <= tol,
                 "Measured ns/step ratio on this machine (" + fmt(a) + " / " + fmt(b) + " ns); relative tolerance " + fmt(tol) + ".");
}

// wall_time: median seconds of one whole run of the row matching `where` (timing pass), against a
// printed duration in seconds (paper_value, e.g. "more than a week" = 604800): ours and the ratio, no verdict
// (a speed-up on other hardware and code is a measurement, not a reproduction).
Json check_wall_time(const Json& c, const Json& rows) {
  for (const auto& r : rows) {
    if (!matches(r, c.value("where", Json())) || !r.value("timing", Json(nullptr)).is_object()) continue;
    const double s = r["timing"].value("median_s", NAN);
    const double paper = c.value("paper_seconds", NAN);
    std::string note = "Median wall time of the whole run on this machine: " + fmt(s) + " s";
    if (std::isfinite(paper) && s > 0) note += ", " + fmt(paper / s) + "x less than the source's " + fmt(paper) + " s";
    Json v = verdict(c, json_number(s), true, note + ".");
    v["verdict"] = "measured";
    return v;
  }
  return not_comparable(c, "no timed row matches where (the sweep needs timing)");
}

}  // namespace

void apply_expected_deviations(const std::string& figure, Json& verdicts, const Json& checks, const Json& rows,
                               const std::vector<ExpectedDeviation>& deviations) {
  for (std::size_t i = 0; i < verdicts.size() && i < checks.size(); ++i) {
    const Json& c = checks[i];
    const Json w = c.value("where", Json::object());
    // A where-object usually names only the method and h; the problem and preset come from its rows.
    Json row = Json::object();
    for (const auto& r : rows)
      if (matches(r, w)) {
        row = r;
        break;
      }
    const std::string method = c.contains("method") ? c.value("method", "") : w.value("method", "");
    const std::string problem = c.value("problem", w.value("problem", row.value("problem", std::string("free_rigid_body"))));
    const std::string preset = c.value("preset", w.value("preset", row.value("preset", std::string("*"))));
    // An entry for "<figure>#<check id>" explains that one check; one for the figure id explains all of the method's.
    const ExpectedDeviation* d = nullptr;
    if (c.contains("id")) d = find_expected_deviation(deviations, method, problem, preset, "*", figure + "#" + c["id"].get<std::string>());
    if (d == nullptr) d = find_expected_deviation(deviations, method, problem, preset, "*", figure);
    if (d == nullptr) continue;
    Json& v = verdicts[i];
    v["expected_deviation"] = d->reason;
    if (v.value("verdict", "") == "differs") v["verdict"] = "expected_deviation";
    else if (v.value("verdict", "") == "reproduced") v["verdict"] = "reproduced (stale expected deviation)";
  }
}

Json evaluate_checks(const Json& checks, const Json& rows, const Json& fits, const SweepOptions& opt, const Json& series) {
  // Computational checks (steps to accuracy) are independent: run them in parallel first.
  std::vector<Json> computed(checks.size());
  const auto n = static_cast<long>(checks.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(thread_count(opt.jobs))
  for (long i = 0; i < n; ++i)
    if (checks[static_cast<std::size_t>(i)].value("kind", "") == "steps")
      computed[static_cast<std::size_t>(i)] = check_steps(checks[static_cast<std::size_t>(i)], opt);
  Json out = Json::array();
  std::map<std::string, Json> by_id;
  for (std::size_t i = 0; i < checks.size(); ++i) {
    const Json& c = checks[i];
    const std::string kind = c.value("kind", "");
    Json v;
    if (kind == "order") v = check_order(c, fits);
    else if (kind == "max") v = check_extreme(c, rows, true);
    else if (kind == "min") v = check_extreme(c, rows, false);
    else if (kind == "value") v = check_value(c, rows);
    else if (kind == "status") v = check_status(c, rows);
    else if (kind == "steps") v = computed[i];
    else if (kind == "ratio") v = check_ratio(c, by_id);
    else if (kind == "time_ratio") v = check_time_ratio(c, rows);
    else if (kind == "metric_ratio") v = check_metric_ratio(c, rows);
    else if (kind == "best") v = check_best(c, rows);
    else if (kind == "series_stat") v = check_series_stat(c, rows, series);
    else if (kind == "spikes") v = check_spikes(c, rows, series);
    else if (kind == "wall_time") v = check_wall_time(c, rows);
    else if (kind == "series_compare") v = check_series_compare(c, rows, series);
    else throw InputError("figure check of unknown kind '" + kind + "'");
    if (c.contains("id")) {
      v["id"] = c["id"];
      by_id[c["id"].get<std::string>()] = v;
    }
    out.push_back(v);
  }
  return out;
}

namespace {

std::string cell_text(const Json& v, int digits = 4) {
  if (v.is_null()) return "—";
  if (v.is_number()) {
    std::ostringstream s;
    s << std::setprecision(digits) << v.get<double>();
    return s.str();
  }
  if (v.is_string()) return v.get<std::string>();
  return v.dump();
}

std::string escape_md(std::string s) {
  for (std::size_t p = 0; (p = s.find('|', p)) != std::string::npos; p += 2) s.replace(p, 1, "\\|");
  return s;
}

void markdown_checks(std::ostringstream& md, const Json& checks) {
  md << "| # | statement (paper) | paper | ours | ratio | verdict | why / note |\n|---|---|---|---|---|---|---|\n";
  int i = 0;
  std::map<std::string, int> count;
  for (const auto& c : checks) {
    ++count[c.value("verdict", "")];
    std::string why = c.value("reason", "");
    if (c.contains("expected_deviation")) why = "Expected deviation: " + c.value("expected_deviation", "") + " " + why;
    // Value checks print the paper's number as printed (6 digits when the spec gives no count).
    const bool value = c.value("kind", "") == "value" || c.contains("sig_digits");
    const int digits = c.value("sig_digits", value ? 6 : 4);
    md << "| " << ++i << " | " << escape_md(c.value("statement", "")) << " | " << escape_md(cell_text(c["paper_value"], digits))
       << " | " << escape_md(cell_text(c["ours"], digits + 2)) << " | " << cell_text(c["ratio"], value ? digits + 1 : 4) << " | **"
       << c.value("verdict", "") << "** | " << escape_md(why) << " |\n";
  }
  md << "\n**Verdict: " << count["reproduced"] << " of " << checks.size() - count["measured"] << " statements reproduced";
  if (count["expected_deviation"] > 0) md << ", " << count["expected_deviation"] << " known deviations (expected, explained)";
  if (count["differs"] > 0) md << ", " << count["differs"] << " differ (reasons in the table)";
  if (count["not_comparable"] > 0) md << ", " << count["not_comparable"] << " not comparable";
  md << ".**";
  if (count["measured"] > 0) md << " (" << count["measured"] << " rows are measured values other rows build on, without a verdict.)";
  md << "\n";
}

void markdown_fits(std::ostringstream& md, const Json& doc) {
  const Json& fits = doc.value("fits", Json::array());
  if (fits.empty()) return;
  md << "\n## Order fits\n\n| method | preset | ic | T | metric | order | 95 % CI | r² | window (h) |\n"
     << "|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& f : fits) {
    const Json& w = f["window"];
    md << "| " << f.value("method", "") << " | " << f.value("preset", "") << " | " << f.value("ic", "") << " | "
       << fmt(f.value("T", 0.0)) << " | " << f.value("metric", "") << " | ";
    if (f.value("ok", false))
      md << fmt(f["order_hat"].get<double>()) << " | [" << fmt(f["ci95"][0].get<double>()) << ", "
         << fmt(f["ci95"][1].get<double>()) << "] | " << fmt(f["r2"].get<double>()) << " | " << fmt(w["h_max"].get<double>())
         << " .. " << fmt(w["h_min"].get<double>()) << " (" << w["n"].get<int>() << ") |\n";
    else
      md << "— | — | — | " << escape_md(f.value("note", "")) << " |\n";
  }
}

double per_step(const Json& cost, const char* key) {
  const double steps = cost.value("steps", 0.0);
  return steps > 0 ? cost.value(key, 0.0) / steps : 0.0;
}

// Counted work per step: what the rank's counted cost uses (RHS evaluations + exponentials + Cayley maps).
double counted_per_step(const Json& cost) {
  return per_step(cost, "rhs_evals") + per_step(cost, "exp_evals") + per_step(cost, "cayley_evals");
}

std::string method_label(const Json& r) {
  std::ostringstream s;  // a stream, not string concatenation: GCC 12's -Wrestrict false positive
  s << r.value("method", "");
  const Json& p = r.value("method_params", Json::object());
  if (!p.empty()) s << ' ' << p.dump();
  return s.str();
}

// Timed figures (Buss Fig. 3): counted operations and measured time per step side by side, both relative
// to the figure's work_reference row, with the paper's value from the time_ratio check on the same row.
void markdown_work(std::ostringstream& md, const Json& doc) {
  const Json& spec = doc["figure"];
  if (!spec.contains("work_reference")) return;
  const Json& rows = doc.value("rows", Json::array());
  const Json* ref = nullptr;
  for (const auto& r : rows)
    if (matches(r, spec["work_reference"])) ref = &r;
  if (ref == nullptr) return;
  const double ref_ns = (*ref)["timing"].value("ns_per_step", 0.0);
  const double ref_work = counted_per_step((*ref)["cost"]);
  md << "\n## Work per step (reference: " << method_label(*ref) << ")\n\n"
     << "| method | RHS / step | exp / step | Cayley / step | counted work, relative | ns / step (IQR) | time, relative | paper |\n"
     << "|---|---|---|---|---|---|---|---|\n";
  const Json& checks = spec.value("checks", Json::array());
  for (const auto& r : rows) {
    const Json& t = r.value("timing", Json::object());
    if (!t.contains("ns_per_step") || ref_ns <= 0) continue;
    const Json& c = r["cost"];
    std::string paper = "—";
    for (const auto& k : checks)
      if (k.value("kind", "") == "time_ratio" && matches(r, k.value("where", Json())) && k["paper_value"].is_number())
        paper = fmt(k["paper_value"].get<double>());
    const double steps = c.value("steps", 1.0);
    md << "| " << method_label(r) << " | " << fmt(per_step(c, "rhs_evals")) << " | " << fmt(per_step(c, "exp_evals")) << " | "
       << fmt(per_step(c, "cayley_evals")) << " | " << fmt(counted_per_step(c) / ref_work) << " | "
       << fmt(t["ns_per_step"].get<double>()) << " (" << fmt(1e9 * t.value("iqr_s", 0.0) / steps) << ") | "
       << fmt(t["ns_per_step"].get<double>() / ref_ns) << " | " << paper << " |\n";
  }
  md << "\nCounted work = RHS evaluations + exponentials + Cayley maps; the paper's column is its own operation-count model.\n";
}

}  // namespace

std::string figure_markdown(const Json& doc) {
  const Json& spec = doc["figure"];
  std::ostringstream md;
  md << "# " << spec.value("id", "") << " — " << spec.value("title", "") << "\n\n";
  md << "*Source:* " << spec.value("source", "") << "  \n";
  if (spec.contains("caption")) md << "*Caption:* \"" << spec.value("caption", "") << "\"  \n";
  md << "*Command:* `gibench reproduce " << spec.value("id", "") << "`  \n";
  md << "*Commit:* `" << doc["manifest"].value("git_commit", "") << "`" << (doc["manifest"].value("git_dirty", false) ? " (dirty)" : "")
     << ", " << doc["manifest"].value("date_utc", "") << "\n\n";
  for (const auto& n : spec.value("notes", Json::array())) md << "- " << n.get<std::string>() << "\n";
  md << "\n## Paper statements against ours\n\n";
  markdown_checks(md, doc["checks"]);
  markdown_fits(md, doc);
  markdown_work(md, doc);
  bool any = false;
  for (const auto& p : spec.value("plots", Json::array())) {
    if (!any) md << "\n## Figures\n\n";
    any = true;
    md << "![" << p.value("title", "") << "](" << p.value("file", "") << ")\n\n";
  }
  int bad = 0;
  for (const auto& r : doc["rows"]) bad += r.value("status", "") != "ok";
  md << "\nRows: " << doc["rows"].size() << " (" << bad << " not ok). Full data: `" << spec.value("id", "") << ".json` "
     << "(schema: results/SCHEMA.md).\n";
  return md.str();
}

namespace {

}  // namespace

ReproduceOutcome reproduce_figure(const FigureSpec& fig, const ReproduceOptions& opt,
                                  const std::vector<std::string>& command_line) {
  SweepResult all;
  int k = 0;
  for (const auto& sweep_cfg : fig.spec["sweeps"]) {
    SweepSpec s = parse_sweep(sweep_cfg, fig.id + ".sweeps[" + std::to_string(k++) + "]");
    if (s.name == "sweep") s.name = fig.id;
    const SweepResult r = run_sweep(s, opt.sweep);
    const std::size_t offset = all.rows.size();
    for (const auto& row : r.rows) all.rows.push_back(row);
    for (auto ser : r.series) {
      ser["row"] = ser["row"].get<std::size_t>() + offset;
      all.series.push_back(ser);
    }
    for (const auto& f : r.fits) all.fits.push_back(f);
  }
  Json doc = results_document("gibench.figure", all, command_line);
  doc["figure"] = fig.spec;
  doc["checks"] = evaluate_checks(fig.spec["checks"], all.rows, all.fits, opt.sweep, all.series);
  apply_expected_deviations(fig.id, doc["checks"], fig.spec["checks"], all.rows, load_expected_deviations());
  const fs::path dir = opt.out_dir.empty() ? fs::path(project_root()) / "results" / "paper" : opt.out_dir;
  ReproduceOutcome out;
  out.json = dir / (fig.id + ".json");
  out.markdown = dir / (fig.id + ".md");
  write_json_atomic(out.json, doc);
  write_file_atomic(out.markdown, figure_markdown(doc));
  for (const auto& c : doc["checks"]) {
    out.reproduced += c.value("verdict", "") == "reproduced";
    out.total += c.value("verdict", "") != "measured";
  }
  if (opt.plots && !fig.spec.value("plots", Json::array()).empty()) out.plots_ok = run_plot_script(out.json);
  return out;
}

}  // namespace gib
