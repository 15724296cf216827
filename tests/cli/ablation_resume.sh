#!/usr/bin/env bash
# scripts/ablation.sh --resume-from: a paused run's committed state (plain or .gz) becomes the
# output directory's state before the runner starts, with the openings path of its header moved
# to this clone (loa-match before 55bff1c compares it), and a state already there is kept. The runner is a
# stand-in (LOA_MATCH) that prints the state it would resume and its arguments.
# usage: ablation_resume.sh SOURCE_DIR
set -euo pipefail
source_dir="$(cd "$1" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat > "$work/runner" <<'RUNNER'
#!/usr/bin/env bash
for a in "$@"; do [[ "$a" == --json ]] && json_next=1 && continue; [[ -n "${json_next:-}" ]] && { state="$a.state"; json_next=""; }; done
echo "state: $(paste -sd" " "$state" 2> /dev/null || echo none)"
echo "args: $*"
RUNNER
chmod +x "$work/runner"
# A header as loa-match writes it (one JSON line), from a clone at /elsewhere.
printf '{"format":"gauntlet","openings":"file /elsewhere/data/openings/balanced-4-8.txt order=random seed=111","games":1000}\ngame 1\n' \
  > "$work/paused.state.json"
here="file $source_dir/data/openings/balanced-4-8.txt order=random seed=111"
gzip -c "$work/paused.state.json" > "$work/paused.state.json.gz"
run() { LOA_MATCH="$work/runner" bash "$source_dir/scripts/ablation.sh" "$@"; }

out=$(run "$work/a" --tc stc --games 10 -j 2 --seed 5 --resume-from "$work/paused.state.json.gz" 2>&1)
grep -qF "\"openings\":\"$here\",\"games\":1000} game 1" <<< "$out" || fail "the .gz state was not restored to this clone: $out"
grep -q "are this clone's" <<< "$out" || fail "the moved openings path went unreported: $out"
grep -q -- "--resume-from" <<< "$out" && fail "--resume-from reached the runner: $out"
grep -q -- "--seed 5" <<< "$out" || fail "the other arguments were lost: $out"
[[ ! -e "$work/a/ablation.json.state.partial" ]] || fail "a partial state was left behind"

echo "newer" > "$work/a/ablation.json.state"
out=$(run "$work/a" --tc stc --games 10 -j 2 --seed 5 --resume-from "$work/paused.state.json" 2>&1)
grep -q "state: newer" <<< "$out" || fail "an existing state was replaced: $out"

out=$(run "$work/b" --tc stc --games 10 -j 2 --seed 5 --resume-from "$work/paused.state.json" 2>&1)
grep -qF "\"openings\":\"$here\",\"games\":1000} game 1" <<< "$out" || fail "the plain state was not restored to this clone: $out"

if run "$work/c" --resume-from "$work/missing.gz" > "$work/err" 2>&1; then fail "a missing state was accepted"; fi
grep -q "neither" "$work/err" || fail "no clear error for a missing state: $(cat "$work/err")"
if run "$work/d" --resume-from > "$work/err" 2>&1; then fail "--resume-from without a file was accepted"; fi
grep -q "needs a file" "$work/err" || fail "no clear error for a bare --resume-from: $(cat "$work/err")"
# A state begun in this very clone is restored byte for byte.
sed "s|/elsewhere|$source_dir|" "$work/paused.state.json" > "$work/same.state.json"
out=$(run "$work/e" --tc stc --resume-from "$work/same.state.json" 2>&1)
cmp -s "$work/same.state.json" "$work/e/ablation.json.state" || fail "a state of this clone was changed"
grep -q "are this clone's" <<< "$out" && fail "an unmoved path was reported as moved: $out"
echo "ablation.sh --resume-from: .gz and plain states restored, an existing state kept, bad input refused"
