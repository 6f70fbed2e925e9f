#!/usr/bin/env bash
# A second build rebuilds nothing, wherever the source is: a clone without .git/packed-refs, a
# worktree (whose .git is a file), a source tarball without .git. Cargo reruns a build script
# that watches a missing path at every build, and then rebuilds the crate (build.rs says why).
#
#   scripts/rebuild-check.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
cleanup() {
  git -C "$root" worktree remove --force "$work/worktree" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
git clone -q --no-local "$root" "$work/clone"
rm -f "$work/clone/.git/packed-refs"
git -C "$root" worktree add -q --detach "$work/worktree" HEAD
mkdir "$work/tarball"
git -C "$root" archive HEAD | tar -x -C "$work/tarball"
export CARGO_TARGET_DIR=$work/target
for tree in clone worktree tarball; do
  (cd "$work/$tree" && cargo check -q --lib)
  second=$(cd "$work/$tree" && cargo check --lib 2>&1)
  if printf '%s\n' "$second" | grep -q "warsweep v"; then
    printf '%s\n' "$second"
    echo "rebuild check: a second build in a $tree rebuilt warsweep" >&2
    exit 1
  fi
  echo "ok: a second build in a $tree rebuilds nothing"
done
