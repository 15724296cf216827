#!/usr/bin/env bash
# Soak test of the match runner (documented, not in CI): bash scripts/soak.sh [GAMES] [JOBS].
# Plays GAMES (10000) fast games between our engine in-process, over UCI and over GTP, and fault
# injectors (tests/support/fake_engines/faulty.sh: crashes, hangs, illegal moves, garbage output, slow
# start-up), then checks that: the runner ends normally; every scheduled game is in the PGN and
# the JSON exactly once, with its reason; our own engines never lose on time or by an illegal
# move; loa-match's resident memory after 90% of the games is within 10% of its value after the
# first 10% (both while every worker plays: near the very end workers finish and free their
# tables, which would hide growth); no engine process is left. Prints the figures; exit status 0 when all hold.
# A soak stopped before its end (Ctrl-C, a session's end) resumes when run again with the same
# GAMES and JOBS; bash scripts/soak.sh --fresh [GAMES] [JOBS] starts over.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
fresh=0
if [ "${1:-}" = "--fresh" ]; then fresh=1; shift; fi
games="${1:-10000}"
jobs="${2:-$(nproc)}"
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh" release > /dev/null
out="$root/out/soak"
mkdir -p "$out/bin"
# A snapshot of the binaries: a rebuild during a run of several hours must not change (or, while
# the linker writes it, break) the engine that the next game starts.
cp "$root/build/release/loa/loa" "$root/build/release/matches/loa-match" "$out/bin/"
loa="$out/bin/loa"
loa_match="$out/bin/loa-match"
rm -f "$out"/soak.json
[ "$fresh" -eq 1 ] && rm -f "$out"/soak.json.state "$out"/soak.pgn
faulty="$root/tests/support/fake_engines/faulty.sh"
engines=(
  --engine name=inproc,nodes=2000
  --engine "name=uci,cmd=$loa,args=uci,proto=uci,nodes=2000"
  --engine "name=gtp,cmd=$loa,args=gtp,proto=gtp,tc=2+0.02"
  --engine "name=crash,cmd=bash,args=$faulty crash 2 $loa 11,proto=uci,nodes=2000,timeout=2"
  --engine "name=hang,cmd=bash,args=$faulty hang 2 $loa 12,proto=uci,nodes=2000,timeout=2"
  --engine "name=illegal,cmd=bash,args=$faulty illegal 2 $loa 13,proto=uci,nodes=2000,timeout=2"
  --engine "name=garbage,cmd=bash,args=$faulty garbage 2 $loa 14,proto=uci,nodes=2000,timeout=2"
  --engine "name=slow,cmd=bash,args=$faulty slow 30 $loa 15,proto=uci,nodes=2000,timeout=2"
)
pairings=$(( ${#engines[@]} / 2 * (${#engines[@]} / 2 - 1) / 2 ))
per_pairing=$(( (games + pairings - 1) / pairings ))
per_pairing=$(( per_pairing + per_pairing % 2 ))
scheduled=$(( per_pairing * pairings ))
echo "soak: $scheduled games ($pairings pairings x $per_pairing), -j $jobs"

start=$(date +%s)
# Games already in the state file (a resumed soak): memory is sampled after a tenth of the
# schedule has been played by this run.
before=$(( $( (wc -l < "$out/soak.json.state") 2> /dev/null || echo 1) - 1 ))
[ "$before" -gt 0 ] && echo "soak: resuming after $before games"
early_at=$(( before + scheduled / 10 ))
[ "$early_at" -gt $(( (before + scheduled) / 2 )) ] && early_at=$(( (before + scheduled) / 2 ))  # little left
late_at=$(( scheduled * 9 / 10 ))
"$loa_match" "${engines[@]}" --games "$per_pairing" -j "$jobs" --seed 7 -q --json "$out/soak.json" --pgn "$out/soak.pgn" \
  > "$out/soak.txt" 2> "$out/soak.err" &
pid=$!
early_rss=0; last_rss=0; late_rss=0
while kill -0 "$pid" 2> /dev/null; do
  rss=$(awk '/VmRSS/ { print $2 }' "/proc/$pid/status" 2> /dev/null || echo 0)
  [ -n "$rss" ] && [ "$rss" -gt 0 ] && last_rss=$rss
  done_games=$(( $( (wc -l < "$out/soak.json.state") 2> /dev/null || echo 1) - 1 ))
  if [ "$early_rss" -eq 0 ] && [ "$done_games" -ge "$early_at" ]; then early_rss=$last_rss; fi
  if [ "$late_rss" -eq 0 ] && [ "$done_games" -ge "$late_at" ]; then late_rss=$last_rss; fi
  sleep 1
done
status=0
wait "$pid" || status=$?
seconds=$(( $(date +%s) - start ))
if [ "$status" -eq 130 ]; then
  echo "soak interrupted after $(( $(wc -l < "$out/soak.json.state") - 1 )) of $scheduled games: run the same command again to resume"
  exit 130
fi

python3 - "$out/soak.json" "$out/soak.pgn" "$scheduled" <<'PY'
import collections, json, re, sys
result = json.load(open(sys.argv[1]))
scheduled = int(sys.argv[3])
games = result["games"]
ids = [g["game"] for g in games]
pgn = open(sys.argv[2]).read().count("[Event ")
reasons = collections.Counter(re.sub(r"'.*'", "'...'", g["termination"]) for g in games)
ours = {"inproc", "uci", "gtp"}
bad = [g for g in games
       if any(w in g["termination"] for w in ("time", "illegal", "crashed", "no bestmove", "no move"))
       and (g["black"] if g["result"] == "1-0" else g["white"]) in ours and g["result"] != "1/2-1/2"]
print(f"games: {len(games)} in JSON ({len(set(ids))} distinct), {pgn} in PGN, {scheduled} scheduled")
print("endings:", ", ".join(f"{n} {r}" for r, n in reasons.most_common()))
faults = sum(n for r, n in reasons.items() if r not in ("black wins by connection", "white wins by connection",
             "draw by simultaneous connection", "draw by repetition", "draw by threefold repetition"))
print(f"faults survived: {faults}; losses of our own engines by time, illegal move or crash: {len(bad)}")
ok = len(games) == scheduled == len(set(ids)) == pgn and not bad
sys.exit(0 if ok else 1)
PY
checks=$?
left=0
for f in /proc/[0-9]*/cmdline; do tr '\0' ' ' < "$f" 2> /dev/null | grep -q "fake_engines/faulty.sh\|$loa uci\|$loa gtp" && left=$((left + 1)); done
echo "runner exit status $status after ${seconds} s; resident memory ${early_rss} kB after game $early_at, ${late_rss} kB after game $late_at; engine processes left: $left"
growth_ok=$(( late_rss * 100 <= early_rss * 110 ))
[ "$status" -eq 0 ] && [ "$checks" -eq 0 ] && [ "$left" -eq 0 ] && [ "$growth_ok" -eq 1 ]
