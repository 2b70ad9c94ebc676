"""Reference values for power sizing (src/sizing/power.ts) from statsmodels and scipy.

Paired t-test power = statsmodels one-sample TTestPower on the per-item differences, with
effect size d = mde / sd (sd of the differences), df = n - 1, noncentrality d * sqrt(n).

For each case:
  solvePower  = TTestPower().solve_power(effect_size=d, nobs=None, alpha=alpha, power=power, alternative=alt)
                (statsmodels' own root finder: brentq_expanding with xtol = 1e-5)
  nExact      = scipy.optimize.brentq on TTestPower().power(d, n, alpha, alternative) - power,
                xtol = 1e-13: the same power function solved tightly, the value to match to 1e-6
  nNormal     = ((norm.ppf(1 - alpha/2) + norm.ppf(power)) / d)**2 (two-sided; 1 - alpha one-sided)
For the inverse (the effect a budget resolves):
  effectAtBudget = brentq on TTestPower().power(d, nobs, alpha, alternative) - power over d, xtol = 1e-14
  solvePowerEffect = TTestPower().solve_power(effect_size=None, nobs=nobs, alpha=alpha, power=power)

Run: /usr/bin/python3 tests/reference/sizing/power.py > tests/reference/sizing/power.json
"""
import json
import warnings

import scipy
import statsmodels
from scipy import optimize, stats
from statsmodels.stats.power import TTestPower

warnings.simplefilter("ignore")
tt = TTestPower()

# (label, d, alpha, power, alternative); alternative in statsmodels' names
cases = [
    ("chapter mde 5", 5 / 428.9 ** 0.5, 0.05, 0.8, "two-sided"),
    ("chapter mde 2", 2 / 428.9 ** 0.5, 0.05, 0.8, "two-sided"),
    ("examples/pilot.csv mde 5", 5 / 244.1462025316455 ** 0.5, 0.05, 0.8, "two-sided"),
    ("medium effect, 90%", 0.5, 0.05, 0.9, "two-sided"),
    ("large effect, alpha 1%", 0.8, 0.01, 0.8, "two-sided"),
    ("small effect, one-sided", 0.3, 0.1, 0.95, "larger"),
    ("tiny effect", 0.05, 0.05, 0.8, "two-sided"),
    ("very large effect", 1.2, 0.05, 0.8, "two-sided"),
    ("one-sided, 80%", 0.25, 0.05, 0.8, "larger"),
    ("alpha 10%, 50% power", 0.4, 0.1, 0.5, "two-sided"),
]
budgets = [
    ("chapter variance at 400 items", 400, 0.05, 0.8, "two-sided"),
    ("a pilot of 80", 80, 0.05, 0.8, "two-sided"),
    ("30 items, 90%, one-sided", 30, 0.05, 0.9, "larger"),
    ("2000 items", 2000, 0.01, 0.95, "two-sided"),
]


def z_sum(alpha, power, alternative):
    z_alpha = stats.norm.ppf(1 - alpha / 2) if alternative == "two-sided" else stats.norm.ppf(1 - alpha)
    return z_alpha + stats.norm.ppf(power)


out_cases = []
for label, d, alpha, power, alt in cases:
    f = lambda n: tt.power(effect_size=d, nobs=n, alpha=alpha, alternative=alt) - power
    n_exact = optimize.brentq(f, 2, 1e7, xtol=1e-13, rtol=8.9e-16, maxiter=500)
    out_cases.append({
        "label": label, "effectSize": d, "alpha": alpha, "power": power,
        "alternative": "two-sided" if alt == "two-sided" else "greater",
        "solvePower": float(tt.solve_power(effect_size=d, nobs=None, alpha=alpha, power=power, alternative=alt)),
        "nExact": n_exact,
        "powerAtCeil": float(tt.power(effect_size=d, nobs=float(-(-n_exact // 1)), alpha=alpha, alternative=alt)),
        "nNormal": (z_sum(alpha, power, alt) / d) ** 2,
    })

out_budgets = []
for label, nobs, alpha, power, alt in budgets:
    g = lambda d: tt.power(effect_size=d, nobs=nobs, alpha=alpha, alternative=alt) - power
    out_budgets.append({
        "label": label, "nobs": nobs, "alpha": alpha, "power": power,
        "alternative": "two-sided" if alt == "two-sided" else "greater",
        "effectAtBudget": optimize.brentq(g, 1e-6, 20, xtol=1e-14, rtol=8.9e-16, maxiter=500),
        "solvePowerEffect": float(tt.solve_power(effect_size=None, nobs=nobs, alpha=alpha, power=power, alternative=alt)),
    })

# Power itself at a few (d, n), to check the power function directly.
power_points = [
    {"effectSize": d, "nobs": n, "alpha": a, "alternative": "two-sided" if alt == "two-sided" else "greater",
     "power": float(tt.power(effect_size=d, nobs=n, alpha=a, alternative=alt))}
    for (d, n, a, alt) in [(0.2414304, 136.5882, 0.05, "two-sided"), (0.5, 10, 0.05, "two-sided"), (0.5, 10.5, 0.05, "larger"),
                           (0.1, 2.5, 0.05, "two-sided"), (1.5, 4, 0.01, "two-sided"), (0.05, 3000, 0.05, "two-sided")]
]

print(json.dumps({
    "generator": "tests/reference/sizing/power.py",
    "scipy": scipy.__version__, "statsmodels": statsmodels.__version__,
    "cases": out_cases, "budgets": out_budgets, "powerPoints": power_points,
}, indent=1))
