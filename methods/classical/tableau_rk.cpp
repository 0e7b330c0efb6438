// Explicit Runge-Kutta from a tableau on a general vector field (see the header).
#include "methods/classical/tableau_rk.hpp"

#include <Eigen/Core>
#include <memory>
#include <vector>

namespace gib::classical {
namespace {

class TableauRkStepper final : public VectorFieldStepper {
 public:
  TableauRkStepper(const VectorFieldModel& model, const rkmk::Tableau& t)
      : model_(model), s_(t.b.size()), k_(s_), t_(rkmk::in_double(t)) {}

  StepStatus step(VectorFieldState& s, double h, OpCounters& c) override {
    one_step(s.x, h, c);
    return StepStatus::ok;
  }
  Advanced advance(VectorFieldState& s, double h, std::int64_t n, OpCounters& c) override {
    for (std::int64_t i = 0; i < n; ++i) one_step(s.x, h, c);
    return {StepStatus::ok, n > 0 ? n : 0};
  }

 private:
  void one_step(Eigen::VectorXd& x, double h, OpCounters& c) {
    for (std::size_t i = 0; i < s_; ++i) {
      stage_ = x;
      for (std::size_t j = 0; j < i; ++j)
        if (t_.a[i][j] != 0) stage_.noalias() += (h * t_.a[i][j]) * k_[j];
      k_[i].resize(x.size());
      ++c.rhs_evals;
      model_.rhs(stage_, k_[i]);
    }
    for (std::size_t i = 0; i < s_; ++i)
      if (t_.b[i] != 0) x.noalias() += (h * t_.b[i]) * k_[i];
  }

  const VectorFieldModel& model_;
  std::size_t s_;
  std::vector<Eigen::VectorXd> k_;
  rkmk::DoubleTableau t_;
  Eigen::VectorXd stage_;
};

}  // namespace

MethodInfo tableau_rk_method(std::string id, std::string display_name, std::string citation, const rkmk::Tableau& tableau) {
  MethodInfo m;
  m.id = std::move(id);
  m.display_name = std::move(display_name);
  m.citation = std::move(citation);
  m.family = "classical";
  m.claims.order = tableau.order;
  m.default_params = Json::object();
  m.vector_field = [tableau](const VectorFieldModel& model, const Json& /*params: none*/) -> std::unique_ptr<VectorFieldStepper> {
    return std::make_unique<TableauRkStepper>(model, tableau);
  };
  return m;
}

}  // namespace gib::classical
