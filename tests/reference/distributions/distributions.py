"""Reference values for src/distributions/distributions.ts, from scipy.stats.

Run: /usr/bin/python3 tests/reference/distributions/distributions.py > tests/reference/distributions/distributions.json
(scipy 1.10; values printed with repr precision, 17 significant digits).
"""
import json

import scipy
from scipy import special, stats

normal_p = [1e-300, 1e-100, 1e-20, 1e-10, 1e-5, 0.001, 0.01, 0.025, 0.05, 0.1, 0.3, 0.425, 0.5, 0.6, 0.9, 0.925, 0.975, 0.99, 0.999, 1 - 1e-10]
normal_x = [-37.5, -20, -8, -5, -3, -1.959963984540054, -1, -0.5, -1e-5, 0, 0.3, 1, 1.5, 2, 3, 5, 8]
t_df = [1, 2, 2.5, 3, 5, 10, 29.7, 79, 100, 263, 1000, 1e4, 1e5, 1e6, 1e9, 1e12]
t_x = [-40, -10, -3, -1, -0.01, 0, 0.5, 1.5, 2, 4, 25]
t_p = [1e-8, 0.001, 0.025, 0.1, 0.3, 0.5, 0.8, 0.95, 0.975, 0.995, 0.9999]
nct_cases = [
    # (t, df, ncp): the t-test's power function at the sizes sizing meets, plus tails
    (1.9723, 263, 2.8), (1.9723, 263, -2.8), (-1.9723, 263, 2.8), (2.2281388519649385, 10, 1.5),
    (-2.2281388519649385, 10, 1.5), (0.5, 3, 1), (3, 3, 1), (-1, 5, -0.5), (2, 1, 2), (1.7, 29.7, 0.3),
    (1.96, 135.59, 2.82), (-1.96, 135.59, 2.82), (10, 20, 8), (1.98, 99, 5), (0, 50, 1.2), (25, 60, 30),
    (1.9615, 1647, 2.0), (3, 200, -1),
]
chi_df = [1, 2, 3.5, 9, 19, 79, 263, 1000, 1e4]
chi_p = [1e-10, 0.001, 0.025, 0.05, 0.5, 0.95, 0.975, 0.999]
chi_x = [0.001, 0.5, 1, 3.841458820694124, 10, 56.3, 100, 300]

out = {
    "generator": "tests/reference/distributions/distributions.py",
    "scipy": scipy.__version__,
    "normalQuantile": [{"p": p, "value": float(stats.norm.ppf(p))} for p in normal_p],
    "normalCdf": [{"x": x, "value": float(stats.norm.cdf(x))} for x in normal_x],
    "studentTCdf": [{"x": x, "df": df, "value": float(stats.t.cdf(x, df))} for df in t_df for x in t_x],
    "studentTQuantile": [{"p": p, "df": df, "value": float(stats.t.ppf(p, df))} for df in t_df for p in t_p],
    "noncentralTCdf": [{"t": t, "df": df, "ncp": nc, "value": float(stats.nct.cdf(t, df, nc))} for (t, df, nc) in nct_cases],
    "chiSquareQuantile": [{"p": p, "df": df, "value": float(stats.chi2.ppf(p, df))} for df in chi_df for p in chi_p],
    "chiSquareCdf": [{"x": x, "df": df, "value": float(stats.chi2.cdf(x, df))} for df in chi_df for x in chi_x],
    "logGamma": [{"x": x, "value": float(special.gammaln(x))} for x in [1e-8, 0.1, 0.5, 1, 1.5, 2.5, 5, 10.3, 131.5, 1e4, 1e7]],
    "regularizedBeta": [{"x": x, "a": a, "b": b, "value": float(special.betainc(a, b, x))} for (x, a, b) in [(0.5, 2, 3), (0.1, 0.5, 40), (0.99, 131.5, 0.5), (0.3, 1e3, 1e3), (0.52, 1e3, 1e3), (1e-5, 0.5, 0.5)]],
}
print(json.dumps(out, indent=1))
