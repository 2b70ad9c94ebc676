"""Reference one-sided lower bounds for `benchplan gate --method t` on examples/scores.csv.

For candidate alpha vs baseline beta (and the reverse), overall and per stratum:
scipy.stats.ttest_rel(candidate, baseline, alternative='greater').confidence_interval(level).low
at levels 0.95 and 0.975, i.e. mean(d) - t(n-1, level) * sd(d, ddof=1) / sqrt(n).

Run: /usr/bin/python3 tests/reference/gate/t_bounds.py > tests/reference/gate/t_bounds.json
"""
import csv
import json
from collections import OrderedDict

import scipy
from scipy import stats

rows = list(csv.DictReader(open("examples/scores.csv", newline="")))
score = {}
stratum = OrderedDict()
for r in rows:
    score[(r["item"], r["model"])] = float(r["score"])
    stratum.setdefault(r["item"], r["stratum"])
items = list(stratum)


def bound(candidate, baseline, keep, level):
    c = [score[(i, candidate)] for i in items if keep(i)]
    b = [score[(i, baseline)] for i in items if keep(i)]
    res = stats.ttest_rel(c, b, alternative="greater")
    return {"n": len(c), "estimate": sum(x - y for x, y in zip(c, b)) / len(c), "lowerBound": float(res.confidence_interval(level).low)}


out = {"scipy": scipy.__version__, "cases": []}
strata = list(OrderedDict.fromkeys(stratum.values()))
for candidate, baseline in [("alpha", "beta"), ("beta", "alpha")]:
    for level in [0.95, 0.975]:
        case = {"candidate": candidate, "baseline": baseline, "confidenceLevel": level, "overall": bound(candidate, baseline, lambda i: True, level), "strata": {}}
        for h in strata:
            case["strata"][h] = bound(candidate, baseline, lambda i, h=h: stratum[i] == h, level)
        out["cases"].append(case)
print(json.dumps(out, indent=2))
