// Tao & Owhadi's own matrix-form "variational Z&S on SO(3)" (section 4.5, eqs (36), (37); spec 2.11 with the fixes
// A16-A20): R relaxed to R^{3x3}, Lagrangian (c/4) tr(Rdot^T Rdot) - V(R) - 1/2 omega^2 tr((R^T R - I)^2) for an
// isotropic body I = c 1 (the paper: c = 1), one auxiliary matrix a_k per step with weight 1/2 tr(a^T a):
//   a_k + beta h^2 H_{R_k}[a_k] = -grad V(R_k)          (37; 9x9 symmetric system, built column by column)
//   f_k = a_k - 1/2 beta^2 h^4 V'''(R_k)[a_k, a_k]       (the corrected f, spec A18)
// with V the body potential's Euclidean extension plus the penalty, whose Frobenius derivatives are
//   grad = 2 omega^2 (R R^T R - R),  H_R[a] = 2 omega^2 (a R^T R + R a^T R + R R^T a - a),
//   1/2 V'''[a, a] = 2 omega^2 (R a^T a + a R^T a + a a^T R).
// The momentum is p = m Rdot with m = c/2 (the paper's p = 1/2 Rdot), and the updates are
//   first_order (default; the paper's figures):  p_k+1 = p_k + h f_k,  R_k+1 = R_k + (h/m) p_k+1       (A17)
//   trapezoidal:  p_k+1/2 = p_k + h/2 f_k,  R_k+1 = R_k + (h/m) p_k+1/2,  p_k+1 = p_k+1/2 + h/2 f_k+1   (A19)
// Parameters: beta (0.4), omega (10), form "first_order" | "trapezoidal", f "corrected" | "printed". The printed f
// (A18), f_k = a_k + 2 omega^2 beta^2 h^4 (a^T a R^T + a^T R a^T + R^T a a^T), has the wrong sign and transposed
// terms; it is kept as an ablation (not symplectic, blows up on the magnetized body).
//
// Relation to the generic adapter (spec A20): a is a force (a rate of p), not an acceleration. Newtonian Z&S with
// mass m solves (m + beta_nm h^2 H) a_N = -grad V; with F = m a_N this is F + (beta_nm/m) h^2 H F = -grad V, so
// beta = beta_nm / m, and m f_N = F - 1/2 (beta_nm/m)^2 h^4 V'''[F, F] = f. Hence the trapezoidal form IS Newtonian
// Z&S on the relaxed model (relaxed_rotation_model.hpp: J = c/2 = m on every entry) with beta_nm = beta c/2 (beta/2
// for the paper's c = 1), in exact arithmetic; tests/test_relaxed_rotation.cpp checks it to round-off.
//
// Rigid-body state: in, R and p = m R hat(Omega) (spec: p_0 = 1/2 R_0 hat(Omega_0)); out, R unchanged and
// Pi = c vee(skew(R^T p / m)). The (R, p) state (and the trapezoidal form's f) is kept between steps and reused when
// the incoming state is bitwise the one last written, as the adapter does (relaxed_rotation_stepper.hpp).
// Throws InputError unless the inertia is isotropic and the potential (if any) has a Euclidean extension.
#pragma once

#include "core/method.hpp"

namespace gib::relaxed_rotation {

enum class So3ZsForm { first_order, trapezoidal };
enum class So3ZsForce { corrected, printed };

struct So3ZsOptions {
  double beta = 0.4;
  double omega = 10.0;
  So3ZsForm form = So3ZsForm::first_order;
  So3ZsForce force = So3ZsForce::corrected;
};

// The scheme's pieces for one body, exposed for tests and scratch studies.
class So3VariationalZs {
 public:
  So3VariationalZs(const RigidBodyModel& body, So3ZsOptions options);  // InputError as above

  double mass() const { return m_; }  // m = c/2
  const So3ZsOptions& options() const { return o_; }
  Mat3 gradient(const Mat3& R) const;                           // Frobenius grad V
  Mat3 hessian_apply(const Mat3& R, const Mat3& a) const;       // H_R[a]
  Mat3 third_contracted(const Mat3& R, const Mat3& a) const;    // V'''(R)[a, a]
  Mat3 auxiliary(const Mat3& R, double h) const;                // a from (37)
  Mat3 force(const Mat3& R, double h) const;                    // f (corrected or printed)
  // E = tr(p^T p) / (2m) + V_body(R) + 1/2 omega^2 tr((R^T R - I)^2) (spec 2.11 for c = 1).
  double energy(const Mat3& R, const Mat3& p) const;

 private:
  const RigidBodyModel& body_;
  So3ZsOptions o_;
  double c_, m_;
};

MethodInfo so3_variational_zs();

}  // namespace gib::relaxed_rotation
