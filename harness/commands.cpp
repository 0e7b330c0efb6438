#include "harness/commands.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <cstdio>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string_view>

#include "core/errors.hpp"
#include "core/method_tags.hpp"
#include "core/metrics.hpp"
#include "core/method.hpp"
#include "core/problem.hpp"
#include "core/user_input.hpp"
#include "harness/baseline.hpp"
#include "harness/catalog.hpp"
#include "harness/conformance.hpp"
#include "harness/expected_deviations.hpp"
#include "harness/json_util.hpp"
#include "harness/model_kinds.hpp"
#include "harness/manifest.hpp"
#include "harness/plotting.hpp"
#include "harness/reference_reach.hpp"
#include "harness/rank.hpp"
#include "harness/reproduce.hpp"
#include "harness/results_storage.hpp"
#include "harness/runner.hpp"
#include "harness/sweep.hpp"
#include "harness/sweep_session.hpp"
#include "methods/from_file/method_file.hpp"

namespace gib {

namespace {

bool valid_utf8(const std::string& s) {
  try {
    (void)Json(s).dump();  // nlohmann validates UTF-8 when it serialises a string
    return true;
  } catch (const Json::type_error&) {
    return false;
  }
}

// The value of one key=value item: JSON when it looks like JSON (then it must be valid), else a bare word.
Json assignment_value(const std::string& label, const std::string& text) {
  static const std::set<std::string> nonfinite = {"nan", "NaN", "NAN", "inf", "Inf", "INF", "-inf", "-Inf",
                                                  "infinity", "Infinity", "-Infinity"};
  if (nonfinite.count(text)) throw InputError(label + ": " + quote_excerpt(text) + " is not a number JSON allows (no NaN or Inf)");
  if (text == "true" || text == "false" || text == "null" || text.find_first_of("[{0123456789-+.\"") == 0) {
    try {
      return parse_json_text(text, label);
    } catch (const InputError& e) {
      throw InputError(std::string(e.what()) + " (NaN and Inf are not allowed)");
    }
  }
  if (!valid_utf8(text)) throw InputError(label + ": the value is not valid UTF-8");
  return text;  // a bare word such as minimal or left
}

}  // namespace

Json parse_assignments(const std::vector<std::string>& items, const std::string& flag) {
  Json out = Json::object();
  for (const auto& item : items) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0) throw InputError(flag + " expects key=value, got " + quote_excerpt(item));
    const std::string key = item.substr(0, eq), text = item.substr(eq + 1);
    if (!valid_utf8(key)) throw InputError(flag + ": a key that is not valid UTF-8, " + quote_excerpt(key));
    const std::string label = flag + " " + quote_excerpt(key);
    if (out.contains(key)) throw InputError(label + " is set twice");
    if (text.empty()) throw InputError(label + " has no value (" + flag + " key=value)");
    out[key] = assignment_value(label, text);
  }
  return out;
}

namespace {

// Tags first (family, then the properties: what --include tag:... selects), the claims' details after them.
int list_methods() {
  std::vector<std::string> tags;
  int width = static_cast<int>(std::string_view("tags (select with tag:<tag>)").size());
  for (const auto& m : method_registry()) {
    std::string t;
    for (const auto& tag : method_tags(m)) t += (t.empty() ? "" : " ") + tag;
    width = std::max(width, static_cast<int>(t.size()));
    tags.push_back(std::move(t));
  }
  std::printf("%-22s %-*s %-38s %s\n", "id", width, "tags (select with tag:<tag>)", "name", "claims [method file]");
  for (std::size_t i = 0; i < method_registry().size(); ++i) {
    const auto& m = method_registry()[i];
    std::printf("%-22s %-*s %-38s %s%s\n", m.id.c_str(), width, tags[i].c_str(), m.display_name.c_str(),
                claims_text(m).c_str(), m.source.empty() ? "" : (" [" + m.source + "]").c_str());
  }
  return 0;
}

int list_problems() {
  for (const auto& p : problem_registry()) {
    std::printf("%s  (%s; %s)\n", p.id.c_str(), to_string(p.kind), p.citation.c_str());
    for (const auto& pr : p.presets)
      std::printf("  preset %-12s %s%s\n", pr.name.c_str(), pr.stress ? "[stress case, not in the battery] " : "", pr.description.c_str());
    for (const auto& pa : p.parameters) std::printf("  --set %-10s %s\n", pa.name.c_str(), pa.description.c_str());
  }
  return 0;
}

int list_matrix() {
  std::printf("%-22s", "method \\ problem");
  for (const auto& p : problem_registry()) std::printf(" %-18s", p.id.c_str());
  std::printf("\n");
  for (const auto& m : method_registry()) {
    std::printf("%-22s", m.id.c_str());
    for (const auto& p : problem_registry()) std::printf(" %-18s", compatible(m, p) ? "yes" : "-");
    std::printf("\n");
  }
  return 0;
}

// Every declared metric (core/metrics.hpp): what readers and plots may name, with the keys a row carries for it.
int list_metrics() {
  std::printf("%-28s %-19s %-22s %s\n", "name", "family", "range", "model kinds; unit; definition; row keys");
  for (const metrics::Metric* m : metrics::all()) {
    std::string kinds, keys;
    for (unsigned bit = 0; bit < 32; ++bit) {
      if ((m->kinds & (1U << bit)) == 0) continue;
      if (!kinds.empty()) kinds += ',';
      kinds += to_string(static_cast<ModelKind>(bit));
    }
    for (const char* suffix : metrics::suffixes(m->family)) {
      if (!keys.empty()) keys += ' ';
      keys += metrics::key(*m, suffix);
    }
    std::ostringstream range;
    range << '[' << m->lo << ", " << m->hi << ']';
    std::printf("%-28s %-19s %-22s %s; %s; %s; %s\n", m->name, metric_family_name(m->family), range.str().c_str(), kinds.c_str(), m->unit,
                m->definition, keys.empty() ? "(series only)" : keys.c_str());
  }
  return 0;
}

int list_figures() {
  for (const auto& f : load_figure_specs())
    std::printf("%-28s %-8s %s\n", f.id.c_str(), f.in_default_set ? "default" : "", f.spec.value("title", "").c_str());
  return 0;
}

}  // namespace

int cmd_list(const std::string& what, bool json) {
  if (json) {
    std::cout << catalog_json(what).dump(1) << "\n";
    return 0;
  }
  if (what == "methods") return list_methods();
  if (what == "problems") return list_problems();
  if (what == "matrix") return list_matrix();
  if (what == "figures") return list_figures();
  if (what == "metrics") return list_metrics();
  throw InputError(unknown_id_message("list", what, {"methods", "problems", "matrix", "figures", "metrics"}));
}

namespace {

Cell cell_from_run_args(const RunArgs& a) {
  Json cfg = a.config.empty() ? Json::object() : read_json_file(a.config);
  if (!cfg.is_object()) throw InputError(a.config + ": expected a JSON object");
  const std::set<std::string> allowed = {"problem", "preset", "overrides", "ic", "method", "method_params", "h", "T", "steps"};
  for (auto it = cfg.begin(); it != cfg.end(); ++it)
    if (!allowed.count(it.key())) throw InputError(a.config + ": unknown key " + quote_excerpt(it.key()));
  Cell c;
  try {
    c.problem = a.problem.empty() ? cfg.value("problem", std::string()) : a.problem;
    c.preset = a.preset.empty() ? cfg.value("preset", std::string()) : a.preset;
    c.ic = a.ic.empty() ? cfg.value("ic", std::string("preset")) : a.ic;
    c.method = a.method.empty() ? cfg.value("method", std::string()) : a.method;
    c.overrides = cfg.value("overrides", Json::object());
    c.method_params = cfg.value("method_params", Json::object());
  } catch (const Json::exception&) {
    throw InputError(a.config + ": a field has the wrong type");
  }
  if (!c.overrides.is_object() || !c.method_params.is_object())
    throw InputError(a.config + ": overrides and method_params must be objects");
  const Json sets = parse_assignments(a.sets, "--set");
  const Json params = parse_assignments(a.params, "--param");
  c.overrides.update(sets);
  c.method_params.update(params);
  if (c.problem.empty()) throw InputError("no problem given (--problem)");
  if (c.method.empty()) throw InputError("no method given (--method)");
  const auto num = [&](const char* key, double flag) {
    if (flag != 0) return flag;
    if (!cfg.contains(key)) return 0.0;
    if (!cfg[key].is_number()) throw InputError(a.config + ": " + key + " must be a number");
    return cfg[key].get<double>();
  };
  c.h = num("h", a.h);
  if (!std::isfinite(c.h) || c.h <= 0) throw InputError("h must be a positive finite number (--h)");
  const double steps = a.steps != 0 ? static_cast<double>(a.steps) : num("steps", 0);
  const double T = num("T", a.T);
  if ((steps != 0) == (T != 0)) throw InputError("give exactly one of --T and --steps");
  if (steps != 0) {
    if (steps < 1 || steps > 1e12 || steps != std::floor(steps)) throw InputError("--steps must be an integer in 1..1e12");
    c.steps = static_cast<std::int64_t>(steps);
  } else {
    c.steps = steps_for(T, c.h);
  }
  if (a.series_points < 0) throw InputError("--series must be >= 0");
  if (a.timing_reps < 0 || a.timing_reps > 1000) throw InputError("--timing-reps must be in 0..1000");
  c.observe.series_points = a.series_points;
  c.observe.reference = !a.no_reference;
  c.timing.reps = a.timing_reps;
  return c;
}

// One state component as JSON text, cut to one line for large states (N particles); the file has it whole.
std::string state_excerpt(const Json& v) {
  constexpr std::size_t kMax = 220;  // a rotation matrix (9 numbers) whole, N particles cut
  const std::string text = v.dump();
  if (text.size() <= kMax) return text;
  const std::size_t numbers = static_cast<std::size_t>(std::count(text.begin(), text.end(), ',')) + 1;
  return text.substr(0, kMax) + "... (" + std::to_string(numbers) + " numbers)";
}

void print_run_summary(const Json& row, const Problem& problem) {
  std::printf("%s/%s ic=%s  method %s  h = %.6g  T = %.6g (%lld steps)\n", row["problem"].get<std::string>().c_str(),
              row["preset"].get<std::string>().c_str(), row["ic"].get<std::string>().c_str(),
              row["method"].get<std::string>().c_str(), row["h"].get<double>(), row["T"].get<double>(),
              row["steps"].get<long long>());
  std::printf("  status %s%s\n", row["status"].get<std::string>().c_str(),
              row["status_step"].is_null() ? "" : (" at step " + row["status_step"].dump()).c_str());
  for (const std::string& k : summary_metrics(problem)) {
    const Json& v = row["metrics"].value(k, Json(nullptr));
    if (row["metrics"].contains(k)) std::printf("  %-26s %s\n", k.c_str(), v.is_null() ? "null" : v.dump().c_str());
  }
  // The counted work first (the currency rank and the work-precision plots use), then what it is made of.
  const Json& cost = row["cost"];
  const double steps = std::max(1.0, cost.value("steps", 1.0));
  std::printf("  cost per step: %.4g work = %.4g function evaluations + %.4g exp + %.4g log + %.4g cayley + "
              "%.4g linear solves + %.4g nonlinear iterations; %lld solver failures\n",
              cost_value(cost, "work_per_step"), cost_value(cost, "function_evals_per_step"),
              cost.value("exp_evals", 0.0) / steps, cost.value("log_evals", 0.0) / steps, cost.value("cayley_evals", 0.0) / steps,
              cost.value("linear_solves", 0.0) / steps, cost.value("nonlinear_iters", 0.0) / steps,
              cost.value("solver_failures", 0LL));
  if (!row["timing"].is_null())
    std::printf("  time: median %.3g s (min %.3g, max %.3g), %.1f ns/step\n", row["timing"]["median_s"].get<double>(),
                row["timing"]["min_s"].get<double>(), row["timing"]["max_s"].get<double>(),
                row["timing"]["ns_per_step"].get<double>());
  const Json& state = row["final_state"];
  for (auto it = state.begin(); it != state.end(); ++it)
    std::printf("  final %-3s %s\n", it.key().c_str(), state_excerpt(it.value()).c_str());
}

}  // namespace

int cmd_run(const RunArgs& a) {
  const Cell c = cell_from_run_args(a);
  if (!a.json_stdout) check_output_file(a.out, "--out", {{a.config, "the run config"}});
  const PreparedCell prepared = prepare_cell(c);
  if (c.observe.reference)
    check_reference_reach(*prepared.problem, c.h * static_cast<double>(c.steps), "run --T (steps x h)");
  const CellOutcome o = run_cell(prepared);
  SweepResult r;
  r.rows.push_back(o.row);
  if (!o.series.is_null()) {
    Json s = o.series;
    s["row"] = 0;
    r.series.push_back(s);
  }
  const Json doc = results_document("gibench.results", r, a.command_line);
  if (a.json_stdout) {
    std::cout << doc.dump(1) << "\n";
  } else {
    print_run_summary(o.row, *prepared.problem);
    write_json_atomic(a.out, doc);
    std::printf("wrote %s\n", a.out.c_str());
  }
  return o.row["status"] == "ok" ? 0 : 3;
}

namespace {

void print_sweep_summary(const SweepSessionResult& r) {
  const Json& by = r.summary["by_status"];
  std::printf("%lld cells:", r.summary.value("cells", 0LL));
  for (auto it = by.begin(); it != by.end(); ++it) std::printf(" %lld %s", it.value().get<long long>(), it.key().c_str());
  if (r.resumed > 0) std::printf(" (%zu from the journal)", r.resumed);
  if (r.ranks > 1) {
    std::printf(" on %d MPI ranks (cells per rank:", r.ranks);
    for (const auto n : r.cells_per_rank) std::printf(" %zu", n);
    std::printf(")");
  }
  std::printf("\nwrote %s\n", r.out.c_str());
}

}  // namespace

int cmd_sweep(const SweepArgs& a) {
  const SweepSpec spec = parse_sweep(read_json_file(a.config), a.config);
  SweepSessionOptions opt;
  opt.jobs = a.jobs;
  opt.resume = a.resume;
  opt.restart = a.restart;
  opt.reproducible = a.reproducible;
  if (a.cell_time_budget_given) {
    if (!std::isfinite(a.cell_time_budget) || a.cell_time_budget < 0)
      throw InputError("--cell-time-budget must be a finite number of seconds >= 0");
    opt.cell_time_budget_s = a.cell_time_budget;
  }
  opt.command_line = a.command_line;
  opt.inputs = {{a.config, "the sweep config"}};
  if (a.resume && a.restart) throw InputError("--resume and --restart exclude each other");
  if (!a.shard.empty()) opt.shard = parse_shard(a.shard);
  opt.out = !a.out.empty() ? a.out
            : opt.shard.active() ? spec.name + ".shard-" + std::to_string(opt.shard.index) + "-of-" +
                                       std::to_string(opt.shard.count) + ".json"
                                 : spec.name + ".json";
  const SweepSessionResult r = run_sweep_session(spec, opt);
  if (r.wrote) print_sweep_summary(r);
  return 0;
}

int cmd_merge(const MergeArgs& a) {
  SweepSessionOptions opt;
  opt.out = a.out;
  opt.reproducible = a.reproducible;
  opt.command_line = a.command_line;
  std::vector<std::filesystem::path> paths(a.shards.begin(), a.shards.end());
  print_sweep_summary(merge_shards(paths, opt));
  return 0;
}

int cmd_compact(const CompactArgs& a) {
  // Every file is read and judged before any is written: a bad one among many leaves all as they were.
  std::vector<std::pair<std::filesystem::path, Json>> todo;
  for (const auto& f : a.files) {
    const std::filesystem::path path(f);
    check_output_file(path, "compact");
    Json doc = read_json_file(path);
    const std::string kind = doc.is_object() ? doc.value("kind", "") : "";
    if (kind != "gibench.figure" && kind != "gibench.rank" && kind != "gibench.conformance")
      throw InputError(excerpt(f, 200) + ": not a figure, rank or battery results file (kind '" + excerpt(kind, 60) +
                       "'); compact rewrites only those");
    todo.emplace_back(path, std::move(doc));
  }
  for (auto& [path, doc] : todo) {
    const std::string before = dump_lines(doc), after = dump_lines(compact_for_storage(doc));
    if (after == before) {
      std::printf("unchanged  %s\n", path.string().c_str());
      continue;
    }
    write_file_atomic(path, after);
    std::printf("compacted  %s: %zu -> %zu bytes\n", path.string().c_str(), before.size(), after.size());
  }
  return 0;
}

namespace {

// Every file a figure writes, before the first sweep: the directory, and no figure spec overwritten.
void check_reproduce_outputs(const std::vector<FigureSpec>& specs, const std::vector<const FigureSpec*>& todo,
                             const std::filesystem::path& dir) {
  check_output_dir(dir, "--out-dir");
  std::vector<NamedInput> inputs = {{expected_deviations_file(), "the expected deviations file"}};
  for (const auto& f : specs) inputs.push_back({f.file, "a figure spec"});
  for (const FigureSpec* f : todo)
    for (const char* ext : {".json", ".md"}) check_output_file(dir / (f->id + ext), "--out-dir", inputs);
}

}  // namespace

std::filesystem::path checked_json_and_markdown(const std::filesystem::path& out) {
  check_output_file(out, "--out");
  std::filesystem::path md = out;
  md.replace_extension(".md");
  if (md == out)
    throw InputError("--out " + excerpt(out.native(), 200) + ": the markdown goes beside the JSON as <stem>.md; give the JSON another extension");
  check_output_file(md, "--out's markdown");
  return md;
}

int cmd_reproduce(const ReproduceArgs& a) {
  const auto specs = load_figure_specs();
  std::vector<const FigureSpec*> todo;
  for (const auto& id : a.ids) {
    if (id == "all" || id == "default") {
      for (const auto& f : specs)
        if (id == "all" || f.in_default_set) todo.push_back(&f);
    } else {
      todo.push_back(&find_figure(specs, id));
    }
  }
  if (todo.empty()) throw InputError("nothing to reproduce (gibench list figures)");
  ReproduceOptions opt;
  opt.out_dir = a.out_dir;
  opt.plots = a.plots && !a.check;
  opt.sweep.jobs = a.jobs;
  // --check never touches the committed results: it writes beside them and compares.
  const std::filesystem::path committed = std::filesystem::path(project_root()) / "results" / "paper";
  if (a.check && opt.out_dir.empty()) opt.out_dir = make_private_temp_dir("gibench-reproduce-check");
  if (a.check && std::filesystem::weakly_canonical(opt.out_dir) == std::filesystem::weakly_canonical(committed))
    throw InputError("reproduce --check compares with results/paper: give another --out-dir");
  check_reproduce_outputs(specs, todo, opt.out_dir.empty() ? committed : opt.out_dir);
  bool plots_ok = true;
  VerdictCounts all;
  Json problems = Json::array();
  int changed = 0;
  for (const FigureSpec* f : todo) {
    const ReproduceOutcome o = reproduce_figure(*f, opt, a.command_line);
    std::printf("%-28s %s  -> %s\n", f->id.c_str(), o.counts.summary().c_str(), o.markdown.string().c_str());
    all.add(o.counts);
    for (auto p : o.problems) {
      p["figure"] = f->id;
      problems.push_back(p);
    }
    plots_ok = plots_ok && o.plots_ok;
    if (a.check) {
      const auto diffs = compare_with_committed(read_json_file(o.json), committed / (f->id + ".json"));
      for (const auto& d : diffs) std::printf("CHANGED %s: %s\n", f->id.c_str(), d.c_str());
      changed += static_cast<int>(diffs.size());
    }
  }
  if (todo.size() > 1) std::printf("%-28s %s\n", "all", all.summary().c_str());
  if (a.check) {
    std::printf("reproduce --check: %d verdict(s) differ from results/paper (written to %s)\n", changed, opt.out_dir.string().c_str());
    if (changed == 0 && problems.empty() && a.out_dir.empty()) std::filesystem::remove_all(opt.out_dir);
  }
  // A row without data, a deviation that no longer holds, or a deviation nobody explained fails the run.
  for (const auto& p : problems) {
    const char* what = p.value("verdict", "") == "no data" ? "no data"
                       : p.value("stale", false)           ? "stale deviation (verdict changed)"
                                                           : "unexplained deviation";
    std::printf("FAIL %s: %s: '%s' is %s%s (%s)\n", p.value("figure", "").c_str(), what, p.value("statement", "").c_str(),
                p.value("verdict", "").c_str(),
                p.contains("expected_verdict") ? (", expected " + p["expected_verdict"].get<std::string>()).c_str() : "",
                p.value("reason", "").substr(0, 300).c_str());
  }
  if (!problems.empty() || changed > 0) return 5;
  return plots_ok ? 0 : 4;
}

int cmd_reference(const ReferenceArgs& a) {
  Cell c;
  c.problem = a.problem;
  c.preset = a.preset;
  c.ic = a.ic;
  c.overrides = parse_assignments(a.sets, "--set");
  if (a.times.empty()) throw InputError("give the times with --times t1,t2,...");
  for (double t : a.times)
    if (!std::isfinite(t) || t < 0) throw InputError("--times must be finite and >= 0, got " + number_text(t));
  if (!a.out.empty()) check_output_file(a.out, "--out");
  const auto problem = make_problem(c);
  for (double t : a.times) check_reference_reach(*problem, t, "reference --times");
  const Json states = reference_states(*problem, a.times);
  const Problem* rb = problem.get();
  Json doc = {{"schema_version", 1},
              {"kind", "gibench.reference"},
              {"manifest", build_manifest(a.command_line, Json::object())},
              {"problem", rb->id()},
              {"preset", rb->preset()},
              {"ic", rb->initial_condition()},
              {"params", rb->parameters()},
              {"reference_kind", reference_summary(*rb, 0.0)["kind"]},
              {"states", states}};
  if (a.out.empty()) std::cout << doc.dump(1) << "\n";
  else write_json_atomic(a.out, doc);
  return 0;
}

std::vector<std::string> load_method_files(const std::vector<std::string>& paths) {
  std::vector<std::string> ids;
  for (const std::string& path : paths) {
    const std::string text = read_input_file(path);
    from_file::LoadedMethod loaded = from_file::load_method(text, path, method_registry());
    ids.push_back(loaded.info.id);
    from_file::remember_user_file(loaded.info.id, path, text);
    from_file::remember_report(loaded.info.id, std::move(loaded.report));
    register_method(std::move(loaded.info));
  }
  return ids;
}

int cmd_conformance(const ConformanceArgs& a) {
  if (!a.out.empty()) check_output_file(a.out, "--out", {{expected_deviations_file(), "the expected deviations file"}});
  std::vector<const MethodInfo*> methods;
  if (!a.method.empty())
    methods.push_back(&find_method(a.method));
  else if (!a.file_methods.empty())
    for (const auto& id : a.file_methods) methods.push_back(&find_method(id));
  else
    for (const auto& m : method_registry()) methods.push_back(&m);
  Json report = Json::array();
  int failed = 0, stale = 0;
  for (const MethodInfo* m : methods) {
    for (const auto& target : conformance_targets(*m)) {
      const ConformanceReport r = run_conformance(*m, target);
      for (const auto& c : r.checks) {
        std::printf("%-5s %-20s %-16s %-10s %-10s %-22s %s%s%s\n", c.verdict(), m->id.c_str(), target.problem.c_str(),
                    target.preset.c_str(), target.ic.c_str(), c.claim.c_str(), c.detail.c_str(),
                    c.expected_deviation.empty() ? "" : " | expected deviation: ", c.expected_deviation.c_str());
        failed += !c.acceptable();
        stale += c.stale_deviation();
      }
      report.push_back(conformance_json(r));
    }
  }
  if (!a.out.empty())
    write_json_atomic(a.out, compact_for_storage({{"schema_version", 1},
                                                  {"kind", "gibench.conformance"},
                                                  {"manifest", build_manifest(a.command_line, Json::object())},
                                                  {"reports", report}}));
  std::printf("%d claim check(s) failed or undecided without an expected deviation", failed - stale);
  if (stale > 0) std::printf("; %d expected deviation(s) expired (STALE: the claim now passes): remove them from results/expected_deviations.json", stale);
  std::printf("\n");
  return failed == 0 ? 0 : 5;
}

int cmd_rank(const RankArgs& a) {
  RankOptions opt;
  opt.problem = a.problem;
  opt.preset = a.preset;
  opt.ic = a.ic;
  opt.overrides = parse_assignments(a.sets, "--set");
  opt.T = a.T;
  opt.targets = a.targets;
  opt.metric = a.metric;
  opt.include = a.include;
  opt.exclude = a.exclude;
  opt.reps = a.reps;
  opt.jobs = a.jobs;
  opt.n_max = a.n_max;
  const std::filesystem::path default_dir = std::filesystem::path(project_root()) / "results" / "rank";
  if (a.out.empty()) check_output_dir(default_dir, "results/rank");
  else checked_json_and_markdown(a.out);
  const Json doc = rank_methods(opt, a.command_line);
  const std::string stem = doc.value("problem", "") + "-" + doc.value("preset", "");
  const std::filesystem::path out = a.out.empty() ? default_dir / (stem + ".json") : std::filesystem::path(a.out);
  const std::string md = rank_markdown(doc);
  const std::filesystem::path md_path = checked_json_and_markdown(out);
  write_json_atomic(out, compact_for_storage(doc));
  write_file_atomic(md_path, md);
  std::fputs(md.c_str(), stdout);
  std::printf("\nwrote %s and %s\n", out.string().c_str(), md_path.string().c_str());
  if (!a.plots) return 0;
  const std::string base = out.stem().string();
  const bool ok = run_plot_script(out, {"--plot", "work_precision", "--metric", doc.value("metric", ""), "--file",
                                        base + "-work-precision.png", "--title", "Work-precision, " + stem}) &&
                  run_plot_script(out, {"--plot", "rank_table", "--file", base + "-table.png", "--title", "Ranking, " + stem});
  return ok ? 0 : 4;
}

int cmd_check(const CheckArgs& a) {
  const auto all = load_baseline_definitions();
  std::vector<const BaselineDefinition*> todo;
  if (a.names.empty())
    for (const auto& d : all) todo.push_back(&d);
  for (const auto& n : a.names) todo.push_back(&find_baseline(all, n));
  // Every recorded file is read and checked before the first sweep runs: a bad one is found in a second.
  std::vector<Json> recorded;
  if (!a.update)
    for (const BaselineDefinition* def : todo) recorded.push_back(load_recorded_baseline(*def));
  const auto deviations = load_expected_deviations();
  std::vector<NamedInput> inputs = {{expected_deviations_file(), "the expected deviations file"}};
  for (const auto& d : all) inputs.push_back({d.path, "a baseline definition"});
  if (a.update) {
    for (const BaselineDefinition* def : todo) check_output_file(baseline_file(*def), "check --update", inputs);
  } else {
    for (const BaselineDefinition* def : todo) inputs.push_back({baseline_file(*def), "a recorded baseline"});
    if (!a.out.empty()) check_output_file(a.out, "--out", inputs);
  }
  Json reports = Json::array();
  bool failed = false;
  for (std::size_t k = 0; k < todo.size(); ++k) {
    const BaselineDefinition* def = todo[k];
    const Json now = record_baseline(*def, {a.jobs, true, nullptr}, a.command_line);
    if (a.update) {
      const auto file = baseline_file(*def);
      write_json_atomic(file, now);
      std::printf("recorded baseline %s: %zu cells, %zu order fits -> %s\n", def->name.c_str(), now["cells"].size(),
                  now["fits"].size(), file.string().c_str());
      continue;
    }
    const CheckReport r = compare_baseline(*def, recorded[k], now, registry_catalog(), deviations);
    std::fputs(check_report_text(r).c_str(), stdout);
    reports.push_back(check_report_json(r));
    failed = failed || r.failed();
  }
  if (!a.out.empty() && !a.update)
    write_json_atomic(a.out, {{"schema_version", 1}, {"kind", "gibench.check"},
                              {"manifest", build_manifest(a.command_line, Json::object())}, {"reports", reports}});
  return failed ? 6 : 0;
}

}  // namespace gib
