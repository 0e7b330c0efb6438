// gibench command line: argument parsing only; the commands live in harness/commands.cpp.
// Every error is one line on stderr ("gibench: error: ...") and a non-zero exit:
// 2 bad input, 1 internal error; run exits 3 when the cell did not finish "ok", reproduce 4 when a plot
// failed and 5 when a row has no data, a deviation is stale or unexplained, or (--check) a verdict changed,
// conformance 5 when a claim failed, check 6 on an accuracy regression.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "harness/commands.hpp"

namespace {

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

int fail(const std::string& msg, int code) {
  std::fprintf(stderr, "gibench: error: %s\n", one_line(msg).c_str());
  return code;
}

void add_run(CLI::App& app, gib::RunArgs& a) {
  auto* run = app.add_subcommand("run", "run one cell and write its final state and metrics as JSON");
  run->add_option("--config", a.config, "JSON file with problem, preset, overrides, ic, method, method_params, h, T|steps");
  run->add_option("--problem", a.problem, "problem id (gibench list problems)");
  run->add_option("--preset", a.preset, "preset of the problem (default: its first)");
  run->add_option("--set", a.sets, "override a problem parameter, key=value (value in JSON: --set inertia=[2,1,0.5])");
  run->add_option("--ic", a.ic, "initial condition: preset (default) or random:K");
  run->add_option("--method", a.method, "method id (gibench list methods)");
  run->add_option("--param", a.params, "method parameter, key=value (e.g. --param truncation=minimal)");
  run->add_option("--h", a.h, "step size");
  run->add_option("--T", a.T, "final time (a whole number of steps)");
  run->add_option("--steps", a.steps, "number of steps (instead of --T)");
  run->add_option("--out", a.out, "results file (default gibench_run.json)");
  run->add_flag("--json", a.json_stdout, "print the results JSON on stdout instead of a summary and a file");
  run->add_option("--series", a.series_points, "record invariant errors at about this many times");
  run->add_flag("--no-reference", a.no_reference, "skip the reference solution (long runs where only invariants matter)");
  run->add_option("--timing-reps", a.timing_reps, "repetitions of the timing pass (0: none)");
}

void add_precision_study(CLI::App& app, gib::PrecisionStudyArgs& a) {
  auto* c = app.add_subcommand("precision-study",
                               "Kjer's energy spikes: RKMK4 in double, long double and binary128 at h, h/2, ... (JSON + markdown)");
  c->add_option("--preset", a.preset, "dipolar_spheres preset (default kjer2017_n10)");
  c->add_option("--set", a.sets, "override a problem parameter, key=value");
  c->add_option("--ic", a.ic, "initial condition: preset or random:K");
  c->add_option("--T", a.T, "final time (default 300)");
  c->add_option("--h", a.h, "largest step size (default 0.01)");
  c->add_option("--halvings", a.halvings, "also run at h/2, ..., h/2^halvings (default 2)");
  c->add_option("--precisions", a.precisions, "subset of double,long_double,binary128 (default all)")->delimiter(',');
  c->add_option("--series", a.series_points, "points per run in the JSON series (default 2000)");
  c->add_option("--jobs", a.jobs, "runs in parallel (0: all cores)");
  c->add_option("--out", a.out, "results file (default results/paper/kjer2017-spikes-precision.json; .md beside it)");
}

void add_particles_dump(CLI::App& app, gib::ParticlesDumpArgs& a) {
  auto* c = app.add_subcommand("particles-dump",
                               "initial state and one long double force evaluation in the space frame, as JSON (for peer codes)");
  c->add_option("--problem", a.problem, "problem id (dipolar_spheres)");
  c->add_option("--preset", a.preset, "preset (default: the problem's first)");
  c->add_option("--set", a.sets, "override a problem parameter, key=value");
  c->add_option("--ic", a.ic, "initial condition: preset or random:K");
  c->add_option("--out", a.out, "output file (default: stdout)");
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> command_line(argv, argv + argc);
  CLI::App app{"gibench: geometric integrators on rigid bodies and molecular dynamics, benchmarked"};
  app.require_subcommand(1);

  std::string list_what;
  auto* list = app.add_subcommand("list", "list methods, problems, the method x problem matrix, or figures");
  list->add_option("what", list_what, "methods | problems | matrix | figures")->required();

  gib::RunArgs run_args;
  add_run(app, run_args);

  gib::SweepArgs sweep_args;
  auto* sweep = app.add_subcommand("sweep", "run a sweep config (problems x presets x methods x h x T)");
  sweep->add_option("config", sweep_args.config, "sweep config JSON (see harness/sweep.hpp)")->required();
  sweep->add_option("--out", sweep_args.out, "results file (default <name>.json)");
  sweep->add_option("--jobs", sweep_args.jobs, "threads for accuracy passes (0: all cores; under mpirun: per rank, default 1)");
  sweep->add_flag("--resume", sweep_args.resume, "continue an interrupted run from the journal beside --out");
  sweep->add_flag("--restart", sweep_args.restart, "discard the journal of an interrupted run and start over");
  sweep->add_option("--shard", sweep_args.shard, "run only cells i, i+K, ... as shard i/K and write a shard file (gibench merge)");
  auto* budget = sweep->add_option("--cell-time-budget", sweep_args.cell_time_budget,
                    "wall-time budget per cell in seconds (status time_budget when used up; 0: none)");
  sweep->add_flag("--reproducible", sweep_args.reproducible,
                  "leave date, host name and command line out of the manifest, so equal results give equal bytes");

  gib::MergeArgs merge_args;
  auto* merge = app.add_subcommand("merge", "merge the shard files of one sweep into the results file a single run writes");
  merge->add_option("shards", merge_args.shards, "shard files (gibench sweep --shard i/K)")->required();
  merge->add_option("--out", merge_args.out, "results file")->required();
  merge->add_flag("--reproducible", merge_args.reproducible, "as for sweep");

  gib::ReproduceArgs rep_args;
  bool no_plots = false;
  auto* rep = app.add_subcommand("reproduce", "reproduce paper figures: ids, 'default' or 'all'");
  rep->add_option("figures", rep_args.ids, "figure ids (gibench list figures), default, or all")->required();
  rep->add_option("--out-dir", rep_args.out_dir, "output directory (default results/paper)");
  rep->add_flag("--no-plots", no_plots, "write JSON and markdown only");
  rep->add_option("--jobs", rep_args.jobs, "threads for accuracy passes (0: all cores)");
  rep->add_flag("--check", rep_args.check,
                "rerun into a temporary directory (or --out-dir) and compare every verdict with the committed "
                "results/paper/<id>.json; exit 5 on a change (timing rows are compared only for having a number)");

  gib::ReferenceArgs ref_args;
  auto* ref = app.add_subcommand("reference", "the problem's reference state at given times, as JSON");
  ref->add_option("--problem", ref_args.problem, "problem id")->required();
  ref->add_option("--preset", ref_args.preset, "preset");
  ref->add_option("--set", ref_args.sets, "override a problem parameter, key=value");
  ref->add_option("--ic", ref_args.ic, "initial condition: preset or random:K");
  ref->add_option("--times", ref_args.times, "times, comma separated")->delimiter(',')->required();
  ref->add_option("--out", ref_args.out, "output file (default: stdout)");

  gib::ConformanceArgs conf_args;
  auto* conf = app.add_subcommand("conformance", "check every claim of a method (or all) on every compatible problem");
  conf->add_option("--method", conf_args.method, "method id (default: all)");
  conf->add_option("--out", conf_args.out, "JSON report file");

  gib::RankArgs rank_args;
  bool rank_no_plots = false;
  auto* rank = app.add_subcommand("rank", "rank methods by the cost to reach target errors (work-precision)");
  rank->add_option("--problem", rank_args.problem, "problem id")->required();
  rank->add_option("--preset", rank_args.preset, "preset (default: the problem's first)");
  rank->add_option("--set", rank_args.sets, "override a problem parameter, key=value");
  rank->add_option("--ic", rank_args.ic, "initial condition: preset or random:K");
  rank->add_option("--T", rank_args.T, "final time (default: ten time scales 1/|omega0|)");
  rank->add_option("--targets", rank_args.targets, "target errors, comma separated (default 1e-3,1e-6,1e-9)")->delimiter(',');
  rank->add_option("--metric", rank_args.metric, "error metric (default state_err_final)");
  rank->add_option("--include", rank_args.include, "only these methods, comma separated")->delimiter(',');
  rank->add_option("--exclude", rank_args.exclude, "leave these methods out, comma separated")->delimiter(',');
  rank->add_option("--reps", rank_args.reps, "timing repetitions, interleaved across methods (default 5)");
  rank->add_option("--n-max", rank_args.n_max, "largest step count scanned (default 262144)");
  rank->add_option("--out", rank_args.out, "results file (default results/rank/<problem>-<preset>.json)");
  rank->add_option("--jobs", rank_args.jobs, "threads for the accuracy scans (0: all cores)");
  rank->add_flag("--no-plots", rank_no_plots, "write JSON and markdown only");

  gib::CheckArgs check_args;
  auto* check = app.add_subcommand("check", "rerun the accuracy baselines and compare (exit 6 on regression)");
  check->add_option("baselines", check_args.names, "baseline names (harness/baselines/); default all");
  check->add_flag("--update", check_args.update, "record the current values as the new baselines");
  check->add_option("--out", check_args.out, "JSON report file");
  check->add_option("--jobs", check_args.jobs, "threads (0: all cores)");

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
  }

  try {
    if (*list) return gib::cmd_list(list_what);
    run_args.command_line = command_line;
    if (app.got_subcommand("run")) return gib::cmd_run(run_args);
    sweep_args.command_line = command_line;
    sweep_args.cell_time_budget_given = budget->count() > 0;
    if (*sweep) return gib::cmd_sweep(sweep_args);
    merge_args.command_line = command_line;
    if (*merge) return gib::cmd_merge(merge_args);
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
