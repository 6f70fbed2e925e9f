#!/usr/bin/env bash
# The checks that need a GPU, as one script: run it on a machine with an NVIDIA GPU and its
# driver (CUDA's NVRTC on the library path), with binaries built elsewhere:
#
#   scripts/gpu-check.sh --prepare target/device     # here: both binaries, stripped (14 MB)
#   WARSWEEP=target/device/warsweep scripts/gpu-check.sh OUTDIR target/device/warsweep-tests
#
# usage: scripts/gpu-check.sh OUTDIR [TEST_BINARY]
#   WARSWEEP (default target/gpu/release/warsweep); CHECKS: which of "test speed 4x4 4x13
#   hunt13 4x5 sorted" to run (default all, quickest first). Writes OUTDIR/gpu.txt (the card, the driver), OUTDIR/NAME.json and
#   OUTDIR/NAME.time for each walk, and OUTDIR/checks.txt: one line a check, PASS or FAIL.
#   With little GPU time, run CHECKS="test speed 4x4" first: the speed check prints how long
#   the whole 4x5 walk would take, for choosing the time limit of CHECKS="4x5 sorted".
# usage: scripts/gpu-check.sh --prepare DIR
#   Builds warsweep and its library's test binary with the feature `gpu` (target/gpu) and puts
#   them, stripped of debug information, in DIR as warsweep and warsweep-tests.
set -uo pipefail
if [ "${1:-}" = --prepare ]; then
  dir=${2:?usage: scripts/gpu-check.sh --prepare DIR}
  set -e
  cargo build --release --features gpu --target-dir target/gpu
  tests=$(cargo test --release --features gpu --target-dir target/gpu --lib --no-run \
    --message-format=json | python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
        print(m["executable"])')
  mkdir -p "$dir"
  strip -o "$dir/warsweep" target/gpu/release/warsweep
  strip -o "$dir/warsweep-tests" "$tests"
  ls -l "$dir"
  exit 0
fi
out=${1:?usage: scripts/gpu-check.sh OUTDIR [TEST_BINARY]}
tests=${2:-}
bin=${WARSWEEP:-target/gpu/release/warsweep}
checks=${CHECKS:-test speed 4x4 4x13 hunt13 4x5 sorted}
mkdir -p "$out"
# NVRTC where CUDA toolkits keep it, for a loader that does not know the folder (a toolkit's
# lib64 has the unversioned libnvrtc.so, which finds CUDA 12 and 13 alike).
nvcc_dir=$(dirname "$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)")
# ptxas, for the test that reads each plan's registers, beside nvcc.
[ -x "$nvcc_dir/ptxas" ] && export PATH="$nvcc_dir:$PATH"
for lib in "$nvcc_dir/../lib64" /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
  if ls "$lib"/libnvrtc.so* >/dev/null 2>&1; then
    export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  fi
done
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >"$out/gpu.txt" 2>&1
nvidia-smi >>"$out/gpu.txt" 2>&1
{ nvcc --version; echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"; lscpu | grep -E "Model name|^CPU\(s\)"; } >>"$out/gpu.txt" 2>&1
"$bin" --version >>"$out/gpu.txt"
say() { echo "$*" | tee -a "$out/checks.txt"; }

# A field of a summary, by its path in the JSON (python3 is on every machine here).
field() { python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."): v=v[int(k)] if isinstance(v,list) else v[k]
print(v)' "$1" "$2"; }

walk() { # NAME, then sweep flags
  local name=$1
  shift
  local start end
  start=$(date +%s.%N)
  "$bin" sweep --device gpu -q --summary "$out/$name.json" "$@" 2>"$out/$name.err"
  local code=$?
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f\n", b - a }' >"$out/$name.time"
  [ "$code" -eq 0 ] || say "FAIL $name: exit $code: $(cat "$out/$name.err")"
  return $code
}

expect() { # NAME PATH VALUE
  local got
  got=$(field "$out/$1.json" "$2" 2>&1)
  if [ "$got" = "$3" ]; then say "PASS $1 $2 = $3"; else say "FAIL $1 $2 = $got, expected $3"; fi
}

for check in $checks; do
  case $check in
  test)
    # The kernel against the CPU on the GPU itself (the 4x4 walk's start, a 4x5 shard, a
    # looping setting with its cycles, a splitmix range, 1x13 under the oorlog ranking, 4x13
    # and a looping 4x8; hunts of 4x13), and the machine's own NVRTC and ptxas on every plan:
    # with WARSWEEP_GPU=1 a test that cannot open the GPU, NVRTC or ptxas fails with the
    # reason instead of being skipped.
    for name in the_gpu_summarizes_as_the_cpu hunts::the_gpu_hunts_as_the_cpu \
      nvrtc_compiles_the_kernel ptxas_keeps_each_thread_in_registers; do
      file=${name//::/-}.txt
      if [ -n "$tests" ] && WARSWEEP_GPU=1 "$tests" "gpu::tests::$name" --exact --nocapture \
        >"$out/$file" 2>&1 && grep -q "1 passed" "$out/$file"; then
        say "PASS $name"
      else
        say "FAIL $name (see $file)"
      fi
    done
    # Every other test of the kernel (compiled for this machine's CPU, as CI runs them).
    if [ -n "$tests" ] && WARSWEEP_GPU=1 "$tests" gpu:: >"$out/gpu-tests.txt" 2>&1; then
      say "PASS gpu:: ($(grep -o '[0-9]* passed' "$out/gpu-tests.txt"))"
    else
      say "FAIL gpu:: (see gpu-tests.txt)"
    fi
    ;;
  speed)
    # A twentieth of the 4x5 walk (15,277,011,750 deals) with deal points every 16 rounds (the
    # default), 8 and 32, and once a game (as a warp would play without them): deals counted
    # a second each time (NVRTC's compile, about a second, included), and the same summary.
    for every in 16 8 32 1000000; do
      WARSWEEP_GPU_DEAL_EVERY=$every walk "speed-$every" --rules bataille --deck 4x5 \
        --shuffle lex --shard 10/20 &&
        python3 - "$out/speed-$every.json" "$out/speed-$every.time" "$every" <<'EOF' | tee -a "$out/checks.txt"
import json, sys
games = json.load(open(sys.argv[1]))["games"]
seconds = float(open(sys.argv[2]).read())
print(f"SPEED deal points every {sys.argv[3]} rounds: {games:,} deals counted in {seconds:.2f} s,"
      f" {games / seconds:.3e} a second; the whole 4x5 walk at this pace (a guide: the walk's"
      f" parts differ) about {20 * seconds:.0f} s")
EOF
    done
    if python3 - "$out"/speed-*.json <<'EOF'; then
import json, sys
summaries = []
for path in sys.argv[1:]:
    s = json.load(open(path))
    for k in ("elapsed_seconds", "games_per_second"):
        s.pop(k, None)
    summaries.append(s)
sys.exit(len(summaries) != 4 or any(s != summaries[0] for s in summaries))
EOF
      say "PASS speed: the same summary for every spacing of deal points"
    else
      say "FAIL speed: the summaries differ with the deal points' spacing"
    fi
    ;;
  4x4)
    # The whole 4x4 walk: 63,063,000 deals; 31,467,382 wins each; 111,146 draws; 17,090 loops.
    walk 4x4 --rules bataille --deck 4x4 --shuffle lex --cycles "$out/4x4-cycles.csv" &&
      expect 4x4 wins.0 31467382 && expect 4x4 wins.1 31467382 &&
      expect 4x4 draws 111146 && expect 4x4 infinite 17090
    ;;
  4x13)
    # 52 cards: bataille 4x13, splitmix seeds 0..200,000,000, on the GPU and on every core of
    # this machine: games a second each, and the same summary.
    walk 4x13 --rules bataille --deck 4x13 --shuffle splitmix --seeds 0..200000000
    start=$(date +%s.%N)
    "$bin" sweep -q --rules bataille --deck 4x13 --shuffle splitmix --seeds 0..200000000 \
      --summary "$out/4x13-cpu.json"
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f\n", b - a }' >"$out/4x13-cpu.time"
    if python3 - "$out/4x13.json" "$out/4x13-cpu.json" "$out/4x13.time" "$out/4x13-cpu.time" \
      "$(nproc)" <<'EOF' | tee -a "$out/checks.txt"; then
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
gpu, cpu = (float(open(p).read()) for p in sys.argv[3:5])
for s in (a, b):
    for k in ("elapsed_seconds", "games_per_second"):
        s.pop(k, None)
print(f"SPEED 4x13 splitmix: {a['games']:,} games, GPU {gpu:.2f} s ({a['games'] / gpu:.3e}/s),"
      f" {sys.argv[5]} CPU cores {cpu:.2f} s ({b['games'] / cpu:.3e}/s): {cpu / gpu:.1f}x")
sys.exit(a != b)
EOF
      say "PASS 4x13: the GPU's summary is the CPU's"
    else
      say "FAIL 4x13: the summaries differ"
    fi
    ;;
  hunt13)
    # The hunt on 52 cards: the longest bataille 4x13 game of 100,000,000 random deals, on the
    # GPU and on every core: the same report but its timings, and games a second each.
    for device in gpu cpu; do
      start=$(date +%s.%N)
      "$bin" hunt -q --deck 4x13 --strategy random --games 100000000 --device "$device" \
        --out "$out/hunt13-$device.json" 2>"$out/hunt13-$device.err" ||
        say "FAIL hunt13 on the $device: $(cat "$out/hunt13-$device.err")"
      end=$(date +%s.%N)
      awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f\n", b - a }' >"$out/hunt13-$device.time"
    done
    if python3 - "$out"/hunt13-{gpu,cpu}.json "$out"/hunt13-{gpu,cpu}.time <<'EOF' | tee -a "$out/checks.txt"; then
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
gpu, cpu = (float(open(p).read()) for p in sys.argv[3:5])
for r in (a, b):
    r.pop("seconds", None)
    for step in r["log"]:
        step.pop("seconds", None)
print(f"SPEED hunt13: {a['games']:,} games, GPU {gpu:.2f} s, CPU {cpu:.2f} s: {cpu / gpu:.1f}x;"
      f" longest {a['best'][0]['value'] if a['best'] else None} rounds")
sys.exit(a != b)
EOF
      say "PASS hunt13: the GPU's report is the CPU's"
    else
      say "FAIL hunt13: the reports differ"
    fi
    ;;
  4x5)
    # The whole 4x5 walk, as the plain CUDA kernel counted it.
    walk 4x5 --rules bataille --deck 4x5 --shuffle lex &&
      expect 4x5 games 305540235000 && expect 4x5 wins.0 152761935028 &&
      expect 4x5 wins.1 152761935028 && expect 4x5 draws 16364944 &&
      expect 4x5 infinite 0 && expect 4x5 records.most_rounds.value 453 &&
      expect 4x5 rounds.total 11883086307540
    ;;
  sorted)
    # The whole 4x5 walk gathered strongest first, with its distinct cycles; CPU slices of it
    # are checked against the same binary on the CPU.
    walk 4x5-sorted --rules bataille --deck 4x5 --shuffle lex --gather sorted \
      --cycles "$out/4x5-sorted-cycles.csv"
    for part in 0/3000 1500/3000 2999/3000; do
      slice=${part//\//-of-}
      "$bin" sweep -q --rules bataille --deck 4x5 --shuffle lex --gather sorted --shard "$part" \
        --summary "$out/cpu-$slice.json" &&
        "$bin" sweep -q --device gpu --rules bataille --deck 4x5 --shuffle lex --gather sorted \
          --shard "$part" --summary "$out/gpu-$slice.json" &&
        if python3 - "$out/cpu-$slice.json" "$out/gpu-$slice.json" <<'EOF'; then
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for s in (a, b):
    for k in ("elapsed_seconds", "games_per_second"):
        s.pop(k, None)
sys.exit(a != b)
EOF
          say "PASS sorted shard $part: the GPU's summary is the CPU's"
        else
          say "FAIL sorted shard $part: the summaries differ"
        fi
    done
    ;;
  esac
done
