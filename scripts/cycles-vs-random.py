#!/usr/bin/env python3
"""Distinct cycles a CPU-hour, the building strategies against random sampling, at equal CPU time.

Each (setting, strategy, seed) is one single-threaded `warsweep hunt --for cycles --time T`; the
distinct cycles its report keeps, scaled to an hour of T (the command's whole time, a building
strategy's census included; the report's `seconds` leave the census out). Usage:

    scripts/cycles-vs-random.py [--seconds 30] [--seeds 2] [--jobs 2]
        [--strategies random,construct,shapes] [--rules "--rules classic"] DECK:GATHER ... > table.csv
"""
import argparse, concurrent.futures, json, os, shlex, subprocess, tempfile

def hunt(binary, rules, deck, gather, strategy, seed, seconds):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        subprocess.run([binary, "hunt", *shlex.split(rules), "--deck", deck, "--gather", gather, "--for", "cycles",
                        "--strategy", strategy, "--seed", str(seed), "--time", f"{seconds}s",
                        "--threads", "1", "--keep", "1000000", "--out", out],
                       check=True, stdout=subprocess.DEVNULL)
        report = json.load(open(out))
    return len(report["best"]), report["games"], report["seconds"]

def main():
    args = argparse.ArgumentParser()
    args.add_argument("--seconds", type=int, default=30)
    args.add_argument("--seeds", type=int, default=2)
    args.add_argument("--jobs", type=int, default=2)
    args.add_argument("--strategies", default="random,construct,shapes")
    args.add_argument("--rules", default="", help="the rules' flags but --deck and --gather")
    args.add_argument("settings", nargs="+")
    a = args.parse_args()
    binary = os.environ.get("WARSWEEP", "target/release/warsweep")
    runs = [(s.split(":")[0], s.split(":")[1], strategy, seed)
            for s in a.settings for strategy in a.strategies.split(",") for seed in range(a.seeds)]
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        done = list(pool.map(lambda r: hunt(binary, a.rules, *r, a.seconds), runs))
    print("deck,gather,strategy,seed,seconds,games,cycles,cycles_an_hour")
    for (deck, gather, strategy, seed), (cycles, games, seconds) in zip(runs, done):
        print(f"{deck},{gather},{strategy},{seed},{seconds:.1f},{games},{cycles},{cycles * 3600 / a.seconds:.0f}")

if __name__ == "__main__":
    main()
