#include "problems/coulomb_wall/coulomb_wall.hpp"

#include <cmath>
#include <optional>
#include <sstream>

#include "core/errors.hpp"
#include "core/user_input.hpp"
#include "problems/common/overrides.hpp"
#include "problems/common/r33_problem.hpp"

namespace gib::coulomb_wall {
namespace {

constexpr int kMaxRandomDraws = 10000;

struct Setup {
  Vec3 inertia{2.0, 3.0, 4.5};
  double k = 1.0, eps = 0.001, offset = 1.1, sign = 1.0;
  RigidBodyState x0;                 // Pi is set from pi0 at the end unless Pi0 is given
  Vec3 pi0{2.0, 2.0, 2.0};           // spatial initial momentum
  std::optional<Vec3> body_Pi0;
};

Setup preset_setup(const std::string& preset) {
  Setup s;
  if (preset == "krysl2006") {
    s.sign = 1.0;
  } else if (preset == "flipped") {
    s.sign = -1.0;
  } else {
    throw InputError("unknown preset " + quote_excerpt(preset) + " for problem coulomb_wall (valid: krysl2006 flipped)");
  }
  return s;
}

void apply_overrides(Setup& s, const Json& o) {
  overrides::check_keys(o, {"inertia", "k", "eps", "offset", "R0", "pi0", "Pi0"}, "coulomb_wall");
  if (o.is_null()) return;
  if (o.contains("pi0") && o.contains("Pi0")) throw InputError("coulomb_wall: give at most one of pi0 (spatial), Pi0 (body)");
  if (o.contains("inertia")) s.inertia = overrides::read_positive_vec3(o["inertia"], "inertia");
  if (o.contains("k")) s.k = overrides::read_finite(o["k"], "k");
  if (o.contains("eps")) s.eps = overrides::read_finite(o["eps"], "eps");
  if (o.contains("offset")) s.offset = overrides::read_finite(o["offset"], "offset");
  if (o.contains("R0")) s.x0.R = overrides::read_rotation(o["R0"], "R0");
  if (o.contains("pi0")) s.pi0 = overrides::read_vec3(o["pi0"], "pi0");
  if (o.contains("Pi0")) s.body_Pi0 = overrides::read_vec3(o["Pi0"], "Pi0");
}

void validate(const Setup& s) {
  std::ostringstream msg;
  if (!(s.offset > 1))
    msg << "coulomb_wall: offset must be > 1 so that r = offset + R33 > 0 for every attitude, got " << number_text(s.offset);
  else if (!(s.eps >= 0))
    msg << "coulomb_wall: eps (the wall strength) must be >= 0, got " << number_text(s.eps);
  if (!msg.str().empty()) throw InputError(msg.str());
  r33_problem::check_triangle_inequality(s.inertia, "coulomb_wall");
}

// The level R33* where V' = 0 (r* = (10 eps / k)^(1/9)), if it lies inside (-1, 1): the barrier top for
// sign = +1, the bottom of the well in front of the wall for sign = -1.
std::optional<double> critical_r33(const Setup& s) {
  if (!(s.k > 0) || !(s.eps > 0)) return std::nullopt;
  const double c = std::pow(10 * s.eps / s.k, 1.0 / 9.0) - s.offset;
  if (c > -1 && c < 1) return c;
  return std::nullopt;
}

// A random start must be in the regime of the preset: the arm above R33*, and for sign = +1 certain to
// stay there. Reaching R33 = c with vertical momentum p_z costs at least V(c) + p_z^2 / (2 M(c)), where
// M(c) = max(I1, I2)(1 - c^2) + I3 c^2 bounds Gamma^T I Gamma over Gamma = R^T e_z with Gamma_3 = c; an
// energy below that keeps the body out of the deep r^-10 well for all time. (The preset itself does not
// pass this sufficient test; PROTO shows its motion stays above r = 0.69.) About 9% of draws pass.
bool in_preset_regime(const Setup& s, const R33Potential& v, const RigidBodyState& x) {
  const auto c = critical_r33(s);
  if (!c) return true;
  if (x.R(2, 2) <= *c) return false;
  if (s.sign < 0) return true;
  const RigidBodyModel model(s.inertia);
  const double energy = model.kinetic_energy(x.Pi) + v.energy(x.R);
  const double pz = x.R.row(2).dot(x.Pi);
  const double m = std::max(s.inertia(0), s.inertia(1)) * (1 - *c * *c) + s.inertia(2) * *c * *c;
  return energy < v.profile(*c).f + pz * pz / (2 * m);
}

// "random:K": the free body's draws (Haar R0, a uniform direction of Pi0 with the preset's |Pi0|),
// repeated from the same stream until one is in the preset's regime.
void apply_initial_condition(Setup& s, const R33Potential& v, const std::string& ic) {
  const auto k = random_ic_index(ic);
  if (!k) return;
  random::Stream rng = r33_problem::random_stream(*k);
  const double size = s.x0.Pi.norm();
  for (int n = 0; n < kMaxRandomDraws; ++n) {
    s.x0.R = rng.rotation();
    s.x0.Pi = size * rng.unit3();
    if (in_preset_regime(s, v, s.x0)) return;
  }
  throw InputError("coulomb_wall: " + ic + " found no initial condition above the critical level R33* in " +
                   std::to_string(kMaxRandomDraws) + " draws; use preset initial conditions for these parameters");
}

std::unique_ptr<Problem> make(const std::string& preset, const Json& o, const std::string& ic) {
  Setup s = preset_setup(preset);
  apply_overrides(s, o);
  validate(s);
  s.x0.Pi = s.body_Pi0 ? *s.body_Pi0 : Vec3(s.x0.R.transpose() * s.pi0);
  auto potential = coulomb_wall_potential(s.k, s.eps, s.offset, s.sign);
  apply_initial_condition(s, *potential, ic);
  const long double k = s.k, eps = s.eps, offset = s.offset, sign = s.sign;
  auto slope = [k, eps, offset, sign](long double r33) {
    const long double r = offset + r33, r2 = r * r, r5 = r2 * r2 * r, r11 = r5 * r5 * r;
    return sign * (-k / r2 + 10 * eps / r11);
  };
  Json v = {{"V", "sign * (k / r - eps / r^10), r = offset + R33"},
            {"k", s.k}, {"eps", s.eps}, {"offset", s.offset}, {"sign", s.sign}};
  return r33_problem::make({"coulomb_wall", preset, ic, s.inertia, s.x0, std::move(potential), std::move(v), slope});
}

}  // namespace

ProblemInfo info() {
  ProblemInfo p;
  p.id = "coulomb_wall";
  p.display_name = "Body in a Coulomb potential with a soft wall";
  p.citation = "Krysl 2006 section 5.4 (after Holder, Leimkuhler and Reich 2001); numerical reference";
  p.kind = ModelKind::rigid_body;
  p.torque_free = false;
  p.presets = {
      {"krysl2006", "I = diag(2, 3, 4.5), V = 1/r - 0.001/r^10, r = 1.1 + R33 (the printed torque), R0 = I, "
                    "pi0 = (2, 2, 2), H0 = 2.5873009878; Figs 4-5 run dt = 0.5 to t = 20000 [Krysl spec 7.4]"},
      {"flipped", "as krysl2006 with V = -1/r + 0.001/r^10 (the paper's words; the issue's coulomb_wall_flipped): "
                  "a hard-impact stress case, expected to blow up at dt = 0.5, not compared with the paper",
       true},
  };
  p.parameters = {
      {"inertia", "principal moments [I1, I2, I3], positive, each at most the sum of the others"},
      {"k", "Coulomb strength in V = sign (k / r - eps / r^10)"},
      {"eps", "wall strength, >= 0"},
      {"offset", "r = offset + R33; > 1 so that r > 0"},
      {"R0", "initial attitude, 9 values row-major, a rotation"},
      {"pi0", "initial spatial angular momentum [3] (Pi0 = R0^T pi0)"},
      {"Pi0", "initial body angular momentum [3]"},
  };
  p.make = make;
  return p;
}

}  // namespace gib::coulomb_wall
