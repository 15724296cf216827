#!/usr/bin/python3
"""Unit tests of the NNUE trainer's parts (scripts/nnue/), each against an oracle that does not
come from the code under test: the rules and definitions of docs/nnue.md, published FNV-1a
values, the engine's own output for the start position, values worked out by hand.

Run by tests/trainer/trainer_test.py (ctest `trainer`), or alone:
    /usr/bin/python3 tests/trainer/trainer_unit_test.py
The tests of model.py need torch (`bash scripts/setup.sh trainer`); the rest numpy only.
"""

import contextlib
import importlib.util
import io
import math
import os
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "nnue"))

import numpy as np  # noqa: E402

import data as datagen  # noqa: E402
import export  # noqa: E402
import features  # noqa: E402
import net_format as fmt  # noqa: E402

HAVE_TORCH = importlib.util.find_spec("torch") is not None


def random_position(rng, max_pieces=12, min_pieces=0):
    nb, nw = (int(n) for n in rng.integers(min_pieces, max_pieces + 1, size=2))
    squares = rng.permutation(64)[: nb + nw]
    return (sorted(squares[:nb].tolist()), sorted(squares[nb:].tolist()), "bw"[int(rng.integers(2))])


def random_net(rng, H=16, L=8, extras=0, S=100):
    """Weights small enough that no sum overflows the engine's types (as the trainer's clamps
    ensure), otherwise arbitrary."""
    E = fmt.EXTRA_SETS[extras]
    return {
        "H": H, "L": L, "S": S, "extras": extras, "description": "unit test net",
        "ft_bias": rng.integers(0, 80, size=H), "ft_weight": rng.integers(-40, 41, size=(fmt.INPUTS, H)),
        "l1_bias": rng.integers(-5000, 5001, size=L), "l1_weight": rng.integers(-127, 128, size=(L, 2 * H + E)),
        "out_bias": int(rng.integers(-10000, 10001)), "out_weight": rng.integers(-300, 301, size=L),
    }


def zero_net(H=16, L=4, S=100):
    return {"H": H, "L": L, "S": S, "extras": 0, "description": "",
            "ft_bias": np.zeros(H, np.int64), "ft_weight": np.zeros((fmt.INPUTS, H), np.int64),
            "l1_bias": np.zeros(L, np.int64), "l1_weight": np.zeros((L, 2 * H), np.int64),
            "out_bias": 0, "out_weight": np.zeros(L, np.int64)}


class NetFormat(unittest.TestCase):
    def test_fnv1a64_published_values(self):
        # The FNV-1a 64 test vectors of the algorithm's authors (isthe.com/chongo/tech/comp/fnv).
        self.assertEqual(fmt.fnv1a64(b""), 0xCBF29CE484222325)
        self.assertEqual(fmt.fnv1a64(b"a"), 0xAF63DC4C8601EC8C)
        self.assertEqual(fmt.fnv1a64(b"foobar"), 0x85944171F73967E8)

    def test_encode_decode_round_trip(self):
        rng = np.random.default_rng(1)
        for extras in (0, 1):
            net = random_net(rng, H=32, L=4, extras=extras, S=777)
            blob = fmt.encode_net(net)
            back = fmt.decode_net(blob)
            for key in ("H", "L", "S", "extras", "description", "out_bias"):
                self.assertEqual(back[key], net[key], key)
            for name, _, _ in fmt.body_layout(32, 4, extras):
                np.testing.assert_array_equal(back[name], net[name], name)
            self.assertEqual(fmt.encode_net(back), blob)
            self.assertEqual(blob[:8], b"LOA-NNUE")
            self.assertEqual(int.from_bytes(blob[8:12], "little"), 1 + extras)  # the version

    def test_file_size_follows_the_layout(self):
        # docs/nnue.md's table: header 32 bytes (36 for version 2), the description, int16
        # ft_bias[H] and ft_weight[128][H], int32 l1_bias[L], int8 l1_weight[L][2H + E], int32
        # out_bias, int16 out_weight[L], uint64 checksum.
        H, L = 16, 8
        for extras, header, E in ((0, 32, 0), (1, 36, 8)):
            net = random_net(np.random.default_rng(2), H=H, L=L, extras=extras)
            want = header + len(net["description"]) + 2 * H + 2 * 128 * H + 4 * L + L * (2 * H + E) + 4 + 2 * L + 8
            self.assertEqual(len(fmt.encode_net(net)), want)

    def test_checksum_refuses_any_changed_byte(self):
        blob = fmt.encode_net(random_net(np.random.default_rng(3)))
        body_start = fmt.HEADER.size + len("unit test net")
        for offset in list(range(0, len(blob), 97)) + [len(blob) - 1]:
            changed = bytearray(blob)
            changed[offset] ^= 0x01
            with self.assertRaises(fmt.NetFormatError) as caught:
                fmt.decode_net(bytes(changed))
            if offset >= body_start:  # a weight or the checksum itself: only the checksum can tell
                self.assertIn("wrong checksum", str(caught.exception))

    def test_refuses_short_and_long_files(self):
        blob = fmt.encode_net(random_net(np.random.default_rng(4)))
        for bad, message in ((blob[:-1], "short file"), (blob + b"\0", "trailing bytes"),
                             (blob[:10], "short file"), (b"LOA-NNUX" + blob[8:], "wrong magic")):
            with self.assertRaisesRegex(fmt.NetFormatError, message):
                fmt.decode_net(bad)

    def test_refuses_sizes_outside_the_bounds(self):
        for H, L, S in ((24, 8, 100), (16, 6, 100), (16, 8, 0), (2048, 8, 100)):
            with self.assertRaises(fmt.NetFormatError):
                fmt.check_sizes(H, L, S, 0)

    def test_the_test_nets_decode_and_encode_to_the_same_bytes(self):
        here = os.path.dirname(os.path.abspath(__file__))
        for name in ("test-h32.nnue", "test-h32-conn.nnue"):
            with open(os.path.join(here, "..", "data", "nnue", name), "rb") as f:
                blob = f.read()
            self.assertEqual(fmt.encode_net(fmt.decode_net(blob)), blob, name)


class IntegerEvaluation(unittest.TestCase):
    def test_division_rounds_toward_zero_as_in_cpp(self):
        self.assertEqual(fmt.truncating_division(7, 2), 3)
        self.assertEqual(fmt.truncating_division(-7, 2), -3)
        self.assertEqual(fmt.truncating_division(-8129 * 100, 8128), -100)

    def test_a_net_of_biases_alone(self):
        # All weights 0: acc = 0, h = clamp(l1_bias >> 6, 0, 127), o = out_bias + h . out_weight,
        # evaluation (o * S) / 8128 toward zero, clamped to +-20000.
        net = zero_net(S=100)
        start = features.parse_position(features.START)
        net["out_bias"] = -8129  # -8129 * 100 / 8128 = -100.01: -100 toward zero, not -101
        self.assertEqual(fmt.integer_eval(net, *start), -100)
        net["out_bias"], net["l1_bias"][0], net["out_weight"][0] = 0, 64 * 10, 3  # h0 = 10, o = 30
        net["S"] = 8128
        self.assertEqual(fmt.integer_eval(net, *start), 30)
        net["l1_bias"][0] = -64 * 10  # the clipped ReLU: h0 = 0
        self.assertEqual(fmt.integer_eval(net, *start), 0)
        net["l1_bias"][0], net["out_weight"][0], net["S"] = 64 * 127, 30000, 100000  # o * S / 8128 > 20000
        self.assertEqual(fmt.integer_eval(net, *start), 20000)

    def test_a_second_hidden_layer_worked_out_by_hand(self):
        # All first-layer weights 0: h1 = clamp(l1_bias >> 6, 0, 127); then
        # h2 = clamp((l2_bias + l2_weight @ h1) >> 6, 0, 127), o = out_bias + h2 . out_weight.
        net = zero_net(L=32, S=8128)
        net["L2"] = 4
        net["l2_bias"] = np.zeros(4, np.int64)
        net["l2_weight"] = np.zeros((4, 32), np.int64)
        net["out_weight"] = np.zeros(4, np.int64)
        start = features.parse_position(features.START)
        net["l1_bias"][3] = 64 * 20            # h1[3] = 20
        net["l1_bias"][5] = 64 * 500           # h1[5] = 127 (clipped)
        net["l2_weight"][1, 3] = 96            # 20 * 96 = 1920
        net["l2_weight"][1, 5] = -10           # 127 * -10 = -1270
        net["l2_bias"][1] = 33                 # (33 + 1920 - 1270) >> 6 = 683 >> 6 = 10
        net["l2_bias"][2] = -65                # -65 >> 6 = -2: clipped to 0
        net["out_weight"][1], net["out_weight"][2] = 7, 1000
        self.assertEqual(fmt.integer_eval(net, *start), 70)
        blob = fmt.encode_net(net)
        self.assertEqual(int.from_bytes(blob[8:12], "little"), 3)  # a version-3 file
        back = fmt.decode_net(blob)
        self.assertEqual(back["L2"], 4)
        self.assertEqual(fmt.integer_eval(back, *start), 70)
        # Header 44 bytes; the second layer's int32 biases and int8 rows [L2][L]; out_weight L2 long.
        H, L, L2 = 16, 32, 4
        want = 44 + 0 + 2 * H + 2 * 128 * H + 4 * L + L * 2 * H + 4 * L2 + L2 * L + 4 + 2 * L2 + 8
        self.assertEqual(len(blob), want)
        # Input buckets: a version-3 file whose input count is 128 per bucket.
        bucketed = dict(net, buckets=1, ft_weight=np.zeros((3 * 128, 16), np.int64))
        bucketed["ft_weight"][2 * 128 + 10, 0] = 64   # bucket 2, own piece on c2
        blob = fmt.encode_net(bucketed)
        self.assertEqual(int.from_bytes(blob[12:16], "little"), 384)
        back = fmt.decode_net(blob)
        self.assertEqual((back["buckets"], back["ft_weight"].shape), (1, (384, 16)))
        with self.assertRaisesRegex(fmt.NetFormatError, "inputs = 128, want 384"):
            fmt.decode_net(blob[:12] + (128).to_bytes(4, "little") + blob[16:])
        with self.assertRaisesRegex(fmt.NetFormatError, "input buckets set 2"):
            fmt.check_sizes(16, 32, 100, 0, 0, 0, 2)
        for bad_l2, bad_l in ((6, 32), (68, 32), (4, 16)):
            with self.assertRaises(fmt.NetFormatError):
                fmt.check_sizes(16, bad_l, 100, 0, 0, bad_l2)

    def test_one_piece_one_column(self):
        # A black piece on c2 (square 10) is Black's input 10 and White's input 64 + T(10) = 81.
        net = zero_net(S=8128)
        net["ft_weight"][10, 0] = 50     # Black's own piece on c2: acc_b[0] = 50
        net["ft_weight"][81, 1] = 20     # seen by White: acc_w[1] = 20
        net["l1_weight"][0, 0] = 64      # x[0]: the side to move's unit 0
        net["l1_weight"][1, 16 + 1] = 64  # x[17]: the other side's unit 1
        net["out_weight"][:2] = (1, 2)
        # Black to move: x[0] = 50, x[17] = 20; h = (50 * 64 >> 6, 20 * 64 >> 6) = (50, 20).
        self.assertEqual(fmt.integer_eval(net, [10], [], "b"), 50 + 2 * 20)
        # White to move: the halves swap, x[0] = acc_w[0] = 0, x[17] = acc_b[1] = 0.
        self.assertEqual(fmt.integer_eval(net, [10], [], "w"), 0)

    def test_the_colour_swap_leaves_the_evaluation_exactly(self):
        rng = np.random.default_rng(5)
        for extras in (0, 1):
            net = random_net(rng, extras=extras)
            for _ in range(50):
                p = random_position(rng, min_pieces=1)
                self.assertEqual(fmt.integer_eval(net, *p), fmt.integer_eval(net, *features.colour_swapped(*p)))


class Positions(unittest.TestCase):
    def test_position_text_round_trip(self):
        rng = np.random.default_rng(6)
        for _ in range(200):
            b, w, stm = random_position(rng)
            pb, pw, ps = features.parse_position(features.position_text(b, w, stm))
            self.assertEqual((sorted(pb), sorted(pw), ps), (b, w, stm))

    def test_start_position(self):
        black, white, stm = features.parse_position(features.START)
        black, white = sorted(black), sorted(white)
        self.assertEqual(black, [1, 2, 3, 4, 5, 6, 57, 58, 59, 60, 61, 62])  # b1-g1, b8-g8
        self.assertEqual(white, [8, 15, 16, 23, 24, 31, 32, 39, 40, 47, 48, 55])  # a2-a7, h2-h7
        self.assertEqual(stm, "b")
        # The colour swap maps the start onto itself (docs/nnue.md).
        swapped = features.colour_swapped(black, white, stm)
        self.assertEqual((sorted(swapped[0]), sorted(swapped[1])), (black, white))

    def test_refuses_bad_text(self):
        for text in ("8/8/8/8/8/8/8 b", "8/8/8/8/8/8/8/8 x", "9/8/8/8/8/8/8/8 b", "8/8/8/8/8/8/8/7q b"):
            with self.assertRaises(ValueError):
                features.parse_position(text)

    def test_symmetries_are_the_eight_of_the_square(self):
        # Each is a permutation keeping king-step neighbours neighbours; the 8 are distinct.
        tables = features.SYMMETRIES
        self.assertEqual(len({tuple(row) for row in tables}), 8)
        for row in tables:
            self.assertEqual(sorted(row), list(range(64)))
            for s in range(64):
                self.assertEqual(sorted(int(row[n]) for n in features.king_neighbours(s)),
                                 sorted(features.king_neighbours(int(row[s]))))

    def test_batch_features_are_the_positions_features(self):
        rng = np.random.default_rng(7)
        positions = [random_position(rng) for _ in range(100)]
        codes = np.array([features.piece_codes(b, w) for b, w, _ in positions], dtype=np.int16)
        stm = np.array([s == "b" for _, _, s in positions])
        symmetry = rng.integers(0, 8, size=len(positions))
        for buckets in features.BUCKET_SETS:
            own, other = features.batch_features(codes, stm, symmetry, buckets)
            pad = features.pad_index(buckets)
            seen = set()
            for i, (b, w, s) in enumerate(positions):
                row = features.SYMMETRIES[symmetry[i]]
                mb, mw = [int(row[q]) for q in b], [int(row[q]) for q in w]
                them = "w" if s == "b" else "b"
                self.assertEqual(sorted(x for x in own[i] if x != pad), sorted(features.features(mb, mw, s, buckets)))
                self.assertEqual(sorted(x for x in other[i] if x != pad), sorted(features.features(mb, mw, them, buckets)))
                seen.update(int(x) // features.INPUTS for x in own[i] if x != pad)
            self.assertEqual(seen, set(range(features.BUCKET_SETS[buckets])), f"buckets {buckets}")

    def test_input_buckets_worked_out_by_hand(self):
        def square(name):
            return "abcdefgh".index(name[0]) + 8 * (int(name[1]) - 1)

        def bucket(names):
            return features.input_bucket([square(n) for n in names.split()], 1)

        self.assertEqual(bucket("d4 e5"), 0)          # the centre of mass on the centre
        self.assertEqual(bucket("c4 e5"), 0)          # files 2 and 4: 3, d = 0.5
        self.assertEqual(bucket("c4 c5"), 1)          # file 2: d = 1.5
        self.assertEqual(bucket("c4 d4 c5 d5"), 1)    # (2.5, 3.5): d = 1, not under 1
        self.assertEqual(bucket("b4 b5"), 2)          # file 1: d = 2.5
        self.assertEqual(bucket("a1"), 2)             # d = 3.5
        self.assertEqual(bucket("b2 g7"), 0)          # (3.5, 3.5): spread, but centred
        self.assertEqual(bucket(""), 0)               # no pieces
        self.assertEqual(features.input_bucket([square("a1")], 0), 0)  # set 0: one bucket
        start = features.parse_position(features.START)
        self.assertEqual([features.input_bucket(start[0], 1), features.input_bucket(start[1], 1)], [0, 0])

    def test_input_buckets_are_the_same_in_every_image(self):
        rng = np.random.default_rng(8)
        for _ in range(200):
            b, w, s = random_position(rng, min_pieces=1)
            want = features.input_bucket(b, 1)
            for row in features.SYMMETRIES:
                self.assertEqual(features.input_bucket([int(row[q]) for q in b], 1), want)
            swapped_b, swapped_w, _ = features.colour_swapped(b, w, s)
            self.assertEqual(features.input_bucket(swapped_w, 1), want)


class Connectivity(unittest.TestCase):
    def test_start_position_as_the_engine_prints_it(self):
        # `loa eval` (tests/cli/cases.txt, cli.eval.connectivity): groups 11, euler 40,
        # concentration 63, box 94 for both sides of the start.
        self.assertEqual(features.connectivity_inputs(*features.parse_position(features.START)),
                         [11, 40, 63, 94] * 2)

    def test_shapes_worked_out_by_hand(self):
        d4, e5, f6, a1, h8 = 27, 36, 45, 0, 63
        # A diagonal line is one group (8-connected), no hole: Euler 1, 2 * 4 + 24 = 32.
        self.assertEqual(features.side_connectivity([d4, e5, f6])[:2], [0, 32])
        # Two far pieces: two groups, Euler 2; box 8 x 8: 2 * 64 - 2.
        self.assertEqual(features.side_connectivity([a1, h8]), [11, 40, 18 * 14 // 4, 126])
        # A ring of 8 around e5: one group with one hole, Euler 0 -> 24; every piece at
        # Chebyshev distance 1 from the centre: D / n^2 = 1 -> 18; box 3 x 3: 16.
        ring = [s for s in features.king_neighbours(e5)]
        self.assertEqual(features.side_connectivity(ring), [0, 24, 18, 16])
        self.assertEqual(features.side_connectivity([]), [0, 0, 0, 0])
        self.assertEqual(features.side_connectivity([a1]), [0, 32, 0, 0])

    def test_numpy_batch_equals_the_definitions(self):
        rng = np.random.default_rng(8)
        positions = [random_position(rng) for _ in range(300)]
        positions += [([], [], "b"), ([0], [], "w"), ([], list(range(52, 64)), "b")]
        codes = np.array([features.piece_codes(b, w) for b, w, _ in positions], dtype=np.int16)
        stm = np.array([s == "b" for _, _, s in positions])
        fast = features.batch_connectivity(codes, stm, chunk=64)  # several chunks
        for i, p in enumerate(positions):
            self.assertEqual(fast[i].tolist(), features.connectivity_inputs(*p), features.position_text(*p))

    def test_invariant_under_the_board_symmetries(self):
        rng = np.random.default_rng(9)
        features.check_connectivity([random_position(rng) for _ in range(100)]
                                    + features.synthetic_positions(rng))  # SystemExit on a difference

    def test_the_check_catches_a_wrong_batch_value(self):
        real = features.batch_connectivity
        try:
            features.batch_connectivity = lambda codes, stm, chunk=65536: real(codes, stm) + 1
            with self.assertRaisesRegex(SystemExit, "connectivity inputs differ"):
                features.check_connectivity([features.parse_position(features.START)])
        finally:
            features.batch_connectivity = real


class DataFiles(unittest.TestCase):
    TEXT = ("# loa-match datagen 2: settings\n"
            "# game 1\n"
            "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b | 12 | b1-d3 | 1\n"
            "# end 1 1\n# game 2\n"
            "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 w | -7 | a2-c2 | 0.5\n"
            "# end 2 0.5\n# game 3\n"
            "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b | 3 | b1-d3 | 0\n"
            "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 w | 5 | a2-c2 | 1")  # no newline: skipped

    def load(self, text, max_positions=None):
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "d.txt")
            with open(path, "w") as f:
                f.write(text)
            with contextlib.redirect_stdout(io.StringIO()):  # the note on the unfinished last line
                return datagen.load_data([path], max_positions)

    def test_positions_games_and_split(self):
        d = self.load(self.TEXT)
        self.assertEqual(len(d), 3)
        self.assertEqual(d.game.tolist(), [1, 2, 3])
        self.assertEqual(d.score.tolist(), [12, -7, 3])
        self.assertEqual(d.result.tolist(), [1, 0.5, 0])
        self.assertEqual(d.black_to_move.tolist(), [True, False, True])
        self.assertEqual(d.files[0]["games"], 3)
        train, val = datagen.split_by_game(d, 2)  # game 2 held out
        self.assertEqual((train.tolist(), val.tolist()), ([0, 2], [1]))
        self.assertEqual(len(self.load(self.TEXT, max_positions=2)), 2)

    def test_a_bad_line_is_named(self):
        with self.assertRaisesRegex(SystemExit, r"d.txt:2: result 2"):
            self.load("# game 1\n1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b | 12 | b1-d3 | 2\n")

    def test_proven_results_and_max_score(self):
        """Scores of datagen --keep-decisive: a proof lies at |score| >= 29871 (the engine's
        ProvenWinScore, win_in(n) = 30000 - n beyond it), every evaluation below; --max-score N
        leaves out |score| > N from training and validation alike."""
        start = "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1"
        scores = [12, 29871, -29998, 2500, -29870, 29990, -2000, 7]
        text = "".join(f"# game {g + 1}\n{start} {'bw'[g % 2]} | {v} | b1-d3 | {1 if v > 0 else 0}\n# end {g + 1} 1\n"
                       for g, v in enumerate(scores))
        d = self.load(text)
        self.assertEqual(datagen.proven(d.score).tolist(), [False, True, True, False, False, True, False, False])
        import train
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "d.txt")
            with open(path, "w") as f:
                f.write(text)
            out = os.path.join(directory, "n.nnue")
            for max_score, kept in ((None, scores), (2000, [12, -2000, 7]), (29871, [12, 29871, 2500, -29870, -2000, 7])):
                args = train.parse_args(["--data", path, "--out", out, "--val-every", "4"]
                                        + ([] if max_score is None else ["--max-score", str(max_score)]))
                with contextlib.redirect_stdout(io.StringIO()):
                    data, train_idx, val_idx = train.prepare_data(args, lambda _: None)
                self.assertEqual(sorted(data.score[np.concatenate([train_idx, val_idx])].tolist()), sorted(kept), max_score)
                self.assertEqual(data.game[val_idx].tolist(), [g for g in (4, 8) if scores[g - 1] in kept])

    def test_the_fixture_loads(self):
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "nnue", "selfplay-seed84.txt")
        d = datagen.load_data([path], None)
        self.assertEqual((len(d), d.files[0]["games"]), (2892, 250))
        self.assertTrue(d.black_to_move.any() and not d.black_to_move.all())


class Export(unittest.TestCase):
    def test_rounding_halves_away_from_zero_as_c_round(self):
        self.assertEqual(export.round_half_away([0.5, -0.5, 1.5, -2.5, 0.49, -0.51]).tolist(),
                         [1, -1, 2, -3, 0, -1])

    def test_beside(self):
        self.assertEqual(export.beside("a/net.nnue", ".json"), "a/net.json")
        self.assertEqual(export.beside("a/net", ".json"), "a/net.json")


@unittest.skipUnless(HAVE_TORCH, "torch is missing: bash scripts/setup.sh trainer")
class Model(unittest.TestCase):
    def test_a_proven_result_is_its_own_target(self):
        """target = lambda * sigmoid(K * score) + (1 - lambda) * result (docs/nnue.md), worked
        out here with math.exp; a proof (|score| >= 29871) is 1 or 0 whatever the game's result,
        without overflow; K is fitted on the searched scores alone."""
        import model
        d = datagen.Data()
        rows = [(120, 1.0), (-40, 0.5), (29871, 0.5), (-29995, 1.0), (29990, 0.0), (-300, 0.0)]
        for score, result in rows:
            d.append(np.zeros(features.MAX_PIECES, np.int16), True, score, result, 1, 0)
        d = d.finish()
        k, lam = 0.0245, 0.7
        with np.errstate(all="raise"):
            got = model.targets(d, k, lam)
        want = [lam / (1 + math.exp(-k * s)) + (1 - lam) * r if abs(s) < 29871 else (1.0 if s > 0 else 0.0) for s, r in rows]
        for g, w in zip(got.tolist(), want):
            self.assertAlmostEqual(g, w, places=12)
        import train
        searched = d.score[~datagen.proven(d.score)]
        self.assertEqual(train.choose_k(model, train.parse_args(["--data", __file__, "--out", "n.nnue"]), d,
                                        np.arange(len(d)), lambda _: None),
                         model.fit_k(searched, d.result[np.abs(d.score) < 29871])[0])

    def test_clamped_weights_quantise_within_their_types(self):
        import torch

        import model
        torch.manual_seed(1)
        network = model.Nnue(16, 8, 8)
        with torch.no_grad():
            for p in network.parameters():
                p.mul_(1e6)  # far outside every type
        network.clamp_weights()
        net = export.quantise(network, 100, "", 1)
        fmt.decode_net(fmt.encode_net(net))  # encode_net refuses values outside their types
        # ... and the worst case of the int16 accumulator: the bias and 25 columns (24 pieces and
        # one more, model.FT_LIMIT) at the limit.
        self.assertLessEqual(int(np.abs(net["ft_bias"]).max()) + 25 * int(np.abs(net["ft_weight"]).max()), 32767)

    def test_float_and_integer_evaluations_agree_within_quantisation(self):
        import torch

        import model
        torch.manual_seed(2)
        network = model.Nnue(16, 8, 8)
        net = fmt.decode_net(fmt.encode_net(export.quantise(network, 100, "", 1)))
        rng = np.random.default_rng(10)
        positions = [random_position(rng, min_pieces=1) for _ in range(50)]
        floats = model.float_evals(network, positions, 100, True)
        ints = [fmt.integer_eval(net, *p) for p in positions]
        self.assertLess(float(np.max(np.abs(floats - np.array(ints)))), 5.0)

    def test_quantisation_aware_forward_is_the_integer_evaluation(self):
        """With the quantised forward pass the model computes the engine's integers: its float
        evaluation is integer_eval's (written from docs/nnue.md) but for the final truncation to
        an integer centi-unit, under 1; the plain forward pass differs by more."""
        import torch

        import model
        torch.manual_seed(3)
        for H, extras, L, L2, buckets in ((16, 0, 8, 0, 0), (16, 1, 8, 0, 0), (16, 0, 32, 8, 0), (16, 1, 32, 4, 0),
                                          (16, 0, 8, 0, 1), (16, 1, 32, 4, 1), (512, 1, 32, 8, 1)):
            network = model.Nnue(H, L, fmt.EXTRA_SETS[extras], L2, buckets)
            if buckets:
                with torch.no_grad():  # columns that differ by bucket, so that a wrong bucket shows
                    network.ft.weight.uniform_(-0.3, 0.3)
            with torch.no_grad():  # weights off the integer grids, so that the rounding matters
                network.l1.weight.mul_(3.0)
                if L2:
                    network.l2.weight.mul_(3.0)
                network.out.weight.mul_(40.0)
            network.clamp_weights()
            net = fmt.decode_net(fmt.encode_net(export.quantise(network, 100, "", extras)))
            self.assertEqual((net["L2"], net["buckets"]), (L2, buckets))
            rng = np.random.default_rng(11 + extras + L2 + buckets)
            positions = [random_position(rng, min_pieces=1) for _ in range(200)]
            ints = np.array([fmt.integer_eval(net, *p) for p in positions], dtype=np.float64)
            plain = model.float_evals(network, positions, 100, extras == 1)
            network.quantised = True
            quantised = model.float_evals(network, positions, 100, extras == 1)
            what = f"H {H}, extras {extras}, L2 {L2}, buckets {buckets}"
            self.assertLess(float(np.max(np.abs(quantised - ints))), 1.0, what)
            self.assertGreater(float(np.max(np.abs(plain - ints))), 1.0, what)


if __name__ == "__main__":
    unittest.main()
