#!/usr/bin/python3
"""Trains the NNUE evaluation of Lines of Action (docs/nnue.md) on `loa-match datagen` data
(docs/datagen.md) and exports it quantised: the .nnue file, a test-vectors file and a JSON
summary beside it.

The network: per perspective an EmbeddingBag over the <= 24 active inputs plus a bias (H
values, shared by both perspectives), clamp(0, 1), [side to move's half | other half],
Linear(2H, L), clamp(0, 1), Linear(L, 1); evaluation = output * S centi-units. With
--connectivity, the hidden layer also reads 8 connectivity inputs (groups, Euler number,
concentration and bounding box of each side, features.connectivity_inputs): Linear(2H + 8, L).

The loss is the mean squared error between sigmoid(K * evaluation) and the target
lambda * sigmoid(K * score) + (1 - lambda) * result, score and result those of the data
(side to move's view); a proven result (|score| >= 29871, datagen --keep-decisive) is its
own target, 1 or 0. K is fitted on the training data (proofs left out) unless --k is given.
Each epoch shows every training position in a random one of the board's 8 symmetries.
Games, not positions, are split between training and validation (every --val-every'th game is
held out).

Run it with /usr/bin/python3 (Debian's python3-torch), or through scripts/train-net.sh.
"""

# The trainer's parts, one job each (all in scripts/nnue/): data.py reads the datagen files,
# features.py turns positions into the network's inputs, model.py is the torch model and its
# loss, export.py quantises and writes, net_format.py is the .nnue file and the integer
# evaluation. This file holds the options, the training loop and the order of the steps.

import argparse
import hashlib
import os
import re
import sys
import time

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import data as datagen  # noqa: E402  ("data" is the positions everywhere below)
import export  # noqa: E402
import features  # noqa: E402
import net_format as fmt  # noqa: E402
# model.py imports torch, so it is imported in main, once set_threads has run.


# ---------------------------------------------------------------------------------------------
# Options

def option_parser():
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
    p.add_argument("--l3", type=int, default=0, metavar="L2",
                   help="a second hidden layer of this size after the first (multiple of 4, 4..64; "
                        "the first's size must then be a multiple of 32); a version-3 net "
                        "(default 0: none)")
    p.add_argument("--buckets", type=int, default=0, metavar="SET",
                   help="input buckets: each perspective's 128 inputs once per bucket of its own "
                        "pieces; set 1: 3 buckets by the Chebyshev distance of the side's centre of "
                        "mass from the board's centre (<1, <2, >=2); a version-3 net (default 0: none)")
    p.add_argument("--connectivity", action="store_true",
                   help="feed the 8 connectivity inputs (each side's groups, Euler number, "
                        "concentration, bounding box) into the hidden layer: a version-2 net with "
                        "extra inputs set 1 (default: none, a version-1 net)")
    p.add_argument("--scale", type=int, default=100, metavar="S",
                   help="output scale, centi-units per unit of the network's output (default 100: "
                        "about 1/K, so the output is close to the logit of the expected result)")
    p.add_argument("--epochs", type=int, default=100, help="default 100")
    p.add_argument("--qat-epochs", type=int, default=0, metavar="N",
                   help="quantisation-aware training for the last N epochs: the forward pass "
                        "computes the engine's integers (rounded weights, floored hidden units), the "
                        "gradients pass the roundings straight through (default 0: none)")
    p.add_argument("--batch", type=int, default=4096, help="positions per step (default 4096)")
    p.add_argument("--lr", type=float, default=None,
                   help="Adam's learning rate at the start; it decays along a cosine to 1/50 of it "
                        "(default 0.002 x 128 / H for H > 128: a 256 net's hidden layer dies in its "
                        "first epoch at 0.002 and learns at 0.001)")
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
    p.add_argument("--max-score", type=int, metavar="N",
                   help="leave out positions whose |score| is above N: a file of `datagen "
                        "--keep-decisive` then trains as the file without it would at N = its "
                        "--max-score (default: keep every position; a proven result, |score| >= "
                        "29871, is then its own target)")
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
    return p


def parse_args(argv):
    p = option_parser()
    args = p.parse_args(argv)
    try:
        fmt.check_sizes(args.hidden, args.l2, args.scale, 0, 1 if args.connectivity else 0, args.l3, args.buckets)
    except fmt.NetFormatError as e:
        p.error(str(e))
    if args.lr is None:
        args.lr = 2e-3 * min(1.0, 128 / args.hidden)
    if not args.lr > 0:
        p.error("--lr must be more than 0")
    if not 0 <= args.lam <= 1:
        p.error("--lambda must be in [0, 1]")
    if args.threads < 1 or args.batch < 1 or args.epochs < 1 or args.val_every < 2:
        p.error("--threads, --batch and --epochs must be >= 1, --val-every >= 2")
    if args.max_score is not None and args.max_score < 0:
        p.error("--max-score must be 0 or more")
    if not 0 <= args.qat_epochs <= args.epochs:
        p.error("--qat-epochs must be in [0, --epochs]")
    for path in args.data:
        if not os.path.isfile(path):
            p.error(f"no such data file: {path}")
    for path in (args.out, args.vectors):
        if path and not os.path.isdir(os.path.dirname(path) or "."):
            p.error(f"no such directory for {path}")
    return args


def vectors_path(args):
    return args.vectors or export.beside(args.out, ".vectors.txt")


def check_outputs(args):
    """Before any work: the files this run writes must be new (or --force), and none of them a
    data file, so that a typo cannot overwrite a file this run did not create."""
    outputs = [args.out, vectors_path(args), export.beside(args.out, ".json")]
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


# ---------------------------------------------------------------------------------------------
# The machine: threads and BLAS

def set_threads(threads):
    """Before torch is imported: the OpenMP and BLAS pools read these once, at start."""
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(threads)
    # OpenMP threads that spin while they wait for each other lose their time slices to any
    # other busy process: on a loaded 2-core machine 2 spinning threads ran 4x slower than 1,
    # 2 passive ones a little faster than 1.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def blas_report(torch=None):
    """Which BLAS this process loaded, from /proc/self/maps: {'name', 'paths', 'reference'}.
    scripts/train-net.sh calls it too, to warn of the slow reference BLAS before training."""
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


def start_torch(args, log):
    """Imports torch with the thread count set and every random draw seeded: the same data,
    seed and thread count give a byte-identical net. Returns (torch, BLAS report)."""
    set_threads(args.threads)
    import torch

    torch.set_num_threads(args.threads)
    torch.set_num_interop_threads(1)
    torch.manual_seed(args.seed)
    torch.use_deterministic_algorithms(True)
    blas = blas_report(torch)
    log(f"torch {torch.__version__}, {args.threads} thread(s), BLAS: {blas['name']} "
        f"{' '.join(blas['paths'])}")
    return torch, blas


# ---------------------------------------------------------------------------------------------
# Data and K

def add_connectivity(data, seed, log):
    """The connectivity inputs of every position, by numpy, checked against their definitions
    on a sample (and on synthetic positions, whose piece counts the data may not reach)."""
    began = time.perf_counter()
    data.conn = features.batch_connectivity(data.codes, data.black_to_move)
    sample = np.random.default_rng(seed + 1).choice(len(data), min(len(data), 2000), replace=False)
    features.check_connectivity(
        [(*features.decode_codes(data.codes[i]), "b" if data.black_to_move[i] else "w") for i in sample]
        + features.synthetic_positions(np.random.default_rng(0)))
    log(f"connectivity inputs: {time.perf_counter() - began:.1f} s (2,000 of them checked "
        f"against their definitions and the 8 symmetries); means "
        + " ".join(f"{v:.1f}" for v in data.conn.mean(axis=0)))


def prepare_data(args, log):
    """(data, training indices, validation indices)."""
    data = datagen.load_data(args.data, args.max_positions)
    if args.connectivity:
        add_connectivity(data, args.seed, log)
    train_idx, val_idx = datagen.split_by_game(data, args.val_every)
    for f in data.files:
        log(f"data {f['path']}: {f['positions']} positions, {f['games']} games, {f['bytes']} bytes")
    if args.max_score is not None:
        within = np.abs(data.score) <= args.max_score
        log(f"--max-score {args.max_score}: {np.count_nonzero(~within)} positions left out")
        train_idx, val_idx = train_idx[within[train_idx]], val_idx[within[val_idx]]
    proven = np.count_nonzero(datagen.proven(data.score[train_idx]))
    if proven:
        log(f"{proven} training positions are proven results: each takes its proof (1 or 0) as its target")
    if len(train_idx) == 0 or len(val_idx) == 0:
        raise SystemExit(f"need positions for both training ({len(train_idx)}) and validation "
                         f"({len(val_idx)}): are there '# game N' lines and {args.val_every}+ games?")
    log(f"training {len(train_idx)} positions ({datagen.count_games(data, train_idx)} games), "
        f"validation {len(val_idx)} ({datagen.count_games(data, val_idx)} games)")
    return data, train_idx, val_idx


def choose_k(model, args, data, train_idx, log):
    if args.k is not None:
        return args.k
    searched = train_idx[~datagen.proven(data.score[train_idx])]  # a proof says nothing of K
    k, logloss = model.fit_k(data.score[searched], data.result[searched])
    log(f"K fitted: {k:.6f} per centi-unit (log-loss {logloss:.5f}; the hand-written "
        f"evaluation's is 0.0106)")
    if k > 0.099:
        log("warning: K is at the end of the range searched (0..0.1): give --k")
    return k


# ---------------------------------------------------------------------------------------------
# Training

def train(torch, model, network, data, train_idx, val_idx, target, args, k, rng, log):
    """Trains `network` (a model.Nnue) for args.epochs; returns the losses and speeds per epoch."""
    opt = torch.optim.Adam(network.parameters(), lr=args.lr)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=args.epochs, eta_min=args.lr / 50)
    target_t = torch.from_numpy(target.astype(np.float32))
    history = {"train_loss": [], "val_loss": [], "samples_per_second": []}
    train_seconds = 0.0
    for epoch in range(1, args.epochs + 1):
        network.quantised = epoch > args.epochs - args.qat_epochs
        # One draw per epoch: the order, and a symmetry for each position.
        order = rng.permutation(train_idx)
        symmetry = rng.integers(0, 8, size=len(order))
        if args.no_augment:
            symmetry[:] = 0
        started = time.perf_counter()
        total = 0.0
        for start in range(0, len(order), args.batch):
            sel = order[start:start + args.batch]
            y = model.forward(network, data, sel, symmetry[start:start + args.batch])
            loss = model.batch_loss(y, target_t[torch.from_numpy(sel)], k, args.scale)
            opt.zero_grad()
            loss.backward()
            opt.step()
            network.clamp_weights()
            total += loss.item() * len(sel)
        sched.step()
        seconds = time.perf_counter() - started
        train_seconds += seconds
        rate = len(order) / seconds
        val = model.validation_loss(network, data, val_idx, target, k, args.scale)
        history["train_loss"].append(total / len(order))
        history["val_loss"].append(val)
        history["samples_per_second"].append(rate)
        log(f"epoch {epoch:4d}/{args.epochs}  train {total / len(order):.6f}  val {val:.6f}  "
            f"lr {opt.param_groups[0]['lr']:.2e}  {rate:,.0f} samples/s"
            + ("  (quantisation-aware)" if network.quantised else ""))
    history["train_seconds"] = train_seconds
    return history


# ---------------------------------------------------------------------------------------------
# Outputs

def write_net_and_vectors(model, network, args, data, val_idx, rng):
    """Writes the quantised network and its test vectors; returns what the summary says of
    them: the file's bytes, its description, the vectors' positions, |float - integer| of each."""
    description = export.make_description(args, data)
    extras = 1 if args.connectivity else 0
    quantised, blob = export.quantised_net(network, args.scale, description, extras)
    export.write_atomically(args.out, blob)
    positions = export.vector_positions(data, val_idx, args.vector_count, rng)
    floats = model.float_evals(network, positions, args.scale, args.connectivity)
    ints = [fmt.integer_eval(quantised, *p) for p in positions]
    export.write_vectors(vectors_path(args), positions, floats, ints)
    return {"blob": blob, "description": description, "positions": positions,
            "diff": np.abs(floats - np.array(ints, dtype=np.float64))}


def summary(args, data, train_idx, val_idx, run):
    """The JSON summary: what went in, how training went (run), what came out."""
    n_games = lambda idx: datagen.count_games(data, idx)  # noqa: E731
    history, diff = run["history"], run["diff"]
    return {
        "net": args.out, "net_sha256": hashlib.sha256(run["blob"]).hexdigest(), "vectors": vectors_path(args),
        "description": run["description"], "data": data.files,
        "positions": {"train": int(len(train_idx)), "validation": int(len(val_idx))},
        "games": {"train": n_games(train_idx), "validation": n_games(val_idx)},
        "K": run["k"], "K_fitted": args.k is None, "lambda": args.lam, "max_score": args.max_score,
        "proven": {"train": int(np.count_nonzero(datagen.proven(data.score[train_idx]))),
                   "validation": int(np.count_nonzero(datagen.proven(data.score[val_idx])))},
        "H": args.hidden, "L": args.l2, "L2": args.l3, "buckets": args.buckets, "S": args.scale, "extras": 1 if args.connectivity else 0,
        "epochs": args.epochs, "qat_epochs": args.qat_epochs, "batch": args.batch, "lr": args.lr, "seed": args.seed,
        "augment": not args.no_augment, "val_every": args.val_every,
        "threads": args.threads, "torch": run["torch"], "blas": run["blas"],
        "train_loss": history["train_loss"], "val_loss": history["val_loss"],
        "val_loss_of_search_score": run["score_only"],
        "samples_per_second": history["samples_per_second"],
        "mean_samples_per_second": len(train_idx) * args.epochs / history["train_seconds"],
        "train_seconds": history["train_seconds"],
        "total_seconds": time.perf_counter() - run["started"],
        "float_vs_integer": {"positions": len(run["positions"]), "max_abs": float(diff.max()),
                             "mean_abs": float(diff.mean())},
    }


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    check_outputs(args)
    run = {"started": time.perf_counter()}
    log = lambda msg: print(msg, flush=True)  # noqa: E731
    torch, run["blas"] = start_torch(args, log)
    run["torch"] = torch.__version__
    import model  # imports torch: only now that the thread count is set

    rng = np.random.default_rng(args.seed)  # the epochs' orders and symmetries, then the vectors
    data, train_idx, val_idx = prepare_data(args, log)
    k = run["k"] = choose_k(model, args, data, train_idx, log)
    target = model.targets(data, k, args.lam)
    # What the search score alone would score against the same target, for reference.
    score_only = run["score_only"] = float(np.mean((1 / (1 + np.exp(-k * model.limited(data.score[val_idx])))
                                                    - target[val_idx]) ** 2))
    log(f"validation loss of sigmoid(K * search score) itself: {score_only:.6f}")

    network = model.Nnue(args.hidden, args.l2, fmt.EXTRA_SETS[1 if args.connectivity else 0], args.l3, args.buckets)
    history = run["history"] = train(torch, model, network, data, train_idx, val_idx, target, args, k, rng, log)

    run.update(write_net_and_vectors(model, network, args, data, val_idx, rng))
    result = summary(args, data, train_idx, val_idx, run)
    summary_path = export.beside(args.out, ".json")
    export.write_summary(summary_path, result)

    diff = run["diff"]
    log(f"wrote {args.out} ({len(run['blob'])} bytes, sha256 {result['net_sha256'][:16]}), "
        f"{vectors_path(args)} ({len(run['positions'])} positions), {summary_path}")
    log(f"final: train loss {history['train_loss'][-1]:.6f}, validation loss "
        f"{history['val_loss'][-1]:.6f} (search score itself {score_only:.6f}); "
        f"{result['mean_samples_per_second']:,.0f} samples/s; |float - integer| over the vectors "
        f"max {diff.max():.3f}, mean {diff.mean():.3f} centi-units; "
        f"{result['total_seconds']:.1f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
