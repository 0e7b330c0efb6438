// Order conditions of a method given by its coefficients, checked before the method runs (methods/from_file/).
//
// Coefficients are read as exact rationals: "1/6", "-3", "0.1234567890123456789" (a decimal is the rational it
// spells). The conditions are evaluated in exact rational arithmetic (Boost.Multiprecision's cpp_rational), so a
// tableau of rationals satisfies a condition exactly or not at all. A decimal coefficient approximates an irrational
// one; a condition on decimals holds when its residual is below kDecimalTolerance times the sum of the absolute
// values of its terms (the size the residual would have if every term carried that relative error).
//
//   * Runge-Kutta (explicit, s stages; RKMK, classical RK and, as a subset, Crouch-Grossman): one condition per rooted
//     tree t of order <= p, b . Phi(t) = 1 / gamma(t) (Butcher 1963; Hairer-Norsett-Wanner I, II.2), named by the tree
//     and its elementary weight in vector form ("b.(c*Ac) = 1/8"). RKMK with the dexp^{-1} series kept to p - 2
//     terms has the order of its tableau (Munthe-Kaas 1998).
//   * Crouch-Grossman and commutator-free Lie group methods (products of exponentials of frozen fields): besides the
//     trees of the Runge-Kutta method they are when the group is commutative, their Lie-Butcher series must match
//     the exact flow's on every ordered forest of weight <= p (Owren 2006; Celledoni-Marthinsen-Owren 2003;
//     Owren-Marthinsen 1999 for Crouch-Grossman). The series are computed in the free algebra of ordered trees; one
//     condition per weight, the worst forest named ("coefficient of t [t] off by 1/24"). Enumerated to order 6.
//   * Compositions Psi_h = Phi_{g_s h} o ... o Phi_{g_1 h} of a base method of order p, and splittings
//     exp(h a_1 X_1) ... of a vector field's pieces: checked in the free algebra. A base step is the exponential of
//     its modified vector field, g h A + (g h)^{p+1} E_{p+1} + ... (odd powers only when the base is symmetric), with
//     A and the error terms E_k free non-commuting symbols; the composition's product of exponentials must equal
//     exp(h A) through h^q. A splitting's pieces are free symbols X_1, X_2, ... of degree 1 and the product must
//     equal exp(h (X_1 + X_2 + ...)). A failed condition is named by the word whose coefficient is off ("order 3:
//     the coefficient of E3 is 0.0417, not 0").
#pragma once

#include <string>
#include <vector>

namespace gib::from_file {

inline constexpr double kDecimalTolerance = 1e-14;

// One coefficient as written, and whether it was a decimal (inexact) or a rational.
struct Coefficient {
  std::string text;
  bool decimal = false;
};

// Throws InputError naming `where` unless `text` is an integer, a fraction p/q (q != 0) or a decimal.
Coefficient parse_coefficient(const std::string& text, const std::string& where);
// The coefficient as the nearest double, and the remainder (text - hi) as a double: hi + lo carries ~32 digits.
void to_double_double(const Coefficient& c, double& hi, double& lo);
// Numerator and denominator when the coefficient is a rational with both in int range (exact in any scalar).
bool small_fraction(const Coefficient& c, int& num, int& den);

struct ConditionResult {
  int order = 0;           // the order at which the condition enters
  std::string name;        // the tree or word, e.g. "[t,[t]]" or "E3 A"
  std::string condition;   // the equation in the coefficients, e.g. "b.(c*Ac) = 1/8"
  double residual = 0;     // lhs - rhs
  double scale = 0;        // sum of |terms|, the yardstick of a decimal residual
  bool holds = false;
};

struct OrderReport {
  int claimed = 0;
  int checked_to = 0;      // conditions of orders <= checked_to were evaluated
  int order_met = 0;       // the largest q <= checked_to with every condition of order <= q holding
  bool exact = false;      // every coefficient rational: every residual is exact
  std::vector<ConditionResult> conditions;
  const ConditionResult* first_failure() const;
};

// Explicit Runge-Kutta: a[i] holds row i's i entries (strictly lower triangular), b the weights, c the nodes (empty:
// the row sums). Checks the conditions of orders 1..max(claimed, 1) + 1 (one beyond the claim, for order_met).
// Throws InputError when the shapes do not match or c differs from the row sums.
OrderReport check_runge_kutta(const std::vector<std::vector<Coefficient>>& a, const std::vector<Coefficient>& b,
                              const std::vector<Coefficient>& c, int claimed, bool crouch_grossman);

// Commutator-free: stages[i] holds stage i's factors in the order applied, each a row of i coefficients (of the
// fields of stages 1..i); output the update's factors, each of s coefficients. Throws InputError on a shape mismatch.
OrderReport check_commutator_free(const std::vector<std::vector<std::vector<Coefficient>>>& stages,
                                  const std::vector<std::vector<Coefficient>>& output, int claimed);

// Composition of a base of order p (symmetric or not) with substeps gamma_1..gamma_s, gamma_1 applied first.
OrderReport check_composition(const std::vector<Coefficient>& gamma, int base_order, bool base_symmetric, int claimed);

// Splitting into `pieces` flows: sequence of (piece index, coefficient), the first applied first. `names` names the
// pieces in messages (default X1, X2, ...).
OrderReport check_splitting(const std::vector<std::pair<int, Coefficient>>& sequence, int pieces, int claimed,
                            const std::vector<std::string>& names = {});

// The rooted trees of order <= p in canonical order (order, then the children's indices): bracket names, used by
// the tests and the documentation. Counts 1, 1, 2, 4, 9, 20, 48, 115 per order.
std::vector<std::string> rooted_tree_names(int max_order);

}  // namespace gib::from_file
