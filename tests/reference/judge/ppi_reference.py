"""Reference values for src/judge (PPI++ mean, power-tuned lambda, stratified PPI).

An independent hand implementation in numpy/scipy of the formulas of ppi_py's `ppi_mean_ci`
and `_calc_lam_glm` for a mean (unit Hessian, gradients Y - theta), written from the paper
(Angelopoulos, Duchi & Zrnic 2023, PPI++) and ppi_py's documented conventions:
  lambda = 2 cov_n(Y, f) / (2 (1 + n/N) var_{n+N-1}(f and f~)), clipped to [0, 1]
  theta  = lambda mean(f~) + mean(Y - lambda f)
  se^2   = std0(lambda f~)^2 / N + std0(Y - lambda f)^2 / n
  ci     = theta -/+ norm.ppf(1 - alpha/2) se
Run: /usr/bin/python3 tests/reference/judge/ppi_reference.py > tests/reference/judge/ppi.json
"""
import json
import numpy as np
from scipy.stats import norm


def lam_hat(Y, f, fu):
    n, N = len(Y), len(fu)
    theta1 = fu.mean() + (Y - f).mean()
    g = Y - theta1
    gh = f - theta1
    ghu = fu - theta1
    gc = g - g.mean()
    ghc = gh - gh.mean()
    cov = (1.0 / n) * (gc @ ghc + ghc @ gc)
    var = np.cov(np.concatenate([gh, ghu]))  # ddof = 1
    lam = cov / (2 * (1 + n / N) * var)
    return float(np.clip(lam, 0, 1))


def ppi_ci(Y, f, fu, alpha=0.05, lam=None):
    n, N = len(Y), len(fu)
    tuned = lam is None
    if tuned:
        lam = lam_hat(Y, f, fu)
    theta = (lam * fu).mean() + (Y - lam * f).mean()
    se = np.sqrt((lam * fu).std() ** 2 / N + (Y - lam * f).std() ** 2 / n)
    z = norm.ppf(1 - alpha / 2)
    cse = Y.std() / np.sqrt(n)
    return {
        "lambda": lam,
        "estimate": float(theta),
        "standardError": float(se),
        "interval": [float(theta - z * se), float(theta + z * se)],
        "classicalEstimate": float(Y.mean()),
        "classicalStandardError": float(cse),
        "classicalInterval": [float(Y.mean() - z * cse), float(Y.mean() + z * cse)],
    }


def case(name, Y, f, fu, confidence=0.95, lam=None):
    return {
        "name": name,
        "labels": [float(v) for v in Y],
        "predictions": [float(v) for v in f],
        "unlabelledPredictions": [float(v) for v in fu],
        "confidenceLevel": confidence,
        "fixedLambda": lam,
        "expected": ppi_ci(np.asarray(Y, float), np.asarray(f, float), np.asarray(fu, float), 1 - confidence, lam),
    }


rng = np.random.default_rng(20261201)
cases = []
cases.append(case("toy", [1, 0, 1, 1], [0.9, 0.2, 0.8, 0.6], [0.7, 0.1, 0.9]))

# Paired differences of 0/1 scores (values in {-1, 0, 1}); a judge that is right 80% of the time.
n, N = 60, 400
truth = rng.choice([-1, 0, 1], size=n + N, p=[0.15, 0.6, 0.25])
judge = np.where(rng.random(n + N) < 0.8, truth, rng.choice([-1, 0, 1], size=n + N))
cases.append(case("binary-differences", truth[:n], judge[:n], judge[n:]))

# Continuous scores with a biased, noisy judge; 90% interval.
n, N = 40, 300
x = rng.normal(0.1, 1.0, n + N)
y = x + rng.normal(0, 0.6, n + N)
j = 0.5 + 0.8 * x
cases.append(case("continuous-biased-judge", y[:n], j[:n], j[n:], confidence=0.9))

# An anti-correlated judge: lambda clips to 0, PPI = the labels alone.
y = rng.normal(0, 1, 30 + 100)
j = -y + rng.normal(0, 0.3, 130)
cases.append(case("anticorrelated-judge", y[:30], j[:30], j[30:]))

# Fixed lambda = 1 (plain PPI).
cases.append(case("plain-ppi", truth[:25], judge[:25], judge[25:200], lam=1.0))

# Stratified: per-stratum tuned lambda, weights = stratum share of all items.
strata = []
comb = {"estimate": 0.0, "var": 0.0, "classicalEstimate": 0.0, "classicalVar": 0.0}
sizes = {"routine": (30, 300), "rare_clause": (20, 60), "negative_control": (15, 90)}
total = sum(a + b for a, b in sizes.values())
z = norm.ppf(0.975)
for k, (name, (n, N)) in enumerate(sizes.items()):
    t = rng.normal(0.2 * k, 1.0, n + N)
    j = t + rng.normal(0.3, 0.7, n + N)
    r = ppi_ci(t[:n], j[:n], j[n:])
    w = (n + N) / total
    comb["estimate"] += w * r["estimate"]
    comb["var"] += w**2 * r["standardError"] ** 2
    comb["classicalEstimate"] += w * r["classicalEstimate"]
    comb["classicalVar"] += w**2 * r["classicalStandardError"] ** 2
    strata.append({"stratum": name, "weight": n + N, "labels": t[:n].tolist(), "predictions": j[:n].tolist(), "unlabelledPredictions": j[n:].tolist(), "expected": r})
se = np.sqrt(comb["var"])
cse = np.sqrt(comb["classicalVar"])
stratified = {
    "strata": strata,
    "expected": {
        "estimate": comb["estimate"],
        "standardError": float(se),
        "interval": [comb["estimate"] - z * se, comb["estimate"] + z * se],
        "classicalEstimate": comb["classicalEstimate"],
        "classicalStandardError": float(cse),
    },
}

# Traffic-weighted stratified PPI (Fisch et al. 2024): the same strata, each with its own tuned
# lambda, combined with production traffic shares instead of item shares:
#   theta = sum_h T_h theta_h,  se^2 = sum_h T_h^2 se_h^2.
traffic = {"routine": 0.75, "rare_clause": 0.05, "negative_control": 0.20}
tw = {"estimate": 0.0, "var": 0.0, "classicalEstimate": 0.0, "classicalVar": 0.0, "n": 0}
for st in strata:
    r = st["expected"]
    T = traffic[st["stratum"]]
    tw["estimate"] += T * r["estimate"]
    tw["var"] += T**2 * r["standardError"] ** 2
    tw["classicalEstimate"] += T * r["classicalEstimate"]
    tw["classicalVar"] += T**2 * r["classicalStandardError"] ** 2
    tw["n"] += len(st["labels"])
tse = np.sqrt(tw["var"])
tcse = np.sqrt(tw["classicalVar"])
stratified_traffic = {
    "traffic": traffic,
    "expected": {
        "estimate": tw["estimate"],
        "standardError": float(tse),
        "interval": [tw["estimate"] - z * tse, tw["estimate"] + z * tse],
        "classicalEstimate": tw["classicalEstimate"],
        "classicalStandardError": float(tcse),
        "classicalInterval": [tw["classicalEstimate"] - z * tcse, tw["classicalEstimate"] + z * tcse],
        "effectiveLabels": float(tw["n"] * tw["classicalVar"] / tw["var"]),
    },
}

print(json.dumps({"generator": "tests/reference/judge/ppi_reference.py", "numpy": np.__version__, "cases": cases, "stratified": stratified, "stratifiedTraffic": stratified_traffic}, indent=1))
