#include "methods/rkmk/tableau.hpp"

namespace gib::rkmk {

DoubleTableau in_double(const Tableau& t) {
  const std::size_t s = t.b.size();
  DoubleTableau out{std::vector<std::vector<double>>(s, std::vector<double>(s, 0.0)), std::vector<double>(s)};
  for (std::size_t i = 0; i < s; ++i) {
    for (std::size_t j = 0; j < t.a[i].size(); ++j) out.a[i][j] = t.a[i][j].in<double>();
    out.b[i] = t.b[i].in<double>();
  }
  return out;
}

Tableau lie_euler() { return {"Euler", 1, {{}}, {{1}}}; }

Tableau heun() { return {"Heun", 2, {{}, {{1}}}, {{1, 2}, {1, 2}}}; }

Tableau explicit_midpoint() { return {"explicit midpoint", 2, {{}, {{1, 2}}}, {{0}, {1}}}; }

Tableau kutta3() { return {"Kutta 3", 3, {{}, {{1, 2}}, {{-1}, {2}}}, {{1, 6}, {2, 3}, {1, 6}}}; }

Tableau classical_rk4() {
  return {"classical RK4", 4, {{}, {{1, 2}}, {{0}, {1, 2}}, {{0}, {0}, {1}}}, {{1, 6}, {1, 3}, {1, 3}, {1, 6}}};
}

}  // namespace gib::rkmk
