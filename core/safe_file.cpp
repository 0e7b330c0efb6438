#include "core/safe_file.hpp"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

#include "core/errors.hpp"

namespace gib {

namespace fs = std::filesystem;

namespace {

// Bounded even if the user's path is not, so that the error stays one readable line; a long path keeps
// its end, where the file name is.
constexpr std::size_t kShownPathBytes = 160;

std::string shown(const fs::path& p) {
  const std::string& s = p.native();
  if (s.size() <= kShownPathBytes) return excerpt(s, kShownPathBytes);
  return excerpt(s, kShownPathBytes / 2) + excerpt(s.substr(s.size() - kShownPathBytes / 2), kShownPathBytes / 2);
}

std::string who(const std::string& flag, const fs::path& p) {
  if (p.empty()) return flag;
  return flag.empty() ? shown(p) : flag + " " + shown(p);
}

// errno is read by the caller right after the failing call and passed in, never re-read here: anything in
// between (a destructor closing a descriptor) may have changed it.
std::string os_error(int err) { return std::strerror(err); }

const char* kind_of(mode_t m) {
  if (S_ISREG(m)) return "a regular file";
  if (S_ISDIR(m)) return "a directory";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  if (S_ISLNK(m)) return "a symbolic link";
  return "not a regular file";
}

class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  int get() const { return fd_; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_;
};

fs::path parent_or_dot(const fs::path& p) { return p.has_parent_path() ? p.parent_path() : fs::path("."); }

// A temporary file gibench created in a directory: removed on destruction unless committed, and then only
// while its name still holds the inode created (someone may have replaced it in a shared directory).
class TempFile {
 public:
  // O_EXCL|O_NOFOLLOW: never an existing file, never through a link planted at the name; the random suffix
  // makes the name impossible to plant in advance anyway.
  TempFile(int dirfd, const std::string& stem, const std::string& failure) : dirfd_(dirfd) {
    std::random_device rd;
    for (int attempt = 0; attempt < 64; ++attempt) {
      const unsigned hi = rd(), lo = rd();
      char name[64];  // formatted in place: GCC 12 misreads string concatenation here as a huge copy
      std::snprintf(name, sizeof name, ".%.40s.tmp.%08x%08x", stem.c_str(), hi, lo);
      name_ = name;
      const int fd = ::openat(dirfd, name_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
      if (fd >= 0) {
        fd_ = fd;
        struct stat st {};
        if (::fstat(fd, &st) == 0) {
          dev_ = st.st_dev;
          ino_ = st.st_ino;
        }
        return;
      }
      const int err = errno;
      if (err != EEXIST) throw InputError(failure + " (" + os_error(err) + ")");
    }
    throw InputError(failure + " (64 random names taken)");
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) {
      struct stat st {};
      if (::fstatat(dirfd_, name_.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_dev == dev_ && st.st_ino == ino_)
        ::unlinkat(dirfd_, name_.c_str(), 0);
    }
  }
  int fd() const { return fd_; }
  const std::string& name() const { return name_; }
  // close(2) reports write-back errors (NFS): the caller must see them.
  int close_checked() {
    const int r = ::close(fd_);
    fd_ = -1;
    return r;
  }
  void committed() { committed_ = true; }

 private:
  int dirfd_;
  int fd_ = -1;
  std::string name_;
  dev_t dev_ = 0;
  ino_t ino_ = 0;
  bool committed_ = false;
};

int open_dir(const fs::path& dir, const std::string& where) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    throw InputError(where + ": cannot open the directory " + shown(dir) + " (" + os_error(err) + ")");
  }
  return fd;
}

// What the kernel would refuse anyway, said before any work instead of after it.
void check_path_text(const fs::path& path, const std::string& w) {
  const std::string& s = path.native();
  if (s.empty()) throw InputError(w + ": empty path");
  if (s.find('\0') != std::string::npos) throw InputError(w + ": the path contains a NUL byte");
  for (const auto& part : path)
    if (part.native().size() > NAME_MAX)
      throw InputError(w + ": a name in the path is " + std::to_string(part.native().size()) +
                       " bytes long, more than the file system allows (" + std::to_string(NAME_MAX) + ")");
  std::error_code ec;
  const fs::path abs = path.is_absolute() ? path : fs::current_path(ec) / path;
  if (abs.native().size() >= PATH_MAX)
    throw InputError(w + ": the path is " + std::to_string(abs.native().size()) + " bytes long, more than the system allows (" +
                     std::to_string(PATH_MAX - 1) + ")");
}

// The target itself: absent, or a regular file to replace.
void check_target(const fs::path& path, const std::string& w) {
  check_path_text(path, w);
  const fs::path name = path.filename();
  if (name.empty() || name == "." || name == "..") throw InputError(w + ": names a directory, not a file");
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode))
      throw InputError(w + ": is a symbolic link; gibench neither writes through a link nor replaces it (name the file "
                           "itself, or remove the link)");
    if (!S_ISREG(st.st_mode))
      throw InputError(w + ": is " + kind_of(st.st_mode) + ", not a regular file; gibench replaces only regular files");
    return;
  }
  const int err = errno;
  if (err == ENOTDIR) throw InputError(w + ": a name on the way to it is not a directory");
  if (err != ENOENT) throw InputError(w + ": " + os_error(err));
}

// Creates and removes a file in dir: the only test that knows about read-only mounts, ACLs and root.
void probe_writable(const fs::path& dir, const std::string& w) {
  const Fd dfd(open_dir(dir, w));
  const TempFile probe(dfd.get(), "gibench-probe", w + ": cannot create files in " + shown(dir));
}

// The directory `start`, or its nearest existing ancestor (the rest is created at write time), must be a
// directory this process can create files in. `named` is what the user gave, which the message need not repeat.
void check_directory_usable(const fs::path& start, const fs::path& named, const std::string& w) {
  for (fs::path dir = start;;) {
    struct stat st {};
    if (::stat(dir.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode))
        throw InputError(w + ": " + (dir == named ? "" : shown(dir) + " ") + "is " + kind_of(st.st_mode) + ", not a directory");
      probe_writable(dir, w);
      return;
    }
    const int err = errno;
    if (err == ENOTDIR) throw InputError(w + ": a name on the way to it is not a directory");
    if (err != ENOENT) throw InputError(w + ": " + shown(dir) + ": " + os_error(err));
    const fs::path up = parent_or_dot(dir);
    if (up == dir) throw InputError(w + ": no existing directory above it");
    dir = up;
  }
}

}  // namespace

std::string excerpt(const std::string& s, std::size_t max_bytes) {
  std::string out;
  const std::size_t n = std::min(s.size(), max_bytes);
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    }
  }
  if (n < s.size()) out += "...";
  return out;
}

void check_file_name_word(const std::string& name, const std::string& where) {
  if (name.empty()) throw InputError(where + ": empty (it names files: letters, digits, '-', '_', '.')");
  if (name.size() > kMaxNameBytes)
    throw InputError(where + ": '" + excerpt(name) + "' is " + std::to_string(name.size()) + " bytes long, more than " +
                     std::to_string(kMaxNameBytes) + " (it names files)");
  const auto allowed = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
  };
  bool ok = name[0] != '.';
  for (const char c : name) ok = ok && allowed(c);
  if (!ok)
    throw InputError(where + ": '" + excerpt(name) + "' cannot name a file: only letters, digits, '-', '_' and '.', "
                             "not starting with '.'");
}

bool same_file(const fs::path& a, const fs::path& b) {
  struct stat sa {}, sb {};
  if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  std::error_code ea, eb;
  const fs::path ca = fs::weakly_canonical(fs::absolute(a, ea), ea), cb = fs::weakly_canonical(fs::absolute(b, eb), eb);
  return !ea && !eb && ca == cb;
}

void check_output_file(const fs::path& path, const std::string& flag, const std::vector<NamedInput>& inputs) {
  const std::string w = who(flag, path);
  check_target(path, w);
  for (const auto& in : inputs)
    if (same_file(path, in.path))
      throw InputError(w + ": is " + in.role + " this command reads; writing there would destroy it (choose another output)");
  check_directory_usable(parent_or_dot(path), path, w);
}

void check_output_dir(const fs::path& dir, const std::string& flag) {
  const std::string w = who(flag, dir);
  check_path_text(dir, w);
  check_directory_usable(dir, dir, w);
}

void write_file_atomic(const fs::path& path, const std::string& text) {
  const std::string w = "cannot write " + shown(path);
  check_target(path, w);
  const fs::path dir = parent_or_dot(path);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError(w + ": cannot create the directory " + shown(dir) + " (" + ec.message() + ")");
  const Fd dfd(open_dir(dir, w));
  const std::string name = path.filename().native();
  TempFile tmp(dfd.get(), name, w + ": cannot create a file in " + shown(dir));
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(tmp.fd(), text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : ENOSPC;
      throw InputError(w + ": " + os_error(err));
    }
    done += static_cast<std::size_t>(n);
  }
  struct stat old {};
  const bool replacing = ::fstatat(dfd.get(), name.c_str(), &old, AT_SYMLINK_NOFOLLOW) == 0;
  // A file the user made private stays private.
  if (replacing && S_ISREG(old.st_mode)) (void)::fchmod(tmp.fd(), old.st_mode & 0777);
  if (::fsync(tmp.fd()) != 0 || tmp.close_checked() != 0) {
    const int err = errno;
    throw InputError(w + ": " + os_error(err));
  }
  // Looked at again just before the rename: something may have appeared at the name while we computed.
  if (replacing && !S_ISREG(old.st_mode))
    throw InputError(w + ": is " + kind_of(old.st_mode) + ", not a regular file; gibench replaces only regular files");
  if (::renameat(dfd.get(), tmp.name().c_str(), dfd.get(), name.c_str()) != 0) {
    const int err = errno;
    throw InputError(w + ": " + os_error(err));
  }
  tmp.committed();
  (void)::fsync(dfd.get());  // the rename itself on the disk; a file system that cannot is no reason to fail
}

int open_owned_file(const fs::path& path, int flags, const std::string& what) {
  const std::string w = shown(path);
  check_path_text(path, w);
  int extra = O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK;  // O_NONBLOCK: a FIFO planted here must not hang the open
  if ((flags & O_CREAT) != 0) extra |= O_EXCL;
  Fd fd(::open(path.c_str(), flags | extra, 0644));
  if (fd.get() < 0) {
    const int err = errno;
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode))
      throw InputError(w + ": " + what + " is a symbolic link; gibench does not follow it (remove the link)");
    if (err != EEXIST && ::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
      throw InputError(w + ": " + what + " is " + kind_of(st.st_mode) + ", not a regular file; gibench does not touch it");
    if (err == EEXIST) throw InputError(w + ": " + what + " exists");
    throw InputError(w + ": cannot open " + what + " (" + os_error(err) + ")");
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode))
    throw InputError(w + ": " + what + " is " + kind_of(st.st_mode) + ", not a regular file; gibench does not touch it");
  ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);
  return fd.release();
}

bool remove_if_same(const fs::path& path, int fd) {
  struct stat a {}, b {};
  if (fd < 0 || ::fstat(fd, &a) != 0 || ::lstat(path.c_str(), &b) != 0) return false;
  if (a.st_dev != b.st_dev || a.st_ino != b.st_ino) return false;
  return ::unlink(path.c_str()) == 0;
}

}  // namespace gib
