#!/usr/bin/env bash
# The SPRT runs and fixed-length totals of docs/strength.md that span sessions, each under one
# name, so that a run can be started, paused (Ctrl-C, or `pkill -INT -f loa-match`: the state
# keeps every finished game) and resumed from a clean clone with the very command that played its
# first games.
# Usage: bash scripts/strength-run.sh NAME [--resume] [extra loa-match arguments...]
#        bash scripts/strength-run.sh --list
#   --resume  start from docs/results/strength/NAME-paused.state.json (the state committed at the
#             last pause; NAME-paused.state.json.gz when only that exists) unless
#             out/strength/NAME.json.state already exists
# Output: out/strength/NAME.{json,pgn,log} (the log is appended to; the summary goes there too).
# LOA_MATCH chooses the binary (default build/release/matches/loa-match). A resumed run must use
# a binary with the same search as the games already played: the state pins every engine setting
# but not the code (docs/strength.md names the snapshot each run used).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/scripts/named-runs.sh"

# name | seed | report every | tc | games | engines. A seed belongs to one run: a new run takes a
# new one (the totals share theirs, 40 at stc and 41 at ltc, so that every total against a
# baseline plays the same openings). Games empty: an SPRT (elo0=0, elo1=10) that stops at its decision; a number: a fixed
# length without a sequential test (the totals against a baseline, for their interval).
# The runs begun before the frontier trio joined `full` spell that older `full` out ($classic),
# so that their states stay resumable and their engines what they were; every run begun before
# the network became the default evaluation names eval=hce, for the same reason.
classic="preset=full,futility=off,ext_futility=off,razoring=off,eval=hce"
# The frontier margins that cover 99% of every band with the network (`loa-match margins --eval
# nnue`, docs/results/margins/evals/margins-nnue.txt).
nnue_margins="futility=30:150,ext_futility=50:130,razoring=50:190"
# The keys the SPSA run net2-spsa ended at (docs/spsa.md), rounded as the engine plays them.
spsa_keys="lmr_min_depth=2,lmr_min_moves=4,lmr_deep_depth=4,lmr_deep_moves=2,aspiration=27,tm_start=64,tm_max=440,tm_stable=68"
# The default engine before loa-net-2 and the tuned keys, key by key (what `preset=full` played
# from 16c2bdc until row 28 made the candidate below the default).
default_net1="preset=full,eval=data/nets/loa-net-1.nnue,futility=40:320,ext_futility=50:250,razoring=50:340,lmr_min_depth=3,lmr_min_moves=3,lmr_deep_depth=6,lmr_deep_moves=3,aspiration=50,tm_start=60,tm_max=400,tm_stable=60"
base_1c6ef5a="name=base-1c6ef5a,cmd=build/baseline-1c6ef5a/build/loa/loa,args=uci,proto=uci"
# The engine issue 85 measures against (`bash scripts/build-baseline.sh 90a36cb`): the default
# engine of Strength III, on the SSE4.1 kernels.
base_90a36cb="name=base-90a36cb,cmd=build/baseline-90a36cb/build/loa/loa,args=uci,proto=uci"
# Issue 85's pruning: late move pruning, the log LMR formula, one ply more for moves without a
# history success, reverse futility at its first margins; and `full` before them, key by key.
prune4="preset=full,lmp=3,lmp_depth=3,lmr_formula=log,lmr_log_base=75,lmr_log_div=225,lmr_history=on,rfp=50:150,rfp_depth=6"
before_prune4="preset=full,lmp=off,lmr_formula=steps,lmr_history=off,rfp=off"
runs=(
  "frontier-stc|66|50|stc||--test name=frontier,preset=full,eval=hce,futility=on,ext_futility=on,razoring=on --base name=full,$classic"
  "frontier-ltc|68|25|ltc||--test name=frontier,preset=full,eval=hce,futility=on,ext_futility=on,razoring=on --base name=full,$classic"
  "multicut-stc|67|50|stc||--test name=multicut,$classic,multicut=on --base name=full,$classic"
  "solver-stc|69|50|stc||--test name=solver30k,preset=full,eval=hce,solver=30000 --base name=full,preset=full,eval=hce"
  "multicut-full-stc|70|50|stc||--test name=multicut,preset=full,eval=hce,multicut=on --base name=full,preset=full,eval=hce"
  "solver-gated-stc|71|50|stc||--test name=solver30k-s50,preset=full,eval=hce,solver=30000,solver_score=50 --base name=full,preset=full,eval=hce"
  "nnue-ltc|72|25|ltc||--test name=nnue,preset=full,eval=nnue --base name=hce,preset=full,eval=hce"
  "nnue-margins-stc|73|50|stc||--test name=nnue-margins,preset=full,eval=nnue,$nnue_margins --base name=full,preset=full,eval=nnue"
  "nnue-margins-ltc|74|25|ltc||--test name=nnue-margins,preset=full,eval=nnue,$nnue_margins --base name=full,preset=full,eval=nnue"
  # loa-net-2 (more data: the network's own self-play) against the default net, loa-net-1.
  "net2-stc|75|50|stc||--test name=net2,preset=full,eval=data/nets/loa-net-2.nnue --base name=net1,preset=full,eval=nnue"
  "net2-ltc|76|25|ltc||--test name=net2,preset=full,eval=data/nets/loa-net-2.nnue --base name=net1,preset=full,eval=nnue"
  # The connectivity inputs (loa-net-2-conn: loa-net-2's data and settings, and the 8 inputs)
  # against loa-net-2 itself: what the inputs are worth at equal time, their cost included.
  "conn-stc|79|50|stc||--test name=net2-conn,preset=full,eval=data/nets/loa-net-2-conn.nnue --base name=net2,preset=full,eval=data/nets/loa-net-2.nnue"
  # loa-net-3 (2.3 times loa-net-2's data, played by the default engine since row 28) against
  # loa-net-2, both the default engine otherwise (its margins and the tuned keys of `full`).
  "net3-stc|84|50|stc||--test name=net3,preset=full,eval=data/nets/loa-net-3.nnue --base name=net2,preset=full,eval=data/nets/loa-net-2.nnue"
  # The SPSA result of net2-spsa (scripts/spsa-run.sh, docs/spsa.md) on the engine it tuned:
  # loa-net-2 with the network's margins, tuned keys against untuned.
  "spsa-stc|81|50|stc||--test name=net2-spsa,preset=full,eval=data/nets/loa-net-2.nnue,$nnue_margins,$spsa_keys --base name=net2m,preset=full,eval=data/nets/loa-net-2.nnue,$nnue_margins"
  # The three together (loa-net-2, its margins, the SPSA keys) against today's default, spelled
  # out (loa-net-1, the hce margins, the untuned keys) so that the run stays resumable once the
  # candidate has become `full`: the ltc confirmation that decides the new default.
  "candidate-ltc|82|25|ltc||--test name=net2-tuned,preset=full,eval=data/nets/loa-net-2.nnue,$nnue_margins,$spsa_keys --base name=net1-default,$default_net1"
  # The default engine since row 28 (loa-net-2, its margins, the tuned keys) against the
  # hand-written evaluation with its own margins and the same keys: what the net gained at
  # equal time (docs/evaluation.md).
  "net2-hce-stc|83|50|stc||--test name=net2,preset=full --base name=hce,preset=full,eval=hce,futility=40:320,ext_futility=50:250,razoring=50:340"
  # The totals of issue #57: the default engine of 16c2bdc (the network) against 1c6ef5a, built
  # by `bash scripts/build-baseline.sh 1c6ef5a`, with LOA_MATCH a snapshot of 16c2bdc's loa-match.
  "total-stc-16c2bdc|40|50|stc|1000|--test name=head-16c2bdc,preset=full --base $base_1c6ef5a"
  "total-ltc-16c2bdc|41|25|ltc|600|--test name=head-16c2bdc,preset=full --base $base_1c6ef5a"
  # The same totals for the default engine since row 28 (loa-net-2, its margins, the SPSA keys:
  # preset=full of the commit that made them the default, or any later one with the same search).
  "total-stc-net2|40|50|stc|1000|--test name=head-net2,preset=full --base $base_1c6ef5a"
  "total-ltc-net2|41|25|ltc|600|--test name=head-net2,preset=full --base $base_1c6ef5a"
  # Issue 85. The AVX2/AVX-512 kernels: the same search and net as 90a36cb (bench 159111),
  # the test on the fastest kernel this CPU runs (avx512vnni here), the base on SSE4.1.
  "kernels-stc|85|50|stc||--test name=vnni,preset=full --base $base_90a36cb"
  # Late move pruning and the log LMR formula (equal-nodes screens in docs/strength.md) against
  # the default without them; prune-stc played 3661f54's LMP, which could prove a false loss
  # (paused, superseded; its state is in git's history, `git show 7848dac:docs/results/strength/
  # prune-stc-paused.state.json`, not in the tree). prune4-stc and prune4-ltc add the history-based reduction and reverse
  # futility (5a43c67). Both engines are spelled out so that the runs resume once the test is
  # the default.
  "prune-stc|90|50|stc||--test name=lmp-log,preset=full,lmp=3,lmr_formula=log --base name=full,preset=full,lmp=off,lmr_formula=steps"
  "prune4-stc|93|50|stc||--test name=prune4,$prune4 --base name=full,$before_prune4"
  "prune4-ltc|94|25|ltc||--test name=prune4,$prune4 --base name=full,$before_prune4"
  # loa-net-5: loa-net-3's shape and data, trained on loa-net-2's K with 5 quantisation-aware
  # epochs, against the default net (both on the search of today's full, spelled out).
  "net5-stc|95|50|stc||--test name=net5,$before_prune4,eval=data/nets/loa-net-5.nnue --base name=net2,$before_prune4"
  # Its ltc confirmation; the base names loa-net-2's file, so that the run stays resumable once
  # loa-net-5 is the compiled-in net.
  "net5-ltc|96|25|ltc||--test name=net5,$before_prune4,eval=data/nets/loa-net-5.nnue --base name=net2,$before_prune4,eval=data/nets/loa-net-2.nnue"
  # loa-net-6 (loa-net-5's self-play, selfplay-60, its proven positions kept with their proofs as
  # targets) against loa-net-5, both on the search before prune4 spelled out, the nets by file.
  "net6-stc|99|50|stc||--test name=net6,$before_prune4,eval=data/nets/loa-net-6.nnue --base name=net5,$before_prune4,eval=data/nets/loa-net-5.nnue"
  "net6-ltc|100|25|ltc||--test name=net6,$before_prune4,eval=data/nets/loa-net-6.nnue --base name=net5,$before_prune4,eval=data/nets/loa-net-5.nnue"
  # The totals of issue 85: the default engine from row 47 to row 51 (loa-net-6 compiled in)
  # against 90a36cb, with LOA_MATCH a snapshot of a loa-match of that search. (Totals for
  # loa-net-5, the default from row 42 to row 47, were never played.)
  "total-stc-net6|40|50|stc|1000|--test name=head-net6,preset=full --base $base_90a36cb"
  "total-ltc-net6|41|25|ltc|600|--test name=head-net6,preset=full --base $base_90a36cb"
  # loa-net-7 (trained on selfplay-60 and selfplay-61, loa-net-6's self-play, proofs kept as
  # targets) against loa-net-6, both on the search before prune4 spelled out, the nets by file.
  "net7-stc|103|50|stc||--test name=net7,$before_prune4,eval=data/nets/loa-net-7.nnue --base name=net6,$before_prune4,eval=data/nets/loa-net-6.nnue"
  "net7-ltc|104|25|ltc||--test name=net7,$before_prune4,eval=data/nets/loa-net-7.nnue --base name=net6,$before_prune4,eval=data/nets/loa-net-6.nnue"
  # The totals of issue 85 for the default engine since row 51 (loa-net-7 compiled in, bench
  # 188242), the same seeds and baseline as loa-net-6's, LOA_MATCH a snapshot of that search.
  "total-stc-net7|40|50|stc|1000|--test name=head-net7,preset=full --base $base_90a36cb"
  "total-ltc-net7|41|25|ltc|600|--test name=head-net7,preset=full --base $base_90a36cb"
  # The same engine, 35% more nodes a second in loa bench than 65cdc02 (cf92053: the resident
  # VNNI hidden layer, huge pages, the quiescence capture generator, the TT prefetch; bench
  # 188242 as before), LOA_MATCH its snapshot.
  "total-stc-net7-fast|40|50|stc|1000|--test name=head-cf92053,preset=full --base $base_90a36cb"
  "total-ltc-net7-fast|41|25|ltc|600|--test name=head-cf92053,preset=full --base $base_90a36cb"
  # prune4 again on the default net (rows 37 and 38 played it on loa-net-2), the net named by its
  # file on both sides, so that the runs resume once another net is compiled in. (Seeds 97 and 98
  # were first given to the same runs on loa-net-5 and then loa-net-6, which never played a game.)
  "prune7-stc|97|50|stc||--test name=prune4,$prune4,eval=data/nets/loa-net-7.nnue --base name=full,$before_prune4,eval=data/nets/loa-net-7.nnue"
  "prune7-ltc|98|25|ltc||--test name=prune4,$prune4,eval=data/nets/loa-net-7.nnue --base name=full,$before_prune4,eval=data/nets/loa-net-7.nnue"
  # loa-net-8 (loa-net-7's recipe on selfplay-62 and selfplay-63, loa-net-7's self-play) against
  # loa-net-7, both on the search before prune4 spelled out, the nets by file. Not played: at
  # equal nodes loa-net-8 gained +3.5 [-6.3, +13.3] (strength.md row 54).
  "net8-stc|114|50|stc||--test name=net8,$before_prune4,eval=data/nets/loa-net-8.nnue --base name=net7,$before_prune4,eval=data/nets/loa-net-7.nnue"
  "net8-ltc|115|25|ltc||--test name=net8,$before_prune4,eval=data/nets/loa-net-8.nnue --base name=net7,$before_prune4,eval=data/nets/loa-net-7.nnue"
  # loa-net-9 (loa-net-7's recipe on selfplay-60 to selfplay-63: the self-play of loa-net-6 and
  # loa-net-7) against loa-net-7, both on the search before prune4 spelled out, the nets by file.
  "net9-stc|117|50|stc||--test name=net9,$before_prune4,eval=data/nets/loa-net-9.nnue --base name=net7,$before_prune4,eval=data/nets/loa-net-7.nnue"
  "net9-ltc|118|25|ltc||--test name=net9,$before_prune4,eval=data/nets/loa-net-9.nnue --base name=net7,$before_prune4,eval=data/nets/loa-net-7.nnue"
)

usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; }
list() {
  for r in "${runs[@]}"; do
    IFS='|' read -r n s _ t g _ <<< "$r"
    if [[ -n "$g" ]]; then echo "$n (seed $s, tc $t, $g games)"; else echo "$n (seed $s, tc $t, SPRT)"; fi
  done
}

case "${1:-}" in
  ""|-h|--help) usage; echo; echo "Runs:"; list; exit 0 ;;
  --list) list; exit 0 ;;
esac
name="$1"; shift
find_run "$name"
IFS='|' read -r _ seed every tc games engines <<< "$spec"
# A total's test engine plays in process: its name says which commit, and only LOA_MATCH, a
# snapshot of that commit's loa-match, makes it so (this checkout's build may be another).
if [[ "$name" == total-* && -z "${LOA_MATCH:-}" ]]; then
  echo "strength-run.sh: $name plays the engine of the commit in its name: set LOA_MATCH to that commit's loa-match" >&2
  exit 2
fi
if [[ -n "$games" ]]; then length=(--games "$games"); else length=(--games 20000 --sprt elo0=0,elo1=10); fi

resume=0
if [[ "${1:-}" == "--resume" ]]; then resume=1; shift; fi
match="${LOA_MATCH:-$root/build/release/matches/loa-match}"
[[ "$match" == */* ]] && match="$(realpath "$match")"  # a path given from elsewhere
# Paths relative to the root, as the paused runs were started: the state's header records the
# openings file as given, and a resume must match it.
cd "$root"
out="out/strength"; mkdir -p "$out"
state="$out/$name.json.state"
paused="docs/results/strength/$name-paused.state.json"
[[ -e "$paused.gz" && ! -e "$paused" ]] && paused+=".gz"  # a long run's state, committed compressed
(( resume )) && restore_paused "$state" "$paused" games

# shellcheck disable=SC2086  # $engines is a list of words on purpose
exec "$match" $engines --tc "$tc" --openings data/openings/balanced-4-8.txt \
  --openings-order random --seed "$seed" "${length[@]}" -j 2 \
  --report-every "$every" -q --json "$out/$name.json" --pgn "$out/$name.pgn" "$@" \
  >> "$out/$name.log" 2>&1
