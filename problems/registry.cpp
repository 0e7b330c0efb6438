// Every problem gibench knows, one line each.
#include "core/problem.hpp"
#include "problems/coulomb_wall/coulomb_wall.hpp"
#include "problems/dipolar_spheres/dipolar_spheres.hpp"
#include "problems/free_rigid_body/free_rigid_body.hpp"
#include "problems/lagrange_top/lagrange_top.hpp"

namespace gib {

const std::vector<ProblemInfo>& problem_registry() {
  static const std::vector<ProblemInfo> problems = {
      free_rigid_body::info(),
      lagrange_top::info(),
      coulomb_wall::info(),
      dipolar_spheres::info(),
  };
  return problems;
}

}  // namespace gib
