#!/usr/bin/env bash
# Splits a sweep into shards, plays them, and merges their summaries.
#
#   scripts/shard.sh START END SHARDS OUTDIR [sweep flags...]
#
# Shard k of SHARDS plays the k-th of SHARDS near-equal parts of START..END (`sweep --shard
# k/SHARDS`) into OUTDIR/shard-k.json and OUTDIR/shard-k.csv; then OUTDIR/all.json is the merge
# of every shard (the same summary one sweep over START..END writes, timings aside) and
# OUTDIR/all.csv their CSVs joined in seed order. Shards run with --resume: run the script again
# after a stop and each shard continues where it stopped.
#
# With SHARD=k only shard k runs (one task on a cluster), and SHARD=merge merges. For Slurm, see
# scripts/slurm/. The binary is $WARSWEEP, else warsweep on PATH, else the cargo target folder.
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: $0 START END SHARDS OUTDIR [sweep flags...]" >&2
  exit 2
fi
start=$1 end=$2 shards=$3 outdir=$4
shift 4
. "$(dirname "$0")/find-warsweep.sh"
find_warsweep
mkdir -p "$outdir"

run_shard() {
  local k=$1
  shift
  "$bin" sweep --seeds "$start..$end" --shard "$k/$shards" "$@" --quiet --resume \
    --summary "$outdir/shard-$k.json" --csv "$outdir/shard-$k.csv"
}

merge() {
  local inputs=()
  for k in $(seq 0 $((shards - 1))); do inputs+=("$outdir/shard-$k.json"); done
  "$bin" merge "${inputs[@]}" --summary "$outdir/all.json"
  # Joined beside the target and moved into place, like warsweep's own outputs.
  local joined=$outdir/.all.csv.joining
  head -n 1 "$outdir/shard-0.csv" > "$joined"
  for k in $(seq 0 $((shards - 1))); do tail -n +2 "$outdir/shard-$k.csv" >> "$joined"; done
  mv "$joined" "$outdir/all.csv"
}

case "${SHARD:-all}" in
  all) for k in $(seq 0 $((shards - 1))); do run_shard "$k" "$@"; done; merge ;;
  merge) merge ;;
  *) run_shard "$SHARD" "$@" ;;
esac
