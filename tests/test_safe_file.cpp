// The one routine every output goes through (core/safe_file.hpp) and the journal that uses it: what it
// refuses (links, special files, inputs, unusable places, names that are not names), and that a refusal
// leaves every file where and as it was.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "core/errors.hpp"
#include "core/safe_file.hpp"
#include "harness/sweep.hpp"
#include "harness/sweep_journal.hpp"
#include "support/input_errors.hpp"

namespace gibench_test_safe_file {

namespace fs = std::filesystem;

namespace {

// A directory of its own per test case, removed afterwards.
struct Scratch {
  fs::path dir;
  Scratch() {
    std::string tmpl = (fs::temp_directory_path() / "gibench-safe-file-XXXXXX").string();
    REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
    dir = tmpl;
  }
  ~Scratch() {
    std::error_code ec;
    fs::permissions(dir, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(dir, ec);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  fs::path operator/(const std::string& name) const { return dir / name; }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
};

void put(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

std::string get(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

using gib_test::contains;
using gib_test::error_of;

gib::SweepSpec tiny_sweep() {
  return gib::parse_sweep({{"name", "tiny"}, {"problems", {{{"problem", "free_rigid_body"}}}}, {"methods", {"rkmk4"}},
                           {"h", {0.1}}, {"T", 0.2}},
                          "cfg");
}

}  // namespace

TEST_CASE("write_file_atomic creates, replaces a regular file and leaves nothing else", "[safe_file]") {
  Scratch s;
  const fs::path p = s / "sub" / "out.json";
  gib::write_file_atomic(p, "one\n");
  gib::write_file_atomic(p, "two\n");
  CHECK(get(p) == "two\n");
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(p.parent_path())) names.push_back(e.path().filename().string());
  CHECK(names == std::vector<std::string>{"out.json"});
  // The replacement keeps the permissions of the file it replaces (a private result stays private).
  fs::permissions(p, fs::perms::owner_read | fs::perms::owner_write);
  gib::write_file_atomic(p, "three\n");
  CHECK(get(p) == "three\n");
  CHECK((fs::status(p).permissions() & fs::perms::all) == (fs::perms::owner_read | fs::perms::owner_write));
}

TEST_CASE("write_file_atomic refuses links and special files and leaves them as they were", "[safe_file]") {
  Scratch s;
  put(s / "precious", "precious\n");
  fs::create_symlink(s / "precious", s / "link.json");
  fs::create_symlink(s / "nowhere", s / "dangling.json");
  REQUIRE(::mkfifo((s / "fifo.json").c_str(), 0600) == 0);
  fs::create_directory(s / "dir.json");
  const auto before = s.names();

  CHECK(contains(error_of([&] { gib::write_file_atomic(s / "link.json", "x"); }), "is a symbolic link"));
  CHECK(contains(error_of([&] { gib::write_file_atomic(s / "dangling.json", "x"); }), "is a symbolic link"));
  CHECK(contains(error_of([&] { gib::write_file_atomic(s / "fifo.json", "x"); }), "is a FIFO, not a regular file"));
  CHECK(contains(error_of([&] { gib::write_file_atomic(s / "dir.json", "x"); }), "is a directory, not a regular file"));
  CHECK(contains(error_of([&] { gib::write_file_atomic(s / "dir.json/", "x"); }), "names a directory"));

  CHECK(s.names() == before);  // no temporary left, nothing replaced
  CHECK(get(s / "precious") == "precious\n");
  CHECK(fs::is_symlink(s / "link.json"));
  CHECK(fs::is_symlink(s / "dangling.json"));
  CHECK_FALSE(fs::exists(s / "nowhere"));
  CHECK(fs::is_fifo(s / "fifo.json"));
}

TEST_CASE("output names the kernel would refuse are refused first, in one bounded line", "[safe_file]") {
  Scratch s;
  const std::string nul_name = std::string("a\0b.json", 8);
  CHECK(contains(error_of([&] { gib::check_output_file(s.dir / nul_name, "--out"); }), "contains a NUL byte"));
  const std::string long_name(NAME_MAX + 1, 'x');
  const std::string e = error_of([&] { gib::check_output_file(s / long_name, "--out"); });
  CHECK(contains(e, "256 bytes long, more than the file system allows (255)"));
  CHECK(e.size() < 400);
  CHECK(e.find('\n') == std::string::npos);
  std::string deep;
  for (int i = 0; i < PATH_MAX / 100 + 1; ++i) deep += std::string(99, 'd') + "/";
  CHECK(contains(error_of([&] { gib::check_output_file(s.dir / deep / "out.json", "--out"); }), "more than the system allows"));
  CHECK(contains(error_of([&] { gib::check_output_file("", "--out"); }), "empty path"));
  CHECK(s.names().empty());
}

TEST_CASE("an output must not be one of the command's inputs", "[safe_file]") {
  Scratch s;
  put(s / "cfg.json", "{}");
  fs::create_hard_link(s / "cfg.json", s / "hardlink.json");
  const std::vector<gib::NamedInput> inputs = {{s / "cfg.json", "the sweep config"}};
  CHECK(error_of([&] { gib::check_output_file(s / "cfg.json", "--out", inputs); }) ==
        "--out " + (s / "cfg.json").string() + ": is the sweep config this command reads; writing there would destroy it "
        "(choose another output)");
  CHECK(contains(error_of([&] { gib::check_output_file(s / "hardlink.json", "--out", inputs); }), "is the sweep config"));
  CHECK(contains(error_of([&] { gib::check_output_file(s / "sub" / ".." / "cfg.json", "--out", inputs); }), "is the sweep config"));
  CHECK(error_of([&] { gib::check_output_file(s / "other.json", "--out", inputs); }) == "(accepted)");
  CHECK(get(s / "cfg.json") == "{}");
  CHECK(gib::same_file(s / "cfg.json", s / "hardlink.json"));
  CHECK_FALSE(gib::same_file(s / "cfg.json", s / "other.json"));
  CHECK(gib::same_file(s / "new.json", s.dir / "." / "new.json"));  // neither exists: the same path
}

TEST_CASE("the output's directory is checked before the work, and nothing is created for the check", "[safe_file]") {
  Scratch s;
  put(s / "file", "x");
  CHECK(error_of([&] { gib::check_output_file(s / "a" / "b" / "out.json", "--out"); }) == "(accepted)");
  CHECK(contains(error_of([&] { gib::check_output_file(s / "file" / "out.json", "--out"); }), "is not a directory"));
  CHECK(contains(error_of([&] { gib::check_output_file(s / "file" / "x" / "out.json", "--out"); }), "is not a directory"));
  CHECK(contains(error_of([&] { gib::check_output_dir(s / "file", "--out-dir"); }), "is a regular file"));
  CHECK(error_of([&] { gib::check_output_dir(s / "new" / "dir", "--out-dir"); }) == "(accepted)");
  CHECK(s.names() == std::vector<std::string>{"file"});

  fs::create_directory(s / "ro");
  fs::permissions(s / "ro", fs::perms::owner_read | fs::perms::owner_exec);
  const bool root_writes_anyway = ::access((s / "ro").c_str(), W_OK) == 0;
  if (root_writes_anyway) {
    WARN("running as root: a read-only directory does not stop writes, that case is skipped");
  } else {
    CHECK(contains(error_of([&] { gib::check_output_file(s / "ro" / "out.json", "--out"); }), "cannot create files in"));
    CHECK(contains(error_of([&] { gib::check_output_file(s / "ro" / "new" / "out.json", "--out"); }), "Permission denied"));
    CHECK(contains(error_of([&] { gib::write_file_atomic(s / "ro" / "out.json", "x"); }), "Permission denied"));
    CHECK(fs::is_empty(s / "ro"));
  }
}

TEST_CASE("a name that becomes a file name is a plain word", "[safe_file]") {
  for (const std::string& ok : std::vector<std::string>{"sweep", "kjer2017-fig3.10", "a_b-c.d", std::string(gib::kMaxNameBytes, 'n')})
    CHECK(error_of([&] { gib::check_file_name_word(ok, "cfg.name"); }) == "(accepted)");
  for (const std::string& bad : std::vector<std::string>{"", "../x", "/abs", "a/b", ".hidden", "..", "a b", "tab\there", "caf\xc3\xa9",
                                std::string("a\0b", 3), std::string(gib::kMaxNameBytes + 1, 'n')})
    CHECK(error_of([&] { gib::check_file_name_word(bad, "cfg.name"); }).rfind("cfg.name: ", 0) == 0);
  CHECK(error_of([&] { gib::check_file_name_word(std::string("a\0b", 3), "cfg.name"); }) ==
        "cfg.name: 'a\\x00b' cannot name a file: only letters, digits, '-', '_' and '.', not starting with '.'");
  const std::string huge(1 << 20, '/');
  CHECK(error_of([&] { gib::check_file_name_word(huge, "cfg.name"); }).size() < 200);
}

TEST_CASE("excerpt quotes a bounded, printable part of a value", "[safe_file]") {
  CHECK(gib::excerpt("plain") == "plain");
  CHECK(gib::excerpt(std::string("a\0\n\x7f", 4)) == "a\\x00\\x0a\\x7f");
  CHECK(gib::excerpt(std::string(100, 'x'), 10) == "xxxxxxxxxx...");
}

TEST_CASE("open_owned_file takes regular files only and never follows a link", "[safe_file]") {
  Scratch s;
  put(s / "target", "keep\n");
  fs::create_symlink(s / "target", s / "link");
  REQUIRE(::mkfifo((s / "fifo").c_str(), 0600) == 0);
  CHECK(contains(error_of([&] { gib::open_owned_file(s / "link", O_RDWR | O_APPEND, "the journal"); }), "is a symbolic link"));
  CHECK(contains(error_of([&] { gib::open_owned_file(s / "link", O_RDWR | O_CREAT, "the journal"); }), "is a symbolic link"));
  CHECK(contains(error_of([&] { gib::open_owned_file(s / "fifo", O_WRONLY, "the journal"); }), "is a FIFO"));
  CHECK(contains(error_of([&] { gib::open_owned_file(s / "target", O_RDWR | O_CREAT, "the journal"); }), "exists"));
  CHECK(get(s / "target") == "keep\n");

  const int fd = gib::open_owned_file(s / "mine", O_RDWR | O_CREAT, "the journal");
  REQUIRE(fd >= 0);
  // Replaced by somebody else's file under the same name: theirs is not removed.
  fs::rename(s / "target", s / "mine");
  CHECK_FALSE(gib::remove_if_same(s / "mine", fd));
  CHECK(get(s / "mine") == "keep\n");
  ::close(fd);
  const int fd2 = gib::open_owned_file(s / "own", O_RDWR | O_CREAT, "the journal");
  CHECK(gib::remove_if_same(s / "own", fd2));
  ::close(fd2);
  CHECK_FALSE(fs::exists(s / "own"));
}

TEST_CASE("the journal refuses a planted link or a file that is not a journal, with or without --restart",
          "[safe_file][journal]") {
  Scratch s;
  const gib::SweepSpec spec = tiny_sweep();
  put(s / "precious", "precious\n");
  const fs::path journal = s / "r.json.journal";
  fs::create_symlink(s / "precious", journal);
  for (const bool restart : {false, true})
    CHECK(contains(error_of([&] { gib::SweepJournal::create(journal, spec, restart); }), "is a symbolic link"));
  std::vector<gib::JournalRecord> records;
  CHECK(contains(error_of([&] { gib::SweepJournal::resume(journal, spec, records); }), "is a symbolic link"));
  CHECK(get(s / "precious") == "precious\n");
  CHECK(fs::is_symlink(journal));

  fs::remove(journal);
  put(journal, "somebody's notes\n");
  CHECK(contains(error_of([&] { gib::SweepJournal::create(journal, spec, true); }), "not a gibench journal"));
  CHECK(get(journal) == "somebody's notes\n");

  // A real journal is discarded by --restart, and removed when the sweep is done.
  fs::remove(journal);
  { auto j = gib::SweepJournal::create(journal, spec, false); }
  {
    auto j = gib::SweepJournal::create(journal, spec, true);
    j.remove();
  }
  CHECK(s.names() == std::vector<std::string>{"precious"});
}

}  // namespace gibench_test_safe_file
