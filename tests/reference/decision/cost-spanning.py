"""Makes tests/reference/decision/cost-spanning.csv, the data set of shortlist-cost.R's second case:
30 documents of 1 to 3 items in two strata (clause, negative), so that some documents span both,
scored by two made-up systems. SYNTHETIC, from a fixed seed.

Run from the repository root: /usr/bin/python3 tests/reference/decision/cost-spanning.py
"""
import random

rng = random.Random(18)
lines = ['item,model,stratum,cluster,outcome,score']
for d in range(1, 31):
    doc = f'd{d:02d}'
    items = [(f'{doc}-s{s + 1}', rng.choice(['clause', 'clause', 'negative'])) for s in range(rng.choice([1, 2, 3]))]
    for model, skill in [('m1', 0.8), ('m2', 0.6)]:
        for item, stratum in items:
            if stratum == 'clause':
                o = 'hit' if rng.random() < skill else rng.choice(['miss', 'wrong_span', 'fabrication'])
            else:
                o = 'correct_absent' if rng.random() < skill + 0.1 else 'fabrication'
            lines.append(f"{item},{model},{stratum},{doc},{o},{1 if o in ('hit', 'correct_absent') else 0}")
open('tests/reference/decision/cost-spanning.csv', 'w').write('\n'.join(lines) + '\n')
