"""Shrinks C++ source without changing what it means: comments and layout go, and the
project's own identifiers get short names.

The renaming is a bijection on spellings over the whole file, so a program that compiled
means the same after it, provided no renamed spelling is also spelled by something outside
the file: the standard library, the compiler (keywords, builtins, attributes, pragmas), or a
configuration macro tested by #if. Those spellings are collected from the preprocessed system
headers (with their macro definitions) and kept; everything else is ours to rename.
"""
import re

KEYWORDS = set("""
alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t
char32_t class compl concept const consteval constexpr constinit const_cast continue co_await
co_return co_yield decltype default delete do double dynamic_cast else enum explicit export
extern false float for friend goto if inline int long mutable namespace new noexcept not
not_eq nullptr operator or or_eq private protected public register reinterpret_cast requires
return short signed sizeof static static_assert static_cast struct switch template this
thread_local throw true try typedef typeid typename union unsigned using virtual void volatile
wchar_t while xor xor_eq final override main defined
nodiscard maybe_unused likely unlikely fallthrough noreturn deprecated
always_inline noinline aligned target gnu hot cold packed optimize unused flatten
""".split())

_TOKEN = re.compile(r"""
    (?P<ws>[ \t\r\f\v]+)
  | (?P<nl>\n)
  | (?P<lcomment>//[^\n]*)
  | (?P<bcomment>/\*.*?\*/)
  | (?P<raw>(?:u8|u|U|L)?R"(?P<delim>[^(\s]*)\(.*?\)(?P=delim)")
  | (?P<string>(?:u8|u|U|L)?"(?:[^"\\\n]|\\.)*")
  | (?P<char>(?:u8|u|U|L)?'(?:[^'\\\n]|\\.)+')
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<number>\.?[0-9](?:[eEpP][+-]|'[0-9A-Za-z]|[0-9A-Za-z_.])*)
  | (?P<punct>\.\.\.|<<=|>>=|->\*|<=>|::|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||\+=|-=|\*=|/=|%=|&=|\|=|\^=|\#\#|[{}\[\]()<>;:,.?~!+\-*/%^&|=\#\\])
""", re.S | re.X)


def tokenize(text):
    """Yields (kind, text); preprocessor lines come whole as ('directive', [tokens])."""
    pos, at_line_start = 0, True
    out = []
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise ValueError(f"cannot tokenize at: {text[pos:pos + 40]!r}")
        kind = m.lastgroup
        if kind == "delim":
            kind = "raw"
        tok = m.group(0)
        pos = m.end()
        if kind == "punct" and tok == "#" and at_line_start:
            # A directive runs to the end of the line, continuation lines included.
            end = pos
            while True:
                nl = text.find("\n", end)
                if nl < 0:
                    nl = len(text)
                line_part = text[end:nl]
                # A // comment ends the directive's content; a backslash continues it.
                if line_part.rstrip().endswith("\\") and "//" not in line_part:
                    end = nl + 1
                    continue
                break
            body = text[pos:nl].replace("\\\n", " ")
            words = [t for t in tokenize(body) if t[0] != "nl"]
            m = re.match(r"\s*define\s+[A-Za-z_][A-Za-z0-9_]*(\s+)\(", body)
            if m and len(words) > 2:  # an object-like macro whose body starts with '('
                words.insert(2, ("space", " "))
            out.append(("directive", words))
            pos = nl
            continue
        if kind in ("ws", "lcomment", "bcomment"):
            if kind == "bcomment" and "\n" in tok:
                at_line_start = True
            continue
        if kind == "nl":
            at_line_start = True
            continue
        at_line_start = False
        out.append((kind, tok))
    return out


def _word_char(c):
    return c.isalnum() or c == "_"


_OPERATOR_CHARS = set("+-*/%&|^<>=!:.")


def _needs_space(prev, nxt):
    a, b = prev[-1], nxt[0]
    if _word_char(a) and _word_char(b):
        return True
    # 0x1E - 1 is not the number 0x1E-1 (a pp-number takes a sign after e, E, p or P).
    if prev[0].isdigit() and a in "eEpP" and b in "+-":
        return True
    if a in _OPERATOR_CHARS and b in _OPERATOR_CHARS:
        return True
    # A literal's suffix or a string prefix would otherwise merge with a neighbouring word.
    if (a in "\"'" and _word_char(b)) or (_word_char(a) and b in "\"'"):
        return True
    return False


def join(tokens, in_directive=False):
    """Writes tokens back with the least whitespace that keeps them apart; lines end after a
    statement or brace past 200 characters (never inside a directive, which a line ends)."""
    pieces, prev, line_len = [], "", 0
    for kind, tok in tokens:
        if kind == "directive":
            body = _directive_text(tok)
            if pieces and not pieces[-1].endswith("\n"):
                pieces.append("\n")
            pieces.append("#" + body + "\n")
            prev, line_len = "", 0
            continue
        if prev and _needs_space(prev, tok):
            pieces.append(" ")
        pieces.append(tok)
        line_len += len(tok)
        prev = tok
        if not in_directive and line_len > 200 and tok in (";", "{", "}"):
            pieces.append("\n")
            prev, line_len = "", 0
    return "".join(pieces)


def _directive_text(tokens):
    # `#define NAME (x)` is an object-like macro whose body starts with a parenthesis, unlike
    # `#define NAME(x)`: the tokenizer keeps the space that tells them apart as a marker.
    if len(tokens) > 2 and tokens[0][1] == "define" and tokens[2] == ("space", " "):
        return "define " + tokens[1][1] + " " + join(tokens[3:], True)
    return join(tokens, True)


def _stringizing_macros(tokens):
    """Macros whose bodies make pragma text (_Pragma, or # on a parameter), directly or through
    another such macro: the words given to them are pragma text, not identifiers."""
    macros, found = [], set()
    for kind, tok in tokens:
        if kind == "directive" and len(tok) > 1 and tok[0][1] == "define":
            macros.append((tok[1][1], [t for _, t in tok[2:]]))
    changed = True
    while changed:
        changed = False
        for name, body in macros:
            if name not in found and ("_Pragma" in body or "#" in body or any(t in found for t in body)):
                found.add(name)
                changed = True
    return found


def _walk_idents(tokens, stringizing, in_condition=False):
    for kind, tok in tokens:
        if kind == "directive":
            name = tok[0][1] if tok else ""
            words = {t for _, t in tok}
            # Conditions test the configuration; pragma text is the compiler's.
            keep = name in ("if", "ifdef", "ifndef", "elif", "pragma", "include", "line", "error", "warning") or \
                "_Pragma" in words or bool(words & stringizing)
            yield from _walk_idents(tok[1:], stringizing, keep)  # the directive's own name is no identifier
        elif kind == "ident":
            yield tok, in_condition


def _stringized_arguments(tokens, stringizing):
    """The words given to a stringizing macro where it is used: its text, kept as written."""
    words, i = set(), 0
    while i < len(tokens):
        kind, tok = tokens[i]
        if kind == "ident" and tok in stringizing and i + 1 < len(tokens) and tokens[i + 1][1] == "(":
            depth, j = 0, i + 1
            while j < len(tokens):
                depth += {"(": 1, ")": -1}.get(tokens[j][1], 0)
                if tokens[j][0] == "ident":
                    words.add(tokens[j][1])
                if depth == 0:
                    break
                j += 1
            i = j
        i += 1
    return words


def short_names(forbidden):
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    rest = alphabet + "0123456789_"
    length = 1
    while True:
        def gen(prefix, left):
            if left == 0:
                yield prefix
                return
            for c in rest:
                yield from gen(prefix + c, left - 1)
        for first in alphabet:
            for name in gen(first, length - 1):
                if name not in forbidden and name not in KEYWORDS:
                    yield name
        length += 1


def rename(tokens, outside):
    """Gives every identifier not spelled outside the file a short name, the most frequent
    the shortest. Returns the tokens and the number of spellings renamed."""
    kept = set(KEYWORDS) | set(outside)
    counts = {}
    stringizing = _stringizing_macros(tokens)
    kept |= _stringized_arguments(tokens, stringizing)
    for name, in_condition in _walk_idents(tokens, stringizing):
        if in_condition or name.startswith("_"):
            kept.add(name)
        counts[name] = counts.get(name, 0) + 1
    ours = sorted((n for n in counts if n not in kept), key=lambda n: (-counts[n] * len(n), n))
    names = short_names(kept | set(counts))  # never a spelling the file already has
    mapping = {}
    for name in ours:
        new = next(names)
        mapping[name] = new if len(new) < len(name) else name

    def apply(toks):
        out = []
        for kind, tok in toks:
            if kind == "directive":
                if tok and tok[0][1] in ("pragma", "include"):
                    out.append((kind, tok))
                else:
                    out.append((kind, tok[:1] + apply(tok[1:])))
            elif kind == "ident":
                out.append((kind, mapping.get(tok, tok)))
            else:
                out.append((kind, tok))
        return out

    return apply(tokens), sum(1 for n, v in mapping.items() if n != v)


def identifiers_in(text):
    """Every identifier spelled in `text` (preprocessed system headers, with -dD)."""
    return set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text))
