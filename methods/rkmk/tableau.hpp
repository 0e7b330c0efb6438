// Explicit Butcher tableaus used by the Runge-Kutta-Munthe-Kaas family (Kjer spec 3.4).
#pragma once

#include <string>
#include <vector>

namespace gib::rkmk {

// A coefficient as an exact fraction, so that the kernel evaluates it in its own scalar: 1/6 stored as a double
// would carry double's rounding into a long double or binary128 run. In double, num/den rounds exactly as the
// literal 1.0 / 6 does.
// A coefficient read from a method file that is no small fraction (a decimal for an irrational value, a fraction
// beyond int) is carried as the double-double hi + lo, about 32 significant digits (methods/from_file/).
struct Fraction {
  int num;
  int den = 1;
  bool wide = false;
  double hi = 0, lo = 0;
  template <class S> S in() const { return wide ? S(hi) + S(lo) : S(num) / S(den); }
  bool is_zero() const { return wide ? hi == 0 : num == 0; }
};

struct Tableau {
  std::string name;
  int order;
  std::vector<std::vector<Fraction>> a;  // strictly lower triangular, a[i][j] for j < i
  std::vector<Fraction> b;
  int stages() const { return static_cast<int>(b.size()); }
};

// The tableau in double for the steppers that run only in double (Crouch-Grossman, classical RK from a file): a is
// s x s with zeros on and above the diagonal.
struct DoubleTableau {
  std::vector<std::vector<double>> a;
  std::vector<double> b;
  std::size_t stages() const { return b.size(); }
};
DoubleTableau in_double(const Tableau& t);

Tableau lie_euler();          // forward Euler, order 1
Tableau heun();               // Heun / explicit trapezoid, order 2
Tableau explicit_midpoint();  // order 2
Tableau kutta3();             // Kutta's third-order method (Kjer spec: harness default for order 3)
Tableau classical_rk4();      // Kjer Table 3.1 (body lost in the text; classical RK4)

}  // namespace gib::rkmk
