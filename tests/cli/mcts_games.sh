#!/usr/bin/env bash
# MCTS as an engine (issue 59): `--variant mcts` plays whole games over UCI and in loa-match
# without a time loss or an illegal move, with the clock rules of the alpha-beta engine; its
# info lines keep the engine's contract; a proven win is reported as one, with a PV that the
# rules end in that win.
set -euo pipefail
loa="$1"
loa_match="$2"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# No game may end by a loss that is not the rules' (time, illegal move, crash).
check_games() {
  local pgn="$1" games="$2"
  [ "$(grep -c '^\[Termination ' "$pgn")" -eq "$games" ] || fail "$pgn: not $games games"
  if grep '^\[Termination ' "$pgn" | grep -E 'loses (on time|by illegal|:)'; then fail "$pgn: a game lost outside the rules"; fi
  return 0
}

# In process: each play-out policy against the alpha-beta engine, at a fast clock.
"$loa_match" --engine name=mcts,preset=mcts,tc=2+0.02 --engine name=ab,preset=full,tc=2+0.02 --games 2 -j 2 --seed 3 -q \
  --pgn "$dir/cutoff.pgn" > /dev/null
check_games "$dir/cutoff.pgn" 2
"$loa_match" --engine name=mcts-ab,preset=mcts,playout=ab,mcts_expand=2,tc=2+0.02 --engine name=mcts-random,preset=mcts,playout=random,tc=2+0.02 \
  --games 2 -j 2 --seed 4 -q --pgn "$dir/policies.pgn" > /dev/null
check_games "$dir/policies.pgn" 2

# Over UCI: the engine process with Variant mcts against the in-process alpha-beta engine.
"$loa_match" --engine "name=mcts-uci,cmd=$loa,args=uci,proto=uci,option.Variant=mcts,tc=2+0.02" --engine name=ab,preset=full,tc=2+0.02 \
  --games 2 -j 2 --seed 5 -q --pgn "$dir/uci.pgn" > /dev/null
check_games "$dir/uci.pgn" 2

# The info contract: depth (the PV's length), score, nodes (play-outs), nps, time, pv; bestmove.
out=$(printf 'setoption name Variant value mcts\nposition startpos\ngo movetime 300\n' | "$loa" uci | tr -d '\r')
echo "$out" | grep -Eq '^info depth [0-9]+ seldepth [0-9]+ score cp -?[0-9]+ nodes [0-9]+ nps [0-9]+ .*time [0-9]+ .*pv [a-h][1-8]' ||
  fail "no info line in the engine's form: $out"
echo "$out" | grep -Eq '^bestmove [a-h][1-8][a-h][1-8]( ponder [a-h][1-8][a-h][1-8])?$' || fail "no bestmove: $out"

# A proven win (the position of cli.solve.win): `score win N`, and the PV is a win for Black in N plies.
pos="3b4/3b4/5b2/5w2/1w2b3/w3b3/1w2w3/8 b"
out=$("$loa" analyze --variant mcts --position "$pos" --movetime 5000)
line=$(echo "$out" | grep '^info ' | tail -1)
plies=$(echo "$line" | sed -n 's/.* score win \([0-9]*\) .*/\1/p')
[ -n "$plies" ] || fail "no proven win: $line"
pv=$(echo "$line" | sed 's/.* pv //')
[ "$(echo "$pv" | wc -w)" -eq "$plies" ] || fail "a PV of $(echo "$pv" | wc -w) plies for a win in $plies: $line"
"$loa" show --position "$pos" --moves "$pv" | grep -q '^result black wins' || fail "the PV '$pv' is no win for Black"
echo "mcts games: ok (win in $plies: $pv)"
