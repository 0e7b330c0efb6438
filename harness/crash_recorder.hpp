// When a method crashes the process (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT), the sweep journal gets one
// last record naming the cell that was running on the crashing thread, written from the signal handler
// with write(2) only; the process then dies with the same signal. On --resume that cell becomes a row
// with status "crashed" instead of taking the sweep down again. SIGKILL (kill -9, the OOM killer) cannot
// be caught: cells running then are simply run again.
#pragma once

#include <cstddef>
#include <string>

namespace gib {

// Installs the handlers for a journal open on `fd` (one sweep at a time); uninstalls on destruction.
class CrashRecorder {
 public:
  explicit CrashRecorder(int journal_fd);
  ~CrashRecorder();
  CrashRecorder(const CrashRecorder&) = delete;
  CrashRecorder& operator=(const CrashRecorder&) = delete;

  // From the thread about to run the cell: the journal record's JSON text up to the signal number, e.g.
  // {"i":3,"key":"...","phase":"crash","signal":   (the handler appends the number and "}").
  static void running(std::string record_prefix);
  static void idle();
};

}  // namespace gib
