"""Reference values for src/paired/betting-interval.ts (the fixed-n hedged betting interval of
Waudby-Smith & Ramdas, JRSSB 2024, section 4 hedged capital, fixed-n bets
lambda_i = sqrt(2 log(2/alpha) / (n sigma^2_{i-1})), truncated at c/m and c/(1-m)), written by hand
from the paper with numpy and vectorised over the grid of candidate means (the TypeScript loops over
candidates), values bet on in the order given; and for src/paired/skewness.ts, scipy's
stats.skew(bias=False).

Bounds are reported the conservative grid way: the grid point just outside the smallest and largest
candidate mean never rejected (0 or 1 at the ends), mapped back to the range.

Run: /usr/bin/python3 tests/reference/skewed-intervals/betting_interval.py > tests/reference/skewed-intervals/betting_interval.json
"""
import json
import math

import numpy as np
import scipy
from scipy import stats


def betting_ci(values, lo, hi, level, alternative="two-sided", c=0.75, G=2000):
    x = (np.asarray(values, dtype=float) - lo) / (hi - lo)
    n = len(x)
    alpha = 1 - level
    L = math.log((2.0 if alternative == "two-sided" else 1.0) / alpha)
    # predictable plug-in variance: sigma^2_0 = 1/4; sigma^2_i = (1/4 + sum_{j<=i} (x_j - mu_j)^2)/(i+1),
    # mu_j = (1/2 + sum_{k<=j} x_k)/(j+1)  (j, i 1-based)
    idx = np.arange(1, n + 1)
    mu = (0.5 + np.cumsum(x)) / (idx + 1)
    sig = np.concatenate([[0.25], (0.25 + np.cumsum((x - mu) ** 2)) / (idx + 1)])[:n]
    lam = np.sqrt(2 * L / (n * sig))
    m = (np.arange(G) + 0.5) / G
    rejected = np.zeros(G, dtype=bool)
    if alternative != "less":
        up = np.cumsum(np.log1p(np.minimum(lam[:, None], c / m[None, :]) * (x[:, None] - m[None, :])), axis=0)
        rejected |= np.any(up >= L, axis=0)
    if alternative != "greater":
        down = np.cumsum(np.log1p(-np.minimum(lam[:, None], c / (1 - m[None, :])) * (x[:, None] - m[None, :])), axis=0)
        rejected |= np.any(down >= L, axis=0)
    alive = np.flatnonzero(~rejected)
    j0, j1 = alive[0], alive[-1]
    lx = 0.0 if j0 == 0 else m[j0 - 1]
    ux = 1.0 if j1 == G - 1 else m[j1 + 1]
    low, high = lo + (hi - lo) * lx, lo + (hi - lo) * ux
    if alternative == "greater":
        high = hi
    if alternative == "less":
        low = lo
    return [float(low), float(high)]


rng = np.random.default_rng(20261201)
skewed = np.where(rng.uniform(size=30) < 0.1, 1.0, 0.0) - np.where(rng.uniform(size=30) < 0.15, rng.uniform(size=30) * 0.5, 0.0)
rare_losses = [round(5 - 0.3 * (math.exp(stats.norm.ppf((i + 0.5) / 30)) - math.exp(0.5)) / 2.16, 4) - 5 for i in range(30)]
cases = [
    dict(name="ten zeros on [-1, 1]", values=[0.0] * 10, range=[-1, 1], confidenceLevel=0.95, alternative="two-sided"),
    dict(name="ten zeros, one-sided lower bound", values=[0.0] * 10, range=[-1, 1], confidenceLevel=0.95, alternative="greater"),
    dict(name="skewed bounded differences, n = 30", values=[float(v) for v in skewed], range=[-1, 1], confidenceLevel=0.95, alternative="two-sided"),
    dict(name="skewed bounded differences, n = 30, 90% upper bound", values=[float(v) for v in skewed], range=[-1, 1], confidenceLevel=0.9, alternative="less"),
    dict(name="alternating 0/1 on [0, 1], n = 100", values=[float(i % 2) for i in range(100)], range=[0, 1], confidenceLevel=0.95, alternative="two-sided"),
    dict(name="uniform [0, 1] scores, n = 50", values=[float(v) for v in rng.uniform(size=50)], range=[0, 1], confidenceLevel=0.95, alternative="two-sided"),
    # examples/rare-losses.csv: marks out of 10 (a declared --score-range 1,10, so differences in [-9, 9]),
    # pr - main = the (i + 1/2)/30 quantiles of -0.3 x a standardised lognormal, as written to 4 decimals
    dict(name="rare losses on a 1-10 scale, differences in [-9, 9], one-sided lower bound", values=rare_losses, range=[-9, 9], confidenceLevel=0.95, alternative="greater"),
]
for case in cases:
    case["interval"] = betting_ci(case["values"], case["range"][0], case["range"][1], case["confidenceLevel"], case["alternative"])

skew_cases = [[1.0, 2.0, 3.0, 10.0], [float(v) for v in skewed], [float(v) for v in np.exp(rng.standard_normal(25))], [0.5, -0.5, 0.25, -0.25, 0.0], rare_losses]
skewness = [dict(values=v, skewness=float(stats.skew(v, bias=False))) for v in skew_cases]

print(json.dumps(dict(numpy=np.__version__, scipy=scipy.__version__, betting=cases, skewness=skewness), indent=1))
