#!/usr/bin/env bash
# Submits a hunt to Slurm as a job array of TASKS streams plus a join job that runs once every
# task has ended, and prints the two job ids.
#
#   scripts/slurm/hunt.sh OUTDIR TASKS [hunt flags...]
#
# Each task hunts its own stream of deals from the same --seed (give --games or --time: each
# task spends that budget). Settings, from the environment: CPUS (cores per task, default 2),
# TIME (per-task time limit), SIGNAL (seconds before it at which a task ends with its results
# written, default 60), SBATCH_ARGS, WARSWEEP (as for submit.sh).
# Results: OUTDIR/all.json (the joined report), all.csv (every task's log), all.txt (the best
# deals and the commands that replay them); each task's OUTDIR/hunt-K.json and hunt-K.csv.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 OUTDIR TASKS [hunt flags...]" >&2
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
export WARSWEEP=$bin
array=$(sbatch --parsable --array="0-$((tasks - 1))" --cpus-per-task="${CPUS:-2}" \
  ${TIME:+--time="$TIME"} --signal="B:TERM@${SIGNAL:-60}" --output="$outdir/slurm-%A_%a.out" \
  --export=ALL "${extra[@]}" "$here/hunt.sbatch" "$outdir" "$@")
array=${array%%;*}
inputs=()
for k in $(seq 0 $((tasks - 1))); do inputs+=("$outdir/hunt-$k.json"); done
join=$(sbatch --parsable --dependency="afterok:$array" --output="$outdir/slurm-join-%j.out" \
  --export=ALL "${extra[@]}" --wrap="\"$bin\" hunt --join ${inputs[*]} --out \"$outdir/all.json\" --log \"$outdir/all.csv\" > \"$outdir/.all.txt.writing\" && mv \"$outdir/.all.txt.writing\" \"$outdir/all.txt\"")
join=${join%%;*}
echo "$array $join"
