#!/usr/bin/env python3
"""Rows of data/research/cycles.csv from hunts for cycles: for each DECK:GATHER, one hunt
(`warsweep hunt --for cycles FLAGS`), one row a cycle it keeps. Usage:

    scripts/cycles-csv.py --flags "--strategy construct --games 4096 --keep 5" \
        --processor "AMD EPYC" 4x10:natural 4x12:natural >> data/research/cycles.csv
"""
import argparse, json, os, shlex, subprocess, tempfile

def main():
    args = argparse.ArgumentParser()
    args.add_argument("--flags", required=True)
    args.add_argument("--processor", required=True)
    args.add_argument("--header", action="store_true")
    args.add_argument("settings", nargs="+")
    a = args.parse_args()
    binary = os.environ.get("WARSWEEP", "target/release/warsweep")
    if a.header:
        print("deck,gather,period,least_state,deal,deals_found,method,budget,processor")
    for setting in a.settings:
        deck, gather = setting.split(":")
        flags = shlex.split(a.flags)
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "r.json")
            subprocess.run([binary, "hunt", "--deck", deck, "--gather", gather, "--for", "cycles",
                            *flags, "--out", out], check=True, stdout=subprocess.DEVNULL)
            report = json.load(open(out))
        method = report["strategy"]
        budget = " ".join(f for f in flags if f not in ("--strategy", method))
        for deal in report["best"]:
            print(f'{deck},{gather},{deal["cycle_length"]},{deal["cycle"]},"{deal["hands"]}",'
                  f'{deal.get("reached", "")},{method},seed {report["seed"]} {budget},{a.processor}')

if __name__ == "__main__":
    main()
