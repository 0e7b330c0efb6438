// Every file gibench writes goes through here (results, shards, journals, baselines, reports, markdown,
// the reference cache), so that a mistyped or hostile output path costs nothing but an error line.
//
// Guarantees, each an InputError (exit 2, one line) when refused:
//  - An output is checked before any work (check_output_file / check_output_dir): the name is not empty,
//    has no NUL byte, no component longer than NAME_MAX, the whole shorter than PATH_MAX; the nearest
//    existing ancestor is a directory where this process can create a file (tried, by creating and
//    removing a probe file there, so read-only mounts and ACLs answer truthfully); the target, if it
//    exists, is a regular file; and it is none of the command's inputs (same device and inode).
//  - A target that is a symbolic link is refused, never written through and never replaced: a link
//    at an output name is somebody's decision that gibench cannot second-guess. A directory, FIFO,
//    socket or device is refused too, /dev/null included (writing in place to a character device
//    would let `--out /dev/mem` through as root).
//  - write_file_atomic creates its temporary in the target's directory with O_CREAT|O_EXCL|O_NOFOLLOW
//    and a random name, writes, fsyncs and renames it over the target; the target either keeps its old
//    content or has the new one in full. On failure it removes only that temporary, and only while the
//    name still holds the file it created.
//  - open_owned_file opens files gibench appends to (the sweep journal) with O_NOFOLLOW|O_CLOEXEC and
//    accepts only a regular file; remove_if_same deletes a path only while it is still the open file.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace gib {

// At most max_bytes of s, bytes outside printable ASCII as \xNN, "..." when cut: what an error line may
// quote of a value the user controls (a megabyte-long or NUL-laden name stays one short line).
std::string excerpt(const std::string& s, std::size_t max_bytes = 60);

// A name gibench puts into a file name (a sweep's "name", a figure id): letters, digits, '-', '_', '.',
// not starting with '.', 1..kMaxNameBytes bytes. Throws InputError("<where>: ...") otherwise.
constexpr std::size_t kMaxNameBytes = 100;
void check_file_name_word(const std::string& name, const std::string& where);

// An input of a command, named for the error line ("the sweep config", "shard file").
struct NamedInput {
  std::filesystem::path path;
  std::string role;
};

// Throws InputError unless `path` can be written as described above; `flag` names it ("--out").
void check_output_file(const std::filesystem::path& path, const std::string& flag,
                       const std::vector<NamedInput>& inputs = {});
// The same for a directory that will receive outputs: it is a directory (or can be created under one)
// where this process can create files.
void check_output_dir(const std::filesystem::path& dir, const std::string& flag);

// Same file: same device and inode when both exist, else the same absolute path after resolving links.
bool same_file(const std::filesystem::path& a, const std::filesystem::path& b);

// Replaces `path` with `text` (see above). Creates missing parent directories.
void write_file_atomic(const std::filesystem::path& path, const std::string& text);

// Opens a regular file with O_NOFOLLOW|O_CLOEXEC added to flags (with O_CREAT, O_EXCL is added too: a
// new file, never an existing one). Throws InputError naming `what` on a link, a non-regular file or an
// open error.
int open_owned_file(const std::filesystem::path& path, int flags, const std::string& what);
// Unlinks path if it still names the file open as fd; returns whether it did.
bool remove_if_same(const std::filesystem::path& path, int fd);

}  // namespace gib
