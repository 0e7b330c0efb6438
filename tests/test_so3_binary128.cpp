// core/so3.hpp's series coefficients in a scalar wider than long double (binary128): they must be that scalar's
// own roundings of the exact rationals, not long double values widened, or every exp, J_r and dexp^-1 of a
// binary128 run (the Kjer precision study) carries a long double error (~1e-20 relative on 1/6).
#include <catch2/catch.hpp>
#include <cstddef>

#include "core/so3.hpp"
#include "problems/dipolar_spheres/quad_scalar.hpp"

namespace gibench_test_so3_binary128 {

#ifdef GIB_HAVE_QUAD_SCALAR

namespace {

namespace so3 = gib::so3;
using gib::quad::Quad;

double relative(Quad a, Quad b) { return static_cast<double>(abs((a - b) / b)); }

Quad factorial(int n) {
  Quad f = 1;
  for (int k = 2; k <= n; ++k) f *= Quad(k);  // exact: 21! < 2^113
  return f;
}

}  // namespace

TEST_CASE("binary128 series at a small angle agree with the closed forms to binary128 accuracy", "[so3][binary128]") {
  // At t = 0.1 the nine-term series truncate below 1e-35, and the closed forms below cancel at most ~3 decimal
  // digits (t - sin t), so both sides are good to ~1e-31; a long double coefficient is off by ~1e-22 here.
  const Quad t = Quad(1) / Quad(10), t2 = t * t, x = t / Quad(2);
  const so3::Coefficients<Quad> k = so3::rodrigues_coefficients(t2);
  const Quad sinc = sin(t) / t;
  const Quad cosc = Quad(2) * sin(x) * sin(x) / t2;  // (1 - cos t)/t^2 without cancellation
  const Quad sinc3 = (t - sin(t)) / (t2 * t);
  const Quad dexpinv = (Quad(1) - x / tan(x)) / t2;
  INFO("sinc " << relative(k.a, sinc) << ", cosc " << relative(k.b, cosc) << ", sinc3 " << relative(k.c, sinc3)
               << ", dexp^-1 " << relative(so3::dexp_inv_coefficient(t2), dexpinv));
  CHECK(relative(k.a, sinc) < 1e-30);
  CHECK(relative(k.b, cosc) < 1e-30);
  CHECK(relative(k.c, sinc3) < 1e-30);
  CHECK(relative(so3::dexp_inv_coefficient(t2), dexpinv) < 1e-30);
}

TEST_CASE("binary128 Bernoulli coefficients are the exact rationals B_k/k! rounded once", "[so3][binary128]") {
  // B_0..B_20 (B_1 = -1/2, odd k > 1 zero), built here from the numbers themselves and k! in binary128, so a
  // wrong or rounded integer in the table, or a long double quotient, fails bit for bit.
  struct B {
    int num, den;
  };
  const B bernoulli[] = {{1, 1},     {-1, 2},   {1, 6},    {0, 1}, {-1, 30},  {0, 1}, {1, 42},      {0, 1},
                         {-1, 30},   {0, 1},    {5, 66},   {0, 1}, {-691, 2730}, {0, 1}, {7, 6},    {0, 1},
                         {-3617, 510}, {0, 1}, {43867, 798}, {0, 1}, {-174611, 330}};
  for (int k = 0; k <= so3::kBernoulliTableOrder; ++k) {
    const B& b = bernoulli[static_cast<std::size_t>(k)];
    const Quad exact = Quad(b.num) / (Quad(b.den) * factorial(k));
    INFO("k = " << k);
    CHECK(so3::bernoulli_over_factorial<Quad>(k) == exact);
  }
  // The |B_2n|/(2n)! of the dexp^-1 table and the 1/n! of the Rodrigues tables, the same way.
  const auto& d = so3::detail::table<Quad, so3::detail::kDexpInv>();
  for (std::size_t n = 0; n < d.size(); ++n) {
    const int k = 2 * static_cast<int>(n) + 2;
    INFO("|B_" << k << "|/" << k << "!");
    CHECK(d[n] == abs(so3::bernoulli_over_factorial<Quad>(k)));
  }
  const auto& sinc = so3::detail::table<Quad, so3::detail::kSinc>();
  const auto& cosc = so3::detail::table<Quad, so3::detail::kCosc>();
  const auto& sinc3 = so3::detail::table<Quad, so3::detail::kSinc3>();
  for (std::size_t n = 0; n < sinc.size(); ++n) {
    const int i = static_cast<int>(n);
    const Quad sign = n % 2 == 0 ? Quad(1) : Quad(-1);
    INFO("term " << n);
    CHECK(sinc[n] == sign / factorial(2 * i + 1));
    CHECK(cosc[n] == sign / factorial(2 * i + 2));
    CHECK(sinc3[n] == sign / factorial(2 * i + 3));
  }
}

#endif

}  // namespace gibench_test_so3_binary128
