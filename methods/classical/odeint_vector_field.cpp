// The state is odeint's own Eigen::VectorXd (vector_space_algebra through odeint's Eigen support), so a step
// converts nothing; the stepper's stage buffers are allocated on the first step and reused.
#include "methods/classical/odeint_vector_field.hpp"

#include <boost/numeric/odeint/stepper/euler.hpp>
#include <boost/numeric/odeint/stepper/explicit_generic_rk.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta4.hpp>
#include <boost/utility/enable_if.hpp>
// odeint's Eigen support specialises its algebra dispatcher, so it must come after the steppers that declare it.
#include <boost/numeric/odeint/external/eigen/eigen.hpp>
#include <memory>

#include "methods/classical/odeint_loop.hpp"

namespace gib::classical {
namespace {

namespace odeint = boost::numeric::odeint;
using Vec = Eigen::VectorXd;

// The explicit midpoint rule as a generic odeint tableau: k1 = f(x), k2 = f(x + h/2 k1), x + h k2.
class MidpointRk2 : public odeint::explicit_generic_rk<2, 2, Vec, double, Vec, double, odeint::vector_space_algebra> {
  using Base = odeint::explicit_generic_rk<2, 2, Vec, double, Vec, double, odeint::vector_space_algebra>;

 public:
  // odeint copies the coefficients into its stages, so temporaries are fine (as its own runge_kutta4 does).
  MidpointRk2()
      : Base(boost::fusion::make_vector(boost::array<double, 1>{{0.5}}), boost::array<double, 2>{{0.0, 1.0}},
             boost::array<double, 2>{{0.0, 0.5}}) {}
};

template <class OdeintStepper> class OdeintVectorFieldStepper final : public VectorFieldStepper {
 public:
  explicit OdeintVectorFieldStepper(const VectorFieldModel& model) : model_(model) {}

  StepStatus step(VectorFieldState& s, double h, OpCounters& c) override {
    run(s.x, h, 1, c);
    return StepStatus::ok;
  }
  Advanced advance(VectorFieldState& s, double h, std::int64_t n, OpCounters& c) override {
    run(s.x, h, n, c);
    return {StepStatus::ok, n};
  }

 private:
  void run(Vec& x, double h, std::int64_t n, OpCounters& c) {
    const auto f = [this, &c](const Vec& y, Vec& dy, double) {
      ++c.rhs_evals;
      model_.rhs(y, dy);
    };
    odeint_n_steps(stepper_, f, x, 0.0, h, n);
  }

  const VectorFieldModel& model_;
  OdeintStepper stepper_;
};

struct VectorFieldSchemeInfo {
  const char* name;
  int order;
  const char* origin;
};

VectorFieldSchemeInfo scheme_info(VectorFieldScheme s) {
  switch (s) {
    case VectorFieldScheme::euler: return {"Euler", 1, "explicit Euler (Euler 1768)"};
    case VectorFieldScheme::rk2_midpoint: return {"RK2 (explicit midpoint)", 2, "explicit midpoint rule (Runge 1895)"};
    case VectorFieldScheme::rk4: return {"RK4", 4, "classical Runge-Kutta (Kutta 1901)"};
  }
  return {"?", 0, "?"};
}

}  // namespace

std::unique_ptr<VectorFieldStepper> odeint_vector_field_stepper(VectorFieldScheme s, const VectorFieldModel& model) {
  switch (s) {
    case VectorFieldScheme::euler:
      return std::make_unique<
          OdeintVectorFieldStepper<odeint::euler<Vec, double, Vec, double, odeint::vector_space_algebra>>>(model);
    case VectorFieldScheme::rk2_midpoint: return std::make_unique<OdeintVectorFieldStepper<MidpointRk2>>(model);
    case VectorFieldScheme::rk4:
      return std::make_unique<
          OdeintVectorFieldStepper<odeint::runge_kutta4<Vec, double, Vec, double, odeint::vector_space_algebra>>>(model);
  }
  return nullptr;
}

MethodInfo odeint_vector_field_method(std::string id, VectorFieldScheme scheme) {
  const VectorFieldSchemeInfo s = scheme_info(scheme);
  MethodInfo m;
  m.id = std::move(id);
  m.display_name = std::string("odeint ") + s.name;
  m.citation = std::string("Boost.Odeint (Ahnert & Mulansky 2011); ") + s.origin +
               "; on a general vector field (McLachlan-Quispel spec 12)";
  m.family = "classical";
  m.claims.order = s.order;
  m.default_params = Json::object();
  m.vector_field = [scheme](const VectorFieldModel& model, const Json& /*params*/) { return odeint_vector_field_stepper(scheme, model); };
  return m;
}

}  // namespace gib::classical
