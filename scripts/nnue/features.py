"""Positions and the network's inputs (docs/nnue.md): the position text, the piece inputs of each
perspective, the board's 8 symmetries, and the connectivity inputs, both from their definitions
one position at a time (the reference) and in numpy for many positions at once (what training
uses, checked against the reference by check_connectivity). Needs numpy only.

A position is (black squares, white squares, side to move 'b' or 'w'), squares a1 = 0, b1 = 1,
..., h8 = 63. Many positions are held as "codes": per position 24 entries, a black piece on s is
s, a white one 64 + s, then -1 (piece_codes).
"""

import itertools

import numpy as np

INPUTS = 128            # per perspective: 64 squares of its own pieces, 64 of the opponent's
MAX_PIECES = 24         # 12 a side at most: a perspective has at most 24 active inputs
# Input buckets (docs/nnue.md): each perspective's 128 inputs repeated once per bucket, the
# bucket chosen by its own pieces; set id -> bucket count. Set 1: where the side's centre of mass
# lies, by its Chebyshev distance from the board's centre (under 1, under 2, 2 or more squares).
BUCKET_SETS = {0: 1, 1: 3}
PAD = INPUTS            # the padding index of batch_features without buckets (pad_index)
START = "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b"


# ---------------------------------------------------------------------------------------------
# Position text

def parse_position(text):
    """`<8 ranks from rank 8 down to rank 1, '/'-separated> <b|w>` -> (black squares,
    white squares, side to move 'b' or 'w')."""
    fields = text.split()
    if len(fields) != 2 or fields[1] not in ("b", "w"):
        raise ValueError(f"bad position text (want '<ranks> <b|w>'): {text!r}")
    ranks = fields[0].split("/")
    if len(ranks) != 8:
        raise ValueError(f"bad position text (want 8 ranks): {text!r}")
    black, white = [], []
    for i, rank_text in enumerate(ranks):
        rank = 7 - i
        file = 0
        for ch in rank_text:
            if ch in "12345678":
                file += int(ch)
                continue
            if file > 7:
                raise ValueError(f"rank {rank + 1} has more than 8 squares: {text!r}")
            if ch == "b":
                black.append(file + 8 * rank)
            elif ch == "w":
                white.append(file + 8 * rank)
            elif ch != ".":
                raise ValueError(f"bad character {ch!r} in position text: {text!r}")
            file += 1
        if file != 8:
            raise ValueError(f"rank {rank + 1} does not have 8 squares: {text!r}")
    return black, white, fields[1]


def position_text(black, white, stm):
    """The inverse of parse_position, with digits for runs of empty squares."""
    board = ["."] * 64
    for s in black:
        board[s] = "b"
    for s in white:
        board[s] = "w"
    ranks = []
    for rank in range(7, -1, -1):
        out, empty = "", 0
        for file in range(8):
            c = board[file + 8 * rank]
            if c == ".":
                empty += 1
                continue
            if empty:
                out += str(empty)
                empty = 0
            out += c
        if empty:
            out += str(empty)
        ranks.append(out)
    return "/".join(ranks) + " " + stm


# ---------------------------------------------------------------------------------------------
# Piece inputs, one position and many

def transpose(s):
    """T(s) = 8 * file(s) + rank(s): the reflection in the a1-h8 diagonal."""
    return 8 * (s % 8) + s // 8


def pad_index(bucket_set=0):
    """The padding index of batch_features: one past the last input."""
    return INPUTS * BUCKET_SETS[bucket_set]


def input_bucket(own, bucket_set):
    """The bucket of a perspective whose own pieces are on `own`. Set 1, from its definition:
    the centre of mass (mean file, mean rank) of the pieces, and its Chebyshev distance d from
    the board's centre (3.5, 3.5): bucket 0 if d < 1, 1 if d < 2, else 2 (no pieces: 0). The
    same under the board's 8 symmetries and the colour swap."""
    if bucket_set == 0 or not own:
        return 0
    n = len(own)
    cx = sum(s % 8 for s in own) / n
    cy = sum(s // 8 for s in own) / n
    d = max(abs(cx - 3.5), abs(cy - 3.5))
    return 0 if d < 1 else 1 if d < 2 else 2


def features(black, white, perspective, bucket_set=0):
    """The active inputs of one perspective ('b' or 'w'): its own pieces first (0..63), the
    opponent's at 64 + square, plus 128 times its bucket; White's squares are transposed, so
    that swapping the colours and reflecting the board leaves the evaluation exactly as it is."""
    offset = INPUTS * input_bucket(black if perspective == "b" else white, bucket_set)
    if perspective == "b":
        return [offset + s for s in black] + [offset + 64 + s for s in white]
    return [offset + transpose(s) for s in white] + [offset + 64 + transpose(s) for s in black]


def colour_swapped(black, white, stm):
    """The position with the colours swapped and the board reflected in the a1-h8 diagonal:
    by construction of the inputs its evaluation is exactly the same."""
    return ([transpose(s) for s in white], [transpose(s) for s in black],
            "w" if stm == "b" else "b")


def piece_codes(black, white):
    codes = list(black) + [64 + s for s in white]
    if len(black) > 12 or len(white) > 12:
        raise ValueError("more than 12 pieces a side")
    return codes + [-1] * (MAX_PIECES - len(codes))


def decode_codes(codes):
    """The inverse of piece_codes: (black squares, white squares)."""
    black = [int(c) for c in codes if 0 <= c < 64]
    white = [int(c) - 64 for c in codes if c >= 64]
    return black, white


def symmetry_tables():
    """(8, 64): the square each square goes to under each of the board's 8 symmetries
    (optionally transpose, then optionally mirror the files, then the ranks); row 0 is the
    identity."""
    rows = []
    for swap, mirror_files, mirror_ranks in itertools.product((False, True), repeat=3):
        row = []
        for s in range(64):
            f, r = s % 8, s // 8
            if swap:
                f, r = r, f
            if mirror_files:
                f = 7 - f
            if mirror_ranks:
                r = 7 - r
            row.append(f + 8 * r)
        rows.append(row)
    return np.array(rows, dtype=np.int64)


SYMMETRIES = symmetry_tables()
TRANSPOSE = np.array([transpose(s) for s in range(64)], dtype=np.int64)


def batch_buckets(codes, bucket_set):
    """(Black's bucket, White's bucket) of each position, (n,) each, as input_bucket computes
    them, in integers: with n pieces summing to sx files and sy ranks, 2n * d is
    max(|2 sx - 7n|, |2 sy - 7n|), compared with 2n and 4n."""
    if bucket_set == 0:
        zeros = np.zeros(len(codes), np.int64)
        return zeros, zeros
    square = codes.astype(np.int64) & 63
    buckets = []
    for mine in (codes >= 0) & (codes < 64), codes >= 64:
        n = mine.sum(axis=1)
        sx = np.where(mine, square % 8, 0).sum(axis=1)
        sy = np.where(mine, square // 8, 0).sum(axis=1)
        d2 = np.maximum(np.abs(2 * sx - 7 * n), np.abs(2 * sy - 7 * n))
        buckets.append(np.where(d2 < 2 * n, 0, np.where(d2 < 4 * n, 1, 2)) * (n > 0))
    return buckets[0], buckets[1]


def batch_features(codes, black_to_move, symmetry, bucket_set=0):
    """(side to move's inputs, other side's inputs), each (n, 24) int64 padded with
    pad_index(bucket_set), of positions whose squares are first mapped by the given symmetries
    (0 = as they are). The same inputs as features() (the buckets are the same in every image)."""
    square = SYMMETRIES[symmetry[:, None], codes.astype(np.int64) & 63]
    white = codes >= 64
    padding = codes < 0
    black_bucket, white_bucket = batch_buckets(codes, bucket_set)
    pad = pad_index(bucket_set)
    black_view = np.where(padding, pad, square + 64 * white + INPUTS * black_bucket[:, None])
    white_view = np.where(padding, pad, TRANSPOSE[square] + 64 * ~white + INPUTS * white_bucket[:, None])
    stm = black_to_move[:, None]
    return np.where(stm, black_view, white_view), np.where(stm, white_view, black_view)


def synthetic_positions(rng):
    """Random mixes of pieces (not reachable positions, but any placement is a valid input),
    both sides to move, with the extreme piece counts; and the start position both ways."""
    positions = []
    counts = [(12, 12), (12, 12), (1, 1), (12, 1), (1, 12), (6, 9)]
    counts += [tuple(int(c) for c in rng.integers(1, 13, size=2)) for _ in range(6)]
    for i, (nb, nw) in enumerate(counts):
        squares = rng.permutation(64)[: nb + nw]
        positions.append((sorted(squares[:nb].tolist()), sorted(squares[nb:].tolist()),
                          "bw"[i % 2]))
    start = parse_position(START)
    positions += [start, colour_swapped(*start)]
    return positions


# ---------------------------------------------------------------------------------------------
# Connectivity inputs (extra set 1), from their definitions: for each side, side to move first,
# four values in 0..127 (the same fixed point as the accumulator's activations); docs/nnue.md
# has the same ones. Each is invariant under the board's 8 symmetries, so the trainer's
# augmentation leaves them as they are.

def king_neighbours(s):
    f, r = s % 8, s // 8
    return [ff + 8 * rr for ff in (f - 1, f, f + 1) for rr in (r - 1, r, r + 1)
            if (ff, rr) != (f, r) and 0 <= ff < 8 and 0 <= rr < 8]


def group_count(squares):
    """8-connected groups of a set of squares (depth-first search)."""
    left, groups = set(squares), 0
    while left:
        groups += 1
        todo = [left.pop()]
        while todo:
            for n in king_neighbours(todo.pop()):
                if n in left:
                    left.remove(n)
                    todo.append(n)
    return groups


def euler_numerator(squares):
    """Q1 - Q3 - 2 Qd over the 81 2x2 windows of the board extended by one empty square on
    each side (four times the 8-connected Euler number: groups minus holes)."""
    occupied = set(squares)
    q1 = q3 = qd = 0
    for f in range(-1, 8):
        for r in range(-1, 8):
            a, b = (f + 8 * r in occupied) and f >= 0 and r >= 0, (f + 1 + 8 * r in occupied) and f < 7 and r >= 0
            c = (f + 8 * (r + 1) in occupied) and f >= 0 and r < 7
            d = (f + 1 + 8 * (r + 1) in occupied) and f < 7 and r < 7
            n = a + b + c + d
            q1 += n == 1
            q3 += n == 3
            qd += n == 2 and a == d
    return q1 - q3 - 2 * qd


def side_connectivity(squares):
    """[groups, Euler, concentration, box] of one side's pieces, each 0..127:
    groups 11 * min(groups - 1, 11); Euler clamp(2 * (Q1 - Q3 - 2Qd) + 24, 0, 127);
    concentration min(127, floor(18 * D / n^2)) with D the sum over the pieces of
    max(|n x - sum x|, |n y - sum y|) (n times the Chebyshev distance to the centre of mass:
    D / n^2 is the mean distance, 0..7); box 2 * width * height - 2 of the smallest rectangle
    holding the pieces. A side without pieces has all four 0."""
    n = len(squares)
    if n == 0:
        return [0, 0, 0, 0]
    groups = 11 * min(group_count(squares) - 1, 11)
    euler = max(0, min(127, 2 * euler_numerator(squares) + 24))
    xs, ys = [s % 8 for s in squares], [s // 8 for s in squares]
    sx, sy = sum(xs), sum(ys)
    d = sum(max(abs(n * x - sx), abs(n * y - sy)) for x, y in zip(xs, ys))
    concentration = min(127, 18 * d // (n * n))
    box = 2 * (max(xs) - min(xs) + 1) * (max(ys) - min(ys) + 1) - 2
    return [groups, euler, concentration, box]


def connectivity_inputs(black, white, stm):
    """The 8 connectivity inputs: the side to move's four, then the opponent's."""
    own, other = (black, white) if stm == "b" else (white, black)
    return side_connectivity(own) + side_connectivity(other)


# ---------------------------------------------------------------------------------------------
# The same connectivity inputs of many positions at once, in numpy over bitboards (a1 = bit 0):
# the reference above takes minutes over a million positions, this seconds.

NOT_FILE_A = np.uint64(0xFEFEFEFEFEFEFEFE)
NOT_FILE_H = np.uint64(0x7F7F7F7F7F7F7F7F)
ONE = np.uint64(1)
SQUARE_FILE = np.arange(64) % 8
SQUARE_RANK = np.arange(64) // 8


def king_grow(b):
    """b and its king-step neighbours."""
    row = b | ((b << ONE) & NOT_FILE_A) | ((b >> ONE) & NOT_FILE_H)
    return row | (row << np.uint64(8)) | (row >> np.uint64(8))


def batch_groups(bb):
    """8-connected groups of each bitboard: flood fill from the lowest piece left, all
    positions at once, until every piece is in a counted group."""
    left, groups = bb.copy(), np.zeros(len(bb), np.int64)
    while np.any(left):
        group = left & (~left + ONE)  # the lowest piece left (0 where none is left)
        groups += group != 0
        while True:
            grown = king_grow(group) & left
            if np.array_equal(grown, group):
                break
            group = grown
        left &= ~group
    return groups


def batch_euler(occupied):
    """Q1 - Q3 - 2 Qd of each (n, 64) occupancy, as euler_numerator."""
    board = np.zeros((len(occupied), 10, 10), np.int64)  # [rank + 1, file + 1]: an empty border
    board[:, 1:9, 1:9] = occupied.reshape(-1, 8, 8)
    a, b = board[:, :-1, :-1], board[:, :-1, 1:]
    c, d = board[:, 1:, :-1], board[:, 1:, 1:]
    count = a + b + c + d
    diagonal = (count == 2) & (a == d)
    return ((count == 1).sum(axis=(1, 2)) - (count == 3).sum(axis=(1, 2))
            - 2 * diagonal.sum(axis=(1, 2)))


def batch_concentration(occupied, safe_n):
    """floor(18 * D / n^2) before the cap, as side_connectivity (safe_n: n, at least 1)."""
    sx = occupied @ SQUARE_FILE
    sy = occupied @ SQUARE_RANK
    dist = np.maximum(np.abs(safe_n[:, None] * SQUARE_FILE[None, :] - sx[:, None]),
                      np.abs(safe_n[:, None] * SQUARE_RANK[None, :] - sy[:, None]))
    d_sum = (dist * occupied).sum(axis=1)
    return 18 * d_sum // (safe_n * safe_n)


def batch_box(occupied):
    """2 * width * height - 2 of each occupancy's bounding rectangle (any value when empty)."""
    files = occupied.reshape(-1, 8, 8).any(axis=1)  # (n, 8) over files
    ranks = occupied.reshape(-1, 8, 8).any(axis=2)  # (n, 8) over ranks

    def extent(mask):
        first = np.argmax(mask, axis=1)
        last = 7 - np.argmax(mask[:, ::-1], axis=1)
        return last - first + 1

    return 2 * extent(files) * extent(ranks) - 2


def batch_side_connectivity(bb):
    """(n, 4): [groups, Euler, concentration, box] of each bitboard, as side_connectivity."""
    occupied = ((bb[:, None] >> np.arange(64, dtype=np.uint64)) & ONE).astype(np.int64)  # (n, 64)
    n = occupied.sum(axis=1)
    out = np.zeros((len(bb), 4), np.int64)
    some = n > 0
    out[:, 0] = np.where(some, 11 * np.minimum(batch_groups(bb) - 1, 11), 0)
    out[:, 1] = np.where(some, np.clip(2 * batch_euler(occupied) + 24, 0, 127), 0)
    out[:, 2] = np.where(some, np.minimum(127, batch_concentration(occupied, np.maximum(n, 1))), 0)
    out[:, 3] = np.where(some, batch_box(occupied), 0)
    return out


def batch_connectivity(codes, black_to_move, chunk=65536):
    """(n, 8) int64: the connectivity inputs of each position, side to move's four first."""
    out = np.zeros((len(codes), 8), np.int64)
    for start in range(0, len(codes), chunk):
        part = codes[start:start + chunk].astype(np.int64)
        bits = np.left_shift(ONE, (part & 63).astype(np.uint64))
        black = np.bitwise_or.reduce(np.where((part >= 0) & (part < 64), bits, np.uint64(0)), axis=1)
        white = np.bitwise_or.reduce(np.where(part >= 64, bits, np.uint64(0)), axis=1)
        b, w = batch_side_connectivity(black), batch_side_connectivity(white)
        stm = black_to_move[start:start + chunk, None]
        out[start:start + chunk] = np.concatenate([np.where(stm, b, w), np.where(stm, w, b)], axis=1)
    return out


def check_connectivity(positions):
    """The vectorised inputs must equal the per-position definitions, and each position's must
    equal those of its 8 images under the board's symmetries (which is why the augmentation
    may leave them as they are). Raises SystemExit on a difference."""
    codes = np.array([piece_codes(b, w) for b, w, _ in positions], dtype=np.int16)
    stm = np.array([s == "b" for _, _, s in positions], dtype=bool)
    fast = batch_connectivity(codes, stm)
    for i, (b, w, s) in enumerate(positions):
        want = connectivity_inputs(b, w, s)
        if fast[i].tolist() != want:
            raise SystemExit(f"connectivity inputs differ for {position_text(b, w, s)}: "
                             f"vectorised {fast[i].tolist()}, definition {want}")
        for row in SYMMETRIES[1:]:
            image = connectivity_inputs([int(row[q]) for q in b], [int(row[q]) for q in w], s)
            if image != want:
                raise SystemExit(f"connectivity inputs not symmetric for {position_text(b, w, s)}")
