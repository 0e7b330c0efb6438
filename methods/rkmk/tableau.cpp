#include "methods/rkmk/tableau.hpp"

namespace gib::rkmk {

Tableau lie_euler() { return {"Euler", 1, {{}}, {{1}}}; }

Tableau heun() { return {"Heun", 2, {{}, {{1}}}, {{1, 2}, {1, 2}}}; }

Tableau explicit_midpoint() { return {"explicit midpoint", 2, {{}, {{1, 2}}}, {{0}, {1}}}; }

Tableau kutta3() { return {"Kutta 3", 3, {{}, {{1, 2}}, {{-1}, {2}}}, {{1, 6}, {2, 3}, {1, 6}}}; }

Tableau classical_rk4() {
  return {"classical RK4", 4, {{}, {{1, 2}}, {{0}, {1, 2}}, {{0}, {0}, {1}}}, {{1, 6}, {1, 3}, {1, 3}, {1, 6}}};
}

}  // namespace gib::rkmk
