#include "methods/rkmk/rkmk.hpp"

#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/tso3.hpp"
#include "methods/rkmk/kernel.hpp"
#include "methods/rkmk/rigid_body_group.hpp"
#include "methods/rkmk/rkmk_particles.hpp"

namespace gib::rkmk {
namespace {

using Elem = tso3::Element<double>;
using BodyKernel = Kernel<RigidBodyGroup<double, RigidBodyModel>>;

enum class Trivialisation { left, right };

// The rigid body's RKMK: the kernel on T*SO(3), fed and read in the trivialisation's momentum.
class RkmkStepper final : public RigidBodyStepper {
 public:
  RkmkStepper(const RigidBodyModel& model, const Tableau& t, int truncation, Trivialisation triv, bool flipped_sign)
      : kernel_(RigidBodyGroup<double, RigidBodyModel>(model, truncation, side_of(triv), series_side_of(triv, flipped_sign)),
                t),
        triv_(triv) {}

  StepStatus step(RigidBodyState& x, double h, OpCounters& c) override { return advance(x, h, 1, c).status; }

  // The kernel steps its own element: (R, Pi) is read once and written once per call.
  Advanced advance(RigidBodyState& x, double h, std::int64_t n, OpCounters& c) override {
    if (n <= 0) return {StepStatus::ok, 0};
    Elem y{x.R, triv_ == Trivialisation::left ? x.Pi : spatial_momentum(x)};
    for (std::int64_t i = 0; i < n; ++i) kernel_.step(y, h, c);
    x.R = y.R;
    x.Pi = triv_ == Trivialisation::left ? y.mu : Vec3(y.R.transpose() * y.mu);
    if (triv_ == Trivialisation::right) {
      pi_ = y.mu;
      last_ = x;
    }
    return {StepStatus::ok, n};
  }

  void reset() override { have_pi_ = false; }

 private:
  static so3::ActionSide side_of(Trivialisation triv) {
    return triv == Trivialisation::left ? so3::ActionSide::right_multiply : so3::ActionSide::left_multiply;
  }
  // The ablation "flipped" uses the series of the other action side: the sign the thesis prints
  // for the y exp(sigma) action, which silently costs RKMK3/4 their order (Kjer spec 3.2).
  static so3::ActionSide series_side_of(Trivialisation triv, bool flipped_sign) {
    const so3::ActionSide side = side_of(triv);
    if (!flipped_sign) return side;
    return side == so3::ActionSide::left_multiply ? so3::ActionSide::right_multiply : so3::ActionSide::left_multiply;
  }

  // The right-trivialised state is (R, pi). Converting pi = R Pi afresh every step would multiply the
  // momentum by R R^T each step and accumulate R's orthogonality defect (measured: 5e-12 after 2000
  // steps), so pi is carried between steps while the caller hands back the state we wrote.
  Vec3 spatial_momentum(const RigidBodyState& x) {
    const bool ours = have_pi_ && std::memcmp(x.R.data(), last_.R.data(), sizeof(double) * 9) == 0 &&
                      std::memcmp(x.Pi.data(), last_.Pi.data(), sizeof(double) * 3) == 0;
    have_pi_ = true;
    return ours ? pi_ : Vec3(x.R * x.Pi);
  }

  BodyKernel kernel_;
  Trivialisation triv_;
  Vec3 pi_ = Vec3::Zero();
  RigidBodyState last_;
  bool have_pi_ = false;
};

int truncation_from(const Json& p, int order) {
  const Json& t = p.at("truncation");
  if (t.is_number_integer()) {
    const auto k = t.get<std::int64_t>();  // as int, 2^32 would wrap to 0 and pass
    if (k < 0 || k > so3::kMaxSeriesOrder || (t.is_number_unsigned() && t.get<std::uint64_t>() > 1000))
      throw InputError("rkmk parameter truncation=" + t.dump() + " must be in 0.." +
                       std::to_string(so3::kMaxSeriesOrder));
    return static_cast<int>(k);
  }
  if (t == "thesis") return order - 1;
  if (t == "minimal") return order >= 2 ? order - 2 : 0;
  throw InputError("rkmk parameter truncation=" + t.dump() + " must be \"thesis\", \"minimal\" or an integer");
}

Trivialisation trivialisation_from(const Json& p) {
  const Json& t = p.at("trivialisation");
  if (t == "left") return Trivialisation::left;
  if (t == "right") return Trivialisation::right;
  throw InputError("rkmk parameter trivialisation=" + t.dump() + " must be \"left\" or \"right\"");
}

bool flipped_sign_from(const Json& p) {
  const Json& t = p.at("dexpinv_sign");
  if (t == "consistent") return false;
  if (t == "flipped") return true;
  throw InputError("rkmk parameter dexpinv_sign=" + t.dump() + " must be \"consistent\" or \"flipped\"");
}

}  // namespace

MethodInfo method(std::string id, std::string display_name, Tableau tableau) {
  MethodInfo m;
  m.id = std::move(id);
  m.display_name = std::move(display_name);
  m.citation = "Munthe-Kaas 1998; Kjer 2017 (Algorithm 1, spec 3.3-3.5), tableau: " + tableau.name;
  m.family = "rkmk";
  m.claims.order = tableau.order;
  m.claims.stays_on_group = true;
  // The free-body momentum update is Pi_{n+1} = exp(sigma)^T Pi_n, so |Pi| and R Pi are kept to round-off.
  // On rigid particles sum p_i changes by h sum_r b_r sum_i F_ir, zero when the pair forces cancel (spec 3.5);
  // total angular momentum and energy are not kept there.
  m.claims.invariants = {{Invariant::casimir, Preservation::exact, Applies::torque_free},
                         {Invariant::spatial_momentum, Preservation::exact, Applies::torque_free},
                         {Invariant::linear_momentum, Preservation::exact, Applies::always}};
  m.default_params = {{"truncation", "thesis"}, {"trivialisation", "left"}, {"dexpinv_sign", "consistent"}};
  m.rigid_body = [tableau](const RigidBodyModel& model, const Json& params) -> std::unique_ptr<RigidBodyStepper> {
    return std::make_unique<RkmkStepper>(model, tableau, truncation_from(params, tableau.order),
                                         trivialisation_from(params), flipped_sign_from(params));
  };
  // Rigid particles: the left-version kernel of spec 3.5 only (the thesis runs no right-trivialised particles).
  m.particles = [tableau](const RigidParticlesModel& model, const Json& params) -> std::unique_ptr<ParticlesStepper> {
    if (trivialisation_from(params) != Trivialisation::left)
      throw InputError(
          "rkmk parameter trivialisation=\"right\" is not available on rigid particles (only \"left\", Kjer spec 3.5)");
    return make_particles_stepper(model, tableau, truncation_from(params, tableau.order), flipped_sign_from(params));
  };
  return m;
}

}  // namespace gib::rkmk
