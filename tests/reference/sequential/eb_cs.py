"""Reference values for src/sequential: the predictable plug-in empirical-Bernstein confidence
sequence (PrPl-EB) of Waudby-Smith & Ramdas (JRSSB 2024, Theorem 2), written by hand from the
paper and NOT from the TypeScript: the bounds are found as the roots in m of the log
supermartingale  sum_i [lambda_i (x_i - m) - v_i psi_E(lambda_i)] = log(1/alpha_side)  with
scipy.optimize.brentq (the paper's Ville-inequality derivation), instead of the closed form.

Run: /usr/bin/python3 tests/reference/sequential/eb_cs.py > tests/reference/sequential/eb_cs.json
"""
import json
import math

import numpy as np
from scipy.optimize import brentq


def prpl_eb(values, lo, hi, alpha, bound="two-sided", c=0.5, intersect=True):
    x = (np.asarray(values, dtype=float) - lo) / (hi - lo)
    L = math.log((2.0 if bound == "two-sided" else 1.0) / alpha)
    mu_prev, sig_prev = 0.5, 0.25
    lams, xs, pens = [], [], []
    sum_x, sum_sq = 0.0, 0.0
    run_lo, run_hi = 0.0, 1.0
    lowers, uppers = [], []
    for t, xt in enumerate(x, start=1):
        lam = min(math.sqrt(2 * L / (sig_prev * t * math.log(1 + t))), c)
        v = 4 * (xt - mu_prev) ** 2
        pen = v * (-math.log(1 - lam) - lam) / 4
        lams.append(lam); xs.append(xt); pens.append(pen)
        lam_a, x_a, pen_a = np.array(lams), np.array(xs), np.array(pens)

        # log M_t(m) for the upper-tail (m below the mean) and lower-tail supermartingales.
        def log_up(m):
            return float(np.sum(lam_a * (x_a - m) - pen_a)) - L

        def log_down(m):
            return float(np.sum(lam_a * (m - x_a) - pen_a)) - L

        # The lower bound: the m where log_up crosses 0 (log_up decreases in m).
        wide = 1e6
        lcb = brentq(log_up, -wide, wide, xtol=1e-14, rtol=1e-15, maxiter=500)
        ucb = brentq(log_down, -wide, wide, xtol=1e-14, rtol=1e-15, maxiter=500)
        lcb = 0.0 if bound == "upper" else max(0.0, lcb)
        ucb = 1.0 if bound == "lower" else min(1.0, ucb)
        if intersect:
            run_lo, run_hi = max(run_lo, lcb), min(run_hi, ucb)
        else:
            run_lo, run_hi = lcb, ucb
        lowers.append(lo + (hi - lo) * run_lo)
        uppers.append(lo + (hi - lo) * run_hi)

        sum_x += xt
        mu_t = (0.5 + sum_x) / (t + 1)
        sum_sq += (xt - mu_t) ** 2
        sig_prev = (0.25 + sum_sq) / (t + 1)
        mu_prev = mu_t
    return lowers, uppers


rng = np.random.default_rng(20240117)
cases = []

alternating = [float(i % 2) for i in range(400)]
cases.append(dict(name="alternating 0/1, [0,1], 95%", values=alternating, range=[0, 1], confidenceLevel=0.95, bound="two-sided", intersect=True))

u = rng.random(300)
paired = np.where(u < 0.2, 1.0, np.where(u < 0.3, -1.0, 0.0)).tolist()
cases.append(dict(name="paired 0/1 differences, [-1,1], 95%", values=paired, range=[-1, 1], confidenceLevel=0.95, bound="two-sided", intersect=True))
cases.append(dict(name="paired 0/1 differences, no intersection", values=paired, range=[-1, 1], confidenceLevel=0.95, bound="two-sided", intersect=False))

beta = rng.beta(2.0, 5.0, 200).tolist()
cases.append(dict(name="beta(2,5) values, [0,1], 90%", values=beta, range=[0, 1], confidenceLevel=0.90, bound="two-sided", intersect=True))

points = (rng.integers(0, 101, 150) - rng.integers(0, 101, 150)).astype(float).tolist()
cases.append(dict(name="points differences, [-100,100], one-sided lower, 99%", values=points, range=[-100, 100], confidenceLevel=0.99, bound="lower", intersect=True))
cases.append(dict(name="points differences, [-100,100], one-sided upper, 99%", values=points, range=[-100, 100], confidenceLevel=0.99, bound="upper", intersect=True))

for case in cases:
    lo, hi = case["range"]
    lowers, uppers = prpl_eb(case["values"], lo, hi, 1 - case["confidenceLevel"], case["bound"], 0.5, case["intersect"])
    case["lower"] = lowers
    case["upper"] = uppers

print(json.dumps(dict(
    source="tests/reference/sequential/eb_cs.py (numpy " + np.__version__ + ", scipy brentq roots of the log supermartingale)",
    truncation=0.5,
    cases=cases,
), indent=1))
