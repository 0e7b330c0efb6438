// gibench command line: argument parsing only; the commands live in harness/commands.cpp and, for a paper's own
// studies, papers/<paper>/commands.cpp.
// Every error is one line on stderr ("gibench: error: ...") and a non-zero exit:
// 2 bad input, 1 internal error; run exits 3 when the cell did not finish "ok", reproduce 4 when a plot
// failed and 5 when a row has no data, a deviation is stale or unexplained, or (--check) a verdict changed,
// conformance 5 when a claim failed, check 6 on an accuracy regression.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <limits>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "core/errors.hpp"
#include "core/user_input.hpp"
#include "harness/commands.hpp"
#include "harness/sweep_mpi.hpp"
#include "harness/threads.hpp"
#include "papers/kjer2017/commands.hpp"

namespace {

// Messages quote user input through quote_excerpt; this cap only keeps a message that slipped through from
// flooding the terminal.
constexpr std::size_t kMaxErrorBytes = 2000;

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  if (s.size() > kMaxErrorBytes) {
    std::size_t cut = kMaxErrorBytes;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 sequence
    s = s.substr(0, cut) + "... (message cut)";
  }
  return s;
}

// Under an MPI launcher every rank reads the same arguments and config and would print the same error once per
// rank. Rank 0 speaks for the job; another rank first gives it time to do so and the launcher time to end the
// job (mpirun stops every rank once one exits non-zero), so it speaks only when it failed alone.
constexpr auto kOtherRankDelay = std::chrono::seconds(2);

int fail(const std::string& msg, int code) {
  const int rank = gib::launcher_rank();
  if (rank != 0) {
    std::this_thread::sleep_for(kOtherRankDelay);
    std::fprintf(stderr, "gibench: error: (rank %d) %s\n", rank, one_line(msg).c_str());
  } else {
    std::fprintf(stderr, "gibench: error: %s\n", one_line(msg).c_str());
  }
  return code;
}

// Options are parsed by gibench, not by CLI11, whose conversions accept hex, a leading '+', "inf", and read an
// empty string as 0: every value goes through convert(text), which throws gib::InputError (main reports it like
// any bad input); numbers through the strict grammar the JSON inputs use (core/user_input.hpp).
template <class T, class Convert>
CLI::Option* add_parsed(CLI::App* app, const std::string& name, T& target, const Convert& convert, const std::string& help,
                        const std::string& type) {
  auto* o = app->add_option_function<std::string>(
      name, [&target, convert](const std::string& text) { target = convert(text); }, help);
  return o->type_name(type);
}

template <class T> CLI::Option* add_number(CLI::App* app, const std::string& name, T& target, const std::string& help) {
  if constexpr (std::is_floating_point_v<T>)
    return add_parsed(app, name, target, [name](const std::string& text) { return gib::parse_double(text, name); }, help,
                      "NUMBER");
  else
    return add_parsed(
        app, name, target,
        [name](const std::string& text) {
          return static_cast<T>(gib::parse_integer(text, name, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
        },
        help, "INT");
}

// One argument, split by parse_double_list: CLI11's own delimiter drops empty items (1e-3,,1e-6 would pass).
CLI::Option* add_number_list(CLI::App* app, const std::string& name, std::vector<double>& target, const std::string& help) {
  return add_parsed(app, name, target, [name](const std::string& text) { return gib::parse_double_list(text, name); }, help,
                    "N1,N2,...");
}

// The same for ids: --include rkmk4,,rkmk2 is a mistake, not two methods.
// The option may be repeated (--include a --include b,c).
CLI::Option* add_id_list(CLI::App* app, const std::string& name, std::vector<std::string>& target, const std::string& help) {
  auto* o = app->add_option_function<std::vector<std::string>>(
      name,
      [&target, name](const std::vector<std::string>& args) {
        target.clear();
        for (const std::string& text : args)
          for (std::string& id : gib::parse_id_list(text, name)) target.push_back(std::move(id));
      },
      help);
  return o->type_name("ID1,ID2,...");
}

// 0 is all cores; beyond gib::kMaxJobs threads the OpenMP runtime fails or crashes rather than runs faster.
CLI::Option* add_jobs(CLI::App* app, int& target, const std::string& help) {
  return add_parsed(
      app, "--jobs", target,
      [](const std::string& text) { return static_cast<int>(gib::parse_integer(text, "--jobs", 0, gib::kMaxJobs)); }, help,
      "INT");
}

// An id given as "" would otherwise mean the default (every method, the first preset).
CLI::Option* add_id(CLI::App* app, const std::string& name, std::string& target, const std::string& help) {
  return add_parsed(
      app, name, target,
      [name](const std::string& text) {
        if (text.empty()) throw gib::InputError(name + ": an empty id (leave the option out for the default)");
        return text;
      },
      help, "ID");
}

CLI::Option* add_ic(CLI::App* app, std::string& target, const std::string& help) {
  return add_parsed(
      app, "--ic", target,
      [](const std::string& text) {
        (void)gib::random_ic_index(text);
        return text;
      },
      help, "preset|random:K");
}

void add_run(CLI::App& app, gib::RunArgs& a) {
  auto* run = app.add_subcommand("run", "run one cell and write its final state and metrics as JSON");
  run->add_option("--config", a.config, "JSON file with problem, preset, overrides, ic, method, method_params, h, T|steps");
  add_id(run, "--problem", a.problem, "problem id (gibench list problems)");
  add_id(run, "--preset", a.preset, "preset of the problem (default: its first)");
  run->add_option("--set", a.sets, "override a problem parameter, key=value (value in JSON: --set inertia=[2,1,0.5])");
  add_ic(run, a.ic, "initial condition: preset (default) or random:K");
  add_id(run, "--method", a.method, "method id (gibench list methods)");
  run->add_option("--param", a.params, "method parameter, key=value (e.g. --param truncation=minimal)");
  add_number(run, "--h", a.h, "step size");
  add_number(run, "--T", a.T, "final time (a whole number of steps)");
  add_number(run, "--steps", a.steps, "number of steps (instead of --T)");
  run->add_option("--out", a.out, "results file (default gibench_run.json)");
  run->add_flag("--json", a.json_stdout, "print the results JSON on stdout instead of a summary and a file");
  add_number(run, "--series", a.series_points, "record invariant errors at about this many times");
  run->add_flag("--no-reference", a.no_reference, "skip the reference solution (long runs where only invariants matter)");
  add_number(run, "--timing-reps", a.timing_reps, "repetitions of the timing pass (0: none)");
}

void add_precision_study(CLI::App& app, gib::PrecisionStudyArgs& a) {
  auto* c = app.add_subcommand("precision-study",
                               "Kjer's energy spikes: RKMK4 in double, long double and binary128 at h, h/2, ... (JSON + markdown)");
  add_id(c, "--preset", a.preset, "dipolar_spheres preset (default kjer2017_n10)");
  c->add_option("--set", a.sets, "override a problem parameter, key=value");
  add_ic(c, a.ic, "initial condition: preset or random:K");
  add_number(c, "--T", a.T, "final time (default 300)");
  add_number(c, "--h", a.h, "largest step size (default 0.01)");
  add_number(c, "--halvings", a.halvings, "also run at h/2, ..., h/2^halvings (default 2)");
  add_id_list(c, "--precisions", a.precisions, "subset of double,long_double,binary128 (default all)");
  add_number(c, "--series", a.series_points, "points per run in the JSON series (default 2000)");
  add_jobs(c, a.jobs, "runs in parallel (0: all cores)");
  c->add_option("--out", a.out, "results file (default results/paper/kjer2017-spikes-precision.json; .md beside it)");
}

void add_particles_dump(CLI::App& app, gib::ParticlesDumpArgs& a) {
  auto* c = app.add_subcommand("particles-dump",
                               "initial state and one long double force evaluation in the space frame, as JSON (for peer codes)");
  add_id(c, "--problem", a.problem, "problem id (dipolar_spheres)");
  add_id(c, "--preset", a.preset, "preset (default: the problem's first)");
  c->add_option("--set", a.sets, "override a problem parameter, key=value");
  add_ic(c, a.ic, "initial condition: preset or random:K");
  c->add_option("--out", a.out, "output file (default: stdout)");
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> command_line(argv, argv + argc);
  CLI::App app{"gibench: geometric integrators on rigid bodies and molecular dynamics, benchmarked"};
  app.require_subcommand(1);

  std::string list_what;
  auto* list = app.add_subcommand("list", "list methods, problems, the method x problem matrix, figures, or metrics");
  bool list_json = false;
  list->add_option("what", list_what, "methods | problems | matrix | figures | metrics (| all with --json)")->required();
  list->add_flag("--json", list_json, "print the registry facts as JSON (what gibench report reads)");

  gib::RunArgs run_args;
  add_run(app, run_args);

  gib::SweepArgs sweep_args;
  auto* sweep = app.add_subcommand("sweep", "run a sweep config (problems x presets x methods x h x T)");
  sweep->add_option("config", sweep_args.config, "sweep config JSON (see harness/sweep.hpp)")->required();
  sweep->add_option("--out", sweep_args.out, "results file (default <name>.json)");
  add_jobs(sweep, sweep_args.jobs, "threads for accuracy passes (0: all cores; under mpirun: per rank, default 1)");
  sweep->add_flag("--resume", sweep_args.resume, "continue an interrupted run from the journal beside --out");
  sweep->add_flag("--restart", sweep_args.restart, "discard the journal of an interrupted run and start over");
  sweep->add_option("--shard", sweep_args.shard, "run only cells i, i+K, ... as shard i/K and write a shard file (gibench merge)");
  auto* budget = add_number(sweep, "--cell-time-budget", sweep_args.cell_time_budget,
                            "wall-time budget per cell in seconds (status time_budget when used up; 0: none)");
  sweep->add_flag("--reproducible", sweep_args.reproducible,
                  "leave date, host name and command line out of the manifest, so equal results give equal bytes");

  gib::MergeArgs merge_args;
  auto* merge = app.add_subcommand("merge", "merge the shard files of one sweep into the results file a single run writes");
  merge->add_option("shards", merge_args.shards, "shard files (gibench sweep --shard i/K)")->required();
  merge->add_option("--out", merge_args.out, "results file")->required();
  merge->add_flag("--reproducible", merge_args.reproducible, "as for sweep");

  gib::CompactArgs compact_args;
  auto* compact = app.add_subcommand(
      "compact", "rewrite figure and rank results files written before the storage rules (README, Results size)");
  compact->add_option("files", compact_args.files, "results/paper/*.json, results/rank/*.json")->required();

  gib::ReportArgs report_args;
  auto* report = app.add_subcommand("report", "build a static site (verdicts, leaderboards, methods, problems) from results");
  report->add_option("inputs", report_args.inputs, "results files or directories (default: results/)");
  report->add_option("--out", report_args.out, "site directory (default: report/); replaced whole on each run");

  gib::ReproduceArgs rep_args;
  bool no_plots = false;
  auto* rep = app.add_subcommand("reproduce", "reproduce paper figures: ids, 'default' or 'all'");
  rep->add_option("figures", rep_args.ids, "figure ids (gibench list figures), default, or all")->required();
  rep->add_option("--out-dir", rep_args.out_dir, "output directory (default results/paper)");
  rep->add_flag("--no-plots", no_plots, "write JSON and markdown only");
  add_jobs(rep, rep_args.jobs, "threads for accuracy passes (0: all cores)");
  rep->add_flag("--check", rep_args.check,
                "rerun into a temporary directory (or --out-dir) and compare every verdict with the committed "
                "results/paper/<id>.json; exit 5 on a change (timing rows are compared only for having a number)");

  gib::ReferenceArgs ref_args;
  auto* ref = app.add_subcommand("reference", "the problem's reference state at given times, as JSON");
  add_id(ref, "--problem", ref_args.problem, "problem id")->required();
  add_id(ref, "--preset", ref_args.preset, "preset");
  ref->add_option("--set", ref_args.sets, "override a problem parameter, key=value");
  add_ic(ref, ref_args.ic, "initial condition: preset or random:K");
  add_number_list(ref, "--times", ref_args.times, "times, comma separated")->required();
  ref->add_option("--out", ref_args.out, "output file (default: stdout)");

  gib::ConformanceArgs conf_args;
  auto* conf = app.add_subcommand("conformance", "check every claim of a method (or all) on every compatible problem");
  add_id(conf, "--method", conf_args.method, "method id (default: all)");
  conf->add_option("--out", conf_args.out, "JSON report file");

  gib::RankArgs rank_args;
  bool rank_no_plots = false;
  auto* rank = app.add_subcommand("rank", "rank methods by the cost to reach target errors (work-precision)");
  add_id(rank, "--problem", rank_args.problem, "problem id")->required();
  add_id(rank, "--preset", rank_args.preset, "preset (default: the problem's first)");
  rank->add_option("--set", rank_args.sets, "override a problem parameter, key=value");
  add_ic(rank, rank_args.ic, "initial condition: preset or random:K");
  add_number(rank, "--T", rank_args.T, "final time (default: ten time scales 1/|omega0|)");
  add_number_list(rank, "--targets", rank_args.targets, "target errors, comma separated (default 1e-3,1e-6,1e-9)");
  add_id(rank, "--metric", rank_args.metric, "error metric (default state_err_final)");
  add_id_list(rank, "--include", rank_args.include,
              "only these methods, comma separated: ids or tag:<tag> (tag:splitting, tag:order4; gibench list methods)")
      ->type_name("ID|tag:TAG,...");
  add_id_list(rank, "--exclude", rank_args.exclude, "leave these methods out, comma separated: ids or tag:<tag> (tag:implicit)")
      ->type_name("ID|tag:TAG,...");
  add_number(rank, "--reps", rank_args.reps, "timing repetitions, interleaved across methods (default 5)");
  add_number(rank, "--n-max", rank_args.n_max, "largest step count scanned (default 262144)");
  rank->add_option("--out", rank_args.out, "results file (default results/rank/<problem>-<preset>.json)");
  add_jobs(rank, rank_args.jobs, "threads for the accuracy scans (0: all cores)");
  rank->add_flag("--no-plots", rank_no_plots, "write JSON and markdown only");

  gib::CheckArgs check_args;
  auto* check = app.add_subcommand("check", "rerun the accuracy baselines and compare (exit 6 on regression)");
  check->add_option("baselines", check_args.names, "baseline names (harness/baselines/); default all");
  check->add_flag("--update", check_args.update, "record the current values as the new baselines");
  check->add_option("--out", check_args.out, "JSON report file");
  add_jobs(check, check_args.jobs, "threads (0: all cores)");

  // Methods defined by a file (methods/from_file/, docs/method_files.md): registered before the command runs.
  std::vector<std::string> method_files;
  for (auto* sub : {app.get_subcommand("run"), sweep, rank, conf, check, list})
    sub->add_option("--method-file", method_files, "a method definition (JSON: family and coefficients); repeatable")
        ->type_name("FILE");

  gib::PrecisionStudyArgs precision_args;
  add_precision_study(app, precision_args);
  gib::ParticlesDumpArgs dump_args;
  add_particles_dump(app, dump_args);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(e.what(), 2);
  } catch (const gib::InputError& e) {
    return fail(e.what(), 2);
  }

  try {
    conf_args.file_methods = gib::load_method_files(method_files);
    if (*list) return gib::cmd_list(list_what, list_json);
    run_args.command_line = command_line;
    if (app.got_subcommand("run")) return gib::cmd_run(run_args);
    sweep_args.command_line = command_line;
    sweep_args.cell_time_budget_given = budget->count() > 0;
    if (*sweep) return gib::cmd_sweep(sweep_args);
    merge_args.command_line = command_line;
    if (*merge) return gib::cmd_merge(merge_args);
    if (*compact) return gib::cmd_compact(compact_args);
    report_args.command_line = command_line;
    if (*report) return gib::cmd_report(report_args);
    rep_args.command_line = command_line;
    rep_args.plots = !no_plots;
    if (*rep) return gib::cmd_reproduce(rep_args);
    ref_args.command_line = command_line;
    if (*ref) return gib::cmd_reference(ref_args);
    conf_args.command_line = command_line;
    if (*conf) return gib::cmd_conformance(conf_args);
    rank_args.command_line = command_line;
    rank_args.plots = !rank_no_plots;
    if (*rank) return gib::cmd_rank(rank_args);
    check_args.command_line = command_line;
    if (*check) return gib::cmd_check(check_args);
    precision_args.command_line = command_line;
    if (app.got_subcommand("precision-study")) return gib::cmd_precision_study(precision_args);
    dump_args.command_line = command_line;
    if (app.got_subcommand("particles-dump")) return gib::cmd_particles_dump(dump_args);
  } catch (const gib::InputError& e) {
    return fail(e.what(), 2);
  } catch (const std::exception& e) {
    return fail(std::string("internal: ") + e.what(), 1);
  }
  return fail("no command", 2);
}
