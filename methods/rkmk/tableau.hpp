// Explicit Butcher tableaus used by the Runge-Kutta-Munthe-Kaas family (Kjer spec 3.4).
#pragma once

#include <string>
#include <vector>

namespace gib::rkmk {

struct Tableau {
  std::string name;
  int order;
  std::vector<std::vector<double>> a;  // strictly lower triangular, a[i][j] for j < i
  std::vector<double> b;
  int stages() const { return static_cast<int>(b.size()); }
};

Tableau lie_euler();          // forward Euler, order 1
Tableau heun();               // Heun / explicit trapezoid, order 2
Tableau explicit_midpoint();  // order 2
Tableau kutta3();             // Kutta's third-order method (Kjer spec: harness default for order 3)
Tableau classical_rk4();      // Kjer Table 3.1 (body lost in the text; classical RK4)

}  // namespace gib::rkmk
