#!/usr/bin/env bash
# Tests the Slurm scripts on a real single-node cluster started here (CI runs it; needs root).
#
#   scripts/slurm/ci-test.sh
#
# 1. A 4-task array plus its merge job: the merged summary and CSV equal one local sweep's.
# 2. A task whose time limit comes before its sweep ends: Slurm signals it, it stops cleanly,
#    requeues itself and resumes, until done; the result equals one local sweep's.
# 3. The census, and a hunt, as arrays joined; a hunt task stopped by its time limit, requeued
#    and resumed, ends with one local hunt's report.
# Starts its own cluster under a temporary folder and stops it by pid, whatever happens; safe
# to run twice in a row.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../find-warsweep.sh"
find_warsweep
export PATH=$PATH:/usr/sbin
"$here/local-cluster.sh" install
work=$(mktemp -d /tmp/warsweep-slurm.XXXXXX)
# munged runs as the munge user: it must reach its folder.
chmod 755 "$work"
cleanup() {
  "$here/local-cluster.sh" stop "$work/cluster" || true
  rm -rf "$work"
}
trap cleanup EXIT
SLURM_CONF=$("$here/local-cluster.sh" start "$work/cluster")
export SLURM_CONF WARSWEEP=$bin

fail() {
  echo "slurm test: $*" >&2
  for log in "$1"/slurm-*.out; do [ -f "$log" ] && { echo "== $log"; cat "$log"; } >&2; done
  exit 1
}

# Waits for job $1 to leave the queue (at most $2 seconds). A requeued task waits about two
# minutes before it may start again: the test lets it start five seconds after its requeue,
# which is all it skips (started again within the second of its requeue, a task is refused:
# "Job credential revoked", and the job fails).
wait_job() {
  local job=$1 limit=$2 start=$SECONDS state
  while :; do
    state=$(scontrol show job "$job" 2>/dev/null | grep -o 'JobState=[A-Z_]*' || true)
    case $state in
      JobState=COMPLETED) return 0 ;;
      JobState=FAILED | JobState=CANCELLED | JobState=TIMEOUT | JobState=NODE_FAIL | JobState=OUT_OF_MEMORY)
        echo "job $job ended as ${state#JobState=}" >&2
        return 1 ;;
    esac
    squeue -h -o '%i %r %S' 2>/dev/null | awk '$2 == "BeginTime" {print $1, $3}' |
      while read -r id begin; do
        if (( $(date -d "$begin" +%s 2>/dev/null || echo 0) > $(date +%s) + 15 )); then
          scontrol update JobId="$id" StartTime=now+5 2>/dev/null || true
        fi
      done
    if (( SECONDS - start > limit )); then squeue >&2 || true; return 1; fi
    sleep 1
  done
}

# Compares OUTDIR/all.json with a local sweep's summary, timings aside.
same_summary() {
  python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for s in (a, b):
    s.pop("elapsed_seconds"); s.pop("games_per_second")
sys.exit(0 if a == b else 1)
PY
}

echo "== a 4-task array and its merge job"
out=$work/array
ids=$(CSV=1 CPUS=1 "$here/submit.sh" "$out" 4 --seeds 0..400000 --rules classic)
wait_job "${ids#* }" 300 || fail "$out" "the array or its merge did not complete"
"$bin" sweep --seeds 0..400000 --rules classic -q --csv "$out/local.csv" --summary "$out/local.json"
cmp "$out/all.csv" "$out/local.csv" || fail "$out" "the merged CSV differs from one sweep's"
same_summary "$out/all.json" "$out/local.json" || fail "$out" "the merged summary differs from one sweep's"
echo "ok: merged summary and CSV equal one local sweep's"

echo "== a task that reaches its time limit resumes"
out=$work/limit
# One minute of time limit, the signal 55 s before it (Slurm sends it up to a minute early,
# here 24 to 29 s after each start): about 45 s of work on one core cannot finish in one go,
# and needs one or two restarts. The seed count is scaled to this machine's speed.
start=$(date +%s.%N)
"$bin" sweep --seeds 0..2000000 --shuffle splitmix --threads 1 -q --summary "$work/rate.json"
end=$(date +%s.%N)
seeds=$(python3 -c "print(int(2000000 / ($end - $start) * 45))")
ids=$(CPUS=1 TIME=1 SIGNAL=55 "$here/submit.sh" "$out" 1 --seeds "0..$seeds" --shuffle splitmix)
wait_job "${ids#* }" 900 || fail "$out" "the time-limited task did not complete"
grep -q "requeued, it resumes from its checkpoint" "$out"/slurm-*_0.out ||
  fail "$out" "the task was never stopped by its time limit"
grep -q "restart 1" "$out"/slurm-*_0.out || fail "$out" "the task did not start again"
"$bin" sweep --seeds "0..$seeds" --shuffle splitmix -q --summary "$out/local.json"
same_summary "$out/all.json" "$out/local.json" || fail "$out" "the resumed task's summary differs from one sweep's"
echo "ok: stopped $(grep -c 'requeued' "$out"/slurm-*_0.out) time(s) by its time limit, resumed to the same summary"

echo "== the census as a 2-task array and its join"
out=$work/census
mkdir -p "$out"
repo=$(cd "$here/../.." && pwd)
export CENSUS_MAX_DEALS=400000
job=$(cd "$repo" && sbatch --parsable --array=0-1 --cpus-per-task=1 --output="$out/slurm-%A_%a.out" \
  scripts/census.sh --part "$out/parts")
join=$(cd "$repo" && sbatch --parsable --dependency=afterok:"${job%%;*}" --output="$out/slurm-join.out" \
  scripts/census.sh --join "$out/parts" 2 "$out/census.csv")
wait_job "$join" 300 || fail "$out" "the census array or its join did not complete"
"$repo/scripts/census.sh" "$out/local.csv"
strip() { cut -d, -f1-11 "$1"; }
diff <(strip "$out/census.csv") <(strip "$out/local.csv") || fail "$out" "the census array differs from one run's"
echo "ok: the census array's $(($(wc -l < "$out/census.csv") - 1)) rows equal one run's"

echo "== a hunt as a 2-task array and its join"
out=$work/hunt
flags=(--deck 4x6 --games 40000 --seed 7 --keep 5)
ids=$(CPUS=1 "$here/hunt.sh" "$out" 2 "${flags[@]}")
wait_job "${ids#* }" 300 || fail "$out" "the hunt array or its join did not complete"
for k in 0 1; do
  "$bin" hunt "${flags[@]}" --shard "$k/2" -q --out "$out/local-$k.json"
done
"$bin" hunt --join "$out/local-0.json" "$out/local-1.json" -q --out "$out/local.json"
# The same best deals and the same games, whichever machine hunted (timings aside).
same_hunt() {
  python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for r in (a, b):
    r.pop("seconds")
    for e in r["log"]:
        e.pop("seconds")
sys.exit(0 if a == b else 1)
PY
}
same_hunt "$out/all.json" "$out/local.json" || fail "$out" "the joined hunt differs from the two streams hunted here"
grep -q "^#1 " "$out/all.txt" || fail "$out" "the join printed no best deal"
[ "$(head -n 1 "$out/all.csv")" = "stream,seconds,games,value,hands,built,fell_back" ] || fail "$out" "the joined log has no header"
echo "ok: the hunt array's best deals and log equal two streams hunted here"

echo "== a hunt task that reaches its time limit resumes"
out=$work/hunt-limit
# As the sweep's above: about 40 s of work on one core, stopped 24 to 29 s after each start.
hunt=(--deck 4x8 --strategy random --seed 5)
start=$(date +%s.%N)
"$bin" hunt "${hunt[@]}" --games 1000000 -j 1 -q --out "$work/hunt-rate.json"
end=$(date +%s.%N)
games=$(python3 -c "print(int(1000000 / ($end - $start) * 40))")
ids=$(CPUS=1 TIME=1 SIGNAL=55 "$here/hunt.sh" "$out" 1 "${hunt[@]}" --games "$games")
wait_job "${ids#* }" 900 || fail "$out" "the time-limited hunt did not complete"
grep -q "requeued, it resumes from its checkpoint" "$out"/slurm-*_0.out ||
  fail "$out" "the hunt was never stopped by its time limit"
grep -q "restart 1" "$out"/slurm-*_0.out || fail "$out" "the hunt did not start again"
"$bin" hunt "${hunt[@]}" --games "$games" -q --out "$out/local.json"
same_hunt "$out/hunt-0.json" "$out/local.json" || fail "$out" "the resumed hunt's report differs from one hunt's"
echo "ok: a hunt stopped $(grep -c 'requeued' "$out"/slurm-*_0.out) time(s) by its time limit resumed to the same report"
