#!/usr/bin/env python3
"""Tests of the independent CodinGame LOA referee (standard library unittest).

Rules are checked against hand-made positions and facts worked out by hand, plus a second move
generator written differently (direction by direction, counting the line by scanning the board)
so that the referee's generator is not its own oracle. The protocol is checked with tiny Python
bots written to a temporary folder.

Run:  python3 tests/codingame/test_referee.py        (or: python3 -m unittest discover tests/codingame)
"""

import json
import os
import random
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ left in the source tree
sys.path.insert(0, HERE)
import referee as R  # noqa: E402


def board(diagram, to_move=R.BLACK):
    """A position from 8 rows, rank 8 first (spaces ignored)."""
    rows = [line.replace(" ", "") for line in textwrap.dedent(diagram).strip().splitlines()]
    return R.Position.from_rows(rows, to_move)


def swapped(pos):
    """The same position with the colours exchanged (and the side to move with them)."""
    swap = {R.BLACK: R.WHITE, R.WHITE: R.BLACK, R.EMPTY: R.EMPTY}
    return R.Position([swap[c] for c in pos.cells], R.other(pos.to_move))


def slow_moves(pos, colour=None):
    """Second generator: for each piece and each of the 8 directions, count the pieces on the
    whole line by scanning every square of the board for collinearity."""
    me = colour or pos.to_move
    moves = []
    for sq in range(64):
        if pos.cells[sq] != me:
            continue
        f, r = sq % 8, sq // 8
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)):
            n = 0
            for t in range(64):
                if pos.cells[t] == R.EMPTY:
                    continue
                tf, tr = t % 8 - f, t // 8 - r
                if tf * dr - tr * df == 0:   # on the line through sq with direction (df, dr)
                    n += 1
            tf, tr = f + n * df, r + n * dr
            if not (0 <= tf < 8 and 0 <= tr < 8):
                continue
            target = tr * 8 + tf
            if pos.cells[target] == me:
                continue
            path = [(r + k * dr) * 8 + f + k * df for k in range(1, n)]
            if any(pos.cells[p] == R.other(me) for p in path):
                continue
            moves.append(R.square_name(sq) + R.square_name(target))
    return sorted(moves)


# A position where Black's f2xc2 connects Black (a1 b2 c2) and, by removing the white
# straggler, White too (g7 g8): the mover must win. Row 2 holds b2, c2, f2 = 3 pieces.
SIMULTANEOUS = """
    ......w.
    ......w.
    ........
    ........
    ........
    ........
    .bw..b..
    b.......
"""

# Black has two lone corner pieces, each boxed in by White on all three of its lines: no move.
BLACK_BLOCKED = """
    .....wwb
    ......ww
    .....w.w
    ........
    ........
    w.w.....
    ww......
    bww.....
"""


class RulesTest(unittest.TestCase):
    def test_start_position(self):
        pos = R.Position.start()
        self.assertEqual(pos.rows(), [".bbbbbb."] + ["w......w"] * 6 + [".bbbbbb."])
        self.assertEqual(pos.to_move, R.BLACK)
        self.assertEqual((pos.count(R.BLACK), pos.count(R.WHITE)), (12, 12))
        self.assertFalse(pos.connected(R.BLACK) or pos.connected(R.WHITE))

    def test_start_has_36_moves_sorted(self):
        moves = R.Position.start().legal_moves()
        self.assertEqual(len(moves), 36)
        self.assertEqual(moves, sorted(moves))
        # b1: column b holds 2 pieces, row 1 holds 6, diagonal b1-h7 holds 2 (b1, h7).
        self.assertEqual([m for m in moves if m.startswith("b1")], ["b1b3", "b1d3", "b1h1"])
        # d1: column 2 -> d3; row 6 -> past h1, no; diagonals d1-a4 and d1-h5 hold 2 each.
        self.assertEqual([m for m in moves if m.startswith("d1")], ["d1b3", "d1d3", "d1f3"])
        self.assertEqual(moves, slow_moves(R.Position.start()))

    def test_white_replies_after_b1b3(self):
        # Worked out by hand: b3 blocks a3-d3 (row 3 now has 3 pieces), a2-d5 and a4-d1
        # (diagonals now with 3), and frees a2-b1 (that diagonal now holds a2 alone); so 34.
        pos = R.Position.start()
        pos.play("b1b3")
        moves = pos.legal_moves()
        self.assertEqual(len(moves), 34)
        self.assertIn("a2b1", moves)
        self.assertIn("h7g6", moves)   # diagonal b1-h7 now holds h7 alone
        self.assertIn("h3e3", moves)   # row 3: a3 b3 h3, over empty g3 f3
        for gone in ("a3c3", "a3d3", "a2c4", "a2d5", "a4c2", "a4d1"):
            self.assertNotIn(gone, moves)

    def test_perft(self):
        # Depth 2 is not 36*36: see test_white_replies_after_b1b3. These counts are confirmed
        # by the second generator below.
        pos = R.Position.start()
        self.assertEqual([R.perft(pos, d) for d in (1, 2, 3)], [36, 1244, 44952])

    def test_generators_agree_to_depth_2_and_on_random_games(self):
        start = R.Position.start()
        for m in start.legal_moves():
            child = start.copy()
            child.play(m)
            self.assertEqual(child.legal_moves(), slow_moves(child), m)
        rng = random.Random(7)
        for _ in range(40):
            pos = R.Position.start()
            for _ in range(80):
                moves = pos.legal_moves()
                self.assertEqual(moves, slow_moves(pos), pos.rows())
                mover = pos.to_move
                pos.play(rng.choice(moves) if moves else R.PASS)
                if pos.winner_after_move_by(mover):
                    break

    def test_jumps_own_piece(self):
        pos = board("""
            ........
            ........
            ........
            ........
            ........
            ........
            ........
            ..bb....
        """)
        self.assertIn("c1e1", pos.legal_moves())   # row 1 has 2 pieces; over own d1

    def test_cannot_jump_opponent_piece(self):
        pos = board("""
            ........
            ........
            ........
            ........
            ........
            ........
            ........
            ..bw....
        """)
        self.assertNotIn("c1e1", pos.legal_moves())
        self.assertEqual([m for m in pos.legal_moves() if m[2:] in ("a1", "e1")], ["c1a1"])

    def test_capture(self):
        pos = board("""
            ........
            ........
            .......w
            ........
            ........
            ........
            ........
            ..b.w...
        """)
        self.assertIn("c1e1", pos.legal_moves())
        pos.play("c1e1")
        self.assertEqual(pos.rows()[7], "....b...")
        self.assertEqual(pos.count(R.WHITE), 1)
        self.assertEqual(pos.to_move, R.WHITE)

    def test_cannot_land_on_own_piece(self):
        pos = board("""
            ........
            ........
            ........
            ........
            ........
            ........
            ........
            ..b.b...
        """)
        self.assertNotIn("c1e1", pos.legal_moves())
        self.assertNotIn("e1c1", pos.legal_moves())
        self.assertIn("e1g1", pos.legal_moves())

    def test_move_length_counts_both_colours_on_whole_line(self):
        # Row 1: a1 (b), g1 (w), h1 (w): 3 pieces, so a1 moves exactly 3, to d1.
        pos = board("""
            ........
            ........
            ........
            ........
            ........
            ........
            ........
            b.....ww
        """)
        row_moves = [m for m in pos.legal_moves() if m.startswith("a1") and m[3] == "1"]
        self.assertEqual(row_moves, ["a1d1"])
        # Pieces behind the mover count too: a1 (w) and d1 (b) make 2, so d1 moves 2 either way.
        pos = board("""
            ........
            ........
            ........
            ........
            ........
            ........
            ........
            w..b....
        """)
        row_moves = sorted(m for m in pos.legal_moves() if m.startswith("d1") and m[3] == "1")
        self.assertEqual(row_moves, ["d1b1", "d1f1"])

    def test_diagonal_lines(self):
        # c1's a1-h8-direction diagonal holds c1 and f4 (2); its other diagonal holds c1 and a3.
        pos = board("""
            ........
            ........
            ........
            ........
            .....w..
            w.......
            ........
            ..b.....
        """)
        moves = [m for m in pos.legal_moves() if m.startswith("c1")]
        self.assertIn("c1e3", moves)   # 2 along the diagonal, over empty d2
        self.assertIn("c1a3", moves)   # 2 along the other diagonal: captures a3
        # With a white piece on d2 in the way, c1-e3 (3 pieces: c1 d2 f4 -> f4) is blocked.
        pos.cells[R.parse_square("d2")] = R.WHITE
        self.assertNotIn("c1f4", pos.legal_moves())

    def test_simultaneous_connection_wins_for_mover(self):
        pos = board(SIMULTANEOUS)
        self.assertFalse(pos.connected(R.BLACK) or pos.connected(R.WHITE))
        self.assertIn("f2c2", pos.legal_moves())
        pos.play("f2c2")
        self.assertTrue(pos.connected(R.BLACK) and pos.connected(R.WHITE))
        self.assertEqual(pos.winner_after_move_by(R.BLACK), R.BLACK)

    def test_move_that_connects_only_the_opponent_loses(self):
        pos = board("""
            ......w.
            ......w.
            ........
            .......b
            ........
            ........
            .bw..b..
            b.......
        """)
        pos.play("f2c2")
        self.assertFalse(pos.connected(R.BLACK))
        self.assertEqual(pos.winner_after_move_by(R.BLACK), R.WHITE)

    def test_single_piece_is_connected(self):
        pos = board("""
            .......w
            ........
            ........
            ........
            ........
            ........
            ........
            b.b.....
        """)
        self.assertTrue(pos.connected(R.WHITE))
        self.assertFalse(pos.connected(R.BLACK))

    def test_no_legal_move_means_pass(self):
        pos = board(BLACK_BLOCKED)
        self.assertEqual(pos.legal_moves(), [])
        self.assertEqual(slow_moves(pos), [])
        self.assertFalse(pos.connected(R.BLACK) or pos.connected(R.WHITE))
        self.assertTrue(pos.legal_moves(R.WHITE))
        pos.play(R.PASS)
        self.assertEqual(pos.to_move, R.WHITE)
        self.assertEqual(R.perft(board(BLACK_BLOCKED), 1), 1)


class AnswerTest(unittest.TestCase):
    """What the arena's Referee.gameTurn accepts as an answer."""

    def test_answers(self):
        legal = ["b1b3", "c1c3"]
        rng = random.Random(1)
        self.assertEqual(R.judge_answer("b1b3", legal, rng), "b1b3")
        self.assertEqual(R.judge_answer("b1b3 a comment", legal, rng), "b1b3")
        self.assertEqual(R.judge_answer("b1b3xyz", legal, rng), "b1b3")   # startsWith
        self.assertIsNone(R.judge_answer("b1b4", legal, rng))
        self.assertIsNone(R.judge_answer("B1B3", legal, rng))
        self.assertIsNone(R.judge_answer(" b1b3", legal, rng))
        self.assertIsNone(R.judge_answer("", legal, rng))
        self.assertIsNone(R.judge_answer("pass", legal, rng))             # only with no move
        self.assertIn(R.judge_answer("random", legal, rng), legal)
        self.assertEqual(R.judge_answer("pass", [], rng), "pass")
        self.assertEqual(R.judge_answer("pass message", [], rng), "pass")
        self.assertEqual(R.judge_answer("random", [], rng), "pass")
        self.assertIsNone(R.judge_answer("passing", [], rng))
        self.assertIsNone(R.judge_answer("b1b3", [], rng))


BOT = r'''
import json, sys, time
mode, at_turn, log = sys.argv[1], int(sys.argv[2]), sys.argv[3]
prefer = sys.argv[4:]

def line():
    text = sys.stdin.readline()
    if not text:
        sys.exit(0)
    return text.rstrip("\n")

turn = 0
while True:
    turn += 1
    got = []
    first = line()
    got.append(first)
    if first in ("b", "w"):
        got.append(line())
    while len(got) < (10 if got[0] in ("b", "w") else 9):
        got.append(line())
    count = line()
    moves = [line() for _ in range(int(count))]
    got += [count] + moves
    if log != "-":
        with open(log, "a") as out:
            out.write(json.dumps(got) + "\n")
    answer = next((m for m in prefer if m in moves), moves[0])
    if turn == at_turn:
        if mode == "illegal":
            answer = "a1a1"
        elif mode == "sleep":
            time.sleep(float(prefer[0]) if prefer and prefer[0][0].isdigit() else 0.6)
        elif mode == "crash":
            sys.exit(3)
        elif mode == "comment":
            answer += " hello"
    print(answer, flush=True)
'''


class ProtocolTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.bot_path = os.path.join(cls.tmp.name, "bot.py")
        with open(cls.bot_path, "w") as out:
            out.write(BOT)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def bot(self, mode="first", at_turn=0, log="-", *prefer):
        return " ".join([sys.executable, self.bot_path, mode, str(at_turn), log] + list(prefer))

    def log_path(self, name):
        path = os.path.join(self.tmp.name, name)
        if os.path.exists(path):
            os.remove(path)
        return path

    def read_log(self, path):
        with open(path) as f:
            return [json.loads(line) for line in f]

    def test_inputs_sent_to_bots(self):
        lb, lw = self.log_path("b.log"), self.log_path("w.log")
        record = R.play_game({R.BLACK: ("A", self.bot("first", 0, lb)),
                              R.WHITE: ("B", self.bot("first", 0, lw))},
                             start_ply=R.MAX_PLIES - 4)
        black, white = self.read_log(lb), self.read_log(lw)
        start = R.Position.start()
        self.assertEqual(black[0], ["b"] + start.rows() + ["null", "36"] + start.legal_moves())
        first_move = start.legal_moves()[0]
        after = start.copy()
        after.play(first_move)
        self.assertEqual(white[0], ["w"] + after.rows() + [first_move, str(len(after.legal_moves()))]
                         + after.legal_moves())
        # The colour line comes on a bot's first turn only; then the opponent's last move.
        self.assertEqual(len(black[1][0]), 8)
        self.assertEqual(black[1][8], record["moves"][1]["move"])
        self.assertEqual((record["result"], record["reason"], record["plies"]), ("draw", "ply limit", R.MAX_PLIES))
        self.assertEqual([m["first_turn"] for m in record["moves"]], [True, True, False, False])

    def test_win_is_recorded(self):
        record = R.play_game({R.BLACK: ("A", self.bot("first", 0, "-", "f2c2")),
                              R.WHITE: ("B", self.bot())}, position=board(SIMULTANEOUS))
        self.assertEqual((record["result"], record["winner"], record["reason"], record["plies"]),
                         (R.BLACK, "A", "connection", 1))

    def test_win_on_the_last_ply_counts(self):
        record = R.play_game({R.BLACK: ("A", self.bot()), R.WHITE: ("B", self.bot("first", 0, "-", "f2c2"))},
                             position=swapped(board(SIMULTANEOUS)), start_ply=R.MAX_PLIES - 1)
        self.assertEqual((record["result"], record["winner"], record["reason"], record["plies"]),
                         (R.WHITE, "B", "connection", R.MAX_PLIES))

    def test_ply_limit_draw_counts_from_start_ply(self):
        record = R.play_game({R.BLACK: ("A", self.bot()), R.WHITE: ("B", self.bot())},
                             start_ply=R.MAX_PLIES - 3)
        self.assertEqual((record["result"], record["reason"], record["plies"], len(record["moves"])),
                         ("draw", "ply limit", R.MAX_PLIES, 3))

    def test_pass(self):
        lb, lw = self.log_path("pb.log"), self.log_path("pw.log")
        record = R.play_game({R.BLACK: ("A", self.bot("first", 0, lb)), R.WHITE: ("B", self.bot("first", 0, lw))},
                             position=board(BLACK_BLOCKED), start_ply=R.MAX_PLIES - 2)
        self.assertEqual(self.read_log(lb)[0][-3:], ["null", "1", "pass"])
        self.assertEqual(record["moves"][0]["move"], "pass")
        self.assertEqual(self.read_log(lw)[0][9], "pass")   # White is told Black passed
        self.assertEqual(record["offender"], None)

    def test_illegal_move_loses(self):
        record = R.play_game({R.BLACK: ("A", self.bot()), R.WHITE: ("B", self.bot("illegal", 2))})
        self.assertEqual((record["result"], record["winner"], record["reason"], record["offender"]),
                         (R.BLACK, "A", "illegal move", "B"))
        self.assertEqual(record["moves"][-1]["output"], "a1a1")
        self.assertEqual(record["plies"], 3)

    def test_comment_after_move_is_accepted(self):
        record = R.play_game({R.BLACK: ("A", self.bot("comment", 1)), R.WHITE: ("B", self.bot())},
                             start_ply=R.MAX_PLIES - 2)
        self.assertEqual(record["reason"], "ply limit")
        self.assertTrue(record["moves"][0]["output"].endswith(" hello"))

    def test_timeout_loses_and_first_turn_has_more_time(self):
        # 0.4 s is fine on a first turn (1000 ms), not on a later one (150 ms).
        record = R.play_game({R.BLACK: ("A", self.bot("sleep", 1, "-", "0.4")),
                              R.WHITE: ("B", self.bot("sleep", 2, "-", "0.4"))})
        self.assertEqual((record["result"], record["reason"], record["offender"]), (R.BLACK, "timeout", "B"))
        self.assertGreaterEqual(record["moves"][0]["ms"], 400)
        self.assertTrue(record["moves"][-1]["timeout"])
        self.assertEqual(record["plies"], 3)

    def test_slack_extends_the_limit(self):
        record = R.play_game({R.BLACK: ("A", self.bot("sleep", 2, "-", "0.3")), R.WHITE: ("B", self.bot())},
                             start_ply=R.MAX_PLIES - 4, slack_ms=400)
        self.assertEqual(record["reason"], "ply limit")
        self.assertGreaterEqual(max(m["ms"] for m in record["moves"]), 300)

    def test_first_turn_timeout(self):
        record = R.play_game({R.BLACK: ("A", self.bot("sleep", 1, "-", "0.5")), R.WHITE: ("B", self.bot())},
                             first_turn_ms=200)
        self.assertEqual((record["reason"], record["offender"], record["plies"]), ("timeout", "A", 0))

    def test_crash_loses(self):
        record = R.play_game({R.BLACK: ("A", self.bot("crash", 2)), R.WHITE: ("B", self.bot())})
        self.assertEqual((record["result"], record["reason"], record["offender"]), (R.WHITE, "crash", "A"))

    def run_cli(self, *args):
        return subprocess.run([sys.executable, os.path.join(HERE, "referee.py")] + list(args),
                              capture_output=True, text=True, timeout=120)

    def test_command_line_match(self):
        out_json = os.path.join(self.tmp.name, "match.json")
        out_pgn = os.path.join(self.tmp.name, "match.pgn")
        done = self.run_cli("--bot-a", self.bot(), "--bot-b", self.bot(), "--games", "2",
                            "--random-plies", "6", "--seed", "3", "--json", out_json, "--pgn", out_pgn)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn("game 1: A(white) vs B(black)", done.stdout)
        with open(out_json) as f:
            data = json.load(f)
        games = data["games"]
        self.assertEqual(len(games), 2)
        # Both games of the pair start from the same 6 random plies, colours swapped.
        self.assertEqual(games[0]["opening"], games[1]["opening"])
        self.assertEqual(len(games[0]["opening"]), 6)
        self.assertEqual((games[0]["black"], games[1]["black"]), ("A", "B"))
        self.assertEqual(games[0]["moves"][0]["ply"], 7)
        self.assertEqual(data["summary"]["games"], 2)
        self.assertTrue(os.path.getsize(out_pgn) > 0)

    def test_command_line_fault_exit_status(self):
        done = self.run_cli("--bot-a", self.bot(), "--bot-b", self.bot("illegal", 1), "--games", "2", "--quiet")
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        self.assertIn("B: illegal moves 2", done.stdout)
        self.assertEqual(self.run_cli("--games", "2").returncode, 2)


if __name__ == "__main__":
    unittest.main()
