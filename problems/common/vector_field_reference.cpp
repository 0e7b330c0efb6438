#include "problems/common/vector_field_reference.hpp"

#include <stdexcept>

namespace gib {
namespace {

class VectorFieldNumericalReference final : public VectorFieldReference {
 public:
  VectorFieldNumericalReference(std::shared_ptr<const VectorFieldModel> model, const VectorFieldState& x0,
                                OdeReferenceSettings settings)
      : ref_(rhs_of(model), FlatState(x0.x.data(), x0.x.data() + x0.x.size()), settings, "vector-field reference",
             output(x0)) {}

  VectorFieldState state(double t) const override { return ref_.state(t); }
  std::string kind() const override { return "numerical"; }
  double error_estimate(double t) const override { return ref_.error_estimate(t); }

 private:
  // The scratch vectors are used under the reference's lock only.
  static FirstOrderRhs rhs_of(std::shared_ptr<const VectorFieldModel> model) {
    return [model, x = Eigen::VectorXd(), f = Eigen::VectorXd()](const FlatState& y, FlatState& dy) mutable {
      x = Eigen::Map<const Eigen::VectorXd>(y.data(), static_cast<Eigen::Index>(y.size()));
      model->rhs(x, f);
      std::copy(f.data(), f.data() + f.size(), dy.begin());
    };
  }

  static OdeReference<VectorFieldState>::Output output(const VectorFieldState& x0) {
    OdeReference<VectorFieldState>::Output out;
    out.state = [](const FlatState& y) {
      return VectorFieldState{Eigen::Map<const Eigen::VectorXd>(y.data(), static_cast<Eigen::Index>(y.size()))};
    };
    out.distance = [](const VectorFieldState& a, const VectorFieldState& b) { return (a.x - b.x).norm(); };
    out.size = [](const VectorFieldState& s) { return s.x.norm(); };
    out.initial = x0;
    return out;
  }

  mutable OdeReference<VectorFieldState> ref_;
};

}  // namespace

std::shared_ptr<const VectorFieldReference> vector_field_reference(std::shared_ptr<const VectorFieldModel> model,
                                                                   const VectorFieldState& x0,
                                                                   OdeReferenceSettings settings) {
  if (model == nullptr || x0.x.size() != model->dim())
    throw std::invalid_argument("vector_field_reference: model and initial state disagree on the dimension");
  return std::make_shared<const VectorFieldNumericalReference>(std::move(model), x0, settings);
}

std::shared_ptr<const VectorFieldReference> shared_vector_field_reference(
    const std::string& key, const std::function<std::shared_ptr<const VectorFieldReference>()>& build) {
  return shared_reference<VectorFieldReference>(key, build);
}

}  // namespace gib
