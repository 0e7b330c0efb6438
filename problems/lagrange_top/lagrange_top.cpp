#include "problems/lagrange_top/lagrange_top.hpp"

#include "core/errors.hpp"
#include "core/user_input.hpp"
#include "problems/common/overrides.hpp"
#include "problems/common/r33_problem.hpp"

namespace gib::lagrange_top {
namespace {

struct Setup {
  Vec3 inertia{5.0, 5.0, 1.0};
  double weight = 20.0;
  RigidBodyState x0;
};

Setup preset_setup(const std::string& preset) {
  Setup s;
  double psi = 0, spin = 0;
  if (preset == "slow") {
    psi = 0.05;
    spin = 5.0;
  } else if (preset == "fast") {
    psi = 0.3;
    spin = 50.0;
  } else {
    throw InputError("unknown preset " + quote_excerpt(preset) + " for problem lagrange_top (valid: slow fast)");
  }
  s.x0.R = so3::exp(Vec3(psi, 0.0, 0.0));
  s.x0.Pi = s.inertia.cwiseProduct(Vec3(0.0, 0.0, spin));
  return s;
}

void apply_overrides(Setup& s, const Json& o) {
  overrides::check_keys(o, {"inertia", "weight", "psi0", "R0", "Pi0", "Omega0"}, "lagrange_top");
  if (o.is_null()) return;
  if (o.contains("psi0") && o.contains("R0")) throw InputError("lagrange_top: give at most one of psi0, R0");
  if (o.contains("Pi0") && o.contains("Omega0")) throw InputError("lagrange_top: give at most one of Pi0, Omega0");
  if (o.contains("inertia")) s.inertia = overrides::read_positive_vec3(o["inertia"], "inertia");
  if (o.contains("weight")) s.weight = overrides::read_finite(o["weight"], "weight");
  if (o.contains("psi0")) s.x0.R = so3::exp(overrides::read_vec3(o["psi0"], "psi0"));
  if (o.contains("R0")) s.x0.R = overrides::read_rotation(o["R0"], "R0");
  if (o.contains("Pi0")) s.x0.Pi = overrides::read_vec3(o["Pi0"], "Pi0");
  if (o.contains("Omega0")) s.x0.Pi = s.inertia.cwiseProduct(overrides::read_vec3(o["Omega0"], "Omega0"));
}

// "random:K": a Haar-random R0 and a uniformly random direction of Pi0 with the preset's |Pi0| (the free
// body's draws).
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
  r33_problem::check_triangle_inequality(s.inertia, "lagrange_top");
  apply_initial_condition(s, ic);
  const long double w = s.weight;
  return r33_problem::make({"lagrange_top", preset, ic, s.inertia, s.x0, uniform_gravity_potential(s.weight),
                            {{"V", "weight * R33"}, {"weight", s.weight}}, [w](long double) { return w; }});
}

}  // namespace

ProblemInfo info() {
  ProblemInfo p;
  p.id = "lagrange_top";
  p.display_name = "Lagrange (heavy symmetric) top";
  p.citation = "Krysl 2006 sections 5.2, 5.3 (after Simo and Wong 1991); numerical reference";
  p.kind = ModelKind::rigid_body;
  p.torque_free = false;
  p.presets = {
      {"slow", "I = diag(5, 5, 1), V = 20 R33, R0 = exp(hat(0.05, 0, 0)), Omega0 = (0, 0, 5), H0 = 32.47500521, "
               "t = 20 [Krysl spec 7.2]"},
      {"fast", "as slow with R0 = exp(hat(0.3, 0, 0)), Omega0 = (0, 0, 50), H0 = 1269.10672978, t = 20 [Krysl spec 7.3]"},
  };
  p.parameters = {
      {"inertia", "principal moments [I1, I2, I3], positive, each at most the sum of the others (Pi0 is kept)"},
      {"weight", "m g l in V = weight * R33 (negative: centre of mass below the pivot)"},
      {"psi0", "initial attitude R0 = exp(hat(psi0)) [3]"},
      {"R0", "initial attitude, 9 values row-major, a rotation"},
      {"Pi0", "initial body angular momentum [3]"},
      {"Omega0", "initial body angular velocity [3] (sets Pi0 = I Omega0)"},
  };
  p.make = make;
  return p;
}

}  // namespace gib::lagrange_top
