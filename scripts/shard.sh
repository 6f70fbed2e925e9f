#!/usr/bin/env bash
# Splits a sweep into shards, plays them, and merges their summaries.
#
#   scripts/shard.sh START END SHARDS OUTDIR [sweep flags...]
#
# Shard k of SHARDS plays its share of START..END into OUTDIR/shard-k.json and
# OUTDIR/shard-k.csv; then OUTDIR/all.json is the merge of every shard (the same summary one sweep
# over START..END writes, timings aside) and OUTDIR/all.csv their CSVs joined in seed order.
#
# On a cluster, run one shard per task by setting SHARD=k (for example SHARD=$SLURM_ARRAY_TASK_ID)
# and merge afterwards with SHARD=merge. Without SHARD, every shard runs here, one after another.
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: $0 START END SHARDS OUTDIR [sweep flags...]" >&2
  exit 2
fi
start=$1 end=$2 shards=$3 outdir=$4
shift 4
bin=${WARSWEEP:-$(dirname "$0")/../target/release/warsweep}
mkdir -p "$outdir"

shard_range() { # k -> "a..b"
  local k=$1 size=$(( (end - start + shards - 1) / shards ))
  local a=$(( start + k * size )) b=$(( start + (k + 1) * size ))
  if (( b > end )); then b=$end; fi
  echo "$a..$b"
}

run_shard() {
  local k=$1
  shift
  "$bin" sweep --seeds "$(shard_range "$k")" "$@" --quiet \
    --summary "$outdir/shard-$k.json" --csv "$outdir/shard-$k.csv"
}

merge() {
  local inputs=()
  for k in $(seq 0 $((shards - 1))); do inputs+=("$outdir/shard-$k.json"); done
  "$bin" merge "${inputs[@]}" --summary "$outdir/all.json"
  head -n 1 "$outdir/shard-0.csv" > "$outdir/all.csv"
  for k in $(seq 0 $((shards - 1))); do tail -n +2 "$outdir/shard-$k.csv" >> "$outdir/all.csv"; done
}

case "${SHARD:-all}" in
  all) for k in $(seq 0 $((shards - 1))); do run_shard "$k" "$@"; done; merge ;;
  merge) merge ;;
  *) run_shard "$SHARD" "$@" ;;
esac
