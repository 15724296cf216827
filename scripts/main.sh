#!/usr/bin/env bash
# The main job: installs what is missing, builds Release, and plays the default match --
# relative against absolute history heuristic, 48 games at 40000 nodes a move over all cores --
# printing its summary; the games and the JSON result go to out/.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/setup.sh"
# What the job runs, and loa-web, which the README's tour (`loa serve`) runs next; the test
# command builds the rest.
bash "$root/scripts/build.sh" release loa loa-match loa-web
mkdir -p "$root/out"
# The main job is played anew once it has finished (loa-match refuses to play a finished match
# again over its result, and appends to a PGN), and resumed when it was interrupted (its state
# file is there). Its two files in out/ are its own.
[ -e "$root/out/default-match.json.state" ] || rm -f "$root/out/default-match.json" "$root/out/default-match.pgn"
"$root/build/release/matches/loa-match" -j "$(nproc)" --pgn "$root/out/default-match.pgn" --json "$root/out/default-match.json" "$@"
