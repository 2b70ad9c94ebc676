"""Issue 13's side study: which interval fixes a mean's coverage on skewed data? numpy/scipy,
independent of the TypeScript code (run with /usr/bin/python3; never a test).

Part 1, lognormal differences (the coverage study's "skewed continuous" cell, skewness 6.2):
  t; Johnson (1978) skewness-shifted t; Hall (1992) cubic transformation as in Zhou & Dinh (2005);
  the studentized bootstrap (B = 999).
Part 2, the stratified mean with strata 70/20/7/3% of skewed differences (the "4 strata" cell):
  t with n − H df against t with Welch–Satterthwaite df, df = (Σ c_h)² / Σ c_h²/(n_h − 1),
  c_h = W_h² s_h² / n_h (the df R survey users get by hand; svymean's confint uses degf = n − H).
Usage: /usr/bin/python3 bench/skew-methods-study.py [REPS]   (output in bench/skew-methods-study.txt)
"""
import sys

import numpy as np
from scipy import stats

R = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
B = 999
rng = np.random.default_rng(1)


def t_ci(d):
    n = len(d); m = d.mean(); s = d.std(ddof=1); q = stats.t.ppf(0.975, n - 1)
    return m - q * s / np.sqrt(n), m + q * s / np.sqrt(n)


def johnson(d):
    n = len(d); m = d.mean(); s = d.std(ddof=1)
    mu3 = np.mean((d - m) ** 3) * n * n / ((n - 1) * (n - 2))
    q = stats.t.ppf(0.975, n - 1); shift = mu3 / (6 * s * s * n)
    return m + shift - q * s / np.sqrt(n), m + shift + q * s / np.sqrt(n)


def hall(d):
    n = len(d); m = d.mean(); s = d.std(ddof=1)
    g = np.mean((d - m) ** 3) / s ** 3 * n * n / ((n - 1) * (n - 2))
    z = stats.norm.ppf(0.975)
    inv = lambda t: (3 / g) * (np.cbrt(1 + g * (t - g / (6 * n))) - 1)
    return m - inv(z / np.sqrt(n)) * s, m - inv(-z / np.sqrt(n)) * s


def boot_t(d):
    n = len(d); m = d.mean(); s = d.std(ddof=1)
    x = d[rng.integers(0, n, (B, n))]
    T = (x.mean(1) - m) / (x.std(1, ddof=1) / np.sqrt(n))
    lo, hi = np.quantile(T, [0.025, 0.975])
    return m - hi * s / np.sqrt(n), m - lo * s / np.sqrt(n)


print(f"Part 1: lognormal(0, 1) differences, {R} replicates (MC SE about 0.008): coverage (mean width)")
for n in [10, 30, 100, 400]:
    methods = dict(t=t_ci, johnson=johnson, hall=hall, studentized=boot_t)
    cov = {k: 0 for k in methods}; wid = {k: 0.0 for k in methods}
    for _ in range(R):
        d = np.exp(rng.standard_normal(n)) - np.exp(0.5) + 0.1
        for k, f in methods.items():
            lo, hi = f(d); cov[k] += lo <= 0.1 <= hi; wid[k] += hi - lo
    print(f"  n = {n}: " + "; ".join(f"{k} {cov[k] / R:.3f} ({wid[k] / R:.2f})" for k in methods), flush=True)

print(f"Part 2: stratified mean, strata 70/20/7/3% (at least 2 items each), {4 * R} replicates (MC SE about 0.004)")
shares = [0.7, 0.2, 0.07, 0.03]; means = [0.02, 0.1, 0.3, -0.2]; sds = [0.3, 0.6, 1, 1.5]
for n in [30, 100, 400]:
    sizes = [max(2, round(s * n)) for s in shares]; N = sum(sizes); W = np.array(sizes) / N
    truth = sum(m * k for m, k in zip(means, sizes)) / N
    cov = {"t (n − H df)": 0, "t (Satterthwaite df)": 0}; wid = {k: 0.0 for k in cov}; dfs = []
    for _ in range(4 * R):
        est = 0.0; parts = []
        for h, m in enumerate(sizes):
            d = means[h] + sds[h] * (np.exp(rng.standard_normal(m)) - np.exp(0.5)) / 2.16
            est += W[h] * d.mean(); parts.append(W[h] ** 2 * d.var(ddof=1) / m)
        parts = np.array(parts); se = np.sqrt(parts.sum())
        df = parts.sum() ** 2 / np.sum(parts ** 2 / (np.array(sizes) - 1)); dfs.append(df)
        for k, dd in [("t (n − H df)", N - 4), ("t (Satterthwaite df)", df)]:
            q = stats.t.ppf(0.975, dd); cov[k] += est - q * se <= truth <= est + q * se; wid[k] += 2 * q * se
    print(f"  n = {n} {sizes}: " + "; ".join(f"{k} {cov[k] / (4 * R):.3f} ({wid[k] / (4 * R):.3f})" for k in cov) + f"; median Satterthwaite df {np.median(dfs):.1f}", flush=True)
