#include "methods/rkmk/tableau.hpp"

namespace gib::rkmk {

Tableau lie_euler() { return {"Euler", 1, {{}}, {1.0}}; }

Tableau heun() { return {"Heun", 2, {{}, {1.0}}, {0.5, 0.5}}; }

Tableau explicit_midpoint() { return {"explicit midpoint", 2, {{}, {0.5}}, {0.0, 1.0}}; }

Tableau kutta3() { return {"Kutta 3", 3, {{}, {0.5}, {-1.0, 2.0}}, {1.0 / 6, 2.0 / 3, 1.0 / 6}}; }

Tableau classical_rk4() {
  return {"classical RK4", 4, {{}, {0.5}, {0.0, 0.5}, {0.0, 0.0, 1.0}}, {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6}};
}

}  // namespace gib::rkmk
