#include "problems/magnetized_body/magnetized_body.hpp"

#include "core/errors.hpp"
#include "core/user_input.hpp"
#include "problems/common/overrides.hpp"
#include "problems/common/r33_problem.hpp"

namespace gib::magnetized_body {
namespace {

struct Setup {
  Vec3 inertia = Vec3::Ones();
  double b_mu = 1.0;  // [ASSUMPTION A15]
  RigidBodyState x0;
};

Setup preset_setup(const std::string& preset) {
  if (preset != "taoowhadi2014")
    throw InputError("unknown preset " + quote_excerpt(preset) + " for problem magnetized_body (valid: taoowhadi2014)");
  Setup s;
  s.x0.R = Mat3::Identity();
  s.x0.Pi = s.inertia.cwiseProduct(Vec3(1.0, 0.2, 0.1));
  return s;
}

void apply_overrides(Setup& s, const Json& o) {
  overrides::check_keys(o, {"Bmu", "Omega0", "R0"}, "magnetized_body");
  if (o.is_null()) return;
  if (o.contains("Bmu")) s.b_mu = overrides::read_finite(o["Bmu"], "Bmu");
  if (o.contains("Omega0")) s.x0.Pi = s.inertia.cwiseProduct(overrides::read_vec3(o["Omega0"], "Omega0"));
  if (o.contains("R0")) s.x0.R = overrides::read_rotation(o["R0"], "R0");
}

// "random:K": a Haar-random R0 and a uniformly random direction of Pi0 with the preset's |Pi0| (the free body's and
// the tops' draws).
void apply_initial_condition(Setup& s, const std::string& ic) {
  const auto k = random_ic_index(ic);
  if (!k) return;
  random::Stream rng = r33_problem::random_stream(*k);
  s.x0.R = rng.rotation();
  s.x0.Pi = s.x0.Pi.norm() * rng.unit3();
}

std::unique_ptr<Problem> make(const std::string& preset, const Json& o, const std::string& ic) {
  Setup s = preset_setup(preset);
  apply_overrides(s, o);
  apply_initial_condition(s, ic);
  const long double w = s.b_mu;
  return r33_problem::make({"magnetized_body", preset, ic, s.inertia, s.x0, uniform_gravity_potential(s.b_mu),
                            {{"V", "Bmu * R33"}, {"Bmu", s.b_mu}}, [w](long double) { return w; }});
}

}  // namespace

ProblemInfo info() {
  ProblemInfo p;
  p.id = "magnetized_body";
  p.display_name = "Magnetized rigid body in a constant field";
  p.citation = "Tao & Owhadi 2014 section 4.5 (Figs 9, 10); numerical reference";
  p.kind = ModelKind::rigid_body;
  p.torque_free = false;
  p.presets = {
      {"taoowhadi2014", "I = 1, V = Bmu R33 with Bmu = 1 [ASSUMPTION A15], R0 = I, Omega0 = (1, 0.2, 0.1); the paper "
                        "runs h = 0.1 (benchmark 1e-4), T not given [Tao-Owhadi spec 4.5]"},
  };
  p.parameters = {
      {"Bmu", "field strength times dipole moment in V = Bmu * R33 (the paper's sign: R = I is a maximum for Bmu > 0)"},
      {"Omega0", "initial body angular velocity [3] (I = 1, so Pi0 = Omega0)"},
      {"R0", "initial attitude, 9 values row-major, a rotation"},
  };
  p.make = make;
  return p;
}

}  // namespace gib::magnetized_body
