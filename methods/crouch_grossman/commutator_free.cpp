// Commutator-free methods on T*SO(3) (see the header; crouch_grossman.hpp explains the factor order).
#include "methods/crouch_grossman/commutator_free.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <utility>

#include "core/tso3.hpp"

namespace gib::commutator_free {
namespace {

using Alg = tso3::Algebra<double>;
using Elem = tso3::Element<double>;
constexpr so3::ActionSide kRightAction = so3::ActionSide::right_multiply;  // y exp(sigma)

class SchemeStepper final : public RigidBodyStepper {
 public:
  SchemeStepper(const RigidBodyModel& model, std::shared_ptr<const Scheme> scheme)
      : model_(model), scheme_(std::move(scheme)), F_(scheme_->stages.size()), Y_(scheme_->stages.size()) {
    // A stage that begins with every factor of an earlier one starts from that stage's value (CMO's stage 4 is
    // exp(h (F_3 - F_1 / 2)) Y_2): the same products, fewer exponentials.
    const auto& st = scheme_->stages;
    from_.assign(st.size(), {0, 0});
    for (std::size_t i = 0; i < st.size(); ++i)
      for (std::size_t j = 1; j < i; ++j)
        if (!st[j].empty() && st[j].size() <= st[i].size() && st[j].size() > from_[i].second &&
            std::equal(st[j].begin(), st[j].end(), st[i].begin(), [](const Factor& a, const Factor& b) {
              return std::equal(a.begin(), a.end(), b.begin()) &&
                     std::all_of(b.begin() + static_cast<std::ptrdiff_t>(a.size()), b.end(), [](double x) { return x == 0; });
            }))
          from_[i] = {j, st[j].size()};
  }

  StepStatus step(RigidBodyState& x, double h, OpCounters& c) override {
    const Elem y{x.R, x.Pi};
    for (std::size_t i = 0; i < scheme_->stages.size(); ++i) {
      const auto [j, skip] = from_[i];
      Y_[i] = product(skip > 0 ? Y_[j] : y, scheme_->stages[i], skip, h, c);
      ++c.rhs_evals;
      if (!model_.torque_free()) ++c.force_evals;
      F_[i] = {model_.angular_velocity(Y_[i].mu), model_.body_torque(Y_[i].R)};
    }
    const Elem next = product(y, scheme_->output, 0, h, c);
    x.R = next.R;
    x.Pi = next.mu;
    return StepStatus::ok;
  }

 private:
  // The factors from `first` on, applied to y.
  Elem product(const Elem& y, const std::vector<Factor>& factors, std::size_t first, double h, OpCounters& c) const {
    Elem out = y;
    for (std::size_t n = first; n < factors.size(); ++n) {
      const Factor& f = factors[n];
      std::optional<Alg> sigma;
      for (std::size_t k = 0; k < f.size(); ++k) {
        if (f[k] == 0) continue;
        const Alg term = (h * f[k]) * F_[k];
        if (sigma) *sigma += term;
        else sigma = term;
      }
      if (!sigma) continue;
      out = tso3::act(out, *sigma, kRightAction);
      ++c.exp_evals;
    }
    return out;
  }

  const RigidBodyModel& model_;  // owned by the problem; outlives the stepper
  std::shared_ptr<const Scheme> scheme_;
  std::vector<Alg> F_;           // the stages' vector fields, kept to avoid an allocation per step
  std::vector<Elem> Y_;          // the stage values
  std::vector<std::pair<std::size_t, std::size_t>> from_;  // per stage: the earlier stage it starts from, its factors
};

}  // namespace

MethodInfo method(std::string id, std::string display_name, std::string citation, Scheme scheme, std::string family) {
  MethodInfo m;
  m.id = std::move(id);
  m.display_name = std::move(display_name);
  m.citation = std::move(citation);
  m.family = std::move(family);
  m.claims.order = scheme.order;
  m.claims.stays_on_group = true;
  // Torque-free, every factor maps Pi to exp(xi)^T Pi and R to R exp(xi): |Pi| and R Pi are kept (crouch_grossman.hpp).
  m.claims.invariants = {{Invariant::casimir, Preservation::exact, Applies::torque_free},
                         {Invariant::spatial_momentum, Preservation::exact, Applies::torque_free}};
  auto shared = std::make_shared<const Scheme>(std::move(scheme));
  m.rigid_body = [shared](const RigidBodyModel& model, const Json& /*params: none*/) -> std::unique_ptr<RigidBodyStepper> {
    return std::make_unique<SchemeStepper>(model, shared);
  };
  return m;
}

}  // namespace gib::commutator_free
