#!/usr/bin/python3
"""Trains the NNUE evaluation of Lines of Action (docs/nnue.md) on `loa-match datagen` data
(docs/datagen.md) and exports it quantised: the .nnue file, a test-vectors file and a JSON
summary beside it.

The network: per perspective an EmbeddingBag over the <= 24 active inputs plus a bias (H
values, shared by both perspectives), clamp(0, 1), [side to move's half | other half],
Linear(2H, L), clamp(0, 1), Linear(L, 1); evaluation = output * S centi-units. With
--connectivity, the hidden layer also reads 8 connectivity inputs (groups, Euler number,
concentration and bounding box of each side, read_net.connectivity_inputs): Linear(2H + 8, L).

The loss is the mean squared error between sigmoid(K * evaluation) and the target
lambda * sigmoid(K * score) + (1 - lambda) * result, score and result those of the data
(side to move's view). K is fitted on the training data unless --k is given. Each epoch shows
every training position in a random one of the board's 8 symmetries. Games, not positions,
are split between training and validation (every --val-every'th game is held out).

Run it with /usr/bin/python3 (Debian's python3-torch), or through scripts/train-net.sh.
"""

import argparse
import hashlib
import itertools
import json
import math
import os
import re
import sys
import time

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import read_net as fmt  # noqa: E402  (the file layout, features and integer evaluation)

PAD = fmt.INPUTS  # the padding index: EmbeddingBag's padding_idx, excluded from every sum

# Weight limits, so that quantisation neither overflows nor saturates:
# - the accumulator is int16: the bias and 24 columns, at scale 127, must stay within 32767.
#   We leave room for one more column (26 terms), so an engine that adds a moving piece's new
#   square before it removes a captured piece never leaves int16 either.
FT_LIMIT = (32767 // (fmt.MAX_PIECES + 2)) / fmt.FT_SCALE
# - l1_weight is int8 at scale 64;
L1_WEIGHT_LIMIT = 127 / fmt.WEIGHT_SCALE
# - out_weight is int16 at scale 64.
OUT_WEIGHT_LIMIT = 32767 / fmt.WEIGHT_SCALE


def bias_limit(terms, term_max):
    """The largest float bias (scale 127 * 64) whose int32 sum with `terms` products of at most
    `term_max` each still fits int32."""
    return (2**31 - 1 - terms * term_max) / fmt.BIAS_SCALE


# ---------------------------------------------------------------------------------------------
# Options

def parse_args(argv):
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="\n\n".join(__doc__.split("\n\n")[1:]),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", nargs="+", required=True, metavar="FILE",
                   help="datagen text files (lines starting with '#' are skipped)")
    p.add_argument("--out", required=True, metavar="NET.nnue", help="the net to write")
    p.add_argument("--vectors", metavar="FILE",
                   help="the test-vectors file (default: beside the net, NET.vectors.txt)")
    p.add_argument("--hidden", type=int, default=128, metavar="H",
                   help="accumulator size per perspective (multiple of 16, 16..1024; default 128)")
    p.add_argument("--l2", type=int, default=32, metavar="L",
                   help="hidden layer size (multiple of 4, 4..256; default 32)")
    p.add_argument("--connectivity", action="store_true",
                   help="feed the 8 connectivity inputs (each side's groups, Euler number, "
                        "concentration, bounding box) into the hidden layer: a version-2 net with "
                        "extra inputs set 1 (default: none, a version-1 net)")
    p.add_argument("--scale", type=int, default=100, metavar="S",
                   help="output scale, centi-units per unit of the network's output (default 100: "
                        "about 1/K, so the output is close to the logit of the expected result)")
    p.add_argument("--epochs", type=int, default=100, help="default 100")
    p.add_argument("--batch", type=int, default=4096, help="positions per step (default 4096)")
    p.add_argument("--lr", type=float, default=2e-3,
                   help="Adam's learning rate at the start; it decays along a cosine to 1/50 of it "
                        "(default 0.002)")
    p.add_argument("--lambda", dest="lam", type=float, default=0.5, metavar="LAMBDA",
                   help="target = lambda * sigmoid(K * score) + (1 - lambda) * result (default 0.5)")
    p.add_argument("--k", type=float, metavar="K",
                   help="sigmoid scale per centi-unit (default: fitted on the training data by "
                        "minimising the log-loss of sigmoid(K * score) against the result)")
    p.add_argument("--seed", type=int, default=1, help="default 1")
    p.add_argument("--threads", type=int, default=1, help="torch / BLAS threads (default 1)")
    p.add_argument("--vector-count", type=int, default=300,
                   help="validation positions in the vectors file (default 300); a few synthetic "
                        "ones are added")
    p.add_argument("--max-positions", type=int, metavar="N",
                   help="use only the first N positions of the data (in file order)")
    p.add_argument("--force", action="store_true",
                   help="overwrite the net, vectors and summary files if they exist (default: refuse)")
    p.add_argument("--no-augment", action="store_true",
                   help="show the positions as they are, not in a random one of the 8 symmetries "
                        "(for comparison)")
    p.add_argument("--val-every", type=int, default=20, metavar="N",
                   help="hold out every N'th game (game number divisible by N) for validation "
                        "(default 20)")
    args = p.parse_args(argv)
    try:
        fmt.check_sizes(args.hidden, args.l2, args.scale, 0, 1 if args.connectivity else 0)
    except fmt.NetFormatError as e:
        p.error(str(e))
    if not 0 <= args.lam <= 1:
        p.error("--lambda must be in [0, 1]")
    if args.threads < 1 or args.batch < 1 or args.epochs < 1 or args.val_every < 2:
        p.error("--threads, --batch and --epochs must be >= 1, --val-every >= 2")
    for path in args.data:
        if not os.path.isfile(path):
            p.error(f"no such data file: {path}")
    for path in (args.out, args.vectors):
        if path and not os.path.isdir(os.path.dirname(path) or "."):
            p.error(f"no such directory for {path}")
    return args


def beside(net_path, suffix):
    stem = net_path[:-5] if net_path.endswith(".nnue") else net_path
    return stem + suffix


# ---------------------------------------------------------------------------------------------
# Data

class Data:
    """Positions as arrays. codes[i] lists the pieces: a black piece on s is s, a white one
    64 + s, then -1 up to 24 entries. Everything is from the side to move's view."""

    def __init__(self):
        self.codes, self.black_to_move, self.score, self.result = [], [], [], []
        self.game, self.file = [], []  # the game's number and the index of its file
        self.files = []

    def finish(self):
        self.codes = np.array(self.codes, dtype=np.int16).reshape(-1, fmt.MAX_PIECES)
        self.black_to_move = np.array(self.black_to_move, dtype=bool)
        self.score = np.array(self.score, dtype=np.float64)
        self.result = np.array(self.result, dtype=np.float64)
        self.game = np.array(self.game, dtype=np.int64)
        self.file = np.array(self.file, dtype=np.int64)
        self.conn = None  # (n, 8) connectivity inputs, when the net reads them
        return self

    def __len__(self):
        return len(self.score)


def piece_codes(black, white):
    codes = list(black) + [64 + s for s in white]
    if len(black) > 12 or len(white) > 12:
        raise ValueError("more than 12 pieces a side")
    return codes + [-1] * (fmt.MAX_PIECES - len(codes))


def load_data(paths, max_positions):
    """Reads datagen files. The game of a position is the number of the `# game N` line before
    it (-1 before any). A last line without its newline (a file still being written) is
    skipped."""
    data = Data()
    for file_index, path in enumerate(paths):
        with open(path, "rb") as f:
            raw = f.read()
        info = {"path": path, "bytes": len(raw), "sha256": hashlib.sha256(raw).hexdigest(),
                "positions": 0, "games": 0}
        text = raw.decode("utf-8")
        lines = text.split("\n")
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
                parts = [x.strip() for x in line.split("|")]
                if len(parts) != 4:
                    raise ValueError("want '<position> | <score> | <move> | <result>'")
                black, white, stm = fmt.parse_position(parts[0])
                result = float(parts[3])
                if result not in (0.0, 0.5, 1.0):
                    raise ValueError(f"result {parts[3]}")
                codes = piece_codes(black, white)
                score = int(parts[1])
            except ValueError as e:
                raise SystemExit(f"{path}:{number}: {e}")
            data.codes.append(codes)
            data.black_to_move.append(stm == "b")
            data.score.append(score)
            data.result.append(result)
            data.game.append(game)
            data.file.append(file_index)
            info["positions"] += 1
        data.files.append(info)
    return data.finish()


def split_by_game(data, every):
    """(training indices, validation indices): games whose number is a multiple of `every` are
    held out, so that no game's positions are on both sides."""
    held_out = (data.game >= 0) & (data.game % every == 0)
    return np.flatnonzero(~held_out), np.flatnonzero(held_out)


def fit_k(score, result):
    """The K minimising the log-loss of sigmoid(K * score) against the result: golden-section
    search (the loss is convex in K, a logistic regression without intercept)."""
    def loss(k):
        p = np.clip(1.0 / (1.0 + np.exp(-k * score)), 1e-12, 1 - 1e-12)
        return -np.mean(result * np.log(p) + (1 - result) * np.log(1 - p))

    lo, hi = 0.0, 0.1
    g = (math.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    fa, fb = loss(a), loss(b)
    while hi - lo > 1e-7:
        if fa < fb:
            hi, b, fb = b, a, fa
            a = hi - g * (hi - lo)
            fa = loss(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + g * (hi - lo)
            fb = loss(b)
    k = (lo + hi) / 2
    return k, loss(k)


# ---------------------------------------------------------------------------------------------
# Symmetries and features

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
TRANSPOSE = np.array([fmt.transpose(s) for s in range(64)], dtype=np.int64)


def batch_features(codes, black_to_move, symmetry):
    """(side to move's inputs, other side's inputs), each (n, 24) int64 padded with PAD, of
    positions whose squares are first mapped by the given symmetries (0 = as they are). The
    same inputs as read_net.features."""
    square = SYMMETRIES[symmetry[:, None], codes.astype(np.int64) & 63]
    white = codes >= 64
    padding = codes < 0
    black_view = np.where(padding, PAD, square + 64 * white)
    white_view = np.where(padding, PAD, TRANSPOSE[square] + 64 * ~white)
    stm = black_to_move[:, None]
    return np.where(stm, black_view, white_view), np.where(stm, white_view, black_view)


# Connectivity inputs of many positions at once, in numpy over bitboards: the same values as
# read_net.connectivity_inputs (checked against it on every run, see check_connectivity).

NOT_FILE_A = np.uint64(0xFEFEFEFEFEFEFEFE)
NOT_FILE_H = np.uint64(0x7F7F7F7F7F7F7F7F)
ONE = np.uint64(1)
SQUARE_FILE = np.arange(64) % 8
SQUARE_RANK = np.arange(64) // 8


def king_grow(b):
    """b and its king-step neighbours (uint64 bitboards, a1 = bit 0)."""
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


def batch_side_connectivity(bb):
    """(n, 4): [groups, Euler, concentration, box] of each bitboard, as side_connectivity."""
    occupied = ((bb[:, None] >> np.arange(64, dtype=np.uint64)) & ONE).astype(np.int64)  # (n, 64)
    n = occupied.sum(axis=1)
    out = np.zeros((len(bb), 4), np.int64)
    some = n > 0
    out[:, 0] = np.where(some, 11 * np.minimum(batch_groups(bb) - 1, 11), 0)
    board = np.zeros((len(bb), 10, 10), np.int64)  # [rank + 1, file + 1]: one empty square around
    board[:, 1:9, 1:9] = occupied.reshape(-1, 8, 8)
    a, b = board[:, :-1, :-1], board[:, :-1, 1:]
    c, d = board[:, 1:, :-1], board[:, 1:, 1:]
    count = a + b + c + d
    diagonal = (count == 2) & (a == d)
    euler = ((count == 1).sum(axis=(1, 2)) - (count == 3).sum(axis=(1, 2))
             - 2 * diagonal.sum(axis=(1, 2)))
    out[:, 1] = np.where(some, np.clip(2 * euler + 24, 0, 127), 0)
    safe_n = np.maximum(n, 1)
    sx = occupied @ SQUARE_FILE
    sy = occupied @ SQUARE_RANK
    dist = np.maximum(np.abs(safe_n[:, None] * SQUARE_FILE[None, :] - sx[:, None]),
                      np.abs(safe_n[:, None] * SQUARE_RANK[None, :] - sy[:, None]))
    d_sum = (dist * occupied).sum(axis=1)
    out[:, 2] = np.where(some, np.minimum(127, 18 * d_sum // (safe_n * safe_n)), 0)
    files = occupied.reshape(-1, 8, 8).any(axis=1)  # (n, 8) over files
    ranks = occupied.reshape(-1, 8, 8).any(axis=2)  # (n, 8) over ranks

    def extent(mask):
        first = np.argmax(mask, axis=1)
        last = 7 - np.argmax(mask[:, ::-1], axis=1)
        return last - first + 1

    out[:, 3] = np.where(some, 2 * extent(files) * extent(ranks) - 2, 0)
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
    """The vectorised inputs must equal the per-position definitions (read_net), and each
    position's must equal those of its 8 images under the board's symmetries (which is why the
    augmentation may leave them as they are). Raises SystemExit on a difference."""
    codes = np.array([piece_codes(b, w) for b, w, _ in positions], dtype=np.int16)
    stm = np.array([s == "b" for _, _, s in positions], dtype=bool)
    fast = batch_connectivity(codes, stm)
    for i, (b, w, s) in enumerate(positions):
        want = fmt.connectivity_inputs(b, w, s)
        if fast[i].tolist() != want:
            raise SystemExit(f"connectivity inputs differ for {fmt.position_text(b, w, s)}: "
                             f"vectorised {fast[i].tolist()}, definition {want}")
        for row in SYMMETRIES[1:]:
            image = fmt.connectivity_inputs([int(row[q]) for q in b], [int(row[q]) for q in w], s)
            if image != want:
                raise SystemExit(f"connectivity inputs not symmetric for {fmt.position_text(b, w, s)}")


# ---------------------------------------------------------------------------------------------
# The model (torch is imported in main, after the thread count is set)

def make_model(torch, H, L, E):
    nn = torch.nn

    class Nnue(nn.Module):
        def __init__(self):
            super().__init__()
            # Row PAD is the padding index: EmbeddingBag leaves it out of the sums and its
            # gradient is zero; it is not exported.
            self.ft = nn.EmbeddingBag(fmt.INPUTS + 1, H, mode="sum", padding_idx=PAD)
            self.ft_bias = nn.Parameter(torch.zeros(H))
            self.l1 = nn.Linear(2 * H + E, L)  # E extra inputs (0 or 8) after the halves
            self.out = nn.Linear(L, 1)
            with torch.no_grad():
                # Small columns and a bias of 0.5 start every accumulator inside (0, 1), where
                # the clipped ReLU passes gradients, whatever the number of pieces.
                self.ft.weight.uniform_(-0.1, 0.1)
                self.ft_bias.fill_(0.5)
                self.out.bias.zero_()

        def forward(self, stm, other, extra):
            a_stm = torch.clamp(self.ft(stm) + self.ft_bias, 0.0, 1.0)
            a_other = torch.clamp(self.ft(other) + self.ft_bias, 0.0, 1.0)
            # The extra inputs are integers 0..127 as the engine reads them: 1.0 is 127.
            h = torch.clamp(self.l1(torch.cat([a_stm, a_other, extra], dim=1)), 0.0, 1.0)
            return self.out(h).squeeze(1)

        @torch.no_grad()
        def clamp_weights(self):
            self.ft.weight.clamp_(-FT_LIMIT, FT_LIMIT)
            self.ft_bias.clamp_(-FT_LIMIT, FT_LIMIT)
            self.l1.weight.clamp_(-L1_WEIGHT_LIMIT, L1_WEIGHT_LIMIT)
            l1_bias = bias_limit(2 * H + E, 127 * 127)
            self.l1.bias.clamp_(-l1_bias, l1_bias)
            self.out.weight.clamp_(-OUT_WEIGHT_LIMIT, OUT_WEIGHT_LIMIT)
            out_bias = bias_limit(L, 127 * 32767)
            self.out.bias.clamp_(-out_bias, out_bias)

    return Nnue()


def predict(torch, model, data, indices, batch=65536):
    """The network's output (not yet times S) for data[indices] as they are, float32."""
    outputs = []
    with torch.no_grad():
        for start in range(0, len(indices), batch):
            sel = indices[start:start + batch]
            identity = np.zeros(len(sel), np.int64)
            stm, other = batch_features(data.codes[sel], data.black_to_move[sel], identity)
            outputs.append(model(torch.from_numpy(stm), torch.from_numpy(other),
                                 extra_tensor(torch, data, sel)).numpy())
    return np.concatenate(outputs) if outputs else np.zeros(0, np.float32)


def extra_tensor(torch, data, sel):
    """The extra inputs of data[sel] as the model reads them: (n, 0) without, (n, 8) / 127."""
    if data.conn is None:
        return torch.zeros((len(sel), 0), dtype=torch.float32)
    return torch.from_numpy(data.conn[sel].astype(np.float32) / fmt.FT_SCALE)


def targets(data, k, lam):
    return lam / (1.0 + np.exp(-k * data.score)) + (1.0 - lam) * data.result


def validation_loss(torch, model, data, indices, target, k, scale):
    y = predict(torch, model, data, indices).astype(np.float64)
    p = 1.0 / (1.0 + np.exp(-k * scale * y))
    return float(np.mean((p - target[indices]) ** 2))


def train(torch, model, data, train_idx, val_idx, target, args, k, rng, log):
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs, eta_min=args.lr / 50)
    target_t = torch.from_numpy(target.astype(np.float32))
    history = {"train_loss": [], "val_loss": [], "samples_per_second": []}
    train_seconds = 0.0
    for epoch in range(1, args.epochs + 1):
        # One draw per epoch: the order, and a symmetry for each position.
        order = rng.permutation(train_idx)
        symmetry = rng.integers(0, 8, size=len(order))
        if args.no_augment:
            symmetry[:] = 0
        started = time.perf_counter()
        total = 0.0
        for start in range(0, len(order), args.batch):
            sel = order[start:start + args.batch]
            stm, other = batch_features(data.codes[sel], data.black_to_move[sel],
                                        symmetry[start:start + args.batch])
            y = model(torch.from_numpy(stm), torch.from_numpy(other), extra_tensor(torch, data, sel))
            p = torch.sigmoid(y * (k * args.scale))
            loss = torch.mean((p - target_t[torch.from_numpy(sel)]) ** 2)
            opt.zero_grad()
            loss.backward()
            opt.step()
            model.clamp_weights()
            total += loss.item() * len(sel)
        sched.step()
        seconds = time.perf_counter() - started
        train_seconds += seconds
        rate = len(order) / seconds
        val = validation_loss(torch, model, data, val_idx, target, k, args.scale)
        history["train_loss"].append(total / len(order))
        history["val_loss"].append(val)
        history["samples_per_second"].append(rate)
        log(f"epoch {epoch:4d}/{args.epochs}  train {total / len(order):.6f}  val {val:.6f}  "
            f"lr {opt.param_groups[0]['lr']:.2e}  {rate:,.0f} samples/s")
    history["train_seconds"] = train_seconds
    return history


# ---------------------------------------------------------------------------------------------
# Export

def round_half_away(x):
    """Rounding to the nearest integer, halves away from zero (C's round), as int64."""
    x = np.asarray(x, dtype=np.float64)
    return (np.sign(x) * np.floor(np.abs(x) + 0.5)).astype(np.int64)


def quantise(model, scale, description, extras):
    def w(t):
        return t.detach().numpy().astype(np.float64)

    return {
        "H": model.ft_bias.shape[0], "L": model.l1.bias.shape[0], "S": scale, "extras": extras,
        "description": description,
        "ft_bias": round_half_away(w(model.ft_bias) * fmt.FT_SCALE),
        "ft_weight": round_half_away(w(model.ft.weight)[: fmt.INPUTS] * fmt.FT_SCALE),
        "l1_bias": round_half_away(w(model.l1.bias) * fmt.BIAS_SCALE),
        "l1_weight": round_half_away(w(model.l1.weight) * fmt.WEIGHT_SCALE),
        "out_bias": int(round_half_away(w(model.out.bias)[0] * fmt.BIAS_SCALE)),
        "out_weight": round_half_away(w(model.out.weight)[0] * fmt.WEIGHT_SCALE),
    }


def make_description(args, data):
    """How the net was made: every setting that shapes the weights, and the data by name and
    digest; cut to the format's 4096 bytes. No directory and no output path: the same data and
    settings give the same file wherever they are run."""
    # Only printable characters: the engine's reader refuses control characters.
    printable = lambda text: "".join(c if c >= " " else "?" for c in text)  # noqa: E731
    files = "; ".join(f"{printable(os.path.basename(f['path']))} ({f['positions']} positions, {f['bytes']} bytes, "
                      f"sha256 {f['sha256'][:16]})" for f in data.files)
    settings = (f"--hidden {args.hidden} --l2 {args.l2} --scale {args.scale} --epochs {args.epochs} "
                f"--batch {args.batch} --lr {args.lr:g} --lambda {args.lam:g} "
                f"--k {'fitted' if args.k is None else format(args.k, 'g')} --seed {args.seed} "
                f"--threads {args.threads} --val-every {args.val_every}"
                + (f" --max-positions {args.max_positions}" if args.max_positions else "")
                + (" --no-augment" if args.no_augment else "")
                + (" --connectivity" if args.connectivity else ""))
    text = f"scripts/train-net.sh {settings} | data: {files}"
    encoded = text.encode("utf-8")[: fmt.MAX_DESCRIPTION]
    return encoded.decode("utf-8", errors="ignore")


def colour_swapped(black, white, stm):
    """The position with the colours swapped and the board reflected in the a1-h8 diagonal:
    by construction of the inputs its evaluation is exactly the same."""
    return ([fmt.transpose(s) for s in white], [fmt.transpose(s) for s in black],
            "w" if stm == "b" else "b")


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
    start = fmt.parse_position("1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b")
    positions += [start, colour_swapped(*start)]
    return positions


def decode_codes(codes):
    black = [int(c) for c in codes if 0 <= c < 64]
    white = [int(c) - 64 for c in codes if c >= 64]
    return black, white


def vector_positions(data, val_idx, count, rng):
    """`count` validation positions, half with each side to move where the data allows, the
    colour-swapped image of four of them, then the synthetic ones."""
    black = val_idx[data.black_to_move[val_idx]]
    white = val_idx[~data.black_to_move[val_idx]]
    take_b = min(len(black), max(count // 2, count - len(white)))
    take_w = min(len(white), count - take_b)
    if take_b + take_w < count:
        print(f"only {take_b + take_w} validation positions for the vectors ({count} asked)")
    chosen = np.sort(np.concatenate([rng.choice(black, take_b, replace=False),
                                     rng.choice(white, take_w, replace=False)]))
    positions = []
    for i in chosen:
        b, w = decode_codes(data.codes[i])
        positions.append((b, w, "b" if data.black_to_move[i] else "w"))
    positions += [colour_swapped(*p) for p in positions[:4]]
    return positions + synthetic_positions(rng)


def float_evals(torch, model, positions, scale, connectivity):
    """The PyTorch model's evaluations (centi-units, unrounded, clamped like the engine's)."""
    pos = Data()
    for b, w, stm in positions:
        pos.codes.append(piece_codes(b, w))
        pos.black_to_move.append(stm == "b")
        pos.score.append(0)
        pos.result.append(0)
        pos.game.append(-1)
        pos.file.append(-1)
    pos.finish()
    if connectivity:
        pos.conn = np.array([fmt.connectivity_inputs(*p) for p in positions], dtype=np.int64)
    y = predict(torch, model, pos, np.arange(len(pos))).astype(np.float64) * scale
    return np.clip(y, -fmt.EVAL_LIMIT, fmt.EVAL_LIMIT)


def write_vectors(path, positions, floats, ints):
    write_atomically(path, "".join(f"{fmt.position_text(b, w, stm)} | {fe:.4f} | {ie}\n"
                                   for (b, w, stm), fe, ie in zip(positions, floats, ints)))


# ---------------------------------------------------------------------------------------------

def blas_report(torch=None):
    """Which BLAS this process loaded, from /proc/self/maps: {'name', 'paths', 'reference'}."""
    if torch is None:
        import torch
    torch.ones(64, 64) @ torch.ones(64, 64)  # make sure the BLAS is loaded
    paths = set()
    with open("/proc/self/maps") as f:
        for line in f:
            path = line.split()[-1] if len(line.split()) >= 6 else ""
            if re.search(r"(blas|mkl|blis|atlas)[^/]*\.so", os.path.basename(path)):
                paths.add(path)
    joined = " ".join(sorted(paths))
    reference = False
    if "openblas" in joined:
        name = "OpenBLAS"
    elif "mkl" in joined:
        name = "MKL"
    elif "blis" in joined:
        name = "BLIS"
    elif "atlas" in joined:
        name = "ATLAS"
    elif "libblas" in joined:
        name, reference = "reference BLAS (netlib, slow)", True
    else:
        name = "none found"
    return {"name": name, "paths": sorted(paths), "reference": reference}


def write_atomically(path, content):
    """Writes a temporary file beside `path`, then renames it: a crash leaves the old file or
    the new one, never half of one."""
    temporary = f"{path}.tmp-{os.getpid()}"
    with open(temporary, "wb" if isinstance(content, bytes) else "w") as f:
        f.write(content)
    os.replace(temporary, path)


def check_outputs(args):
    """Before any work: the files this run writes must be new (or --force), and none of them a
    data file, so that a typo cannot overwrite a file this run did not create."""
    outputs = [args.out, args.vectors or beside(args.out, ".vectors.txt"), beside(args.out, ".json")]
    if len({os.path.realpath(p) for p in outputs}) != len(outputs):
        raise SystemExit(f"train.py: the net, vectors and summary must be three files, not {outputs}")
    data = {os.path.realpath(d) for d in args.data}
    for path in outputs:
        directory = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(directory) or not os.access(directory, os.W_OK):
            raise SystemExit(f"train.py: cannot write {path}: {directory} is not a writable directory")
        if os.path.isdir(path):
            raise SystemExit(f"train.py: {path} is a directory")
        if os.path.realpath(path) in data:
            raise SystemExit(f"train.py: {path} is one of the data files; choose another --out/--vectors")
        if os.path.exists(path) and not args.force:
            raise SystemExit(f"train.py: {path} exists; choose another --out, or give --force to overwrite it")


def set_threads(threads):
    """Before torch is imported: the OpenMP and BLAS pools read these once, at start."""
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(threads)
    # OpenMP threads that spin while they wait for each other lose their time slices to any
    # other busy process: on a loaded 2-core machine 2 spinning threads ran 4x slower than 1,
    # 2 passive ones a little faster than 1.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    check_outputs(args)
    started = time.perf_counter()
    set_threads(args.threads)
    import torch

    torch.set_num_threads(args.threads)
    torch.set_num_interop_threads(1)
    torch.manual_seed(args.seed)
    torch.use_deterministic_algorithms(True)
    rng = np.random.default_rng(args.seed)
    log = lambda msg: print(msg, flush=True)  # noqa: E731
    blas = blas_report(torch)
    log(f"torch {torch.__version__}, {args.threads} thread(s), BLAS: {blas['name']} "
        f"{' '.join(blas['paths'])}")

    data = load_data(args.data, args.max_positions)
    if args.connectivity:
        began = time.perf_counter()
        data.conn = batch_connectivity(data.codes, data.black_to_move)
        sample = np.random.default_rng(args.seed + 1).choice(len(data), min(len(data), 2000), replace=False)
        check_connectivity([(*decode_codes(data.codes[i]), "b" if data.black_to_move[i] else "w")
                            for i in sample] + synthetic_positions(np.random.default_rng(0)))
        log(f"connectivity inputs: {time.perf_counter() - began:.1f} s (2,000 of them checked "
            f"against their definitions and the 8 symmetries); means "
            + " ".join(f"{v:.1f}" for v in data.conn.mean(axis=0)))
    train_idx, val_idx = split_by_game(data, args.val_every)
    for f in data.files:
        log(f"data {f['path']}: {f['positions']} positions, {f['games']} games, {f['bytes']} bytes")
    if len(train_idx) == 0 or len(val_idx) == 0:
        raise SystemExit(f"need positions for both training ({len(train_idx)}) and validation "
                         f"({len(val_idx)}): are there '# game N' lines and {args.val_every}+ games?")
    n_games = lambda idx: len(np.unique(data.file[idx] * 2**32 + data.game[idx]))  # noqa: E731
    log(f"training {len(train_idx)} positions ({n_games(train_idx)} games), "
        f"validation {len(val_idx)} ({n_games(val_idx)} games)")

    if args.k is None:
        k, logloss = fit_k(data.score[train_idx], data.result[train_idx])
        log(f"K fitted: {k:.6f} per centi-unit (log-loss {logloss:.5f}; the hand-written "
            f"evaluation's is 0.0106)")
        if k > 0.099:
            log("warning: K is at the end of the range searched (0..0.1): give --k")
    else:
        k = args.k
    target = targets(data, k, args.lam)
    # What the search score alone would score against the same target, for reference.
    score_only = float(np.mean((1 / (1 + np.exp(-k * data.score[val_idx])) - target[val_idx]) ** 2))
    log(f"validation loss of sigmoid(K * search score) itself: {score_only:.6f}")

    extras = 1 if args.connectivity else 0
    model = make_model(torch, args.hidden, args.l2, fmt.EXTRA_SETS[extras])
    history = train(torch, model, data, train_idx, val_idx, target, args, k, rng, log)

    description = make_description(args, data)
    net = fmt.decode_net(fmt.encode_net(quantise(model, args.scale, description, extras)))
    blob = fmt.encode_net(net)
    write_atomically(args.out, blob)

    positions = vector_positions(data, val_idx, args.vector_count, rng)
    floats = float_evals(torch, model, positions, args.scale, args.connectivity)
    ints = [fmt.integer_eval(net, *p) for p in positions]
    vectors = args.vectors or beside(args.out, ".vectors.txt")
    write_vectors(vectors, positions, floats, ints)
    diff = np.abs(floats - np.array(ints, dtype=np.float64))

    summary = {
        "net": args.out, "net_sha256": hashlib.sha256(blob).hexdigest(), "vectors": vectors,
        "description": description, "data": data.files,
        "positions": {"train": int(len(train_idx)), "validation": int(len(val_idx))},
        "games": {"train": n_games(train_idx), "validation": n_games(val_idx)},
        "K": k, "K_fitted": args.k is None, "lambda": args.lam,
        "H": args.hidden, "L": args.l2, "S": args.scale, "extras": extras,
        "epochs": args.epochs, "batch": args.batch, "lr": args.lr, "seed": args.seed,
        "augment": not args.no_augment, "val_every": args.val_every,
        "threads": args.threads, "torch": torch.__version__, "blas": blas,
        "train_loss": history["train_loss"], "val_loss": history["val_loss"],
        "val_loss_of_search_score": score_only,
        "samples_per_second": history["samples_per_second"],
        "mean_samples_per_second": len(train_idx) * args.epochs / history["train_seconds"],
        "train_seconds": history["train_seconds"],
        "total_seconds": time.perf_counter() - started,
        "float_vs_integer": {"positions": len(positions), "max_abs": float(diff.max()),
                             "mean_abs": float(diff.mean())},
    }
    summary_path = beside(args.out, ".json")
    write_atomically(summary_path, json.dumps(summary, indent=1) + "\n")

    log(f"wrote {args.out} ({len(blob)} bytes, sha256 {summary['net_sha256'][:16]}), "
        f"{vectors} ({len(positions)} positions), {summary_path}")
    log(f"final: train loss {history['train_loss'][-1]:.6f}, validation loss "
        f"{history['val_loss'][-1]:.6f} (search score itself {score_only:.6f}); "
        f"{summary['mean_samples_per_second']:,.0f} samples/s; |float - integer| over the vectors "
        f"max {diff.max():.3f}, mean {diff.mean():.3f} centi-units; "
        f"{summary['total_seconds']:.1f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
