#!/usr/bin/python3
"""Reference Wilson score intervals for tests/costs/wilson.test.ts.

Run: /usr/bin/python3 tests/reference/costs/wilson.py > tests/reference/costs/wilson-statsmodels.json
statsmodels 0.13: proportion_confint(count, nobs, alpha=1 - level, method='wilson').
"""
import json
import statsmodels
from statsmodels.stats.proportion import proportion_confint

# (successes, trials, confidence level): small denominators (seeds/000: 11 absent slots),
# the bundled example's counts, the edges 0 and n, and large n.
CASES = [
    (0, 11, 0.95), (1, 11, 0.95), (4, 11, 0.95), (11, 11, 0.95),
    (6, 100, 0.95), (1, 100, 0.95), (10, 100, 0.95),
    (259, 286, 0.95), (193, 283, 0.95), (259, 279, 0.95),
    (0, 1, 0.95), (1, 1, 0.95), (1, 2, 0.9), (3, 7, 0.8), (5, 20, 0.99),
    (500, 1000, 0.95), (9999, 10000, 0.95), (37, 64, 0.5),
]

out = {
    "source": "statsmodels %s proportion_confint(method='wilson')" % statsmodels.__version__,
    "cases": [],
}
for x, n, level in CASES:
    low, high = proportion_confint(x, n, alpha=1 - level, method="wilson")
    out["cases"].append({"successes": x, "trials": n, "confidenceLevel": level, "interval": [float(low), float(high)]})
print(json.dumps(out, indent=2))
