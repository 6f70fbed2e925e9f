#!/usr/bin/env bash
# warsweep's rows of the record table: each published record's game extended backward.
#
#   scripts/extend-records.sh PUBLISHED.csv [STATES] > warsweep-rows.csv
#
# For each row of PUBLISHED.csv (scripts/published-records.py's output: deck, gather, ...,
# hands), runs `warsweep hunt --games 1 --start` on that deal alone with the backward strategy
# and STATES states (default 100000000), and prints warsweep's row: the longest deal found (the
# published one when none is longer), the budget (states, seconds) and the processor. ONLY
# ("4x12:natural 4x13:natural") picks rows; WARSWEEP is the binary.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/find-warsweep.sh"
find_warsweep
published=${1:?usage: scripts/extend-records.sh PUBLISHED.csv [STATES]}
states=${2:-100000000}
cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //; s/  */ /g')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "deck,gather,rounds,winner,hands,source,strategy,budget,processor"
python3 - "$published" > "$work/rows" <<'PY'
import csv, sys
for row in csv.DictReader(open(sys.argv[1])):
    print(row["deck"], row["gather"], row["hands"], row["rounds"])
PY
while read -r deck gather hands rounds; do
  if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $deck:$gather "* ]]; then continue; fi
  printf 'deck,gather,hands\n%s,%s,"%s"\n' "$deck" "$gather" "$hands" > "$work/start.csv"
  start=$(date +%s.%N)
  "$bin" hunt --rules bataille --deck "$deck" --gather "$gather" --games 1 -j 1 \
    --backward-states "$states" --start "$work/start.csv" --keep 1 -q --out "$work/report.json"
  end=$(date +%s.%N)
  python3 - "$work/report.json" "$deck" "$gather" "$states" "$start" "$end" "$cpu" <<'PY'
import csv, json, sys
report, deck, gather, states, start, end, cpu = sys.argv[1:]
best = json.load(open(report))["best"][0]
budget = f"{int(states):,} states backward, {float(end) - float(start):.0f} s on 1 core"
command = f"hunt --deck {deck} --gather {gather} --games 1 --backward-states {states} --start (the published deal)"
csv.writer(sys.stdout, lineterminator="\n").writerow(
    [deck, gather, best["rounds"], best["winner"], best["hands"], "warsweep",
     f"backward from the published record: {command}", budget, cpu])
PY
done < "$work/rows"
