"""Reference values for sizeFromPilot and its parts, computed independently with numpy/scipy.

1. examples/pilot.csv (SYNTHETIC), candidate - baseline: the variance of differences, the
   interval-width count, the chi-square interval of the variance and nUpper, per-stratum
   variances and counts, and the plan of examples/strata.yaml at a budget of 400.
2. tests/reference/sizing/pilot-repeats.csv, written here from a seeded numpy generator
   (SYNTHETIC: 60 items x 2 models x 4 repeats of a 0/1 score): Miller's (2024) split of the
   variance of differences into between-item and within-item parts, and n by K repeats.

Run: /usr/bin/python3 tests/reference/sizing/pilot.py > tests/reference/sizing/pilot.json
"""
import json
import math
import os

import numpy as np
import pandas as pd
import yaml
from scipy import stats
from statsmodels.stats.power import TTestPower

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.abspath(os.path.join(here, "..", "..", ".."))
z = stats.norm.ppf(0.975)
alpha, power, mde = 0.05, 0.8, 5.0


def ceil_count(x):
    r = round(x)
    return r if abs(x - r) <= 1e-12 * max(1, r) else math.ceil(x)


def n_interval(v, gap=mde):
    return ceil_count(v * (2 * z / gap) ** 2)


def n_power(v, gap=mde):
    return ceil_count(TTestPower().solve_power(effect_size=gap / math.sqrt(v), nobs=None, alpha=alpha, power=power))


def chi_interval(v, df):
    return [df * v / stats.chi2.ppf(0.975, df), df * v / stats.chi2.ppf(0.025, df)]


# 1. the bundled pilot
pilot = pd.read_csv(os.path.join(root, "examples", "pilot.csv"))
wide = pilot.pivot(index="item", columns="model", values="score")
stratum = pilot.groupby("item").stratum.first()
d = (wide["candidate"] - wide["baseline"]).loc[pilot.item.unique()]  # file order
v = d.var(ddof=1)
lo, hi = chi_interval(v, len(d) - 1)
per = []
for name in pilot.stratum.unique():
    dh = d[stratum.loc[d.index] == name]
    vh = dh.var(ddof=1)
    per.append({"stratum": name, "pilotItems": int(len(dh)), "meanDifference": dh.mean(), "varianceOfDifference": vh,
                "varianceInterval": chi_interval(vh, len(dh) - 1), "n": n_interval(vh), "nForPower": n_power(vh),
                "nUpper": n_interval(chi_interval(vh, len(dh) - 1)[1])})
with open(os.path.join(root, "examples", "strata.yaml")) as f:
    spec = yaml.safe_load(f)["strata"]
budget = 400
q = {k: s["quota"] for k, s in spec.items()}
t = {k: s["traffic"] for k, s in spec.items()}
var_h = {p["stratum"]: p["varianceOfDifference"] for p in per}
share_h = {p["stratum"]: p["pilotItems"] / len(d) for p in per}
quota_per_item = sum(q[h] * var_h[h] for h in spec)             # Σ q s²
traffic_per_item = sum(t[h] ** 2 * var_h[h] / q[h] for h in spec)  # Σ t² s² / q
plan = {
    "budget": budget,
    "quotaPerItemVariance": quota_per_item,
    "quotaN": n_interval(quota_per_item),
    "quotaVarianceAtBudget": sum(q[h] ** 2 * var_h[h] / (q[h] * budget) for h in spec),
    "trafficPerItemVariance": traffic_per_item,
    "trafficN": n_interval(traffic_per_item),
    "trafficVarianceAtBudget": sum(t[h] ** 2 * var_h[h] / (q[h] * budget) for h in spec),
    "pilotMixDistance": 0.5 * sum(abs(share_h[h] - q[h]) for h in spec),
}
bundled = {
    "pilotItems": int(len(d)), "meanDifference": d.mean(), "varianceOfDifference": v,
    "nExact": v * (2 * z / mde) ** 2, "n": n_interval(v),
    "nForPowerExact": TTestPower().solve_power(effect_size=mde / math.sqrt(v), nobs=None, alpha=alpha, power=power),
    "varianceInterval": [lo, hi], "nUpper": n_interval(hi),
    "mdeAtBudget": 2 * z * math.sqrt(v / budget),
    "strata": per, "plan": plan,
}

# 2. a pilot with repeats (SYNTHETIC)
rng = np.random.default_rng(20240611)
items, K = 60, 4
p_b = rng.beta(2, 2, size=items)                           # baseline's chance on each item
p_a = np.clip(p_b + rng.normal(0.06, 0.15, size=items), 0.02, 0.98)
rows = []
for i in range(items):
    for model, p in (("baseline", p_b[i]), ("candidate", p_a[i])):
        for k in range(K):
            rows.append({"item": f"r{i + 1:03d}", "model": model, "repeat": k + 1, "score": int(rng.random() < p)})
rep = pd.DataFrame(rows)
rep.to_csv(os.path.join(here, "pilot-repeats.csv"), index=False)
g = rep.groupby(["item", "model"]).score
mean = g.mean().unstack()
within = g.var(ddof=1).unstack()
dd = mean["candidate"] - mean["baseline"]
v_rep = dd.var(ddof=1)
sA, sB = within["candidate"].mean(), within["baseline"].mean()
noise = (sA + sB) / K
between = v_rep - noise
by_k = [{"repeats": k, "perItemVariance": between + (sA + sB) / k, "n": n_interval(between + (sA + sB) / k, 0.2),
         "nForPower": n_power(between + (sA + sB) / k, 0.2)} for k in (1, 2, 3, 4, 5, 10)]
repeats = {
    "file": "tests/reference/sizing/pilot-repeats.csv", "mde": 0.2, "varianceOfDifference": v_rep,
    "withinVarianceA": sA, "withinVarianceB": sB, "withinVarianceOfDifference": noise, "betweenItemVariance": between,
    "byRepeats": by_k, "nLimit": n_interval(between, 0.2),
}

print(json.dumps({"generator": "tests/reference/sizing/pilot.py", "bundled": bundled, "repeats": repeats}, indent=1))
