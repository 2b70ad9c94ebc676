"""Reference values for tests/bootstrap from scipy 1.10 / numpy / statsmodels / mpmath.

Run: /usr/bin/python3 tests/reference/bootstrap/scipy_reference.py
Writes tests/reference/bootstrap/scipy.json (compact). The tests read the JSON; they never run Python.

Same-resamples cases: numpy draws the resample indices with
    np.random.default_rng(seed).integers(0, n, (B, n))
which is exactly what scipy.stats.bootstrap(..., paired=True, random_state=default_rng(seed))
draws internally (one batch; `_bootstrap_resample` calls rng.integers(0, n, (n_resamples, n))).
The script checks that by recomputing scipy's bootstrap_distribution from the stored indices,
then stores the indices so benchplan can compute its intervals from the very same resamples.
scipy 1.10 has no `alternative`; a one-sided interval at level L equals one end of the two-sided
interval at level 2L - 1 (alpha = 1 - L either way), which is what is stored for one-sided cases.
"""
import json
import os

import mpmath
import numpy as np
import scipy
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar

out = {"scipy": scipy.__version__, "numpy": np.__version__}


def mean_diff(a, b, axis=-1):
    return np.mean(a - b, axis=axis)


def same_resamples(name, a, b, seed, B):
    a = np.asarray(a, float)
    b = np.asarray(b, float)
    n = len(a)
    idx = np.random.default_rng(seed).integers(0, n, (B, n))
    case = {"name": name, "a": a.tolist(), "b": b.tolist(), "nResamples": B,
            "indices": idx.ravel().tolist(), "intervals": []}
    for method in ["percentile", "basic", "BCa"]:
        for level, alternative in [(0.95, "two-sided"), (0.9, "two-sided"), (0.8, "two-sided"),
                                   (0.95, "less"), (0.95, "greater")]:
            two_sided_level = level if alternative == "two-sided" else 2 * level - 1
            res = stats.bootstrap((a, b), mean_diff, vectorized=True, paired=True,
                                  n_resamples=B, method=method,
                                  confidence_level=two_sided_level,
                                  random_state=np.random.default_rng(seed))
            # the stored indices are scipy's resamples
            mine = np.mean(a[idx] - b[idx], axis=-1)
            assert np.allclose(mine, res.bootstrap_distribution, rtol=0, atol=1e-13), name
            low, high = res.confidence_interval
            if alternative == "less":
                low = None  # -inf
            elif alternative == "greater":
                high = None  # +inf
            case["intervals"].append({
                "method": method.lower(), "confidenceLevel": level, "alternative": alternative,
                "interval": [low if low is None else float(low), high if high is None else float(high)],
                "standardError": float(res.standard_error)})
    return case


rng = np.random.default_rng(20240611)
cases = []
# continuous, skewed differences: no resample mean equals the estimate
a1 = np.round(rng.lognormal(0.0, 0.8, 10), 6)
b1 = np.round(rng.lognormal(-0.2, 0.8, 10), 6)
cases.append(same_resamples("lognormal n=10", a1, b1, seed=12345, B=2000))
# 0/1 outcomes: differences in {-1, 0, 1}, so resample means tie with the estimate (tie splitting)
a2 = (rng.random(16) < 0.7).astype(float)
b2 = (rng.random(16) < 0.5).astype(float)
cases.append(same_resamples("binary n=16", a2, b2, seed=777, B=2000))
out["sameResamples"] = cases

# scipy's own comparison with R boot (test_bootstrap_against_R): values quoted from scipy's test file
out["scipyAgainstR"] = {
    "x": [10, 12, 12.5, 12.5, 13.9, 15, 21, 22, 23, 34, 50, 81, 89, 121, 134, 213],
    "expected": {"basic": [23.77, 79.12], "percentile": [28.86, 84.21], "bca": [32.31, 91.43]},
    "rtol": 0.005,
    "source": "scipy/stats/tests/test_resampling.py::test_bootstrap_against_R (R: boot(x, stat, 1000000); boot.ci)",
}

# t interval: scipy ttest_rel(a, b, alternative).confidence_interval(level); t quantiles to 30 digits by mpmath
tcases = []
for n, seed in [(10, 1), (30, 2), (101, 3)]:
    r = np.random.default_rng(seed)
    a = np.round(r.normal(0.7, 0.25, n), 6)
    b = np.round(a - r.normal(0.05, 0.2, n), 6)
    for level in [0.95, 0.9]:
        for alternative in ["two-sided", "less", "greater"]:
            res = stats.ttest_rel(a, b, alternative=alternative)
            ci = res.confidence_interval(confidence_level=level)
            # the same interval with the t quantile to 40 digits (mpmath), and scipy's quantile error
            d = a - b
            se = d.std(ddof=1) / np.sqrt(n)
            upper = level if alternative != "two-sided" else (1 + level) / 2
            mpmath.mp.dps = 40
            df = n - 1
            f = lambda x: mpmath.betainc(df / 2.0, 0.5, 0, df / (df + x * x), regularized=True) / 2 - (1 - mpmath.mpf(upper))
            q = mpmath.findroot(f, float(stats.t.ppf(upper, df)))
            half = mpmath.mpf(float(se)) * q
            m = mpmath.mpf(float(d.mean()))
            exact = [float(m - half), float(m + half)]
            if alternative == "less":
                exact[0] = None
            elif alternative == "greater":
                exact[1] = None
            tcases.append({"a": a.tolist(), "b": b.tolist(), "confidenceLevel": level,
                           "alternative": alternative, "mpmathInterval": exact,
                           "scipyQuantileError": float(stats.t.ppf(upper, df) - q),
                           "standardError": float(se),
                           "interval": [None if not np.isfinite(ci.low) else float(ci.low),
                                        None if not np.isfinite(ci.high) else float(ci.high)],
                           "tStatistic": float(res.statistic), "pValue": float(res.pvalue),
                           "df": int(res.df)})
out["tInterval"] = tcases

mpmath.mp.dps = 40
quantiles = []
for df in [1, 2, 3, 5, 9, 29, 100, 1000]:
    for p in [0.9, 0.95, 0.975, 0.995]:
        f = lambda x: mpmath.betainc(df / 2.0, 0.5, 0, df / (df + x * x), regularized=True) / 2 - (1 - mpmath.mpf(p))
        x = mpmath.findroot(f, float(stats.t.ppf(p, df)))
        quantiles.append({"df": df, "p": p, "quantile": float(x), "scipy": float(stats.t.ppf(p, df))})
out["tQuantiles"] = quantiles
out["normal"] = [{"p": p, "quantile": float(mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf(p) - 1)),
                  "scipy": float(scipy.special.ndtri(p))}
                 for p in [1e-12, 1e-6, 0.001, 0.0125, 0.025, 0.05, 0.3, 0.5, 0.8, 0.975, 0.999]]
out["normalCdf"] = [{"z": z, "cdf": float(mpmath.ncdf(z))} for z in [-12, -6, -3, -2.5, -1.96, -1, -0.3, 0, 0.3, 1, 1.96, 2.5, 3, 6]]

# McNemar: statsmodels exact and chi-square (corrected and not)
mc = []
for b, c in [(15, 5), (5, 15), (0, 3), (3, 0), (30, 12), (7, 7), (1, 0), (120, 95)]:
    table = [[40, b], [c, 25]]
    exact = mcnemar(table, exact=True)
    corrected = mcnemar(table, exact=False, correction=True)
    plain = mcnemar(table, exact=False, correction=False)
    mc.append({"onlyA": b, "onlyB": c, "exactPValue": float(exact.pvalue),
               "chiSquare": float(corrected.statistic), "chiSquarePValue": float(corrected.pvalue),
               "chiSquarePlain": float(plain.statistic), "chiSquarePlainPValue": float(plain.pvalue)})
out["mcnemar"] = mc

# sign-flip: scipy.stats.permutation_test((d,), mean, permutation_type='samples') flips signs; exact for n <= 12
sf = []
r = np.random.default_rng(5)
for n in [6, 10, 12]:
    d = np.round(r.normal(0.3, 1.0, n), 4)
    for alternative in ["two-sided", "greater", "less"]:
        res = stats.permutation_test((d,), lambda x, axis: np.mean(x, axis=axis), vectorized=True,
                                     permutation_type="samples", n_resamples=np.inf,
                                     alternative=alternative)
        sf.append({"d": d.tolist(), "alternative": alternative, "pValue": float(res.pvalue),
                   "statistic": float(res.statistic)})
out["signFlip"] = sf

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scipy.json")
with open(path, "w") as fh:
    json.dump(out, fh, separators=(",", ":"))
    fh.write("\n")
print("wrote", path, os.path.getsize(path), "bytes")
