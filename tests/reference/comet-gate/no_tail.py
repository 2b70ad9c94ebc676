"""Reference for bench/comet-gate-rules.mjs's impossibility bound (issue 25).

For each row of bench/comet-gate-rules.impossible.json (N items, the k lowest form the Tail, n drawn):
  P(no Tail item) = (1 - k/N)^n with replacement, hypergeom.pmf(0, N, k, n) without (scipy);
  max power on Body with false pass <= 0.055 = min(1, 0.055 / P(no Tail item)).
Run: /usr/bin/python3 tests/reference/comet-gate/no_tail.py  (writes no_tail.json beside it).
"""
import json
import os
from scipy.stats import hypergeom

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(os.path.dirname(here)))
with open(os.path.join(root, 'bench', 'comet-gate-rules.impossible.json')) as f:
    study = json.load(f)
N = study['population']['N']
rows = []
for r in study['impossibility']:
    k, n = r['k'], r['n']
    none = (1 - k / N) ** n if r['replace'] else float(hypergeom.pmf(0, N, k, n))
    rows.append({'N': N, 'k': k, 'n': n, 'replace': r['replace'], 'noTail': none, 'maxPower': min(1.0, 0.055 / none)})
with open(os.path.join(here, 'no_tail.json'), 'w') as f:
    json.dump({'source': 'scipy.stats.hypergeom.pmf(0, N, k, n); (1 - k/N)**n', 'rows': rows}, f, indent=1)
    f.write('\n')
