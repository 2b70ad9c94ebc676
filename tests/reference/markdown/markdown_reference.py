"""Reference for tests/cli/format-markdown.test.ts. The gate of examples/promptfoo (pr against
main, margin 0.05) with --method t, computed from the two promptfoo files without benchplan.

Pairing: a test is its vars (JSON with sorted keys); rows with failureReason 2 (provider errors)
are left out, and tests one side lacks are dropped (--drop-unpaired). Stratum: testCase.metadata.
Each check: d = pr - main per test; bound = mean(d) - t(0.95, n - 1) * sd(d) / sqrt(n) (scipy).

Run: /usr/bin/python3 tests/reference/markdown/markdown_reference.py > tests/reference/markdown/markdown_reference.json
"""
import json
import math
import os

from scipy import stats

root = os.path.join(os.path.dirname(__file__), '..', '..', '..')


def read(name):
    with open(os.path.join(root, 'examples', 'promptfoo', name)) as f:
        doc = json.load(f)
    out = {}
    for r in doc['results']['results']:
        if r.get('failureReason') == 2:
            continue
        key = json.dumps(r['testCase']['vars'], sort_keys=True)
        out[key] = (r['score'], r['testCase']['metadata']['stratum'])
    return out


main = read('main.json')
pr = read('pr.json')
keys = [k for k in pr if k in main]
dropped = len(set(main) | set(pr)) - len(keys)


def bound(ds):
    n = len(ds)
    mean = sum(ds) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in ds) / (n - 1))
    # The gate's fail side (benchplan's three verdicts): scipy's own one-sided upper t bound.
    upper = stats.ttest_1samp(ds, 0, alternative='less').confidence_interval(0.95).high
    return {'n': n, 'estimate': mean, 'lowerBound': mean - stats.t.ppf(0.95, n - 1) * sd / math.sqrt(n), 'upperBound': float(upper)}


checks = [dict(stratum=None, **bound([pr[k][0] - main[k][0] for k in keys]))]
for name in ['routine', 'rare_clause', 'negative_control']:
    ds = [pr[k][0] - main[k][0] for k in keys if pr[k][1] == name]
    checks.append(dict(stratum=name, **bound(ds)))

# compare examples/scores.csv --a alpha --b beta --method t: the paired t interval and p.
import csv

with open(os.path.join(root, 'examples', 'scores.csv')) as f:
    rows = list(csv.DictReader(f))
score = {(r['item'], r['model']): float(r['score']) for r in rows}
items = sorted({r['item'] for r in rows})
a = [score[(i, 'alpha')] for i in items]
b = [score[(i, 'beta')] for i in items]
test = stats.ttest_rel(a, b)
ci = test.confidence_interval(0.95)
compare = {'n': len(items), 'meanA': sum(a) / len(a), 'meanB': sum(b) / len(b), 'estimate': (sum(a) - sum(b)) / len(a), 'interval': [ci.low, ci.high], 'pValue': test.pvalue}
print(json.dumps({'gate': {'dropped': dropped, 'checks': checks}, 'compare': compare}, indent=2))
