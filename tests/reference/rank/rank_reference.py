"""Exact bootstrap reference for tests/decision/rank.test.ts (run with /usr/bin/python3 rank_reference.py > rank_reference.json).

Three candidates on five items: every one of the 5**5 = 3125 equally likely item resamples is
enumerated (numpy), so P(best) (ties shared), the distribution of each candidate's rank (ties get
their average rank) and the bootstrap SE of each difference from the incumbent are exact, not
simulated. benchplan's rankCandidates draws resamples at random; the test compares within the
Monte Carlo error of its draws.
"""
import itertools
import json

import numpy as np

scores = {
    'a': [1, 1, 0, 1, 1],
    'b': [1, 0, 1, 1, 0],
    'c': [0, 1, 0, 1, 0],
}
models = list(scores)
x = np.array([scores[m] for m in models], dtype=float)  # k × n
k, n = x.shape
p_best = np.zeros(k)
rank_dist = np.zeros((k, 2 * k + 1))  # ranks in halves: index 2·rank
diffs = {m: [] for m in models}
for idx in itertools.product(range(n), repeat=n):
    m = x[:, idx].mean(axis=1)
    top = m.max()
    tied = np.flatnonzero(m == top)
    p_best[tied] += 1 / len(tied)
    for j in range(k):
        rank = (m > m[j]).sum() + ((m == m[j]).sum() + 1) / 2
        rank_dist[j, int(round(2 * rank))] += 1
    for j, name in enumerate(models):
        diffs[name].append(m[j] - m[models.index('c')])
total = n ** n
out = {
    'models': models,
    'scores': [scores[m] for m in models],
    'incumbent': 'c',
    'resamples': total,
    'pBest': (p_best / total).tolist(),
    'rankDistribution': [{str(h / 2): c / total for h, c in enumerate(row) if c > 0} for row in rank_dist],
    # Exact bootstrap SE of mean_j − mean_c: the population SD of the per-item differences over √n.
    'standardErrorFromIncumbent': {name: float(np.std(diffs[name])) for name in models if name != 'c'},
    'plugInStandardError': {name: float(np.std(x[j] - x[models.index('c')]) / np.sqrt(n)) for j, name in enumerate(models) if name != 'c'},
}
print(json.dumps(out, indent=2))
