"""The one way the CodinGame scripts write a file: created, or replaced only when the file there
begins with the writer's own marker (never a user's file), through a temporary renamed over it
(never half a file)."""

import os
import tempfile


def write_owned(path, text, marker, program):
    """Writes `text` (which begins with `marker`) to `path`; `program` names the writer in errors."""
    if not text.startswith(marker):
        raise ValueError(f"{program}: the text to write does not begin with its marker")
    if os.path.lexists(path):
        if not os.path.isfile(path) or os.path.islink(path):
            raise SystemExit(f"{program}: {path} is not a regular file; not replaced")
        with open(path, encoding="utf-8", errors="replace") as f:
            if f.read(len(marker)) != marker:
                raise SystemExit(f"{program}: {path} exists and was not made by this script; not replaced")
    handle, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), prefix=f".{program}-", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
