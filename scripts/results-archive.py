#!/usr/bin/python3
"""The games of docs/results live in git's history, not in the tree (issue 84: the tree is a
codebase, not an archive). A run's result file in the tree is its summary: the result JSON
without its "games", plus "games_archived", which names the commit whose tree holds the whole
file and the file's SHA-256. `restore` brings the whole file back, checked against that digest,
for `loa-match merge`, the web board's Replay or any other reader of games.

  scripts/results-archive.py pack FILE...      replace each result file by its summary
  scripts/results-archive.py restore FILE [--out PATH]
                                               write the whole file (default: FILE.full.json)
  scripts/results-archive.py check [FILE...]   every summary's archive is reachable and whole
"""

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def default_mode():
    """The mode a new file gets from open(2) with 0666: what the user's umask leaves of it."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_whole(path, data, replace):
    """Writes `path` whole or not at all: a temporary file of its own beside it, renamed over the
    file it replaces (whose mode it keeps) or linked to a new name (never over a file that appeared
    meanwhile), as the C++ side's common/files.cpp does."""
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        sys.exit(f"results-archive: cannot write {path}: {directory} is not a directory")
    fd, temporary = tempfile.mkstemp(dir=directory, prefix=".results-archive-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            os.fchmod(f.fileno(), os.stat(path).st_mode & 0o7777 if replace else default_mode())
            f.flush()
            os.fsync(f.fileno())  # on disk before its name is: a crash leaves the old file or the new
        if replace:
            os.replace(temporary, path)
        else:
            try:
                os.link(temporary, path)
            except FileExistsError:
                sys.exit(f"results-archive: {path} exists already: give another --out")
            os.unlink(temporary)
    except BaseException:
        if os.path.lexists(temporary):
            os.unlink(temporary)
        raise


def git(*args, binary=False):
    out = subprocess.run(["git", "-C", ROOT, *args], check=True, capture_output=True).stdout
    return out if binary else out.decode().strip()


def repo_path(path):
    return os.path.relpath(os.path.abspath(path), ROOT)


def summary_of(path):
    """The summary JSON of a result file, or None when it holds no games to archive."""
    with open(path, "rb") as f:
        whole = f.read()
    try:
        result = json.loads(whole)
    except json.JSONDecodeError:
        return None  # a state file (JSON lines): a paused run's, kept whole to resume it
    if not isinstance(result, dict) or not isinstance(result.get("games"), list) or "games_archived" in result:
        return None
    commit = git("log", "-1", "--format=%H", "--", repo_path(path))
    if git("status", "--porcelain", "--", repo_path(path)):
        sys.exit(f"results-archive: {path} differs from its last commit: commit it first")
    summary = {key: value for key, value in result.items() if key != "games"}
    summary["games_archived"] = {
        "games": len(result["games"]),
        "commit": commit,
        "path": repo_path(path),
        "sha256": hashlib.sha256(whole).hexdigest(),
        "bytes": len(whole),
        "restore": f"scripts/results-archive.py restore {repo_path(path)}",
    }
    return summary


def pack(paths):
    for path in paths:
        summary = summary_of(path)
        if summary is None:
            print(f"{path}: no games to archive, left as it is")
            continue
        text = json.dumps(summary, indent=2) + "\n"
        write_whole(path, text.encode(), replace=True)
        archived = summary["games_archived"]
        print(f"{path}: {archived['bytes']} bytes -> {len(text)} (games {archived['games']} in {archived['commit'][:12]})")


def archived_bytes(path):
    """The whole file a summary names, checked against its digest."""
    with open(path) as f:
        archived = json.load(f).get("games_archived")
    if not archived:
        sys.exit(f"results-archive: {path} is not a summary with archived games")
    whole = git("show", f"{archived['commit']}:{archived['path']}", binary=True)
    if hashlib.sha256(whole).hexdigest() != archived["sha256"]:
        sys.exit(f"results-archive: {archived['commit'][:12]}:{archived['path']} does not match the summary's SHA-256")
    return whole


def restore(path, out):
    out = out or (path[: -len(".json")] if path.endswith(".json") else path) + ".full.json"
    whole = archived_bytes(path)
    write_whole(out, whole, replace=False)
    print(f"{out}: {len(whole)} bytes, the SHA-256 the summary names")


def summaries_under(directory):
    for here, _, names in os.walk(directory):
        for name in sorted(names):
            if name.endswith(".json"):
                path = os.path.join(here, name)
                with open(path) as f:
                    try:
                        if "games_archived" in json.load(f):
                            yield path
                    except (json.JSONDecodeError, TypeError):
                        continue


def check(paths):
    paths = paths or list(summaries_under(os.path.join(ROOT, "docs", "results")))
    for path in paths:
        archived_bytes(path)
    print(f"{len(paths)} summaries: every archive reachable and whole")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("pack").add_argument("files", nargs="+")
    r = sub.add_parser("restore")
    r.add_argument("file")
    r.add_argument("--out")
    sub.add_parser("check").add_argument("files", nargs="*")
    args = p.parse_args()
    if args.command == "pack":
        pack(args.files)
    elif args.command == "restore":
        restore(args.file, args.out)
    else:
        check(args.files)


if __name__ == "__main__":
    main()
