"""Shared by the benchmark report scripts: run gibench_bench to a JSON file, the CPU model, atomic writes."""
import json
import os
import subprocess
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
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)
