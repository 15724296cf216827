#!/usr/bin/env bash
# The screenshots of docs/web.md, taken from the real page: runs the browser test (which saves
# one of each view at 1280x900, 800x600 and 390x844) and copies the ones the document shows into
# docs/images/web/.
#
# usage: bash scripts/web-screenshots.sh [BUILD_DIR]   (default build/release, built already)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build/release}"
case "${1:-}" in -h|--help) sed -n 2,6p "$0"; exit 0 ;; esac
bash "$root/scripts/setup.sh" browser
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 "$root/tests/web/browser_test.py" "$build/loa/loa" "$build/matches/loa-match" "$work" "$work/web-board.png"
out="$root/docs/images/web"
mkdir -p "$out"
for view in analysis-1280x900 game-over-1280x900 clock-1280x900 clocks-beside-1280x900 flipped-1280x900 watch-running-1280x900 experiments-1280x900 \
            play-800x600 analysis-390x844 play-390x844 replay-390x844 watch-390x844 \
            variation-1280x900 operator-1280x900 operator-setup-1280x900 operator-800x600 operator-390x844; do
  cp "$work/shots/$view.png" "$out/$view.png"
done
cp "$work/web-board.png" "$root/docs/images/web-board.png"
echo "screenshots in $out"
du -ch "$out"/*.png | tail -1
