// The strict reading of user input (core/user_input.hpp): one number grammar for the command line and the JSON
// inputs, random:K, and quoting user text back in errors without letting it take over the line.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "core/errors.hpp"
#include "core/user_input.hpp"
#include "harness/json_util.hpp"

#include "support/input_errors.hpp"

namespace gibench_test_user_input {

namespace {

using gib_test::contains;
using gib_test::error_of;

// Numbers both sides must refuse; the reason each is in the table is its name.
const char* const kRejected[] = {
    "",          // empty
    " 1",        // leading whitespace (strtod would skip it)
    "1 ",        // trailing whitespace
    "0x10",      // hex (strtod reads it)
    "+1",        // leading plus
    "01",        // leading zero
    "-01",       // leading zero after the sign
    ".5",        // no integer part
    "5.",        // no fraction digits
    "1e",        // no exponent digits
    "1e+",       // no exponent digits after the sign
    "--1",       // two signs
    "-",         // a sign alone
    "inf",       // words
    "-inf",      //
    "Infinity",  //
    "nan",       //
    "NaN",       //
    "1,5",       // a decimal comma
    "1_000",     // digit separators
    "1e999",     // overflow
    "-1e999",    //
    "1e-400",    // nonzero but rounds to 0
    "0.0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001",
    "1\n",       // a trailing newline
    "1x",        // trailing junk
    "\xef\xbc\x91",  // a fullwidth digit
};

const char* const kAccepted[] = {"0", "-0", "1", "-1", "0.5", "-0.5", "1e3", "1E3", "1e+3", "1e-3", "2.5e-308",
                                  "5e-324", "1.7976931348623157e308", "0e5000", "0.0", "123456789012345678901234567890"};

}  // namespace

TEST_CASE("parse_double accepts exactly the JSON number grammar, within the range of a double", "[user_input]") {
  for (const char* text : kRejected) {
    INFO("'" << text << "'");
    CHECK_THROWS_AS(gib::parse_double(text, "--h"), gib::InputError);
  }
  for (const char* text : kAccepted) {
    INFO("'" << text << "'");
    CHECK(gib::is_json_number(text));
    CHECK_NOTHROW(gib::parse_double(text, "--h"));
  }
  CHECK(gib::parse_double("0.1", "--h") == 0.1);
  CHECK(gib::parse_double("-2.5e-3", "--h") == -2.5e-3);
  CHECK(gib::parse_double("5e-324", "--h") == std::numeric_limits<double>::denorm_min());
  CHECK(std::signbit(gib::parse_double("-0", "--h")));
}

TEST_CASE("the JSON inputs and the command line accept and refuse the same numbers", "[user_input][json]") {
  // A number is one element of a JSON array; refusal there is an InputError too, never a silent 0. Whitespace
  // and commas separate tokens in JSON, and "[]" is an empty array: those entries are no single token there.
  for (const char* text : kRejected) {
    INFO("'" << text << "'");
    if (std::string(text).empty() || std::string(text).find_first_of(" \n,") != std::string::npos) continue;
    CHECK_THROWS_AS(gib::parse_json_text(std::string("[") + text + "]", "cfg.json"), gib::InputError);
  }
  for (const char* text : kAccepted) {
    INFO("'" << text << "'");
    const gib::Json j = gib::parse_json_text(std::string("[") + text + "]", "cfg.json");
    CHECK(j[0].get<double>() == gib::parse_double(text, "--h"));
  }
}

TEST_CASE("number errors name the option, quote the text and say why", "[user_input]") {
  CHECK(error_of([] { gib::parse_double("", "--h"); }) ==
        "--h: an empty string is not a number (decimal as in JSON: digits with an optional '-', fraction and exponent; "
        "no hex, no leading '+', '.' or 0, no inf or nan, no spaces)");
  CHECK(contains(error_of([] { gib::parse_double("0x10", "--h"); }), "--h: '0x10' is not a number"));
  CHECK(error_of([] { gib::parse_double("1e999", "--T"); }) == "--T: '1e999' is too large for a double");
  CHECK(error_of([] { gib::parse_double("-1e999", "--T"); }) == "--T: '-1e999' is too large for a double");
  CHECK(error_of([] { gib::parse_double("1e-400", "--T"); }) == "--T: '1e-400' is too small for a double (it would round to 0)");
  CHECK(error_of([] { gib::parse_json_text(R"({"h": [0.1, 1e-400]})", "cfg.json"); }) ==
        "cfg.json: the number at h[1]: '1e-400' is too small for a double (it would round to 0)");
  CHECK(error_of([] { gib::parse_json_text(R"({"o": {"x": 1e-999}})", "cfg.json"); }) ==
        "cfg.json: the number at o.x: '1e-999' is too small for a double (it would round to 0)");
}

TEST_CASE("parse_integer takes digits only, within the given range", "[user_input]") {
  constexpr auto max64 = std::numeric_limits<std::int64_t>::max();
  constexpr auto min64 = std::numeric_limits<std::int64_t>::min();
  CHECK(gib::parse_integer("0", "--jobs", 0, 1024) == 0);
  CHECK(gib::parse_integer("1024", "--jobs", 0, 1024) == 1024);
  CHECK(gib::parse_integer("-7", "--x", -10, 10) == -7);
  CHECK(gib::parse_integer("9223372036854775807", "--series", min64, max64) == max64);
  CHECK(gib::parse_integer("-9223372036854775808", "--series", min64, max64) == min64);
  for (const char* text : {"", " 1", "1 ", "+1", "01", "0x10", "1.5", "1e3", "1.0", "-", "one", "1,2", "١"}) {
    INFO("'" << text << "'");
    CHECK_THROWS_AS(gib::parse_integer(text, "--steps", min64, max64), gib::InputError);
  }
  CHECK(error_of([] { gib::parse_integer("9223372036854775808", "--series", min64, max64); }) ==
        "--series: '9223372036854775808' is out of range (-9223372036854775808..9223372036854775807)");
  CHECK(error_of([] { gib::parse_integer("65536", "--jobs", 0, 1024); }) == "--jobs: '65536' is out of range (0..1024)");
  CHECK(error_of([] { gib::parse_integer("-1", "--jobs", 0, 1024); }) == "--jobs: '-1' is out of range (0..1024)");
  CHECK(contains(error_of([] { gib::parse_integer("1.5", "--steps", 0, 10); }), "'1.5' is not an integer (digits only"));
  CHECK(contains(error_of([] { gib::parse_integer("", "--jobs", 0, 10); }), "--jobs: an empty string is not an integer"));
}

TEST_CASE("a list of numbers refuses an empty item instead of skipping it", "[user_input]") {
  CHECK(gib::parse_double_list("1e-3,1e-6", "--targets") == std::vector<double>{1e-3, 1e-6});
  CHECK(gib::parse_double_list("4", "--times") == std::vector<double>{4});
  CHECK(error_of([] { gib::parse_double_list("1e-3,,1e-6", "--targets"); }).rfind(
            "--targets (item 2): an empty string is not a number", 0) == 0);
  CHECK_THROWS_AS(gib::parse_double_list("", "--times"), gib::InputError);
  CHECK_THROWS_AS(gib::parse_double_list("1,", "--times"), gib::InputError);
  CHECK_THROWS_AS(gib::parse_double_list(",1", "--times"), gib::InputError);
  CHECK_THROWS_AS(gib::parse_double_list("1, 2", "--times"), gib::InputError);
}

TEST_CASE("an initial condition is preset or random:K with K a positive integer", "[user_input]") {
  CHECK_FALSE(gib::random_ic_index("preset").has_value());
  CHECK(gib::random_ic_index("random:1") == 1u);
  CHECK(gib::random_ic_index("random:9223372036854775807") == 9223372036854775807u);
  for (const char* ic : {"", "Preset", "random", "random:", "random: 1", "random:+1", "random:01", "random:0",
                         "random:-1", "random:1.5", "random:1e3", "random:0x1", "random:1 ", "random:99999999999999999999",
                         " random:1"}) {
    INFO("'" << ic << "'");
    CHECK_THROWS_AS(gib::random_ic_index(ic), gib::InputError);
  }
  CHECK(error_of([] { gib::random_ic_index("random: 1"); }) ==
        "initial condition 'random: 1': K of random:K: ' 1' is not an integer (decimal digits with an optional '-'; "
        "no hex, no leading '+' or 0, no spaces)");
}

TEST_CASE("quote_excerpt bounds the text and escapes what would break the line", "[user_input]") {
  CHECK(gib::quote_excerpt("rkmk4") == "'rkmk4'");
  CHECK(gib::quote_excerpt("a\nb\tc\x01'\\") == "'a\\nb\\tc\\x01\\'\\\\'");
  CHECK(gib::quote_excerpt("d\xc3\xa9j\xc3\xa0") == "'d\xc3\xa9j\xc3\xa0'");  // valid UTF-8 stays
  CHECK(gib::quote_excerpt("\xff\xc3") == "'\\xff\\xc3'");                  // invalid bytes do not
  CHECK(gib::quote_excerpt("\xed\xa0\x80") == "'\\xed\\xa0\\x80'");         // an encoded surrogate is not UTF-8
  const std::string big(100'000'000, 'n');
  const std::string q = gib::quote_excerpt(big);
  std::string expected = "'";
  expected.append(gib::kExcerptBytes, 'n');
  expected += "'... (100000000 bytes)";
  CHECK(q == expected);
  // The cut never splits a UTF-8 sequence.
  std::string accents;
  for (int i = 0; i < 100; ++i) accents += "\xc3\xa9";
  const std::string qa = gib::quote_excerpt(accents, 5);
  CHECK(qa == "'\xc3\xa9\xc3\xa9\xc3\xa9'... (200 bytes)");
}

TEST_CASE("numbers in errors keep every digit that matters", "[user_input]") {
  CHECK(gib::number_text(2.0000000001) == "2.0000000001");
  CHECK(gib::number_text(2) == "2");
  CHECK(gib::number_text(0.1) == "0.1");
  CHECK(gib::number_text(1e308) == "1e+308");
  CHECK(gib::number_text(std::nan("")) == "nan");
  CHECK(gib::number_text(-INFINITY) == "-inf");
}

TEST_CASE("unknown ids list the valid ones, cut to a bounded length", "[user_input]") {
  CHECK(gib::unknown_id_message("metric", "nonsense", {"state_err_final", "state_err_max"}) ==
        "unknown metric 'nonsense' (valid: state_err_final, state_err_max)");
  std::vector<std::string> many(1000, "a_rather_long_identifier");
  const std::string msg = gib::unknown_id_message("method", std::string(1'000'000, 'x'), many, " for problem p");
  CHECK(msg.size() < 600);
  CHECK(contains(msg, "'... (1000000 bytes) for problem p (valid: a_rather_long_identifier, "));
  CHECK(contains(msg, "more)"));
}

TEST_CASE("input files are read only when regular and at most the bound", "[user_input][json]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("gibench-input-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const auto err = [](const fs::path& p, std::uintmax_t max) {
    return error_of([&] { gib::read_input_file(p, max); });
  };
  std::ofstream(dir / "small.json") << "{\"a\": 1}";
  CHECK(gib::read_input_file(dir / "small.json", 8) == "{\"a\": 1}");
  CHECK(err(dir / "small.json", 7) == (dir / "small.json").string() + ": larger than 7 bytes, the most an input file may have");
  CHECK(err(dir, 100) == dir.string() + ": is a directory, not a JSON file");
  CHECK(contains(err(dir / "missing.json", 100), ": cannot open file (No such file or directory)"));
  REQUIRE(::mkfifo((dir / "fifo").c_str(), 0600) == 0);  // no writer: a blocking open would never return
  CHECK(err(dir / "fifo", 100) == (dir / "fifo").string() + ": not a regular file (a FIFO, device or socket is not read)");
  fs::create_symlink(dir / "loop_b", dir / "loop_a");
  fs::create_symlink(dir / "loop_a", dir / "loop_b");
  CHECK(contains(err(dir / "loop_a", 100), ": cannot open file (Too many levels of symbolic links)"));
  CHECK(gib::kMaxInputFileBytes == 64u * 1024 * 1024);
  fs::remove_all(dir);
}

}  // namespace gibench_test_user_input
