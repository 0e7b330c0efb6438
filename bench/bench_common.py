"""Shared by the benchmark report scripts: run gibench_bench to a JSON file, the CPU model, atomic writes."""
import json
import os
import stat
import subprocess
import sys
import tempfile


def run_benchmarks(binary, args, env=None):
    """Run the Google Benchmark binary with `args` and return its JSON output."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        out = f.name
    cmd = [binary] + list(args) + ["--benchmark_out=" + out, "--benchmark_out_format=json"]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
    with open(out) as f:
        data = json.load(f)
    os.unlink(out)
    return data


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def write_atomic(path, text):
    """Write `text` to a private temporary file beside `path`, then rename it over `path`: a reader never sees half a
    report. As everywhere in gibench (README, File safety), only a new or regular file is replaced: a link or
    anything else at `path` is somebody's, and is refused; the temporary name is mkstemp's, never a fixed one a link
    could already hold."""
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)

    def refuse_non_regular():
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            return
        if not stat.S_ISREG(st.st_mode):
            sys.stderr.write("%s: error: %s is %s; a report replaces only a new or regular file\n" % (
                os.path.basename(sys.argv[0]), path, "a symbolic link" if stat.S_ISLNK(st.st_mode) else "not a regular file"))
            sys.exit(2)

    refuse_non_regular()
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=d)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        with os.fdopen(fd, "w") as f:
            f.write(text)
        refuse_non_regular()
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
