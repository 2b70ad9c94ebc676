"""In-process time per call of the peers' analytic paired intervals (bench/peers/speed.mjs runs it in .venv-peers).
argv: a JSON file {"sets": [{"kind", "n", "a", "b"}], "reps": R}; prints {"kind|n": {"peer call": median ms}}."""
import json
import sys
import time

import numpy as np


CPU = {}


def timed(fn, reps, key=None):
    for _ in range(3):
        fn()
    ts = []
    c0 = time.process_time()
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t0) * 1000)
    if key is not None:
        CPU.setdefault(key[0], {})[key[1]] = (time.process_time() - c0) * 1000 / reps
    return float(np.median(ts))


def main():
    data = json.load(open(sys.argv[1]))
    out = {}
    calls = {}
    try:
        from evalstats.core.paired import pairwise_differences
        calls["evalstats t_interval"] = lambda a, b, kind: pairwise_differences(np.vstack([a, b]), 0, 1, method="t_interval")
        calls["evalstats tango"] = lambda a, b, kind: pairwise_differences(np.vstack([a, b]), 0, 1, method="tango") if kind == "binary" else None
    except Exception as e:  # noqa: BLE001
        print(f"evalstats unavailable: {e}", file=sys.stderr)
    try:
        from truescore.compare import mcnemar
        calls["truescore mcnemar"] = lambda a, b, kind: mcnemar(a.astype(int), b.astype(int)) if kind == "binary" else None
    except Exception as e:  # noqa: BLE001
        print(f"truescore unavailable: {e}", file=sys.stderr)
    from scipy import stats
    calls["scipy ttest_rel + t interval"] = lambda a, b, kind: stats.ttest_rel(a, b).confidence_interval(0.95)
    for s in data["sets"]:
        a = np.asarray(s["a"], dtype=float)
        b = np.asarray(s["b"], dtype=float)
        row = {}
        for name, fn in calls.items():
            if fn(a, b, s["kind"]) is None:
                continue
            row[name] = timed(lambda: fn(a, b, s["kind"]), data["reps"] if s["n"] < 10000 else max(10, data["reps"] // 10), (f"{s['kind']}|{s['n']}", name))
        out[f"{s['kind']}|{s['n']}"] = row
    out["cpu"] = CPU
    print(json.dumps(out))


if __name__ == "__main__":
    main()
