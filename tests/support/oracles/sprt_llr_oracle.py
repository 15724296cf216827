#!/usr/bin/env python3
"""Independent oracle for the generalized SPRT (GSPRT) log-likelihood ratio on
pentanomial game-pair samples.

A sample is five counts c = [c0..c4] of game pairs scoring 0, 0.5, 1, 1.5, 2
points; as a fraction of the pair the scores are a_i = i/4.  For a hypothesis
H the distribution p^H is the maximum-likelihood distribution on {a_i}
subject to the hypothesis constraint, and

    LLR = N * sum_i phat_i * (log p^{H1}_i - log p^{H0}_i).

Two hypothesis models are supported:

  logistic   : mean(p) = s, with s = 1 / (1 + 10^(-elo/400))
  normalized : (mu - 1/2) / sigma = t, with t = sqrt(2) * nelo * ln(10) / 800
               (mu, sigma^2: mean and population variance of the pair score)

Every MLE is computed by two independent numerical methods:

  Method A  Lagrange / "secular equation" route.  p_i = phat_i / (1 + x g_i)
            with the scalar x found by bisection.  For the t-value constraint
            g_i depends on (mu, sigma) of p itself, so it is iterated to a fixed
            point (linearised constraint, see mle_tvalue_a).
  Method B  Logistic: equality-constrained (feasible-start) Newton method
            directly on the primal variables p.  t-value: the feasible set is
            sliced by the mean m (fixed m fixes sigma and hence the second
            moment, i.e. two linear moment constraints, whose exact MLE is
            found by 2-D Newton on the convex dual in the two Lagrange
            multipliers); the resulting 1-D profile likelihood is maximised
            over m by a grid scan followed by golden-section search.  No
            fixed-point iteration and no linearisation of the constraint.

Standard library only; deterministic.  Run from the repository root:

    python3 tests/support/oracles/sprt_llr_oracle.py

It rewrites tests/data/sprt_llr_table.csv and prints a short summary.
"""

import math
import os
import sys

EPS = 1e-3                                  # replacement for zero counts
SCORES = [i / 4.0 for i in range(5)]        # pair score as fraction of a pair
NELO_SCALE = 800.0 / math.log(10.0)         # normalized Elo per unit t-value


# ---------------------------------------------------------------------------
# Hypothesis parameters and sample preparation
# ---------------------------------------------------------------------------

def logistic_score(elo):
    """Expected score s = 1/(1+10^(-elo/400)) of a logistic Elo difference."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def normalized_t(nelo):
    """Pair t-value (mu - 1/2)/sigma for a normalized Elo value.

    Normalized Elo is nelo = t_game * 800/ln(10) per game; a pair's standard
    deviation is 1/sqrt(2) of a single game's, so t_pair = sqrt(2) * t_game.
    """
    return math.sqrt(2.0) * nelo / NELO_SCALE


def regularise(counts):
    """Replace zero counts by EPS; return (regularised counts, N, phat)."""
    c = [float(x) if x != 0 else EPS for x in counts]
    n = sum(c)
    return c, n, [x / n for x in c]


def mean_var(p):
    """Mean and population variance of the pair score under distribution p."""
    mu = sum(pi * a for pi, a in zip(p, SCORES))
    var = sum(pi * (a - mu) ** 2 for pi, a in zip(p, SCORES))
    return mu, var


def loglik(phat, p):
    """Per-pair log-likelihood sum_i phat_i log p_i."""
    return sum(f * math.log(q) for f, q in zip(phat, p))


# ---------------------------------------------------------------------------
# Method A: secular equation + fixed point
# ---------------------------------------------------------------------------

def solve_secular(phat, g):
    """Root x of F(x) = sum_i phat_i g_i / (1 + x g_i) = 0.

    F is strictly decreasing on the interval where all 1 + x g_i > 0 and tends
    to +inf / -inf at its ends (every phat_i > 0 and g has both signs), so the
    root is unique; it is found by bisection down to full double precision.
    Then p_i = phat_i / (1 + x g_i) satisfies sum p_i = 1 and sum p_i g_i = 0.
    """
    gmax, gmin = max(g), min(g)
    if not (gmax > 0.0 > gmin):
        raise ValueError("constraint infeasible: g does not change sign")
    lo, hi = -1.0 / gmax, -1.0 / gmin

    def f(x):
        return sum(w * gi / (1.0 + x * gi) for w, gi in zip(phat, g))

    for _ in range(2000):
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:
            break
        if f(mid) > 0.0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def tilt(phat, g, x):
    """p_i = phat_i / (1 + x g_i), renormalised against rounding residue."""
    p = [w / (1.0 + x * gi) for w, gi in zip(phat, g)]
    z = sum(p)
    return [q / z for q in p]


def mle_mean_a(phat, s):
    """MLE with mean constraint sum p_i a_i = s (Method A).

    Lagrange stationarity of sum phat_i log p_i - lam (sum p_i - 1)
    - nu sum p_i (a_i - s) gives phat_i / p_i = lam + nu (a_i - s); summing
    p_i times this gives lam = 1, hence p_i = phat_i / (1 + x (a_i - s)).
    """
    g = [a - s for a in SCORES]
    return tilt(phat, g, solve_secular(phat, g))


def mle_tvalue_a(phat, t, tol=1e-15, max_iter=10000):
    """MLE with t-value constraint (mu - 1/2)/sigma = t (Method A).

    Derivation.  With f(p) = (mu - 1/2)/sigma we have d mu/dp_i = a_i and
    d sigma^2/dp_i = (a_i - mu)^2 + const (constants are absorbed by the
    normalisation multiplier).  Stationarity of the Lagrangian gives
        phat_i / p_i = lam + nu [a_i/sigma - (mu - 1/2)(a_i - mu)^2/(2 sigma^3)].
    Using mu - 1/2 = t sigma and eliminating lam via sum p_i = 1 yields
        p_i = phat_i / (1 + x phi_i),
        phi_i = (a_i - 1/2) - t sigma/2 - t (a_i - mu)^2 / (2 sigma),
    where sum_i p_i phi_i = (mu - 1/2) - t sigma is exactly the constraint
    residual.  So for given (mu, sigma) the scalar x is the root of the
    secular equation sum phat_i phi_i/(1 + x phi_i) = 0 (forcing
    sum p phi = 0, i.e. a linearisation of the constraint), and (mu, sigma)
    are iterated to a fixed point, at which both the KKT conditions and the
    constraint hold exactly.
    """
    if t == 0.0:
        return mle_mean_a(phat, 0.5)
    # Start from the uniform distribution: starting at phat would give a
    # near-zero sigma for degenerate samples and a phi without sign change.
    p = [1.0 / len(phat)] * len(phat)
    prev = math.inf
    for _ in range(max_iter):
        mu, var = mean_var(p)
        sigma = math.sqrt(var)
        phi = [(a - 0.5) - 0.5 * t * sigma - t * (a - mu) ** 2 / (2.0 * sigma)
               for a in SCORES]
        p_new = tilt(phat, phi, solve_secular(phat, phi))
        delta = max(abs(u - v) for u, v in zip(p, p_new))
        p = p_new
        # Stop at tol, or once the contraction has reached rounding noise
        # (delta ~1e-14 for near-singular denominators) and stops shrinking.
        if delta < tol or (delta < 1e-12 and delta >= prev):
            break
        prev = delta
    else:
        raise RuntimeError("t-value fixed point did not converge")
    return p


# ---------------------------------------------------------------------------
# Method B: primal equality-constrained Newton (+ profile search for t-value)
# ---------------------------------------------------------------------------

def solve_linear(m, r):
    """Solve the small dense system m x = r (Gaussian elimination, pivoting)."""
    n = len(r)
    a = [list(row) + [r[i]] for i, row in enumerate(m)]
    for col in range(n):
        piv = max(range(col, n), key=lambda i: abs(a[i][col]))
        a[col], a[piv] = a[piv], a[col]
        for i in range(col + 1, n):
            f = a[i][col] / a[col][col]
            for j in range(col, n + 1):
                a[i][j] -= f * a[col][j]
    x = [0.0] * n
    for i in range(n - 1, -1, -1):
        x[i] = (a[i][n] - sum(a[i][j] * x[j] for j in range(i + 1, n))) / a[i][i]
    return x


def mle_linear_b(phat, rows, rhs, p_start, max_iter=500):
    """max sum phat_i log p_i  s.t.  rows . p = rhs  (Method B, primal).

    Feasible-start damped Newton method (Boyd & Vandenberghe, sec. 10.2) on
    the primal variables p, for F(p) = -sum phat_i log p_i.  Each step solves
    the KKT system [H A^T; A 0] [dp; w] = [-grad F; 0], H = diag(phat/p^2),
    through the reduced system (A H^-1 A^T) w = -A H^-1 grad F, so that every
    iterate stays on the constraint set; the step length is backtracked to
    keep p > 0 and to satisfy the Armijo condition on F.  F is
    self-concordant, so this converges from any strictly feasible p_start.
    """
    n, k = len(phat), len(rows)
    p = list(p_start)

    def objective(q):
        return -sum(w * math.log(x) for w, x in zip(phat, q))

    f = objective(p)
    prev = math.inf
    for _ in range(max_iter):
        grad = [-phat[i] / p[i] for i in range(n)]
        hinv = [p[i] * p[i] / phat[i] for i in range(n)]
        mat = [[sum(rows[j][i] * hinv[i] * rows[l][i] for i in range(n))
                for l in range(k)] for j in range(k)]
        r = [-sum(rows[j][i] * hinv[i] * grad[i] for i in range(n))
             for j in range(k)]
        w = solve_linear(mat, r)
        dp = [-hinv[i] * (grad[i] + sum(rows[j][i] * w[j] for j in range(k)))
              for i in range(n)]
        # Squared Newton decrement dp^T H dp, as a sum of squares (accurate).
        decrement = sum(phat[i] * (dp[i] / p[i]) ** 2 for i in range(n))
        if decrement < 1e-30 or (decrement < 1e-8 and decrement >= prev):
            break              # converged / reached the rounding floor
        prev = decrement
        step = 1.0
        while any(p[i] + step * dp[i] <= 0.0 for i in range(n)):
            step *= 0.5
        p_try = [p[i] + step * dp[i] for i in range(n)]
        f_try = objective(p_try)
        if decrement > 1e-4:
            # Damped phase: Armijo backtracking on F.  (In the quadratic
            # phase, decrement <= 1e-4, full steps are taken: changes of F
            # are then below its rounding error and cannot be tested.)
            while f_try > f - 0.25 * step * decrement and step > 1e-15:
                step *= 0.5
                p_try = [p[i] + step * dp[i] for i in range(n)]
                f_try = objective(p_try)
        p, f = p_try, f_try
    return p


def mle_mean_b(phat, s):
    """MLE with mean constraint (Method B): primal Newton, rows [1, a].

    Strictly feasible start: a mixture of the uniform distribution (mean 1/2)
    with a point mass at 1 (if s > 1/2) or at 0 (if s < 1/2).
    """
    lam = abs(s - 0.5) / 0.5
    p0 = [(1.0 - lam) / 5.0] * 5
    p0[4 if s > 0.5 else 0] += lam
    return mle_linear_b(phat, [[1.0] * 5, SCORES], [1.0, s], p0)


def mle_moments_dual(phat, g, max_iter=500):
    """max sum phat_i log p_i  s.t.  sum p_i = 1, sum p_i g_i = 0 (g_i in R^k).

    Solved through the convex dual: p_i = phat_i / (1 + y.g_i) where y
    minimises D(y) = -sum phat_i log(1 + y.g_i) on {1 + y.g_i > 0}.  Damped
    Newton in k dimensions from y = 0 (always in the domain); D is
    self-concordant so this is globally convergent.  Returns None if the
    constraints look infeasible (D unbounded below).
    """
    n, k = len(phat), len(g[0])
    y = [0.0] * k

    def dual(y):
        den = [1.0 + sum(y[j] * g[i][j] for j in range(k)) for i in range(n)]
        if min(den) <= 0.0:
            return math.inf, den
        return -sum(w * math.log(d) for w, d in zip(phat, den)), den

    val, den = dual(y)
    prev = math.inf
    for _ in range(max_iter):
        grad = [-sum(phat[i] * g[i][j] / den[i] for i in range(n))
                for j in range(k)]
        hess = [[sum(phat[i] * g[i][j] * g[i][l] / den[i] ** 2
                     for i in range(n)) for l in range(k)] for j in range(k)]
        dy = solve_linear(hess, [-v for v in grad])
        # Squared Newton decrement dy^T H dy, as a sum of squares (accurate).
        decrement = sum(phat[i] * (sum(dy[j] * g[i][j] for j in range(k))
                                   / den[i]) ** 2 for i in range(n))
        if decrement < 1e-30 or (decrement < 1e-8 and decrement >= prev):
            break              # converged / reached the rounding floor
        prev = decrement
        step = 1.0
        while True:
            y_try = [y[j] + step * dy[j] for j in range(k)]
            val_try, den_try = dual(y_try)
            # Armijo test only in the damped phase; in the quadratic phase
            # the change of D is below its rounding error (domain still
            # enforced through val_try < inf).
            limit = val - 0.25 * step * decrement if decrement > 1e-4 else math.inf
            if val_try < math.inf and val_try <= limit:
                break
            if step < 1e-15:
                return None
            step *= 0.5
        y, val, den = y_try, val_try, den_try
    if val < -50.0:            # unbounded dual: infeasible moment constraints
        return None
    p = [w / d for w, d in zip(phat, den)]
    z = sum(p)
    if abs(z - 1.0) > 1e-9:
        return None
    return [q / z for q in p]


def profile_tvalue(phat, t, m):
    """Best log-likelihood among distributions with mean m and t-value t.

    For fixed mean m the t-value constraint fixes sigma = (m - 1/2)/t, hence
    the second moment q = sigma^2 + m^2: two linear moment constraints
    g_i = (a_i - m, a_i^2 - q), solved exactly via the 2-D convex dual.
    Returns (loglik, p) or (-inf, None).
    """
    sigma = (m - 0.5) / t
    q = sigma * sigma + m * m
    p = mle_moments_dual(phat, [(a - m, a * a - q) for a in SCORES])
    if p is None:
        return -math.inf, None
    return loglik(phat, p), p


def mle_tvalue_b(phat, t, grid=120):
    """MLE with t-value constraint (Method B): profile likelihood over mean.

    Feasible means for t > 0 (t < 0 is mirrored) are m = 1/2 + d with
    sigma = d/t inside the moment space of the 5-point support, i.e.
    var_min(m) < sigma^2 < m(1 - m).  The upper bound gives
    d < t / (2 sqrt(1 + t^2)); the lower bound on the segment a in [1/2, 3/4]
    (var_min = d/4 - d^2) gives d > t^2 / (4 (1 + t^2)).  (This segment holds
    for |t| < 1/sqrt(3), checked below.)  The profile is scanned on a grid and
    refined by golden-section search around the best grid point.
    """
    if t == 0.0:
        return mle_mean_b(phat, 0.5)
    at = abs(t)
    if at >= 1.0 / math.sqrt(3.0):
        raise ValueError("|t| too large for the analytic feasible interval")
    sgn = 1.0 if t > 0 else -1.0
    d_lo = at * at / (4.0 * (1.0 + at * at))
    d_hi = at / (2.0 * math.sqrt(1.0 + at * at))

    def value(d):
        return profile_tvalue(phat, t, 0.5 + sgn * d)[0]

    ds = [d_lo + (d_hi - d_lo) * (i + 0.5) / grid for i in range(grid)]
    vals = [value(d) for d in ds]
    best = max(range(grid), key=lambda i: vals[i])
    lo = ds[best - 1] if best > 0 else d_lo + 1e-3 * (ds[0] - d_lo)
    hi = ds[best + 1] if best < grid - 1 else d_hi - 1e-3 * (d_hi - ds[-1])
    gr = (math.sqrt(5.0) - 1.0) / 2.0
    x1, x2 = hi - gr * (hi - lo), lo + gr * (hi - lo)
    f1, f2 = value(x1), value(x2)
    while hi - lo > 1e-13 * max(1.0, hi):
        if f1 >= f2:
            hi, x2, f2 = x2, x1, f1
            x1 = hi - gr * (hi - lo)
            f1 = value(x1)
        else:
            lo, x1, f1 = x1, x2, f2
            x2 = lo + gr * (hi - lo)
            f2 = value(x2)
    d = x1 if f1 >= f2 else x2
    return profile_tvalue(phat, t, 0.5 + sgn * d)[1]


# ---------------------------------------------------------------------------
# LLR
# ---------------------------------------------------------------------------

def mle(model, elo, phat, method):
    """MLE distribution under hypothesis `elo` of `model` by method 'A'/'B'."""
    if model == "logistic":
        s = logistic_score(elo)
        return mle_mean_a(phat, s) if method == "A" else mle_mean_b(phat, s)
    if model == "normalized":
        t = normalized_t(elo)
        return mle_tvalue_a(phat, t) if method == "A" else mle_tvalue_b(phat, t)
    raise ValueError(model)


def check_constraint(model, elo, p):
    """Absolute residual of the hypothesis constraint (and of sum p = 1)."""
    mu, var = mean_var(p)
    if model == "logistic":
        r = mu - logistic_score(elo)
    else:
        r = (mu - 0.5) - normalized_t(elo) * math.sqrt(var)
    return max(abs(r), abs(sum(p) - 1.0))


def llr(model, elo0, elo1, counts, method="A"):
    """GSPRT LLR = sum_i c_i (log p1_i - log p0_i) with regularised counts."""
    c, _, phat = regularise(counts)
    p0 = mle(model, elo0, phat, method)
    p1 = mle(model, elo1, phat, method)
    return sum(ci * (math.log(b) - math.log(a)) for ci, a, b in zip(c, p0, p1))


def llr_normal_approx(elo0, elo1, counts):
    """Normal approximation N/(2 var) ((x - s0)^2 - (x - s1)^2) (logistic)."""
    _, n, phat = regularise(counts)
    x, var = mean_var(phat)
    s0, s1 = logistic_score(elo0), logistic_score(elo1)
    return n / (2.0 * var) * ((x - s0) ** 2 - (x - s1) ** 2)


# ---------------------------------------------------------------------------
# Table
# ---------------------------------------------------------------------------

MODELS = ["logistic", "normalized"]
ELO_PAIRS = [(0, 5), (0, 10), (-5, 5), (0, 2)]
SAMPLES = [
    # degenerate
    [0, 0, 0, 0, 2], [0, 0, 2, 0, 0], [0, 0, 4, 0, 0], [2, 0, 0, 0, 0],
    [0, 0, 0, 0, 4], [0, 0, 0, 0, 20], [0, 0, 10, 0, 0], [0, 0, 100, 0, 0],
    [1, 0, 0, 0, 0], [0, 0, 1, 0, 0],
    # sparse
    [0, 1, 3, 1, 0], [0, 0, 3, 1, 0], [1, 0, 0, 0, 1], [0, 2, 5, 0, 1],
    # realistic
    [10, 50, 200, 60, 12], [30, 120, 500, 130, 25], [5, 40, 300, 60, 4],
    [100, 400, 1000, 420, 110], [3, 20, 50, 25, 2], [0, 3, 12, 6, 1],
]
REALISTIC = SAMPLES[14:]


def main():
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
    out_path = os.path.join(root, "tests", "data", "sprt_llr_table.csv")

    cache = {}

    def get_mle(model, elo, counts, method):
        key = (model, elo, tuple(counts), method)
        if key not in cache:
            _, _, phat = regularise(counts)
            cache[key] = mle(model, elo, phat, method)
        return cache[key]

    def llr_of(model, elo0, elo1, counts, method):
        c, _, _ = regularise(counts)
        p0 = get_mle(model, elo0, counts, method)
        p1 = get_mle(model, elo1, counts, method)
        return sum(ci * (math.log(b) - math.log(a))
                   for ci, a, b in zip(c, p0, p1))

    rows = []
    max_diff = 0.0
    max_diff_row = None
    max_constraint = 0.0
    for model in MODELS:
        for elo0, elo1 in ELO_PAIRS:
            for counts in SAMPLES:
                la = llr_of(model, elo0, elo1, counts, "A")
                lb = llr_of(model, elo0, elo1, counts, "B")
                if abs(la - lb) > max_diff:
                    max_diff, max_diff_row = abs(la - lb), (model, elo0, elo1, counts)
                for elo in (elo0, elo1):
                    for meth in ("A", "B"):
                        max_constraint = max(max_constraint, check_constraint(
                            model, elo, get_mle(model, elo, counts, meth)))
                rows.append((model, elo0, elo1, counts, la))

    with open(out_path, "w", newline="\n") as fh:
        fh.write("model,elo0,elo1,c0,c1,c2,c3,c4,llr\n")
        for model, elo0, elo1, counts, value in rows:
            fh.write("%s,%d,%d,%s,%.6f\n" % (model, elo0, elo1,
                                            ",".join(str(c) for c in counts),
                                            value))

    print("wrote %s (%d rows)" % (out_path, len(rows)))
    for model in ("normalized", "logistic"):
        print("LLR [0,0,0,0,2] %-10s elo0=0 elo1=5: %.6f"
              % (model, llr_of(model, 0, 5, [0, 0, 0, 0, 2], "A")))
    t5, s5 = normalized_t(5), logistic_score(5)
    print("  (eps->0 limits: normalized 2 log(1 + t/sqrt(1+t^2)) = %.6f,"
          " logistic 2 log(2 s) = %.6f)"
          % (2.0 * math.log(1.0 + t5 / math.sqrt(1.0 + t5 * t5)),
             2.0 * math.log(2.0 * s5)))
    print("max |A-B| over table: %.3e  (at %s)" % (max_diff, max_diff_row))
    print("max constraint residual of all MLEs: %.3e" % max_constraint)
    print("logistic vs normal approximation (elo0=0, elo1=5):")
    for counts in REALISTIC:
        print("  %-28s exact %10.6f  approx %10.6f"
              % (counts, llr_of("logistic", 0, 5, counts, "A"),
                 llr_normal_approx(0, 5, counts)))
    if max_diff > 1e-6:
        print("ERROR: methods A and B disagree by more than 1e-6")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
