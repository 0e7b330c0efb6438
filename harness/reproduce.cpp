#include "harness/reproduce.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include <stdlib.h>

#include "core/errors.hpp"
#include "core/safe_file.hpp"
#include "core/user_input.hpp"
#include "harness/check_kinds.hpp"
#include "harness/figure_verdict.hpp"
#include "harness/json_util.hpp"
#include "harness/results_storage.hpp"
#include "harness/manifest.hpp"
#include "harness/plotting.hpp"
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
    if (!j.contains("id") || !j["id"].is_string() || !j.contains("sweeps") || !j.contains("checks") || !j["checks"].is_array())
      throw InputError(e.path().string() + ": a figure spec needs id, sweeps and checks");
    try {
      check_file_name_word(j["id"].get<std::string>(), "id");  // <out-dir>/<id>.json
      validate_figure_checks(j["checks"]);
    } catch (const InputError& err) {
      throw InputError(e.path().filename().string() + ": " + err.what());
    }
    out.push_back({j["id"].get<std::string>(), j, j.value("default", false), e.path()});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
  return out;
}

const FigureSpec& find_figure(const std::vector<FigureSpec>& all, const std::string& id) {
  std::vector<std::string> valid;
  for (const auto& f : all) {
    if (f.id == id) return f;
    valid.push_back(f.id);
  }
  throw InputError(unknown_id_message("figure", id, valid) + "; or default, all");
}

namespace {

bool matches(const Json& item, const Json& where) { return where_matches(item, where); }

std::string fmt(double x) {
  std::ostringstream s;
  s << std::setprecision(4) << x;
  return s.str();
}

// A timing row, or one combining earlier rows of which one depends on timing, depends on the machine: its verdict is
// shown, but a figure re-run elsewhere may move it across a tolerance, so the CI comparison does not pin it (README,
// Figures in CI).
bool machine_dependent(const Json& c, const CheckKind& kind, const std::map<std::string, Json>& by_id) {
  if (kind.timing) return true;
  for (const char* side : kind.operands) {
    const auto it = by_id.find(c.value(side, ""));
    if (it != by_id.end() && it->second.value("machine_dependent", false)) return true;
  }
  return false;
}

}  // namespace

void apply_deviations(const Json& checks, Json& verdicts) {
  for (std::size_t i = 0; i < verdicts.size() && i < checks.size(); ++i) {
    const Json& c = checks[i];
    Json& v = verdicts[i];
    const std::string verdict = v.value("verdict", "");
    // The outcome in the words a spec's expected_verdict uses: a paper verdict, or holds / fails / inconclusive.
    std::string outcome = verdict;
    if (verdict == "gibench check") {
      const Json& h = v.value("holds", Json(nullptr));
      outcome = h.is_null() ? "inconclusive" : h.get<bool>() ? "holds" : "fails";
    }
    const bool deviates = outcome == "direction only" || outcome == "refuted" || outcome == "inconclusive" || outcome == "fails";
    if (c.contains("expected_verdict") && !c.contains("deviation"))
      throw InputError("check '" + c.value("statement", "") + "': an expected_verdict needs the deviation that explains it");
    // A timing verdict moves with the machine: its deviation explains without pinning the verdict.
    if (c.contains("deviation") && !c.contains("expected_verdict") && !v.value("machine_dependent", false))
      throw InputError("check '" + c.value("statement", "") + "': a deviation needs the expected_verdict it explains");
    if (c.contains("deviation")) v["deviation"] = c["deviation"];
    if (c.contains("expected_verdict")) {
      v["expected_verdict"] = c["expected_verdict"];
      if (c["expected_verdict"] != outcome) v["stale"] = true;  // the data no longer say what the deviation explains
    }
    if (deviates && !c.contains("deviation")) v["unexplained"] = true;
  }
}

bool verdict_row_failed(const Json& v) {
  if (v.value("verdict", "") == "no data") return true;
  if (v.value("machine_dependent", false)) return false;
  return v.value("stale", false) || v.value("unexplained", false);
}

void validate_figure_checks(const Json& checks) {
  std::set<std::string> ids;
  for (const auto& c : checks) {
    if (!c.is_object()) throw InputError("a check must be a JSON object, not " + quote_excerpt(c.dump()));
    const CheckKind& kind = check_kind(c);  // before anything else reads the check's fields by its kind
    posed_by_gibench(c);
    if (is_judged(c)) check_criterion(c, checks);
    if (c.contains("expected_verdict") && !c.contains("deviation"))
      throw InputError("check '" + c.value("statement", "") + "': an expected_verdict needs the deviation that explains it");
    if (c.contains("id") && !ids.insert(c["id"].get<std::string>()).second)
      throw InputError("check id '" + c["id"].get<std::string>() + "' appears twice");
    for (const char* side : kind.operands)
      if (!ids.count(c.value(side, std::string())))
        throw InputError(std::string(kind.name) + " check '" + c.value("statement", "") + "' needs an earlier check with id '" +
                         c.value(side, std::string()) + "'");
  }
}

Json evaluate_checks(const Json& checks, const Json& rows, const Json& fits, const SweepOptions& opt, const Json& series) {
  validate_figure_checks(checks);  // a spec error stops the figure before any row is judged
  std::map<std::string, Json> by_id;
  const CheckInputs in{rows, fits, series, checks, by_id, opt};
  // Checks that run their own integrations depend on nothing else: in parallel first.
  std::vector<Json> computed(checks.size());
  const auto n = static_cast<long>(checks.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(thread_count(opt.jobs))
  for (long i = 0; i < n; ++i) {
    const Json& c = checks[static_cast<std::size_t>(i)];
    if (const CheckKind& kind = check_kind(c); kind.own_search) computed[static_cast<std::size_t>(i)] = kind.evaluate(c, in);
  }
  Json out = Json::array();
  for (std::size_t i = 0; i < checks.size(); ++i) {
    const Json& c = checks[i];
    const CheckKind& kind = check_kind(c);
    Json v = kind.own_search ? computed[i] : kind.evaluate(c, in);
    if (c.contains("id")) v["id"] = c["id"];
    if (machine_dependent(c, kind, by_id)) v["machine_dependent"] = true;
    if (c.contains("id")) by_id[c["id"].get<std::string>()] = v;
    out.push_back(v);
  }
  apply_deviations(checks, out);
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

std::string verdict_text(const Json& c) {
  std::string v = c.value("verdict", "");
  if (v == "gibench check") {
    const Json& h = c.value("holds", Json(nullptr));
    v += h.is_null() ? ": inconclusive" : h.get<bool>() ? ": holds" : ": FAILS";
  }
  std::string out = "**" + v + "**";
  if (c.value("stale", false)) out += " (expected " + c.value("expected_verdict", std::string()) + ": STALE)";
  if (c.value("unexplained", false)) out += " (UNEXPLAINED)";
  if (c.value("machine_dependent", false)) out += " (timing)";
  return out;
}

void markdown_rows(std::ostringstream& md, const Json& checks, bool gibench_class) {
  md << "| # | statement | " << (gibench_class ? "yardstick" : "paper") << " | ours | ratio | verdict | why / note |\n"
     << "|---|---|---|---|---|---|---|\n";
  int i = 0;
  for (const auto& c : checks) {
    ++i;
    if ((c.value("class", "paper") == "gibench") != gibench_class) continue;
    std::string why = c.value("reason", "");
    const std::string v = c.value("verdict", "");
    const bool deviates = v == "direction only" || v == "refuted" || v == "inconclusive" ||
                          (v == "gibench check" && c.value("holds", Json(nullptr)) != Json(true));
    if (c.contains("deviation") && (deviates || c.value("stale", false)))
      why = "**Deviation:** " + c.value("deviation", "") + " " + why;
    // Checks against one printed number show it as printed (6 digits when the spec gives no count).
    const CheckKind* kind = find_check_kind(c.value("kind", ""));
    const bool value = (kind != nullptr && kind->printed_digits) || c.contains("sig_digits");
    const int digits = c.value("sig_digits", value ? 6 : 4);
    const Json& reference = c["paper_value"].is_null() && c.contains("yardstick") ? c["yardstick"] : c["paper_value"];
    md << "| " << i << " | " << escape_md(c.value("statement", "")) << " | " << escape_md(cell_text(reference, digits)) << " | "
       << escape_md(cell_text(c["ours"], digits + 2)) << " | " << cell_text(c["ratio"], value ? digits + 1 : 4) << " | "
       << verdict_text(c) << " | " << escape_md(why) << " |\n";
  }
}

void markdown_checks(std::ostringstream& md, const Json& checks) {
  VerdictCounts n;
  for (const auto& c : checks) n.add(c);
  md << "**" << n.summary() << ".**";
  if (n.measured == 1) md << " (1 row is a measured value other rows build on, without a verdict.)";
  if (n.measured > 1) md << " (" << n.measured << " rows are measured values other rows build on, without a verdict.)";
  md << "\n\n";
  if (n.paper() + n.measured + n.no_data > 0 || n.gibench == 0) markdown_rows(md, checks, false);
  if (n.gibench > 0) {
    md << "\n## gibench checks\n\nStatements gibench posed itself (a spec prototype's number as the yardstick, a property of a "
          "method), counted apart from the paper's.\n\n";
    markdown_rows(md, checks, true);
  }
  md << "\nVerdicts (README, \"Verdicts\"): *reproduced* within the stated tolerance; *direction only*: the ordering or sign "
        "holds, the magnitude does not; *refuted*: our data contradict the statement; *not reproducible*: the source lacks what is "
        "needed; *inconclusive*: the measurement cannot decide. *(timing)* rows depend on the machine.\n";
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
  const double ref_work = cost_value((*ref)["cost"], "work_per_step");
  md << "\n## Work per step (reference: " << method_label(*ref) << ")\n\n"
     << "| method | function evals / step | exp / step | Cayley / step | linear solves / step | counted work / step | "
        "counted work, relative | ns / step (IQR) | time, relative | paper |\n"
     << "|---|---|---|---|---|---|---|---|---|---|\n";
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
    const double work = cost_value(c, "work_per_step");
    md << "| " << method_label(r) << " | " << fmt(cost_value(c, "function_evals_per_step")) << " | "
       << fmt(per_step(c, "exp_evals")) << " | " << fmt(per_step(c, "cayley_evals")) << " | "
       << fmt(per_step(c, "linear_solves")) << " | " << fmt(work) << " | " << fmt(work / ref_work) << " | "
       << fmt(t["ns_per_step"].get<double>()) << " (" << fmt(1e9 * t.value("iqr_s", 0.0) / steps) << ") | "
       << fmt(t["ns_per_step"].get<double>() / ref_ns) << " | " << paper << " |\n";
  }
  md << "\nCounted work = function evaluations + exponentials + logarithms + Cayley maps + linear solves + Newton "
        "iterations, one each (core/counters.hpp), the currency of `gibench rank`; the paper's column is its own "
        "operation-count model.\n";
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

std::filesystem::path make_private_temp_dir(const std::string& stem) {
  // A TMPDIR naming nothing is the user's setting, not an internal error (std throws filesystem_error for it).
  std::error_code ec;
  const fs::path base = fs::temp_directory_path(ec);
  if (ec) throw InputError("TMPDIR " + quote_excerpt(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "") +
                           " is not a directory (" + ec.message() + "); unset it or name one");
  std::string tmpl = (base / (stem + "-XXXXXX")).string();
  if (::mkdtemp(tmpl.data()) == nullptr) {
    const int err = errno;
    throw InputError("cannot create a temporary directory under " + base.string() + " (" + std::strerror(err) +
                     "; TMPDIR chooses another)");
  }
  return tmpl;
}

namespace {

std::string verdict_words(const Json& c) {
  std::string v = c.value("verdict", "");
  if (v == "gibench check") {
    const Json& h = c.value("holds", Json(nullptr));
    v += h.is_null() ? " (inconclusive)" : h.get<bool>() ? " (holds)" : " (fails)";
  }
  const Json& ours = c.value("ours", Json(nullptr));
  return v + ", ours " + (ours.is_number() ? fmt(ours.get<double>()) : ours.dump());
}

}  // namespace

std::vector<std::string> compare_with_committed(const Json& now, const fs::path& committed_file) {
  if (!fs::exists(committed_file)) return {"no committed result " + committed_file.string() + " (run gibench reproduce and commit it)"};
  const Json before = read_json_file(committed_file);
  const Json& a = before.value("checks", Json::array());
  const Json& b = now.value("checks", Json::array());
  if (a.size() != b.size())
    return {"the committed result has " + std::to_string(a.size()) + " checks, the spec now " + std::to_string(b.size()) +
            ": rerun gibench reproduce and commit the result"};
  std::vector<std::string> out;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::string row = "#" + std::to_string(i + 1) + " '" + b[i].value("statement", "") + "'";
    if (a[i].value("statement", "") != b[i].value("statement", "")) {
      out.push_back(row + ": the committed result has another statement here: rerun gibench reproduce and commit the result");
      continue;
    }
    // A timing verdict moves with the machine; it only has to be there.
    if (a[i].value("machine_dependent", false) || b[i].value("machine_dependent", false)) {
      if (b[i].value("verdict", "") == "no data") out.push_back(row + ": no data (" + b[i].value("reason", "") + ")");
      continue;
    }
    if (a[i].value("verdict", "") != b[i].value("verdict", "") || a[i].value("holds", Json(nullptr)) != b[i].value("holds", Json(nullptr)))
      out.push_back(row + ": committed " + verdict_words(a[i]) + "; now " + verdict_words(b[i]));
  }
  return out;
}

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
  const fs::path dir = opt.out_dir.empty() ? fs::path(project_root()) / "results" / "paper" : opt.out_dir;
  ReproduceOutcome out;
  out.json = dir / (fig.id + ".json");
  out.markdown = dir / (fig.id + ".md");
  write_file_atomic(out.markdown, figure_markdown(doc));
  write_json_atomic(out.json, compact_for_storage(doc));
  for (const auto& c : doc["checks"]) {
    out.counts.add(c);
    if (verdict_row_failed(c)) out.problems.push_back(c);
  }
  if (opt.plots && !fig.spec.value("plots", Json::array()).empty()) out.plots_ok = run_plot_script(out.json);
  return out;
}

}  // namespace gib
