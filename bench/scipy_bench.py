"""scipy side of the bench: the same paired BCa bootstrap of mean(A - B) with 9,999 resamples.

Usage: /usr/bin/python3 bench/scipy_bench.py PAIR.json
Prints one JSON line: { seconds and cpuSeconds (best of 2; no warm-up beyond imports), maxRssKb, interval }.
scipy.stats.bootstrap(paired=True, vectorized=True) draws a B x n index array and indexes both
samples with it, so its memory grows as B * n (3 arrays of 8-byte numbers at n = 10,000: ~2.4 GB).
"""
import json
import resource
import sys
import time

import numpy as np
from scipy import stats

with open(sys.argv[1]) as fh:
    pair = json.load(fh)
a = np.asarray(pair["a"], float)
b = np.asarray(pair["b"], float)


def statistic(x, y, axis=-1):
    return np.mean(x - y, axis=axis)


times = []
cpu = []
res = None
for _ in range(2):
    t0 = time.perf_counter()
    c0 = time.process_time()
    res = stats.bootstrap((a, b), statistic, paired=True, vectorized=True, method="BCa",
                          n_resamples=9999, confidence_level=0.95, random_state=np.random.default_rng(0))
    times.append(time.perf_counter() - t0)
    cpu.append(time.process_time() - c0)
print(json.dumps({"seconds": min(times), "cpuSeconds": min(cpu), "times": times,
                  "maxRssKb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  "interval": [float(res.confidence_interval.low), float(res.confidence_interval.high)],
                  "scipy": __import__("scipy").__version__}))
