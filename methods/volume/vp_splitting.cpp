#include "methods/volume/vp_splitting.hpp"

#include <Eigen/LU>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/vector_field.hpp"
#include "methods/implicit/nonlinear_solver.hpp"

namespace gib::volume {
namespace {

enum class Ordering { lie, strang };

Ordering read_ordering(const Json& o) {
  if (o == "lie") return Ordering::lie;
  if (o == "strang") return Ordering::strang;
  throw InputError("vp_splitting parameter ordering=" + o.dump().substr(0, 60) + " must be \"lie\" or \"strang\"");
}

class VpSplittingStepper final : public VectorFieldStepper, public TangentMap {
 public:
  VpSplittingStepper(const DivergenceFreeSplitting& split, Ordering ordering) : split_(split) {
    const int k = split.pieces();
    if (ordering == Ordering::lie) {
      for (int j = 0; j < k; ++j) plan_.push_back({j, 1.0});
    } else {
      for (int j = 0; j < k - 1; ++j) plan_.push_back({j, 0.5});
      plan_.push_back({k - 1, 1.0});
      for (int j = k - 2; j >= 0; --j) plan_.push_back({j, 0.5});
    }
  }

  StepStatus step(VectorFieldState& s, double h, OpCounters& c) override { return run(s, h, nullptr, c); }
  StepStatus step_with_tangent(VectorFieldState& s, double h, Eigen::MatrixXd& D, OpCounters& c) override {
    return run(s, h, &D, c);
  }

 private:
  struct Stage {
    int piece;
    double fraction;  // of h
  };

  // Works on a copy, so a failed step leaves the caller's state as it was.
  StepStatus run(VectorFieldState& s, double h, Eigen::MatrixXd* D, OpCounters& c) {
    x_ = s.x;
    const Eigen::Index n = x_.size();
    if (D != nullptr) D->setIdentity(n, n);
    std::int64_t iterations = 0;
    for (const Stage& st : plan_) {
      const double sh = st.fraction * h;
      if (split_.shear_coordinate(st.piece) >= 0) {
        split_.piece_rhs(st.piece, x_, g_);
        ++c.rhs_evals;
        if (D != nullptr) {
          split_.piece_jacobian(st.piece, x_, G_);
          *D = (Eigen::MatrixXd::Identity(n, n) + sh * G_) * *D;
        }
        x_ += sh * g_;
        continue;
      }
      int used = 0;
      const bool ok = midpoint(st.piece, sh, used, c);
      iterations += used;
      if (!ok) {
        c.record_nonlinear_step(iterations);
        ++c.solver_failures;
        return StepStatus::solver_failed;
      }
      if (D != nullptr) {
        // G_ holds the piece Jacobian at the converged midpoint.
        const Eigen::MatrixXd I = Eigen::MatrixXd::Identity(n, n);
        *D = (I - (0.5 * sh) * G_).partialPivLu().solve((I + (0.5 * sh) * G_) * *D);
        ++c.linear_solves;
      }
    }
    if (iterations > 0) c.record_nonlinear_step(iterations);
    s.x = x_;
    return StepStatus::ok;
  }

  // x_ <- x_ + s g(m), m = (x_ + x_new) / 2: Newton on F(m) = m - x - s/2 g(m), F' = I - s/2 G(m), from the explicit
  // predictor m = x + s/2 g(x), with the solver's defaults (50 iterations, |dm| <= 1e-14 max(1, |m|)). Leaves G_ at
  // the accepted midpoint.
  bool midpoint(int piece, double s, int& used, OpCounters& c) {
    const Eigen::Index n = x_.size();
    split_.piece_rhs(piece, x_, g_);
    ++c.rhs_evals;
    m_ = x_ + (0.5 * s) * g_;
    auto eval = [&](const Eigen::VectorXd& m, Eigen::VectorXd& F, Eigen::MatrixXd& J) {
      split_.piece_rhs(piece, m, g_);
      split_.piece_jacobian(piece, m, G_);
      ++c.rhs_evals;
      F = m - (x_ + (0.5 * s) * g_);
      J = Eigen::MatrixXd::Identity(n, n) - (0.5 * s) * G_;
    };
    const implicit::NewtonResult r = implicit::newton_root(eval, m_, implicit::SolverOptions{}, c, newton_);
    used = r.iterations;
    if (!r.converged) return false;
    split_.piece_jacobian(piece, m_, G_);
    x_ = 2.0 * m_ - x_;
    return true;
  }

  const DivergenceFreeSplitting& split_;
  std::vector<Stage> plan_;
  Eigen::VectorXd x_, g_, m_;
  Eigen::MatrixXd G_;
  implicit::NewtonWorkspace<Eigen::Dynamic> newton_;
};

}  // namespace

MethodInfo vp_splitting(bool strang) {
  MethodInfo m;
  m.id = strang ? "vp_splitting" : "vp_splitting_lie";
  m.display_name = strang ? "VP splitting (Strang)" : "VP splitting (Lie)";
  m.citation =
      "Feng & Shang 1995; McLachlan and Quispel 1998 lectures section 5 (Example 24, Figs 5.1); spec 7.2, 7.4";
  m.family = "volume";
  m.needs_structure = kDivergenceFree;
  m.claims.order = strang ? 2 : 1;
  m.claims.symmetric = strang;
  m.claims.implicit = true;
  m.claims.volume_preserving = true;
  m.default_params = Json{{"ordering", strang ? "strang" : "lie"}};
  m.vector_field = [](const VectorFieldModel& model, const Json& params) -> std::unique_ptr<VectorFieldStepper> {
    const DivergenceFreeSplitting* split = model.divergence_free();
    if (split == nullptr) throw InputError("vp_splitting needs a field split into source-free pieces");
    return std::make_unique<VpSplittingStepper>(*split, read_ordering(params.at("ordering")));
  };
  return m;
}

}  // namespace gib::volume
