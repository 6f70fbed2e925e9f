#!/usr/bin/env bash
# Builds data/research/records.csv: the published longest games, and warsweep's beside them.
#
#   scripts/records.sh CRISTAL_CHECKOUT BATAILLE_CPP_CHECKOUT [STATES] > records.csv
#
# The published rows come from the two record tables (scripts/published-records.py); warsweep's
# rows are, for a deck the census walked whole, its longest game of all (exhaustive-records.py),
# and for every other deck the published game extended backward with STATES states (default
# 100000000; scripts/extend-records.sh). Checkouts: `git clone
# https://github.com/cristal-smac/bataille` and `.../legrosbuffle/bataille_cpp`. Then
# `scripts/records-table.py` prints docs/research.md's table.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/find-warsweep.sh"
find_warsweep
export WARSWEEP=$bin
cristal=${1:?usage: scripts/records.sh CRISTAL_CHECKOUT BATAILLE_CPP_CHECKOUT [STATES]}
bcpp=${2:?usage: scripts/records.sh CRISTAL_CHECKOUT BATAILLE_CPP_CHECKOUT [STATES]}
states=${3:-100000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/published-records.py" "$cristal" "$bcpp" > "$work/published.csv"
python3 "$here/exhaustive-records.py" "$work/published.csv" > "$work/exhaustive.csv"
# Every published setting the census did not walk whole is extended backward.
ONLY=$(python3 - "$work/published.csv" "$work/exhaustive.csv" <<'PY'
import csv, sys
walked = {(r["deck"], r["gather"]) for r in csv.DictReader(open(sys.argv[2]))}
print(" ".join(f"{r['deck']}:{r['gather']}" for r in csv.DictReader(open(sys.argv[1]))
               if (r["deck"], r["gather"]) not in walked))
PY
)
ONLY=$ONLY "$here/extend-records.sh" "$work/published.csv" "$states" > "$work/extended.csv"
cat "$work/published.csv"
tail -n +2 "$work/exhaustive.csv"
tail -n +2 "$work/extended.csv"
