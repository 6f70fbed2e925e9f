#!/usr/bin/env python3
"""A summary-only sweep from Python against the same sweep from the command line: every
distinct lcg deal under `shortened` (seeds 0..2097151) on all cores, RUNS times each,
alternating (each side first in every other pair); prints the medians and their ratio. Needs the module installed (`pip install .`)
and the binary built (`cargo build --release`).

    python3 scripts/python-speed.py [RUNS] [THREADS]

THREADS (all cores by default) is given to both; one thread is the least noisy comparison on a
shared machine.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

import warsweep

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.environ.get("WARSWEEP", os.path.join(ROOT, "target", "release", "warsweep"))


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else os.cpu_count()
    py, cli = [], []
    with tempfile.TemporaryDirectory() as work:
        summary = os.path.join(work, "s.json")
        def run_python():
            start = time.perf_counter()
            swept = warsweep.sweep((0, 2097151), rules="shortened", rows=False, threads=threads)
            assert swept.summary["games"] == 2097151
            py.append(time.perf_counter() - start)

        def run_cli():
            start = time.perf_counter()
            subprocess.run([CLI, "sweep", "--seeds", "0..2097151", "-q", "--summary", summary,
                            "--threads", str(threads)], check=True)
            cli.append(time.perf_counter() - start)

        # Each side goes first in every other pair, so that neither gains from the order.
        for i in range(runs):
            for run in (run_python, run_cli) if i % 2 == 0 else (run_cli, run_python):
                run()
    a, b = statistics.median(py), statistics.median(cli)
    print(f"{runs} runs each on {threads} threads, alternating, each first in turn; Python {a:.3f} s (min {min(py):.3f}, max {max(py):.3f}),"
          f" command line {b:.3f} s (min {min(cli):.3f}, max {max(cli):.3f}); ratio {a / b:.3f}")


if __name__ == "__main__":
    main()
