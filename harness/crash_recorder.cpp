#include "harness/crash_recorder.hpp"

#include <csignal>
#include <cstdint>
#include <cstring>
#include <unistd.h>

namespace gib {
namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
volatile std::sig_atomic_t g_fd = -1;
thread_local std::string t_prefix;  // empty: this thread runs no cell
struct sigaction g_previous[sizeof kSignals / sizeof kSignals[0]];

// The journal line format of harness/sweep_journal.hpp, built with async-signal-safe code only.
std::size_t crash_line(int sig, char* out, std::size_t cap) {
  char text[4096];
  std::size_t n = t_prefix.size();
  if (n + 16 > sizeof text) return 0;
  std::memcpy(text, t_prefix.data(), n);
  char digits[12];
  int d = 0;
  for (int s = sig; s > 0 && d < 11; s /= 10) digits[d++] = static_cast<char>('0' + s % 10);
  while (d > 0) text[n++] = digits[--d];
  text[n++] = '}';
  std::uint64_t h = 14695981039346656037ULL;
  for (std::size_t i = 0; i < n; ++i) {
    h ^= static_cast<unsigned char>(text[i]);
    h *= 1099511628211ULL;
  }
  if (n + 18 > cap) return 0;
  static const char hex[] = "0123456789abcdef";
  for (int i = 15; i >= 0; --i, h >>= 4) out[i] = hex[h & 15U];
  out[16] = ' ';
  std::memcpy(out + 17, text, n);
  out[17 + n] = '\n';
  return n + 18;
}

extern "C" void on_crash(int sig) {
  if (g_fd >= 0 && !t_prefix.empty()) {
    char line[4200];
    if (const std::size_t n = crash_line(sig, line, sizeof line); n > 0) (void)!::write(g_fd, line, n);
  }
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

}  // namespace

CrashRecorder::CrashRecorder(int journal_fd) {
  g_fd = journal_fd;
  struct sigaction sa {};
  sa.sa_handler = on_crash;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_NODEFER | SA_RESETHAND;
  for (std::size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], &sa, &g_previous[i]);
}

CrashRecorder::~CrashRecorder() {
  for (std::size_t i = 0; i < std::size(kSignals); ++i) sigaction(kSignals[i], &g_previous[i], nullptr);
  g_fd = -1;
}

void CrashRecorder::running(std::string record_prefix) { t_prefix = std::move(record_prefix); }
void CrashRecorder::idle() { t_prefix.clear(); }

}  // namespace gib
