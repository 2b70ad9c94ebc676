"""statsmodels' side of the two "small disagreements" of issue 13 (item 4).

Run from the repository root with the Debian python3 (scipy + statsmodels):
    /usr/bin/python3 tests/reference/ties/ties.py > tests/reference/ties/statsmodels.json
McNemar: mcnemar(table, exact=False, correction=True), which subtracts 1 from |b - c| even when
b = c (statistic 1/(b + c)), unlike R; Cohen's kappa: cohens_kappa(table) at perfect agreement.
"""
import json
import warnings

import numpy as np
import statsmodels
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.inter_rater import cohens_kappa

warnings.simplefilter('ignore', RuntimeWarning)
out = {"generatedBy": "tests/reference/ties/ties.py", "statsmodels": statsmodels.__version__, "mcnemar": [], "cohenPerfect": []}
for b, c in [(7, 7), (1, 1), (20, 20), (3, 4), (1, 0)]:
    r = mcnemar([[40, b], [c, 25]], exact=False, correction=True)
    out["mcnemar"].append({"onlyA": b, "onlyB": c, "chiSquare": float(r.statistic), "chiSquarePValue": float(r.pvalue)})
for n, k in [(12, 5), (4, 2), (30, 3)]:
    labels = [(i * 7 + (i % 3)) % k for i in range(n)]
    table = np.zeros((k, k))
    for x in labels:
        table[x, x] += 1
    r = cohens_kappa(table)
    se = float(r.std_kappa)
    # var_kappa's cancellation can come out slightly negative, and then sqrt gives NaN (JSON null)
    out["cohenPerfect"].append({"n": n, "k": k, "kappa": float(r.kappa), "varKappa": float(r.var_kappa), "standardError": None if np.isnan(se) else se})
print(json.dumps(out))
