#!/usr/bin/env bash
# What the runner sends to engines and prints for other tools' scripts is what those tools send
# and print (issue 82): both clocks in every `go`, option.NAME applied or refused (never
# dropped), st= judged for external engines, cutechess's and fastchess's output lines, reports
# after the game that completes them, a banner that says what plays, cutechess's arg= and
# M:SS clocks, tc=inf with a depth, --plot checked before the first game.
#   runner_interop.sh LOA_MATCH LOA
set -euo pipefail
loa_match="$(realpath "$1")"
loa="$(realpath "$2")"
here="$(cd "$(dirname "$0")" && pwd)"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
fail() { echo "FAIL: $*"; exit 1; }
# expect FILE REGEX WHAT: FILE has a line matching the extended REGEX.
expect() { grep -Eq -- "$2" "$1" || { cat "$1"; fail "$3"; }; }
small=(--games 2 -j 1 --state "$dir/run.state" --fresh)

# 1. Both clocks in every go, as cutechess and fastchess send them.
"$loa_match" --engine "name=ext,cmd=bash,args=$here/../support/fake_engines/logging_wrapper.sh $dir/go.log $loa uci,proto=uci,tc=2+0.02" \
  --engine name=own,preset=full,nodes=300,tc=2+0.02 "${small[@]}" > out.txt
grep '^go' go.log > go-lines.txt || fail "the external engine received no go"
[ "$(grep -cEv '^go wtime [0-9]+ btime [0-9]+ winc 20 binc 20$' go-lines.txt)" -eq 0 ] || { cat go-lines.txt; fail "a go without both clocks"; }
echo "every go carries both clocks: $(head -n 1 go-lines.txt)"

# 2. option.NAME of an engine in process: applied as loa uci applies it, or refused.
"$loa_match" --engine name=a,preset=full,depth=1,option.Hash=8,option.lmr=false --engine name=b,depth=1 "${small[@]}" \
  --json opt.json -q > out.txt
python3 - opt.json << 'PY'
import json, sys
engines = {e["name"]: e for e in json.load(open(sys.argv[1]))["engines"]}
search = dict(kv.split("=", 1) for kv in engines["a"]["search"].split(","))
assert search["tt"] == "8", search["tt"]
assert search["lmr"] == "off", search["lmr"]
print("option.Hash=8 option.lmr=false: tt=%s lmr=%s" % (search["tt"], search["lmr"]))
PY
if "$loa_match" --engine name=a,depth=1,option.Hahs=8 --engine name=b,depth=1 "${small[@]}" > out.txt 2>&1; then fail "option.Hahs was accepted"; fi
expect out.txt "option.Hahs: no such option of this engine; did you mean 'option.Hash'\\?" "no did-you-mean for option.Hahs"
if "$loa_match" --engine name=a,depth=1,option.Rules=codingame --engine name=b,depth=1 "${small[@]}" > out.txt 2>&1; then
  fail "option.Rules was accepted"
fi
expect out.txt "the rules are the match's: --rules" "option.Rules refused without the reason"

# 3. An external engine that refuses an option: the run does not start, the refusal is shown.
rm -f run.state
if "$loa_match" --engine "name=ext,cmd=$loa,args=uci,option.Hahs=8,depth=1" --engine name=b,depth=1 "${small[@]}" > out.txt 2>&1; then
  fail "a run went on with an option the engine refused"
fi
expect out.txt "refused option.Hahs=8: info string error: unknown option 'Hahs'" "the engine's refusal is not shown"
[ ! -e run.state ] || fail "a refused run left a state file"

# 4. st= judged for an external engine: an answer 150 ms late at st=0.02 loses on time.
"$loa_match" --engine "name=late,cmd=bash,args=$here/../support/fake_engines/delay_wrapper.sh go 0.15 $loa uci,st=0.02" \
  --engine name=b,depth=1 "${small[@]}" --json late.json > out.txt
expect out.txt "(black|white) loses on time \\([0-9]+ ms for a move of 20 ms\\)" "a late answer at st= did not lose on time"
expect out.txt "worst overshoot of a move's hard limit [1-9][0-9]*\\.[0-9]+ ms" "the overshoot is not counted"

# 5. cutechess-cli's lines.
"$loa_match" -engine name=a depth=2 -engine name=b depth=2 history=absolute -games 2 -rounds 2 -repeat -concurrency 1 \
  -output format=cutechess -ratinginterval 2 --state "$dir/run.state" --fresh > cute.txt
expect cute.txt '^Started game 1 of 4 \([ab] vs [ab]\)$' "no Started game line"
expect cute.txt '^Finished game [1-4] \([ab] vs [ab]\): (1-0|0-1|1/2-1/2) \{.*\}$' "no Finished game line"
expect cute.txt '^Score of a vs b: [0-9]+ - [0-9]+ - [0-9]+  \[[01]\.[0-9]{3}\] [1-4]$' "no cutechess score line"
expect cute.txt '^Elo difference: -?([0-9]+\.[0-9]|inf) \+/- ([0-9]+\.[0-9]|inf|nan), LOS: [0-9]+\.[0-9] %, DrawRatio: [0-9]+\.[0-9] %$' \
  "no Elo difference line"
[ "$(tail -n 1 cute.txt)" = "Finished match" ] || fail "cutechess output does not end with Finished match"
! grep -q 'nElo\|Pentanomial' cute.txt || fail "native lines in cutechess output"

# 6. fastchess's block, with an SPRT.
"$loa_match" -engine name=a depth=2 -engine name=b depth=1 -games 2 -rounds 2 -concurrency 1 -output format=fastchess \
  -sprt elo0=0 elo1=10 --state "$dir/run.state" --fresh > fast.txt
expect fast.txt '^Results of a vs b \(2 plies - 1 plies, 1t, 16MB\):$' "no Results of line"
expect fast.txt '^Elo: -?([0-9.]+|inf) \+/- ([0-9.]+|inf|nan), nElo: -?([0-9.]+|inf) \+/- ([0-9.]+|inf|nan)$' "no Elo: line"
expect fast.txt '^Games: 4, Wins: [0-9]+, Losses: [0-9]+, Draws: [0-9]+, Points: [0-9.]+ \([0-9.]+ %\)$' "no Games: line"
expect fast.txt '^Ptnml\(0-2\): \[[0-9]+, [0-9]+, [0-9]+, [0-9]+, [0-9]+\]$' "no Ptnml(0-2) line"
expect fast.txt '^LLR: -?[0-9]+\.[0-9]{2} \(-2\.94, 2\.94\) \[0\.00, 10\.00\]$' "no LLR line"

# 7. A report comes after the game that completes it; before the first whole pair it has no Elo.
"$loa_match" --engine name=a,depth=2 --engine name=b,depth=2,history=absolute --games 2 -j 1 --report-every 1 \
  --state "$dir/run.state" --fresh > report.txt
awk '/^Finished game 1 / { game = NR } /^--- Report after 1 of 2 games/ { report = NR } END { exit !(game && report > game) }' report.txt \
  || { cat report.txt; fail "the report after game 1 came before its game"; }
sed -n '/^--- Report after 1 of 2/,/^---$/p' report.txt > first-report.txt
expect first-report.txt "no game pair finished yet" "the first report does not say why it has no Elo"
! grep -q 'Elo difference\|nElo [-+]\|LOS [0-9]' first-report.txt || { cat first-report.txt; fail "a report before the first pair printed Elo/nElo/LOS"; }

# 8. The banner says what plays: the external engine as such, a preset's overrides, the games.
"$loa_match" -engine name=ext "cmd=$loa" arg=uci depth=1 -engine name=b depth=1 history=absolute lmr=off \
  -games 3 -concurrency 1 --state "$dir/run.state" --fresh > banner.txt
expect banner.txt "^  ext +external uci engine: $loa uci \\(depth=1\\)$" "the external engine is not named as such"
expect banner.txt '^  b +full,history=absolute,(hh_inc=2d,)?lmr=off \(depth=1' "the preset's overrides are not shown"
expect banner.txt '^4 games per pairing \(2 pairs, colours swapped in each; 3 asked, rounded up to whole pairs\)' \
  "the banner does not announce the games played"
[ "$(grep -c '^Finished game' banner.txt)" -eq 4 ] || fail "not 4 games"

# 9. cutechess's M:SS clock and tc=inf with a depth.
"$loa_match" -engine name=a -engine name=b -each tc=1:00+0.1 nodes=200 -games 2 -concurrency 1 \
  --state "$dir/run.state" --fresh > clock.txt
expect clock.txt '^  a +full \(nodes=200,tc=60\+0\.1, eval nnue\)$' "tc=1:00+0.1 is not 60 s + 0.1 s"
"$loa_match" -engine name=a -engine name=b -each tc=inf depth=2 -games 2 -concurrency 1 --state "$dir/run.state" --fresh > inf.txt
expect inf.txt '^  a +full \(depth=2, eval nnue\)$' "tc=inf depth=2 is not a depth-2 engine without a clock"
if "$loa_match" -engine name=a -engine name=b -each tc=inf -games 2 > out.txt 2>&1; then fail "tc=inf without a limit was accepted"; fi
expect out.txt "tc=inf: give the engine a limit" "tc=inf without a limit refused without the reason"

# 10. --plot checked before the first game: an unwritable place, or a user's file beside it.
rm -f run.state
if "$loa_match" --engine name=a,depth=1 --engine name=b,depth=1 "${small[@]}" --plot "$dir/no-such-dir/elo.png" > out.txt 2>&1; then
  fail "a plot into a missing directory was accepted"
fi
expect out.txt "cannot be written: no directory" "no reason for the unwritable plot"
! grep -q '^Finished game' out.txt || fail "games were played before the plot was refused"
[ ! -e run.state ] || fail "a refused plot left a state file"
echo "my notes" > elo.png.dat
if "$loa_match" --engine name=a,depth=1 --engine name=b,depth=1 "${small[@]}" --plot "$dir/elo.png" > out.txt 2>&1; then
  fail "a user's elo.png.dat would have been replaced"
fi
expect out.txt "elo.png.dat is not a loa-match plot.s data" "no reason for the user's .dat"
[ "$(cat elo.png.dat)" = "my notes" ] || fail "the user's file was touched"
echo "runner interop: all checks passed"
