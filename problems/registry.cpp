// Every problem gibench knows, one line each.
#include "core/problem.hpp"
#include "problems/coulomb_wall/coulomb_wall.hpp"
#include "problems/damped_pendulum/damped_pendulum.hpp"
#include "problems/dipolar_spheres/dipolar_spheres.hpp"
#include "problems/dna_torsion/dna_torsion.hpp"
#include "problems/double_pendulum/double_pendulum.hpp"
#include "problems/free_rigid_body/free_rigid_body.hpp"
#include "problems/integral3d/integral3d.hpp"
#include "problems/kepler/kepler.hpp"
#include "problems/lagrange_top/lagrange_top.hpp"
#include "problems/magnetized_body/magnetized_body.hpp"
#include "problems/pendulum/pendulum.hpp"
#include "problems/pendulum_chain/pendulum_chain.hpp"
#include "problems/rigid_molecules/rigid_molecules.hpp"
#include "problems/toda/toda.hpp"
#include "problems/volterra/volterra.hpp"
#include "problems/abc_flow/abc_flow.hpp"
#include "problems/euler_top/euler_top.hpp"
#include "problems/water_cluster/water_cluster.hpp"

namespace gib {

const std::vector<ProblemInfo>& problem_registry() {
  static const std::vector<ProblemInfo> problems = {
      free_rigid_body::info(),
      lagrange_top::info(),
      coulomb_wall::info(),
      magnetized_body::info(),
      dipolar_spheres::info(),
      double_pendulum::info(),
      pendulum_chain::info(),
      dna_torsion::info(),
      pendulum::info(),
      rigid_molecules::info(),
      toda::info(),
      integral3d::info(),
      kepler::info(),
      damped_pendulum::info(),
      volterra::info(),
      abc_flow::info(),
      euler_top::info(),
      water_cluster::info(),
  };
  return problems;
}

}  // namespace gib
