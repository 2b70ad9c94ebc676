"""Reference values for the stratified BCa acceleration (Davison & Hinkley 1997), numpy only.

Run: /usr/bin/python3 tests/reference/bootstrap/stratified_reference.py
Writes tests/reference/bootstrap/stratified.json (the data sets too); then run
`Rscript tests/reference/bootstrap/stratified_reference.R`, which reads the same data sets.
The tests read the JSON; they never run Python.

The acceleration of a statistic of stratified data (D&H §3.7, §5.3.2): with l_hj the empirical
influence value of unit j of stratum h (m_h units),
    a = sum_h m_h^-3 sum_j l_hj^3 / (6 (sum_h m_h^-2 sum_j l_hj^2)^1.5),
one sixth of the skewness of the stratified bootstrap distribution of the linear approximation.

Computed here three independent ways from benchplan's code:
1. analytic influence values of the stratified mean: l_hj = w_h (y_hj - ybar_h), with w_h = N_h / N
   for the pooled mean with fixed stratum counts (unweighted) or the given traffic weights W_h;
2. brute force: the statistic recomputed on every leave-one-unit-out data set, with the stratum
   sizes held fixed (the statistic as a function of the stratum distributions), then
   l_hj = (m_h - 1) (mean_j t_(hj) - t_(hj)); for clusters (units = documents) the pooled mean is the
   ratio sum_h m_h mean_h(cluster sums) / sum_h m_h mean_h(cluster sizes);
3. a Monte Carlo check of the formula itself: the stratified mean is linear, so its exact
   a equals the skewness of its stratified bootstrap distribution / 6; 400,000 resamples, checked
   to within 4 Monte Carlo standard errors (asserted below, not stored).
Also stored: the pooled leave-one-out jackknife (what bootstrapStatistic does with a pooled-mean
statistic), and the pre-fix value (pooled leave-one-out, centred on the overall mean, no per-stratum
scaling) for the record.
"""
import json
import os

import numpy as np

rng = np.random.default_rng(20250611)
sizes = [12, 20, 28]
shift = [0.0, 1.5, -1.0]
y, s = [], []
for h, (m, mu) in enumerate(zip(sizes, shift)):
    y += list(np.round(mu + rng.lognormal(0, 0.8, m) - 1, 4))
    s += [h] * m
y = np.array(y)
s = np.array(s)
# clusters of 1-4 items within each stratum, in item order
cl = np.empty(len(y), int)
c = 0
for h in range(3):
    idx = np.flatnonzero(s == h)
    k = 0
    while k < len(idx):
        size = int(rng.integers(1, 5))
        cl[idx[k:k + size]] = c
        c += 1
        k += size
W = np.array([0.5, 0.2, 0.3])


def dh(l_by_stratum):
    s2 = sum(np.sum(l ** 2) / len(l) ** 2 for l in l_by_stratum if len(l) > 1)
    s3 = sum(np.sum(l ** 3) / len(l) ** 3 for l in l_by_stratum if len(l) > 1)
    return s3 / (6 * s2 ** 1.5)


def jack_l(values_by_stratum):
    """(m_h - 1)(mean - t_(hj)) per stratum."""
    return [(len(t) - 1) * (np.mean(t) - t) for t in values_by_stratum]


H = 3
N = len(y)
strata_items = [np.flatnonzero(s == h) for h in range(H)]

# 1. analytic influence values (items are the units)
l_unw = [(len(ix) / N) * (y[ix] - y[ix].mean()) for ix in strata_items]
l_w = [W[h] * (y[ix] - y[ix].mean()) for h, ix in enumerate(strata_items)]
a_unweighted = dh(l_unw)
a_weighted = dh(l_w)


# 2. brute force on units (clusters, or items as one-item clusters)
def units_of(cluster):
    units = []  # per stratum: arrays of (sum, size) per unit
    for ix in strata_items:
        ids = sorted(set(cluster[ix]), key=lambda u: np.flatnonzero(cluster == u)[0])
        units.append(np.array([[y[cluster == u].sum(), np.sum(cluster == u)] for u in ids]))
    return units


def fixed_count_pooled(units, full):
    """sum_h m_h mean_h(sums) / sum_h m_h mean_h(sizes), m_h the units of stratum h in the data (`full`)."""
    top = sum(len(f) * u[:, 0].mean() for u, f in zip(units, full))
    bottom = sum(len(f) * u[:, 1].mean() for u, f in zip(units, full))
    return top / bottom


def weighted(units, full):
    return sum(W[h] * u[:, 0].sum() / u[:, 1].sum() for h, u in enumerate(units))


def pooled(units, full):
    return sum(u[:, 0].sum() for u in units) / sum(u[:, 1].sum() for u in units)


def leave_one_out(units, statistic):
    out = []
    for h, u in enumerate(units):
        t = []
        for j in range(len(u)):
            rest = list(units)
            rest[h] = np.delete(u, j, axis=0)
            t.append(statistic(rest, units))
        out.append(np.array(t))
    return out


item_units = units_of(np.arange(N))
cluster_units = units_of(cl)
brute = {
    "unweighted": dh(jack_l(leave_one_out(item_units, fixed_count_pooled))),
    "weighted": dh(jack_l(leave_one_out(item_units, weighted))),
    "clusteredUnweighted": dh(jack_l(leave_one_out(cluster_units, fixed_count_pooled))),
    "clusteredWeighted": dh(jack_l(leave_one_out(cluster_units, weighted))),
    "pooledJackknife": dh(jack_l(leave_one_out(item_units, pooled))),
    "clusteredPooledJackknife": dh(jack_l(leave_one_out(cluster_units, pooled))),
}
assert abs(brute["unweighted"] - a_unweighted) < 1e-14, (brute["unweighted"], a_unweighted)
assert abs(brute["weighted"] - a_weighted) < 1e-14, (brute["weighted"], a_weighted)

# the pre-fix computation: pooled leave-one-out, centred on the overall mean, scipy's formula
t_all = np.array([(y.sum() - y[i]) / (N - 1) for i in range(N)])
u = t_all.mean() - t_all
before_fix = np.sum(u ** 3) / (6 * np.sum(u ** 2) ** 1.5)

# 3. Monte Carlo: a = skewness of the stratified bootstrap distribution of the (linear) mean / 6
B = 400_000
mc = np.random.default_rng(7)
for weights, a in [(np.array([len(ix) / N for ix in strata_items]), a_unweighted), (W, a_weighted)]:
    theta = np.zeros(B)
    for h, ix in enumerate(strata_items):
        draws = mc.integers(0, len(ix), (B, len(ix)))
        theta += weights[h] * y[ix][draws].mean(axis=1)
    z = theta - theta.mean()
    skew = np.mean(z ** 3) / np.mean(z ** 2) ** 1.5
    se = np.sqrt(6 / B) / 6  # SE of skewness / 6 for a near-normal distribution
    assert abs(skew / 6 - a) < 4 * se, (skew / 6, a, se)

# the reviewer's shape: 90 items near 0 and 10 near 10, exactly symmetric within strata
sym = [k * 0.01 for k in range(1, 46)] + [-k * 0.01 for k in range(1, 46)] + [10 + k * 0.1 for k in range(1, 6)] + [10 - k * 0.1 for k in range(1, 6)]
sym_s = [0] * 90 + [1] * 10
sym_y = np.array(sym)
sym_t = np.array([(sym_y.sum() - v) / 99 for v in sym_y])
sym_u = sym_t.mean() - sym_t
sym_before = np.sum(sym_u ** 3) / (6 * np.sum(sym_u ** 2) ** 1.5)

out = {
    "generator": "tests/reference/bootstrap/stratified_reference.py",
    "numpy": np.__version__,
    "data": {"y": y.tolist(), "stratum": s.tolist(), "cluster": cl.tolist(), "weights": W.tolist()},
    "acceleration": {
        "unweighted": a_unweighted,
        "weighted": a_weighted,
        "clusteredUnweighted": brute["clusteredUnweighted"],
        "clusteredWeighted": brute["clusteredWeighted"],
        "pooledJackknife": brute["pooledJackknife"],
        "clusteredPooledJackknife": brute["clusteredPooledJackknife"],
        "beforeFix": before_fix,
    },
    "symmetric": {"y": sym, "stratum": sym_s, "acceleration": 0.0, "beforeFix": sym_before},
}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "stratified.json")
with open(path, "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
print("wrote", path, json.dumps(out["acceleration"]), "symmetric before fix:", sym_before)
