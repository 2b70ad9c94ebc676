"""Reference values for gateBlindSpot (src/gate/blind-spot.ts), from scipy by a different route:
the share is the root in f of binom.pmf(0, n, f) = alpha (brentq), and the units to rule out are
found by scanning n upward until binom.pmf(0, n, margin / width) < alpha.
Run: /usr/bin/python3 tests/reference/gate-blind-spot/blind_spot.py > tests/reference/gate-blind-spot/blind_spot.json"""
import json
import scipy
from scipy.stats import binom
from scipy.optimize import brentq

cases = []
for units in (1, 2, 5, 10, 30, 58, 59, 100, 400):
    for width, margin in ((1, 0.05), (1, 0.02), (1, 0.2), (9, 0.5), (2, 0.05)):
        for level in (0.9, 0.95, 0.99):
            alpha = 1 - level
            share = brentq(lambda f: binom.pmf(0, units, f) - alpha, 1e-15, 1 - 1e-15, xtol=1e-16, rtol=1e-15)
            blind = share * width >= margin
            n = 1
            while binom.pmf(0, n, margin / width) >= alpha:
                n += 1
            cases.append({"units": units, "width": width, "margin": margin, "confidenceLevel": level,
                          "blind": bool(blind), "share": share, "maxHiddenDrop": share * width, "unitsToRuleOut": n})
print(json.dumps({"scipy": scipy.__version__, "cases": cases}, indent=1))
