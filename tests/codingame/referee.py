#!/usr/bin/env python3
"""Independent referee for the CodinGame "Lines of Action" arena (standard library only).

It plays matches between two bot programs over the arena's stdin/stdout protocol, and checks
that every answer is a legal move sent in time. It is written from the arena's rules alone and
shares no code with the C++ engine, so that it can serve as an oracle for it.

Source of truth: the arena's Java referee, github.com/darkhorse64/CG_LinesOfAction (newest
stored version, commit 26bc9aee), built on the CodinGame SDK 3.15.6 (pom.xml):
  src/main/java/com/codingame/game/Referee.java    turn loop, protocol, limits, win order
  src/main/java/com/codingame/game/gota/Board.java start position, move generation, connection
  src/main/java/com/codingame/game/gota/Cell.java  square names: (char)('a'+x) + (y+1)
  config/statement_en.html, config/stub.txt        the statement and the stub
and the SDK's GameManager (CodinGame/codingame-game-engine): gameTurn(turn) is called for
turn = 1..maxTurns (1-based since SDK 3.4.8), and a player's timeout is firstTurnMaxTime on
the first time that player is executed, turnMaxTime after. (An older stored version of the
referee, commit ee79094c, had 200 turns, 100 ms a turn and no "pass"; the newer one is used.)

Rules as the Java referee applies them:
  * 8x8; player 0 is Black ('b') and moves first, with pieces on b1-g1 and b8-g8; player 1 is
    White ('w') on a2-a7 and h2-h7.
  * A piece moves along its row, column or either diagonal exactly as many squares as there are
    pieces of both colours on that whole line (itself included); it may pass over its own pieces
    but not over the opponent's, and lands on an empty square or captures an opponent piece.
  * After every move (gameTurn) the mover is checked first: if its pieces form one 8-connected
    group it wins, even if the opponent is connected too; otherwise, if the opponent's are, the
    opponent wins. A single piece is connected.
  * A side with no legal move is sent one move, "pass", and must answer "pass".
  * setMaxTurns(150) and one gameTurn is one ply (a pass included), so at most 150 plies are
    played; a win on the 150th ply counts, and otherwise the game is a draw. No repetition rule.
  * An answer that is not accepted, or a timeout, loses at once (score -1 against 0).
  Perft from the start position with these rules: 36, 1244, 44952 (depth 2 is not 36*36: after
  1.b1b3, for instance, White has 34 replies; see test_referee.py).

Protocol as the Java referee sends it (per turn of the player to move):
  * On that player's first turn only (SDK turns 1 and 2): one line with its colour, "b" or "w".
  * 8 lines of the board, rank 8 first, files a-h, with 'b', 'w' and '.'.
  * The opponent's last move: "null" before any move, "pass" after a pass, else like "b1b3".
  * The number of legal moves, then the moves, one a line, as from-square + to-square ("b1b3",
    no capture mark), sorted as strings (Java's Comparator.comparing(Action::toString)).
    With no legal move it sends "1" and "pass".
  * The answer is one line. Everything from its first space on is a viewer comment and is
    dropped. The rest is accepted if it *starts with* a legal move (so "b1b3x" plays b1b3), or is
    exactly "pass" when there is no legal move; "random" plays a random legal move (or passes).
    The real arena draws that move from Java's Random; here it comes from a seeded Python RNG.
  * Limits: 1000 ms for a player's first turn, 150 ms for each later turn.

What this referee adds for testing: games come in pairs from the same start (bot A is Black in
the even game), optionally after K random plies, which count toward the 150-ply limit. The bot
that moves first after such an opening is sent the last opening move as "the opponent's last
move", which is what the arena would have sent had those plies been played; "null" is sent only
when the game really starts from the initial position. Turn time is wall time from the moment
the turn's input is handed to the kernel (the clock starts just before the write) until the
answer line is read.

Usage (see --help):
  python3 tests/codingame/referee.py --bot-a "path/to/engine ITS-ARGS" \
      --bot-b "python3 my_bot.py" --games 20 --random-plies 4 --json match.json
Tests: python3 tests/codingame/test_referee.py
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import select
import shlex
import shutil
import signal
import subprocess
import sys
import time
from typing import Dict, List, Optional, Sequence, Tuple

BLACK, WHITE, EMPTY = "b", "w", "."
FILES = "abcdefgh"
MAX_PLIES = 150            # Referee.java: gameManager.setMaxTurns(150)
FIRST_TURN_MS = 1000       # Referee.java: gameManager.setFirstTurnMaxTime(1000)
TURN_MS = 150              # Referee.java: gameManager.setTurnMaxTime(150)
PASS, NULL_MOVE, RANDOM = "pass", "null", "random"
MAX_LINE_BYTES = 1 << 20   # a bot that floods its output is treated as malformed, not buffered forever


def other(colour: str) -> str:
    return WHITE if colour == BLACK else BLACK


def square_name(sq: int) -> str:
    return FILES[sq % 8] + str(sq // 8 + 1)


def parse_square(text: str) -> int:
    if len(text) != 2 or text[0] not in FILES or text[1] not in "12345678":
        raise ValueError(f"bad square {text!r}")
    return (int(text[1]) - 1) * 8 + FILES.index(text[0])


def _build_lines() -> List[List[Tuple[Tuple[int, ...], int]]]:
    """For every square, the 4 full lines through it (row, column, both diagonals) with the
    square's index on each. Move length depends on the whole line, so the lines are precomputed
    once, from end to end, rather than walked from the piece."""
    through: List[List[Tuple[Tuple[int, ...], int]]] = []
    for sq in range(64):
        f, r = sq % 8, sq // 8
        entries = []
        for df, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            sf, sr = f, r
            while 0 <= sf - df < 8 and 0 <= sr - dr < 8:
                sf, sr = sf - df, sr - dr
            line = []
            while 0 <= sf < 8 and 0 <= sr < 8:
                line.append(sr * 8 + sf)
                sf, sr = sf + df, sr + dr
            entries.append((tuple(line), line.index(sq)))
        through.append(entries)
    return through


LINES_THROUGH = _build_lines()


class Position:
    """A board (64 cells, index = (rank-1)*8 + file) and the side to move."""

    __slots__ = ("cells", "to_move")

    def __init__(self, cells: Sequence[str], to_move: str = BLACK):
        if len(cells) != 64 or any(c not in (BLACK, WHITE, EMPTY) for c in cells):
            raise ValueError("a position needs 64 cells of 'b', 'w' or '.'")
        if to_move not in (BLACK, WHITE):
            raise ValueError("side to move must be 'b' or 'w'")
        self.cells = list(cells)
        self.to_move = to_move

    @classmethod
    def start(cls) -> "Position":
        cells = [EMPTY] * 64
        for i in range(1, 7):
            cells[0 * 8 + i] = cells[7 * 8 + i] = BLACK   # b1-g1, b8-g8
            cells[i * 8 + 0] = cells[i * 8 + 7] = WHITE   # a2-a7, h2-h7
        return cls(cells, BLACK)

    @classmethod
    def from_rows(cls, rows: Sequence[str], to_move: str = BLACK) -> "Position":
        """Rows as the protocol sends them: rank 8 first, files a-h."""
        rows = [r.strip() for r in rows if r.strip()]
        if len(rows) != 8 or any(len(r) != 8 for r in rows):
            raise ValueError("need 8 rows of 8 squares")
        cells = [EMPTY] * 64
        for i, row in enumerate(rows):
            for f, c in enumerate(row):
                cells[(7 - i) * 8 + f] = c
        return cls(cells, to_move)

    def copy(self) -> "Position":
        return Position(self.cells, self.to_move)

    def rows(self) -> List[str]:
        return ["".join(self.cells[r * 8:(r + 1) * 8]) for r in range(7, -1, -1)]

    def count(self, colour: str) -> int:
        return self.cells.count(colour)

    def legal_moves(self, colour: Optional[str] = None) -> List[str]:
        """All legal moves of `colour` (default: side to move), sorted as the arena sends them."""
        me = colour or self.to_move
        cells = self.cells
        moves = []
        for sq in range(64):
            if cells[sq] != me:
                continue
            for line, idx in LINES_THROUGH[sq]:
                n = sum(1 for s in line if cells[s] != EMPTY)
                for step in (-1, 1):
                    end = idx + step * n
                    if not 0 <= end < len(line):
                        continue
                    if cells[line[end]] == me:
                        continue
                    if any(cells[line[i]] not in (EMPTY, me) for i in range(idx + step, end, step)):
                        continue
                    moves.append(square_name(sq) + square_name(line[end]))
        moves.sort()
        return moves

    def play(self, move: str) -> None:
        """Apply a move (or "pass") of the side to move; the caller has checked legality."""
        if move != PASS:
            src, dst = parse_square(move[:2]), parse_square(move[2:4])
            self.cells[dst] = self.cells[src]
            self.cells[src] = EMPTY
        self.to_move = other(self.to_move)

    def connected(self, colour: str) -> bool:
        squares = [s for s in range(64) if self.cells[s] == colour]
        if not squares:
            return False   # cannot happen in a game: a side at one piece is connected and wins
        seen = {squares[0]}
        stack = [squares[0]]
        while stack:
            s = stack.pop()
            f, r = s % 8, s // 8
            for df in (-1, 0, 1):
                for dr in (-1, 0, 1):
                    nf, nr = f + df, r + dr
                    if 0 <= nf < 8 and 0 <= nr < 8:
                        t = nr * 8 + nf
                        if t not in seen and self.cells[t] == colour:
                            seen.add(t)
                            stack.append(t)
        return len(seen) == len(squares)

    def winner_after_move_by(self, mover: str) -> Optional[str]:
        # The mover first: a move that connects both sides wins for the mover (Referee.java).
        if self.connected(mover):
            return mover
        if self.connected(other(mover)):
            return other(mover)
        return None


def perft(pos: Position, depth: int) -> int:
    """Leaf count of the move tree; a pass counts as one move, a won position is a leaf."""
    if depth == 0:
        return 1
    moves = pos.legal_moves() or [PASS]
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        child = pos.copy()
        mover = child.to_move
        child.play(m)
        total += 1 if child.winner_after_move_by(mover) else perft(child, depth - 1)
    return total


# --------------------------------------------------------------------------------------------
# Bot processes

class Bot:
    """One bot process for one game. Reads are done with select() on the raw pipe so that the
    arrival time of the answer line is measured when the bytes arrive, not when Python gets to
    them."""

    def __init__(self, name: str, command: str, stderr_path: Optional[str] = None):
        self.name = name
        self.turns = 0
        self.buffer = b""
        self._stderr = open(stderr_path, "wb") if stderr_path else subprocess.DEVNULL
        # Its own session, so that a shell-script bot and its children can be ended together
        # by that process group's id.
        self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self._stderr,
                                     start_new_session=True)
        self.fd = self.proc.stdout.fileno()

    def send(self, lines: Sequence[str]) -> Optional[float]:
        """Write one turn's input; returns the clock time the write started, or None if the bot
        has closed its input. The clock is read *before* the write: a bot asleep in read() is
        often woken and run before the writer's write() returns, so a clock read after it can
        miss most of the bot's thinking time."""
        data = ("\n".join(lines) + "\n").encode()
        start = time.perf_counter()
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
            return start
        except (BrokenPipeError, OSError):
            return None

    def read_line(self, deadline: float) -> Tuple[str, Optional[str], float, bool]:
        """Wait for one line until `deadline` (perf_counter time).
        Returns (status, line, arrival time, was_already_buffered), status "ok", "timeout" or
        "eof". An unterminated line is not an answer (the arena waits for the newline too)."""
        buffered = b"\n" in self.buffer
        while b"\n" not in self.buffer:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                return "timeout", None, time.perf_counter(), False
            ready, _, _ = select.select([self.fd], [], [], remaining)
            if not ready:
                continue
            data = os.read(self.fd, 65536)
            arrival = time.perf_counter()
            if not data:
                return "eof", None, arrival, False
            self.buffer += data
            if len(self.buffer) > MAX_LINE_BYTES and b"\n" not in self.buffer:
                return "ok", self.buffer[:200].decode(errors="replace"), arrival, False
        else:
            arrival = time.perf_counter()
        line, _, self.buffer = self.buffer.partition(b"\n")
        # Java's line reading drops a trailing '\r' with the newline.
        return "ok", line.rstrip(b"\r").decode(errors="replace"), arrival, buffered

    def close(self) -> Optional[int]:
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()
        if self._stderr is not subprocess.DEVNULL:
            self._stderr.close()
        return self.proc.returncode


def judge_answer(raw: str, legal: Sequence[str], rng: random.Random) -> Optional[str]:
    """The move the arena would play for this answer line, or None if it would reject it.
    Mirrors Referee.gameTurn: cut at the first space (the rest is a comment), then "pass"
    (or "random") with no legal move, "random", or the first legal move the text starts with."""
    token = raw.split(" ", 1)[0]
    if not legal:
        return PASS if token in (PASS, RANDOM) else None
    if token == RANDOM:
        return rng.choice(list(legal))
    head = token[:4]
    return head if len(token) >= 4 and head in set(legal) else None


# --------------------------------------------------------------------------------------------
# Games

def play_game(commands: Dict[str, Tuple[str, str]], position: Optional[Position] = None,
              start_ply: int = 0, last_move: str = NULL_MOVE, max_plies: int = MAX_PLIES,
              first_turn_ms: float = FIRST_TURN_MS, turn_ms: float = TURN_MS,
              slack_ms: float = 0.0, stderr_paths: Optional[Dict[str, str]] = None,
              rng: Optional[random.Random] = None) -> dict:
    """Play one game. `commands` maps 'b'/'w' to (bot name, command line). `position` (default:
    the start) is played from with `start_ply` plies already counted toward `max_plies`, and
    `last_move` is what the first bot to move is told the previous move was.
    Returns the game record (result, reason, every move with its time)."""
    pos = position.copy() if position else Position.start()
    rng = rng or random.Random(0)
    stderr_paths = stderr_paths or {}
    record = {"black": commands[BLACK][0], "white": commands[WHITE][0], "start_ply": start_ply,
              "start_rows": pos.rows(), "moves": [], "warnings": [],
              "result": None, "winner": None, "reason": None, "detail": "", "offender": None}
    bots: Dict[str, Bot] = {}
    try:
        for colour in (BLACK, WHITE):
            name, command = commands[colour]
            bots[colour] = Bot(name, command, stderr_paths.get(colour))
        ply = start_ply
        # A position that is already decided never reaches the bots (openings are redrawn).
        while ply < max_plies:
            mover = pos.to_move
            bot = bots[mover]
            legal = pos.legal_moves()
            lines = [mover] if bot.turns == 0 else []
            lines += pos.rows() + [last_move]
            lines += [str(len(legal))] + legal if legal else ["1", PASS]
            first = bot.turns == 0
            limit_ms = first_turn_ms if first else turn_ms
            t0 = bot.send(lines)
            if t0 is None:
                _lose(record, mover, "crash", f"{bot.name} closed its input (exit status {bot.proc.poll()})")
                break
            status, raw, arrival, stale = bot.read_line(t0 + (limit_ms + slack_ms) / 1000.0)
            elapsed_ms = (arrival - t0) * 1000.0
            bot.turns += 1
            entry = {"ply": ply + 1, "side": mover, "bot": bot.name, "first_turn": first,
                     "ms": round(elapsed_ms, 3)}
            if status == "eof":
                _lose(record, mover, "crash", f"{bot.name} ended its output (exit status {bot.proc.poll()})")
                entry["move"] = None
                record["moves"].append(entry)
                break
            if status == "timeout" or elapsed_ms > limit_ms + slack_ms:
                _lose(record, mover, "timeout",
                      f"{bot.name} gave no answer within {limit_ms + slack_ms:g} ms")
                entry["move"] = None
                entry["timeout"] = True
                record["moves"].append(entry)
                break
            if stale:
                # The arena would take a line written ahead of time as this turn's answer too,
                # but it means the bot wrote more than one line a turn: worth knowing.
                record["warnings"].append(f"ply {ply + 1}: {bot.name} answered with a line written before its input")
            move = judge_answer(raw, legal, rng)
            entry["move"] = move
            if raw != move:
                entry["output"] = raw
            record["moves"].append(entry)
            if move is None:
                _lose(record, mover, "illegal move", f"{bot.name} answered {raw[:80]!r}")
                break
            pos.play(move)
            ply += 1
            last_move = move
            winner = pos.winner_after_move_by(mover)
            if winner:
                record.update(result=winner, winner=commands[winner][0], reason="connection")
                break
        else:
            record.update(result="draw", reason="ply limit")
        record["plies"] = ply
        record["final_rows"] = pos.rows()
    finally:
        for colour, bot in bots.items():
            code = bot.close()
            # A crash after the game is not a loss, but it is worth a note.
            if code not in (0, None, -signal.SIGKILL) and record.get("reason") != "crash":
                record["warnings"].append(f"{bot.name} exited with status {code} at the end")
    return record


def _lose(record: dict, loser: str, reason: str, detail: str) -> None:
    winner = other(loser)
    record.update(result=winner, winner=record["black" if winner == BLACK else "white"],
                  reason=reason, detail=detail,
                  offender=record["black" if loser == BLACK else "white"])


def random_opening(plies: int, seed: int, pair: int) -> Tuple[Position, List[str]]:
    """`plies` random legal plies from the start, seeded by (seed, pair); an opening that ends
    the game is drawn again, from the same generator, so the result stays reproducible."""
    rng = random.Random(f"loa-opening:{seed}:{pair}")
    for _ in range(10000):
        pos, moves = Position.start(), []
        for _ in range(plies):
            mover = pos.to_move
            move = rng.choice(pos.legal_moves() or [PASS])
            pos.play(move)
            moves.append(move)
            if pos.winner_after_move_by(mover):
                break
        else:
            return pos, moves
    raise RuntimeError(f"no {plies}-ply opening without a finished game after 10000 tries")


# --------------------------------------------------------------------------------------------
# Statistics

def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100.0 * len(ordered)) - 1)]


def time_stats(values: Sequence[float]) -> dict:
    if not values:
        return {"n": 0, "max": None, "mean": None, "p99": None}
    return {"n": len(values), "max": round(max(values), 3),
            "mean": round(sum(values) / len(values), 3), "p99": round(percentile(values, 99), 3)}


def mean_interval(samples: Sequence[float]) -> Optional[Tuple[float, float, float]]:
    """(mean, low, high) of a 95% normal-approximation interval, or None below 2 samples."""
    n = len(samples)
    if n < 2:
        return None
    mean = sum(samples) / n
    var = sum((x - mean) ** 2 for x in samples) / (n - 1)
    half = 1.959964 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def elo(score: float) -> Optional[float]:
    if not 0 < score < 1:
        return None
    return -400.0 * math.log10(1.0 / score - 1.0)


def summarise(records: Sequence[dict], name_a: str = "A", name_b: str = "B") -> dict:
    scores = []
    for r in records:
        scores.append(0.5 if r["result"] == "draw" else 1.0 if r["winner"] == name_a else 0.0)
    n = len(records)
    wins, draws = scores.count(1.0), scores.count(0.5)
    # Pentanomial: a pair plays one start with both colours, so its two games are correlated;
    # the pair (sum of 0..2 points) is the independent sample. Only complete pairs count.
    pairs = [(scores[i] + scores[i + 1]) / 2 for i in range(0, n - 1, 2)]
    trinomial, pentanomial = mean_interval(scores), mean_interval(pairs)
    summary = {
        "games": n, "wins_a": wins, "draws": draws, "losses_a": n - wins - draws,
        "score_a": (sum(scores) / n) if n else None,
        "elo_a": elo(sum(scores) / n) if n else None,
        "interval_per_game_95": list(trinomial[1:]) if trinomial else None,
        "interval_pentanomial_95": list(pentanomial[1:]) if pentanomial else None,
        "pairs": len(pairs),
        "pair_outcomes": {str(k / 2): sum(1 for p in pairs if p == k / 4) for k in range(5)},
        "by_reason": {},
        "faults": {},
        "warnings": sum(len(r["warnings"]) for r in records),
        "times_ms": {},
    }
    for r in records:
        summary["by_reason"][r["reason"]] = summary["by_reason"].get(r["reason"], 0) + 1
    for name in (name_a, name_b):
        faults = {"illegal move": 0, "timeout": 0, "crash": 0}
        for r in records:
            if r["offender"] == name:
                faults[r["reason"]] += 1
        summary["faults"][name] = faults
        first = [m["ms"] for r in records for m in r["moves"] if m["bot"] == name and m["first_turn"]]
        later = [m["ms"] for r in records for m in r["moves"] if m["bot"] == name and not m["first_turn"]]
        summary["times_ms"][name] = {"first_turn": time_stats(first), "later_turns": time_stats(later)}
    return summary


# --------------------------------------------------------------------------------------------
# Command line

def score_text(record: dict, name_a: str) -> str:
    if record["result"] == "draw":
        return "1/2-1/2"
    return "1-0" if record["winner"] == name_a else "0-1"


def game_line(index: int, record: dict, name_a: str = "A", name_b: str = "B") -> str:
    colour_of = {record["black"]: "black", record["white"]: "white"}
    how = {"connection": "by connection", "ply limit": "by the ply limit",
           "illegal move": "by illegal move", "timeout": "by timeout", "crash": "by crash"}[record["reason"]]
    def slowest(name):
        times = [m["ms"] for m in record["moves"] if m["bot"] == name]
        return f"{max(times):.0f} ms" if times else "-"
    text = (f"game {index}: {name_a}({colour_of[name_a]}) vs {name_b}({colour_of[name_b]}): "
            f"{score_text(record, name_a)} {how} in {record['plies']} plies, "
            f"max turn {name_a} {slowest(name_a)}, {name_b} {slowest(name_b)}")
    if record["detail"]:
        text += f" [{record['detail']}]"
    return text


def pgn_text(index: int, record: dict) -> str:
    result = "1/2-1/2" if record["result"] == "draw" else "1-0" if record["result"] == BLACK else "0-1"
    head = [f'[Game "{index}"]', f'[Black "{record["black"]}"]', f'[White "{record["white"]}"]',
            f'[Result "{result}"]', f'[Termination "{record["reason"]}"]',
            f'[Plies "{record["plies"]}"]']
    if record.get("opening"):
        head.append(f'[Opening "{" ".join(record["opening"])}"]')
    if record["detail"]:
        head.append(f'[Detail "{record["detail"]}"]')
    body = []
    for m in record["moves"]:
        # Black always moves on odd plies: passes are plies too.
        number = (m["ply"] + 1) // 2
        if m["side"] == BLACK:
            body.append(f"{number}.")
        elif not body:
            body.append(f"{number}...")
        body.append(f"{m['move'] or '--'} {{{m['ms']:.0f}ms}}")
    return "\n".join(head) + "\n\n" + " ".join(body + [result]) + "\n\n"


def format_times(stats: dict) -> str:
    if not stats["n"]:
        return "none"
    return f"max {stats['max']:.1f} mean {stats['mean']:.1f} p99 {stats['p99']:.1f} ms (n={stats['n']})"


def print_summary(summary: dict, name_a: str, name_b: str, out=sys.stdout) -> None:
    s = summary
    print(f"games {s['games']}: {name_a} +{s['wins_a']} ={s['draws']} -{s['losses_a']}", file=out)
    if s["games"]:
        line = f"score {name_a}: {100 * s['score_a']:.1f}%"
        if s["elo_a"] is not None:
            line += f" (elo {s['elo_a']:+.0f})"
        print(line, file=out)
    if s["interval_pentanomial_95"]:
        lo, hi = s["interval_pentanomial_95"]
        line = f"  95% interval, pentanomial on {s['pairs']} game pairs: {100 * lo:.1f}% .. {100 * hi:.1f}%"
        if elo(lo) is not None and elo(hi) is not None:
            line += f" (elo {elo(lo):+.0f} .. {elo(hi):+.0f})"
        print(line, file=out)
    if s["interval_per_game_95"]:
        lo, hi = s["interval_per_game_95"]
        print(f"  95% interval, normal on per-game scores: {100 * lo:.1f}% .. {100 * hi:.1f}%", file=out)
    print("endings: " + ", ".join(f"{k} {v}" for k, v in sorted(s["by_reason"].items())), file=out)
    for name in (name_a, name_b):
        f = s["faults"][name]
        print(f"{name}: illegal moves {f['illegal move']}, timeouts {f['timeout']}, crashes {f['crash']}", file=out)
        t = s["times_ms"][name]
        print(f"  first turns: {format_times(t['first_turn'])}", file=out)
        print(f"  later turns: {format_times(t['later_turns'])}", file=out)
    if s["warnings"]:
        print(f"warnings: {s['warnings']} (see the per-game records)", file=out)


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description="Play Lines of Action games between two bots over the CodinGame arena "
                    "protocol, enforcing the arena's rules and time limits.",
        epilog="Games come in pairs from the same start position with colours swapped; bot A is "
               "Black in the even games. Exit status: 0 if no bot made an illegal move, timed out "
               "or crashed; 1 otherwise; 2 on bad usage.")
    p.add_argument("--bot-a", required=True, metavar="CMD", help="command line of bot A (split with shlex)")
    p.add_argument("--bot-b", required=True, metavar="CMD", help="command line of bot B (split with shlex)")
    p.add_argument("--games", type=int, default=2, metavar="N", help="number of games (default 2)")
    p.add_argument("--seed", type=int, default=1, metavar="S", help="seed of the random openings (default 1)")
    p.add_argument("--random-plies", type=int, default=0, metavar="K",
                   help="start each pair after K random legal plies, counted toward the ply limit (default 0)")
    p.add_argument("--first-turn-ms", type=float, default=FIRST_TURN_MS, help="limit of a bot's first turn (default 1000)")
    p.add_argument("--turn-ms", type=float, default=TURN_MS, help="limit of each later turn (default 150)")
    p.add_argument("--time-slack-ms", type=float, default=0.0, metavar="X",
                   help="tolerance added to both limits before a timeout is declared (default 0)")
    p.add_argument("--max-plies", type=int, default=MAX_PLIES, help="draw after this many plies (arena: 150)")
    p.add_argument("--json", metavar="OUT.json", help="write the configuration, every game with its moves and times, and the summary")
    p.add_argument("--pgn", metavar="FILE", help="write a PGN-like move list of every game")
    p.add_argument("--stderr-dir", metavar="DIR", help="keep each bot's stderr as DIR/game<N>-<A|B>.stderr (default: discarded)")
    p.add_argument("--quiet", action="store_true", help="print only the summary")
    args = p.parse_args(argv)
    if args.games < 1:
        p.error("--games must be at least 1")
    if args.max_plies < 1:
        p.error("--max-plies must be at least 1")
    if not 0 <= args.random_plies < args.max_plies:
        p.error("--random-plies must be between 0 and the ply limit")
    if min(args.first_turn_ms, args.turn_ms) <= 0 or args.time_slack_ms < 0:
        p.error("time limits must be positive and the slack not negative")
    for option in ("bot_a", "bot_b"):
        words = shlex.split(getattr(args, option))
        if not words:
            p.error(f"--{option.replace('_', '-')} is empty")
        if shutil.which(words[0]) is None:
            p.error(f"--{option.replace('_', '-')}: {words[0]!r} is not an executable program")
    return args


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_args(argv)
    name_a, name_b = "A", "B"
    if args.stderr_dir:
        os.makedirs(args.stderr_dir, exist_ok=True)
    records = []
    opening = (Position.start(), [])
    for game in range(args.games):
        pair = game // 2
        if game % 2 == 0:
            opening = random_opening(args.random_plies, args.seed, pair)
        position, opening_moves = opening
        a_colour = BLACK if game % 2 == 0 else WHITE
        commands = {a_colour: (name_a, args.bot_a), other(a_colour): (name_b, args.bot_b)}
        stderr_paths = None
        if args.stderr_dir:
            stderr_paths = {a_colour: os.path.join(args.stderr_dir, f"game{game}-{name_a}.stderr"),
                            other(a_colour): os.path.join(args.stderr_dir, f"game{game}-{name_b}.stderr")}
        record = play_game(commands, position, start_ply=len(opening_moves),
                           last_move=opening_moves[-1] if opening_moves else NULL_MOVE,
                           max_plies=args.max_plies, first_turn_ms=args.first_turn_ms,
                           turn_ms=args.turn_ms, slack_ms=args.time_slack_ms,
                           stderr_paths=stderr_paths,
                           rng=random.Random(f"loa-random-answer:{args.seed}:{game}"))
        record.update(game=game, pair=pair, opening=list(opening_moves))
        records.append(record)
        if not args.quiet:
            print(game_line(game, record, name_a, name_b), flush=True)
    summary = summarise(records, name_a, name_b)
    print_summary(summary, name_a, name_b)
    faults = sum(sum(f.values()) for f in summary["faults"].values())
    if args.json:
        config = {k: v for k, v in vars(args).items() if k not in ("json", "pgn", "quiet")}
        with open(args.json, "w") as out:
            json.dump({"config": config, "summary": summary, "games": records}, out, indent=1)
    if args.pgn:
        with open(args.pgn, "w") as out:
            for record in records:
                out.write(pgn_text(record["game"], record))
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
