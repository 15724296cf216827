#!/usr/bin/env python3
"""Runs the README's tour and checks that each shown output still has the shape of what the
program prints, so that the tour cannot go stale (issue 82).

    readme_tour.py README.md BIN_DIR...

The tour's examples are the indented lines of the "A short tour" section. A line "$ COMMAND" is
run (with the BIN_DIRs first on PATH; a "# comment" after two spaces is dropped, a trailing
backslash continues it); the lines after it, up to the next command, are its output as shown.
For `loa uci` the shown lines that are UCI commands are its input. Each shown line must match
a line of the real output, in order: numbers stand for any number, a run of moves for any run
of moves, and "..." for anything (a whole line of it: any lines).
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

UCI_INPUT = ("uci", "setoption", "isready", "position", "go", "quit", "ucinewgame", "stop", "debug")
MOVE = r"(?:[a-h][1-8]-?x?[a-h][1-8]|pass)"
NUMBER = r"[-+]?(?:\d+\.?\d*|inf|nan)"


def tour_lines(readme):
    text = open(readme, encoding="utf-8").read()
    start = text.index("## A short tour")
    end = text.index("\n## ", start + 1)
    # The indented lines; None where a paragraph of text parts two blocks.
    lines = []
    for line in text[start:end].split("\n"):
        if line.startswith("    "):
            lines.append(line[4:])
        elif line.strip() and lines and lines[-1] is not None:
            lines.append(None)
    return lines


def examples(lines):
    """(command, shown output lines) in order."""
    out = []
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if line is None or not line.startswith("$ "):
            continue
        command = line[2:]
        while command.rstrip().endswith("\\") and i < len(lines) and lines[i] is not None:
            command = command.rstrip()[:-1] + " " + lines[i].strip()
            i += 1
        command = re.sub(r"\s{2,}#.*$", "", command).strip()
        shown = []
        while i < len(lines) and lines[i] is not None and not lines[i].startswith("$ "):
            if lines[i].strip():
                shown.append(lines[i])
            i += 1
        out.append((command, shown))
    return out


def shape(line):
    """The regular expression a shown line stands for."""
    parts = []
    for word in line.split():
        if word == "...":
            parts.append(r".*")
        elif re.fullmatch(MOVE, word):
            parts.append("MOVES")
        elif re.fullmatch(NUMBER + r"%?", word):
            parts.append(NUMBER + ("%" if word.endswith("%") else ""))
        else:
            # Numbers inside a word ("[+88.7,", "1/8") stand for any number too.
            pieces = re.split(r"(\d+(?:\.\d+)?)", word)
            parts.append("".join(NUMBER if re.fullmatch(r"\d+(?:\.\d+)?", p) else re.escape(p) for p in pieces))
    text = r"\s+".join(parts)
    text = re.sub(r"MOVES(?:\\s\+MOVES)*", MOVE + r"(?:\\s+" + MOVE + r")*", text)
    return re.compile(r"^\s*" + text + r"\s*$")


def check(command, shown, path, work):
    words = shlex.split(command)
    stdin = None
    expected = shown
    if words[:2] == ["loa", "uci"]:
        stdin = "".join(l.strip() + "\n" for l in shown if l.split()[0] in UCI_INPUT)
        expected = [l for l in shown if l.split()[0] not in UCI_INPUT]
    env = dict(os.environ, PATH=path)
    if stdin is None:
        result = subprocess.run(words, capture_output=True, text=True, timeout=300, env=env, cwd=work)
        if result.returncode != 0:
            return f"exit {result.returncode}: {result.stderr.strip()}"
        actual = result.stdout.splitlines()
    else:
        # As a person types it: `quit` once the engine has answered its `go`.
        engine = subprocess.Popen(words, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=work)
        commands = stdin.splitlines()
        quits = [c for c in commands if c == "quit"]
        engine.stdin.write("".join(c + "\n" for c in commands if c != "quit"))
        engine.stdin.flush()
        actual = []
        for line in engine.stdout:
            actual.append(line.rstrip("\n"))
            if line.startswith("bestmove"):
                break
        rest, _ = engine.communicate("".join(q + "\n" for q in quits) or "quit\n", timeout=60)
        actual += rest.splitlines()
        if engine.returncode != 0:
            return f"exit {engine.returncode}"
    at = 0
    for line in expected:
        if line.strip() == "...":
            continue
        pattern = shape(line)
        while at < len(actual) and not pattern.match(actual[at]):
            at += 1
        if at == len(actual):
            return f"no line of the output has the shape of\n    {line}\n  output:\n    " + "\n    ".join(actual[-40:])
        at += 1
    return None


def main():
    readme, bins = sys.argv[1], sys.argv[2:]
    path = os.pathsep.join([os.path.abspath(b) for b in bins] + [os.environ.get("PATH", "")])
    tour = examples(tour_lines(readme))
    if len(tour) < 4:
        print(f"FAIL: the tour has only {len(tour)} commands")
        return 1
    failures = 0
    work = tempfile.mkdtemp(prefix="readme-tour-")  # the files the tour writes (games.pgn, ...)
    for command, shown in tour:
        why = check(command, shown, path, work)
        print(("FAIL: " if why else "ok: ") + command + (f"\n  {why}" if why else ""))
        failures += why is not None
    shutil.rmtree(work, ignore_errors=True)
    print(f"{len(tour) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
