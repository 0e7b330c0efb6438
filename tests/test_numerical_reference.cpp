// The numerical reference of the torque problems (problems/common/numerical_reference.hpp): agreement with
// the Krysl spec's independent prototype, the size of its own error estimate, conservation along it,
// history independence, the disk cache (round trip bit for bit) and concurrent use.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/hash.hpp"
#include "core/problem.hpp"
#include "problems/common/numerical_reference.hpp"

namespace gibench_test_numerical_reference {

namespace {

using gib::Json;
using gib::Mat3;
using gib::Vec3;

std::unique_ptr<gib::RigidBodyProblem> make(const std::string& problem, const std::string& preset,
                                            const std::string& ic = "preset") {
  auto p = gib::find_problem(problem).make(preset, Json::object(), ic);
  return std::unique_ptr<gib::RigidBodyProblem>(dynamic_cast<gib::RigidBodyProblem*>(p.release()));
}

const gib::NumericalReference& reference_of(const gib::RigidBodyProblem& p) {
  const auto* r = dynamic_cast<const gib::NumericalReference*>(p.reference());
  REQUIRE(r != nullptr);
  return *r;
}

// The slow top of Krysl spec 7.2 as a bare reference, with the cache given explicitly.
std::unique_ptr<gib::NumericalReference> slow_top_reference(bool with_torque = true) {
  gib::RigidBodyState x0;
  x0.R = gib::so3::exp(Vec3(0.05, 0, 0));
  x0.Pi = Vec3(0, 0, 5);
  gib::BodyTorqueLD torque = with_torque ? gib::r33_body_torque_ld([](long double) { return 20.0L; }) : nullptr;
  return std::make_unique<gib::NumericalReference>(gib::NumericalReferenceSetup{Vec3(5, 5, 1), x0, torque, 2.0});
}

struct TempDir {
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("gibench-reference-cache-test-" + std::to_string(::getpid()));
  TempDir() { std::filesystem::remove_all(path); }
  ~TempDir() { std::filesystem::remove_all(path); }
};

struct Prototype {
  const char* preset;
  Vec3 Pi;
  Mat3 R;
};

}  // namespace

TEST_CASE("reference agrees with the Krysl spec prototype for both tops at t = 20", "[numerical_reference]") {
  // Krysl spec 7.2 and 7.3: RK4 at dt = 2.5e-5, 12 printed digits, good to ~3e-10.
  Prototype slow{"slow", Vec3(0.420789725694, 0.839559834226, 5.0), Mat3()};
  slow.R << -0.132217055841, -0.991152444034, -0.011639709215, 0.985839230681, -0.130268170234, -0.105599313792,
      0.103148734332, -0.025436912346, 0.994340636852;
  Prototype fast{"fast", Vec3(-0.071007305141, 1.069507148378, 50.0), Mat3()};
  fast.R << 0.149452635481, -0.947030016178, 0.284249992446, 0.972230388485, 0.193109279124, 0.132200143808,
      -0.180088815462, 0.256598820679, 0.949592051237;
  for (const Prototype& proto : {slow, fast}) {
    const auto p = make("lagrange_top", proto.preset);
    const auto s = reference_of(*p).solutions(20.0);
    const double dR = (s.primary.R.cast<double>() - proto.R).cwiseAbs().maxCoeff();
    const double dPi = (s.primary.Pi.cast<double>() - proto.Pi).cwiseAbs().maxCoeff();
    INFO(proto.preset << ": max |R - R_proto| = " << dR << ", max |Pi - Pi_proto| = " << dPi);
    CHECK(dR < 1e-9);
    CHECK(dPi < 1e-9);
  }
}

TEST_CASE("reference error estimate is below 1e-12 at t = 20 for the tops and the Coulomb body", "[numerical_reference]") {
  for (const auto& [problem, preset] : {std::pair{"lagrange_top", "slow"}, std::pair{"lagrange_top", "fast"},
                                        std::pair{"coulomb_wall", "krysl2006"}, std::pair{"coulomb_wall", "flipped"}}) {
    const auto p = make(problem, preset);
    const gib::NumericalReference& ref = reference_of(*p);
    const auto s = ref.solutions(20.0);
    const double e = ref.error_estimate(20.0);
    INFO(problem << " " << preset << ": error estimate " << e);
    CHECK(ref.kind() == "numerical");
    CHECK(e >= 1e-15);
    CHECK(e < 1e-12);
    // The estimate covers the two solutions' distance, and it never decreases.
    const double dR = static_cast<double>((s.primary.R - s.secondary.R).norm());
    CHECK(dR <= e * 2);
    CHECK(ref.error_estimate(10.0) <= e);
  }
}

TEST_CASE("energy and vertical momentum are conserved along the reference", "[numerical_reference]") {
  for (const auto& [problem, preset] : {std::pair{"lagrange_top", "slow"}, std::pair{"lagrange_top", "fast"},
                                        std::pair{"coulomb_wall", "krysl2006"}, std::pair{"coulomb_wall", "random:1"}}) {
    const bool random = std::string(preset).rfind("random", 0) == 0;
    const auto p = make(problem, random ? "krysl2006" : preset, random ? preset : "preset");
    const auto invariants = p->invariants();
    double worst = 0;
    for (int k = 1; k <= 40; ++k) {
      const gib::RigidBodyState x = p->reference()->state(0.5 * k);
      for (const auto& inv : invariants) {
        const double v0 = inv.value(p->initial_state())(0), v = inv.value(x)(0);
        const double scale = inv.kind == gib::InvariantErrorKind::relative ? std::abs(v0) : p->initial_state().Pi.norm();
        worst = std::max(worst, std::abs(v - v0) / scale);
      }
    }
    INFO(problem << " " << preset << ": worst relative invariant error to t = 20: " << worst);
    CHECK(worst < 1e-14);
  }
}

TEST_CASE("reference state(t) does not depend on earlier requests", "[numerical_reference]") {
  const auto direct = slow_top_reference();
  const auto stepwise = slow_top_reference();
  for (double t : {0.001, 3.7, 4.0, 11.25, 19.9}) (void)stepwise->state(t);
  (void)stepwise->error_estimate(7.0);
  for (double t : {20.0, 4.0, 0.3}) CHECK(same_bits(direct->state(t), stepwise->state(t)));
  CHECK(direct->error_estimate(20.0) == stepwise->error_estimate(20.0));
  const gib::RigidBodyState x0 = direct->state(0.0);
  CHECK(x0.R == gib::so3::exp(Vec3(0.05, 0, 0)));
  CHECK_THROWS_AS(direct->state(-1.0), std::domain_error);
  CHECK_THROWS_AS(direct->error_estimate(NAN), std::domain_error);
}

TEST_CASE("reference disk cache round trip gives identical bits", "[numerical_reference]") {
  const TempDir dir;
  const gib::ReferenceCacheSettings cache{true, dir.path};
  const Json identity = {{"test", "slow top"}};
  const std::vector<double> times = {0.1, 1.0 / 3, 2.0, 7.77, 20.0};
  std::vector<gib::RigidBodyState> fresh;
  std::vector<double> fresh_error;
  {
    const auto ref = slow_top_reference();  // no cache
    for (double t : times) fresh.push_back(ref->state(t));
    fresh_error.push_back(ref->error_estimate(20.0));
  }
  std::filesystem::path file;
  {
    const auto writer = slow_top_reference();
    writer->attach_cache(cache, "0123456789abcdef", identity);
    file = writer->cache_file();
    for (std::size_t i = 0; i < times.size(); ++i) CHECK(same_bits(writer->state(times[i]), fresh[i]));
    CHECK(writer->error_estimate(20.0) == fresh_error[0]);
  }  // the destructor writes the file
  REQUIRE(std::filesystem::exists(file));
  CHECK(file.filename() == std::string("0123456789abcdef-") + gib::NumericalReference::kTag + ".json");
  // The checksum covers every sample: a value edited in the file (a later sample, not the fingerprint) makes the
  // reader recompute the reference, and the file is rewritten with the true value.
  {
    Json j = Json::parse(std::ifstream(file));
    REQUIRE(j["samples"][3][0] == 7.77);
    j["samples"][3][1] = 0.5;
    std::ofstream(file) << j.dump();
  }
  {
    const auto reader = slow_top_reference();
    reader->attach_cache(cache, "0123456789abcdef", identity);
    CHECK(same_bits(reader->state(7.77), fresh[3]));
  }
  const Json rewritten_file = Json::parse(std::ifstream(file));
  int rewritten = 0;
  for (const Json& row : rewritten_file["samples"])
    if (row[0] == 7.77) rewritten += row[1] == fresh[3].R(0, 0);
  CHECK(rewritten == 1);
  // A reader answers from the file, bit for bit: a value edited with its checksum recomputed comes back as edited.
  {
    Json j = Json::parse(std::ifstream(file));
    for (Json& row : j["samples"])
      if (row[0] == 7.77) row[1] = 0.5;
    j.erase("checksum");
    std::string body = j.dump();
    body.front() = '\n';  // the body starts after the file's "{"
    std::ofstream(file) << "{\n \"checksum\": \"fnv1a64:" << gib::fnv1a_hex(body) << "\"," << body;
  }
  const auto reader = slow_top_reference();
  reader->attach_cache(cache, "0123456789abcdef", identity);
  for (std::size_t i = 0; i < times.size(); ++i)
    if (times[i] != 7.77) CHECK(same_bits(reader->state(times[i]), fresh[i]));
  CHECK(reader->state(7.77).R(0, 0) == 0.5);
  CHECK(reader->error_estimate(20.0) == fresh_error[0]);
  // A file written by other code (here: no torque, same parameters) fails the fingerprint and is ignored,
  // as is one written for another problem.
  const auto other_code = slow_top_reference(false);
  other_code->attach_cache(cache, "0123456789abcdef", identity);
  CHECK(other_code->state(7.77).R(0, 0) != 0.5);
  const auto other_problem = slow_top_reference();
  other_problem->attach_cache(cache, "0123456789abcdef", Json{{"test", "another body"}});
  CHECK(other_problem->state(7.77).R(0, 0) != 0.5);
  // Disabled: no file.
  const auto off = slow_top_reference();
  off->attach_cache(gib::ReferenceCacheSettings{false, dir.path}, "fedcba9876543210", identity);
  CHECK(off->cache_file().empty());
}

TEST_CASE("reference cache location follows the environment", "[numerical_reference]") {
  const char* saved = std::getenv("GIBENCH_CACHE_DIR");
  const std::string saved_value = saved ? saved : "";
  ::setenv("GIBENCH_CACHE_DIR", "/tmp/somewhere", 1);
  CHECK(gib::ReferenceCacheSettings::from_environment().directory == "/tmp/somewhere");
  if (saved) ::setenv("GIBENCH_CACHE_DIR", saved_value.c_str(), 1); else ::unsetenv("GIBENCH_CACHE_DIR");
  const char* off = std::getenv("GIBENCH_NO_REFERENCE_CACHE");
  const std::string off_value = off ? off : "";
  ::setenv("GIBENCH_NO_REFERENCE_CACHE", "1", 1);
  CHECK_FALSE(gib::ReferenceCacheSettings::from_environment().enabled);
  if (off) ::setenv("GIBENCH_NO_REFERENCE_CACHE", off_value.c_str(), 1); else ::unsetenv("GIBENCH_NO_REFERENCE_CACHE");
}

TEST_CASE("reference answers concurrent requests as serial ones", "[numerical_reference]") {
  const auto serial = slow_top_reference();
  const auto shared = slow_top_reference();
  gib::RigidBodyState a, b;
  std::thread t1([&] { a = shared->state(15.0); });
  std::thread t2([&] { b = shared->state(9.5); });
  t1.join();
  t2.join();
  CHECK(same_bits(a, serial->state(15.0)));
  CHECK(same_bits(b, serial->state(9.5)));
}

}  // namespace gibench_test_numerical_reference
