"""Reference values for src/sequential/agrapa.ts: the betting confidence sequence of Waudby-Smith &
Ramdas (JRSSB 2024) with aGRAPA bets, written by hand from the paper with numpy, vectorised over the
grid of candidate means (the TypeScript loops over candidates one at a time and skips rejected ones).

For each candidate m on the grid (j + 1/2)/G, one capital process
    K_t(m) = prod_i (1 + lam_i(m) (x_i - m)),
    lam_i(m) = clip((mu_{i-1} - m) / (s2_{i-1} + (mu_{i-1} - m)^2), -c/(1-m), c/m),
mu_t = (1/2 + sum x)/(t+1), s2_t = (1/4 + sum (x_i - mu_i)^2)/(t+1); m is rejected for good once
K_t(m) >= 1/alpha. One-sided 'lower' clips lam to >= 0, 'upper' to <= 0. Bounds are the grid
points just outside the smallest and largest candidates never rejected.

The capital is kept as a product (np.cumprod-style running product), not a sum of logs as in the
TypeScript, so the two agree only if the arithmetic is right, not by sharing a formula.

Run: /usr/bin/python3 tests/reference/sequential/agrapa_cs.py > tests/reference/sequential/agrapa_cs.json
"""
import json

import numpy as np


C = 0.99  # the default truncation of AgrapaBettingSequence


def agrapa_cs(values, lo, hi, alpha, bound="two-sided", c=C, G=1000):
    x = (np.asarray(values, dtype=float) - lo) / (hi - lo)
    m = (np.arange(G) + 0.5) / G
    capital = np.ones(G)
    rejected = np.zeros(G, dtype=bool)
    mu, s2 = 0.5, 0.25
    sum_x, sum_sq = 0.0, 0.0
    lowers, uppers = [], []
    min_factor = 1.0  # the smallest 1 + lam (x - m) over the candidates still standing
    for t, xt in enumerate(x, start=1):
        d = mu - m
        lam = d / (s2 + d * d)
        up_cap = c / m if bound != "upper" else np.zeros(G)
        down_cap = -c / (1 - m) if bound != "lower" else np.zeros(G)
        lam = np.minimum(np.maximum(lam, down_cap), up_cap)
        factor = 1 + lam * (xt - m)
        if (~rejected).any():
            min_factor = min(min_factor, float(factor[~rejected].min()))
        capital = capital * factor
        rejected |= capital >= 1 / alpha
        alive = np.flatnonzero(~rejected)
        if alive.size == 0:
            lowers.append(hi)
            uppers.append(lo)
        else:
            j0, j1 = alive[0], alive[-1]
            lx = 0.0 if j0 == 0 else m[j0 - 1]
            ux = 1.0 if j1 == G - 1 else m[j1 + 1]
            lowers.append(lo + (hi - lo) * lx)
            uppers.append(lo + (hi - lo) * ux)
        sum_x += xt
        mu = (0.5 + sum_x) / (t + 1)
        sum_sq += (xt - mu) ** 2
        s2 = (0.25 + sum_sq) / (t + 1)
    return lowers, uppers, min_factor


rng = np.random.default_rng(20261201)
cases = []
cases.append(dict(name="alternating 0/1, [0,1], 95%", values=[float(i % 2) for i in range(400)], range=[0, 1], confidenceLevel=0.95, bound="two-sided"))
u = rng.random(300)
paired = np.where(u < 0.2, 1.0, np.where(u < 0.3, -1.0, 0.0)).tolist()
cases.append(dict(name="paired 0/1 differences, [-1,1], 95%", values=paired, range=[-1, 1], confidenceLevel=0.95, bound="two-sided"))
w = (np.median(rng.random((250, 3)), 1) - np.median(rng.random((250, 3)), 1)) * 0.5 + 0.1
cases.append(dict(name="low-spread continuous differences, [-1,1], 95%", values=w.tolist(), range=[-1, 1], confidenceLevel=0.95, bound="two-sided"))
neg = (-w).tolist()
cases.append(dict(name="the same differences negated (mean below 0), [-1,1], 90%", values=neg, range=[-1, 1], confidenceLevel=0.90, bound="two-sided"))
points = (rng.integers(0, 101, 150) - rng.integers(0, 101, 150)).astype(float).tolist()
cases.append(dict(name="points differences, [-100,100], one-sided lower, 99%", values=points, range=[-100, 100], confidenceLevel=0.99, bound="lower"))
cases.append(dict(name="points differences, [-100,100], one-sided upper, 90%", values=points, range=[-100, 100], confidenceLevel=0.90, bound="upper"))
cases.append(dict(name="paired 0/1 differences, [-1,1], one-sided lower at alpha/110", values=paired, range=[-1, 1], confidenceLevel=1 - 0.05 / 110, bound="lower"))
# Values at the very edge of the range after a run at the other edge: the bets of the candidates near
# the running mean hit the cap c/m (or -c/(1-m)), so the edge value costs them the factor 1 - c = 0.01.
# With c near 1 this is the case where the log-capital could go to -inf or NaN if the cap were wrong.
edge_up = [1.0] * 20 + [0.0] + [float(i % 2) for i in range(40)]
cases.append(dict(name="edge: 20 values at the top, then one at the bottom (bets at the cap c/m), [0,1], 95%", values=edge_up, range=[0, 1], confidenceLevel=0.95, bound="two-sided"))
edge_down = [-1.0] * 20 + [1.0] + [float(i % 2) * 2 - 1 for i in range(40)]
cases.append(dict(name="edge: 20 values at the bottom, then one at the top (bets at the cap -c/(1-m)), [-1,1], 95%", values=edge_down, range=[-1, 1], confidenceLevel=0.95, bound="two-sided"))

for case in cases:
    lo, hi = case["range"]
    case["lower"], case["upper"], case["minFactor"] = agrapa_cs(case["values"], lo, hi, 1 - case["confidenceLevel"], case["bound"])

print(json.dumps(dict(source="tests/reference/sequential/agrapa_cs.py (numpy " + np.__version__ + ")", truncation=C, gridSize=1000, cases=cases), indent=1))
