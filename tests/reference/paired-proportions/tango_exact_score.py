"""Reference values for the 0/1 default (issue 25): Tango's score interval and score test, and the
exact unconditional score test of non-inferiority, computed independently of src/paired/.

Run with /usr/bin/python3 (scipy):
    /usr/bin/python3 tests/reference/paired-proportions/tango_exact_score.py > tests/reference/paired-proportions/tango_exact_score.json

Written from the papers' formulas, not from the TypeScript:
- Tango (1998), Stat Med 17:891-908: Z(delta) = (b - c - n delta) / sqrt(n (2 q + delta - delta^2)),
  q the restricted ML estimate of P(only B right) under pA - pB = delta, found here by NUMERICAL
  maximisation of the multinomial likelihood (scipy minimize_scalar), not Tango's closed form;
  interval {delta : |Z(delta)| <= z} by brentq.
- Score test of pA = pB: Z(0) = (b - c) / sqrt(b + c); two-sided p = 2 norm.sf(|Z|).
- Exact unconditional test of H0: delta <= d0 (Hsueh, Liu & Chen 2001, Biometrics 57:478-483):
  p = sup over theta = P(only B right) in [max(0, -d0), (1 - d0)/2] of the probability, under the
  multinomial (theta + d0, theta, 1 - 2 theta - d0), of every table (i, j) with Z(i, j; d0) >= Z_obs.
  Here: all tables enumerated, each Z by the numerical profile above, the supremum over a 4,001-point
  grid refined by scipy's bounded minimiser around the grid's best point.
Published values: Fagerland, Lydersen & Laake (2017), Statistical Analysis of Contingency Tables,
ch. 8, Cavo et al. (2012) table (59, 6 / 16, 80): Tango 95% CI -0.1240 to -0.0054, as printed by the
authors' R package contingencytables (tests/testthat/test-ch8.R, Tango_asymptotic_score_CI_paired_2x2).
"""
import json
import math

import numpy as np
from scipy.optimize import brentq, minimize_scalar
from scipy.special import gammaln
from scipy.stats import norm


def restricted_q(b, c, n, delta):
    lo = max(0.0, -delta)
    hi = (1.0 - delta) / 2.0
    if hi - lo < 1e-15:
        return lo

    def nll(q):
        total = 0.0
        for count, p in ((b, q + delta), (c, q), (n - b - c, 1 - 2 * q - delta)):
            if count > 0:
                if p <= 0:
                    return 1e300
                total -= count * math.log(p)
        return total

    res = minimize_scalar(nll, bounds=(lo, hi), method="bounded", options={"xatol": 1e-14})
    return min((nll(x), x) for x in (lo, hi, res.x))[1]


def tango_z(b, c, n, delta):
    q = restricted_q(b, c, n, delta)
    var = n * (2 * q + delta - delta * delta)
    num = b - c - n * delta
    if var <= 0:
        return 0.0 if num == 0 else math.copysign(math.inf, num)
    return num / math.sqrt(var)


def tango_interval(b, c, n, z):
    est = (b - c) / n
    eps = 1e-12
    low = -1.0 if est <= -1 else brentq(lambda d: tango_z(b, c, n, d) - z, -1 + eps, est, xtol=1e-13)
    high = 1.0 if est >= 1 else brentq(lambda d: tango_z(b, c, n, d) + z, est, 1 - eps, xtol=1e-13)
    return [low, high]


def score_p(b, c):
    if b + c == 0:
        return 1.0
    return float(min(1.0, 2 * norm.sf(abs(b - c) / math.sqrt(b + c))))


def exact_score_p(b, c, n, d0):
    z_obs = tango_z(b, c, n, d0)
    cut = z_obs - 1e-7 * max(1.0, abs(z_obs))
    cells = [(i, j) for i in range(n + 1) for j in range(n + 1 - i) if tango_z(i, j, n, d0) >= cut]
    ii = np.array([x[0] for x in cells], dtype=float)
    jj = np.array([x[1] for x in cells], dtype=float)
    rr = n - ii - jj
    logc = gammaln(n + 1) - gammaln(ii + 1) - gammaln(jj + 1) - gammaln(rr + 1)

    def size(theta):
        p10, p01 = theta + d0, theta
        pc = 1 - p10 - p01
        with np.errstate(divide="ignore", invalid="ignore"):
            lp = logc + np.where(ii > 0, ii * np.log(max(p10, 1e-300)), 0) + np.where(jj > 0, jj * np.log(p01), 0) + np.where(rr > 0, rr * np.log(max(pc, 1e-300)), 0)
        lp = np.where((ii > 0) & (p10 <= 0), -np.inf, lp)
        lp = np.where((rr > 0) & (pc <= 0), -np.inf, lp)
        return float(np.exp(lp).sum())

    lo, hi = max(0.0, -d0), (1 - d0) / 2
    grid = np.linspace(lo, hi, 4001)
    values = [size(t) for t in grid]
    k = int(np.argmax(values))
    a, b2 = grid[max(0, k - 1)], grid[min(len(grid) - 1, k + 1)]
    res = minimize_scalar(lambda t: -size(t), bounds=(a, b2), method="bounded", options={"xatol": 1e-12})
    return max(values[k], -res.fun), z_obs


out = {"script": "tests/reference/paired-proportions/tango_exact_score.py", "published": [], "scoreTests": [], "exactScore": []}

# Published: Fagerland et al. (2017) ch. 8 / contingencytables, Cavo et al. (2012): (a, b, c, d) = (59, 6, 16, 80).
a, b, c, d = 59, 6, 16, 80
n = a + b + c + d
lo, hi = tango_interval(b, c, n, norm.ppf(0.975))
out["published"].append({
    "counts": {"both": a, "onlyA": b, "onlyB": c, "neither": d},
    "source": "Fagerland, Lydersen & Laake (2017) ch. 8, Cavo et al. (2012); contingencytables tests/testthat/test-ch8.R",
    "publishedInterval": [-0.1240, -0.0054],
    "publishedDecimals": 4,
    "pythonInterval": [lo, hi],
})

for (a, b, c, d, note) in [
    (59, 6, 16, 80, "Cavo et al. 2012"),
    (1, 1, 7, 12, "Bentur et al. 2009 via Fagerland et al. 2014"),
    (36, 12, 2, 0, "Newcombe 1998 example (a)"),
    (20, 0, 0, 19, "39 agreeing items, 20 right 19 wrong"),
    (180, 9, 4, 7, "200 items, 13 discordant"),
]:
    out["scoreTests"].append({"counts": {"both": a, "onlyA": b, "onlyB": c, "neither": d}, "note": note, "twoSidedPValue": score_p(b, c),
                              "greaterPValue": 1.0 if b + c == 0 else float(norm.sf((b - c) / math.sqrt(b + c)))})

for (a, b, c, d, d0, note) in [
    (30, 0, 0, 22, -0.05, "52 agreeing items: Tango's bound clears -0.05; p = 0.95^52"),
    (20, 0, 0, 19, -0.05, "39 agreeing items, 20 right 19 wrong"),
    (30, 0, 0, 29, -0.05, "59 agreeing items: the first n that passes"),
    (12, 3, 1, 4, -0.2, "20 items, b = 3, c = 1"),
    (25, 4, 2, 9, -0.1, "40 items, b = 4, c = 2"),
    (60, 5, 3, 12, -0.05, "80 items, b = 5, c = 3"),
]:
    n = a + b + c + d
    p, z = exact_score_p(b, c, n, d0)
    out["exactScore"].append({"counts": {"both": a, "onlyA": b, "onlyB": c, "neither": d}, "nullDifference": d0, "note": note, "statistic": z, "pValue": p})

print(json.dumps(out, indent=1))
