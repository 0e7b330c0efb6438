// Method files (methods/from_file/): the order-condition checker on known tableaus and compositions, and on broken
// ones (one coefficient perturbed: the condition named must be the one it breaks); the loader's refusals; the shipped
// files against the compiled tableaus they replace.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "core/method.hpp"
#include "core/problem.hpp"
#include "core/vector_field_problem.hpp"
#include "methods/composition/symmetric_composition.hpp"
#include "methods/from_file/method_file.hpp"
#include "methods/from_file/order_conditions.hpp"
#include "methods/rkmk/rkmk.hpp"
#include "methods/rkmk/tableau.hpp"
#include "methods/splitting/mclachlan_reich.hpp"

namespace gibench_test_method_files {

namespace {

using gib::from_file::Coefficient;
using gib::from_file::OrderReport;

std::vector<Coefficient> row(const std::vector<std::string>& texts) {
  std::vector<Coefficient> out;
  for (const auto& t : texts) out.push_back(gib::from_file::parse_coefficient(t, "test"));
  return out;
}

struct Tab {
  std::vector<std::vector<std::string>> a;
  std::vector<std::string> b;
};

OrderReport rk(const Tab& t, int claimed, bool cg = false) {
  std::vector<std::vector<Coefficient>> a;
  for (const auto& r : t.a) a.push_back(row(r));
  return gib::from_file::check_runge_kutta(a, row(t.b), {}, claimed, cg);
}

const Tab kRk4{{{}, {"1/2"}, {"0", "1/2"}, {"0", "0", "1"}}, {"1/6", "1/3", "1/3", "1/6"}};
const Tab kKutta38{{{}, {"1/3"}, {"-1/3", "1"}, {"1", "-1", "1"}}, {"1/8", "3/8", "3/8", "1/8"}};
const Tab kCg3{{{}, {"3/4"}, {"119/216", "17/108"}}, {"13/51", "-2/3", "24/17"}};
// Ralston's fourth-order method has irrational coefficients: 17 printed digits.
const Tab kRalston4{{{},
                     {"0.4"},
                     {"0.29697760924775360", "0.15875964497103583"},
                     {"0.21810038822592047", "-3.0509651486929308", "3.8328647604670103"}},
                    {"0.17476028226269037", "-0.55148066287873294", "1.2055355993965235", "0.17118478121951903"}};

std::string loaded_error(const std::string& text) {
  try {
    gib::from_file::load_method(text, "t.json", gib::method_registry());
  } catch (const gib::InputError& e) {
    return e.what();
  }
  return "";
}

// The order report a shipped file was registered with (it must have one).
const gib::from_file::OrderReport& shipped_report(const std::string& id) {
  const gib::from_file::OrderReport* r = gib::from_file::definition_report(id);
  REQUIRE(r != nullptr);
  return *r;
}

std::string rkmk_file(const std::string& id, int order, const std::string& tableau, const std::string& extra = "") {
  return R"({"gibench_method": 1, "id": ")" + id + R"(", "family": "rkmk", "citation": "test", "order": )" +
         std::to_string(order) + R"(, "tableau": )" + tableau + extra + "}";
}

}  // namespace

TEST_CASE("rooted trees: 1, 1, 2, 4, 9, 20, 48, 115 of orders 1 to 8", "[method_files]") {
  const std::vector<int> counts = {1, 1, 2, 4, 9, 20, 48, 115};
  int total = 0;
  for (int p = 1; p <= 8; ++p) {
    total += counts[static_cast<std::size_t>(p - 1)];
    CHECK(static_cast<int>(gib::from_file::rooted_tree_names(p).size()) == total);
  }
  CHECK(gib::from_file::rooted_tree_names(3) == std::vector<std::string>{"t", "[t]", "[t,t]", "[[t]]"});
}

TEST_CASE("known tableaus meet exactly their order: RK4, the 3/8 rule, Ralston's decimals", "[method_files]") {
  const OrderReport r4 = rk(kRk4, 4);
  CHECK(r4.exact);
  CHECK(r4.order_met == 4);
  CHECK(r4.checked_to == 5);
  REQUIRE(r4.first_failure() != nullptr);
  CHECK(r4.first_failure()->order == 5);  // RK4 is not of order 5: a tree of order 5 fails
  CHECK(rk(kKutta38, 4).order_met == 4);
  const OrderReport ral = rk(kRalston4, 4);
  CHECK_FALSE(ral.exact);
  CHECK(ral.order_met == 4);
  for (const auto& c : ral.conditions)
    if (c.order <= 4) CHECK(std::abs(c.residual) < 1e-15);
  CHECK(rk({{{}}, {"1"}}, 1).order_met == 1);  // Euler
}

TEST_CASE("a perturbed coefficient is named by the condition it breaks", "[method_files]") {
  // b_2 off: the weights no longer sum to one (the order-1 tree).
  Tab t = kRk4;
  t.b = {"1/6", "1/3", "0.3334", "1/6"};
  REQUIRE(rk(t, 4).first_failure() != nullptr);
  CHECK(rk(t, 4).first_failure()->name == "tree t");
  CHECK(rk(t, 4).first_failure()->condition == "sum b = 1");
  // a_41 and a_42 moved against each other keep c_4 (and every order-1 and -2 condition) but break b.(Ac) = 1/6.
  t = kRk4;
  t.a[3] = {"-1/10", "1/10", "1"};
  const OrderReport r = rk(t, 4);
  REQUIRE(r.first_failure() != nullptr);
  CHECK(r.first_failure()->order == 3);
  CHECK(r.first_failure()->name == "tree [[t]]");
  CHECK(r.first_failure()->condition == "b.Ac = 1/6");
  CHECK(r.order_met == 2);
  // An order-4 tree: a_32 and a_31 swapped with c_3 kept breaks b.(AAc) = 1/24 first among the order-4 trees.
  t = kRk4;
  t.a[2] = {"1/2", "0"};
  const OrderReport r2 = rk(t, 4);
  REQUIRE(r2.first_failure() != nullptr);
  CHECK(r2.first_failure()->order == 3);  // c_2 a_32 enters b.(Ac) already
  CHECK(r2.first_failure()->condition == "b.Ac = 1/6");
}

TEST_CASE("Crouch-Grossman: CG3 has order 3 as a Lie group method, RK4's tableau 2, the update reversed 2", "[method_files]") {
  const OrderReport cg3 = rk(kCg3, 3, true);
  CHECK(cg3.exact);
  CHECK(cg3.order_met == 3);
  CHECK(cg3.checked_to == 4);
  // Every condition a failure could name at order 3 holds, the trees and the ordered forests alike.
  for (const auto& c : cg3.conditions)
    if (c.order <= 3) CHECK(c.holds);
  // RK4's tableau meets every tree of order 4 but, run as Crouch-Grossman, not the ordered forests of order 3.
  const OrderReport rk4 = rk(kRk4, 4, true);
  REQUIRE(rk4.first_failure() != nullptr);
  CHECK(rk4.first_failure()->order == 3);
  CHECK(rk4.first_failure()->condition.find("Lie-Butcher series") == 0);
  CHECK(rk4.order_met == 2);
}

namespace {
using Stages = std::vector<std::vector<std::vector<std::string>>>;
using Output = std::vector<std::vector<std::string>>;
OrderReport cf(const Stages& stages, const Output& output, int claimed) {
  std::vector<std::vector<std::vector<Coefficient>>> st;
  for (const auto& stage : stages) {
    st.emplace_back();
    for (const auto& factor : stage) st.back().push_back(row(factor));
  }
  std::vector<std::vector<Coefficient>> out;
  for (const auto& factor : output) out.push_back(row(factor));
  return gib::from_file::check_commutator_free(st, out, claimed);
}
const Stages kCf4Stages{{}, {{"1/2"}}, {{"0", "1/2"}}, {{"1/2", "0", "0"}, {"-1/2", "0", "1"}}};
const Output kCf4Output{{"1/4", "1/6", "1/6", "-1/12"}, {"-1/12", "1/6", "1/6", "1/4"}};
}  // namespace

TEST_CASE("ordered forests: 1, 2, 5, 14, 42 of weights 1 to 5 (Catalan numbers)", "[method_files]") {
  const OrderReport r = cf(kCf4Stages, kCf4Output, 4);
  REQUIRE(r.checked_to == 5);
  const char* counts[] = {"(1 ordered forests", "(2 ordered forests", "(5 ordered forests", "(14 ordered forests",
                          "(42 ordered forests"};
  int seen = 0;
  for (const auto& c : r.conditions)
    if (c.condition.find("Lie-Butcher") == 0) {
      CHECK(c.condition.find(counts[c.order - 1]) != std::string::npos);
      ++seen;
    }
  CHECK(seen == 5);
}

TEST_CASE("commutator-free: CMO's order 4 holds exactly, the factors reordered break the Lie conditions only", "[method_files]") {
  const OrderReport r = cf(kCf4Stages, kCf4Output, 4);
  CHECK(r.exact);
  CHECK(r.order_met == 4);
  // The update's two exponentials taken the other way round: the same Runge-Kutta method (every tree holds) but
  // not the same Lie group method.
  const Output swapped{kCf4Output[1], kCf4Output[0]};
  const OrderReport s = cf(kCf4Stages, swapped, 4);
  REQUIRE(s.first_failure() != nullptr);
  CHECK(s.first_failure()->condition.find("Lie-Butcher series") == 0);
  for (const auto& c : s.conditions)
    if (c.name.rfind("tree ", 0) == 0 && c.order <= 4) CHECK(c.holds);
  CHECK(s.order_met < 4);
  // Stage 4's factors swapped: the stage value changes at O(h^3), the update at O(h^4): order 3 exactly.
  Stages st = kCf4Stages;
  std::swap(st[3][0], st[3][1]);
  const OrderReport t = cf(st, kCf4Output, 4);
  REQUIRE(t.first_failure() != nullptr);
  CHECK(t.first_failure()->order == 4);
  CHECK(t.first_failure()->condition.find("Lie-Butcher series") == 0);
  CHECK(t.order_met == 3);
  // Lie-Euler, exp(h F(y)) y: order 1.
  CHECK(cf({{}}, {{"1"}}, 1).order_met == 1);
  // One coefficient off: a tree of order 1 (the update's weights sum to 1 + 1/12) is named first.
  Output off = kCf4Output;
  off[0][3] = "0";
  CHECK(cf(kCf4Stages, off, 4).first_failure()->name == "tree t");
  // Shapes: a stage-3 factor needs two coefficients.
  Stages bad = kCf4Stages;
  bad[2][0] = {"1/2"};
  CHECK_THROWS_AS(cf(bad, kCf4Output, 4), gib::InputError);
}

TEST_CASE("Crouch-Grossman 4 (Jackiewicz-Marthinsen-Owren): order 4 from its 16 printed digits, not 5", "[method_files]") {
  const Tab cg4{{{},
                 {"0.8177227988124852"},
                 {"0.3199876375476427", "0.0659864263556022"},
                 {"0.9214417194464946", "0.4997857776773573", "-1.0969984448371582"},
                 {"0.3552358559023322", "0.2390958372307326", "1.3918565724203246", "-1.1092979392113465"}},
                {"0.1370831520630755", "-0.0183698531564020", "0.7397813985370780", "-0.1907142565505889",
                 "0.3322195591068374"}};
  const OrderReport r = rk(cg4, 4, true);
  CHECK_FALSE(r.exact);
  CHECK(r.order_met == 4);
  // Its tableau as a plain Runge-Kutta method is order 4 too; CG3's fractions as order 4 are refused by both.
  CHECK(rk(cg4, 4).order_met == 4);
  CHECK(rk(kCg3, 3, true).order_met == 3);
  // A printed digit changed (the 12th of a_53): conditions fail beyond the decimal tolerance.
  Tab broken = cg4;
  broken.a[4][2] = "1.3918565724213246";
  CHECK(rk(broken, 4, true).order_met < 4);
}

TEST_CASE("compositions in the free algebra: triple jump order 4, Yoshida 6, and a perturbed substep", "[method_files]") {
  // gamma = 1/(2 - 2^(1/3)) to 40 digits.
  const std::string g = "1.351207191959657634047687808971460826922";
  const std::string m = "-1.702414383919315268095375617942921653844";
  const OrderReport tj = gib::from_file::check_composition(row({g, m, g}), 2, true, 4);
  CHECK(tj.order_met == 4);
  CHECK_FALSE(tj.exact);
  // The same substeps on a non-symmetric base of order 2: E3's coefficient vanishes but E4's does not... nor does
  // the order-3 word E3's partner: a non-symmetric base has an h^3 term of its own.
  CHECK(gib::from_file::check_composition(row({"1/2", "1/2"}), 2, true, 2).order_met == 2);
  const OrderReport half = gib::from_file::check_composition(row({"1/2", "1/2"}), 2, true, 4);
  REQUIRE(half.first_failure() != nullptr);
  CHECK(half.first_failure()->order == 3);
  CHECK(half.first_failure()->name == "E3");
  CHECK(half.first_failure()->residual == Approx(1.0 / 8 + 1.0 / 8));  // sum gamma^3, which must vanish
  // A perturbed substep (the middle one compensating, so the sum stays 1): sum gamma^3 != 0, named E3.
  const OrderReport bad = gib::from_file::check_composition(row({"1.3512", "-1.7024", "1.3512"}), 2, true, 4);
  REQUIRE(bad.first_failure() != nullptr);
  CHECK(bad.first_failure()->order == 3);
  CHECK(bad.first_failure()->name == "E3");
  // A non-symmetric base of order 1: two half steps keep order 1 (the E2 coefficient sum gamma^2 is 1/2, not 0).
  const OrderReport ns = gib::from_file::check_composition(row({"1/2", "1/2"}), 1, false, 2);
  REQUIRE(ns.first_failure() != nullptr);
  CHECK(ns.first_failure()->name == "E2");
}

TEST_CASE("splittings: Strang is of order 2, Lie-Trotter of order 1, and the failing word is named", "[method_files]") {
  using Seq = std::vector<std::pair<int, Coefficient>>;
  const auto c = [](const char* t) { return gib::from_file::parse_coefficient(t, "test"); };
  const OrderReport strang = gib::from_file::check_splitting(Seq{{0, c("1/2")}, {1, c("1")}, {0, c("1/2")}}, 2, 2);
  CHECK(strang.order_met == 2);
  CHECK(strang.exact);
  const OrderReport lie = gib::from_file::check_splitting(Seq{{0, c("1")}, {1, c("1")}}, 2, 2);
  REQUIRE(lie.first_failure() != nullptr);
  CHECK(lie.first_failure()->order == 2);
  CHECK((lie.first_failure()->name == "X1 X2" || lie.first_failure()->name == "X2 X1"));
  // A piece never applied: the target's word X2 has no partner in the product.
  const OrderReport missing = gib::from_file::check_splitting(Seq{{0, c("1")}}, 2, 1);
  REQUIRE(missing.first_failure() != nullptr);
  CHECK(missing.first_failure()->name == "X2");
}

TEST_CASE("coefficients: integers, fractions and decimals, and nothing else", "[method_files]") {
  for (const char* ok : {"0", "-3", "1/6", "-2/3", "0.125", "-1.5e-3", "2E2", ".5"}) {
    INFO(ok);
    CHECK_NOTHROW(gib::from_file::parse_coefficient(ok, "t"));
  }
  for (const char* bad : {"", "1/0", "abc", "1/2/3", "sqrt(2)", "1e99999", "0x10", "1.5.2", "--1", "1/-2", " 1"}) {
    INFO(bad);
    CHECK_THROWS_AS(gib::from_file::parse_coefficient(bad, "t"), gib::InputError);
  }
  double hi = 0, lo = 0;
  gib::from_file::to_double_double(gib::from_file::parse_coefficient("1/3", "t"), hi, lo);
  CHECK(hi == 1.0 / 3);
  CHECK(lo != 0);
  CHECK(std::abs(lo) < 1e-16 * hi);
}

TEST_CASE("a method file's claims are checked before it is registered", "[method_files]") {
  const std::string rk4 = R"({"a": [[], ["1/2"], ["0", "1/2"], ["0", "0", "1"]], "b": ["1/6", "1/3", "1/3", "1/6"]})";
  CHECK(loaded_error(rkmk_file("my_rk4", 4, rk4)).empty());
  const std::string over = loaded_error(rkmk_file("my_rk4", 5, rk4));
  CHECK_THAT(over, Catch::Contains("claims order 5, but the order-5 condition tree"));
  const std::string under = loaded_error(rkmk_file("my_rk4", 3, rk4));
  CHECK_THAT(under, Catch::Contains("every condition of order 4 holds too: claim order 4"));
  CHECK_THAT(loaded_error(rkmk_file("rkmk4", 4, rk4)), Catch::Contains("already registered (methods/tableaus/rkmk4.json)"));
  CHECK_THAT(loaded_error(rkmk_file("my_rk4", 4, rk4, R"(, "claims": {"symmetric": true})")),
             Catch::Contains("claims symmetric = true, but the method is not"));
  CHECK_THAT(loaded_error(rkmk_file("my_rk4", 4, rk4, R"(, "colour": 1)")), Catch::Contains("unknown key \"colour\""));
  CHECK_THAT(loaded_error(rkmk_file("my_rk4", 4, R"({"a": [[], [0.5]], "b": ["0", "1"]})")),
             Catch::Contains("must be a string"));
  CHECK_THAT(loaded_error(rkmk_file("my_rk4", 2, R"({"a": [[], ["1/2", "1"]], "b": ["0", "1"]})")),
             Catch::Contains("row 2 of a has 2 entries"));
  CHECK_THAT(loaded_error(rkmk_file("my_rk4", 2, R"({"a": [[], ["1/2"]], "b": ["0", "1"], "c": ["0", "1"]})")),
             Catch::Contains("consistency c_2"));
  // Two half steps of RKMK4 are of order 4 (sum gamma = 1), not 5 (sum gamma^5 != 0): the E5 word is named.
  CHECK(loaded_error(R"({"gibench_method": 1, "id": "x", "family": "composition", "citation": "t", "order": 4,
                         "base": "rkmk4", "gamma": ["1/2", "1/2"]})").empty());
  CHECK_THAT(loaded_error(R"({"gibench_method": 1, "id": "x", "family": "composition", "citation": "t", "order": 5,
                              "base": "rkmk4", "gamma": ["1/2", "1/2"]})"),
             Catch::Contains("claims order 5, but the order-5 condition E5"));
  CHECK_THAT(loaded_error(R"({"gibench_method": 1, "id": "x", "family": "composition", "citation": "t", "order": 4,
                              "base": "no_such", "gamma": ["1"]})"),
             Catch::Contains("base method \"no_such\" is not registered"));
  CHECK_THAT(loaded_error(R"({"gibench_method": 1, "id": "x", "family": "rkmk", "embedding": "vector_field",
                              "citation": "t", "order": 1, "tableau": {"a": [[]], "b": ["1"]}})"),
             Catch::Contains("\"embedding\" belongs to family classical_rk"));
  CHECK_THAT(loaded_error("[1]"), Catch::Contains("a method file is a JSON object"));
  CHECK_THAT(loaded_error("{"), Catch::Contains("not valid JSON"));
}

TEST_CASE("the shipped RKMK files are the compiled tableaus, coefficient for coefficient", "[method_files]") {
  const std::vector<std::pair<std::string, gib::rkmk::Tableau>> pairs = {
      {"rkmk1", gib::rkmk::lie_euler()}, {"rkmk2", gib::rkmk::heun()}, {"rkmk2_midpoint", gib::rkmk::explicit_midpoint()},
      {"rkmk3", gib::rkmk::kutta3()},    {"rkmk4", gib::rkmk::classical_rk4()}};
  for (const auto& [id, t] : pairs) {
    INFO(id);
    const gib::MethodInfo& m = gib::find_method(id);
    CHECK(m.source == "methods/tableaus/" + id + ".json");
    CHECK(m.claims.order == t.order);
    const gib::from_file::OrderReport& r = shipped_report(id);
    CHECK(r.exact);
    CHECK(r.order_met == t.order);
    // The same bits as the compiled tableau, 20 steps of the heavy top (torque, so every stage matters).
    const gib::MethodInfo compiled = gib::rkmk::method(id, "compiled", t);
    const auto problem = gib::find_problem("lagrange_top").make("slow", gib::Json::object(), "preset");
    const auto& body = dynamic_cast<const gib::RigidBodyProblem&>(*problem);
    gib::RigidBodyState x = body.initial_state(), y = x;
    auto from_file = m.rigid_body(body.model(), static_cast<const gib::Json&>(m.default_params));
    auto from_code = compiled.rigid_body(body.model(), static_cast<const gib::Json&>(compiled.default_params));
    gib::OpCounters c;
    for (int k = 0; k < 20; ++k) {
      from_file->step(x, 0.05, c);
      from_code->step(y, 0.05, c);
    }
    CHECK(x.R == y.R);
    CHECK(x.Pi == y.Pi);
    CHECK(x.Pi != body.initial_state().Pi);
  }
  // Every shipped file loads, is checked exactly or to the decimal tolerance, and meets its claim.
  for (const auto& f : gib::from_file::shipped_method_files()) {
    INFO(f.path);
    bool found = false;
    for (const auto& m : gib::method_registry())
      if (m.source == f.path) {
        found = true;
        CHECK(shipped_report(m.id).order_met >= m.claims.order);
      }
    CHECK(found);
  }
}

TEST_CASE("mr4 and mr6 from their files are the compiled compositions, bit for bit", "[method_files]") {
  namespace comp = gib::composition;
  const gib::MethodInfo mr4 = comp::compose(gib::splitting::mr2(), comp::Scheme::triple_jump, "mr4", "compiled");
  const gib::MethodInfo mr6 =
      comp::compose(gib::splitting::mr2(), {comp::Scheme::triple_jump, comp::Scheme::suzuki5}, "mr6", "compiled");
  const auto problem = gib::find_problem("free_rigid_body").make("kjer2017", gib::Json::object(), "random:1");
  const auto& body = dynamic_cast<const gib::RigidBodyProblem&>(*problem);
  for (const gib::MethodInfo* compiled : {&mr4, &mr6}) {
    const gib::MethodInfo& file = gib::find_method(compiled->id);
    INFO(compiled->id);
    CHECK(file.source == "methods/tableaus/" + compiled->id + ".json");
    CHECK(file.citation == compiled->citation);
    CHECK(file.claims.order == compiled->claims.order);
    CHECK(file.claims.symmetric);
    gib::RigidBodyState x = body.initial_state(), y = x;
    const gib::Json params = static_cast<const gib::Json&>(file.default_params);
    auto a = file.rigid_body(body.model(), params);
    auto b = compiled->rigid_body(body.model(), params);
    gib::OpCounters c;
    for (int k = 0; k < 20; ++k) {
      a->step(x, 0.1, c);
      b->step(y, 0.1, c);
    }
    CHECK(gib::same_bits(x, y));
  }
}

TEST_CASE("rk4 from its tableau follows odeint's RK4 to round-off on the pendulum", "[method_files]") {
  const auto problem = gib::find_problem("pendulum").make("mq1998", gib::Json::object(), "preset");
  const auto& vf = dynamic_cast<const gib::VectorFieldProblem&>(*problem);
  gib::VectorFieldState x = vf.initial_state(), y = x;
  auto data = gib::find_method("rk4").vector_field(vf.model(), gib::Json::object());
  auto odeint = gib::find_method("odeint_rk4").vector_field(vf.model(), gib::Json::object());
  gib::OpCounters c1, c2;
  for (int k = 0; k < 200; ++k) {
    data->step(x, 0.05, c1);
    odeint->step(y, 0.05, c2);
  }
  CHECK(c1.rhs_evals == c2.rhs_evals);
  CHECK((x.x - y.x).norm() < 1e-13 * y.x.norm());
  CHECK((x.x - vf.initial_state().x).norm() > 0.1);
}

namespace {
// n steps of h of two steppers side by side, each from its own state and with its own counters.
template <class A, class B, class State>
void step_both(A& a, B& b, State& x, State& y, int n, double h, gib::OpCounters& ca, gib::OpCounters& cb) {
  for (int k = 0; k < n; ++k) {
    a->step(x, h, ca);
    b->step(y, h, cb);
  }
}
std::string splitting_file(const std::string& id, int order, const std::string& sequence, const std::string& extra = "") {
  return R"({"gibench_method": 1, "id": ")" + id + R"(", "family": "splitting", "split": "kinetic_potential", )" +
         R"("citation": "test", "order": )" + std::to_string(order) + R"(, "sequence": )" + sequence + extra + "}";
}
// 300 steps of each on the pendulum; the states bit for bit and the force evaluations counted.
void same_run(const gib::MethodInfo& a, const gib::MethodInfo& b) {
  const auto problem = gib::find_problem("pendulum").make("mq1998", gib::Json::object(), "preset");
  const auto& vf = dynamic_cast<const gib::VectorFieldProblem&>(*problem);
  gib::VectorFieldState x = vf.initial_state(), y = x;
  auto sa = a.vector_field(vf.model(), gib::Json::object());
  auto sb = b.vector_field(vf.model(), gib::Json::object());
  gib::OpCounters ca, cb;
  step_both(sa, sb, x, y, 300, 0.1, ca, cb);
  CHECK(x.x == y.x);
  CHECK(ca.force_evals == cb.force_evals);
  CHECK((x.x - vf.initial_state().x).norm() > 0.1);
}
}  // namespace

TEST_CASE("splitting files: the built-in leapfrogs and processed symplectic Euler as data, bit for bit", "[method_files]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"leapfrog_kdk", splitting_file("f_kdk", 2, R"([["kick", "1/2"], ["drift", "1"], ["kick", "1/2"]])")},
      {"leapfrog_dkd", splitting_file("f_dkd", 2, R"([["drift", "1/2"], ["kick", "1"], ["drift", "1/2"]])")},
      {"symplectic_euler", splitting_file("f_se", 1, R"([["drift", "1"], ["kick", "1"]])")},
      {"symplectic_euler_processed",
       splitting_file("f_sep", 2, R"([["drift", "1"], ["kick", "1"]])", R"(, "processor": [["kick", "1/2"]])")}};
  for (const auto& [id, text] : cases) {
    INFO(id);
    const gib::from_file::LoadedMethod f = gib::from_file::load_method(text, "t.json", gib::method_registry());
    const gib::MethodInfo& built_in = gib::find_method(id);
    CHECK(f.report.order_met == built_in.claims.order);
    CHECK(f.info.claims.symplectic);
    // Symmetric from the palindrome; the processed one is symmetric (it is KDK) but the rule cannot know it.
    CHECK(f.info.claims.symmetric == (id == "leapfrog_kdk" || id == "leapfrog_dkd"));
    same_run(f.info, built_in);
  }
}

TEST_CASE("splitting files: Blanes-Moan S6 and S10 meet orders 4 and 6, a perturbed kick is named", "[method_files]") {
  for (const char* id : {"splitting_bm4_s6", "splitting_bm6_s10"}) {
    INFO(id);
    const gib::MethodInfo& m = gib::find_method(id);
    const gib::from_file::OrderReport& r = shipped_report(id);
    CHECK_FALSE(r.exact);
    CHECK(r.order_met == m.claims.order);
    CHECK(m.claims.symmetric);
  }
  // S6 with b_1 moved by 1e-6 (both of its kicks, so the palindrome stays): sum b != 1, the word V of order 1.
  const std::string s6 = R"([["drift", "0.0792036964311957"], ["kick", "0.209516106613362"], ["drift", "0.353172906049774"],
    ["kick", "-0.143851773179818"], ["drift", "-0.0420650803577195"], ["kick", "0.434336666566456"],
    ["drift", "0.2193769557534996"], ["kick", "0.434336666566456"], ["drift", "-0.0420650803577195"],
    ["kick", "-0.143851773179818"], ["drift", "0.353172906049774"], ["kick", "0.209516106613362"],
    ["drift", "0.0792036964311957"]])";
  CHECK_THAT(loaded_error(splitting_file("x", 4, s6)),
             Catch::Contains("order-1 condition V: the product = exp(h (T + V)) through h^1"));
  // Strang claimed as order 3; a processed method claimed symmetric; a piece gibench does not have.
  CHECK_THAT(loaded_error(splitting_file("x", 3, R"([["drift", "1/2"], ["kick", "1"], ["drift", "1/2"]])")),
             Catch::Contains("claims order 3, but the order-3 condition"));
  CHECK_THAT(loaded_error(splitting_file("x", 2, R"([["drift", "1"], ["kick", "1"]])",
                                         R"(, "processor": [["kick", "1/2"]], "claims": {"symmetric": true})")),
             Catch::Contains("no processor"));
  CHECK_THAT(loaded_error(splitting_file("x", 1, R"([["rotate", "1"]])")), Catch::Contains("unknown piece \"rotate\""));
  CHECK_THAT(loaded_error(R"({"gibench_method": 1, "id": "x", "family": "splitting", "split": "axes", "citation": "t",
                              "order": 1, "sequence": [["drift", "1"]]})"),
             Catch::Contains("split \"axes\" is not available"));
}

TEST_CASE("commutator-free files: shapes are checked, CF4 runs with 5 exponentials per step", "[method_files]") {
  const std::string head = R"({"gibench_method": 1, "id": "x", "family": "commutator_free", "citation": "t", "order": 4, )";
  CHECK_THAT(loaded_error(head + R"("stages": [[], [["1/2"]], [["1/2"]]], "output": [["1", "0", "0"]]})"),
             Catch::Contains("stages[3][1] has 1 coefficients; a factor of stage 3 has 2"));
  CHECK_THAT(loaded_error(head + R"("stages": [[], [["1/2"]]], "output": [["1"]]})"),
             Catch::Contains("output[1] has 1 coefficients; an update factor has one per stage (2)"));
  CHECK_THAT(loaded_error(head + R"("stages": [[], [["1/2"]]], "output": [["0", "1"]], "tableau": {}})"),
             Catch::Contains("not \"tableau\""));
  // Midpoint as a commutator-free method claimed order 4: the order-3 condition fails (a tree, first).
  CHECK_THAT(loaded_error(head + R"("stages": [[], [["1/2"]]], "output": [["0", "1"]]})"),
             Catch::Contains("claims order 4, but the order-3 condition tree"));
  const gib::MethodInfo& cf4 = gib::find_method("cf4_cmo");
  CHECK(cf4.family == "commutator_free");
  const auto problem = gib::find_problem("lagrange_top").make("slow", gib::Json::object(), "preset");
  const auto& body = dynamic_cast<const gib::RigidBodyProblem&>(*problem);
  auto stepper = cf4.rigid_body(body.model(), gib::Json::object());
  gib::RigidBodyState x = body.initial_state();
  gib::OpCounters c;
  for (int k = 0; k < 10; ++k) stepper->step(x, 0.05, c);
  CHECK(c.rhs_evals == 40);
  CHECK(c.exp_evals == 50);  // stages 0 + 1 + 1 + 1 (stage 4 starts from Y_2), update 2: 5 per step, as CMO count
}

TEST_CASE("classical_rk on the rigid-body embeddings follows odeint's RK4 to round-off, matrix and quaternion", "[method_files]") {
  const auto problem = gib::find_problem("lagrange_top").make("slow", gib::Json::object(), "preset");
  const auto& body = dynamic_cast<const gib::RigidBodyProblem&>(*problem);
  for (const auto& [embedding, peer] : {std::pair<std::string, std::string>{"rotation_matrix", "odeint_rk4_matrix"},
                                        {"quaternion", "odeint_rk4_quat"}}) {
    INFO(embedding);
    const std::string text = R"({"gibench_method": 1, "id": "x_rk4", "family": "classical_rk", "embedding": ")" +
                             embedding + R"(", "citation": "t", "order": 4, "tableau": {"a": [[], ["1/2"], ["0", "1/2"],
                             ["0", "0", "1"]], "b": ["1/6", "1/3", "1/3", "1/6"]}})";
    const gib::from_file::LoadedMethod f = gib::from_file::load_method(text, "t.json", gib::method_registry());
    REQUIRE(f.info.rigid_body);
    CHECK_FALSE(f.info.vector_field);
    CHECK_FALSE(f.info.claims.stays_on_group);
    gib::RigidBodyState x = body.initial_state(), y = x;
    auto data = f.info.rigid_body(body.model(), gib::Json::object());
    auto odeint = gib::find_method(peer).rigid_body(body.model(), gib::Json::object());
    gib::OpCounters c1, c2;
    step_both(data, odeint, x, y, 50, 0.05, c1, c2);
    CHECK(c1.rhs_evals == c2.rhs_evals);
    CHECK(c1.force_evals == c2.force_evals);
    CHECK((x.R - y.R).norm() < 1e-13);
    CHECK((x.Pi - y.Pi).norm() < 1e-13 * y.Pi.norm());
    CHECK((x.Pi - body.initial_state().Pi).norm() > 0.01);
  }
  CHECK_THAT(loaded_error(R"({"gibench_method": 1, "id": "x", "family": "classical_rk", "embedding": "euler_angles",
                              "citation": "t", "order": 1, "tableau": {"a": [[]], "b": ["1"]}})"),
             Catch::Contains("(valid: vector_field, rotation_matrix, quaternion)"));
}

TEST_CASE("processed compositions: effective order 6 from a kernel of order 4, P applied once per run", "[method_files]") {
  for (const char* id : {"leapfrog6_bla01_processed", "leapfrog6_bcm06_processed"}) {
    INFO(id);
    const gib::MethodInfo& m = gib::find_method(id);
    const gib::from_file::OrderReport& r = shipped_report(id);
    CHECK(r.order_met == 6);
    CHECK_FALSE(m.claims.symmetric);
    CHECK(m.claims.symplectic);
  }
  // BLA01's kernel alone is of order 4; with the processor applied the other way round (P^-1 first), too.
  const std::vector<std::string> kernel = {"0.513910778424374", "0.364193022833858", "-0.867423280969274",
                                           "0.978638959422084", "-0.867423280969274", "0.364193022833858",
                                           "0.513910778424374"};
  CHECK(gib::from_file::check_composition(row(kernel), 2, true, 6).order_met == 4);
  const std::string text = R"({"gibench_method": 1, "id": "x", "family": "composition", "citation": "t", "order": 6,
    "base": "leapfrog_dkd", "gamma": ["0.513910778424374", "0.364193022833858", "-0.867423280969274",
    "0.978638959422084", "-0.867423280969274", "0.364193022833858", "0.513910778424374"], "processor": )";
  CHECK(loaded_error(text + R"(["0.224512214195200", "0.461165940466494", "0.074332422810238", "-0.384998538774070",
    "-0.375012038697862", "-0.224512214195200", "-0.461165940466494", "-0.074332422810238", "0.384998538774070",
    "0.375012038697862"]})").empty());
  CHECK_THAT(loaded_error(text + R"(["-0.375012038697862", "-0.384998538774070", "0.074332422810238",
    "0.461165940466494", "0.224512214195200", "0.375012038697862", "0.384998538774070", "-0.074332422810238",
    "-0.461165940466494", "-0.224512214195200"]})"),
             Catch::Contains("claims order 6, but the order-5 condition"));
  CHECK_THAT(loaded_error(R"({"gibench_method": 1, "id": "x", "family": "composition", "citation": "t", "order": 1,
    "base": "symplectic_euler", "gamma": ["1"], "processor": ["1/2"]})"),
             Catch::Contains("a processor needs a symmetric base"));
  // 10 steps: the processor's 10 leapfrog substeps once, the kernel's 7 per step, one gradient each; P^-1, which
  // only shows the state, is not counted.
  const gib::MethodInfo& bla = gib::find_method("leapfrog6_bla01_processed");
  const auto problem = gib::find_problem("pendulum").make("mq1998", gib::Json::object(), "preset");
  const auto& vf = dynamic_cast<const gib::VectorFieldProblem&>(*problem);
  auto stepper = bla.vector_field(vf.model(), gib::Json::object());
  gib::VectorFieldState x = vf.initial_state();
  gib::OpCounters c;
  for (int k = 0; k < 10; ++k) stepper->step(x, 0.1, c);
  CHECK(c.force_evals == 10 + 70);
  // An edited state restarts the kernel from it: the processor runs again.
  x.x(0) += 1e-3;
  stepper->step(x, 0.1, c);
  CHECK(c.force_evals == 80 + 10 + 7);
}

}  // namespace gibench_test_method_files
