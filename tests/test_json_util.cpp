// Strict JSON input (harness/json_util.hpp): what nlohmann accepts silently but the harness must refuse.
#include <catch2/catch.hpp>
#include <string>

#include "core/errors.hpp"
#include "harness/json_util.hpp"

namespace gibench_test_json_util {

namespace {

std::string error_of(const std::string& text) {
  try {
    gib::parse_json_text(text, "cfg.json");
  } catch (const gib::InputError& e) {
    return e.what();
  }
  return "(accepted)";
}

std::string nested_arrays(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

}  // namespace

TEST_CASE("duplicated keys are rejected at any depth, naming the key and the object", "[json]") {
  CHECK(error_of(R"({"h": 0.1, "h": 0.2})") == "cfg.json: duplicated key 'h' in the object at the top level");
  CHECK(error_of(R"({"problems": [{"overrides": [{}, {"inertia": [1, 2, 3], "inertia": [1, 1, 1]}]}]})") ==
        "cfg.json: duplicated key 'inertia' in the object at problems[0].overrides[1]");
  CHECK(error_of(R"([1, [2, {"k": 1, "k": 1}]])") == "cfg.json: duplicated key 'k' in the object at [1][1]");
}

TEST_CASE("the same key in different objects is not a duplicate", "[json]") {
  const gib::Json j = gib::parse_json_text(R"({"a": {"b": 1}, "b": {"b": 2, "c": [{"b": 3}, {"b": 4}]}})", "cfg.json");
  CHECK(j["b"]["c"][1]["b"] == 4);
}

TEST_CASE("nesting is limited to kMaxJsonDepth levels", "[json]") {
  CHECK(gib::parse_json_text(nested_arrays(gib::kMaxJsonDepth), "cfg.json").is_array());
  CHECK(error_of(nested_arrays(gib::kMaxJsonDepth + 1)).rfind("cfg.json: nested deeper than 64 levels at [0][0]", 0) == 0);
  // Far deeper than any stack would survive if something downstream recursed: rejected while parsing.
  const std::string deep(1'000'000, '[');
  CHECK(error_of(deep).rfind("cfg.json: nested deeper than 64 levels", 0) == 0);
}

TEST_CASE("empty, truncated and overflowing input are one-line InputErrors", "[json]") {
  CHECK(error_of("") == "cfg.json: no JSON value (empty or whitespace only)");
  CHECK(error_of(" \n\t\r\n") == "cfg.json: no JSON value (empty or whitespace only)");
  CHECK(error_of(R"({"h": [0.1,)").rfind("cfg.json: malformed JSON (", 0) == 0);
  CHECK(error_of(R"({"T": 1e999})").rfind("cfg.json: malformed JSON (number overflow", 0) == 0);
  CHECK(error_of("{\"h\xff\": 1}").rfind("cfg.json: malformed JSON (", 0) == 0);
}

TEST_CASE("a UTF-8 byte order mark at the start is skipped, elsewhere it is an error", "[json]") {
  CHECK(gib::parse_json_text("\xEF\xBB\xBF{\"a\": 1}", "cfg.json")["a"] == 1);
  CHECK(error_of("{\"a\": 1}\xEF\xBB\xBF").rfind("cfg.json: malformed JSON (", 0) == 0);
}

TEST_CASE("an absurdly long duplicated key is shortened in the message", "[json]") {
  const std::string key(100'000, 'k');
  const std::string msg = error_of("{\"" + key + "\": 1, \"" + key + "\": 2}");
  CHECK(msg.rfind("cfg.json: duplicated key 'kkk", 0) == 0);
  CHECK(msg.size() < 200);
}

}  // namespace gibench_test_json_util
