"""Issue 13's lognormal cell at n = 10: which samples does the studentized bootstrap miss on? numpy,
independent of the TypeScript code (run with /usr/bin/python3; never a test).

The coverage study's "skewed continuous" cell (differences exp(Z) − e^0.5 + 0.1, Z ~ N(0, 1), skewness
6.2, truth 0.1), n = 10, the equal-tailed studentized bootstrap (B = 999). Each replicate's sample
skewness G1 is recorded with whether the interval covered and on which side it missed; coverage is
then broken down by G1. The question: could a screen on the sample (auto's Cochran rule n > 25·G1²,
or any rule that declines to give an interval on some samples) catch the misses?
Usage: /usr/bin/python3 bench/skew-miss-anatomy.py [REPS]   (output in bench/skew-miss-anatomy.txt)
"""
import sys

import numpy as np

R = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
B = 999
n = 10
truth = 0.1
rng = np.random.default_rng(13)

rows = []
for r in range(R):
    d = np.exp(rng.normal(size=n)) - np.exp(0.5) + 0.1
    m = d.mean()
    se = d.std(ddof=1) / np.sqrt(n)
    x = d[rng.integers(0, n, size=(B, n))]
    ms = x.mean(1)
    ss = x.std(1, ddof=1) / np.sqrt(n)
    ok = ss > 0
    t = (ms[ok] - m) / ss[ok]
    lo = m - np.quantile(t, 0.975) * se
    hi = m - np.quantile(t, 0.025) * se
    g1 = np.mean((d - m) ** 3) / np.mean((d - m) ** 2) ** 1.5
    rows.append((g1, lo <= truth <= hi, truth > hi, truth < lo))
a = np.array(rows, dtype=float)
mc = lambda c, k: np.sqrt(max(c * (1 - c), 0.05 * 0.95) / k)
c = a[:, 1].mean()
print(f"lognormal differences, n = {n}, {R} replicates, studentized bootstrap B = {B}")
print(f"coverage {c:.3f} ± {mc(c, R):.3f}; misses with the truth above the interval {a[:, 2].mean():.3f}, below {a[:, 3].mean():.3f}")
print("sample skewness G1 | share of samples | coverage ± MC error")
for lo, hi in [(-np.inf, 0.632), (0.632, 1.0), (1.0, 1.5), (1.5, 2.0), (2.0, np.inf)]:
    sel = (a[:, 0] >= lo) & (a[:, 0] < hi)
    k = int(sel.sum())
    cov = a[sel, 1].mean()
    label = f"[{lo:.3g}, {hi:.3g})".replace("-inf", "−∞").replace("inf", "∞")
    print(f"{label:>16} | {k / R:.3f} | {cov:.3f} ± {mc(cov, k):.3f}")
print("G1 < 0.632 is n ≥ 25·G1² at n = 10: the samples Cochran's rule calls safe.")
