#!/usr/bin/python3
"""The NNUE trainer end to end (ctest `trainer`): scripts/nnue/ trains tiny nets (plain, with the
connectivity inputs, with a second hidden layer trained quantisation-aware, with input buckets)
for two epochs on tests/data/nnue/selfplay-seed84.txt, and
  - the trainer's unit tests pass (tests/trainer/trainer_unit_test.py);
  - the same command gives the same bytes twice;
  - net_format.py NET --vectors V recomputes every integer evaluation of the vectors;
  - the ENGINE (`loa eval --net`) reads each net and computes exactly the trainer's integer
    evaluation of every vector position, both sides to move, and the same connectivity inputs;
  - and these checks fail when they should: a weight changed by one byte (checksum rewritten)
    makes the engine disagree, a changed byte with the old checksum is refused, one expected
    integer changed in the vectors is caught.

Usage: /usr/bin/python3 tests/trainer/trainer_test.py LOA WORKDIR   (WORKDIR is emptied first: only a
new or empty folder, or one an earlier run of this test marked as its own)
Needs Debian's python3-torch: bash scripts/setup.sh trainer.
"""

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import time
import unittest

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NNUE = os.path.join(ROOT, "scripts", "nnue")
sys.path.insert(0, NNUE)
sys.path.insert(0, HERE)
import features  # noqa: E402
import net_format as fmt  # noqa: E402

DATA = os.path.join(HERE, "..", "data", "nnue", "selfplay-seed84.txt")
ENV = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
# Tiny and fast (about a second each). The output scale 4000 (about half of 127 * 64) makes the
# evaluation follow the output o to within 2: a wrong weight shows in the centi-units.
TRAIN = ["--data", DATA, "--hidden", "16", "--l2", "8", "--epochs", "2", "--seed", "84",
         "--threads", "1", "--scale", "4000", "--vector-count", "40"]


def fail(message):
    print(f"FAIL: {message}", flush=True)
    sys.exit(1)


def run(args, want_status=0):
    out = subprocess.run(args, capture_output=True, text=True, env=ENV)
    if want_status is not None and out.returncode != want_status:
        fail(f"{' '.join(args)}: exit status {out.returncode}, want {want_status}\n{out.stdout}{out.stderr}")
    return out


def train(workdir, name, extra=()):
    net = os.path.join(workdir, name + ".nnue")
    out = run([sys.executable, os.path.join(NNUE, "train.py"), *TRAIN, *extra, "--out", net])
    print(out.stdout.strip().splitlines()[-1], flush=True)
    return net, os.path.join(workdir, name + ".vectors.txt")


ENGINE_EVAL = re.compile(r"^network total (-?\d+) \(for (black|white)", re.M)
ENGINE_CONN = re.compile(r"^connectivity inputs \(0\.\.127; (black|white) first\): groups (\d+) / (\d+), "
                         r"euler (\d+) / (\d+), concentration (\d+) / (\d+), box (\d+) / (\d+)", re.M)


def engine_eval(loa, net, text):
    """(evaluation, connectivity inputs side to move's first or None) as `loa eval` prints them."""
    out = run([loa, "eval", "--net", net, "--position", text])
    m = ENGINE_EVAL.search(out.stdout)
    stm = "black" if text.split()[1] == "b" else "white"
    if not m or m.group(2) != stm:
        fail(f"loa eval --net {net} --position '{text}': no 'network total N (for {stm}' line\n{out.stdout}")
    c = ENGINE_CONN.search(out.stdout)
    conn = None
    if c:
        pairs = [int(v) for v in c.groups()[1:]]  # (stm, other) for each of the four inputs
        conn = pairs[0::2] + pairs[1::2]
    return int(m.group(1)), conn


def engine_mismatches(loa, net, vectors, connectivity):
    """The vectors' positions where the engine's evaluation (or connectivity inputs) differs
    from the trainer's; prints the first few."""
    bad = []
    for text, _, want in fmt.read_vectors(vectors):
        got, conn = engine_eval(loa, net, text)
        want_conn = features.connectivity_inputs(*features.parse_position(text)) if connectivity else None
        if got != want or conn != want_conn:
            bad.append(text)
            if len(bad) <= 5:
                print(f"  engine differs: {text}: engine {got} {conn or ''}, trainer {want} {want_conn or ''}")
    return bad


def check_net(loa, net, vectors, connectivity):
    out = run([sys.executable, os.path.join(NNUE, "net_format.py"), net, "--vectors", vectors])
    print(out.stdout.strip().splitlines()[-1])
    rows = fmt.read_vectors(vectors)
    sides = {text.split()[1] for text, _, _ in rows}
    if len(rows) < 20 or sides != {"b", "w"} or len({i for _, _, i in rows}) < 10:
        fail(f"{vectors}: want 20+ positions, both sides to move, 10+ distinct evaluations")
    bad = engine_mismatches(loa, net, vectors, connectivity)
    if bad:
        fail(f"the engine differs from the trainer on {len(bad)} of {len(rows)} positions of {vectors}")
    print(f"engine: {len(rows)} positions of {os.path.basename(vectors)} evaluated exactly as the trainer"
          + (", connectivity inputs equal" if connectivity else ""), flush=True)


def perturbed_weight(net_path, workdir):
    """A copy of the net with one byte of a weight changed and the checksum rewritten: a valid
    file whose evaluations differ. The byte: ft_bias[0]'s low byte, bit 6 (+-64 on the first
    accumulator unit of every position, which the trainer keeps near 63, inside the clipped
    ReLU's range)."""
    with open(net_path, "rb") as f:
        blob = bytearray(f.read())
    net = fmt.decode_net(bytes(blob))
    offset = (fmt.HEADER if net["extras"] == 0 else fmt.HEADER_V2).size + len(net["description"].encode())
    blob[offset] ^= 0x40
    unchecked = bytes(blob)
    blob[-8:] = fmt.CHECKSUM.pack(fmt.fnv1a64(blob[:-8]))
    paths = [os.path.join(workdir, name) for name in ("weight-changed.nnue", "checksum-wrong.nnue")]
    for path, content in zip(paths, (bytes(blob), unchecked)):
        with open(path, "wb") as f:
            f.write(content)
    return paths


def negative_checks(loa, net, vectors, workdir):
    """Each check above must be able to fail."""
    print("negative checks (the differences printed below are wanted):", flush=True)
    changed, unchecked = perturbed_weight(net, workdir)
    if not engine_mismatches(loa, changed, vectors, True):
        fail("a net with a changed weight still matched the vectors in the engine")
    run([sys.executable, os.path.join(NNUE, "net_format.py"), changed, "--vectors", vectors], want_status=1)
    refused = run([loa, "eval", "--net", unchecked], want_status=None)
    if refused.returncode == 0 or "checksum" not in refused.stdout + refused.stderr:
        fail(f"the engine read a net with a wrong checksum: {refused.stdout}{refused.stderr}")
    run([sys.executable, os.path.join(NNUE, "net_format.py"), unchecked], want_status=1)
    rows = open(vectors).read().splitlines()
    text, floating, integer = (p.strip() for p in rows[3].split("|"))
    rows[3] = f"{text} | {floating} | {int(integer) + 1}"
    wrong = os.path.join(workdir, "wrong.vectors.txt")
    with open(wrong, "w") as f:
        f.write("\n".join(rows) + "\n")
    if engine_mismatches(loa, net, wrong, True) != [text]:
        fail("one expected integer changed in the vectors was not caught as the one difference")
    run([sys.executable, os.path.join(NNUE, "net_format.py"), net, "--vectors", wrong], want_status=1)
    print("negative checks: a changed weight, a wrong checksum and a changed expected value are each caught")


def main():
    if len(sys.argv) != 3:
        fail("usage: trainer_test.py LOA WORKDIR")
    loa, workdir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    if importlib.util.find_spec("torch") is None:
        fail("python3-torch is missing: bash scripts/setup.sh trainer installs it")
    started = time.perf_counter()
    # Only a folder of its own is emptied: a mistyped WORKDIR must not lose anybody's files.
    marker = os.path.join(workdir, ".trainer-test-workdir")
    if os.path.isdir(workdir) and os.listdir(workdir) and not os.path.exists(marker):
        fail(f"{workdir} holds files and is not this test's folder (no {os.path.basename(marker)}): give a new one")
    shutil.rmtree(workdir, ignore_errors=True)
    os.makedirs(workdir)
    open(marker, "w").close()

    units = unittest.defaultTestLoader.loadTestsFromName("trainer_unit_test")
    if not unittest.TextTestRunner(verbosity=1).run(units).wasSuccessful():
        fail("the trainer's unit tests")

    plain, plain_vectors = train(workdir, "plain")
    again, _ = train(workdir, "plain-again")
    if open(plain, "rb").read() != open(again, "rb").read():
        fail("the same training command gave two different nets")
    check_net(loa, plain, plain_vectors, False)
    conn, conn_vectors = train(workdir, "conn", ["--connectivity"])
    check_net(loa, conn, conn_vectors, True)
    # A second hidden layer (a version-3 file; the first layer then a multiple of 32 wide),
    # trained quantisation-aware for its last epoch.
    layers, layers_vectors = train(workdir, "layers", ["--l2", "32", "--l3", "8", "--qat-epochs", "1"])
    check_net(loa, layers, layers_vectors, False)
    # Input buckets (the centre of mass's distance from the centre): the engine's buckets and
    # its bucket changes along the vectors' positions against the trainer's definition.
    buckets, buckets_vectors = train(workdir, "buckets", ["--buckets", "1"])
    check_net(loa, buckets, buckets_vectors, False)
    negative_checks(loa, conn, conn_vectors, workdir)
    print(f"trainer test passed in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
