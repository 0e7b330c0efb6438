"""Shared by the benchmark report scripts: run gibench_bench to a JSON file, the CPU model, atomic writes."""
import json
import os
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


def plot_module():
    """plots/gibench_plot.py: the project's figure style and its one atomic, link-refusing file writer."""
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "plots")
    if here not in sys.path:
        sys.path.insert(0, here)
    import gibench_plot
    return gibench_plot


def write_atomic(path, text):
    """Write a report's `text` as gibench writes every file (gibench_plot.replace_file: atomically, never through a
    link nor over something that is not a regular file); a refusal is one line and exit 2."""
    gp = plot_module()
    try:
        gp.replace_file(path, text.encode())
    except gp.GibenchError as e:
        sys.stderr.write("%s: error: %s\n" % (os.path.basename(sys.argv[0]), e))
        sys.exit(2)
