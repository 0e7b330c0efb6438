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

TEST_CASE("Crouch-Grossman: CG3 meets the order-3 Lie condition, RK4's tableau does not", "[method_files]") {
  const OrderReport cg3 = rk(kCg3, 3, true);
  CHECK(cg3.order_met == 3);
  CHECK(cg3.caveat.empty());
  const OrderReport rk4 = rk(kRk4, 4, true);
  REQUIRE(rk4.first_failure() != nullptr);
  CHECK(rk4.first_failure()->name == "Crouch-Grossman order 3");
  CHECK(rk4.first_failure()->residual == Approx(13.0 / 36 - 1.0 / 3));
  CHECK(rk4.order_met == 2);
  CHECK_FALSE(rk4.caveat.empty());  // beyond order 3 the Lie conditions are not enumerated, and the report says so
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
  CHECK_THAT(loaded_error(R"({"gibench_method": 1, "id": "x", "family": "classical_rk", "embedding": "quaternion",
                              "citation": "t", "order": 1, "tableau": {"a": [[]], "b": ["1"]}})"),
             Catch::Contains("embedding \"quaternion\" is not available"));
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
    const gib::from_file::OrderReport* r = gib::from_file::definition_report(id);
    REQUIRE(r != nullptr);
    CHECK(r->exact);
    CHECK(r->order_met == t.order);
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
        const gib::from_file::OrderReport* r = gib::from_file::definition_report(m.id);
        REQUIRE(r != nullptr);
        CHECK(r->order_met >= m.claims.order);
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

}  // namespace gibench_test_method_files
