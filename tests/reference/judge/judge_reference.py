"""Reference values for benchplan judge (issue 30) from statsmodels / scipy.

HC3 robust SEs: statsmodels OLS(...).fit(cov_type="HC3"); Wilson: proportion_confint(method="wilson");
Cohen's kappa with its SE: statsmodels.stats.inter_rater.cohens_kappa (std_kappa); Pearson r with the
Fisher-z interval: scipy.stats.pearsonr(...).confidence_interval().
Run from the repository root: /usr/bin/python3 tests/reference/judge/judge_reference.py
Writes tests/reference/judge/judge-statsmodels.json.
"""
import csv
import json

import numpy as np
import statsmodels.api as sm
from scipy import stats
from statsmodels.stats.inter_rater import cohens_kappa
from statsmodels.stats.proportion import proportion_confint

rows = list(csv.DictReader(open("examples/judge-labels.csv")))
lab = [r for r in rows if r["score"] != ""]
human = np.array([float(r["score"]) for r in lab])
judge = np.array([float(r["judge"]) for r in lab])
length = np.array([float(r["length"]) for r in lab])
position = np.array([float(r["position"]) for r in lab])
self_ = np.array([1.0 if r["model"] == "gamma" else 0.0 for r in lab])
X = np.column_stack([np.ones(len(lab)), human, length, position, self_])
fit = sm.OLS(judge - human, X).fit(cov_type="HC3")

y2 = np.array([0, 1, -1, 0, 0, 1, 0, -1, 0, 1, 0, 0], dtype=float)
x2 = np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 30, 2, 1], dtype=float)
fit2 = sm.OLS(y2, sm.add_constant(x2)).fit(cov_type="HC3")


def kappa_of(j, h):
    table = np.zeros((2, 2))
    for a, b in zip(j, h):
        table[int(a), int(b)] += 1
    k = cohens_kappa(table)
    return {"n": int(len(j)), "kappa": float(k.kappa), "standardError": float(k.std_kappa)}


kappas = {"all": kappa_of(judge, human)}
for m in ["alpha", "beta", "gamma"]:
    idx = [i for i, r in enumerate(lab) if r["model"] == m]
    kappas[m] = kappa_of(judge[idx], human[idx])

acc = int((judge == human).sum())
g = length / 500 + human
pr = stats.pearsonr(g, human)
ci = pr.confidence_interval(0.95)
out = {
    "source": "statsmodels OLS fit(cov_type='HC3'), cohens_kappa, proportion_confint(method='wilson'); scipy pearsonr",
    "hc3Example": {"coefficients": fit.params.tolist(), "standardError": fit.bse.tolist(), "n": int(len(lab))},
    "hc3Small": {"coefficients": fit2.params.tolist(), "standardError": fit2.bse.tolist()},
    "kappa": kappas,
    "accuracyInterval": list(proportion_confint(acc, len(lab), alpha=0.05, method="wilson")),
    "pearson": {"estimate": float(pr.statistic), "confidenceInterval": [float(ci.low), float(ci.high)]},
}
json.dump(out, open("tests/reference/judge/judge-statsmodels.json", "w"), indent=2)
print(json.dumps(out["hc3Example"]))
