#!/usr/bin/env bash
# The Slurm back end on a real single-node cluster (scripts/slurm-local.sh): a match through
# --slurm 4 equals the same local run game for game (fixed depth), with one task cancelled on
# purpose and resubmitted, and with the driver itself interrupted and started again.
# usage: cluster_test.sh LOA_MATCH SOURCE_DIR
set -euo pipefail
loa_match="$1"; root="$2"
python=/usr/bin/python3
was_up=0
sinfo > /dev/null 2>&1 && was_up=1
bash "$root/scripts/slurm-local.sh" up > /dev/null
work="$(mktemp -d)"
cleanup() {
  scancel --name=loa-match-test > /dev/null 2>&1 || true
  [ "$was_up" -eq 1 ] || bash "$root/scripts/slurm-local.sh" down > /dev/null
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work"
# cancel_task DIR JOB TASK: cancels one task of a run and prints 1 when it had finished before
# the cancel landed (then there is nothing to resubmit), 0 when it was cancelled. Once the task
# has left the queue, its result file tells: a cancelled task writes none, and the driver
# submits again only after two polls (4 s) without it. On a loaded machine, or with fast
# games, the last games may end between the wait for the first ones and the cancel.
cancel_task() {
  local dir="$1" job="$2" task="$3"
  [ -f "$dir/task-$task.json" ] && { echo 1; return; }
  scancel "${job}_$task" 2> /dev/null || { echo 1; return; }
  for _ in $(seq 40); do
    squeue -h -j "${job}_$task" 2> /dev/null | grep -q . || break
    sleep 0.05
  done
  if [ -f "$dir/task-$task.json" ]; then echo 1; else echo 0; fi
}
match=(--engine name=a,depth=4 --engine name=b,depth=4,history=absolute --games 24 --event cluster-test)
same_games() {  # same_games A.json B.json: every game, its moves, result and node counts equal
  "$python" - "$1" "$2" << 'PY'
import json, sys
keys = ["game", "pair", "white", "black", "result", "termination", "moves", "black_nodes", "white_nodes", "opening", "start"]
a, b = (json.load(open(f)) for f in sys.argv[1:3])
ga, gb = ([{k: g[k] for k in keys} for g in r["games"]] for r in (a, b))
if ga != gb or a["pairings"][0]["pentanomial"] != b["pairings"][0]["pentanomial"] or a["settings"] != b["settings"]:
    sys.exit(f"FAIL: {sys.argv[2]} differs from {sys.argv[1]} ({len(ga)} vs {len(gb)} games)")
print(f"{len(gb)} games equal, pentanomial {b['pairings'][0]['pentanomial']}")
PY
}

start=$(date +%s.%N)
"$loa_match" "${match[@]}" -j 1 -q --json local.json --pgn local.pgn > /dev/null
local_s=$(echo "$(date +%s.%N) - $start" | bc)

# 1. Four tasks, one cancelled while it plays: resubmitted for its missing games.
start=$(date +%s.%N)
"$loa_match" "${match[@]}" --slurm 4 --slurm-args "--job-name=loa-match-test" --json slurm.json --pgn slurm.pgn > run1.log 2>&1 &
driver=$!
for _ in $(seq 600); do
  [ -f slurm.json.slurm/task-2.json.state ] && [ "$(wc -l < slurm.json.slurm/task-2.json.state)" -ge 2 ] && break
  sleep 0.05
done
job=$(head -n 1 slurm.json.slurm/jobs)
# When task 2 finished before the cancel landed, there is nothing to resubmit, and the check
# below is skipped (the rest still holds).
finished_first=$(cancel_task slurm.json.slurm "$job" 2)
wait "$driver" || { cat run1.log; echo "FAIL: the driver failed"; exit 1; }
slurm_s=$(echo "$(date +%s.%N) - $start" | bc)
if grep -q "task(s) 2 ended without a result: submitted again" run1.log; then
  echo "task 2 cancelled while it played, and submitted again"
elif [ "$finished_first" -eq 1 ]; then
  echo "warning: task 2 finished before it could be cancelled: resubmission not checked this time"
else
  cat run1.log; echo "FAIL: task 2 was not resubmitted"; exit 1
fi
[ "$(grep -c '^Finished game' run1.log)" -eq 24 ] || { cat run1.log; echo "FAIL: not 24 progress lines"; exit 1; }
same_games local.json slurm.json
# (the Date tags aside: a run may cross midnight)
cmp -s <(grep -v '^\[Date ' local.pgn) <(grep -v '^\[Date ' slurm.pgn) || { echo "FAIL: the PGN differs from the local run's"; exit 1; }
[ ! -e slurm.json.slurm ] || { echo "FAIL: the run directory was left behind"; exit 1; }

# 2. The driver interrupted: the tasks go on; the same command follows them and merges.
"$loa_match" "${match[@]}" --slurm 4 --slurm-args "--job-name=loa-match-test" --json again.json -q > run2.log 2>&1 &
driver=$!
for _ in $(seq 600); do [ -s again.json.slurm/jobs ] && break; sleep 0.05; done  # submitted: the handler is in place
kill -INT "$driver"
status=0; wait "$driver" || status=$?
[ "$status" -eq 130 ] || { cat run2.log; echo "FAIL: the interrupted driver exited $status, not 130"; exit 1; }
grep -q "the Slurm tasks go on" run2.log || { cat run2.log; echo "FAIL: no word of the running tasks"; exit 1; }
"$loa_match" "${match[@]}" --slurm 4 --slurm-args "--job-name=loa-match-test" --json again.json -q > run3.log 2>&1 \
  || { cat run3.log; echo "FAIL: the resumed driver failed"; exit 1; }
same_games local.json again.json

# 3. An SPRT in rounds: each task plays 4 more pairs a round until the merged LLR decides; the
#    games played are the local run's games of the same numbers.
sprt=(--engine name=a,depth=3 --engine name=b,depth=1 --games 160 --event cluster-sprt)
"$loa_match" "${sprt[@]}" -j 1 -q --json sprt-local.json > /dev/null
"$loa_match" "${sprt[@]}" --sprt elo0=0,elo1=40 --slurm 2 --slurm-round 4 --slurm-args "--job-name=loa-match-test" \
  --json sprt-slurm.json > sprt.log 2>&1 || { cat sprt.log; echo "FAIL: the SPRT run failed"; exit 1; }
grep -q "Slurm: round 2, each task up to 8 game pairs" sprt.log || { cat sprt.log; echo "FAIL: no second round"; exit 1; }
grep -q "H1 accepted" sprt.log || { cat sprt.log; echo "FAIL: the SPRT did not accept H1"; exit 1; }
"$python" - sprt-local.json sprt-slurm.json << 'PY'
import json, sys
whole, part = (json.load(open(f)) for f in sys.argv[1:3])
by_index = {g["game"]: g for g in whole["games"]}
games = part["games"]
if not part["stopped_by_sprt"] or not 0 < len(games) < len(whole["games"]) or len(games) % 16:
    sys.exit(f"FAIL: {len(games)} games, stopped_by_sprt {part['stopped_by_sprt']}: not whole rounds of a decided SPRT")
for g in games:
    w = by_index[g["game"]]
    if (g["moves"], g["result"]) != (w["moves"], w["result"]):
        sys.exit(f"FAIL: game {g['game']} differs from the local run's")
print(f"SPRT decided after {len(games)} games ({len(games) // 16} rounds), LLR {part['pairings'][0]['sprt']['llr']:.2f}")
PY

# 4. A tree-size run split over 3 tasks: the merged table, JSON and CSV equal the local run's
#    (times aside).
tree=(treesize --variant name=hh,preset=pvs+tt+hh --variant name=rhh,preset=pvs+tt+rhh
      --positions "$root/data/treesize-positions.txt" --limit 12 --depth 1..4)
"$loa_match" "${tree[@]}" --json tree-local.json --csv tree-local.csv > tree-local.txt 2>&1
"$loa_match" "${tree[@]}" --slurm 3 --slurm-args "--job-name=loa-match-test" --json tree-slurm.json --csv tree-slurm.csv \
  > tree-slurm.txt 2>&1 || { cat tree-slurm.txt; echo "FAIL: the tree-size run failed"; exit 1; }
"$python" - << 'PY'
import csv, json, sys
def runs(path):  # every column but the time
    return [row[:5] + row[6:] for row in csv.reader(open(path))]
def summary(path):
    j = json.load(open(path))
    for row in j["depths"]:
        for v in row["variants"]:
            v.pop("time_ms")
    return j
if runs("tree-local.csv") != runs("tree-slurm.csv") or summary("tree-local.json") != summary("tree-slurm.json"):
    sys.exit("FAIL: the tree-size run over Slurm differs from the local one")
print(f"tree sizes equal: {len(runs('tree-slurm.csv')) - 1} runs")
PY
# the tables' rows, without their time column
for f in tree-local tree-slurm; do
  grep -E '^(Depth|  [a-z])' "$f.txt" | grep -v time_s | sed -E 's/ +[0-9.]+ +(identical|differ)/ \1/' > "$f.table"
done
[ -s tree-slurm.table ] && cmp -s tree-local.table tree-slurm.table || { diff tree-local.table tree-slurm.table; echo "FAIL: the tree-size tables differ"; exit 1; }

# 5. Training data over 3 tasks, one cancelled while it plays: the joined file is the local
#    run's byte for byte; the driver interrupted and started again; then onto a file holding
#    the first games already. The run directory, the locks and the join's temporary go.
gen=(datagen --engine name=d,preset=full,nodes=1500 --random-plies 3 --seed 5)
"$loa_match" "${gen[@]}" --games 24 --out gen-local.txt -j 1 > gen-local.log 2>&1 || { cat gen-local.log; echo "FAIL: local datagen"; exit 1; }
"$loa_match" "${gen[@]}" --games 24 --out gen-slurm.txt --slurm 3 --slurm-args "--job-name=loa-match-test" > gen-slurm.log 2>&1 &
driver=$!
for _ in $(seq 600); do
  ended=$(grep -c '^# end' gen-slurm.txt.slurm/task-2.txt 2> /dev/null || true)
  [ -s gen-slurm.txt.slurm/jobs ] && [ "${ended:-0}" -ge 1 ] && break
  sleep 0.05
done
job=$(head -n 1 gen-slurm.txt.slurm/jobs)
finished_first=$(cancel_task gen-slurm.txt.slurm "$job" 2)
wait "$driver" || { cat gen-slurm.log; echo "FAIL: the datagen driver failed"; exit 1; }
if grep -q "task(s) 2 ended without a result: submitted again" gen-slurm.log; then
  echo "datagen: task 2 cancelled while it played, and submitted again"
elif [ "$finished_first" -eq 1 ]; then
  echo "warning: datagen's task 2 finished before it could be cancelled: resubmission not checked this time"
else
  cat gen-slurm.log; echo "FAIL: datagen's task 2 was not resubmitted"; exit 1
fi
cmp -s gen-local.txt gen-slurm.txt || { cat gen-slurm.log; echo "FAIL: the data over Slurm differs from the local run's"; exit 1; }
grep -q "joined 3 parts onto gen-slurm.txt: 24 games" gen-slurm.log || { cat gen-slurm.log; echo "FAIL: no join line"; exit 1; }
grep -q "24 games played" gen-slurm.log || { cat gen-slurm.log; echo "FAIL: the summary does not count 24 games"; exit 1; }
for f in gen-slurm.txt.slurm gen-slurm.txt.lock gen-slurm.txt.slurm.lock gen-slurm.txt.joining; do
  [ ! -e "$f" ] || { ls -la; echo "FAIL: $f was left behind"; exit 1; }
done
# The driver interrupted once its tasks are submitted: they go on; the same command follows them.
"$loa_match" "${gen[@]}" --games 24 --out gen-again.txt --slurm 3 --slurm-args "--job-name=loa-match-test" > gen-again.log 2>&1 &
driver=$!
for _ in $(seq 600); do [ -s gen-again.txt.slurm/jobs ] && break; sleep 0.05; done
kill -INT "$driver"
status=0; wait "$driver" || status=$?
[ "$status" -eq 130 ] || { cat gen-again.log; echo "FAIL: the interrupted datagen driver exited $status, not 130"; exit 1; }
[ ! -e gen-again.txt ] || { echo "FAIL: the interrupted driver wrote --out"; exit 1; }
# Another split of its run directory is refused, naming both; the same command follows the tasks.
if "$loa_match" "${gen[@]}" --games 24 --out gen-again.txt --slurm 2 > gen-split.log 2>&1; then
  cat gen-split.log; echo "FAIL: another split of a run directory was taken"; exit 1
fi
grep -q "holds the parts of another split of the games (games 1-24 over 3 tasks; this run's would be games 1-24 over 2)" gen-split.log \
  || { cat gen-split.log; echo "FAIL: the other split is not named"; exit 1; }
"$loa_match" "${gen[@]}" --games 24 --out gen-again.txt --slurm 3 --slurm-args "--job-name=loa-match-test" > gen-again2.log 2>&1 \
  || { cat gen-again2.log; echo "FAIL: the restarted datagen driver failed"; exit 1; }
cmp -s gen-local.txt gen-again.txt || { echo "FAIL: the data of the restarted driver differs from the local run's"; exit 1; }
"$loa_match" "${gen[@]}" --games 12 --out gen-more.txt -j 1 > /dev/null 2>&1 || { echo "FAIL: local datagen of 12 games"; exit 1; }
"$loa_match" "${gen[@]}" --games 24 --out gen-more.txt --slurm 2 --slurm-args "--job-name=loa-match-test" > gen-more.log 2>&1 \
  || { cat gen-more.log; echo "FAIL: datagen over Slurm onto a file"; exit 1; }
grep -q "games 13-24 over 2 Slurm tasks" gen-more.log || { cat gen-more.log; echo "FAIL: not the missing games"; exit 1; }
cmp -s gen-local.txt gen-more.txt || { echo "FAIL: the data grown over Slurm differs from the local run's"; exit 1; }
[ ! -e gen-more.txt.slurm ] || { echo "FAIL: the run directory was left"; exit 1; }
echo "datagen over Slurm: the local run's file, whole, after an interrupted driver, and grown"

# 6. The run directory is the run's alone (issue 54): a directory of the user's is refused,
#    never emptied; an empty one keeps whatever else appears in it and is not removed.
match4=(--engine name=a,depth=2 --engine name=b,depth=2,history=absolute --games 4 --event cluster-dirs)
mkdir precious && echo x > precious/thesis.txt
if "$loa_match" "${match4[@]}" --slurm 2 --slurm-dir precious --slurm-args "--job-name=loa-match-test" \
     --json precious.json -q > precious.log 2>&1; then
  cat precious.log; echo "FAIL: a --slurm-dir holding a user's file was taken"; exit 1
fi
grep -q "not a loa-match run directory" precious.log || { cat precious.log; echo "FAIL: no reason given"; exit 1; }
[ "$(cat precious/thesis.txt)" = x ] && [ "$(ls precious)" = thesis.txt ] || { echo "FAIL: precious/ was touched"; exit 1; }
if "$loa_match" "${match4[@]}" --slurm 2 --slurm-dir precious --fresh --slurm-args "--job-name=loa-match-test" \
     --json precious.json -q > precious.log 2>&1 || [ "$(cat precious/thesis.txt)" != x ]; then
  cat precious.log; echo "FAIL: --fresh took or emptied a user's directory"; exit 1
fi
mkdir empty
"$loa_match" "${match4[@]}" --slurm 2 --slurm-dir empty --slurm-args "--job-name=loa-match-test" \
  --json empty.json -q > empty.log 2>&1 &
driver=$!
for _ in $(seq 600); do [ -s empty/jobs ] && break; sleep 0.05; done
echo mine > empty/notes.txt  # a file of the user's put there while the run plays
wait "$driver" || { cat empty.log; echo "FAIL: the run in an empty directory failed"; exit 1; }
[ "$(ls empty)" = notes.txt ] || { ls empty; echo "FAIL: the run left its files, or deleted the user's"; exit 1; }
echo "run directories: a user's refused and untouched, an empty one emptied of the run's files only"

printf 'cluster test passed: local run %.1f s, 4 Slurm tasks (one cancelled and resubmitted) %.1f s\n' "$local_s" "$slurm_s"
