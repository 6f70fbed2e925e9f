#!/usr/bin/env bash
# The README's picture: rounds per finished game under the five presets, over the same 100,000
# lcg deals. One summary a preset, then `plot --metric rounds`.
#
#   scripts/presets-plot.sh [OUT.svg]     default data/presets-rounds.svg
#
# The binary is $WARSWEEP, else warsweep on PATH, else the cargo target folder. A test
# (tests/suite/readme.rs) draws it again and compares it with the committed file.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/find-warsweep.sh"
find_warsweep
out=${1:-$here/../data/presets-rounds.svg}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
summaries=()
for preset in codingame shortened classic oorlog bataille; do
  "$bin" sweep --rules "$preset" --seeds 0..100000 -q --summary "$work/$preset.json"
  summaries+=("$work/$preset.json")
done
"$bin" plot "${summaries[@]}" --metric rounds -o "$out"
