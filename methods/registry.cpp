// Every method gibench knows, one line each. Adding a method: write its file under methods/<family>/
// and add one line here; the conformance battery, `gibench list` and the benchmarks pick it up.
#include "core/method.hpp"
#include "methods/classical/odeint_embedded.hpp"
#include "methods/crouch_grossman/cg3.hpp"
#include "methods/rkmk/rkmk.hpp"

namespace gib {

const std::vector<MethodInfo>& method_registry() {
  using classical::Embedding;
  using classical::Scheme;
  static const std::vector<MethodInfo> methods = {
      rkmk::method("rkmk1", "RKMK1 (Lie-Euler)", rkmk::lie_euler()),
      rkmk::method("rkmk2", "RKMK2 (Heun)", rkmk::heun()),
      rkmk::method("rkmk2_midpoint", "RKMK2 (explicit midpoint)", rkmk::explicit_midpoint()),
      rkmk::method("rkmk3", "RKMK3 (Kutta)", rkmk::kutta3()),
      rkmk::method("rkmk4", "RKMK4 (classical RK4)", rkmk::classical_rk4()),
      crouch_grossman::cg3(),
      // Buss 2001 (methods/buss/): Taylor methods, Simo-Wong, rotation-vector RK, AB-AM, and their +EC variants.
      // (end of Buss 2001)
      // Splittings (methods/splitting/) and compositions (methods/composition/).
      // (end of splittings)
      classical::odeint_method("odeint_euler_matrix", Scheme::euler, Embedding::matrix),
      classical::odeint_method("odeint_rk4_matrix", Scheme::rk4, Embedding::matrix),
      classical::odeint_method("odeint_dopri5_matrix", Scheme::dopri5, Embedding::matrix),
      classical::odeint_method("odeint_rkf78_matrix", Scheme::rkf78, Embedding::matrix),
      classical::odeint_method("odeint_euler_quat", Scheme::euler, Embedding::quaternion),
      classical::odeint_method("odeint_rk4_quat", Scheme::rk4, Embedding::quaternion),
      classical::odeint_method("odeint_dopri5_quat", Scheme::dopri5, Embedding::quaternion),
      classical::odeint_method("odeint_rkf78_quat", Scheme::rkf78, Embedding::quaternion),
  };
  return methods;
}

}  // namespace gib
