#!/usr/bin/env python3
"""Independent checker for the statistics in a Lines of Action match result JSON.

Written from the formulas in its specification alone (not from the C++ code of
the match runner), using the Python 3 standard library only.  Everything is
recomputed from the `games` list (never from the pairings' own counts) and
compared with the numbers stored in the JSON file.

Usage:
    stats_check.py RESULT.json      check a result file; prints a table
                                    "quantity  json  recomputed  ok/MISMATCH"
    stats_check.py --selftest       run the built-in checks of the formulas

Exit status: 0 all checked quantities agree, 1 at least one MISMATCH (or a
self-test failure), 2 unreadable input / usage error.

Tolerances: counts exact; probabilities (score, LOS, draw ratio) absolute
1e-6 or relative 1e-6; Elo values (elo, interval ends, nElo and its error,
ratings and rating errors) 0.05 Elo.

Formulas (per pairing, from the `first` engine's side):
  1. W/D/L and score = (W + D/2) / N over all its games.
  2. Pentanomial: the first engine's points in every pair whose two games are
     both present (0, .5, 1, 1.5, 2) counted into 5 bins; lone games of a
     pair are not counted.
  3. elo(s) = -400 log10(1/s - 1), s clamped into [1e-6, 1 - 1e-6].
  4. Pair scores x_i = 0, .25, .5, .75, 1; f_i = c_i / P; mean m; variance
     v = sum f_i (x_i - m)^2; if v == 0, the variance of the smoothed
     frequencies f'_i = (f_i P + 1/5) / (P + 1) (the sample with one more
     pair spread evenly over the outcomes) around their own mean.
     Interval elo(m -/+ z sqrt(v/P)), z = 1.959963984540054; elo = elo(m).
  5. nElo: fishtest's pentanomial formula (zero counts -> 1e-3).
  6. LOS = Phi((m - 0.5) / sqrt(v / P)) with m, v of item 4; 0.5 if m == 0.5.
  7. draw ratio = D / N.
  8. Bradley-Terry (logistic Elo) ratings, engines[0] anchored at 0, player
     totals clamped into [0.5, games - 0.5] for the fit; error bars from the
     Fisher information with pair-structure weights
     w_ij = (p_ij (1 - p_ij))^2 P_ij / v_ij.
"""

import argparse
import json
import math
import sys

Z95 = 1.959963984540054
NAT_TO_ELO = 400.0 / math.log(10.0)          # Elo per natural-log unit of strength
NELO_C = 800.0 / math.log(10.0) / math.sqrt(2.0)
SCORE_CLAMP = 1e-6
RESULT_POINTS_WHITE = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}

# Keys of a pairing that this checker knows; others are shown for information.
KNOWN_PAIRING_KEYS = {"first", "second", "wins", "draws", "losses", "score",
                      "pentanomial", "elo", "elo_low", "elo_high", "nelo",
                      "nelo_error", "los", "draw_ratio"}


# --------------------------------------------------------------------------
# Basic formulas
# --------------------------------------------------------------------------

def elo_from_score(s):
    """Item 3: logistic Elo of a score, score clamped into [1e-6, 1-1e-6]."""
    s = min(max(s, SCORE_CLAMP), 1.0 - SCORE_CLAMP)
    return -400.0 * math.log10(1.0 / s - 1.0)


def phi(z):
    """Standard normal CDF.  0.5*erfc(-z/sqrt2) is the same function as
    0.5*(1+erf(z/sqrt2)), only without cancellation in the far left tail."""
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


def penta_moments(counts):
    """Item 4: (P, m, v, smoothed) of a pentanomial, or None when P == 0."""
    if len(counts) != 5:
        raise ValueError("pentanomial must have 5 bins")
    P = sum(counts)
    if P <= 0:
        return None
    # i*c_i are integers, so m is a single correctly rounded division.
    m = sum(i * c for i, c in enumerate(counts)) / (4.0 * P)
    f = [c / P for c in counts]
    v = sum(fi * (i / 4.0 - m) ** 2 for i, fi in enumerate(f))
    smoothed = False
    if v == 0.0:
        fs = [(fi * P + 0.2) / (P + 1.0) for fi in f]
        ms = sum(fi * i / 4.0 for i, fi in enumerate(fs))
        v = sum(fi * (i / 4.0 - ms) ** 2 for i, fi in enumerate(fs))
        smoothed = True
    return P, m, v, smoothed


def penta_elo_interval(counts):
    """Item 4: (elo, elo_low, elo_high) or None when there are no pairs."""
    mom = penta_moments(counts)
    if mom is None:
        return None
    P, m, v, _ = mom
    half = Z95 * math.sqrt(v / P)
    return elo_from_score(m), elo_from_score(m - half), elo_from_score(m + half)


def nelo_pentanomial(counts):
    """Item 5: fishtest's normalized Elo of a pentanomial: (nelo, error)."""
    reg = [c if c != 0 else 1e-3 for c in counts]
    N = float(sum(reg))
    pdf = [(i / 4.0, c / N) for i, c in enumerate(reg)]
    a = sum(p * x for x, p in pdf)
    v = sum(p * (x - a) ** 2 for x, p in pdf)
    sk = sum(p * (x - a) ** 3 for x, p in pdf) / v ** 1.5
    ek = sum(p * (x - a) ** 4 for x, p in pdf) / v ** 2 - 3.0
    t = (a - 0.5) / math.sqrt(v)
    var_t = max(1.0 - t * sk + 0.25 * t ** 2 * (ek + 2.0), 0.0)
    return NELO_C * t, NELO_C * Z95 * math.sqrt(var_t / N)


def los_pentanomial(counts):
    """Item 6: likelihood of superiority from the pair scores, or None."""
    mom = penta_moments(counts)
    if mom is None:
        return None
    P, m, v, _ = mom
    if m == 0.5:
        return 0.5
    return phi((m - 0.5) / math.sqrt(v / P))


def los_wl_formula(w, l):
    """For information only: the classic game-based LOS 0.5(1+erf((W-L)/sqrt(2(W+L))))."""
    if w + l == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((w - l) / math.sqrt(2.0 * (w + l))))


# --------------------------------------------------------------------------
# Linear algebra (small dense matrices)
# --------------------------------------------------------------------------

def solve(a, b):
    """Solve a x = b by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [list(row) + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[piv][col]) < 1e-300:
            raise ZeroDivisionError("singular matrix")
        m[col], m[piv] = m[piv], m[col]
        for r in range(col + 1, n):
            fct = m[r][col] / m[col][col]
            if fct != 0.0:
                for c in range(col, n + 1):
                    m[r][c] -= fct * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def invert(a):
    """Inverse by Gauss-Jordan with partial pivoting; raises if singular."""
    n = len(a)
    scale = max([abs(x) for row in a for x in row] + [0.0])
    if scale == 0.0:
        raise ZeroDivisionError("singular matrix")
    m = [list(row) + [1.0 if i == j else 0.0 for j in range(n)]
         for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[piv][col]) <= 1e-13 * scale:
            raise ZeroDivisionError("singular matrix")
        m[col], m[piv] = m[piv], m[col]
        p = m[col][col]
        m[col] = [x / p for x in m[col]]
        for r in range(n):
            if r != col and m[r][col] != 0.0:
                fct = m[r][col]
                m[r] = [x - fct * y for x, y in zip(m[r], m[col])]
    return [row[n:] for row in m]


# --------------------------------------------------------------------------
# Games -> per-pairing statistics
# --------------------------------------------------------------------------

class GameSet:
    """The finished games, grouped by engine pair and by opening pair."""

    def __init__(self, games, warn):
        self.games = []            # (game, pair, white, black, white_points)
        for g in games:
            res = g.get("result")
            if res not in RESULT_POINTS_WHITE:
                warn("game %s: result %r is not a finished result; not counted"
                     % (g.get("game"), res))
                continue
            if g.get("white") == g.get("black"):
                warn("game %s: engine plays itself; not counted" % g.get("game"))
                continue
            self.games.append((g.get("game"), g.get("pair"), g["white"],
                               g["black"], RESULT_POINTS_WHITE[res]))
        nums = [g[0] for g in self.games]
        if len(set(nums)) != len(nums):
            warn("duplicate game numbers in `games`")
        # Opening pairs: key (frozenset of the two engines, pair number).
        self.pairs = {}
        for rec in self.games:
            key = (frozenset((rec[2], rec[3])), rec[1])
            self.pairs.setdefault(key, []).append(rec)
        self.bad_pairs = []
        for key, recs in sorted(self.pairs.items(), key=lambda kv: str(kv[0][1])):
            if len(recs) > 2:
                self.bad_pairs.append("pair %s of %s has %d games"
                                      % (key[1], "/".join(sorted(key[0])), len(recs)))
            elif len(recs) == 2 and recs[0][2] == recs[1][2]:
                self.bad_pairs.append("pair %s of %s: both games have %s as White"
                                      % (key[1], "/".join(sorted(key[0])), recs[0][2]))

    @staticmethod
    def points_of(rec, engine):
        return rec[4] if rec[2] == engine else 1.0 - rec[4]

    def pairing_games(self, first, second):
        return [r for r in self.games if {r[2], r[3]} == {first, second}]

    def pentanomial(self, first, second, recs=None):
        """Item 2 over whole pairs (optionally restricted to the records recs)."""
        allowed = None if recs is None else set(id(r) for r in recs)
        counts = [0, 0, 0, 0, 0]
        for (engines, _), prs in self.pairs.items():
            if engines != frozenset((first, second)) or len(prs) != 2:
                continue
            if allowed is not None and not all(id(r) in allowed for r in prs):
                continue
            pts = sum(self.points_of(r, first) for r in prs)
            counts[int(round(pts * 2))] += 1
        return counts

    def pairing_stats(self, first, second):
        recs = self.pairing_games(first, second)
        w = sum(1 for r in recs if self.points_of(r, first) == 1.0)
        d = sum(1 for r in recs if self.points_of(r, first) == 0.5)
        l = sum(1 for r in recs if self.points_of(r, first) == 0.0)
        n = len(recs)
        penta = self.pentanomial(first, second)
        st = {"wins": w, "draws": d, "losses": l, "games": n,
              "score": (w + 0.5 * d) / n if n else None,
              "draw_ratio": d / n if n else None,
              "pentanomial": penta}
        iv = penta_elo_interval(penta)
        st["elo"], st["elo_low"], st["elo_high"] = iv if iv else (None, None, None)
        st["nelo"], st["nelo_error"] = nelo_pentanomial(penta)
        st["los"] = los_pentanomial(penta)
        st["moments"] = penta_moments(penta)
        return st


# --------------------------------------------------------------------------
# Bradley-Terry ratings
# --------------------------------------------------------------------------

def _logaddexp(a, b):
    hi = max(a, b)
    return hi + math.log1p(math.exp(-abs(a - b)))


def _p_win(ti, tj):
    """P(i beats j) = 1 / (1 + exp(tj - ti)), computed without overflow."""
    d = ti - tj
    if d >= 0:
        return 1.0 / (1.0 + math.exp(-d))
    e = math.exp(d)
    return e / (1.0 + e)


def bt_fit(free, anchor, n, W, max_iter=500):
    """Maximise sum_i W_i t_i - sum_{i<j} n_ij log(e^t_i + e^t_j) over the free
    t_i (natural units), t_anchor = 0, by damped Newton.
    n: dict {(i, j): games} with i < j (names sorted); W: dict of totals.
    Returns (theta dict, converged flag)."""
    theta = {e: 0.0 for e in free}
    theta[anchor] = 0.0
    idx = {e: k for k, e in enumerate(free)}
    players = list(free) + [anchor]

    def loglik(th):
        s = sum(W[e] * th[e] for e in players)
        for (i, j), nij in n.items():
            if i in th and j in th:
                s -= nij * _logaddexp(th[i], th[j])
        return s

    if not free:
        return theta, True
    converged = False
    cur = loglik(theta)
    for _ in range(max_iter):
        k = len(free)
        g = [W[e] for e in free]
        H = [[0.0] * k for _ in range(k)]        # minus the Hessian
        for (i, j), nij in n.items():
            if i not in theta or j not in theta:
                continue
            p = _p_win(theta[i], theta[j])
            q = nij * p * (1.0 - p)
            if i in idx:
                g[idx[i]] -= nij * p
                H[idx[i]][idx[i]] += q
            if j in idx:
                g[idx[j]] -= nij * (1.0 - p)
                H[idx[j]][idx[j]] += q
            if i in idx and j in idx:
                H[idx[i]][idx[j]] -= q
                H[idx[j]][idx[i]] -= q
        try:
            step = solve(H, g)
        except ZeroDivisionError:
            break
        t = 1.0
        for _ in range(80):
            trial = dict(theta)
            for e in free:
                trial[e] += t * step[idx[e]]
            new = loglik(trial)
            if new >= cur - 1e-12 * max(1.0, abs(cur)):
                break
            t *= 0.5
        theta, cur = trial, new
        if max(abs(t * s) for s in step) < 1e-13:
            converged = True
            break
    return theta, converged


def compute_ratings(names, gs, warn):
    """Item 8.  Returns dict name -> {elo, error, points, games, ...} and notes."""
    anchor = names[0]
    pts = {e: 0.0 for e in names}
    cnt = {e: 0 for e in names}
    n = {}
    for r in gs.games:
        w, b = r[2], r[3]
        for e in (w, b):
            if e not in pts:
                warn("engine %r plays in `games` but is not in `engines`" % e)
                pts[e] = 0.0
                cnt[e] = 0
        pts[w] += r[4]
        pts[b] += 1.0 - r[4]
        cnt[w] += 1
        cnt[b] += 1
        key = tuple(sorted((w, b)))
        n[key] = n.get(key, 0) + 1
    # Engines connected to the anchor through games.
    comp = {anchor}
    changed = True
    while changed:
        changed = False
        for (i, j) in n:
            if (i in comp) != (j in comp):
                comp.update((i, j))
                changed = True
    free = [e for e in names if e in comp and e != anchor]
    for e in pts:
        if e not in comp and cnt[e] > 0:
            warn("engine %r is not connected to the anchor %r by games; no rating"
                 % (e, anchor))
    nc = {k: v for k, v in n.items() if k[0] in comp and k[1] in comp}
    W = {e: min(max(pts[e], 0.5), cnt[e] - 0.5) for e in comp}
    clamped = [e for e in comp if W[e] != pts[e]]

    # Pair structure per unordered pairing: P_ij and v_ij (item 4).
    pair_info = {}
    for key in nc:
        mom = penta_moments(gs.pentanomial(key[0], key[1]))
        if mom is not None:
            pair_info[key] = mom

    def errors(theta, weight):
        idx = {e: k for k, e in enumerate(free)}
        k = len(free)
        I = [[0.0] * k for _ in range(k)]
        for key, nij in nc.items():
            i, j = key
            p = _p_win(theta[i], theta[j])
            w = weight(key, nij, p)
            if w == 0.0:
                continue
            if i in idx:
                I[idx[i]][idx[i]] += w
            if j in idx:
                I[idx[j]][idx[j]] += w
            if i in idx and j in idx:
                I[idx[i]][idx[j]] -= w
                I[idx[j]][idx[i]] -= w
        err = {anchor: 0.0}
        if k:
            try:
                inv = invert(I)
                for e in free:
                    d = inv[idx[e]][idx[e]]
                    err[e] = Z95 * NAT_TO_ELO * math.sqrt(d) if d >= 0 else None
            except ZeroDivisionError:
                for e in free:
                    err[e] = None
        return err

    def w_pairs(key, nij, p):
        if key not in pair_info:
            return 0.0
        P, _, v, _ = pair_info[key]
        return (p * (1.0 - p)) ** 2 * P / v

    def w_games(key, nij, p):
        return nij * p * (1.0 - p)

    variants = {}
    theta, ok = bt_fit(free, anchor, nc, W)
    if not ok:
        warn("rating fit (anchored Newton) did not converge")
    variants["anchored"] = (theta, errors(theta, w_pairs), errors(theta, w_games))
    if clamped:
        # With clamped totals sum(W) != games, and "maximise with the anchor
        # fixed" (above) differs from the Hunter MM iteration renormalised to
        # the anchor, whose fixed point matches the totals rescaled to the
        # number of games.  Both are valid readings of the specification.
        ngames = sum(nc.values())
        sw = sum(W[e] for e in comp)
        W2 = {e: W[e] * ngames / sw for e in comp}
        theta2, ok2 = bt_fit(free, anchor, nc, W2)
        if not ok2:
            warn("rating fit (MM-equivalent variant) did not converge")
        variants["mm"] = (theta2, errors(theta2, w_pairs), errors(theta2, w_games))

    out = {}
    for e in names:
        rec = {"points": pts.get(e, 0.0), "games": cnt.get(e, 0), "variants": {}}
        if e in comp:
            for vname, (th, err, err_g) in variants.items():
                rec["variants"][vname] = {"elo": th[e] * NAT_TO_ELO,
                                          "error": err.get(e),
                                          "error_games": err_g.get(e)}
        out[e] = rec
    return out, clamped


# --------------------------------------------------------------------------
# Comparison and report
# --------------------------------------------------------------------------

def _fmt(x):
    if x is None:
        return "n/a"
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int):
        return str(x)
    if isinstance(x, float):
        if math.isinf(x) or math.isnan(x):
            return str(x)
        return "%.10g" % x
    return json.dumps(x, separators=(",", ":"))


def close(kind, a, b):
    """Tolerance test; a is the JSON value, b the recomputed one."""
    if a is None or b is None:
        return a is None and b is None
    if kind == "exact":
        return a == b
    try:
        a = float(a)
        b = float(b)
    except (TypeError, ValueError):
        return False
    if math.isnan(a) or math.isnan(b):
        return False
    if math.isinf(a) or math.isinf(b):
        return a == b
    d = abs(a - b)
    if kind == "prob":
        return d <= 1e-6 or d <= 1e-6 * max(abs(a), abs(b))
    if kind == "elo":
        return d <= 0.05
    raise ValueError(kind)


class Report:
    def __init__(self, out=sys.stdout):
        self.rows = []
        self.mismatches = 0
        self.out = out

    def check(self, name, kind, js, rc, alt=None):
        """alt: optional list of (label, value) also acceptable."""
        ok = close(kind, js, rc)
        note = ""
        if not ok and alt:
            for label, val in alt:
                if close(kind, js, val):
                    ok = True
                    note = "  (matches %s)" % label
                    break
        if not ok:
            self.mismatches += 1
        self.rows.append((name, _fmt(js), _fmt(rc), ("ok" if ok else "MISMATCH") + note))

    def info(self, name, js, rc, note="info"):
        self.rows.append((name, _fmt(js), _fmt(rc), note))

    def text(self, line):
        self.rows.append(line)

    def print(self):
        w = [len("quantity"), len("json"), len("recomputed")]
        for r in self.rows:
            if isinstance(r, tuple):
                for k in range(3):
                    w[k] = max(w[k], len(r[k]))
        head = "%-*s  %*s  %*s  %s" % (w[0], "quantity", w[1], "json", w[2],
                                       "recomputed", "ok/MISMATCH")
        print(head, file=self.out)
        print("-" * len(head), file=self.out)
        for r in self.rows:
            if isinstance(r, tuple):
                print("%-*s  %*s  %*s  %s" % (w[0], r[0], w[1], r[1], w[2], r[2], r[3]),
                      file=self.out)
            else:
                print(r, file=self.out)


def check_document(doc, rep, warn):
    names = [e["name"] for e in doc.get("engines", [])]
    if not names:
        raise ValueError("no engines in the file")
    gs = GameSet(doc.get("games", []), warn)
    for msg in gs.bad_pairs:
        warn(msg)
    rep.check("pair structure problems", "exact", 0, len(gs.bad_pairs))

    # Optional counting order.
    if "counting_order" in doc:
        co = doc["counting_order"]
        nums = [r[0] for r in gs.games]
        all_nums = set(g.get("game") for g in doc.get("games", []))
        unknown = [x for x in co if x not in all_nums]
        dups = len(co) - len(set(co))
        missing = [x for x in nums if x not in set(co)]
        rep.text("counting_order: %d entries, %d duplicates, %d unknown game numbers, "
                 "%d finished games not in it" % (len(co), dups, len(unknown), len(missing)))
        rep.check("counting_order duplicates+unknown", "exact", 0, dups + len(unknown))

    for k in ("stopped_by_sprt", "scheduled_games", "played_games"):
        if k in doc:
            rep.text("%s: %s" % (k, _fmt(doc[k])))
    if isinstance(doc.get("settings"), dict) and doc["settings"].get("sprt"):
        rep.text("settings.sprt: %s" % _fmt(doc["settings"]["sprt"]))

    # Pairings.
    seen = set()
    for pr in doc.get("pairings", []):
        a, b = pr.get("first"), pr.get("second")
        tag = "%s-%s" % (a, b)
        seen.add(frozenset((a, b)))
        st = gs.pairing_stats(a, b)
        rep.text("")
        rep.text("pairing %s (%d games, %d whole pairs)"
                 % (tag, st["games"], sum(st["pentanomial"])))
        for k in ("wins", "draws", "losses"):
            rep.check("%s %s" % (tag, k), "exact", pr.get(k), st[k])
        rep.check(tag + " score", "prob", pr.get("score"), st["score"])
        js_p = pr.get("pentanomial")
        rep.check(tag + " pentanomial", "exact",
                  list(js_p) if isinstance(js_p, list) else js_p, st["pentanomial"])
        for k in ("elo", "elo_low", "elo_high", "nelo", "nelo_error"):
            rep.check("%s %s" % (tag, k), "elo", pr.get(k), st[k])
        rep.check(tag + " los", "prob", pr.get("los"), st["los"])
        rep.info(tag + " los (W/L formula, for info)", pr.get("los"),
                 los_wl_formula(st["wins"], st["losses"]))
        rep.check(tag + " draw_ratio", "prob", pr.get("draw_ratio"), st["draw_ratio"])
        if st["moments"] and st["moments"][3]:
            rep.text("  (pentanomial variance was 0: smoothed variance used)")
        extra = {k: v for k, v in pr.items() if k not in KNOWN_PAIRING_KEYS}
        for k in sorted(extra):
            rep.text("  %s %s = %s" % (tag, k, _fmt(extra[k])))
        # If an SPRT decision point and a counting order are given, show the
        # counts at that point (information only, not checked).
        dg = pr.get("decision_games")
        if isinstance(dg, int) and isinstance(doc.get("counting_order"), list):
            order = {num: k for k, num in enumerate(doc["counting_order"])}
            recs = [r for r in gs.pairing_games(a, b) if r[0] in order]
            recs.sort(key=lambda r: order[r[0]])
            pre = recs[:dg]
            w = sum(1 for r in pre if gs.points_of(r, a) == 1.0)
            d = sum(1 for r in pre if gs.points_of(r, a) == 0.5)
            rep.text("  info: first %d games of %s in counting_order: W/D/L %d/%d/%d, "
                     "pentanomial %s" % (len(pre), tag, w, d, len(pre) - w - d,
                                         gs.pentanomial(a, b, pre)))

    # Engine pairs that played but have no pairing entry.
    played = set(frozenset((r[2], r[3])) for r in gs.games)
    for pair in sorted(played - seen, key=lambda s: sorted(s)):
        warn("engines %s played games but have no `pairings` entry" % "/".join(sorted(pair)))

    # Ratings.
    ratings, clamped = compute_ratings(names, gs, warn)
    rep.text("")
    rep.text("ratings (anchor %s = 0)%s" % (names[0], "; clamped totals for: " +
                                             ", ".join(clamped) if clamped else ""))
    for r in doc.get("ratings", []):
        e = r.get("engine")
        if e not in ratings:
            warn("rating for unknown engine %r" % e)
            continue
        rc = ratings[e]
        rep.check("rating %s points" % e, "prob", r.get("points"), rc["points"])
        rep.check("rating %s games" % e, "exact", r.get("games"), rc["games"])
        var = rc["variants"]
        main = var.get("anchored", {})
        alt = var.get("mm")
        rep.check("rating %s elo" % e, "elo", r.get("elo"), main.get("elo"),
                  [("MM-renormalised fit", alt["elo"])] if alt else None)
        rep.check("rating %s error" % e, "elo", r.get("error"), main.get("error"),
                  [("MM-renormalised fit", alt["error"])] if alt else None)
        rep.info("rating %s error (games independent, info)" % e, r.get("error"),
                 main.get("error_games"))
    if len(names) == 2:
        st = gs.pairing_stats(names[0], names[1])
        e1 = names[1]
        err = ratings[e1]["variants"].get("anchored", {}).get("error")
        rep.text("")
        rep.text("two engines: rating error of %s vs pentanomial half width (info)" % e1)
        if st["elo"] is not None:
            rep.info("  rating error", None, err)
            rep.info("  interval half width (high-low)/2", None,
                     (st["elo_high"] - st["elo_low"]) / 2)
            P, m, v, _ = st["moments"]
            if 0 < m < 1:
                rep.info("  delta-method half width", None,
                         Z95 * NAT_TO_ELO * math.sqrt(v / P) / (m * (1 - m)))
    return rep.mismatches


# --------------------------------------------------------------------------
# Self-test
# --------------------------------------------------------------------------

def synth_games(first, second, penta, lone=()):
    """Games for a two-engine match with the given pentanomial (first's view).
    lone: extra unpaired games, each a points value for `first`."""
    split = {0: (0.0, 0.0), 1: (0.5, 0.0), 2: (1.0, 0.0), 3: (1.0, 0.5), 4: (1.0, 1.0)}
    games = []
    pair = 0
    k = 0
    for b, c in enumerate(penta):
        for _ in range(c):
            pair += 1
            p1, p2 = split[b] if pair % 2 else split[b][::-1]
            for white, black, pf in ((first, second, p1), (second, first, p2)):
                k += 1
                pw = pf if white == first else 1.0 - pf
                res = {1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2"}[pw]
                games.append({"game": k, "pair": pair, "white": white,
                              "black": black, "result": res})
    for pf in lone:
        pair += 1
        k += 1
        res = {1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2"}[pf]
        games.append({"game": k, "pair": pair, "white": first, "black": second,
                      "result": res})
    return games


def selftest():
    fails = []

    def expect(name, cond, detail=""):
        print("%-62s %s %s" % (name, "ok" if cond else "FAIL", detail))
        if not cond:
            fails.append(name)

    # nElo of [0,0,39,1,0].
    ne, nerr = nelo_pentanomial([0, 0, 39, 1, 0])
    expect("nelo([0,0,39,1,0]) ~ 39.12", abs(ne - 39.12) < 0.005, "%.4f" % ne)
    expect("nelo_error([0,0,39,1,0]) ~ 40.65", abs(nerr - 40.65) < 0.005, "%.4f" % nerr)
    ne, _ = nelo_pentanomial([3, 0, 4, 0, 3])
    expect("nelo of a symmetric pentanomial = 0", ne == 0.0, "%r" % ne)

    # elo(0.5) = 0 and clamping.
    expect("elo(0.5) = 0", elo_from_score(0.5) == 0.0)
    expect("elo(0.75) = 400*log10(3)",
           abs(elo_from_score(0.75) - 400 * math.log10(3)) < 1e-9)
    expect("elo(1) clamped to elo(1-1e-6)",
           elo_from_score(1.0) == elo_from_score(1 - 1e-6) and
           abs(elo_from_score(1.0) - 2400) < 0.001)
    expect("elo(-x) antisymmetric",
           abs(elo_from_score(0.3) + elo_from_score(0.7)) < 1e-9)

    # LOS of symmetric pentanomials.
    for c in ([2, 3, 4, 3, 2], [1, 0, 0, 0, 1], [0, 5, 1, 5, 0], [0, 0, 7, 0, 0]):
        expect("LOS(%s) = 0.5" % c, los_pentanomial(c) == 0.5)
    los = los_pentanomial([1, 2, 3, 4, 2])
    mom = penta_moments([1, 2, 3, 4, 2])
    want = 0.5 * (1 + math.erf((mom[1] - 0.5) / math.sqrt(mom[2] / mom[0]) / math.sqrt(2)))
    expect("LOS([1,2,3,4,2]) = Phi(...) via erf", abs(los - want) < 1e-15, "%.9f" % los)
    expect("LOS mirror symmetry", abs(los + los_pentanomial([2, 4, 3, 2, 1]) - 1) < 1e-12)

    # Smoothing of a degenerate pentanomial.
    P, m, v, sm = penta_moments([0, 0, 0, 5, 0])
    expect("all-in-one-bin pentanomial triggers smoothing", sm and m == 0.75)
    # [0,0,0,5,0] plus one pair spread evenly: 1/30 at 0, .25, .5, 1 and 26/30 at .75.
    expect("smoothed variance of [0,0,0,5,0] = 0.0295138...", abs(v - 0.029513888888888888) < 1e-12, "%r" % v)
    e, lo, hi = penta_elo_interval([0, 0, 0, 5, 0])
    expect("smoothed interval finite and ordered", lo < e < hi < 2400, "%.2f %.2f %.2f" % (lo, e, hi))
    expect("non-degenerate pentanomial not smoothed", not penta_moments([0, 1, 0, 5, 0])[3])
    P, m, v, _ = penta_moments([1, 2, 3, 4, 2])
    expect("pentanomial mean/variance by hand",
           abs(m - 28 / 48) < 1e-15 and
           abs(v - sum(c * (i / 4 - 28 / 48) ** 2 for i, c in enumerate([1, 2, 3, 4, 2])) / 12) < 1e-15)

    # Pentanomial counting from games; lone games excluded.
    gs = GameSet(synth_games("x", "y", [1, 2, 3, 4, 2], lone=(1.0, 0.5)), lambda s: None)
    st = gs.pairing_stats("x", "y")
    expect("pentanomial from games, lone games not counted",
           st["pentanomial"] == [1, 2, 3, 4, 2], str(st["pentanomial"]))
    expect("W/D/L counts include lone games", st["games"] == 26 and
           st["wins"] + st["draws"] + st["losses"] == 26)
    st_y = gs.pairing_stats("y", "x")
    expect("pentanomial from the other side is mirrored",
           st_y["pentanomial"] == [2, 4, 3, 2, 1])

    # Two engines: rating error = delta-method half width at m = observed score.
    for penta in ([1, 2, 3, 4, 2], [0, 0, 2, 0, 8], [3, 0, 4, 0, 3], [0, 0, 0, 5, 1],
                  [0, 0, 0, 6, 0]):
        games = synth_games("x", "y", penta)
        gs = GameSet(games, lambda s: None)
        rat, _ = compute_ratings(["x", "y"], gs, lambda s: None)
        P, m, v, _ = penta_moments(penta)
        r = rat["y"]["variants"]["anchored"]
        delta = Z95 * NAT_TO_ELO * math.sqrt(v / P) / (m * (1 - m))
        expect("2 engines %s: rating = -elo(score)" % penta,
               abs(r["elo"] + elo_from_score(m)) < 1e-6, "%.6f" % r["elo"])
        expect("2 engines %s: error = delta half width" % penta,
               abs(r["error"] - delta) <= 1e-6 * delta, "%.6f vs %.6f" % (r["error"], delta))

    # Newton fit versus an independent Hunter (2004) MM iteration, 3 engines.
    games = []
    num = 0
    spec = [("a", "b", [1, 2, 3, 2, 1]), ("a", "c", [0, 1, 2, 4, 3]), ("b", "c", [2, 2, 1, 3, 0])]
    for f, s, pent in spec:
        for g in synth_games(f, s, pent):
            num += 1
            g["game"] = num
            g["pair"] = (f, s, g["pair"])
            games.append(g)
    gs = GameSet(games, lambda s: None)
    rat, _ = compute_ratings(["a", "b", "c"], gs, lambda s: None)
    W = {e: 0.0 for e in "abc"}
    n = {}
    for r in gs.games:
        W[r[2]] += r[4]
        W[r[3]] += 1 - r[4]
        n[frozenset((r[2], r[3]))] = n.get(frozenset((r[2], r[3])), 0) + 1
    gam = {e: 1.0 for e in "abc"}
    for _ in range(20000):
        new = {}
        for i in "abc":
            den = sum(n.get(frozenset((i, j)), 0) / (gam[i] + gam[j]) for j in "abc" if j != i)
            new[i] = W[i] / den
        gam = {e: new[e] / new["a"] for e in "abc"}
    ok = all(abs(rat[e]["variants"]["anchored"]["elo"] - 400 * math.log10(gam[e])) < 1e-6
             for e in "abc")
    expect("Newton fit = Hunter MM fit (3 engines)", ok,
           " ".join("%s=%.4f" % (e, rat[e]["variants"]["anchored"]["elo"]) for e in "abc"))

    # Clamping: a player with every point stays finite.
    gs = GameSet(synth_games("x", "y", [0, 0, 0, 0, 4]), lambda s: None)
    rat, clamped = compute_ratings(["x", "y"], gs, lambda s: None)
    r = rat["y"]["variants"]["anchored"]["elo"]
    expect("clamped totals keep a 100% score finite",
           "y" in clamped and math.isfinite(r) and abs(r + elo_from_score(7.5 / 8)) < 1e-6,
           "%.3f" % r)

    # End to end: a document built from recomputed numbers passes; a
    # perturbed one fails.
    games = []
    num = 0
    for f, s, pent in spec[:2]:
        for g in synth_games(f, s, pent):
            num += 1
            g["game"] = num
            g["pair"] = num // 2 + num % 2
            games.append(g)
    doc = {"engines": [{"name": "a"}, {"name": "b"}, {"name": "c"}], "games": games,
           "pairings": [], "ratings": [], "counting_order": list(range(num, 0, -1))}
    gs = GameSet(games, lambda s: None)
    for f, s, _ in spec[:2]:
        st = gs.pairing_stats(f, s)
        doc["pairings"].append(dict({k: st[k] for k in (
            "wins", "draws", "losses", "score", "pentanomial", "elo", "elo_low",
            "elo_high", "nelo", "nelo_error", "los", "draw_ratio")}, first=f, second=s))
    rat, _ = compute_ratings(["a", "b", "c"], gs, lambda s: None)
    for e in "abc":
        v = rat[e]["variants"]["anchored"]
        doc["ratings"].append({"engine": e, "elo": v["elo"], "error": v["error"],
                               "points": rat[e]["points"], "games": rat[e]["games"]})
    quiet = open("/dev/null", "w") if sys.platform != "win32" else None

    def run(d):
        rep = Report(out=quiet or sys.stderr)
        return check_document(d, rep, lambda s: None)
    expect("consistent document: no mismatch", run(doc) == 0)
    bad = json.loads(json.dumps(doc))
    bad["pairings"][0]["los"] += 2e-6
    expect("perturbed LOS detected", run(bad) == 1)
    bad = json.loads(json.dumps(doc))
    bad["ratings"][1]["error"] += 0.06
    expect("perturbed rating error detected", run(bad) == 1)
    bad = json.loads(json.dumps(doc))
    bad["pairings"][1]["pentanomial"][0] += 1
    expect("perturbed pentanomial detected", run(bad) == 1)
    bad = json.loads(json.dumps(doc))
    bad["pairings"][1]["elo_high"] += 0.04
    expect("Elo change within 0.05 tolerated", run(bad) == 0)
    if quiet:
        quiet.close()

    print()
    print("selftest: %s (%d failures)" % ("PASS" if not fails else "FAIL", len(fails)))
    return 1 if fails else 0


# --------------------------------------------------------------------------

def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Independently recompute and check the statistics of a "
                    "Lines of Action match result JSON file.")
    ap.add_argument("json", nargs="?", help="result JSON file")
    ap.add_argument("--selftest", action="store_true",
                    help="run built-in checks of the formulas and exit")
    args = ap.parse_args(argv)
    if args.selftest:
        return selftest()
    if not args.json:
        ap.print_usage(sys.stderr)
        return 2
    try:
        with open(args.json) as fh:
            doc = json.load(fh)
    except (OSError, ValueError) as exc:
        print("stats_check: cannot read %s: %s" % (args.json, exc), file=sys.stderr)
        return 2
    warnings = []
    rep = Report()
    try:
        bad = check_document(doc, rep, warnings.append)
    except (KeyError, TypeError, ValueError) as exc:
        print("stats_check: malformed input: %r" % (exc,), file=sys.stderr)
        return 2
    rep.print()
    for w in warnings:
        print("WARNING: " + w)
    print()
    print("%d mismatch(es)" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
