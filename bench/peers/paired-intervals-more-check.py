"""Independent reference for the profile-likelihood (LR) interval of bench/peers/paired-intervals-more.mjs.

The LR interval for d = p10 - p01 under the multinomial (b only-A, c only-B, n - b - c concordant):
{d : 2 [l(b/n, c/n) - max_q l(q + d, q)] <= chi2_1(0.95)}, l = b log p10 + c log p01 + m log(1 - p10 - p01).
Here the profile max over q is found NUMERICALLY (scipy.optimize.minimize_scalar, bounded), not with Tango's
closed-form restricted MLE the bench uses, and the ends by brentq. Needs scipy (/usr/bin/python3 where
python3-scipy is installed; here the peers' virtualenv, symlinked as .venv-peers, had it):
  .venv-peers/bin/python bench/peers/paired-intervals-more-check.py > bench/peers/paired-intervals-more-check.json
"""
import json
import math

from scipy import optimize, stats

CUT = stats.chi2.ppf(0.95, 1)


def loglik(b, c, n, p10, p01):
    m = n - b - c
    total = 0.0
    for k, p in ((b, p10), (c, p01), (m, 1.0 - p10 - p01)):
        if k > 0:
            if p <= 0:
                return -math.inf
            total += k * math.log(p)
    return total


def profile(b, c, n, d):
    lo, hi = max(0.0, -d), (1.0 - d) / 2.0
    if hi - lo < 1e-15:
        return loglik(b, c, n, lo + d, lo)
    res = optimize.minimize_scalar(lambda q: -loglik(b, c, n, q + d, q), bounds=(lo, hi), method='bounded', options={'xatol': 1e-13})
    # the bounded optimiser never evaluates the ends exactly; the max can sit there (an empty cell)
    return max(-res.fun, loglik(b, c, n, lo + d, lo), loglik(b, c, n, hi + d, hi))


def lr_interval(b, c, n):
    top = loglik(b, c, n, b / n, c / n)
    est = (b - c) / n
    g = lambda d: 2 * (top - profile(b, c, n, d)) - CUT
    eps = 1e-12
    low = -1.0 if g(-1 + eps) <= 0 else optimize.brentq(g, -1 + eps, est, xtol=1e-13)
    high = 1.0 if g(1 - eps) <= 0 else optimize.brentq(g, est, 1 - eps, xtol=1e-13)
    return low, high


TABLES = [
    ('airway (Bentur et al. 2009), FLL 2014', 1, 7, 21),
    ('CCS (Cavo et al. 2012), FLL 2014', 6, 16, 161),
    ('no discordant item', 0, 0, 50),
    ('one-sided discordance', 0, 5, 30),
    ('one-sided discordance, small n', 3, 0, 10),
    ('the cell, typical table', 5, 5, 200),
    ('the cell, unbalanced table', 9, 2, 200),
]

print(json.dumps({
    'script': 'bench/peers/paired-intervals-more-check.py',
    'scipy': __import__('scipy').__version__,
    'chi2cut': CUT,
    'tables': [{'label': lab, 'b': b, 'c': c, 'n': n, 'lr': list(lr_interval(b, c, n))} for lab, b, c, n in TABLES],
}, indent=2))
