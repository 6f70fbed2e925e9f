#!/usr/bin/env bash
# Compares the hunt's strategies with random sampling, each over the same budget, several seeds
# and decks: one CSV row a hunt (`deck,gather,strategy,seed,budget,games,seconds,steps,best`).
#
#   scripts/hunt-strategies.sh OUT.csv [games|time] [BUDGET]
#
# `games` (the default) gives every hunt BUDGET games (default 2000000); `time` gives it BUDGET
# seconds (default 20). DECKS ("4x6:natural 4x8:natural 4x10:natural 4x8:sorted"), SEEDS
# ("1 2 3 4 5") and STRATEGIES ("random climb backward") choose the hunts; THREADS the cores
# (default all). WARSWEEP is the binary (else warsweep on PATH, else this repository's).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/find-warsweep.sh"
find_warsweep
out=${1:?usage: scripts/hunt-strategies.sh OUT.csv [games|time] [BUDGET]}
kind=${2:-games}
case $kind in
  games) budget=${3:-2000000}; flag=(--games "$budget") ;;
  time) budget=${3:-20}; flag=(--time "${budget}s") ;;
  *) echo "the budget is games or time, not $kind" >&2; exit 2 ;;
esac
threads=()
[ -n "${THREADS:-}" ] && threads=(-j "$THREADS")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "deck,gather,strategy,seed,budget,games,seconds,steps,best" > "$work/rows.csv"
for setting in ${DECKS:-4x6:natural 4x8:natural 4x10:natural 4x8:sorted}; do
  deck=${setting%%:*} gather=${setting#*:}
  for seed in ${SEEDS:-1 2 3 4 5}; do
    for strategy in ${STRATEGIES:-random climb backward}; do
      "$bin" hunt --deck "$deck" --gather "$gather" --strategy "$strategy" --seed "$seed" \
        "${flag[@]}" "${threads[@]}" --keep 1 -q --out "$work/report.json"
      python3 - "$work/report.json" "$deck" "$gather" "$strategy" "$seed" "$kind:$budget" \
        >> "$work/rows.csv" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
best = r["best"][0]["value"] if r["best"] else ""
print(",".join(sys.argv[2:7] + [str(r["games"]), f'{r["seconds"]:.2f}', str(r["steps"]), str(best)]))
PY
    done
  done
done
mv "$work/rows.csv" "$out"
python3 - "$out" <<'PY'
import csv, sys
from collections import defaultdict
rows = list(csv.DictReader(open(sys.argv[1])))
by = defaultdict(list)
for r in rows:
    by[(r["deck"], r["gather"], r["strategy"])].append(r)
print("deck    gather   strategy   mean best   mean s   best / random's (per seed, mean)")
for (deck, gather, strategy), rs in sorted(by.items()):
    random = {r["seed"]: float(r["best"]) for r in by[(deck, gather, "random")]}
    ratios = [float(r["best"]) / random[r["seed"]] for r in rs if r["seed"] in random]
    mean = sum(float(r["best"]) for r in rs) / len(rs)
    secs = sum(float(r["seconds"]) for r in rs) / len(rs)
    print(f"{deck:7} {gather:8} {strategy:10} {mean:9.1f} {secs:8.2f}   {sum(ratios) / len(ratios):.3f}")
PY
