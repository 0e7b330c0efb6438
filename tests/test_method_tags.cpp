// Family tags and derived property tags (issue 21 item 1): every method has exactly one family from the closed list,
// the property tags are what its claims say, and no tag is outside the vocabulary.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "core/errors.hpp"
#include "core/method_tags.hpp"
#include "harness/rank.hpp"
#include "harness/sweep.hpp"

namespace gibench_test_method_tags {

namespace {

int count_families(const std::vector<std::string>& tags) {
  int n = 0;
  for (const auto& t : tags)
    for (const auto& f : gib::method_families())
      if (t == f.id) ++n;
  return n;
}

bool contains(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

}  // namespace

TEST_CASE("method tags: exactly one family from the closed list, and it is MethodInfo::family", "[tags]") {
  for (const auto& m : gib::method_registry()) {
    INFO(m.id << " (family '" << m.family << "')");
    const auto tags = gib::method_tags(m);
    CHECK(count_families(tags) == 1);
    CHECK(tags.front() == m.family);
    CHECK_NOTHROW(gib::family_name(m.family));
  }
}

TEST_CASE("method tags: derived tags agree with the claims, and every tag is known", "[tags]") {
  for (const auto& m : gib::method_registry()) {
    INFO(m.id);
    const auto tags = gib::method_tags(m);
    CHECK(contains(tags, "implicit") == m.claims.implicit);
    CHECK(contains(tags, "explicit") == !m.claims.implicit);
    CHECK(contains(tags, "symplectic") == m.claims.symplectic);
    CHECK(contains(tags, "symmetric") == m.claims.symmetric);
    CHECK(contains(tags, "volume_preserving") == m.claims.volume_preserving);
    CHECK(contains(tags, "lyapunov_monotone") == m.claims.lyapunov_monotone);
    // A stochastic method has no trajectory order: "stochastic" stands where order<N> would.
    CHECK(contains(tags, "stochastic") == m.claims.stochastic);
    if (!m.claims.stochastic) CHECK(contains(tags, "order" + std::to_string(m.claims.order)));
    int orders = 0;
    for (const auto& t : tags) {
      CHECK(gib::is_known_tag(t));
      if (t.rfind("order", 0) == 0) ++orders;
    }
    CHECK(orders == (m.claims.stochastic ? 0 : 1));
    for (const auto& t : m.declared_tags) CHECK(contains(gib::declarable_tags(), t));
  }
}

TEST_CASE("method tags: energy_corrected on Buss's +EC methods only", "[tags]") {
  const auto& reg = gib::method_registry();
  const auto ec = static_cast<std::size_t>(
      std::count_if(reg.begin(), reg.end(), [](const gib::MethodInfo& m) { return gib::has_tag(m, "energy_corrected"); }));
  CHECK(ec == 12);  // Buss 2001's ten +EC rows and the MR2/MR4 +EC of his Figs 4-6
  CHECK(gib::has_tag(gib::find_method("mr2_ec"), "energy_corrected"));
  CHECK_FALSE(gib::has_tag(gib::find_method("mr2"), "energy_corrected"));
}

TEST_CASE("method tags: the check can fail: a family off the list, a stray tag, an order typed twice", "[tags]") {
  gib::MethodInfo m = gib::find_method("rkmk4");
  m.family = "composition";
  CHECK(count_families(gib::method_tags(m)) == 0);
  CHECK_THROWS(gib::family_name(m.family));
  CHECK_FALSE(gib::is_known_tag("composition"));
  CHECK_FALSE(gib::is_known_tag("order0"));
  CHECK_FALSE(gib::is_known_tag("order04"));
  CHECK_FALSE(gib::is_known_tag("order100"));
  CHECK_FALSE(gib::is_known_tag("Splitting"));
  CHECK(gib::is_known_tag("order12"));
  // A property typed as a declared tag would duplicate a claim: not declarable.
  CHECK_FALSE(contains(gib::declarable_tags(), "symplectic"));
}

TEST_CASE("method selectors: ids and tag:<tag>, unknown ones are bad input", "[tags]") {
  CHECK_NOTHROW(gib::check_selector("rkmk4", "--include"));
  CHECK_NOTHROW(gib::check_selector("tag:splitting", "--include"));
  CHECK_NOTHROW(gib::check_selector("tag:order4", "--include"));
  CHECK_THROWS_AS(gib::check_selector("tag:nope", "--include"), gib::InputError);
  CHECK_THROWS_AS(gib::check_selector("tag:", "--include"), gib::InputError);
  CHECK_THROWS_AS(gib::check_selector("nope", "--include"), gib::InputError);
  try {
    gib::check_selector("tag:splittin", "--exclude");
  } catch (const gib::InputError& e) {
    CHECK(std::string(e.what()).rfind("unknown tag 'splittin' in --exclude (valid: rkmk, ", 0) == 0);
  }
  const auto& rk4 = gib::find_method("rkmk4");
  CHECK(gib::selects("rkmk4", rk4));
  CHECK(gib::selects("tag:rkmk", rk4));
  CHECK(gib::selects("tag:explicit", rk4));
  CHECK(gib::selects("tag:order4", rk4));
  CHECK_FALSE(gib::selects("tag:implicit", rk4));
  CHECK_FALSE(gib::selects("tag:splitting", rk4));
  CHECK(gib::selects("tag:splitting", gib::find_method("thue_morse")));
  CHECK(gib::selects("tag:projection", gib::find_method("reversible_projection")));
}

namespace {

std::vector<std::string> sweep_methods(const gib::Json& methods, const gib::Json& exclude = nullptr) {
  gib::Json cfg = {{"problems", {{{"problem", "free_rigid_body"}, {"presets", {"kjer2017"}}}}},
                   {"methods", methods},
                   {"h", {0.1}},
                   {"T", 1}};
  if (!exclude.is_null()) cfg["exclude_methods"] = exclude;
  std::vector<std::string> out;
  for (const auto& c : gib::parse_sweep(cfg, "cfg").cells) out.push_back(c.method);
  return out;
}

}  // namespace

TEST_CASE("sweep configs: tag:<tag> in methods, exclude_methods, combined with ids", "[tags][sweep]") {
  const auto split = sweep_methods({"tag:splitting", "rkmk4"});
  // The rigid-body splittings run on the free body; the vector-field ones (leapfrog, Thue-Morse) cannot and are
  // left out by the tag, where naming them would be an error.
  for (const char* id : {"mr2", "mr4", "mr6", "mr2_ec", "mr4_ec", "rkmk4"}) CHECK(contains(split, id));
  for (const char* id : {"leapfrog_dkd", "thue_morse", "rkmk2", "imid"}) CHECK_FALSE(contains(split, id));
  CHECK(split.back() == "rkmk4");  // entries keep their order

  const auto no_ec = sweep_methods({"tag:splitting"}, {"tag:energy_corrected", "mr6"});
  CHECK(contains(no_ec, "mr2"));
  CHECK_FALSE(contains(no_ec, "mr2_ec"));
  CHECK_FALSE(contains(no_ec, "mr4_ec"));
  CHECK_FALSE(contains(no_ec, "mr6"));

  // An id given before a tag that selects it again runs once.
  const auto once = sweep_methods({"mr2", "tag:splitting"});
  CHECK(std::count(once.begin(), once.end(), "mr2") == 1);

  CHECK_THROWS_AS(sweep_methods({"tag:splittin"}), gib::InputError);
  CHECK_THROWS_AS(sweep_methods({"rkmk4"}, {"tag:nope"}), gib::InputError);
  CHECK_THROWS_AS(sweep_methods({"rkmk4"}, {"nope"}), gib::InputError);
  CHECK_THROWS_AS(sweep_methods({"tag:rkmk"}, {"tag:rkmk"}), gib::InputError);  // nothing left to run
}

TEST_CASE("rank: --include tag:rkmk --exclude rkmk1,tag:order4", "[tags][rank]") {
  gib::RankOptions opt;
  opt.problem = "free_rigid_body";
  opt.preset = "kjer2017";
  opt.include = {"tag:rkmk"};
  opt.exclude = {"rkmk1", "tag:order4"};
  opt.targets = {1e-2};
  opt.reps = 1;
  opt.min_sample_seconds = 1e-5;
  opt.n_max = 64;
  opt.jobs = 1;
  const gib::Json doc = gib::rank_methods(opt, {});
  std::vector<std::string> ranked;
  for (const auto& [id, info] : doc["methods"].items()) ranked.push_back(id);
  // The shipped RKMK3 with Ralston's tableau (methods/tableaus/) is an rkmk of order 3 too.
  CHECK(ranked == std::vector<std::string>{"rkmk2", "rkmk2_midpoint", "rkmk3", "rkmk3_ralston"});

  opt.exclude = {"tag:explict"};
  CHECK_THROWS_AS(gib::rank_methods(opt, {}), gib::InputError);
}

}  // namespace gibench_test_method_tags
