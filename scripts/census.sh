#!/usr/bin/env bash
# A census of small decks: every deal of every deck shape CxV (C <= 8 copies, V <= 64 values, at
# least 2 cards) with at most $CENSUS_MAX_DEALS deals (default 10^9) and at least
# $CENSUS_MIN_DEALS (default 1: every shape; raise it to walk only the larger shapes of a wider
# census), under `bataille` with the `natural` and `sorted` gathers; one CSV row a shape and
# gather:
#
#   deck,gather,deals,p1_wins,p2_wins,draws,infinite,distinct_cycles,cycle_lengths,
#   most_rounds,most_rounds_seed,seconds
#
# `cycle_lengths`: the distinct cycles' lengths, ascending, space separated (empty: none);
# `most_rounds` and its seed: the longest finished game (empty: none finished); `seconds`: the
# walk's time here.
#
#   scripts/census.sh [OUT.csv]           every shape on this machine (default
#                                         data/research/census.csv)
#   scripts/census.sh --part K/N DIR      part K (from 0) of N, rows to DIR/part-K.csv; with no
#                                         K/N, a Slurm array task's (SLURM_ARRAY_TASK_ID/COUNT)
#   scripts/census.sh --join DIR N OUT    the N parts' rows, in the census's order, to OUT
#
# As a Slurm job array of 8 tasks, then the join once all have succeeded:
#
#   job=$(sbatch --parsable --array=0-7 --cpus-per-task=2 scripts/census.sh --part ~/census)
#   sbatch --dependency=afterok:$job scripts/census.sh --join ~/census 8 census.csv
#
# The binary is $WARSWEEP, else warsweep on PATH, else the cargo target folder.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" 2>/dev/null && pwd)
# Under sbatch the script runs from a copy: the repository is where it was submitted.
if [ -n "${SLURM_SUBMIT_DIR:-}" ] && [ ! -f "$here/find-warsweep.sh" ]; then
  here=$SLURM_SUBMIT_DIR/scripts
fi
. "$here/find-warsweep.sh"
max_deals=${CENSUS_MAX_DEALS:-1000000000}
min_deals=${CENSUS_MIN_DEALS:-1}
gathers=${CENSUS_GATHERS:-natural sorted}
header=deck,gather,deals,p1_wins,p2_wins,draws,infinite,distinct_cycles,cycle_lengths,most_rounds,most_rounds_seed,seconds

# Every unit of the census, one a line: `deck gather deals`, in the census's order.
units() {
  python3 - "$min_deals" "$max_deals" "$gathers" <<'EOF'
import math, sys
least, limit, gathers = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3].split()
for c in range(1, 9):
    for v in range(1, 65):
        if c * v < 2:
            continue
        deals = math.factorial(c * v) // math.factorial(c) ** v
        if least <= deals <= limit:
            for g in gathers:
                print(f"{c}x{v} {g} {deals}")
EOF
}

# Walks one deck under one gather and prints its row.
walk() {
  local deck=$1 gather=$2 tmp
  tmp=$(mktemp -d)
  local started=$SECONDS
  "$bin" sweep --rules bataille --deck "$deck" --gather "$gather" --shuffle lex --quiet \
    --summary "$tmp/summary.json" --cycles "$tmp/cycles.csv"
  local seconds=$((SECONDS - started))
  python3 - "$tmp/summary.json" "$deck" "$gather" "$seconds" <<'EOF'
import json, sys
path, deck, gather, seconds = sys.argv[1:]
s = json.load(open(path))
cycles = s["cycles"]
lengths = " ".join(str(n) for n in sorted({c["cycle_length"] for c in cycles}))
most = s["records"]["most_rounds"]
print(",".join(str(x) for x in [
    deck, gather, s["games"], s["wins"][0], s["wins"][1], s["draws"], s["infinite"],
    len(cycles), lengths, most["value"] if most else "", most["seed"] if most else "", seconds,
]))
EOF
  rm -rf "$tmp"
}

# Rows of the units numbered K mod N (the largest decks spread over the parts), to stdout.
part() {
  local k=$1 n=$2 i=0 deck gather deals
  while read -r deck gather deals; do
    if (( i % n == k )); then walk "$deck" "$gather"; fi
    i=$((i + 1))
  done < <(units)
}

case ${1:-} in
  --part)
    if [ $# -eq 3 ]; then
      k=${2%/*} n=${2#*/} dir=$3
    elif [ $# -eq 2 ] && [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then
      k=$SLURM_ARRAY_TASK_ID n=${SLURM_ARRAY_TASK_COUNT:?not in a Slurm job array} dir=$2
    else
      echo "usage: $0 --part K/N DIR (or --part DIR in a Slurm job array)" >&2
      exit 2
    fi
    find_warsweep
    mkdir -p "$dir"
    part "$k" "$n" > "$dir/.part-$k.csv.writing"
    mv "$dir/.part-$k.csv.writing" "$dir/part-$k.csv"
    ;;
  --join)
    [ $# -eq 4 ] || { echo "usage: $0 --join DIR N OUT.csv" >&2; exit 2; }
    dir=$2 n=$3 out=$4
    for k in $(seq 0 $((n - 1))); do
      [ -f "$dir/part-$k.csv" ] || { echo "$dir/part-$k.csv is missing: part $k has not finished" >&2; exit 1; }
    done
    # Each part is written whole or not at all, so N parts hold every row: put them in the
    # census's order (copies, values, then the gathers' order) and refuse a row met twice.
    python3 - "$header" "$gathers" "$dir" "$n" > "$out.joining" <<'EOF' || { rm -f "$out.joining"; exit 1; }
import sys
header, gathers, folder, n = sys.argv[1], sys.argv[2].split(), sys.argv[3], int(sys.argv[4])
rows = {}
for k in range(n):
    for line in open(f"{folder}/part-{k}.csv"):
        deck, gather = line.split(",")[:2]
        if (deck, gather) in rows:
            sys.exit(f"{deck} {gather} is in two parts of {folder}: join the parts of one census")
        rows[deck, gather] = line
def order(key):
    c, v = key[0].split("x")
    return int(c), int(v), gathers.index(key[1]) if key[1] in gathers else len(gathers)
print(header)
for key in sorted(rows, key=order):
    sys.stdout.write(rows[key])
EOF
    mv "$out.joining" "$out"
    ;;
  -*)
    echo "usage: $0 [OUT.csv] | --part K/N DIR | --join DIR N OUT.csv" >&2
    exit 2
    ;;
  *)
    out=${1:-$here/../data/research/census.csv}
    find_warsweep
    mkdir -p "$(dirname "$out")"
    started=$SECONDS
    { echo "$header"; part 0 1; } > "$out.writing"
    mv "$out.writing" "$out"
    echo "census: $(($(wc -l < "$out") - 1)) rows in $((SECONDS - started)) s to $out" >&2
    ;;
esac
