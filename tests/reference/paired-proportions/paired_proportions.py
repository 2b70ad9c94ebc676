"""Reference values for src/paired/paired-proportion.ts, computed independently of it.

Run with /usr/bin/python3 (scipy, statsmodels):
    /usr/bin/python3 tests/reference/paired-proportions/paired_proportions.py > tests/reference/paired-proportions/paired_proportions.json

Tango (1998) score interval: for each delta the nuisance P(only B right) = q is profiled out by
NUMERICALLY maximising the restricted multinomial likelihood
    b log(q + delta) + c log(q) + (n - b - c) log(1 - 2q - delta)
(scipy minimize_scalar, not Tango's closed form), then Z(delta) = (b - c - n delta) /
sqrt(n (2q + delta - delta^2)) and the interval {delta : |Z| <= z} is found with brentq.
Newcombe (1998) method 10: statsmodels' Wilson intervals combined with the corrected phi.
McNemar exact: scipy binomtest; mid-p from scipy binom pmf/cdf.
"""
import json
import math

from scipy.optimize import brentq, minimize_scalar
from scipy.stats import binom, binomtest, norm
from statsmodels.stats.proportion import proportion_confint


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
    # the likelihood may be maximal at an end of the range
    best = min((nll(x), x) for x in (lo, hi, res.x))
    return best[1]


def tango_z(b, c, n, delta):
    q = restricted_q(b, c, n, delta)
    var = n * (2 * q + delta - delta * delta)
    num = b - c - n * delta
    if var <= 0:
        return 0.0 if num == 0 else math.copysign(math.inf, num)
    return num / math.sqrt(var)


def tango(both, only_a, only_b, neither, z):
    n = both + only_a + only_b + neither
    b, c = only_a, only_b
    est = (b - c) / n
    eps = 1e-12
    low = -1.0 if est <= -1 else brentq(lambda d: tango_z(b, c, n, d) - z, -1 + eps, est, xtol=1e-13)
    high = 1.0 if est >= 1 else brentq(lambda d: tango_z(b, c, n, d) + z, est, 1 - eps, xtol=1e-13)
    return [low, high]


def newcombe10(both, only_a, only_b, neither, z):
    A, B, C, D = both, only_a, only_b, neither
    n = A + B + C + D
    alpha = 2 * (1 - norm.cdf(z))
    pa, pb = (A + B) / n, (A + C) / n
    l1, u1 = proportion_confint(A + B, n, alpha=alpha, method="wilson")
    l2, u2 = proportion_confint(A + C, n, alpha=alpha, method="wilson")
    cross = A * D - B * C
    corrected = cross - n / 2 if cross > n / 2 else (0.0 if cross >= 0 else cross)
    margins = (A + B) * (C + D) * (A + C) * (B + D)
    phi = corrected / math.sqrt(margins) if margins > 0 else 0.0
    est = pa - pb
    low = est - math.sqrt(max(0.0, (pa - l1) ** 2 - 2 * phi * (pa - l1) * (u2 - pb) + (u2 - pb) ** 2))
    high = est + math.sqrt(max(0.0, (u1 - pa) ** 2 - 2 * phi * (u1 - pa) * (pb - l2) + (pb - l2) ** 2))
    return [max(-1.0, low), min(1.0, high)]


def mcnemar(b, c, alternative):
    m = b + c
    if m == 0:
        return 1.0, 1.0
    if alternative == "two-sided":
        exact = binomtest(b, m, 0.5, alternative="two-sided").pvalue
        k = min(b, c)
        mid = min(1.0, 2 * binom.cdf(k - 1, m, 0.5) + binom.pmf(k, m, 0.5))
        return float(exact), float(mid)
    k = c if alternative == "greater" else b  # greater: P(X >= b) = P(X <= c)
    exact = binomtest(b, m, 0.5, alternative=alternative).pvalue
    mid = exact - binom.pmf(k, m, 0.5) / 2
    return float(exact), float(mid)


TABLES = [
    # (both, onlyA, onlyB, neither, note)
    (36, 12, 2, 0, "Newcombe 1998 example (a)"),
    (1, 1, 7, 12, "Bentur et al. 2009 via Fagerland et al. 2014"),
    (53, 16, 8, 9, "Agresti & Min 2005"),
    (3, 0, 0, 0, "3 agreeing items"),
    (39, 0, 0, 0, "39 agreeing items"),
    (50, 0, 0, 0, "50 agreeing items"),
    (0, 0, 0, 10, "10 items both wrong"),
    (7, 3, 0, 0, "b = 3, c = 0"),
    (0, 10, 0, 0, "A right, B wrong on every item"),
    (5, 1, 1, 3, "b = c = 1"),
    (180, 9, 4, 7, "200 items, 13 discordant"),
]

out = {"script": "tests/reference/paired-proportions/paired_proportions.py", "cases": []}
for both, a, b, d, note in TABLES:
    for level, alternative in ((0.95, "two-sided"), (0.90, "two-sided"), (0.95, "greater"), (0.95, "less")):
        z = norm.ppf(1 - (1 - level) / 2) if alternative == "two-sided" else norm.ppf(level)
        case = {"counts": {"both": both, "onlyA": a, "onlyB": b, "neither": d}, "note": note, "confidenceLevel": level, "alternative": alternative}
        for name, fn in (("tango", tango), ("newcombe", newcombe10)):
            lo, hi = fn(both, a, b, d, z)
            if alternative == "greater":
                hi = 1.0
            elif alternative == "less":
                lo = -1.0
            case[name] = [lo, hi]
        case["exactPValue"], case["midPValue"] = mcnemar(a, b, alternative)
        out["cases"].append(case)

print(json.dumps(out, indent=1))
