#include "harness/sweep_journal.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <set>
#include <sstream>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/errors.hpp"
#include "core/safe_file.hpp"

namespace gib {
namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

Json header(const SweepSpec& spec) {
  return {{"journal", "gibench.sweep"}, {"version", 1}, {"fingerprint", sweep_fingerprint(spec)},
          {"cells", spec.cells.size()}, {"name", spec.name}};
}

// O_NOFOLLOW and a regular file only (core/safe_file.hpp): a link planted at <out>.journal is neither
// followed nor truncated.
int open_locked(const std::filesystem::path& path, int flags) {
  const int fd = open_owned_file(path, flags, "the journal");
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    throw InputError(path.string() + ": another gibench is running this sweep (the journal is locked)");
  }
  return fd;
}

// The whole file through the descriptor already checked, not reopened by name.
std::string read_all(int fd, const std::filesystem::path& path) {
  std::string text;
  char buf[1 << 16];
  for (off_t at = 0;;) {
    const ssize_t n = ::pread(fd, buf, sizeof buf, at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      throw InputError(path.string() + ": cannot read the journal (" + std::strerror(err) + ")");
    }
    if (n == 0) return text;
    text.append(buf, static_cast<std::size_t>(n));
    at += n;
  }
}

// A line's JSON if its checksum holds, else null.
Json checked_line(const std::string& line) {
  if (line.size() < 18 || line[16] != ' ') return Json();
  const std::string text = line.substr(17);
  if (hash_hex(text) != line.substr(0, 16)) return Json();
  try {
    return Json::parse(text);
  } catch (const Json::exception&) {
    return Json();
  }
}

JournalRecord parse_record(const Json& j, const SweepSpec& spec, const std::string& where) {
  JournalRecord r;
  try {
    r.index = j.at("i").get<std::size_t>();
    r.phase = j.at("phase").get<std::string>();
    r.row = j.value("row", Json());
    r.series = j.value("series", Json());
    r.signal = j.value("signal", 0);
  } catch (const Json::exception&) {
    throw InputError(where + ": not a journal record");
  }
  if (r.index >= spec.cells.size() || (r.phase != "accuracy" && r.phase != "timing" && r.phase != "crash"))
    throw InputError(where + ": record for a cell this sweep does not have");
  if (j.value("key", "") != hash_hex(cell_key(spec.cells[r.index])))
    throw InputError(where + ": record of cell " + std::to_string(r.index) + " does not match the config's cell");
  return r;
}

}  // namespace

SweepJournal::SweepJournal(std::filesystem::path path, int fd, const SweepSpec& spec)
    : path_(std::move(path)), fd_(fd), spec_(&spec), last_sync_(now_seconds()) {}

SweepJournal::SweepJournal(SweepJournal&& o) noexcept
    : path_(std::move(o.path_)), fd_(o.fd_), spec_(o.spec_), last_sync_(o.last_sync_), lock_(std::move(o.lock_)) {
  o.fd_ = -1;
}

SweepJournal::~SweepJournal() {
  if (fd_ < 0) return;
  ::fdatasync(fd_);
  ::close(fd_);
}

SweepJournal SweepJournal::create(const std::filesystem::path& path, const SweepSpec& spec, bool discard_existing) {
  struct stat st {};
  const bool exists = ::lstat(path.c_str(), &st) == 0;
  if (exists && S_ISREG(st.st_mode) && !discard_existing)
    throw InputError(path.string() + " exists: an interrupted run of this sweep; --resume continues it, --restart discards it");
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) throw InputError(path.string() + ": cannot create its directory (" + ec.message() + ")");
  const int fd = open_locked(path, exists ? O_RDWR | O_APPEND : O_RDWR | O_APPEND | O_CREAT);
  SweepJournal j(path, fd, spec);
  // --restart discards a journal, not whatever file happens to carry the name.
  if (exists) {
    const std::string text = read_all(fd, path);
    const Json first = checked_line(text.substr(0, text.find('\n')));
    if (!first.is_object() || first.value("journal", "") != "gibench.sweep")
      throw InputError(path.string() + ": not a gibench journal; --restart discards only journals (move the file away)");
    if (::ftruncate(fd, 0) != 0) {
      const int err = errno;
      throw InputError(path.string() + ": cannot truncate the journal (" + std::strerror(err) + ")");
    }
  }
  j.write_line(header(spec).dump());
  return j;
}

SweepJournal SweepJournal::resume(const std::filesystem::path& path, const SweepSpec& spec,
                                  std::vector<JournalRecord>& records) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 && errno == ENOENT)
    throw InputError(path.string() + ": no journal to resume (run without --resume to start the sweep)");
  const int fd = open_locked(path, O_RDWR | O_APPEND);
  SweepJournal j(path, fd, spec);
  std::istringstream in(read_all(fd, path));
  std::string line;
  std::size_t line_no = 0;
  std::streamoff good_end = 0;
  std::set<std::pair<std::size_t, std::string>> seen;
  while (std::getline(in, line)) {
    ++line_no;
    const bool complete = !in.eof();  // getline hit a newline
    const Json rec = complete ? checked_line(line) : Json();
    const std::string where = path.string() + ":" + std::to_string(line_no);
    if (rec.is_null()) {
      if (in.peek() != std::char_traits<char>::eof())
        throw InputError(where + ": corrupted journal line before the end; remove the journal to start over");
      break;  // a torn last line: the cell it held is simply run again
    }
    if (line_no == 1) {
      if (rec != header(spec))
        throw InputError(path.string() + ": the journal belongs to another config or version of this sweep; --restart discards it");
    } else {
      JournalRecord r = parse_record(rec, spec, where);
      // A cell may crash on its first run and again on the run --resume gives it (sweep_session.cpp).
      if (r.phase != "crash" && !seen.insert({r.index, r.phase}).second) throw InputError(where + ": cell recorded twice");
      records.push_back(std::move(r));
    }
    good_end = in.tellg();
  }
  if (line_no == 0) throw InputError(path.string() + ": empty journal (not even its header); remove it to start over");
  if (::ftruncate(fd, good_end) != 0) {
    const int err = errno;
    throw InputError(path.string() + ": cannot truncate a torn journal line (" + std::strerror(err) + ")");
  }
  return j;
}

void SweepJournal::append(const JournalRecord& r) {
  Json j = {{"i", r.index}, {"key", hash_hex(cell_key(spec_->cells.at(r.index)))}, {"phase", r.phase}};
  if (!r.row.is_null()) j["row"] = r.row;
  if (!r.series.is_null()) j["series"] = r.series;
  write_line(j.dump());
}

std::string SweepJournal::crash_record_prefix(std::size_t i) const {
  std::string text = Json{{"i", i}, {"key", hash_hex(cell_key(spec_->cells.at(i)))}, {"phase", "crash"}, {"signal", 0}}.dump();
  return text.substr(0, text.size() - 2);  // drop the placeholder "0}": the handler writes the number and "}"
}

void SweepJournal::write_line(const std::string& text) {
  const std::string line = hash_hex(text) + " " + text + "\n";
  const std::lock_guard<std::mutex> g(*lock_);
  const ssize_t n = ::write(fd_, line.data(), line.size());
  if (n != static_cast<ssize_t>(line.size())) {
    // A short write sets no errno: say so rather than print whatever an earlier call left there.
    const std::string why = n < 0 ? std::strerror(errno) : "short write, the disk is full?";
    throw InputError(path_.string() + ": cannot append to the journal (" + why + ")");
  }
  if (const double t = now_seconds(); t - last_sync_ >= 1.0) {
    ::fdatasync(fd_);
    last_sync_ = t;
  }
}

void SweepJournal::remove() {
  remove_if_same(path_, fd_);  // if someone replaced the file meanwhile, theirs stays
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

}  // namespace gib
