// Every problem gibench knows, one line each.
#include "core/problem.hpp"
#include "problems/free_rigid_body/free_rigid_body.hpp"

namespace gib {

const std::vector<ProblemInfo>& problem_registry() {
  static const std::vector<ProblemInfo> problems = {
      free_rigid_body::info(),
  };
  return problems;
}

}  // namespace gib
