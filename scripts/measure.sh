#!/usr/bin/env bash
# Measures the speed targets on full sweeps and records them under docs/runs/<date>-<host>/.
#
# Every setting sweeps every distinct lcg deal (seeds 0..2097151) RUNS times (default 5); the
# record keeps the exact commands, the git revision, the machine and its CPU model, every run's
# wall time, and a table of medians with the cost per battle (each setting quoted per battle
# against `shortened` alternates with a `shortened` run, and is quoted against those). The yardstick
# (../shared/yardstick/warfast, the same sweep under `shortened`) runs alternately with the
# shortened settings, on as many threads, and every shortened figure is quoted as a ratio to it:
# absolute times differ between machines by 2x or more, the ratio does not. Instruction counts
# (callgrind, seeds 0..50,000, one thread) are recorded beside the timings: they do not depend
# on the machine or its load (SKIP_CALLGRIND=1 leaves them out). A setting's battles are those of its finished games
# plus, for each infinite game, those of its first cycle_start + cycle_length rounds (the
# "battles played" line of the sweep table). Also records the peak memory of a 20,000,000-seed
# splitmix sweep streaming its CSV.
#
#   scripts/measure.sh            # all settings, 5 runs each (about 8 minutes on 2 cores)
#   RUNS=3 scripts/measure.sh     # fewer runs
#   SETTINGS="shortened-2t shortened-1t" scripts/measure.sh   # a subset
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
cargo build --release --quiet
# The build just made (WARSWEEP overrides it), wherever cargo puts its target folder.
bin=${WARSWEEP:-${CARGO_TARGET_DIR:-target}/release/warsweep}
# A new folder each time: earlier records are kept.
out=docs/runs/$(date -u +%Y-%m-%d)-$(uname -n)
if [ -e "$out" ]; then
  n=2
  while [ -e "$out-$n" ]; do n=$((n + 1)); done
  out=$out-$n
fi
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# name | sweep arguments (seeds 0..2097151 unless given)
declare -A ARGS=(
  [shortened-2t]="--summary $work/s.json"
  [shortened-2t-csv]="--summary $work/s.json --csv $work/all.csv"
  [shortened-1t]="--summary $work/s.json --threads 1"
  [codingame-2t]="--rules codingame --summary $work/s.json"
  [classic-2t]="--rules classic --summary $work/s.json"
  [oorlog-3p-2t]="--rules oorlog --players 3 --summary $work/s.json"
  [oorlog-6p-2t]="--rules oorlog --players 6 --summary $work/s.json"
  [bataille-2t]="--rules bataille --summary $work/s.json"
)
ORDER=(shortened-2t shortened-2t-csv shortened-1t codingame-2t classic-2t bataille-2t oorlog-3p-2t oorlog-6p-2t)
yardstick=${YARDSTICK:-../shared/yardstick/warfast}
[ -x "$yardstick" ] || { echo "no yardstick at $yardstick (set YARDSTICK=...)" >&2; exit 2; }
# The yardstick's thread count for a setting, if it is timed against one.
yard_threads() {
  case $1 in
    shortened-2t|shortened-2t-csv) echo 2 ;;
    shortened-1t) echo 1 ;;
    *) echo "" ;;
  esac
}
SETTINGS=${SETTINGS:-${ORDER[*]}}

{
  echo "# Speed record"
  echo
  echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "- git revision: $(git rev-parse HEAD)$(git diff --quiet || echo ' (with uncommitted changes)')"
  echo "- machine: $(uname -n), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
  echo "- rustc: $(rustc --version)"
  echo "- runs per setting: $RUNS (median reported)"
  echo
  echo "Commands (each run as \`$bin sweep --seeds 0..2097151 ARGS --quiet\`):"
  echo
  for name in $SETTINGS; do echo "- $name: \`${ARGS[$name]//$work/TMP}\`"; done
} > "$out/README.md"

echo "setting,run,wall_seconds" > "$out/raw.csv"
echo "setting,battles" > "$out/battles.csv"
# The per-battle ratios need shortened's battles even when it is not among the settings.
if [[ " $SETTINGS " != *" shortened-2t "* ]]; then
  # shellcheck disable=SC2086
  battles=$($bin sweep --seeds 0..2097151 ${ARGS[shortened-2t]} | sed -n 's/^\([0-9,]*\) battles played.*/\1/p' | tr -d ,)
  echo "shortened-2t,$battles" >> "$out/battles.csv"
fi
for name in $SETTINGS; do
  # shellcheck disable=SC2086
  battles=$($bin sweep --seeds 0..2097151 ${ARGS[$name]} | sed -n 's/^\([0-9,]*\) battles played.*/\1/p' | tr -d ,)
  echo "$name,$battles" >> "$out/battles.csv"
  for run in $(seq "$RUNS"); do
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    $bin sweep --seeds 0..2097151 ${ARGS[$name]} --quiet
    end=$(date +%s.%N)
    echo "$name,$run,$(echo "$end - $start" | bc)" >> "$out/raw.csv"
    echo "$name run $run: $(tail -n1 "$out/raw.csv" | cut -d, -f3) s" >&2
    # A setting quoted per battle against `shortened` alternates with it: the machine's speed
    # drifts by more than the differences measured (see 2026-11-23-vm-5).
    if [ -z "$(yard_threads "$name")" ]; then
      start=$(date +%s.%N)
      # shellcheck disable=SC2086
      $bin sweep --seeds 0..2097151 ${ARGS[shortened-2t]} --quiet
      end=$(date +%s.%N)
      echo "shortened-for-$name,$run,$(echo "$end - $start" | bc)" >> "$out/raw.csv"
    fi
    threads=$(yard_threads "$name")
    if [ -n "$threads" ]; then
      start=$(date +%s.%N)
      "$yardstick" bench d "$threads" > /dev/null
      end=$(date +%s.%N)
      echo "yardstick-for-$name,$run,$(echo "$end - $start" | bc)" >> "$out/raw.csv"
    fi
  done
done

# Instruction counts: the same work on seeds 0..50,000, one thread, counted by callgrind.
if [ -z "${SKIP_CALLGRIND:-}" ]; then
  echo "setting,instructions" > "$out/instructions.csv"
  count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null \
    | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'; }
  echo "yardstick,$(count "$yardstick" sweep d 0 50000)" >> "$out/instructions.csv"
  for name in $SETTINGS; do
    [ "$name" = shortened-1t ] && continue
    args=${ARGS[$name]//--csv $work\/all.csv/--csv $work/c.csv}
    # shellcheck disable=SC2086
    echo "$name,$(count $bin sweep --seeds 0..50000 $args --threads 1 --quiet)" >> "$out/instructions.csv"
  done
fi

# Memory: a long splitmix sweep streaming its CSV must stay flat.
if [ -z "${SKIP_MEMORY:-}" ]; then
  /usr/bin/time -f '%M' -o "$work/rss" \
    $bin sweep --seeds 0..20000000 --shuffle splitmix --csv - --quiet > /dev/null
  echo "memory-20M-splitmix-csv,$(cat "$work/rss")" > "$out/memory.csv"
fi

python3 - "$out" <<'PY'
import csv, statistics, sys, pathlib
out = pathlib.Path(sys.argv[1])
runs = {}
for row in csv.DictReader(open(out / "raw.csv")):
    runs.setdefault(row["setting"], []).append(float(row["wall_seconds"]))
battles = {r["setting"]: int(r["battles"]) for r in csv.DictReader(open(out / "battles.csv"))}
targets = {
    "shortened-2t": "<= 1.3x the yardstick",
    "shortened-2t-csv": "<= 1.45x the yardstick",
    "shortened-1t": "<= 1.3x the yardstick",
    "codingame-2t": "<= 1.2x shortened per battle",
    "classic-2t": "<= 1.2x shortened per battle",
    "bataille-2t": "<= 1.2x shortened per battle",
    "oorlog-3p-2t": "<= 1.5x shortened per battle",
    "oorlog-6p-2t": "<= 3x shortened per battle",
}
counts = {}
if (out / "instructions.csv").exists():
    counts = {r["setting"]: int(r["instructions"]) for r in csv.DictReader(open(out / "instructions.csv"))}
base = None
if "shortened-2t" in runs:
    base = statistics.median(runs["shortened-2t"]) / battles["shortened-2t"]
# The yardstick's cost per battle on 2 threads (it plays shortened's battles), for every setting.
yard_base = None
if "yardstick-for-shortened-2t" in runs:
    yard_base = statistics.median(runs["yardstick-for-shortened-2t"]) / battles["shortened-2t"]
lines = ["", "## Results", "",
         "| setting | median wall (s) | runs (s) | yardstick median (s) | vs yardstick | battles "
         "| ns per battle (wall) | vs shortened | per battle vs yardstick (2 threads) "
         "| instructions, seeds 0..50,000 | target |",
         "|---|---|---|---|---|---|---|---|---|---|---|"]
for name, times in runs.items():
    if name.startswith(("yardstick-for-", "shortened-for-")):
        continue
    med = statistics.median(times)
    per = med / battles[name] * 1e9
    # Against the shortened runs alternated with this setting's, when there are.
    own = runs.get("shortened-for-" + name)
    here = statistics.median(own) / battles["shortened-2t"] if own and "shortened-2t" in battles else base
    ratio = f"{med / battles[name] / here:.2f}x" if here else ""
    yard = runs.get("yardstick-for-" + name)
    ymed = f"{statistics.median(yard):.2f}" if yard else ""
    yratio = f"{med / statistics.median(yard):.2f}x" if yard else ""
    instr = f"{counts[name]:,}" if name in counts else ""
    per_yard = f"{med / battles[name] / yard_base:.2f}x" if yard_base and "-1t" not in name else ""
    lines.append(f"| {name} | {med:.2f} | {' '.join(f'{t:.2f}' for t in times)} | {ymed} | {yratio} "
                 f"| {battles[name]:,} | {per:.2f} | {ratio} | {per_yard} | {instr} "
                 f"| {targets.get(name, '')} |")
if "yardstick" in counts:
    lines += ["", f"The yardstick's own count on seeds 0..50,000 (`warfast sweep d 0 50000`, which also "
              f"writes a CSV line a game): {counts['yardstick']:,} instructions."]
mem = out / "memory.csv"
if mem.exists():
    kb = int(open(mem).read().split(",")[1])
    lines += ["", f"Peak resident memory of `sweep --seeds 0..20000000 --shuffle splitmix --csv - --quiet`: "
              f"{kb / 1024:.1f} MB (target: below 100 MB)."]
with open(out / "README.md", "a") as f:
    f.write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
echo "recorded in $out" >&2
