# Sourced by the scripts: sets `bin` to the warsweep binary, looked for in this order:
# $WARSWEEP, then PATH (after `cargo install --path . --locked`), then the cargo target directory
# ($CARGO_TARGET_DIR or target/ of this repository), release build first.
find_warsweep() {
  if [ -n "${WARSWEEP:-}" ]; then
    bin=$WARSWEEP
  elif command -v warsweep >/dev/null 2>&1; then
    bin=$(command -v warsweep)
  else
    local root target
    root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    target=${CARGO_TARGET_DIR:-$root/target}
    case $target in /*) ;; *) target=$root/$target ;; esac
    for bin in "$target/release/warsweep" "$target/debug/warsweep" ""; do
      [ -x "$bin" ] && break
    done
  fi
  if [ -z "$bin" ] || [ ! -x "$bin" ]; then
    echo "warsweep not found: set WARSWEEP, put it on PATH (cargo install --path . --locked), or build it (cargo build --release)" >&2
    return 1
  fi
  bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
}
