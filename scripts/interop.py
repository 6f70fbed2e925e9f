#!/usr/bin/env python3
"""A sweep's outputs in Python: the per-game CSV with pandas, the JSON summary with json, and its
base64 HdrHistograms with the `hdrhistogram` package from PyPI.

    pip install pandas hdrhistogram
    warsweep sweep --seeds 0..100000 --csv games.csv --summary summary.json
    python3 scripts/interop.py games.csv summary.json

Prints the same figures computed from the CSV and from the summary, and exits 1 if they disagree
(CI runs it).
"""
import json
import sys

import pandas as pd
from hdrh.histogram import HdrHistogram


def main(csv_path: str, summary_path: str) -> int:
    games = pd.read_csv(csv_path)
    with open(summary_path) as f:
        summary = json.load(f)
    # Every histogram of the summary, decoded: rounds, battles, wars, cycle_start, cycle_length.
    hist = {name: HdrHistogram.decode(text) for name, text in summary["histograms"].items()}

    finished = games[games.outcome.isin(["win", "draw"])]
    infinite = games[games.outcome == "infinite"]
    battles = hist["battles"]
    rows = [
        ("games", len(games), summary["games"]),
        ("player 1 wins", int((games.winner == 1).sum()), summary["wins"][0]),
        ("infinite games", len(infinite), summary["infinite"]),
        ("finished games (histogram)", len(finished), battles.get_total_count()),
        ("battles, total", int(finished.battles.sum()), summary["battles"]["total"]),
        ("battles, max", int(finished.battles.max()), summary["battles"]["max"]),
        # HdrHistogram keeps 3 significant digits: the median agrees to 0.1%.
        ("battles, median", float(finished.battles.median()), battles.get_value_at_percentile(50)),
        # The summary's max is exact (a histogram's would be its bucket's: 2,185 for 2,184).
        ("cycle length, max", int(infinite.cycle_length.max()), summary["cycle_length"]["max"]),
    ]
    ok = True
    print(f"{'':28}{'from the CSV':>16}{'from the summary':>18}")
    for label, from_csv, from_summary in rows:
        agree = abs(from_csv - from_summary) <= 0.001 * max(abs(from_csv), 1) + 1
        ok &= agree
        print(f"{label:28}{from_csv:>16,.0f}{from_summary:>18,.0f}{'' if agree else '  DIFFERENT'}")
    # The mean, standard deviation and sum of squares are exact: they agree to the last digits.
    rounds = finished.rounds.astype("int64")
    exact = [
        ("rounds, sum of squares", int((rounds**2).sum()), summary["rounds"]["squares"]),
        ("rounds, mean", float(rounds.mean()), summary["rounds"]["mean"]),
        ("rounds, stdev", float(rounds.std(ddof=0)), summary["rounds"]["stdev"]),
    ]
    for label, from_csv, from_summary in exact:
        agree = abs(from_csv - from_summary) <= 1e-9 * abs(from_csv)
        ok &= agree
        print(f"{label:28}{from_csv:>16,.2f}{from_summary:>18,.2f}{'' if agree else '  DIFFERENT'}")
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
