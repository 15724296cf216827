#!/usr/bin/env bash
# Builds an earlier commit of this repository as a baseline for strength tests:
#   bash scripts/build-baseline.sh COMMIT
# The commit is checked out as a git worktree in build/baseline-<short hash>/ (inside the ignored
# build directory: the working tree, the index and the branches are not touched) and its engine
# and match runner are built there in Release. Already built: only the build is brought up to
# date. Prints the engine string to give loa-match, e.g.
#   --base "name=base-c33639c,cmd=build/baseline-c33639c/build/loa/loa,args=uci,proto=uci"
# (the base plays over UCI, so any earlier version can be pitted against HEAD).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ $# -ne 1 ] || [ "$1" = "--help" ] || [ "$1" = "-h" ]; then
  sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
  [ $# -eq 1 ] && exit 0 || exit 2
fi
if ! full=$(git -C "$root" rev-parse --verify --quiet "$1^{commit}"); then
  echo "build-baseline.sh: '$1' is not a commit of this repository" >&2
  exit 2
fi
short=$(git -C "$root" rev-parse --short=7 "$full")
dir="$root/build/baseline-$short"
bash "$root/scripts/setup.sh" > /dev/null
if [ ! -e "$dir/.git" ]; then
  mkdir -p "$root/build"
  git -C "$root" worktree prune
  git -C "$root" worktree add --detach --quiet "$dir" "$full"
fi
# Only the two programs a match needs; options a commit does not know are ignored by cmake.
cmake -S "$dir" -B "$dir/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF -DLOA_BUILD_BENCH=OFF \
  -Wno-dev > /dev/null 2>&1 || cmake -S "$dir" -B "$dir/build" -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build "$dir/build" -j "$(nproc)" --target loa loa-match > "$dir/build.log" 2>&1 || {
  echo "build-baseline.sh: the build of $short failed (log: $dir/build.log)" >&2
  exit 1
}
engine="$dir/build/loa/loa"
[ -x "$engine" ] || { echo "build-baseline.sh: no engine at $engine" >&2; exit 1; }
echo "baseline $short built: $engine"
echo "engine string: name=base-$short,cmd=$engine,args=uci,proto=uci"
