"""Reference values for tests/random/binomial.test.ts from scipy 1.10.

Run: /usr/bin/python3 tests/reference/random/binomial_reference.py
Writes tests/reference/random/binomial.json. The tests read the JSON; they never run Python.

- pmf: scipy.stats.binom.pmf(k, n, p) for k in [lo, hi], the range outside of which the pmf
  is below 1e-15 on either side (the tests pool the tails into the end cells), for cases in both
  regimes of benchplan's sampler: inversion (n * min(p, 1 - p) < 10) and BTRS (>= 10).
- logFactorial: scipy.special.gammaln(k + 1) for k on both sides of the table / Stirling switch.
"""
import json
import os

import numpy as np
import scipy
from scipy import special, stats

cases = [
    # inversion: n * min(p, 1 - p) < 10
    (1, 0.5), (7, 0.3), (20, 0.3), (1000, 0.005), (15, 0.9), (40, 0.2499),
    # BTRS: n * min(p, 1 - p) >= 10
    (25, 0.4), (50, 0.4), (100, 0.85), (1000, 0.5), (10000, 0.02), (200, 0.05), (1000000, 0.3),
]
out = {"scipy": scipy.__version__, "pmf": [], "logFactorial": []}
for n, p in cases:
    mean, sd = n * p, np.sqrt(n * p * (1 - p))
    lo = max(0, int(np.floor(mean - 12 * sd - 20)))
    hi = min(n, int(np.ceil(mean + 12 * sd + 20)))
    ks = np.arange(lo, hi + 1)
    pmf = stats.binom.pmf(ks, n, p)
    keep = np.nonzero(pmf >= 1e-15)[0]
    ks, pmf = ks[keep[0]: keep[-1] + 1], pmf[keep[0]: keep[-1] + 1]
    out["pmf"].append({"n": n, "p": p, "lo": int(ks[0]), "pmf": [float(x) for x in pmf]})
for k in [0, 1, 2, 10, 20, 100, 127, 128, 129, 200, 1000, 12345, 10**6, 10**9]:
    out["logFactorial"].append({"k": k, "value": float(special.gammaln(k + 1))})
with open(os.path.join(os.path.dirname(__file__), "binomial.json"), "w") as fh:
    json.dump(out, fh)
print("wrote binomial.json", sum(len(c["pmf"]) for c in out["pmf"]), "pmf values")
