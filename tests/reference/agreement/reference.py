"""Reference values for tests/agreement/*.test.ts (statsmodels and hand computations).

Run from the repository root with the Debian Python that has statsmodels:
    /usr/bin/python3 tests/reference/agreement/reference.py
    Rscript tests/reference/agreement/psych.R
It writes tests/reference/agreement/inputs.json (the data sets, read by psych.R and the tests)
and tests/reference/agreement/statsmodels.json. The tests never need Python or R.

Calls:
  statsmodels.stats.inter_rater.cohens_kappa(table)        -> kappa, std_kappa (SE under the
                                                              alternative, Fleiss-Cohen-Everitt 1969)
  statsmodels.stats.inter_rater.fleiss_kappa(counts, method='fleiss')
  Krippendorff's alpha: no packaged implementation here (r-cran-irr is not in Debian bookworm),
  so alpha is computed by hand below from the *pairable values* formulation (every ordered
  pair of values inside a unit weighted 1/(m_u - 1); expected disagreement over all ordered
  pairs of pairable values), a different route from the coincidence matrix the library uses,
  and checked here against the published values of Krippendorff (2011), "Computing
  Krippendorff's Alpha-Reliability", and the Wikipedia example.
"""
import csv
import json
import math
import os

import numpy as np
import statsmodels
from statsmodels.stats.inter_rater import aggregate_raters, cohens_kappa, fleiss_kappa

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, '..', '..', '..'))

# ------------------------------------------------------------------ data sets
# Krippendorff (2011), section C: 4 observers x 12 units, values 1..5, None = missing.
KRIPP_2011 = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
]
KRIPP_2011_PUBLISHED = {'nominal': 0.743, 'ordinal': 0.815, 'interval': 0.849, 'ratio': 0.797}
# Wikipedia "Krippendorff's alpha", a computational example: 3 coders x 15 units.
KRIPP_WIKI = [
    [None, None, None, None, None, 3, 4, 1, 2, 1, 1, 3, 3, None, 3],
    [1, None, 2, 1, 3, 3, 4, 3, None, None, None, None, None, None, None],
    [None, None, 2, 1, 3, 4, 4, None, 2, 1, 1, 3, 3, None, 4],
]
KRIPP_WIKI_PUBLISHED = {'nominal': 0.691, 'interval': 0.811}
# Wikipedia "Fleiss' kappa", worked example: 10 subjects, 14 raters, 5 categories.
FLEISS_WIKI = [
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
]
FLEISS_WIKI_PUBLISHED = 0.210
# Wikipedia "Cohen's kappa", first example: 50 grant proposals, yes/no by readers A and B:
# both yes 20, A yes B no 5, A no B yes 10, both no 15 -> kappa 0.4.
COHEN_WIKI_A = ['yes'] * 25 + ['no'] * 25
COHEN_WIKI_B = ['yes'] * 20 + ['no'] * 5 + ['yes'] * 10 + ['no'] * 15
COHEN_WIKI_PUBLISHED = 0.4
# Two readers with missing labels (None): pairwise-complete items only.
COHEN_MISSING_A = ['x', 'x', 'y', 'z', None, 'y', 'x', 'z', 'z', 'y', 'x', None, 'y', 'x', 'z', 'x']
COHEN_MISSING_B = ['x', 'y', 'y', 'z', 'x', None, 'x', 'z', 'y', 'y', 'x', None, 'z', 'x', 'z', 'y']


def read_examples():
    """examples/annotations.csv as {type: {'items': [...], 'annotators': [...], 'labels': rows}}."""
    by_type = {}
    with open(os.path.join(ROOT, 'examples', 'annotations.csv'), newline='') as f:
        for row in csv.DictReader(f):
            t = by_type.setdefault(row['type'], {'items': [], 'cells': {}})
            if row['item'] not in t['items']:
                t['items'].append(row['item'])
            t['cells'][(row['item'], row['annotator'])] = row['label'] or None
    out = {}
    for name, t in by_type.items():
        annotators = sorted({a for (_, a) in t['cells']})
        out[name] = {
            'items': t['items'],
            'annotators': annotators,
            # rows = items, columns = annotators
            'labels': [[t['cells'].get((i, a)) for a in annotators] for i in t['items']],
        }
    return out


# ------------------------------------------------------------------ computations
def contingency(a, b):
    pairs = [(x, y) for x, y in zip(a, b) if x is not None and y is not None]
    levels = sorted({x for p in pairs for x in p})
    index = {v: k for k, v in enumerate(levels)}
    table = np.zeros((len(levels), len(levels)))
    for x, y in pairs:
        table[index[x], index[y]] += 1
    return table


def cohen(a, b):
    res = cohens_kappa(contingency(a, b), return_results=True)
    return {'kappa': float(res.kappa), 'standardError': float(res.std_kappa), 'standardErrorNull': float(res.std_kappa0), 'n': int(res.nobs if hasattr(res, 'nobs') else contingency(a, b).sum())}


def fleiss_from_labels(rows):
    """statsmodels fleiss_kappa on the items every rater labelled."""
    complete = [r for r in rows if all(v is not None for v in r)]
    levels = sorted({v for r in complete for v in r})
    coded = np.array([[levels.index(v) for v in r] for r in complete])
    counts, _ = aggregate_raters(coded, n_cat=len(levels))
    return float(fleiss_kappa(counts, method='fleiss')), len(complete)


def kripp_alpha(units, level):
    """units: list of value lists (missing already removed). Pairable-values formulation."""
    units = [u for u in units if len(u) >= 2]
    values = [v for u in units for v in u]
    n = len(values)
    domain = sorted(set(values))
    counts = {v: values.count(v) for v in domain}

    def delta2(c, k):
        if level == 'nominal':
            return 0.0 if c == k else 1.0
        if level == 'interval':
            return float(c - k) ** 2
        if level == 'ratio':
            return 0.0 if c == k else ((c - k) / (c + k)) ** 2
        if level == 'ordinal':
            lo, hi = (c, k) if c <= k else (k, c)
            between = sum(counts[g] for g in domain if lo <= g <= hi)
            return (between - (counts[c] + counts[k]) / 2.0) ** 2
        raise ValueError(level)

    observed = 0.0
    for u in units:
        m = len(u)
        s = 0.0
        for i in range(m):
            for j in range(m):
                if i != j:
                    s += delta2(u[i], u[j])
        observed += s / (m - 1)
    observed /= n
    expected = 0.0
    for i in range(n):
        for j in range(n):
            if i != j:
                expected += delta2(values[i], values[j])
    expected /= n * (n - 1)
    return 1.0 - observed / expected, observed, expected, n


def units_of(observer_rows):
    """observers x units matrix -> per-unit lists of present values."""
    return [[row[u] for row in observer_rows if row[u] is not None] for u in range(len(observer_rows[0]))]


def main():
    examples = read_examples()
    inputs = {
        'krippendorff2011': {'observers': KRIPP_2011, 'published': KRIPP_2011_PUBLISHED},
        'krippendorffWikipedia': {'observers': KRIPP_WIKI, 'published': KRIPP_WIKI_PUBLISHED},
        'fleissWikipedia': {'counts': FLEISS_WIKI, 'published': FLEISS_WIKI_PUBLISHED},
        'cohenWikipedia': {'a': COHEN_WIKI_A, 'b': COHEN_WIKI_B, 'published': COHEN_WIKI_PUBLISHED},
        'cohenMissing': {'a': COHEN_MISSING_A, 'b': COHEN_MISSING_B},
        'examples': examples,
    }
    with open(os.path.join(HERE, 'inputs.json'), 'w') as f:
        json.dump(inputs, f, indent=1)
        f.write('\n')

    out = {'source': f'statsmodels {statsmodels.__version__}, numpy {np.__version__}; Krippendorff alpha by hand (pairable values)'}
    # Cohen's kappa: kappa and std_kappa from statsmodels cohens_kappa(table).
    out['cohen'] = {
        'wikipedia': cohen(COHEN_WIKI_A, COHEN_WIKI_B),
        'missing': cohen(COHEN_MISSING_A, COHEN_MISSING_B),
        'examples': {
            t: cohen([r[0] for r in d['labels']], [r[1] for r in d['labels']]) | {'pair': d['annotators'][:2]}
            for t, d in examples.items()
        },
    }
    # Fleiss' kappa.
    out['fleiss'] = {'wikipedia': float(fleiss_kappa(np.array(FLEISS_WIKI), method='fleiss')), 'examples': {}}
    for t, d in examples.items():
        kappa, items = fleiss_from_labels(d['labels'])
        out['fleiss']['examples'][t] = {'kappa': kappa, 'items': items}
    # Krippendorff's alpha.
    out['krippendorff'] = {'krippendorff2011': {}, 'krippendorffWikipedia': {}, 'examples': {}}
    for level, published in KRIPP_2011_PUBLISHED.items():
        alpha, do, de, n = kripp_alpha(units_of(KRIPP_2011), level)
        assert abs(alpha - published) < 5e-4, (level, alpha, published)
        out['krippendorff']['krippendorff2011'][level] = {'alpha': alpha, 'observedDisagreement': do, 'expectedDisagreement': de, 'pairableValues': n}
    for level in ['nominal', 'ordinal', 'interval', 'ratio']:
        alpha, do, de, n = kripp_alpha(units_of(KRIPP_WIKI), level)
        if level in KRIPP_WIKI_PUBLISHED:
            assert abs(alpha - KRIPP_WIKI_PUBLISHED[level]) < 5e-4, (level, alpha)
        out['krippendorff']['krippendorffWikipedia'][level] = {'alpha': alpha, 'observedDisagreement': do, 'expectedDisagreement': de, 'pairableValues': n}
    for t, d in examples.items():
        units = [[v for v in row if v is not None] for row in d['labels']]
        alpha, do, de, n = kripp_alpha(units, 'nominal')
        out['krippendorff']['examples'][t] = {'alpha': alpha, 'observedDisagreement': do, 'expectedDisagreement': de, 'pairableValues': n}
    # Raw agreement: agreeing pairs of labels among all pairs of annotators who both labelled an item.
    out['rawAgreement'] = {}
    for t, d in examples.items():
        agree = pairs = 0
        for row in d['labels']:
            present = [v for v in row if v is not None]
            for i in range(len(present)):
                for j in range(i + 1, len(present)):
                    pairs += 1
                    agree += present[i] == present[j]
        out['rawAgreement'][t] = agree / pairs
    with open(os.path.join(HERE, 'statsmodels.json'), 'w') as f:
        json.dump(out, f, indent=1)
        f.write('\n')


if __name__ == '__main__':
    main()
