#!/usr/bin/env python3
"""run_case.py checks itself: cases that must pass pass, cases that must fail fail, and a table
with a mistake is refused naming the line. Usage: run_case_selftest.py PATH/run_case.py"""
import os
import subprocess
import sys
import tempfile

runner = sys.argv[1]
failures = []


def run(table_text, *args):
    with tempfile.TemporaryDirectory() as tmp:
        table = os.path.join(tmp, "cases.txt")
        with open(table, "w") as f:
            f.write(table_text)
        done = subprocess.run([sys.executable, runner, table, *args, f"build={tmp}"], capture_output=True, text=True)
        return done.returncode, done.stdout + done.stderr


def expect(what, table_text, case, status, words="", **paths):
    code, out = run(table_text, case, *(f"{k}={v}" for k, v in paths.items()))
    if code != status or words not in out:
        failures.append(f"{what}: status {code} (expected {status}), output: {out!r}")


TABLE = """# a comment
case pass.expect
run echo "perft 1 36"
expect ^perft 1 \\d+\\n$

case pass.status
run exit 2
status 2

case pass.continued
run x=4
    echo "$x {word}"
expect ^4 hello

case fail.expect
run echo nothing
expect something

case fail.reject
run echo "score win 3"; echo bestmove
expect bestmove
reject score win

case fail.status
run exit 1

case fail.nonzero
run true
status nonzero

case pass.skip
run exit 77
skip_status 77

case fail.crash
run echo bestmove; kill -SEGV $$
expect bestmove
"""

expect("a matching output", TABLE, "pass.expect", 0)
expect("an expected status", TABLE, "pass.status", 0)
expect("a continued command and a path", TABLE, "pass.continued", 0, word="hello")
expect("a missing path", TABLE, "pass.continued", 2, "no path given for {word}")
expect("an output that does not match", TABLE, "fail.expect", 1, "does not match")
expect("an output with what it must not hold", TABLE, "fail.reject", 1, "matches what it must not")
expect("a failing command", TABLE, "fail.status", 1, "exit status 1, expected 0")
expect("a command that should fail", TABLE, "fail.nonzero", 1, "expected a failure")
expect("a skip", TABLE, "pass.skip", 77)
expect("a crash after the expected output", TABLE, "fail.crash", 1, "killed by signal 11")
expect("a path with a space", "case a\nrun echo {dir}/x\nexpect ^/a b/x\n", "a", 0, dir="/a b")
expect("trailing whitespace", "case a\nrun true\nexpect x \n", "a", 2, ":3: trailing whitespace")
expect("a status that is no number", "case a\nrun true\nstatus two\n", "a", 2, "status takes a number")
expect("an unknown case", TABLE, "no.such.case", 2, "no case 'no.such.case'")
expect("an unknown field", "case a\nrun true\nexpcet x\n", "a", 2, ":3: unknown field 'expcet'")
expect("a case twice", "case a\nrun true\n\ncase a\nrun true\n", "a", 2, "case 'a' twice")
expect("a case without a command", "case a\nexpect x\n", "a", 2, "case 'a' has no 'run'")
expect("a bad regex", "case a\nrun true\nexpect (\n", "a", 2, "bad expect regex")
expect("a bad build", "case a\nrun true\nunless release\n", "a", 2, "unless takes")

with tempfile.TemporaryDirectory() as tmp:
    table = os.path.join(tmp, "cases.txt")
    with open(table, "w") as f:
        f.write("case a.b\nrun true\nunless sanitize tsan\ntimeout 30\nserial\ncost 100\nlabels slow x\n")
    out = subprocess.run([sys.executable, runner, "--cmake", table], capture_output=True, text=True).stdout
    for line in ("if(NOT LOA_SANITIZE AND NOT LOA_TSAN)", "add_test(NAME a.b COMMAND ${LOA_CLI_CASE_RUNNER} a.b ${LOA_CLI_CASE_PATHS})",
                 'set_tests_properties(a.b PROPERTIES TIMEOUT 30 RUN_SERIAL TRUE COST 100 LABELS "slow;x")', "endif()"):
        if line not in out:
            failures.append(f"--cmake lacks {line!r}: {out!r}")

for f in failures:
    print("FAIL", f)
print("run_case selftest:", "failed" if failures else "ok")
sys.exit(1 if failures else 0)
