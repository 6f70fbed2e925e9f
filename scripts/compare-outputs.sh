#!/bin/bash
# Compares the outputs of two warsweep binaries over 40 settings: the per-game CSV, the histogram
# CSV and the summary (its timings aside) must be byte-identical. Across a change of the summary
# format, SKIP_KEYS names the summary's keys (and histograms) to leave out of the comparison:
#   scripts/compare-outputs.sh OLD_BINARY NEW_BINARY
#   SKIP_KEYS="version capped_rounds capped_battles capped_wars" scripts/compare-outputs.sh OLD NEW
set -u
old=$1; new=$2; n=0; diffs=0
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; cd "$work"
while read -r args; do
  [ -z "$args" ] && continue
  for who in old new; do
    bin=${!who}
    $bin sweep $args -q --threads 2 --csv $who.csv --hist $who.hist --summary $who.json 2>/dev/null || echo "fail $who: $args"
  done
  python3 -c "
import json,sys
a=json.load(open('old.json')); b=json.load(open('new.json'))
for k in ['elapsed_seconds','games_per_second'] + '${SKIP_KEYS:-}'.split():
    for d in (a, b, a.get('histograms', {}), b.get('histograms', {})): d.pop(k, None)
sys.exit(0 if a==b else 1)" || { echo "summary differs: $args"; diffs=$((diffs+1)); }
  # Byte for byte too (but the timings), where no key is left out.
  if [ -z "${SKIP_KEYS:-}" ]; then
    strip() { grep -v '"elapsed_seconds"\|"games_per_second"' "$1"; }
    cmp -s <(strip old.json) <(strip new.json) || { echo "summary bytes differ: $args"; diffs=$((diffs+1)); }
  fi
  cmp -s old.csv new.csv || { echo "csv differs: $args"; diffs=$((diffs+1)); }
  cmp -s old.hist new.hist || { echo "hist differs: $args"; diffs=$((diffs+1)); }
  n=$((n+1))
done <<'LIST'
--seeds 0..20000
--rules codingame --seeds 0..20000
--rules classic --seeds 0..20000
--rules oorlog --seeds 0..5000
--rules oorlog --players 6 --seeds 0..3000
--rules oorlog --players 12 --seeds 0..2000
--rules bataille --seeds 0..20000
--rules bataille --deck 4x4 --shuffle lex --seeds 0..200000
--rules bataille --deck 4x4 --shuffle lex --seeds 0..200000 --every-deal
--rules bataille --deck 2x5 --shuffle lex --cycles cyc.csv
--rules bataille --deck 1x10 --shuffle lex --seeds 900000..960000
--rules classic --won-pile shuffled --seeds 0..5000
--rules shortened --gather random --seeds 0..5000 --max-rounds 5000
--rules shortened --gather loser-first --seeds 0..10000
--rules shortened --gather natural --shuffle splitmix --seeds 0..10000
--rules shortened --gather pair-first --seeds 0..10000
--rules shortened --gather sorted --seeds 0..10000
--rules shortened --gather winner-first --seeds 0..10000
--rules classic --ranking cyclic --seeds 0..10000
--rules classic --deck 3x5+1 --seeds 0..10000
--rules classic --face-down 0 --deal blocks --seeds 0..10000
--rules codingame --short-war most-cards --players 3 --seeds 0..5000
--rules classic --short-war shorten --face-down 2 --seeds 0..10000
--rules bataille --deck 8x13+4 --players 5 --short-war most-cards --seeds 0..3000
--rules classic --shuffle splitmix --seeds 18446744073709550000..18446744073709551616
--rules codingame --shuffle lcg --seeds 2097000..2098000
--rules oorlog --ranking standard --seeds 0..5000
--rules bataille --deck 4x5 --shuffle lex --seeds 1000000..1100000
--rules bataille --deck 4x4 --shuffle lex --gather pair-first --seeds 0..100000
--rules bataille --deck 4x4 --shuffle lex --gather loser-first --seeds 0..100000
--rules bataille --deck 4x4 --shuffle lex --gather p1-first --seeds 0..100000
--rules bataille --deck 4x4 --shuffle lex --gather reveal --seeds 0..100000
--rules bataille --deck 4x4 --shuffle lex --gather sorted --seeds 0..100000
--rules classic --deck 4x4 --shuffle lex --gather natural --seeds 0..100000
--rules classic --deck 3x5 --shuffle lex --gather pair-first --seeds 0..100000
--rules shortened --deck 4x8 --gather loser-first --seeds 0..10000
--rules oorlog --players 4 --gather loser-first --seeds 0..3000
--rules oorlog --players 4 --gather natural --seeds 0..3000
--rules oorlog --players 5 --gather sorted --seeds 0..3000
--rules oorlog --players 3 --gather random --seeds 0..3000 --max-rounds 3000
LIST
echo "$n settings compared, $diffs differences"
[ "$diffs" -eq 0 ]
