#!/usr/bin/env bash
# Measures the speed targets on full sweeps and records them under data/runs/<date>-<host>/.
#
# Every setting sweeps every distinct lcg deal (seeds 0..2097151) RUNS times (default 5); the
# record keeps the exact commands, the git revision, the machine, every run's wall time, and a
# table of medians with the cost per battle. A setting's battles are those of its finished games
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
out=data/runs/$(date -u +%Y-%m-%d)-$(uname -n)
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
)
ORDER=(shortened-2t shortened-2t-csv shortened-1t codingame-2t classic-2t oorlog-3p-2t oorlog-6p-2t)
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
  done
done

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
    "shortened-2t": "<= 4.0 s",
    "shortened-2t-csv": "<= 5.0 s",
    "shortened-1t": "<= 7.5 s",
    "codingame-2t": "<= 1.5x shortened per battle",
    "classic-2t": "<= 1.5x shortened per battle",
    "oorlog-3p-2t": "<= 2x shortened per battle",
    "oorlog-6p-2t": "<= 2x shortened per battle",
}
base = None
if "shortened-2t" in runs:
    base = statistics.median(runs["shortened-2t"]) / battles["shortened-2t"]
lines = ["", "## Results", "",
         "| setting | median wall (s) | runs (s) | battles | ns per battle (wall) | vs shortened | target |",
         "|---|---|---|---|---|---|---|"]
for name, times in runs.items():
    med = statistics.median(times)
    per = med / battles[name] * 1e9
    ratio = f"{med / battles[name] / base:.2f}x" if base else ""
    lines.append(f"| {name} | {med:.2f} | {' '.join(f'{t:.2f}' for t in times)} | {battles[name]:,} "
                 f"| {per:.2f} | {ratio} | {targets.get(name, '')} |")
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
