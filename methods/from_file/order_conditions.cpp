// Order conditions in exact rational arithmetic (see the header for what is checked and how conditions are named).
#include "methods/from_file/order_conditions.hpp"

#include <algorithm>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <boost/multiprecision/cpp_int.hpp>
#include <cctype>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <map>

#include "core/errors.hpp"
#include "core/user_input.hpp"

namespace gib::from_file {
namespace {

using BigInt = boost::multiprecision::cpp_int;
using Rational = boost::multiprecision::cpp_rational;
using Wide = boost::multiprecision::cpp_bin_float_100;

bool all_digits(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char ch) { return std::isdigit(ch) != 0; });
}

// cpp_int reads "010" as octal: integers here are decimal.
BigInt decimal_integer(const std::string& digits) {
  const std::size_t nonzero = digits.find_first_not_of('0');
  return nonzero == std::string::npos ? BigInt(0) : BigInt(digits.substr(nonzero));
}

// Decimal mantissa and exponent: [sign] digits [. digits] [e [sign] digits], at least one digit before the exponent.
bool parse_decimal(const std::string& s, Rational& out) {
  std::size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) negative = s[i++] == '-';
  std::string digits;
  long long frac_digits = 0;
  bool point = false;
  for (; i < s.size(); ++i) {
    const char ch = s[i];
    if (std::isdigit(static_cast<unsigned char>(ch)) != 0) {
      digits += ch;
      if (point) ++frac_digits;
    } else if (ch == '.' && !point) {
      point = true;
    } else {
      break;
    }
  }
  if (digits.empty()) return false;
  long long exponent = 0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool eneg = false;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) eneg = s[i++] == '-';
    const std::string e = s.substr(i);
    if (!all_digits(e) || e.size() > 4) return false;
    exponent = std::stoll(e) * (eneg ? -1 : 1);
    i = s.size();
  }
  if (i != s.size()) return false;
  const BigInt mantissa = decimal_integer(digits);
  const long long shift = exponent - frac_digits;
  const BigInt scale = boost::multiprecision::pow(BigInt(10), static_cast<unsigned>(shift < 0 ? -shift : shift));
  out = shift < 0 ? Rational(mantissa, scale) : Rational(mantissa * scale);
  if (negative) out = -out;
  return true;
}

Rational to_rational(const Coefficient& c) {
  const std::string& s = c.text;
  const auto slash = s.find('/');
  if (slash != std::string::npos) {
    std::string num = s.substr(0, slash);
    const std::string den = s.substr(slash + 1);
    bool negative = false;
    if (!num.empty() && (num[0] == '-' || num[0] == '+')) {
      negative = num[0] == '-';
      num = num.substr(1);
    }
    const Rational r{decimal_integer(num), decimal_integer(den)};
    return negative ? Rational(-r) : r;
  }
  Rational r;
  parse_decimal(s, r);
  return r;
}

double to_double(const Rational& r) {
  const Wide w = Wide(boost::multiprecision::numerator(r)) / Wide(boost::multiprecision::denominator(r));
  return w.convert_to<double>();
}

std::string fraction_text(const Rational& r) {
  std::string out = boost::multiprecision::numerator(r).str();
  if (boost::multiprecision::denominator(r) != 1) {
    out += '/';
    out += boost::multiprecision::denominator(r).str();
  }
  return out;
}

// A tolerance check shared by every family: exact when the coefficients are, relative to the terms otherwise.
void judge(ConditionResult& r, const Rational& residual, const Rational& scale, bool exact) {
  r.residual = to_double(residual);
  r.scale = to_double(scale);
  r.holds = exact ? residual == 0 : std::abs(r.residual) <= kDecimalTolerance * std::max(1.0, r.scale);
}

// Conditions by order (stable: a family's own conditions after the trees of the same order).
void finish(OrderReport& rep) {
  std::stable_sort(rep.conditions.begin(), rep.conditions.end(),
                   [](const ConditionResult& x, const ConditionResult& y) { return x.order < y.order; });
  rep.order_met = rep.checked_to;
  for (const ConditionResult& c : rep.conditions)
    if (!c.holds) rep.order_met = std::min(rep.order_met, c.order - 1);
}

// ---- rooted trees ----

struct Tree {
  int order = 1;
  std::vector<int> children;  // indices into the tree list, non-decreasing
  Rational gamma = 1;
  std::string name;
};

std::vector<Tree> rooted_trees(int max_order) {
  std::vector<Tree> trees;
  if (max_order < 1) return trees;
  trees.push_back({1, {}, 1, "t"});
  for (int n = 2; n <= max_order; ++n) {
    const std::size_t known = trees.size();  // every tree of order < n
    std::vector<int> pick;
    // Multisets of known trees, indices non-decreasing, whose orders sum to n - 1.
    const auto extend = [&](auto&& self, std::size_t from, int left) -> void {
      if (left == 0) {
        Tree t;
        t.order = n;
        t.children = pick;
        t.gamma = n;
        t.name = "[";
        for (std::size_t k = 0; k < pick.size(); ++k) {
          t.gamma *= trees[static_cast<std::size_t>(pick[k])].gamma;
          if (k > 0) t.name += ',';
          t.name += trees[static_cast<std::size_t>(pick[k])].name;
        }
        t.name += ']';
        trees.push_back(std::move(t));
        return;
      }
      for (std::size_t i = from; i < known; ++i) {
        if (trees[i].order > left) continue;
        pick.push_back(static_cast<int>(i));
        self(self, i, left - trees[i].order);
        pick.pop_back();
      }
    };
    extend(extend, 0, n - 1);
  }
  return trees;
}

// The elementary weight of a tree as a vector expression in A and c: "c^2", "Ac", "c*A(c^2)".
std::string weight_expr(const std::vector<Tree>& trees, const Tree& t) {
  std::vector<std::string> parts;
  int leaves = 0;
  for (const int ch : t.children) {
    const Tree& child = trees[static_cast<std::size_t>(ch)];
    if (child.children.empty()) {
      ++leaves;
      continue;
    }
    const std::string inner = weight_expr(trees, child);
    parts.push_back(inner.find('*') == std::string::npos ? "A" + inner : "A(" + inner + ")");
  }
  if (leaves == 1) parts.insert(parts.begin(), "c");
  if (leaves > 1) parts.insert(parts.begin(), "c^" + std::to_string(leaves));
  std::string out;
  for (std::size_t k = 0; k < parts.size(); ++k) out += (k > 0 ? "*" : "") + parts[k];
  return out;
}

using Vec = std::vector<Rational>;
using Mat = std::vector<Vec>;

// ---- the free algebra of words ----

// A word is a string of generator indices (a char each: at most a few dozen generators).
using Word = std::string;
using Poly = std::map<Word, Rational>;

struct Alphabet {
  std::vector<int> weight;  // the power of h each generator carries
  std::vector<std::string> name;
};

// Generators are indexed by the unsigned value of a char: up to 256 (the ordered trees of weight <= 7 are 197).
std::size_t letter(char g) { return static_cast<unsigned char>(g); }

int word_weight(const Alphabet& al, const Word& w) {
  int s = 0;
  for (const char g : w) s += al.weight[letter(g)];
  return s;
}

Poly multiply(const Alphabet& al, const Poly& x, const Poly& y, int max_weight) {
  Poly out;
  for (const auto& [wx, cx] : x) {
    const int kx = word_weight(al, wx);
    for (const auto& [wy, cy] : y) {
      if (kx + word_weight(al, wy) > max_weight) continue;
      Word w = wx;
      w.insert(w.end(), wy.begin(), wy.end());
      out[w] += cx * cy;
    }
  }
  return out;
}

// exp(X) through weight max_weight, X without a constant term.
Poly exponential(const Alphabet& al, const Poly& x, int max_weight) {
  Poly out{{Word{}, Rational(1)}};
  Poly power{{Word{}, Rational(1)}};
  BigInt factorial = 1;
  for (int k = 1; k <= max_weight; ++k) {
    power = multiply(al, power, x, max_weight);
    if (power.empty()) break;
    factorial *= k;
    for (const auto& [w, c] : power) out[w] += c / Rational(factorial);
  }
  return out;
}

std::string word_name(const Alphabet& al, const Word& w) {
  std::string out;
  for (std::size_t k = 0; k < w.size(); ++k) out += (k > 0 ? " " : "") + al.name[letter(w[k])];
  return out;
}

// Compare a product of exponentials with the target exponential, weight by weight: one condition per weight.
void compare_words(OrderReport& rep, const Alphabet& al, const Poly& product, const Poly& abs_product, const Poly& target,
                   const Poly& abs_target, const std::string& what, const std::string& words_are = "words") {
  for (int k = 1; k <= rep.checked_to; ++k) {
    ConditionResult r;
    r.order = k;
    r.holds = true;
    int words = 0;
    double worst = -1;
    std::map<Word, Rational> words_k;  // every word of weight k in the product or the target, with its yardstick
    for (const auto& [w, c] : abs_product)
      if (word_weight(al, w) == k) words_k[w] += c;
    for (const auto& [w, c] : abs_target)
      if (word_weight(al, w) == k) words_k[w] += c;
    for (const auto& [w, yardstick] : words_k) {
      ++words;
      const auto ti = target.find(w);
      const Rational want = ti == target.end() ? Rational(0) : ti->second;
      const auto pi = product.find(w);
      const Rational got = pi == product.end() ? Rational(0) : pi->second;
      ConditionResult one;
      judge(one, got - want, yardstick, rep.exact);
      const double badness = one.holds ? 0.0 : std::abs(one.residual) / std::max(1.0, one.scale) + 1.0;
      if (badness > worst) {
        worst = badness;
        r.residual = one.residual;
        r.scale = one.scale;
        r.holds = one.holds;
        r.name = word_name(al, w);
      }
    }
    r.condition = what + " through h^" + std::to_string(k) + " (" + std::to_string(words) + " " + words_are + " of weight " +
                  std::to_string(k) + "; the one shown is the worst: coefficient of " + r.name + " off by " +
                  short_number(r.residual) + ")";
    if (r.holds) {
      r.name = "weight " + std::to_string(k);
      r.condition = what + " through h^" + std::to_string(k) + " (" + std::to_string(words) + " " + words_are + ")";
    }
    rep.conditions.push_back(std::move(r));
  }
}

// One condition per rooted tree of order <= rep.checked_to on the explicit tableau (a, b), yardsticks from |a|, |b|.
void add_tree_conditions(OrderReport& rep, const Mat& a, const Mat& abs_a, const Vec& b, const Vec& abs_b) {
  const std::size_t s = b.size();
  const std::vector<Tree> trees = rooted_trees(rep.checked_to);
  std::vector<Vec> u(trees.size()), abs_u(trees.size());
  const auto mat_vec = [s](const Mat& m, const Vec& v) {
    Vec out(s, 0);
    for (std::size_t i = 0; i < s; ++i)
      for (std::size_t j = 0; j < i; ++j) out[i] += m[i][j] * v[j];
    return out;
  };
  for (std::size_t t = 0; t < trees.size(); ++t) {
    u[t] = Vec(s, 1);
    abs_u[t] = Vec(s, 1);
    for (const int ch : trees[t].children) {
      const Vec v = mat_vec(a, u[static_cast<std::size_t>(ch)]);
      const Vec av = mat_vec(abs_a, abs_u[static_cast<std::size_t>(ch)]);
      for (std::size_t i = 0; i < s; ++i) {
        u[t][i] *= v[i];
        abs_u[t][i] *= av[i];
      }
    }
    Rational lhs = 0, scale = 0;
    for (std::size_t i = 0; i < s; ++i) {
      lhs += b[i] * u[t][i];
      scale += abs_b[i] * abs_u[t][i];
    }
    const Rational rhs = Rational(1) / trees[t].gamma;
    ConditionResult r;
    r.order = trees[t].order;
    r.name = "tree " + trees[t].name;
    const std::string w = weight_expr(trees, trees[t]);
    const bool simple = w.find_first_of("*(") == std::string::npos;
    r.condition = (w.empty() ? std::string("sum b") : simple ? "b." + w : "b.(" + w + ")") + " = " + fraction_text(rhs);
    judge(r, lhs - rhs, scale + rhs, rep.exact);
    rep.conditions.push_back(std::move(r));
  }
}

// ---- ordered forests: the Lie-Butcher series of commutator-free methods ----
//
// On a manifold moved by a Lie group (y' = F(y) . y), a function of the solution expands at y0 in ordered forests of
// ordered trees (Munthe-Kaas 1995; Owren 2006, "Order conditions for commutator-free Lie group methods"): a tree is
// F differentiated along the trees on its children, frozen at y0, and a forest is the differential operator of its
// trees applied one after another with their coefficients frozen. With the trees as the letters of a free algebra:
//   * the flow of a frozen field X (a combination of trees) is the concatenation exponential exp(X);
//   * flows taken one after another multiply, the first applied leftmost;
//   * the field frozen at a point with series a is B+(a), each forest w grafted onto a new root [w] (one more h);
//   * the exact flow solves Phi' = sum over the deshuffles (w1, w2) of Phi's forests of w2 B+(w1), which is
//     f(y)' = (F(y) . d/dy) f carried through the frozen frame by the Leibniz rule.
// A method has order p when its series matches Phi on every ordered forest of weight (number of nodes) <= p.

struct OrderedForests {
  Alphabet al;                   // the ordered trees, each one letter, its weight the number of nodes
  std::map<Word, char> grafted;  // the tree [w] for each forest w
};

std::string tree_name(const Alphabet& al, const Word& children) {
  if (children.empty()) return "t";
  std::string out = "[";
  for (std::size_t k = 0; k < children.size(); ++k) out += (k > 0 ? "," : "") + al.name[letter(children[k])];
  return out + "]";
}

// Every ordered tree of weight <= max_weight (1, 1, 2, 5, 14, 42, 132 per weight).
OrderedForests ordered_forests(int max_weight) {
  if (max_weight > 7) throw InputError("Lie-group order conditions are enumerated to order 6");
  OrderedForests of;
  std::vector<std::vector<Word>> by_weight{{Word{}}};  // the forests by weight
  for (int n = 1; n <= max_weight; ++n) {
    for (const Word& w : by_weight[static_cast<std::size_t>(n - 1)]) {
      of.grafted[w] = static_cast<char>(of.al.weight.size());
      of.al.weight.push_back(n);
      of.al.name.push_back(tree_name(of.al, w));
    }
    // The forests of weight n: a tree of weight k followed by a forest of weight n - k.
    std::vector<Word> next;
    for (std::size_t t = 0; t < of.al.weight.size(); ++t) {
      const int k = of.al.weight[t];
      for (const Word& rest : by_weight[static_cast<std::size_t>(n - k)]) next.push_back(Word(1, static_cast<char>(t)) + rest);
    }
    by_weight.push_back(std::move(next));
  }
  return of;
}

// B+: each forest grafted onto a new root, through weight max_weight.
Poly graft(const OrderedForests& of, const Poly& x, int max_weight) {
  Poly out;
  for (const auto& [w, c] : x)
    if (word_weight(of.al, w) < max_weight) out[Word(1, of.grafted.at(w))] += c;
  return out;
}

// The exact flow through weight max_weight, weight by weight: n c_w = [w] sum over forests v of weight n - 1 and
// their deshuffles (v1, v2) of c_v v2 B+(v1).
Poly exact_flow(const OrderedForests& of, int max_weight) {
  Poly phi{{Word{}, Rational(1)}};
  std::vector<std::pair<Word, Rational>> layer{{Word{}, Rational(1)}};
  for (int n = 1; n <= max_weight; ++n) {
    Poly next;
    for (const auto& [v, c] : layer) {
      for (unsigned mask = 0; mask < (1u << v.size()); ++mask) {
        Word v1, v2;
        for (std::size_t k = 0; k < v.size(); ++k) ((mask >> k) & 1u ? v1 : v2) += v[k];
        next[v2 + Word(1, of.grafted.at(v1))] += c / n;
      }
    }
    layer.assign(next.begin(), next.end());
    for (const auto& [w, c] : next) phi[w] += c;
  }
  return phi;
}

// A product of exponentials of frozen fields: each factor a row of coefficients of the fields K_1, K_2, ...
using Factors = std::vector<Vec>;
struct RationalScheme {
  std::vector<Factors> stages;  // stage i: its factors in the order applied, each of i coefficients
  Factors output;               // the update's factors, each of s coefficients
};

Poly product_series(const OrderedForests& of, const Factors& factors, const std::vector<Poly>& K, int max_weight) {
  Poly out{{Word{}, Rational(1)}};
  for (const Vec& row : factors) {
    Poly x;
    for (std::size_t k = 0; k < row.size(); ++k)
      if (row[k] != 0)
        for (const auto& [w, c] : K[k]) x[w] += row[k] * c;
    out = multiply(of.al, out, exponential(of.al, x, max_weight), max_weight);
  }
  return out;
}

Poly method_series(const OrderedForests& of, const RationalScheme& m, int max_weight) {
  std::vector<Poly> K;
  for (const Factors& stage : m.stages) K.push_back(graft(of, product_series(of, stage, K, max_weight), max_weight));
  return product_series(of, m.output, K, max_weight);
}

RationalScheme absolute(RationalScheme m) {
  for (Factors& stage : m.stages)
    for (Vec& row : stage)
      for (Rational& x : row) x = boost::multiprecision::abs(x);
  for (Vec& row : m.output)
    for (Rational& x : row) x = boost::multiprecision::abs(x);
  return m;
}

// One condition per weight <= rep.checked_to: the method's series against the exact flow's, the worst forest named.
void add_lie_conditions(OrderReport& rep, const RationalScheme& m) {
  const OrderedForests of = ordered_forests(rep.checked_to);
  const Poly exact = exact_flow(of, rep.checked_to);
  compare_words(rep, of.al, method_series(of, m, rep.checked_to), method_series(of, absolute(m), rep.checked_to), exact,
                exact, "Lie-Butcher series = the exact flow's", "ordered forests");
}

}  // namespace

const ConditionResult* OrderReport::first_failure() const {
  for (const ConditionResult& c : conditions)
    if (!c.holds) return &c;
  return nullptr;
}

Coefficient parse_coefficient(const std::string& text, const std::string& where) {
  const auto bad = [&] {
    return InputError(where + ": coefficient \"" + text.substr(0, 60) +
                      "\" is not an integer, a fraction p/q or a decimal (write irrational values as decimals)");
  };
  if (text.empty() || text.size() > 200) throw bad();
  Coefficient c{text, false};
  const auto slash = text.find('/');
  if (slash != std::string::npos) {
    std::string num = text.substr(0, slash);
    const std::string den = text.substr(slash + 1);
    if (!num.empty() && (num[0] == '-' || num[0] == '+')) num = num.substr(1);
    if (!all_digits(num) || !all_digits(den)) throw bad();
    if (decimal_integer(den) == 0) throw InputError(where + ": coefficient \"" + text + "\" divides by zero");
    return c;
  }
  Rational r;
  if (!parse_decimal(text, r)) throw bad();
  c.decimal = text.find_first_of(".eE") != std::string::npos;
  return c;
}

void to_double_double(const Coefficient& c, double& hi, double& lo) {
  const Rational r = to_rational(c);
  const Wide w = Wide(boost::multiprecision::numerator(r)) / Wide(boost::multiprecision::denominator(r));
  hi = w.convert_to<double>();
  lo = Wide(w - Wide(hi)).convert_to<double>();
}

bool small_fraction(const Coefficient& c, int& num, int& den) {
  const Rational r = to_rational(c);
  const BigInt n = boost::multiprecision::numerator(r), d = boost::multiprecision::denominator(r);
  if (n > INT_MAX || n < -INT_MAX || d > INT_MAX) return false;
  num = n.convert_to<int>();
  den = d.convert_to<int>();
  return true;
}

std::vector<std::string> rooted_tree_names(int max_order) {
  std::vector<std::string> out;
  for (const Tree& t : rooted_trees(max_order)) out.push_back(t.name);
  return out;
}

OrderReport check_runge_kutta(const std::vector<std::vector<Coefficient>>& a_in, const std::vector<Coefficient>& b_in,
                              const std::vector<Coefficient>& c_in, int claimed, bool crouch_grossman) {
  const std::size_t s = b_in.size();
  if (s == 0) throw InputError("tableau: b is empty");
  if (a_in.size() != s)
    throw InputError("tableau: a has " + std::to_string(a_in.size()) + " rows for " + std::to_string(s) + " weights b");
  OrderReport rep;
  rep.claimed = claimed;
  rep.exact = true;
  Mat a(s, Vec(s, 0)), abs_a(s, Vec(s, 0));
  Vec b(s), abs_b(s), c(s, 0), abs_c(s, 0);
  for (std::size_t i = 0; i < s; ++i) {
    if (a_in[i].size() != i)
      throw InputError("tableau: row " + std::to_string(i + 1) + " of a has " + std::to_string(a_in[i].size()) +
                       " entries; an explicit method's row i has i - 1 (strictly lower triangular)");
    for (std::size_t j = 0; j < i; ++j) {
      a[i][j] = to_rational(a_in[i][j]);
      abs_a[i][j] = boost::multiprecision::abs(a[i][j]);
      c[i] += a[i][j];
      abs_c[i] += abs_a[i][j];
      rep.exact = rep.exact && !a_in[i][j].decimal;
    }
    b[i] = to_rational(b_in[i]);
    abs_b[i] = boost::multiprecision::abs(b[i]);
    rep.exact = rep.exact && !b_in[i].decimal;
  }
  // Consistency: nodes given must be the row sums (the methods here are autonomous: c only names the stage times).
  if (!c_in.empty()) {
    if (c_in.size() != s)
      throw InputError("tableau: c has " + std::to_string(c_in.size()) + " nodes for " + std::to_string(s) + " stages");
    for (std::size_t i = 0; i < s; ++i) {
      ConditionResult r;
      judge(r, to_rational(c_in[i]) - c[i], abs_c[i] + boost::multiprecision::abs(to_rational(c_in[i])),
            rep.exact && !c_in[i].decimal);
      if (!r.holds)
        throw InputError("tableau: consistency c_" + std::to_string(i + 1) + " = sum_j a_" + std::to_string(i + 1) +
                         "j fails: c_" + std::to_string(i + 1) + " = " + c_in[i].text + ", the row sums to " +
                         short_number(to_double(c[i])));
    }
  }
  rep.checked_to = std::max(claimed, 1) + 1;  // one order beyond the claim, to catch an under-claim
  add_tree_conditions(rep, a, abs_a, b, abs_b);
  if (crouch_grossman) {
    // A Crouch-Grossman method is commutator-free with one field per factor, in stage order.
    RationalScheme m;
    for (std::size_t i = 0; i < s; ++i) {
      m.stages.emplace_back();
      for (std::size_t j = 0; j < i; ++j)
        if (a[i][j] != 0) {
          m.stages.back().emplace_back(i, Rational(0));
          m.stages.back().back()[j] = a[i][j];
        }
      if (b[i] != 0) {
        m.output.emplace_back(s, Rational(0));
        m.output.back()[i] = b[i];
      }
    }
    add_lie_conditions(rep, m);
  }
  finish(rep);
  return rep;
}

OrderReport check_commutator_free(const std::vector<std::vector<std::vector<Coefficient>>>& stages,
                                  const std::vector<std::vector<Coefficient>>& output, int claimed) {
  const std::size_t s = stages.size();
  if (s == 0) throw InputError("commutator_free: no stages");
  OrderReport rep;
  rep.claimed = claimed;
  rep.exact = true;
  const auto read_row = [&](const std::vector<Coefficient>& in, std::size_t size, const std::string& where) {
    if (in.size() != size)
      throw InputError("commutator_free: " + where + " has " + std::to_string(in.size()) + " coefficients; it needs " +
                       std::to_string(size) + " (one per " + (size == s ? "stage" : "earlier stage") + ")");
    Vec row;
    for (const Coefficient& x : in) {
      row.push_back(to_rational(x));
      rep.exact = rep.exact && !x.decimal;
    }
    return row;
  };
  RationalScheme m;
  // The Runge-Kutta method the scheme is when the group is commutative: each field's coefficients summed over factors.
  Mat a(s, Vec(s, 0)), abs_a(s, Vec(s, 0));
  Vec b(s, 0), abs_b(s, 0);
  for (std::size_t i = 0; i < s; ++i) {
    m.stages.emplace_back();
    for (std::size_t f = 0; f < stages[i].size(); ++f) {
      m.stages[i].push_back(read_row(stages[i][f], i, "stage " + std::to_string(i + 1) + " factor " + std::to_string(f + 1)));
      for (std::size_t j = 0; j < i; ++j) {
        a[i][j] += m.stages[i].back()[j];
        abs_a[i][j] += boost::multiprecision::abs(m.stages[i].back()[j]);
      }
    }
  }
  if (output.empty()) throw InputError("commutator_free: the update has no factors");
  for (std::size_t f = 0; f < output.size(); ++f) {
    m.output.push_back(read_row(output[f], s, "output factor " + std::to_string(f + 1)));
    for (std::size_t j = 0; j < s; ++j) {
      b[j] += m.output.back()[j];
      abs_b[j] += boost::multiprecision::abs(m.output.back()[j]);
    }
  }
  rep.checked_to = std::max(claimed, 1) + 1;
  add_tree_conditions(rep, a, abs_a, b, abs_b);
  add_lie_conditions(rep, m);
  finish(rep);
  return rep;
}

OrderReport check_composition(const std::vector<Coefficient>& gamma, int base_order, bool base_symmetric, int claimed) {
  if (gamma.empty()) throw InputError("composition: no substeps");
  if (base_order < 1) throw InputError("composition: the base has no order");
  OrderReport rep;
  rep.claimed = claimed;
  rep.checked_to = std::max(claimed, base_order) + 1;
  rep.exact = std::none_of(gamma.begin(), gamma.end(), [](const Coefficient& g) { return g.decimal; });
  Alphabet al;
  al.weight.push_back(1);
  al.name.emplace_back("A");
  for (int k = base_order + 1; k <= rep.checked_to; k += base_symmetric ? 2 : 1) {
    al.weight.push_back(k);
    al.name.push_back("E" + std::to_string(k));
  }
  Poly product{{Word{}, Rational(1)}}, abs_product = product;
  for (const Coefficient& g : gamma) {
    const Rational x = to_rational(g), ax = boost::multiprecision::abs(x);
    Poly field, abs_field;
    for (std::size_t k = 0; k < al.weight.size(); ++k) {
      Rational p = 1, ap = 1;
      for (int e = 0; e < al.weight[k]; ++e) {
        p *= x;
        ap *= ax;
      }
      field[Word(1, static_cast<char>(k))] = p;
      abs_field[Word(1, static_cast<char>(k))] = ap;
    }
    product = multiply(al, product, exponential(al, field, rep.checked_to), rep.checked_to);
    abs_product = multiply(al, abs_product, exponential(al, abs_field, rep.checked_to), rep.checked_to);
  }
  const Poly target = exponential(al, Poly{{Word(1, char{0}), Rational(1)}}, rep.checked_to);
  compare_words(rep, al, product, abs_product, target, target, "Psi_h = exp(h A)");
  finish(rep);
  return rep;
}

OrderReport check_splitting(const std::vector<std::pair<int, Coefficient>>& sequence, int pieces, int claimed,
                            const std::vector<std::string>& names) {
  if (sequence.empty()) throw InputError("splitting: empty sequence");
  OrderReport rep;
  rep.claimed = claimed;
  rep.checked_to = std::max(claimed, 1) + 1;
  rep.exact = std::none_of(sequence.begin(), sequence.end(), [](const auto& s) { return s.second.decimal; });
  Alphabet al;
  for (int k = 0; k < pieces; ++k) {
    al.weight.push_back(1);
    al.name.push_back(static_cast<std::size_t>(k) < names.size() ? names[static_cast<std::size_t>(k)] : "X" + std::to_string(k + 1));
  }
  Poly product{{Word{}, Rational(1)}}, abs_product = product;
  for (const auto& [piece, coef] : sequence) {
    const Rational x = to_rational(coef);
    const Word w(1, static_cast<char>(piece));
    product = multiply(al, product, exponential(al, Poly{{w, x}}, rep.checked_to), rep.checked_to);
    abs_product = multiply(al, abs_product, exponential(al, Poly{{w, boost::multiprecision::abs(x)}}, rep.checked_to),
                           rep.checked_to);
  }
  Poly sum;
  for (int k = 0; k < pieces; ++k) sum[Word(1, static_cast<char>(k))] = 1;
  const Poly target = exponential(al, sum, rep.checked_to);
  std::string sum_text;
  for (const std::string& n : al.name) sum_text += (sum_text.empty() ? "" : " + ") + n;
  compare_words(rep, al, product, abs_product, target, target, "the product = exp(h (" + sum_text + "))");
  finish(rep);
  return rep;
}

}  // namespace gib::from_file
