"""Reference values for the one-sided rule on bounded scores (bench/comet-gate-rules.txt, R4, adopted):
a one-sided t bound on scores in [0, 1] (no strata, no clusters) is the end of scipy's two-sided
ttest_rel interval at the same level, with p = min(1, 2 x the one-sided t test's p); on scores that leave
[0, 1] (and are not skewed toward the bound) the one-sided bound is scipy's one-sided ttest_rel interval.
Samples are drawn here with numpy (their own seeds), so they are not the library's.
Run (any Python with numpy and scipy, e.g. .venv-peers/bin/python after npm run peers): python tests/reference/gate-interval-end/interval_end.py > tests/reference/gate-interval-end/interval_end.json"""
import json
import numpy as np
import scipy
from scipy.stats import ttest_rel, skew

rng = np.random.default_rng(20261202)
cases = []
for n in (8, 12, 30, 100, 400):
    for level in (0.9, 0.95, 0.99):
        for kind in ("unit", "wide"):
            while True:
                if kind == "unit":
                    q = rng.uniform(0.2, 0.8, n)
                    b = np.clip(q + rng.normal(0, 0.1, n), 0, 1)
                    a = np.clip(q + 0.02 + rng.normal(0, 0.1, n), 0, 1)
                else:
                    b = rng.normal(50, 10, n)
                    a = b + rng.normal(1, 4, n)
                d = a - b
                g1 = skew(d, bias=False)
                # the library's Cochran screen (n > 25 G1^2) must pass, so the t branch is the one taken
                if n > 25 * g1 * g1:
                    break
            for alternative in ("greater", "less"):
                one = ttest_rel(a, b, alternative=alternative)
                if kind == "unit":
                    two = ttest_rel(a, b).confidence_interval(level)
                    bound = two.low if alternative == "greater" else two.high
                    p = min(1.0, 2 * one.pvalue)
                else:
                    ci = one.confidence_interval(level)
                    bound = ci.low if alternative == "greater" else ci.high
                    p = one.pvalue
                cases.append({"n": n, "confidenceLevel": level, "kind": kind, "alternative": alternative,
                              "a": a.tolist(), "b": b.tolist(), "g1": float(g1), "bound": float(bound), "pValue": float(p)})
print(json.dumps({"scipy": scipy.__version__, "numpy": np.__version__, "cases": cases}, indent=1))
