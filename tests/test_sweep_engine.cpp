// The sweep engine (issue 8): results independent of completion order, failing cells that never stop a
// sweep, per-cell time budgets, the journal that lets a killed sweep resume, shards and their merge.
#include <algorithm>
#include <csignal>
#include <sys/wait.h>
#include <unistd.h>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>
#include <stdexcept>

#include "core/errors.hpp"
#include "core/method.hpp"
#include "harness/json_util.hpp"
#include "harness/sweep.hpp"
#include "harness/sweep_exec.hpp"
#include "harness/sweep_journal.hpp"
#include "harness/sweep_session.hpp"

namespace gibench_test_sweep_engine {

namespace fs = std::filesystem;

namespace {

gib::SweepSpec small_sweep() {
  const gib::Json cfg = {{"name", "engine"},
                         {"problems", {{{"problem", "free_rigid_body"}, {"ics", {"preset", "random:5"}}}}},
                         {"methods", {"rkmk4", "imid", "rkmk1"}},
                         {"h", {{"start", 0.2}, {"factor", 0.5}, {"count", 3}}},
                         {"T", 4},
                         {"observe", {{"series_points", 8}}},
                         {"fit", {{"metrics", {"state_err_final"}}}}};
  return gib::parse_sweep(cfg, "cfg");
}

gib::SweepResult run_in_order(const gib::SweepSpec& spec, std::vector<std::size_t> order, int threads) {
  std::vector<gib::CellOutcome> out(spec.cells.size());
  gib::run_accuracy_passes(
      spec, gib::next_from_list(std::move(order)), [&](std::size_t i, gib::CellOutcome&& o) { out[i] = std::move(o); },
      threads, gib::registry_catalog());
  return gib::assemble_sweep(spec, std::move(out));
}

// A stepper that throws after a few steps, standing in for a method with a bug.
class ThrowingStepper : public gib::RigidBodyStepper {
 public:
  gib::StepStatus step(gib::RigidBodyState&, double, gib::OpCounters&) override {
    if (++n_ > 3) throw std::runtime_error("stepper bug");
    return gib::StepStatus::ok;
  }

 private:
  int n_ = 0;
};

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("gibench_" + name);
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

}  // namespace

TEST_CASE("sweep results do not depend on the order cells finish in", "[harness][sweep]") {
  const auto spec = small_sweep();
  std::vector<std::size_t> forward(spec.cells.size());
  std::iota(forward.begin(), forward.end(), 0);
  auto backward = forward;
  std::reverse(backward.begin(), backward.end());
  auto shuffled = forward;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937(42));
  const auto a = run_in_order(spec, forward, 1);
  REQUIRE(a.rows.size() == 18);
  REQUIRE(a.series.size() == 18);
  for (const auto& order : {backward, shuffled}) {
    const auto b = run_in_order(spec, order, 2);
    CHECK(b.rows.dump() == a.rows.dump());
    CHECK(b.series.dump() == a.series.dump());
    CHECK(b.fits.dump() == a.fits.dump());
  }
}

TEST_CASE("a throwing, a diverging and an over-budget cell do not stop the sweep", "[harness][sweep]") {
  gib::MethodInfo buggy = gib::registry_catalog().find("rkmk4");
  buggy.rigid_body = [](const gib::RigidBodyModel&, const gib::Json&) { return std::make_unique<ThrowingStepper>(); };
  const gib::MethodCatalog catalog({buggy});
  const gib::Json cfg = {{"problems", {{{"problem", "free_rigid_body"}}}},
                         {"methods", {"rkmk4", "odeint_rk4_quat"}},
                         {"h", {0.1, 50.0}},
                         {"steps", 400}};
  auto spec = gib::parse_sweep(cfg, "cfg");
  const auto r = gib::run_sweep(spec, {2, false, &catalog});
  REQUIRE(r.rows.size() == 4);
  CHECK(r.rows[0]["status"] == "error");  // the buggy rkmk4, both step sizes
  CHECK(r.rows[0]["status_detail"] == "stepper bug");
  CHECK(r.rows[2]["status"] == "ok");        // classical RK4 at h = 0.1
  CHECK(r.rows[3]["status"] == "diverged");  // classical RK4 at h = 50 blows up at the first step
  const gib::Json summary = gib::status_summary(r.rows);
  CHECK(summary["cells"] == 4);
  CHECK(summary["by_status"]["error"] == 2);
  CHECK(summary["by_status"]["ok"] == 1);
  CHECK(summary["by_status"]["diverged"] == 1);

  for (auto& c : spec.cells) {
    c.time_budget_s = 1e-9;
    c.steps = 100000;
  }
  const auto late = gib::run_sweep(spec, {1, false});
  for (const auto& row : late.rows) {
    if (row["status"] == "diverged" || row["status"] == "nonfinite") continue;
    CHECK(row["status"] == "time_budget");
    CHECK(row["status_step"].get<long long>() >= 1);
    CHECK(row["status_step"].get<long long>() < 100000);
    CHECK(row["metrics"]["state_err_final"].is_null());
  }
}

TEST_CASE("the sweep journal keeps whole records and refuses another sweep's", "[harness][sweep][journal]") {
  const auto spec = small_sweep();
  const fs::path dir = fresh_dir("journal_test");
  const fs::path path = dir / "r.json.journal";
  const gib::CellOutcome o = gib::run_cell_guarded(spec.cells[4], gib::registry_catalog());
  {
    auto j = gib::SweepJournal::create(path, spec, false);
    j.append({4, "accuracy", o.row, o.series});
    j.append({4, "timing", {{"median_s", 1.0}}, gib::Json()});
    CHECK_THROWS_AS(gib::SweepJournal::create(path, spec, false), gib::InputError);  // exists
    std::vector<gib::JournalRecord> recs;
    CHECK_THROWS_AS(gib::SweepJournal::resume(path, spec, recs), gib::InputError);  // locked by j
  }
  std::ofstream(path, std::ios::app) << "0123456789abcdef {\"i\": 7, \"pha";  // a write torn by a crash
  std::vector<gib::JournalRecord> recs;
  {
    auto j = gib::SweepJournal::resume(path, spec, recs);
    REQUIRE(recs.size() == 2);
    CHECK(recs[0].index == 4);
    CHECK(recs[0].row.dump() == o.row.dump());
    CHECK(recs[0].series.dump() == o.series.dump());
    CHECK(recs[1].phase == "timing");
    j.append({5, "accuracy", o.row, gib::Json()});  // lands on a fresh line: the torn tail was cut
  }
  recs.clear();
  {
    auto j = gib::SweepJournal::resume(path, spec, recs);
    CHECK(recs.size() == 3);
  }
  // Records name their cell: the same journal is refused by a sweep with another config.
  auto other = spec;
  other.config["T"] = 8;
  recs.clear();
  CHECK_THROWS_AS(gib::SweepJournal::resume(path, other, recs), gib::InputError);
  // A damaged line before the end is not a torn write: refuse rather than guess.
  std::string text;
  {
    std::ifstream in(path);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  text[text.find("\"i\":4") + 4] = '6';
  std::ofstream(path, std::ios::trunc) << text;
  recs.clear();
  CHECK_THROWS_AS(gib::SweepJournal::resume(path, spec, recs), gib::InputError);
  fs::remove_all(dir);
}

TEST_CASE("shards cover every cell once and merge into the single-run file", "[harness][sweep][shard]") {
  const auto spec = small_sweep();
  CHECK_THROWS_AS(gib::parse_shard("3/3"), gib::InputError);
  CHECK_THROWS_AS(gib::parse_shard("-1/3"), gib::InputError);
  CHECK_THROWS_AS(gib::parse_shard("1/0"), gib::InputError);
  CHECK_THROWS_AS(gib::parse_shard("1/3x"), gib::InputError);
  CHECK_THROWS_AS(gib::parse_shard("1"), gib::InputError);
  const fs::path dir = fresh_dir("shard_test");
  gib::SweepSessionOptions opt;
  opt.jobs = 1;
  opt.reproducible = true;
  opt.progress = false;
  opt.out = dir / "whole.json";
  gib::run_sweep_session(spec, opt);
  std::vector<fs::path> shards;
  for (int i = 0; i < 4; ++i) {
    opt.shard = gib::parse_shard(std::to_string(i) + "/4");
    opt.out = dir / ("s" + std::to_string(i) + ".json");
    const auto r = gib::run_sweep_session(spec, opt);
    CHECK(r.summary["cells"] == (i < 2 ? 5 : 4));  // 18 cells: 5 5 4 4
    shards.push_back(opt.out);
  }
  opt.shard = {};
  opt.out = dir / "merged.json";
  CHECK_THROWS_AS(gib::merge_shards({shards[0], shards[1], shards[2]}, opt), gib::InputError);             // one missing
  CHECK_THROWS_AS(gib::merge_shards({shards[0], shards[1], shards[2], shards[2], shards[3]}, opt), gib::InputError);  // twice
  CHECK_FALSE(fs::exists(opt.out));
  gib::merge_shards({shards[3], shards[1], shards[0], shards[2]}, opt);
  CHECK(gib::read_json_file(dir / "merged.json").dump() == gib::read_json_file(dir / "whole.json").dump());
  fs::remove_all(dir);
}

// A stepper that crashes the process at its first step, standing in for a method that dereferences null.
class CrashingStepper : public gib::RigidBodyStepper {
 public:
  gib::StepStatus step(gib::RigidBodyState&, double, gib::OpCounters&) override {
    std::raise(SIGSEGV);
    return gib::StepStatus::ok;
  }
};

// The registry with rkmk1 replaced by a stepper that raises SIGSEGV.
gib::MethodCatalog crashing_catalog() {
  gib::MethodInfo crashing = gib::registry_catalog().find("rkmk1");
  crashing.rigid_body = [](const gib::RigidBodyModel&, const gib::Json&) { return std::make_unique<CrashingStepper>(); };
  return gib::MethodCatalog({crashing});
}

// Runs a sweep session in a child process that is expected to die of SIGSEGV at the crashing method's first cell.
void run_until_crash(const gib::SweepSpec& spec, const gib::SweepSessionOptions& opt) {
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    gib::run_sweep_session(spec, opt);
    std::_Exit(0);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGSEGV);
}

TEST_CASE("a cell that crashes the process twice is journaled and recorded as crashed on resume", "[harness][sweep][journal]") {
  const gib::MethodCatalog catalog = crashing_catalog();
  const auto spec = small_sweep();
  const fs::path dir = fresh_dir("crash_test");
  gib::SweepSessionOptions opt;
  opt.jobs = 1;
  opt.progress = false;
  opt.out = dir / "r.json";
  opt.methods = &catalog;
  run_until_crash(spec, opt);
  CHECK_FALSE(fs::exists(opt.out));
  opt.resume = true;
  run_until_crash(spec, opt);  // one crash earns the cell a second run, which crashes again
  CHECK_FALSE(fs::exists(opt.out));
  opt.methods = nullptr;  // the bug is "fixed", but a cell that crashed twice is not run again
  const auto r = gib::run_sweep_session(spec, opt);
  CHECK(r.summary["by_status"]["crashed"] == 1);
  CHECK(r.summary["by_status"]["ok"] == 17);
  const gib::Json rows = gib::read_json_file(opt.out)["rows"];
  CHECK(rows[6]["status"] == "crashed");  // initial condition "preset": cells 0-2 rkmk4, 3-5 imid, 6 the first rkmk1
  CHECK(rows[6]["status_detail"].get<std::string>().find("signal 11") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("a single crash record (a signal from outside) is not a verdict: resume runs the cell and equals a serial run",
          "[harness][sweep][journal]") {
  const gib::MethodCatalog catalog = crashing_catalog();
  const auto spec = small_sweep();
  const fs::path dir = fresh_dir("crash_once_test");
  gib::SweepSessionOptions opt;
  opt.jobs = 1;
  opt.progress = false;
  opt.reproducible = true;
  opt.out = dir / "serial.json";
  gib::run_sweep_session(spec, opt);
  opt.out = dir / "r.json";
  opt.methods = &catalog;
  run_until_crash(spec, opt);
  opt.resume = true;
  opt.methods = nullptr;
  const auto r = gib::run_sweep_session(spec, opt);
  CHECK(r.summary["by_status"].value("crashed", 0) == 0);
  CHECK(gib::read_json_file(opt.out)["rows"].dump() == gib::read_json_file(dir / "serial.json")["rows"].dump());
  fs::remove_all(dir);
}

}  // namespace gibench_test_sweep_engine
