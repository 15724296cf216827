#!/usr/bin/env python3
"""A net with its output scale S changed, its evaluations multiplied by S'/S and nothing else:
the search's margins (futility, razoring, aspiration, the time manager's score drops) are
centi-units tuned on one net's scale, and a net trained on data fitted with another K speaks in
smaller or larger units. --like NET2 chooses S' so that this net's evaluations of its own test
positions match NET2's (the least-squares slope through 0); --scale S' sets it.

usage: rescale.py NET.nnue (--like NET2.nnue | --scale S) --out OUT.nnue

Writes OUT.nnue (the same weights, the header's S, the description saying so),
OUT.vectors.txt (the same positions, the float evaluation times S'/S, the integer one computed
anew) and OUT.json (the trainer's summary of NET with the new net's digest, scale and
quantisation error, and "rescaled_from"); all must be new files.
"""

import argparse
import hashlib
import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import net_format as fmt  # noqa: E402
from features import parse_position  # noqa: E402


def beside(path, suffix):
    return path[: -len(".nnue")] + suffix if path.endswith(".nnue") else path + suffix


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("net", help="the .nnue file (its test vectors beside it: NET.vectors.txt)")
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--like", help="the net whose scale to take")
    group.add_argument("--scale", type=int, help="the new output scale S (1..100000)")
    p.add_argument("--out", required=True, help="the .nnue to write (a new file)")
    args = p.parse_args(argv)
    net = fmt.load_net(args.net)
    rows = fmt.read_vectors(beside(args.net, ".vectors.txt"))
    if args.like:
        like = fmt.load_net(args.like)
        xs = [fmt.integer_eval(net, *parse_position(text)) for text, _, _ in rows]
        ys = [fmt.integer_eval(like, *parse_position(text)) for text, _, _ in rows]
        slope = sum(x * y for x, y in zip(xs, ys)) / max(1, sum(x * x for x in xs))
        scale = round(net["S"] * slope)
        reason = f"like {os.path.basename(args.like)} over {len(rows)} test positions (slope {slope:.3f})"
    else:
        scale, reason = args.scale, "as asked"
    outputs = [args.out, beside(args.out, ".vectors.txt"), beside(args.out, ".json")]
    for path in outputs:
        if os.path.lexists(path):
            raise SystemExit(f"rescale.py: {path} exists; not replaced")
    old = net["S"]
    net["S"] = scale
    net["description"] = f"{net['description']} | rescaled: S {old} -> {scale}, {reason}"
    data = fmt.encode_net(net)  # checks S and the description's length
    rescaled = fmt.decode_net(data)
    vectors = [(text, value * scale / old, fmt.integer_eval(rescaled, *parse_position(text))) for text, value, _ in rows]
    lines = [f"{text} | {value:.4f} | {integer}\n" for text, value, integer in vectors]
    errors = [abs(value - integer) for _, value, integer in vectors]
    with open(beside(args.net, ".json")) as f:
        summary = json.load(f)
    summary.update({"net": args.out, "net_sha256": hashlib.sha256(data).hexdigest(), "vectors": outputs[1],
                    "description": rescaled["description"], "S": scale,
                    "rescaled_from": {"net": args.net, "S": old, "why": reason},
                    "float_vs_integer": {"positions": len(errors), "max_abs": max(errors, default=0.0),
                                         "mean_abs": sum(errors) / max(1, len(errors))}})
    with open(outputs[0], "xb") as f:
        f.write(data)
    with open(outputs[1], "x") as f:
        f.write("".join(lines))
    with open(outputs[2], "x") as f:
        json.dump(summary, f, indent=1)
        f.write("\n")
    print(f"{args.out}: S {old} -> {scale} ({reason}); {outputs[1]}: {len(lines)} positions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
