"""Reference values for src/sequential/betting.ts: the hedged-capital betting confidence sequence
of Waudby-Smith & Ramdas (JRSSB 2024, section 4, Theorem 3, predictable plug-in bets), written
by hand from the paper with numpy, vectorised over the grid of candidate means (the TypeScript
loops over candidates one at a time and skips rejected ones).

Bounds are reported the conservative grid way: the grid point just outside the smallest and
largest candidate mean not rejected at any step so far.

Run: /usr/bin/python3 tests/reference/sequential/betting_cs.py > tests/reference/sequential/betting_cs.json
"""
import json
import math

import numpy as np


def hedged_cs(values, lo, hi, alpha, bound="two-sided", c=0.75, G=1000):
    x = (np.asarray(values, dtype=float) - lo) / (hi - lo)
    m = (np.arange(G) + 0.5) / G
    L = math.log((2.0 if bound == "two-sided" else 1.0) / alpha)
    log_up = np.zeros(G)
    log_down = np.zeros(G)
    rejected = np.zeros(G, dtype=bool)
    sig_prev = 0.25
    sum_x = 0.0
    sum_sq = 0.0
    lowers, uppers = [], []
    for t, xt in enumerate(x, start=1):
        lam_dot = math.sqrt(2 * L / (sig_prev * t * math.log(1 + t)))
        if bound != "upper":
            log_up = log_up + np.log1p(np.minimum(lam_dot, c / m) * (xt - m))
        if bound != "lower":
            log_down = log_down + np.log1p(-np.minimum(lam_dot, c / (1 - m)) * (xt - m))
        # Hedged with theta = 1/2: max(K+/2, K-/2) >= 1/alpha; one-sided: K >= 1/alpha (L is log(1/alpha) then).
        now = np.zeros(G, dtype=bool)
        if bound != "upper":
            now |= log_up >= L
        if bound != "lower":
            now |= log_down >= L
        rejected |= now
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
        mu_t = (0.5 + sum_x) / (t + 1)
        sum_sq += (xt - mu_t) ** 2
        sig_prev = (0.25 + sum_sq) / (t + 1)
    return lowers, uppers


rng = np.random.default_rng(20240118)
cases = []
cases.append(dict(name="alternating 0/1, [0,1], 95%", values=[float(i % 2) for i in range(400)], range=[0, 1], confidenceLevel=0.95, bound="two-sided"))
u = rng.random(300)
paired = np.where(u < 0.2, 1.0, np.where(u < 0.3, -1.0, 0.0)).tolist()
cases.append(dict(name="paired 0/1 differences, [-1,1], 95%", values=paired, range=[-1, 1], confidenceLevel=0.95, bound="two-sided"))
w = (np.median(rng.random((250, 3)), 1) - np.median(rng.random((250, 3)), 1)) * 0.5 + 0.1
cases.append(dict(name="low-spread continuous differences, [-1,1], 95%", values=w.tolist(), range=[-1, 1], confidenceLevel=0.95, bound="two-sided"))
points = (rng.integers(0, 101, 150) - rng.integers(0, 101, 150)).astype(float).tolist()
cases.append(dict(name="points differences, [-100,100], one-sided lower, 99%", values=points, range=[-100, 100], confidenceLevel=0.99, bound="lower"))
cases.append(dict(name="points differences, [-100,100], one-sided upper, 90%", values=points, range=[-100, 100], confidenceLevel=0.90, bound="upper"))

for case in cases:
    lo, hi = case["range"]
    case["lower"], case["upper"] = hedged_cs(case["values"], lo, hi, 1 - case["confidenceLevel"], case["bound"])

print(json.dumps(dict(source="tests/reference/sequential/betting_cs.py (numpy " + np.__version__ + ")", truncation=0.75, gridSize=1000, cases=cases), indent=1))
