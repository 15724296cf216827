#!/usr/bin/env python3
"""Independent PGN checker for Lines of Action (LOA) game records.

This file is deliberately written from the PGN standard ("Portable Game
Notation Specification and Implementation Guide", Steven J. Edwards, 1994)
and NOT from the match runner's source, so that it can serve as an oracle
for the runner's output.  Sections of the standard that are implemented:

  7      tokens: strings, symbols, integers/periods, NAGs, brackets,
         brace and rest-of-line comments, "%" escape lines
  8.1    tag pair section; 8.1.1 Seven Tag Roster (presence and order)
  8.2    movetext: move number indications, moves, NAGs, comments,
         recursive annotation variations, game termination marker; as in the
         export format (8.2.2.2), a pair's second move after a comment or a
         variation carries its number "N..." (the runner writes export format)
  9.6.1  TimeControl tag formats
  9.7    SetUp and FEN tags

SAN is replaced by LOA moves: "b1-d3", "c1xa3" or "pass", optionally followed
by one of the six traditional suffix annotations (! ? !! ?? !? ?!).

Usage:
  python3 tests/support/pgn_check.py FILE.pgn [--expect-games N] [--moves] [--tags]
  python3 tests/support/pgn_check.py --selftest

Exit status: 0 when every game is valid, 1 when a problem was found (one line
per problem: "pgn_check: FILE: game K (line L): message"), 2 on usage errors.

--moves prints per game "FEN-or-standard<TAB>move move ...", --tags prints
"Name=value" lines plus a blank line per game.  When either listing is
requested the verdict lines go to stderr so that stdout holds only the
listing and can be compared verbatim.  Notes (e.g. recursive variations,
which are allowed) always go to stderr and never fail the check.
"""

import argparse
import re
import sys

STR_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
SUFFIXES = ("!", "?", "!!", "??", "!?", "?!")
MAX_TOKEN = 255  # section 7: string and symbol tokens hold at most 255 chars

# ASCII only: the standard's symbol characters are ASCII letters and digits,
# str.isalnum() would also accept accented letters.
_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyz"
                   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
# A move number indication is an integer immediately followed by periods.
# Matching it as one unit lets "1.b1-d3" split into "1." and "b1-d3".
_NUMBER_RE = re.compile(r"(\d+)(\.+)")
# Section 7: a symbol starts with a letter or digit and continues with
# letters, digits and "_+#=:-/".  Results such as "1/2-1/2" are symbols too.
_SYMBOL_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_+#=:/-]*")
# Import format lets suffix annotations end a move symbol; grab any run of
# them and validate against the six allowed ones afterwards.
_SUFFIX_RE = re.compile(r"[!?]+")
_NAG_RE = re.compile(r"\$(\d*)")
_TAG_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_MOVE_RE = re.compile(r"([a-h])([1-8])([-x])([a-h])([1-8])")
_DATE_RE = re.compile(r"(\d{4}|\?{4})\.(\d{2}|\?{2})\.(\d{2}|\?{2})")
# 8.1.1.4: "?" unknown, "-" not applicable, else period-separated ordinals.
_ROUND_RE = re.compile(r"\?|-|\d+(?:\.\d+)*")
_NUM = r"\d+(?:\.\d+)?"
# 9.6.1 field forms: moves/seconds, seconds, seconds+increment, *seconds.
_TC_FIELD_RE = re.compile(r"\d+/{n}|{n}(?:\+{n})?|\*{n}".format(n=_NUM))

_SINGLE = {"[": "LBRACK", "]": "RBRACK", "(": "LPAREN", ")": "RPAREN",
           "*": "STAR", ".": "PERIOD"}
_KIND_NAMES = {"LBRACK": "'['", "RBRACK": "']'", "LPAREN": "'('",
               "RPAREN": "')'", "STAR": "'*'", "PERIOD": "'.'",
               "STRING": "string", "NUMBER": "move number",
               "SYMBOL": "symbol", "NAG": "NAG", "COMMENT": "comment"}


# --------------------------------------------------------------------------
# Tokenizer (section 7)
# --------------------------------------------------------------------------

class Token:
    """One lexical token.  BAD tokens carry an error message in .value so
    that lexical errors are reported in the context of the game they are in."""

    __slots__ = ("kind", "text", "line", "end_line", "value", "errors")

    def __init__(self, kind, text, line, end_line=None, value=None,
                 errors=None):
        self.kind = kind
        self.text = text
        self.line = line
        self.end_line = line if end_line is None else end_line
        self.value = value
        self.errors = errors or []

    def describe(self):
        if self.kind == "BAD":
            return self.value
        return "%s %r" % (_KIND_NAMES.get(self.kind, self.kind), self.text)


def _printable(ch):
    # Strings may hold only printing characters; the standard's charset is
    # ISO 8859-1, so only C0/C1 controls and DEL count as non-printing.
    o = ord(ch)
    return not (o < 32 or 127 <= o < 160)


def _read_string(text, i, line):
    """Read a string token starting at the quote at text[i]."""
    buf, errors = [], []
    k, n = i + 1, len(text)
    while k < n:
        ch = text[k]
        if ch == '"':
            if len(buf) > MAX_TOKEN:
                errors.append("string longer than %d characters" % MAX_TOKEN)
            return Token("STRING", text[i:k + 1], line, value="".join(buf),
                         errors=errors), k + 1
        if ch == "\n":
            break
        if ch == "\\":
            nxt = text[k + 1] if k + 1 < n else ""
            if nxt in ('"', "\\") and nxt:
                buf.append(nxt)
                k += 2
                continue
            errors.append("invalid escape '\\%s' in string (only \\\" and "
                          "\\\\ are allowed)" % nxt.replace("\n", ""))
            k += 1
            continue
        if not _printable(ch):
            errors.append("non-printing character %r in string" % ch)
        buf.append(ch)
        k += 1
    return Token("BAD", text[i:k], line,
                 value="unterminated string (a string may not span lines)"), k


def tokenize(text):
    toks = []
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
            continue
        if c == "%" and (i == 0 or text[i - 1] == "\n"):
            # Escape mechanism: only a "%" in the first column, and the
            # whole line is ignored.
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if c in " \t\v\f":
            i += 1
            continue
        if c == "{":
            # Brace comments do not nest; a "{" inside is plain text.
            j = text.find("}", i + 1)
            if j < 0:
                toks.append(Token("BAD", text[i:i + 20], line,
                                  value="unterminated '{' comment"))
                break
            end_line = line + text.count("\n", i, j)
            toks.append(Token("COMMENT", text[i:j + 1], line, end_line))
            line, i = end_line, j + 1
            continue
        if c == ";":
            j = text.find("\n", i)
            j = n if j < 0 else j
            toks.append(Token("COMMENT", text[i:j], line))
            i = j
            continue
        if c == '"':
            tok, i = _read_string(text, i, line)
            toks.append(tok)
            continue
        if c in _ALNUM:
            m = _NUMBER_RE.match(text, i)
            if m:
                toks.append(Token("NUMBER", m.group(0), line,
                                  value=(int(m.group(1)), len(m.group(2)))))
                i = m.end()
                continue
            m = _SYMBOL_RE.match(text, i)
            sym, j = m.group(0), m.end()
            s = _SUFFIX_RE.match(text, j)
            suffix = s.group(0) if s else ""
            tok = Token("SYMBOL", sym + suffix, line, value=(sym, suffix))
            if len(sym) > MAX_TOKEN:
                tok.errors.append("symbol longer than %d characters"
                                  % MAX_TOKEN)
            toks.append(tok)
            i = j + len(suffix)
            continue
        if c in _SINGLE:
            toks.append(Token(_SINGLE[c], c, line))
            i += 1
            continue
        if c == "$":
            m = _NAG_RE.match(text, i)
            if not m.group(1):
                toks.append(Token("BAD", "$", line,
                                  value="'$' not followed by digits (NAG)"))
            else:
                toks.append(Token("NAG", m.group(0), line,
                                  value=int(m.group(1))))
            i = m.end()
            continue
        if c in "<>":
            toks.append(Token("BAD", c, line,
                              value="reserved token %r (section 7)" % c))
        else:
            toks.append(Token("BAD", c, line,
                              value="unexpected character %r" % c))
        i += 1
    return toks


# --------------------------------------------------------------------------
# Games (section 8)
# --------------------------------------------------------------------------

class Game:
    def __init__(self, index, line):
        self.index = index
        self.line = line          # first line of the game
        self.end_line = line      # last line consumed so far
        self.tags = []            # (name, value, line) in file order
        self.moves = []           # main-line moves, annotations stripped
        self.result = None        # termination marker, if any
        self.variations = 0

    def tag(self, name):
        for n, v, _ in self.tags:
            if n == name:
                return v
        return None

    def tag_line(self, name):
        for n, _, line in self.tags:
            if n == name:
                return line
        return self.line


def parse_loa_move(base, suffix):
    """Return (move or None, problem or None) for a movetext symbol."""
    problem = None
    if suffix and suffix not in SUFFIXES:
        problem = "invalid suffix annotation %r on %r" % (suffix, base)
    if base == "pass":
        return base, problem
    m = _MOVE_RE.fullmatch(base)
    if not m:
        return None, "not an LOA move or movetext token: %r" % (base + suffix)
    dx = ord(m.group(4)) - ord(m.group(1))
    dy = int(m.group(5)) - int(m.group(2))
    # Every LOA move runs along a rank, file or diagonal; anything else can
    # only be a writer bug, and it needs no board to detect.
    if dx == 0 and dy == 0:
        problem = problem or "move %r has the same from and to square" % base
    elif not (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
        problem = problem or ("move %r is not along a rank, file or "
                              "diagonal" % base)
    return base, problem


class Checker:
    def __init__(self, text, expect_games=None):
        # CRLF files are common on some platforms; treat them as LF so line
        # numbers and blank-line detection work the same.
        text = text.replace("\r\n", "\n")
        self.tokens = tokenize(text)
        self.blank = {no for no, ln in enumerate(text.split("\n"), 1)
                      if not ln.strip()}
        self.expect_games = expect_games
        self.games = []
        self.problems = []   # (game index or None, line, message)
        self.notes = []

    def err(self, game, line, msg):
        self.problems.append((game.index if game else None, line, msg))

    def note(self, game, line, msg):
        self.notes.append((game.index, line, msg))

    def blank_between(self, a, b):
        return any(x in self.blank for x in range(a + 1, b))

    def run(self):
        toks = self.tokens
        pos, prev = 0, None
        while pos < len(toks):
            g = Game(len(self.games) + 1, toks[pos].line)
            self.games.append(g)
            if prev is not None and not self.blank_between(prev.end_line,
                                                           toks[pos].line):
                self.err(g, toks[pos].line,
                         "games must be separated by a blank line")
            has_tags = toks[pos].kind == "LBRACK"
            if has_tags:
                pos = self.parse_tags(g, pos)
                # Export format (8.1): one blank line after the last tag pair.
                if pos < len(toks) and not self.blank_between(
                        g.end_line, toks[pos].line):
                    self.err(g, toks[pos].line, "the tag pair section must "
                             "be followed by a blank line")
            else:
                # Reported once instead of seven "missing tag" lines; most
                # often this is text left over after a termination marker.
                self.err(g, toks[pos].line, "game does not start with a tag "
                         "pair section (stray text after the previous game?)")
            pos = self.parse_movetext(g, pos)
            if has_tags:
                self.check_tags(g)
            prev = g
        if self.expect_games is not None and \
                len(self.games) != self.expect_games:
            self.err(None, None, "expected %d games, found %d"
                     % (self.expect_games, len(self.games)))
        # Tag checks run after the movetext (PlyCount needs the moves), so
        # sort to report in file order.
        self.problems.sort(key=lambda p: (p[0] is None, p[0] or 0, p[1] or 0))
        return not self.problems

    # ---- tag pair section ------------------------------------------------

    def parse_tags(self, g, pos):
        toks, n = self.tokens, len(self.tokens)
        last_line = None
        while pos < n and toks[pos].kind == "LBRACK":
            open_tok = toks[pos]
            # A blank line ends the tag section: a game with no movetext must
            # not swallow the next game's tags.
            if last_line is not None and self.blank_between(last_line,
                                                            open_tok.line):
                break
            if last_line == open_tok.line:
                self.err(g, open_tok.line,
                         "each tag pair must be on a line of its own")
            pos += 1
            j = pos
            while j < n and toks[j].kind not in ("RBRACK", "LBRACK") \
                    and toks[j].line == open_tok.line:
                j += 1
            inner = toks[pos:j]
            if j < n and toks[j].kind == "RBRACK":
                if toks[j].line != open_tok.line:
                    self.err(g, open_tok.line,
                             "tag pair must be on a single line")
                last_line = toks[j].line
                pos = j + 1
            else:
                self.err(g, open_tok.line,
                         "tag pair not closed by ']' on the same line")
                last_line = inner[-1].end_line if inner else open_tok.line
                pos = j
            g.end_line = last_line
            self.check_tag_tokens(g, open_tok.line, inner)
        return pos

    def check_tag_tokens(self, g, line, inner):
        for t in inner:
            if t.kind == "BAD":
                self.err(g, line, t.value)
        if not inner or inner[0].kind != "SYMBOL":
            self.err(g, line, "expected a tag name after '['")
            return
        name = inner[0].text
        if not _TAG_NAME_RE.fullmatch(name):
            self.err(g, line, "invalid tag name %r (letters, digits and '_', "
                     "starting with a letter)" % name)
            return
        if len(inner) < 2 or inner[1].kind != "STRING":
            if len(inner) < 2 or inner[1].kind != "BAD":
                self.err(g, line, "tag %s: expected a quoted string value"
                         % name)
            return
        for e in inner[1].errors:
            self.err(g, line, "tag %s: %s" % (name, e))
        for extra in inner[2:]:
            if extra.kind != "BAD":
                self.err(g, line, "tag %s: unexpected %s inside tag pair"
                         % (name, extra.describe()))
        g.tags.append((name, inner[1].value, line))

    def check_tags(self, g):
        first = {}
        for name, _, line in g.tags:
            if name in first:
                self.err(g, line, "duplicate tag %s (first at line %d)"
                         % (name, first[name]))
            else:
                first[name] = line
        for t in STR_TAGS:
            if t not in first:
                self.err(g, g.line, "missing Seven Tag Roster tag %s" % t)
        # The roster tags that are present must lead, in roster order.
        order = list(first)
        present = [t for t in STR_TAGS if t in first]
        if order[:len(present)] != present:
            self.err(g, g.line, "Seven Tag Roster must be the first tags in "
                     "the order %s; found %s"
                     % (", ".join(STR_TAGS), ", ".join(order[:7])))

        def val(name):
            return g.tag(name), g.tag_line(name)

        date, line = val("Date")
        if date is not None:
            m = _DATE_RE.fullmatch(date)
            bad = not m
            if m:
                mm, dd = m.group(2), m.group(3)
                bad = (mm.isdigit() and not 1 <= int(mm) <= 12) or \
                      (dd.isdigit() and not 1 <= int(dd) <= 31)
            if bad:
                self.err(g, line, "Date %r is not YYYY.MM.DD (unknown parts "
                         "as '?')" % date)
        rnd, line = val("Round")
        if rnd is not None and not _ROUND_RE.fullmatch(rnd):
            self.err(g, line, "Round %r is not '?', '-' or period-separated "
                     "numbers" % rnd)
        res, line = val("Result")
        if res is not None and res not in RESULTS:
            self.err(g, line, "Result %r is not one of %s"
                     % (res, ", ".join(RESULTS)))

        setup, line = val("SetUp")
        fen, fen_line = val("FEN")
        if setup is not None and setup not in ("0", "1"):
            self.err(g, line, "SetUp %r must be '0' or '1'" % setup)
        if setup == "1" and fen is None:
            self.err(g, line, "SetUp \"1\" requires a FEN tag")
        if fen is not None:
            if setup != "1":
                self.err(g, fen_line, "FEN tag requires SetUp \"1\"")
            if not fen.strip():
                self.err(g, fen_line, "FEN tag is empty")

        tc, line = val("TimeControl")
        if tc is not None and tc not in ("?", "-") and not all(
                _TC_FIELD_RE.fullmatch(f) for f in tc.split(":")):
            self.err(g, line, "TimeControl %r is not '?', '-' or ':'-separated "
                     "fields of moves/seconds, seconds, seconds+increment or "
                     "*seconds" % tc)

        plies, line = val("PlyCount")
        if plies is not None:
            if not plies.isdigit():
                self.err(g, line, "PlyCount %r is not an integer" % plies)
            elif int(plies) != len(g.moves):
                self.err(g, line, "PlyCount %s but the movetext has %d moves"
                         % (plies, len(g.moves)))

    # ---- movetext section ------------------------------------------------

    def expected_start(self, g):
        """(offset, reason): offset 0 means the first move is the first of a
        numbered pair ("1."), 1 means the second ("1..."); None = unknown."""
        fen = g.tag("FEN")
        if g.tag("SetUp") == "1":
            fields = (fen or "").split()
            if fields and fields[-1] == "w":
                return 1, "FEN side to move is 'w'"
            if fields and fields[-1] == "b":
                return 0, "FEN side to move is 'b'"
            return None, None
        return 0, "standard start position (Black moves first)"

    def parse_movetext(self, g, pos):
        toks = self.tokens
        depth = 0
        pending = None      # (n, periods, line, what preceded it, text)
        prev = "start"      # kind of the previous main-line element
        offset = None
        exp_offset, exp_reason = self.expected_start(g)
        while pos < len(toks):
            t = toks[pos]
            if t.kind == "LBRACK":
                break       # the next game's tag section
            pos += 1
            g.end_line = t.end_line
            for e in t.errors:
                self.err(g, t.line, e)
            if t.kind == "COMMENT":
                if depth == 0:
                    prev = "comment"
                continue
            if t.kind == "NUMBER":
                n, periods = t.value
                if periods not in (1, 3):
                    self.err(g, t.line, "move number indication %r must end "
                             "in one or three periods" % t.text)
                if depth > 0:
                    continue
                if pending is not None:
                    self.err(g, t.line, "two move number indications in a "
                             "row (%s %s)" % (pending[4], t.text))
                pending = (n, periods, t.line, prev, t.text)
                prev = "number"
                continue
            if t.kind == "NAG":
                if t.value > 255:
                    self.err(g, t.line, "NAG %s out of range $0..$255"
                             % t.text)
                if depth == 0:
                    if prev in ("start", "number"):
                        self.err(g, t.line, "NAG %s does not follow a move"
                                 % t.text)
                    prev = "nag"
                continue
            if t.kind == "LPAREN":
                if depth == 0:
                    if not g.moves:
                        self.err(g, t.line, "variation before the first move")
                    if pending is not None:
                        self.err(g, t.line, "variation between move number "
                                 "%s and its move" % pending[4])
                        pending = None
                    g.variations += 1
                    self.note(g, t.line, "recursive variation (allowed; its "
                              "moves are syntax-checked but not counted)")
                depth += 1
                continue
            if t.kind == "RPAREN":
                if depth == 0:
                    self.err(g, t.line, "')' without matching '('")
                    continue
                depth -= 1
                if depth == 0:
                    prev = "rav"
                continue
            marker = t.text if t.kind == "STAR" else \
                t.value[0] if t.kind == "SYMBOL" else None
            if marker in RESULTS:
                if t.kind == "SYMBOL" and t.value[1]:
                    self.err(g, t.line, "annotation on game termination "
                             "marker %r" % t.text)
                if depth > 0:
                    self.err(g, t.line, "game termination marker inside a "
                             "variation ('(' not closed)")
                if pending is not None:
                    self.err(g, pending[2], "move number %s not followed by "
                             "a move" % pending[4])
                g.result = marker
                res = g.tag("Result")
                if res is not None and res != marker:
                    self.err(g, t.line, "game termination marker %s does not "
                             "match Result tag %r" % (marker, res))
                return pos
            if t.kind == "SYMBOL":
                move, problem = parse_loa_move(*t.value)
                if problem:
                    self.err(g, t.line, problem)
                if move is None:
                    if depth == 0:
                        pending = None
                    continue
                if depth > 0:
                    continue
                offset = self.check_number(g, t, move, pending, offset,
                                           exp_offset, exp_reason, prev)
                g.moves.append(move)
                pending, prev = None, "move"
                continue
            self.err(g, t.line, "unexpected %s in movetext" % t.describe())
        if depth > 0:
            self.err(g, g.end_line, "variation '(' not closed")
        self.err(g, g.end_line, "missing game termination marker (1-0, 0-1, "
                 "1/2-1/2 or *) at the end of the movetext")
        return pos

    def check_number(self, g, t, move, pending, offset, exp_offset,
                     exp_reason, prev=None):
        """Check the move number (if any) in front of a main-line move and
        return the numbering offset established by the first move."""
        ply = len(g.moves)
        where = "move %d (%s)" % (ply + 1, move)
        if ply == 0:
            if pending is None:
                self.err(g, t.line, "first move %s is not preceded by a move "
                         "number (1. or 1...)" % move)
                return exp_offset or 0
            n, periods, nline, _, text = pending
            if n != 1 or periods not in (1, 3):
                self.err(g, nline, "first move number must be '1.' or "
                         "'1...', found %r" % text)
            if periods not in (1, 3):
                return exp_offset or 0
            offset = 1 if periods == 3 else 0
            if exp_offset is not None and offset != exp_offset:
                self.err(g, nline, "%s, so the first move number must be %r, "
                         "found %r" % (exp_reason,
                                       "1..." if exp_offset else "1.", text))
            return offset
        off = ply + offset
        num = off // 2 + 1
        if off % 2 == 0:
            # First move of a pair: the number is mandatory.
            if pending is None:
                self.err(g, t.line, "%s: missing move number %d." % (where, num))
            elif pending[0] != num or pending[1] != 1:
                self.err(g, pending[2], "%s: move number is %r, expected "
                         "'%d.'" % (where, pending[4], num))
        elif pending is None and prev in ("comment", "rav"):
            # Export format (8.2.2.2): after a comment or variation the second
            # move of a pair gets its number again, with three periods.
            self.err(g, t.line, "%s: a move after a comment or variation "
                     "needs its number '%d...'" % (where, num))
        elif pending is not None:
            # Second move of a pair: a number is only needed (and allowed)
            # to resume after an interruption of the move sequence.
            n, periods, nline, after, text = pending
            if after not in ("comment", "rav"):
                self.err(g, nline, "%s: move number %r before the second "
                         "move of a pair is only allowed right after a "
                         "comment or variation" % (where, text))
            elif n != num or periods != 3:
                self.err(g, nline, "%s: move number is %r, expected '%d...'"
                         % (where, text, num))
        return offset


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------

def decode(data):
    # The standard's character set is ISO 8859-1; accept UTF-8 as well since
    # that is what most writers produce today.
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def format_problem(filename, problem):
    game, line, msg = problem
    if game is None:
        return "pgn_check: %s: %s" % (filename, msg)
    return "pgn_check: %s: game %d (line %d): %s" % (filename, game, line, msg)


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="pgn_check.py",
        description="Check a Lines of Action PGN file against the PGN "
                    "standard.")
    ap.add_argument("file", nargs="?", help="PGN file to check")
    ap.add_argument("--expect-games", type=int, metavar="N",
                    help="fail unless the file holds exactly N games")
    ap.add_argument("--moves", action="store_true",
                    help="print 'FEN-or-standard<TAB>moves' per game")
    ap.add_argument("--tags", action="store_true",
                    help="print 'Name=value' lines and a blank line per game")
    ap.add_argument("--selftest", action="store_true",
                    help="run the built-in self test")
    a = ap.parse_args(argv)
    if a.selftest:
        selftest()
        return 0
    if not a.file:
        ap.error("FILE is required (or --selftest)")
    try:
        with open(a.file, "rb") as f:
            text = decode(f.read())
    except OSError as e:
        print("pgn_check: %s: cannot read: %s" % (a.file, e.strerror))
        return 1

    c = Checker(text, a.expect_games)
    ok = c.run()
    verdict = sys.stderr if (a.moves or a.tags) else sys.stdout
    if a.moves:
        for g in c.games:
            print("%s\t%s" % (g.tag("FEN") or "standard", " ".join(g.moves)))
    if a.tags:
        for g in c.games:
            for name, value, _ in g.tags:
                print("%s=%s" % (name, value))
            print()
    for game, line, msg in c.notes:
        print("pgn_check: %s: game %d (line %d): note: %s"
              % (a.file, game, line, msg), file=sys.stderr)
    if not ok:
        for p in c.problems:
            print(format_problem(a.file, p), file=verdict)
        return 1
    print("pgn_check: %d games, %d moves, all valid"
          % (len(c.games), sum(len(g.moves) for g in c.games)), file=verdict)
    return 0


# --------------------------------------------------------------------------
# Self test
# --------------------------------------------------------------------------

def _pgn(movetext, result="1-0", extra=(), drop=(), order=None):
    """Build one game; 'drop' removes roster tags, 'order' permutes them."""
    roster = [("Event", "Self test"), ("Site", "?"), ("Date", "2026.11.28"),
              ("Round", "1"), ("White", "Alpha"), ("Black", "Beta"),
              ("Result", result)]
    if order:
        roster = [roster[i] for i in order]
    tags = [t for t in roster if t[0] not in drop] + list(extra)
    return "".join('[%s "%s"]\n' % t for t in tags) + "\n" + movetext + "\n"


def selftest():
    def check(cond, msg):
        # Explicit raise: "assert" disappears under python -O.
        if not cond:
            raise AssertionError(msg)

    fen_w = ("SetUp", "1"), ("FEN", "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/"
                                    "1bbbbbb1 w")
    fen_b = ("SetUp", "1"), ("FEN", "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/"
                                    "1bbbbbb1 b")
    base_moves = ("1. b1-b3 {opening} 1... c1xa3 $1 2. d8-d6! ; to end of line\n"
                  "% escape line, ignored\n"
                  "2... f1-f3 {a\nmulti-line comment} 1-0")
    base = _pgn(base_moves, extra=[("TimeControl", "5+0.05"),
                                   ("PlyCount", "4")])
    two = _pgn("1. b1-b3 *", "*") + "\n" + _pgn("1.b1-b3 a2-c2?! 2. pass 0-1",
                                                "0-1")

    # (name, text, expect_games, should_pass, substring of a problem)
    cases = [
        ("valid standard game", base, 1, True, None),
        ("valid SetUp/FEN w with 1...",
         _pgn("1... a2-c2 2. b1-b3 a3-c3 0-1", "0-1", fen_w), None, True,
         None),
        ("valid SetUp/FEN b with 1.",
         _pgn("1. b1-b3 a2-c2 *", "*", fen_b), None, True, None),
        ("export format: N... needed after a comment",
         _pgn("1. b1-b3 {think} a2-c2 *", "*"), None, False,
         "needs its number '1...'"),
        ("valid N... after comment",
         _pgn("1. b1-b3 {think} 1... a2-c2 2. c1-c3 *", "*"), None, True,
         None),
        ("valid variation",
         _pgn("1. b1-b3 (1. c1-c3 a2-c2) 1... a2-c2 *", "*"), None, True,
         None),
        ("valid escapes and TimeControl forms",
         _pgn("*", "*", [("Annotator", 'A \\"quoted\\" \\\\ name'),
                         ("TimeControl", "40/7200:3600:*180:300+2.5")]),
         None, True, None),
        ("valid two games", two, 2, True, None),
        ("valid empty file", "", None, True, None),
        ("wrong game count", two, 3, False, "expected 3 games, found 2"),
        ("empty file but games expected", "", 1, False,
         "expected 1 games, found 0"),
        ("wrong result token", base.replace("} 1-0", "} 0-1"), None, False,
         "does not match Result tag"),
        ("missing roster tag", _pgn("*", "*", drop=("Site",)), None, False,
         "missing Seven Tag Roster tag Site"),
        ("roster out of order",
         _pgn("*", "*", order=(1, 0, 2, 3, 4, 5, 6)), None, False,
         "Seven Tag Roster must be the first tags"),
        ("extra tag before roster",
         "[Annotator \"x\"]\n" + _pgn("*", "*"), None, False,
         "Seven Tag Roster must be the first tags"),
        ("bad TimeControl", _pgn("*", "*", [("TimeControl", "5+")]), None,
         False, "TimeControl"),
        ("PlyCount mismatch",
         base.replace('PlyCount "4"', 'PlyCount "3"'), None, False,
         "PlyCount 3 but the movetext has 4 moves"),
        ("number missing", _pgn("1. b1-b3 a2-c2 c1-c3 *", "*"), None, False,
         "missing move number 2."),
        ("wrong number", _pgn("1. b1-b3 a2-c2 3. c1-c3 *", "*"), None, False,
         "expected '2.'"),
        ("first number missing", _pgn("b1-b3 *", "*"), None, False,
         "not preceded by a move number"),
        ("N... without comment", _pgn("1. b1-b3 1... a2-c2 *", "*"), None,
         False, "only allowed right after a comment"),
        ("FEN w numbered 1.", _pgn("1. a2-c2 *", "*", fen_w), None, False,
         "must be '1...'"),
        ("standard start numbered 1...", _pgn("1... b1-b3 *", "*"), None,
         False, "must be '1.'"),
        ("FEN without SetUp", _pgn("*", "*", [fen_w[1]]), None, False,
         "FEN tag requires SetUp"),
        ("SetUp without FEN", _pgn("*", "*", [fen_w[0]]), None, False,
         "requires a FEN tag"),
        ("bad date", _pgn("*", "*").replace("2026.11.28", "2026-11-28"),
         None, False, "Date"),
        ("bad result tag", _pgn("*", "2-0").replace("\n*\n", "\n2-0\n"),
         None, False, "Result '2-0'"),
        ("not an LOA move", _pgn("1. b1-i3 *", "*"), None, False,
         "not an LOA move"),
        ("move off line", _pgn("1. b1-c4 *", "*"), None, False,
         "not along a rank"),
        ("bad NAG", _pgn("1. b1-b3 $300 *", "*"), None, False,
         "out of range"),
        ("unterminated comment", _pgn("1. b1-b3 {oops *", "*"), None, False,
         "unterminated '{' comment"),
        ("invalid escape", _pgn("*", "*", [("Annotator", "a\\nb")]), None,
         False, "invalid escape"),
        ("duplicate tag", _pgn("*", "*", [("Mode", "x"), ("Mode", "y")]),
         None, False, "duplicate tag Mode"),
        ("missing termination", _pgn("1. b1-b3", "*"), None, False,
         "missing game termination marker"),
        ("no blank line between games",
         _pgn("1. b1-b3 *", "*").rstrip("\n") + "\n" + _pgn("*", "*"), None,
         False, "separated by a blank line"),
        ("stray text after result", _pgn("1. b1-b3 * 1-0", "*"), None,
         False, "does not start with a tag pair section"),
    ]
    for name, text, expect, should_pass, want in cases:
        c = Checker(text, expect)
        ok = c.run()
        msgs = [m for _, _, m in c.problems]
        if should_pass:
            check(ok, "%s: unexpected problems %s" % (name, msgs))
        else:
            check(not ok, "%s: expected a problem, got none" % name)
            check(any(want in m for m in msgs),
                  "%s: no problem mentions %r; got %s" % (name, want, msgs))

    # The readers' view of the data, as used by --moves / --tags.
    c = Checker(base)
    c.run()
    check(c.games[0].moves == ["b1-b3", "c1xa3", "d8-d6", "f1-f3"],
          "moves of base game: %s" % c.games[0].moves)
    c = Checker(_pgn("*", "*", [("Annotator", 'A \\"q\\" \\\\')]))
    c.run()
    check(c.games[0].tag("Annotator") == 'A "q" \\', "string unescaping")
    c = Checker(_pgn("1. b1-b3 (1. c1-c3) 1... a2-c2 *", "*"))
    c.run()
    check(len(c.notes) == 1 and c.games[0].moves == ["b1-b3", "a2-c2"],
          "variation is noted and not counted")
    print("selftest ok")


if __name__ == "__main__":
    sys.exit(main())
