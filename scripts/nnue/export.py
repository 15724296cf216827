"""What the trainer writes: the float model quantised to the integer net (docs/nnue.md's
table), the net's description, the test-vectors file and the JSON summary, each written whole or
not at all. Needs numpy only (it reads the model's tensors, it does not import torch).
"""

import json
import os

import numpy as np

import net_format as fmt
from features import colour_swapped, decode_codes, position_text, synthetic_positions


def beside(net_path, suffix):
    """The path of a file written beside the net: NET.nnue -> NET<suffix>."""
    stem = net_path[:-5] if net_path.endswith(".nnue") else net_path
    return stem + suffix


def write_atomically(path, content):
    """Writes a temporary file beside `path`, then renames it: a crash leaves the old file or
    the new one, never half of one."""
    temporary = f"{path}.tmp-{os.getpid()}"
    with open(temporary, "wb" if isinstance(content, bytes) else "w") as f:
        f.write(content)
    os.replace(temporary, path)


# ---------------------------------------------------------------------------------------------
# The net

def round_half_away(x):
    """Rounding to the nearest integer, halves away from zero (C's round), as int64."""
    x = np.asarray(x, dtype=np.float64)
    return (np.sign(x) * np.floor(np.abs(x) + 0.5)).astype(np.int64)


def quantise(model, scale, description, extras):
    """The integer net (net_format's dict) of the float model."""
    def w(t):
        return t.detach().numpy().astype(np.float64)

    second = {}
    if model.l2 is not None:
        second = {"l2_bias": round_half_away(w(model.l2.bias) * fmt.BIAS_SCALE),
                  "l2_weight": round_half_away(w(model.l2.weight) * fmt.WEIGHT_SCALE)}
    return {
        "H": model.ft_bias.shape[0], "L": model.l1.bias.shape[0], "L2": model.l2.bias.shape[0] if second else 0,
        "S": scale, "extras": extras, "buckets": model.buckets, "description": description, **second,
        "ft_bias": round_half_away(w(model.ft_bias) * fmt.FT_SCALE),
        "ft_weight": round_half_away(w(model.ft.weight)[: model.pad] * fmt.FT_SCALE),
        "l1_bias": round_half_away(w(model.l1.bias) * fmt.BIAS_SCALE),
        "l1_weight": round_half_away(w(model.l1.weight) * fmt.WEIGHT_SCALE),
        "out_bias": int(round_half_away(w(model.out.bias)[0] * fmt.BIAS_SCALE)),
        "out_weight": round_half_away(w(model.out.weight)[0] * fmt.WEIGHT_SCALE),
    }


def quantised_net(model, scale, description, extras):
    """(net, file bytes): the net is read back from its own bytes, so that the test vectors'
    integer evaluations are those of what the file holds."""
    net = fmt.decode_net(fmt.encode_net(quantise(model, scale, description, extras)))
    return net, fmt.encode_net(net)


def make_description(args, data):
    """How the net was made: every setting that shapes the weights, and the data by name and
    digest; cut to the format's 4096 bytes. No directory and no output path: the same data and
    settings give the same file wherever they are run."""
    # Only printable characters: the engine's reader refuses control characters.
    printable = lambda text: "".join(c if c >= " " else "?" for c in text)  # noqa: E731
    files = "; ".join(f"{printable(os.path.basename(f['path']))} ({f['positions']} positions, {f['bytes']} bytes, "
                      f"sha256 {f['sha256'][:16]})" for f in data.files)
    settings = (f"--hidden {args.hidden} --l2 {args.l2}" + (f" --l3 {args.l3}" if args.l3 else "")
                + f" --scale {args.scale} --epochs {args.epochs} "
                f"--batch {args.batch} --lr {args.lr:g} --lambda {args.lam:g} "
                f"--k {'fitted' if args.k is None else format(args.k, 'g')} --seed {args.seed} "
                f"--threads {args.threads} --val-every {args.val_every}"
                + (f" --max-positions {args.max_positions}" if args.max_positions else "")
                + (f" --max-score {args.max_score}" if args.max_score is not None else "")
                + (" --no-augment" if args.no_augment else "")
                + (" --connectivity" if args.connectivity else "")
                + (f" --qat-epochs {args.qat_epochs}" if args.qat_epochs else "")
                + (f" --buckets {args.buckets}" if args.buckets else ""))
    text = f"scripts/train-net.sh {settings} | data: {files}"
    encoded = text.encode("utf-8")[: fmt.MAX_DESCRIPTION]
    return encoded.decode("utf-8", errors="ignore")


# ---------------------------------------------------------------------------------------------
# Test vectors

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


def write_vectors(path, positions, floats, ints):
    """One line a position: `<position text> | <float evaluation> | <integer evaluation>`."""
    write_atomically(path, "".join(f"{position_text(b, w, stm)} | {fe:.4f} | {ie}\n"
                                   for (b, w, stm), fe, ie in zip(positions, floats, ints)))


def write_summary(path, summary):
    write_atomically(path, json.dumps(summary, indent=1) + "\n")
