"""The training data: `loa-match datagen` text files (docs/datagen.md) read into numpy arrays,
and their split between training and validation by game. Needs numpy only.
"""

import hashlib
import re

import numpy as np

from features import MAX_PIECES, parse_position, piece_codes

# The least |score| of a proven result in the data (`loa-match datagen --keep-decisive`): the
# engine's ProvenWinScore, 29871, a win the proof-number solver proved without a distance; the
# search's wins and losses in so many plies lie beyond it. Every evaluation stays below it (the
# network's at 20000, net_format.EVAL_LIMIT), so such a score is a proof, not an opinion.
PROVEN_SCORE = 29871


def proven(score):
    """Whether each score (an array) is a proven result."""
    return np.abs(score) >= PROVEN_SCORE


class Data:
    """Positions as arrays. codes[i] lists the pieces (features.piece_codes). Everything is
    from the side to move's view."""

    def __init__(self):
        self.codes, self.black_to_move, self.score, self.result = [], [], [], []
        self.game, self.file = [], []  # the game's number and the index of its file
        self.files = []

    def append(self, codes, black_to_move, score, result, game, file):
        self.codes.append(codes)
        self.black_to_move.append(black_to_move)
        self.score.append(score)
        self.result.append(result)
        self.game.append(game)
        self.file.append(file)

    def finish(self):
        self.codes = np.array(self.codes, dtype=np.int16).reshape(-1, MAX_PIECES)
        self.black_to_move = np.array(self.black_to_move, dtype=bool)
        self.score = np.array(self.score, dtype=np.float64)
        self.result = np.array(self.result, dtype=np.float64)
        self.game = np.array(self.game, dtype=np.int64)
        self.file = np.array(self.file, dtype=np.int64)
        self.conn = None  # (n, 8) connectivity inputs, when the net reads them
        return self

    def __len__(self):
        return len(self.score)

    @classmethod
    def from_positions(cls, positions):
        """Positions (black, white, stm) without score, result or game, to be evaluated."""
        data = cls()
        for b, w, stm in positions:
            data.append(piece_codes(b, w), stm == "b", 0, 0, -1, -1)
        return data.finish()


def parse_line(line):
    """(codes, black to move, score, result) of a `<position> | <score> | <move> | <result>`
    line; ValueError naming the fault."""
    parts = [x.strip() for x in line.split("|")]
    if len(parts) != 4:
        raise ValueError("want '<position> | <score> | <move> | <result>'")
    black, white, stm = parse_position(parts[0])
    result = float(parts[3])
    if result not in (0.0, 0.5, 1.0):
        raise ValueError(f"result {parts[3]}")
    codes = piece_codes(black, white)
    score = int(parts[1])
    return codes, stm == "b", score, result


def load_file(data, file_index, path, max_positions):
    """Appends a file's positions to data; returns what the summary says of the file. The
    game of a position is the number of the `# game N` line before it (-1 before any)."""
    with open(path, "rb") as f:
        raw = f.read()
    info = {"path": path, "bytes": len(raw), "sha256": hashlib.sha256(raw).hexdigest(),
            "positions": 0, "games": 0}
    lines = raw.decode("utf-8").split("\n")
    if lines and lines[-1] != "":
        print(f"{path}: skipping the last line, it has no newline (still being written?)")
    game = -1
    for number, line in enumerate(lines[:-1], 1):
        if max_positions is not None and len(data) >= max_positions:
            break
        if line.startswith("#"):
            m = re.match(r"# game (\d+)\s*$", line)
            if m:
                game = int(m.group(1))
                info["games"] += 1
            continue
        if not line.strip():
            continue
        try:
            codes, black_to_move, score, result = parse_line(line)
        except ValueError as e:
            raise SystemExit(f"{path}:{number}: {e}")
        data.append(codes, black_to_move, score, result, game, file_index)
        info["positions"] += 1
    return info


def load_data(paths, max_positions):
    """Reads datagen files, the first max_positions positions (all if None). A last line
    without its newline (a file still being written) is skipped."""
    data = Data()
    for file_index, path in enumerate(paths):
        data.files.append(load_file(data, file_index, path, max_positions))
    return data.finish()


def split_by_game(data, every):
    """(training indices, validation indices): games whose number is a multiple of `every` are
    held out, so that no game's positions are on both sides."""
    held_out = (data.game >= 0) & (data.game % every == 0)
    return np.flatnonzero(~held_out), np.flatnonzero(held_out)


def count_games(data, indices):
    """The games data[indices] come from (a game is its file and its number)."""
    return len(np.unique(data.file[indices] * 2**32 + data.game[indices]))
