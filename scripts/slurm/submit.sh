#!/usr/bin/env bash
# Submits a sweep to Slurm as a job array of TASKS shards plus a merge job that runs once every
# shard has succeeded, and prints the two job ids.
#
#   scripts/slurm/submit.sh OUTDIR TASKS [sweep flags...]
#
# Settings, from the environment:
#   CPUS=2        cores per task (warsweep --threads)       TIME=...   per-task time limit (sbatch --time)
#   SIGNAL=120    seconds before the time limit at which a task stops, requeues and later resumes
#   CSV=1         also write per-game CSVs (shard-K.csv, then all.csv)
#   SBATCH_ARGS   more sbatch flags for both jobs (--partition=..., --account=...)
#   WARSWEEP      the binary (else warsweep on PATH, else this repository's target folder)
# Results: OUTDIR/all.json, all.hist.csv, all.svg, all.txt (and all.csv); logs OUTDIR/slurm-*.out.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 OUTDIR TASKS [sweep flags...]" >&2
  exit 2
fi
outdir=$1 tasks=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../find-warsweep.sh"
find_warsweep
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
# shellcheck disable=SC2206
extra=(${SBATCH_ARGS:-})
export WARSWEEP=$bin CSV=${CSV:-0}
array=$(sbatch --parsable --array="0-$((tasks - 1))" --cpus-per-task="${CPUS:-2}" \
  ${TIME:+--time="$TIME"} --signal="B:TERM@${SIGNAL:-120}" --output="$outdir/slurm-%A_%a.out" \
  --export=ALL "${extra[@]}" "$here/sweep.sbatch" "$outdir" "$@")
array=${array%%;*}
# No --kill-on-invalid-dep: a task that requeues itself passes through a cancelled state, and
# with that flag Slurm may kill the merge job then, although the array goes on to succeed.
merge=$(sbatch --parsable --dependency="afterok:$array" \
  --output="$outdir/slurm-merge-%j.out" --export=ALL "${extra[@]}" \
  "$here/merge.sbatch" "$outdir" "$tasks")
merge=${merge%%;*}
echo "$array $merge"
