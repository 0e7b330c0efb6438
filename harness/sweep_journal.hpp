// The journal of a running sweep: one line per finished cell phase, so that a killed or crashed sweep
// resumes (gibench sweep --resume) with nothing lost and nothing run twice; and one line for a cell that
// crashed the process (harness/crash_recorder.hpp), which resume records as "crashed" instead of running
// it again.
//
// Line format: "<fnv64 hex of the JSON text> <JSON text>\n", written with a single write(2) on an
// O_APPEND descriptor, so a record is either wholly in the file or (after a crash mid-write) a torn last
// line whose checksum fails; resume drops that line and truncates it away. The first line is a header
// naming the sweep's fingerprint and cell count; a journal of another sweep is refused. Records reach
// the kernel at once (a kill -9 loses nothing) and the disk at least every second (fdatasync), so a
// power cut loses at most the last second of finished cells. An exclusive flock keeps a second gibench
// from writing the same journal.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "harness/sweep.hpp"

namespace gib {

struct JournalRecord {
  std::size_t index = 0;
  // "accuracy" (row and series of the accuracy pass), "timing" (row is the timing object) or "crash" (the
  // cell crashed the process; row is null, signal the signal number)
  std::string phase;
  Json row;
  Json series;
  int signal = 0;
};

class SweepJournal {
 public:
  static std::filesystem::path path_for(const std::filesystem::path& out) { return out.string() + ".journal"; }

  // A new journal; throws InputError if one exists (unless discard_existing, and then only a file whose first
  // line is a journal header is discarded). Links and other non-regular files at the path are refused.
  static SweepJournal create(const std::filesystem::path& path, const SweepSpec& spec, bool discard_existing);
  // An existing journal of this sweep, its records checked against the cells; the file is open for appending.
  static SweepJournal resume(const std::filesystem::path& path, const SweepSpec& spec, std::vector<JournalRecord>& records);

  SweepJournal(SweepJournal&& other) noexcept;
  SweepJournal& operator=(SweepJournal&&) = delete;
  SweepJournal(const SweepJournal&) = delete;
  SweepJournal& operator=(const SweepJournal&) = delete;
  ~SweepJournal();

  // Safe from several threads at once.
  void append(const JournalRecord& record);
  // The crash record of cell i up to its signal number, for CrashRecorder::running.
  std::string crash_record_prefix(std::size_t i) const;
  int fd() const { return fd_; }
  // After the results file is in place: the journal has served its purpose.
  void remove();

 private:
  SweepJournal(std::filesystem::path path, int fd, const SweepSpec& spec);
  void write_line(const std::string& json_text);

  std::filesystem::path path_;
  int fd_ = -1;
  const SweepSpec* spec_;
  double last_sync_ = 0;
  std::unique_ptr<std::mutex> lock_ = std::make_unique<std::mutex>();
};

}  // namespace gib
