#!/usr/bin/env python3
"""What a rule costs per battle against the rule it resembles, on each path of the engine.

Each pair of sweeps differs in one rule (loser-first against winner-first, pair-first against
natural, cyclic against standard) and plays on one path (two machine words, interleaved bytes,
runs of many players). The two sweeps run alternately, RUNS times each, on one thread; each
run's wall time is divided by the battles it played (the "battles played" of its summary), and
the ratio of the medians is printed. Instruction counts per battle (callgrind, a smaller range)
are printed beside them when valgrind is installed: they do not depend on the machine's load.

    scripts/rule-cost.py                  # every pair, 5 runs each
    RUNS=3 scripts/rule-cost.py loser     # the pairs whose name contains "loser"
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("WARSWEEP", os.path.join(ROOT, "target", "release", "warsweep"))
RUNS = int(os.environ.get("RUNS", "5"))

# name, path, the rule's flags, the flags of the rule it resembles, seeds (timed), seeds (callgrind)
PAIRS = [
    ("loser-first/words", "packed", "--rules classic --deck 4x4 --shuffle lex --gather loser-first",
     "--rules classic --deck 4x4 --shuffle lex --gather winner-first", "0..20000000", "0..300000"),
    ("loser-first/bytes", "pair", "--rules classic --gather loser-first",
     "--rules classic --gather winner-first", "0..1000000", "0..50000"),
    ("loser-first/crowd", "crowd", "--rules oorlog --players 5 --gather loser-first",
     "--rules oorlog --players 5 --gather winner-first", "0..200000", "0..20000"),
    ("pair-first/words", "packed", "--rules bataille --deck 4x4 --shuffle lex --gather pair-first",
     "--rules bataille --deck 4x4 --shuffle lex --gather natural", "0..20000000", "0..300000"),
    ("pair-first/bytes", "pair", "--rules classic --gather pair-first",
     "--rules classic --gather natural", "0..1000000", "0..50000"),
    ("pair-first/crowd", "crowd", "--rules oorlog --players 3 --gather pair-first",
     "--rules oorlog --players 3 --gather natural", "0..200000", "0..20000"),
    # The cyclic ranking resembles oorlog's: one exception to "the higher value wins".
    ("cyclic/words", "packed", "--rules classic --deck 2x13 --shuffle splitmix --ranking cyclic",
     "--rules classic --deck 2x13 --shuffle splitmix --ranking oorlog", "0..3000000", "0..200000"),
    ("cyclic/bytes", "pair", "--rules classic --ranking cyclic",
     "--rules classic --ranking oorlog", "0..1000000", "0..50000"),
    ("cyclic/crowd", "crowd", "--rules oorlog --players 3 --ranking cyclic",
     "--rules oorlog --players 3 --ranking oorlog", "0..200000", "0..20000"),
]


def sweep(flags, seeds, summary):
    """Runs one sweep on one thread; its wall time and the battles it played."""
    args = [BIN, "sweep", *flags.split(), "--seeds", seeds, "--threads", "1", "-q",
            "--summary", summary]
    start = time.perf_counter()
    subprocess.run(args, check=True)
    wall = time.perf_counter() - start
    with open(summary) as f:
        return wall, json.load(f)["battles_played"]


def instructions(flags, seeds, work):
    """Instructions per battle under callgrind, or None without valgrind."""
    if shutil.which("valgrind") is None:
        return None
    out, summary = os.path.join(work, "cg.out"), os.path.join(work, "cg.json")
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", BIN, "sweep",
         *flags.split(), "--seeds", seeds, "--threads", "1", "-q", "--summary", summary],
        check=True, capture_output=True, text=True)
    collected = [l for l in run.stderr.splitlines() if "Collected" in l][0]
    with open(summary) as f:
        battles = json.load(f)["battles_played"]
    return int(collected.split()[-1]) / battles


def main():
    wanted = sys.argv[1:]
    print(f"binary: {BIN}; {RUNS} alternating runs of each sweep, one thread")
    print("| rule | path | ns a battle (rule) | ns a battle (resembled) | ratio | "
          "instructions a battle (rule / resembled) |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        summary = os.path.join(work, "s.json")
        for name, path, rule, like, seeds, cg_seeds in PAIRS:
            if wanted and not any(w in name for w in wanted):
                continue
            per = {rule: [], like: []}
            for _ in range(RUNS):
                for flags in (rule, like):
                    wall, battles = sweep(flags, seeds, summary)
                    per[flags].append(wall / battles * 1e9)
            a, b = statistics.median(per[rule]), statistics.median(per[like])
            ia, ib = instructions(rule, cg_seeds, work), instructions(like, cg_seeds, work)
            inst = "-" if ia is None else f"{ia:.1f} / {ib:.1f} ({ia / ib:.3f})"
            print(f"| {name.split('/')[0]} | {path} | {a:.2f} | {b:.2f} | {a / b:.3f} | {inst} |",
                  flush=True)


if __name__ == "__main__":
    main()
