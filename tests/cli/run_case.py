#!/usr/bin/env python3
"""The command-line cases of tests/cli/cases.txt: one table, one runner.

  run_case.py --cmake TABLE              the CMake code that registers every case (configure time)
  run_case.py TABLE NAME KEY=PATH...     runs case NAME, the programs and folders given as KEY=PATH

A case is a block of lines (blank lines part them, '#' starts a comment line):

  case NAME          the test's name in CTest
  run COMMAND        a bash command line; more lines indented under it continue it (their
                     indentation dropped); a crash (a signal) always fails
  expect REGEX       the output (stdout and stderr) must match (Python re, DOTALL); the exit
                     status is then not checked, as with CTest's PASS_REGULAR_EXPRESSION
  reject REGEX       the output must not match
  status N|nonzero   the exit status (default 0 when there is no expect)
  env NAME=VALUE     set in the command's environment (repeatable)
  skip_status N      this exit status means "skipped" (CTest's SKIP_RETURN_CODE)
  unless BUILD...    not registered in these builds (sanitize, tsan)
  timeout SECONDS    CTest's TIMEOUT
  serial             nothing else runs beside it (RUN_SERIAL)
  cost N             started before cheaper cases (CTest's COST)
  labels LABEL...    CTest labels (e.g. slow)

A line may not end in whitespace (a regex that needs a trailing space writes [ ]). In COMMAND
and env, {KEY} is the path given as KEY=PATH (quoted for the shell in COMMAND; ${KEY} is
bash's): {loa}, {loa_match}, {loa_web}, {source} (the project), {tests} (tests/), {build} (the
test build folder), and what the CMake side adds (e.g. {shipped_net}, {resume_depth}).
"""
import os
import re
import shlex
import signal
import subprocess
import sys

KEYS = {"case", "run", "expect", "reject", "status", "env", "skip_status", "unless", "timeout", "serial", "cost", "labels"}
BUILDS = {"sanitize": "LOA_SANITIZE", "tsan": "LOA_TSAN"}
DEFAULT_TIMEOUT = 1500  # CTest's


class TableError(Exception):
    pass


def read_table(path):
    """The cases, in order, each a dict; raises TableError naming the line of a mistake."""
    cases, case = [], None
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    last_key = None
    for number, line in enumerate(lines, 1):
        where = f"{path}:{number}"
        if not line.strip():
            case, last_key = None, None
            continue
        if line.lstrip().startswith("#"):
            continue
        if line != line.rstrip():
            raise TableError(f"{where}: trailing whitespace (write a space a regex needs as [ ])")
        if line[0] in " \t":  # continues the field above it (its indentation is dropped)
            if last_key != "run":
                raise TableError(f"{where}: an indented line continues only a 'run'")
            case["run"] += "\n" + line.strip()
            continue
        if line != line.rstrip():
            raise TableError(f"{where}: trailing whitespace (write a space a regex needs as [ ])")
        key, _, value = line.partition(" ")
        value = value.strip()
        if key not in KEYS:
            raise TableError(f"{where}: unknown field '{key}' (fields: {' '.join(sorted(KEYS))})")
        if key == "case":
            if case is not None:
                raise TableError(f"{where}: a new case needs a blank line before it")
            if not re.fullmatch(r"[a-z][a-z0-9_.-]*", value):
                raise TableError(f"{where}: bad case name '{value}'")
            if any(c["case"] == value for c in cases):
                raise TableError(f"{where}: case '{value}' twice")
            case = {"case": value, "env": []}
            cases.append(case)
        elif case is None:
            raise TableError(f"{where}: '{key}' outside a case (start one with 'case NAME')")
        elif key == "env":
            case["env"].append(value)
        elif key in case:
            raise TableError(f"{where}: '{key}' twice in case '{case['case']}'")
        else:
            case[key] = value
        last_key = key
    for c in cases:
        if "run" not in c:
            raise TableError(f"{path}: case '{c['case']}' has no 'run'")
        for build in c.get("unless", "").split():
            if build not in BUILDS:
                raise TableError(f"{path}: case '{c['case']}': unless takes {' '.join(BUILDS)}, not '{build}'")
        for field in ("status", "skip_status", "timeout", "cost"):
            value = c.get(field)
            if value is not None and not (value.isdigit() or (field == "status" and value == "nonzero")):
                raise TableError(f"{path}: case '{c['case']}': {field} takes a number, not '{value}'")
        for pattern in ("expect", "reject"):
            if pattern in c:
                try:
                    re.compile(c[pattern], re.DOTALL)
                except re.error as e:
                    raise TableError(f"{path}: case '{c['case']}': bad {pattern} regex: {e}")
    return cases


def cmake_text(table):
    """add_test calls for every case: each runs this script on its own case."""
    out = [f"# Generated from {table} by {os.path.basename(__file__)}: do not edit."]
    for c in read_table(table):
        name = c["case"]
        guard = [f"NOT {BUILDS[b]}" for b in c.get("unless", "").split()]
        indent = "  " if guard else ""
        if guard:
            out.append(f"if({' AND '.join(guard)})")
        out.append(f"{indent}add_test(NAME {name} COMMAND ${{LOA_CLI_CASE_RUNNER}} {name} ${{LOA_CLI_CASE_PATHS}})")
        props = []
        if "timeout" in c:
            props.append(f"TIMEOUT {c['timeout']}")
        if "serial" in c:
            props.append("RUN_SERIAL TRUE")
        if "cost" in c:
            props.append(f"COST {c['cost']}")
        if "labels" in c:
            props.append(f"LABELS \"{';'.join(c['labels'].split())}\"")
        if "skip_status" in c:
            props.append(f"SKIP_RETURN_CODE {c['skip_status']}")
        if props:
            out.append(f"{indent}set_tests_properties({name} PROPERTIES {' '.join(props)})")
        if guard:
            out.append("endif()")
    return "\n".join(out) + "\n"


def substitute(text, paths, quote=True):
    def one(m):
        if m.group(1) not in paths:
            raise TableError(f"no path given for {{{m.group(1)}}} (given: {' '.join(sorted(paths))})")
        return shlex.quote(paths[m.group(1)]) if quote else paths[m.group(1)]
    return re.sub(r"(?<!\$)\{([a-z_]+)\}", one, text)  # ${name} is bash's


def run_case(table, name, paths):
    case = next((c for c in read_table(table) if c["case"] == name), None)
    if case is None:
        raise TableError(f"{table}: no case '{name}'")
    command = substitute(case["run"], paths)
    env = dict(os.environ)
    for item in case["env"]:
        key, _, value = item.partition("=")
        env[key] = substitute(value, paths, quote=False)
    print(f"$ {command}", flush=True)
    # A process group of its own, ended whole a little before CTest's timeout would kill this
    # runner alone and leave the command's processes running.
    limit = int(case.get("timeout", DEFAULT_TIMEOUT)) - 5
    process = subprocess.Popen(["bash", "-c", command], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               cwd=paths.get("build"), start_new_session=True)
    try:
        stdout, _ = process.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        stdout, _ = process.communicate()
        sys.stdout.write(stdout.decode("utf-8", errors="replace"))
        print(f"FAIL {name}: no end after {limit} s")
        return 1
    output = stdout.decode("utf-8", errors="replace")
    sys.stdout.write(output)
    if process.returncode < 0:  # killed by a signal: a crash fails whatever it printed first
        print(f"FAIL {name}: killed by signal {-process.returncode}")
        return 1
    if "skip_status" in case and process.returncode == int(case["skip_status"]):
        return int(case["skip_status"])
    failures = []
    if "expect" in case and not re.search(case["expect"], output, re.DOTALL):
        failures.append(f"the output does not match: {case['expect']}")
    if "reject" in case and re.search(case["reject"], output, re.DOTALL):
        failures.append(f"the output matches what it must not: {case['reject']}")
    status = case.get("status", None if "expect" in case else "0")
    if status == "nonzero" and process.returncode == 0:
        failures.append("exit status 0, expected a failure")
    elif status not in (None, "nonzero") and process.returncode != int(status):
        failures.append(f"exit status {process.returncode}, expected {status}")
    for f in failures:
        print(f"FAIL {name}: {f}")
    return 1 if failures else 0


def main(argv):
    try:
        if len(argv) == 3 and argv[1] == "--cmake":
            sys.stdout.write(cmake_text(argv[2]))
            return 0
        if len(argv) >= 3 and not argv[1].startswith("-"):
            paths = {}
            for item in argv[3:]:
                key, sep, value = item.partition("=")
                if not sep:
                    raise TableError(f"'{item}' is not KEY=PATH")
                paths[key] = value
            return run_case(argv[1], argv[2], paths)
    except (TableError, OSError) as e:
        print(f"run_case.py: error: {e}", file=sys.stderr)
        return 2
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
