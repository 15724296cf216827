#!/usr/bin/python3
"""Reads a Lines of Action NNUE net (`.nnue`, docs/nnue.md), prints its header and sizes and
verifies its checksum; with --vectors, also checks that the integer evaluation of the net read
back equals the one written in a test-vectors file.

This module is also the one place where the Python side defines the file layout (encode_net,
decode_net, the FNV-1a checksum) and the quantised network's integer evaluation (integer_eval,
docs/nnue.md's arithmetic step by step): the trainer writes its nets and vectors with it, so
that what it writes and what this tool reads cannot drift apart. It needs numpy only.
"""

import argparse
import os
import struct
import sys

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The inputs, the position text and the connectivity inputs' definitions.
from features import BUCKET_SETS, INPUTS, connectivity_inputs, features, parse_position  # noqa: E402

MAGIC = b"LOA-NNUE"
VERSION = 1             # a net without extra inputs is written as version 1, as before them
VERSION_EXTRAS = 2      # version 2 adds, after S, the id of a set of extra inputs
VERSION_LAYERS = 3      # version 3 adds the input buckets' set and a second hidden layer's size
MAX_L2 = 64             # the second hidden layer: a multiple of 4 up to this, and L a multiple of 32
FT_SCALE = 127          # ft_weight, ft_bias and the accumulator's activations
WEIGHT_SCALE = 64       # l1_weight and out_weight
BIAS_SCALE = 127 * 64   # l1_bias, out_bias and the output o
EVAL_LIMIT = 20000      # the evaluation is clamped to +-this, like the hand-written one
MAX_DESCRIPTION = 4096

FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
MASK64 = (1 << 64) - 1

# The fixed part of the header: magic, version, inputs, H, L, S, description length; version 2
# has the extra inputs' set id between S and the description length.
HEADER = struct.Struct("<8sIIIIiI")
HEADER_V2 = struct.Struct("<8sIIIIiII")
# version 3: magic, version, inputs, H, L, S, extra inputs' set, input buckets' set, L2, description length.
HEADER_V3 = struct.Struct("<8sIIIIiIIII")
# Extra inputs of the hidden layer, by set id: how many values each set adds after the two
# accumulator halves. Set 1 is the connectivity inputs (features.connectivity_inputs).
EXTRA_SETS = {0: 0, 1: 8}
CHECKSUM = struct.Struct("<Q")


class NetFormatError(ValueError):
    """A file that is not a valid net; the message names the fault."""


def fnv1a64(data):
    h = FNV_OFFSET
    for byte in data:
        h = ((h ^ byte) * FNV_PRIME) & MASK64
    return h


# ---------------------------------------------------------------------------------------------
# The net: a dict of sizes and integer arrays

def check_sizes(H, L, S, description_length, extras=0, L2=0, buckets=0):
    if buckets not in BUCKET_SETS:
        raise NetFormatError(f"input buckets set {buckets}: want one of {sorted(BUCKET_SETS)}")
    if not (L2 == 0 or (4 <= L2 <= MAX_L2 and L2 % 4 == 0)):
        raise NetFormatError(f"L2 = {L2}: want 0 or a multiple of 4 in 4..{MAX_L2}")
    if L2 and L % 32:
        raise NetFormatError(f"L = {L} with a second hidden layer: want a multiple of 32")
    if extras not in EXTRA_SETS:
        raise NetFormatError(f"extra inputs set {extras}: want one of {sorted(EXTRA_SETS)}")
    if not (16 <= H <= 1024 and H % 16 == 0):
        raise NetFormatError(f"H = {H}: want a multiple of 16 in 16..1024")
    if not (4 <= L <= 256 and L % 4 == 0):
        raise NetFormatError(f"L = {L}: want a multiple of 4 in 4..256")
    if not (1 <= S <= 100000):
        raise NetFormatError(f"S = {S}: want 1..100000")
    if description_length > MAX_DESCRIPTION:
        raise NetFormatError(f"description length {description_length}: want 0..{MAX_DESCRIPTION}")


def body_layout(H, L, extras=0, L2=0, buckets=0):
    """(name, little-endian dtype, shape) of each array after the description, in file order."""
    E = EXTRA_SETS[extras]
    second = [("l2_bias", "<i4", (L2,)), ("l2_weight", "<i1", (L2, L))] if L2 else []
    return [
        ("ft_bias", "<i2", (H,)),
        ("ft_weight", "<i2", (INPUTS * BUCKET_SETS[buckets], H)),
        ("l1_bias", "<i4", (L,)),
        ("l1_weight", "<i1", (L, 2 * H + E)),
    ] + second + [
        ("out_bias", "<i4", ()),
        ("out_weight", "<i2", (L2 or L,)),
    ]


def file_version(extras, L2, buckets=0):
    """The oldest version that holds the net (the engine writes the same)."""
    return VERSION_LAYERS if L2 or buckets else VERSION_EXTRAS if extras else VERSION


def encode_net(net):
    """The bytes of a `.nnue` file, checksum included. Refuses values outside their type."""
    H, L, S, extras, L2 = net["H"], net["L"], net["S"], net.get("extras", 0), net.get("L2", 0)
    buckets = net.get("buckets", 0)
    description = net["description"].encode("utf-8")
    check_sizes(H, L, S, len(description), extras, L2, buckets)
    version = file_version(extras, L2, buckets)
    if version == VERSION:
        out = bytearray(HEADER.pack(MAGIC, VERSION, INPUTS, H, L, S, len(description)))
    elif version == VERSION_EXTRAS:
        out = bytearray(HEADER_V2.pack(MAGIC, VERSION_EXTRAS, INPUTS, H, L, S, extras, len(description)))
    else:
        out = bytearray(HEADER_V3.pack(MAGIC, VERSION_LAYERS, INPUTS * BUCKET_SETS[buckets], H, L, S, extras, buckets,
                                       L2, len(description)))
    out += description
    for name, dtype, shape in body_layout(H, L, extras, L2, buckets):
        values = np.asarray(net[name], dtype=np.int64)
        if values.shape != shape:
            raise ValueError(f"{name}: shape {values.shape}, want {shape}")
        info = np.iinfo(np.dtype(dtype))
        if values.size and (values.min() < info.min or values.max() > info.max):
            raise ValueError(f"{name}: values outside {np.dtype(dtype).name}")
        out += values.astype(dtype).tobytes()
    out += CHECKSUM.pack(fnv1a64(out))
    return bytes(out)


def decode_header(data):
    """(header struct, H, L, S, extras, L2, buckets, description length) of a file's first bytes."""
    if len(data) < HEADER.size:
        raise NetFormatError(f"short file: {len(data)} bytes, the header alone is {HEADER.size}")
    magic, version = struct.unpack_from("<8sI", data, 0)
    if magic != MAGIC:
        raise NetFormatError(f"wrong magic {magic!r}, want {MAGIC!r}")
    if version == VERSION:
        header = HEADER
        _, _, inputs, H, L, S, n = header.unpack_from(data, 0)
        extras = 0
    elif version == VERSION_EXTRAS:
        header = HEADER_V2
        if len(data) < header.size:
            raise NetFormatError(f"short file: {len(data)} bytes, the header alone is {header.size}")
        _, _, inputs, H, L, S, extras, n = header.unpack_from(data, 0)
        if extras == 0:
            raise NetFormatError("version 2 with no extra inputs (set 0 is written as version 1)")
    elif version == VERSION_LAYERS:
        header = HEADER_V3
        if len(data) < header.size:
            raise NetFormatError(f"short file: {len(data)} bytes, the header alone is {header.size}")
        _, _, inputs, H, L, S, extras, buckets, L2, n = header.unpack_from(data, 0)
        if buckets not in BUCKET_SETS:
            raise NetFormatError(f"input buckets set {buckets}: want one of {sorted(BUCKET_SETS)}")
        if L2 == 0 and buckets == 0:
            raise NetFormatError("version 3 with neither a second hidden layer nor input buckets "
                                 "(such a net is written as version 1 or 2)")
    else:
        raise NetFormatError(f"unknown version {version}, want {VERSION} to {VERSION_LAYERS}")
    if version != VERSION_LAYERS:
        L2 = buckets = 0
    if inputs != INPUTS * BUCKET_SETS[buckets]:
        raise NetFormatError(f"inputs = {inputs}, want {INPUTS * BUCKET_SETS[buckets]}")
    check_sizes(H, L, S, n, extras, L2, buckets)
    return header, H, L, S, extras, L2, buckets, n


def decode_net(data):
    """The inverse of encode_net; raises NetFormatError naming the fault."""
    header, H, L, S, extras, L2, buckets, n = decode_header(data)
    layout = body_layout(H, L, extras, L2, buckets)
    body_bytes = sum(np.dtype(d).itemsize * int(np.prod(shape)) for _, d, shape in layout)
    want = header.size + n + body_bytes + CHECKSUM.size
    if len(data) < want:
        raise NetFormatError(f"short file: {len(data)} bytes, want {want}")
    if len(data) > want:
        raise NetFormatError(f"trailing bytes: {len(data)} bytes, want {want}")
    (stored,) = CHECKSUM.unpack_from(data, want - CHECKSUM.size)
    computed = fnv1a64(data[: want - CHECKSUM.size])
    if stored != computed:
        raise NetFormatError(f"wrong checksum: stored {stored:016x}, computed {computed:016x}")
    try:
        description = data[header.size: header.size + n].decode("utf-8")
    except UnicodeDecodeError as e:
        raise NetFormatError(f"description is not UTF-8: {e}") from None
    net = {"H": H, "L": L, "L2": L2, "S": S, "extras": extras, "buckets": buckets, "description": description,
           "checksum": stored}
    offset = header.size + n
    for name, dtype, shape in layout:
        count = int(np.prod(shape))
        values = np.frombuffer(data, dtype=dtype, count=count, offset=offset)
        net[name] = values.reshape(shape).astype(np.int64) if shape else int(values[0])
        offset += count * np.dtype(dtype).itemsize
    return net


def load_net(path):
    with open(path, "rb") as f:
        return decode_net(f.read())


# ---------------------------------------------------------------------------------------------
# The integer evaluation, exactly as docs/nnue.md says the engine computes it

def truncating_division(a, b):
    """C++ integer division: rounds toward zero (Python's // rounds toward minus infinity)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def in_range(value, dtype, what):
    info = np.iinfo(dtype)
    lo, hi = int(np.min(value)), int(np.max(value))
    if lo < info.min or hi > info.max:
        raise OverflowError(f"{what} overflows {np.dtype(dtype).name}: {lo}..{hi}")


def extra_inputs(net, black, white, stm):
    if net.get("extras", 0) == 0:
        return []
    return connectivity_inputs(black, white, stm)


def integer_eval(net, black, white, stm):
    """The quantised network's evaluation (centi-units, side to move's view), in int64 numpy
    arithmetic, with a check at each step that the engine's narrower types cannot overflow."""
    halves = []
    for perspective in (stm, "w" if stm == "b" else "b"):
        acc = net["ft_bias"] + net["ft_weight"][features(black, white, perspective, net.get("buckets", 0))].sum(axis=0)
        in_range(acc, np.int16, "accumulator")
        halves.append(np.clip(acc, 0, FT_SCALE))
    x = np.concatenate(halves + [np.array(extra_inputs(net, black, white, stm), dtype=np.int64)])
    h_int = net["l1_bias"] + net["l1_weight"] @ x
    in_range(h_int, np.int32, "hidden layer")
    hq = np.clip(h_int >> 6, 0, FT_SCALE)  # numpy's >> on signed ints is an arithmetic shift
    if net.get("L2", 0):
        h2_int = net["l2_bias"] + net["l2_weight"] @ hq
        in_range(h2_int, np.int32, "second hidden layer")
        hq = np.clip(h2_int >> 6, 0, FT_SCALE)
    o = int(net["out_bias"] + hq @ net["out_weight"])
    in_range(o, np.int32, "output")
    value = truncating_division(o * net["S"], BIAS_SCALE)
    return max(-EVAL_LIMIT, min(EVAL_LIMIT, value))


# ---------------------------------------------------------------------------------------------
# Test vectors and the command line

def read_vectors(path):
    """[(position text, float evaluation, integer evaluation)] of a test-vectors file."""
    rows = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            parts = [p.strip() for p in line.split("|")]
            if len(parts) != 3:
                raise ValueError(f"{path}:{number}: want '<position> | <float> | <integer>'")
            rows.append((parts[0], float(parts[1]), int(parts[2])))
    return rows


def describe(net, path):
    H, L, extras, L2, buckets = net["H"], net["L"], net.get("extras", 0), net.get("L2", 0), net.get("buckets", 0)
    version = file_version(extras, L2, buckets)
    lines = [
        f"{path}: LOA-NNUE version {version}, checksum {net['checksum']:016x} (verified)",
        f"  inputs {INPUTS * BUCKET_SETS[buckets]}" + (f" ({BUCKET_SETS[buckets]} buckets of {INPUTS}, set {buckets})" if buckets else "")
        + f", H {H} per perspective, L {L}" + (f", L2 {L2}" if L2 else "")
        + f", output scale S {net['S']}, extra inputs "
        + ("none" if extras == 0 else f"set {extras} ({EXTRA_SETS[extras]} connectivity inputs)"),
        f"  description ({len(net['description'].encode('utf-8'))} bytes): {net['description']}",
    ]
    for name, _, shape in body_layout(H, L, extras, L2, buckets):
        v = np.asarray(net[name])
        lines.append(f"  {name:10s} {str(shape):12s} min {int(v.min()):>8d}  max {int(v.max()):>8d}")
    return "\n".join(lines)


def check_vectors(net, path):
    """Returns the number of mismatches between the stored and recomputed integer evaluations."""
    rows = read_vectors(path)
    bad = 0
    for text, _, stored in rows:
        got = integer_eval(net, *parse_position(text))
        if got != stored:
            bad += 1
            if bad <= 10:
                print(f"  mismatch: {text} | stored {stored} | recomputed {got}")
    worst = max((abs(f - i) for _, f, i in rows), default=0.0)
    print(f"{path}: {len(rows)} positions, {len(rows) - bad} integer evaluations equal, "
          f"max |float - integer| {worst:.4f}")
    return bad


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("net", help="the .nnue file")
    parser.add_argument("--vectors", help="a test-vectors file to check the integer evaluation against")
    args = parser.parse_args()
    try:
        net = load_net(args.net)
    except (OSError, NetFormatError) as e:
        print(f"net_format: {args.net}: {e}", file=sys.stderr)
        return 1
    print(describe(net, args.net))
    if args.vectors and check_vectors(net, args.vectors):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
