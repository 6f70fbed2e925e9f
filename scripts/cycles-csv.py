#!/usr/bin/env python3
"""Rows of data/research/cycles.csv from hunts for cycles: for each DECK:GATHER, one hunt
(`warsweep hunt --for cycles FLAGS`), one row a cycle it keeps (with `--periods P,Q`, only the first kept cycle of each of these
lengths). With `--deals FILE` (deals as
`play` reads them on one line, `1,2,...|3,4,...`, found another way: scripts/deals-into.py's
output), one row a line, its cycle named by a hunt that starts from it, and `--method` and
`--budget` say how it was found. `--rules "--rules classic --face-down 3"` names rules other than
`bataille`'s (written in the `rules` column). Each row's `aligned` (some state of the cycle has equal hands:
yes or no) is what `warsweep play --certify` says of its deal. Usage:

    scripts/cycles-csv.py --flags "--strategy construct --games 4096 --keep 5" \
        --processor "AMD EPYC" 4x10:natural 4x12:natural >> data/research/cycles.csv
    scripts/cycles-csv.py --flags "--strategy shapes --games 1024 --keep 1024 --threads 2" \
        --periods 507,1002 --processor "AMD EPYC" 4x13:sorted >> data/research/cycles.csv
    scripts/cycles-csv.py --deals D.txt --found 1000 --method placed-wars --budget "..." \
        --processor "AMD EPYC" 4x13:sorted >> data/research/cycles.csv
"""
import argparse, json, os, shlex, subprocess, tempfile

def main():
    args = argparse.ArgumentParser()
    args.add_argument("--flags", default="")
    args.add_argument("--deals", help="deals found another way, one a line")
    args.add_argument("--found", default="", help="with --deals: the deals found for each cycle")
    args.add_argument("--method", default="")
    args.add_argument("--budget", default="")
    args.add_argument("--processor", required=True)
    args.add_argument("--header", action="store_true")
    args.add_argument("--rules", default="--rules bataille", help="the rules' flags but --deck and --gather")
    args.add_argument("--periods", default="", help="rows of the first kept cycle of each of these lengths only, P,Q,...")
    args.add_argument("settings", nargs="+")
    a = args.parse_args()
    binary = os.environ.get("WARSWEEP", "target/release/warsweep")
    if a.header:
        print("deck,gather,period,least_state,deal,deals_found,method,budget,processor,aligned,rules")
    for setting in a.settings:
        deck, gather = setting.split(":")
        if a.deals:
            for line in open(a.deals):
                if "|" in line:
                    given(binary, deck, gather, line.strip(), a)
            continue
        flags = shlex.split(a.flags)
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "r.json")
            subprocess.run([binary, "hunt", *shlex.split(a.rules), "--deck", deck, "--gather", gather,
                            "--for", "cycles", *flags, "--out", out], check=True,
                           stdout=subprocess.DEVNULL)
            report = json.load(open(out))
        method = report["strategy"]
        budget = " ".join(f for f in flags if f not in ("--strategy", method))
        wanted = {int(p) for p in a.periods.split(",") if p}
        for deal in report["best"]:
            if a.periods and deal["cycle_length"] not in wanted:
                continue
            wanted.discard(deal["cycle_length"])
            print(f'{deck},{gather},{deal["cycle_length"]},{deal["cycle"]},"{deal["hands"]}",'
                  f'{deal.get("reached", "")},{method},seed {report["seed"]} {budget},{a.processor},'
                  f'{aligned(binary, a.rules, deck, gather, deal["hands"])},{a.rules}')

def given(binary, deck, gather, deal, a):
    """The row of a deal found another way, its cycle named by a hunt that starts from it."""
    with tempfile.TemporaryDirectory() as tmp:
        start, out = os.path.join(tmp, "deal.txt"), os.path.join(tmp, "r.json")
        open(start, "w").write(deal.replace("|", "\n") + "\n")
        subprocess.run([binary, "hunt", *shlex.split(a.rules), "--deck", deck, "--gather", gather,
                        "--for", "cycles", "--start", start, "--games", "1", "--threads", "1",
                        "-q", "--out", out], check=True, stdout=subprocess.DEVNULL)
        [best] = json.load(open(out))["best"]
    assert best["outcome"] == "infinite", deal
    print(f'{deck},{gather},{best["cycle_length"]},{best["cycle"]},"{deal}",'
          f'{a.found},{a.method},"{a.budget}",{a.processor},{aligned(binary, a.rules, deck, gather, deal)},'
          f'{a.rules}')

def aligned(binary, rules, deck, gather, deal):
    """`yes` where `warsweep play --certify` says the deal's cycle is aligned, else `no`."""
    said = subprocess.run([binary, "play", *shlex.split(rules), "--deck", deck, "--gather", gather,
                           "--certify"], input=deal.replace("|", "\n") + "\n", check=True,
                          capture_output=True, text=True).stdout
    return "yes" if "\nAligned: " in said else "no"

if __name__ == "__main__":
    main()
