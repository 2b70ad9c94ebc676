"""One peer's side of the peers study (bench/peers.txt): every replicate of every cell of cells.json
through the peer's public API, in this one Python process, at the peer's default and like-for-like
settings (95% two-sided intervals of mean(A - B); the non-inferiority gate as the one-sided 95% lower
bound, i.e. the lower end of the two-sided 90% interval, > -margin, or the peer's own gate at that
level). Each call is the peer's documented entry point, read from its installed source; no code of a
peer is copied here.

Usage: python peer.py MODULE cells.json out.json [BUDGET_SECONDS [MIN_REPS]]
       (a method stops taking replicates of a cell once it has spent BUDGET_SECONDS, default 60, on
       it, after at least MIN_REPS, default 30: its rates are then over the replicates it ran, with
       their own MC SE)
       python peer.py --command MODULE scores.csv   (prints the argv of one fresh-process call)

Writes {cellId: {"results": {method: [...]}, "msPerCall": {method: ms}, "cannot": {method: reason}}}.
A result is [low, high] (interval, judge), true/false (gate), an item count or null (monitor), or
null when the call raised (the error is counted, the first one kept).
"""
import json
import sys
import time

import numpy as np

CANNOT = object()


def _pair(lo, hi):
    return [float(lo), float(hi)]


def _differences(rep):
    """A replicate's paired differences a - b, as floats."""
    return np.asarray(rep["a"], dtype=float) - np.asarray(rep["b"], dtype=float)


# --- each peer: functions (kind -> {method: callable(rep, r, margin) or reason string}) ---

def evalci_methods():
    import evalci

    def interval_default(rep, r, margin):
        res = evalci.compare(rep["a"], rep["b"], random_state=r)
        return _pair(*res.ci)

    def interval_cluster(rep, r, margin):
        if rep.get("cluster") is None:
            return CANNOT
        d = np.asarray(rep["a"]) - np.asarray(rep["b"])
        res = evalci.cluster_ci(d, rep["cluster"], random_state=r)
        return _pair(*res.ci) if hasattr(res, "ci") else _pair(res.lower, res.upper)

    def gate_like(rep, r, margin):
        res = evalci.compare(rep["a"], rep["b"], confidence=0.90, random_state=r)
        return bool(res.ci[0] > -margin)

    return {
        "interval": {"default": interval_default, "clusters": interval_cluster},
        "gate": {"default": "no gate: compare() gives an interval only", "like-for-like": gate_like},
        "judge": {"default": "no judge-assisted (PPI) estimator"},
        "monitor": {"default": "no sequential monitor"},
    }


def statgate_methods():
    from statgate import EvalRecord, evaluate_gate
    from statgate.config import GateSettings
    from statgate.core.bootstrap import bca_mean_interval

    def interval_default(rep, r, margin):
        d = np.asarray(rep["b"], dtype=float) * -1 + np.asarray(rep["a"], dtype=float)
        iv = bca_mean_interval(d, confidence=0.95, resamples=10_000, seed=r)
        return _pair(iv.low, iv.high)

    def gate(alpha):
        def run(rep, r, margin):
            base = [EvalRecord(case_id=f"i{i}", score=float(x)) for i, x in enumerate(rep["b"])]
            cand = [EvalRecord(case_id=f"i{i}", score=float(x)) for i, x in enumerate(rep["a"])]
            report = evaluate_gate(base, cand, GateSettings(margin=margin, alpha=alpha, seed=r, permutations=1000))
            return str(report.verdict.value if hasattr(report.verdict, "value") else report.verdict).upper() == "SHIP"
        return run

    def monitor(batch):
        # statgate's sequential mode: MixtureSPRT (core/sequential.py) at its defaults (theta0 = 0, alpha
        # 0.05, tau from the data, min_samples 10), the differences folded in `batch` items at a time (its
        # runner's default batch is 25; the design looks after every item, batch 1); the item count at
        # the first look whose p-value is <= alpha. Its own docstring calls the guarantee approximate.
        from statgate.core.sequential import MixtureSPRT

        def run(rep, r, margin):
            d = _differences(rep)
            test = MixtureSPRT(theta0=0.0, alpha=0.05)
            for start in range(0, d.size, batch):
                decision = test.update(d[start:start + batch])
                if decision.decided:
                    return int(decision.n)
            return None
        return run

    return {
        "interval": {"default": interval_default},
        "gate": {"default": gate(0.05), "like-for-like": gate(0.10)},
        "judge": {"default": "no judge-assisted (PPI) estimator"},
        "monitor": {"default": monitor(25), "like-for-like": monitor(1)},
    }


def evalsig_methods():
    from evalsig import ItemResult, RunFrame, compare

    def frames(rep):
        cl = rep.get("cluster")
        def frame(name, scores):
            items = [ItemResult(item_id=f"i{i}", score=float(x), cluster_id=(f"d{cl[i]}" if cl is not None else None)) for i, x in enumerate(scores)]
            return RunFrame(run_id=name, model_id=name, task_id="t", metric_name="score", items=items)
        return frame("B", rep["b"]), frame("A", rep["a"])

    def interval(use_cluster, alpha=0.05):
        def run(rep, r, margin):
            if use_cluster and alpha == 0.05 and rep.get("cluster") is None:
                return CANNOT
            fb, fa = frames(rep)
            res = compare(fb, fa, alpha=alpha, rng=r, cluster=("doc" if use_cluster and rep.get("cluster") is not None else None))
            return _pair(*res.ci)
        return run

    def gate_like(rep, r, margin):
        lo, _ = interval(True, alpha=0.10)(rep, r, margin)
        return bool(lo > -margin)

    def monitor(rep, r, margin):
        # evalsig's streaming test: sequential_gate (inference/sequential.py) at its defaults (Howard et
        # al.'s asymptotic confidence sequence, rho 1, sigma from the data, min_n 30), two-sided as the
        # design asks (its default side is "greater"): the item count where it stopped, or None.
        from evalsig.inference.sequential import sequential_gate
        d = _differences(rep)
        out = sequential_gate(d, alpha=0.05, alternative="two-sided")
        return int(out.n_pairs) if out.stopped else None

    return {
        "interval": {"default": interval(False), "clusters": interval(True)},
        "gate": {"default": "its gate() is a superiority gate (ALLOW needs a significant gain ≥ min_delta), not non-inferiority", "like-for-like": gate_like},
        "judge": {"default": "no judge-assisted (PPI) estimator"},
        "monitor": {"default": monitor},
    }


def evalstats_methods():
    from evalstats.core.paired import pairwise_differences

    def interval(ci):
        def run(rep, r, margin):
            scores = np.vstack([np.asarray(rep["a"], dtype=float), np.asarray(rep["b"], dtype=float)])  # (models, items)
            res = pairwise_differences(scores, 0, 1, ci=ci, rng=np.random.default_rng(r))
            return _pair(res.ci_low, res.ci_high)
        return run

    def gate_like(rep, r, margin):
        return bool(interval(0.90)(rep, r, margin)[0] > -margin)

    def judge(rep, r, margin):
        # evalstats.ppi.correct at its defaults (the mean as the estimator, PPI++ power tuning on, 1,000
        # percentile-bootstrap draws, alpha 0.05); its unlabelled judge scores exclude the labelled items,
        # as its docstring requires, which is how the design holds them.
        from evalstats.ppi import correct
        res = correct(np.mean, Y_lab=np.asarray(rep["labels"], dtype=float), Y_hat_lab=np.asarray(rep["predictions"], dtype=float),
                      Y_hat_unlab=np.asarray(rep["unlabelled"], dtype=float), alpha=0.05, rng=r, compute_pvalue=False)
        return _pair(res.ci_low, res.ci_high)

    return {
        "interval": {"default": interval(0.95)},
        "gate": {"default": "no gate", "like-for-like": gate_like},
        "judge": {"default": judge},
        "monitor": {"default": "no sequential monitor"},
    }


def truescore_methods():
    from truescore.compare import mcnemar, paired_bootstrap
    from truescore.correct import ppi_estimate
    from truescore.sequential import first_exclusion

    def binary(x):
        return all(v in (0, 1) for v in x)

    def interval(alpha):
        def run(rep, r, margin):
            a, b, cl = rep["a"], rep["b"], rep.get("cluster")
            if cl is None and binary(a) and binary(b):
                res = mcnemar(np.asarray(a, dtype=int), np.asarray(b, dtype=int), alpha=alpha)
            else:
                res = paired_bootstrap(a, b, alpha=alpha, seed=r, clusters=cl)
            return _pair(res.low, res.high)
        return run

    def gate_like(rep, r, margin):
        return bool(interval(0.10)(rep, r, margin)[0] > -margin)

    def judge(rep, r, margin):
        n = len(rep["labels"])
        judge_all = np.concatenate([np.asarray(rep["predictions"]), np.asarray(rep["unlabelled"])])
        est = ppi_estimate(judge_all, np.asarray(rep["labels"], dtype=float), np.arange(n), alpha=0.05)
        return _pair(est.low, est.high)

    def monitor(rep, r, margin):
        d = _differences(rep)
        return first_exclusion(d, 0.0, alpha=0.05, bounds=(-1.0, 1.0))

    return {
        "interval": {"default": interval(0.05)},
        "gate": {"default": "no gate", "like-for-like": gate_like},
        "judge": {"default": judge},
        "monitor": {"default": monitor},
    }


def ppi_py_methods():
    from ppi_py import ppi_mean_ci

    def judge(alpha):
        def run(rep, r, margin):
            lo, hi = ppi_mean_ci(np.asarray(rep["labels"], dtype=float), np.asarray(rep["predictions"], dtype=float), np.asarray(rep["unlabelled"], dtype=float), alpha=alpha)
            return _pair(np.ravel(lo)[0], np.ravel(hi)[0])
        return run

    why = "no paired comparison of two models (a PPI library)"
    return {
        "interval": {"default": why},
        "gate": {"default": why},
        "judge": {"default": judge(0.1), "like-for-like": judge(0.05)},
        "monitor": {"default": "no sequential monitor"},
    }


def confseq_methods():
    # confseq 0.0.11 names np.float_ in its type annotations (confseq/misc.py, types.py); NumPy 2 removed
    # that alias of np.float64, so the import raises. The alias is restored for the import only: it is
    # used in annotations, never in a computation.
    if not hasattr(np, "float_"):
        np.float_ = np.float64
    from confseq import betting

    def monitor(rep, r, margin):
        # differences in [-1, 1] mapped to [0, 1]: mean 0 ↔ 0.5
        x = (_differences(rep) + 1) / 2
        lo, hi = betting.betting_cs(x, alpha=0.05)
        hit = np.nonzero((np.asarray(lo) > 0.5) | (np.asarray(hi) < 0.5))[0]
        return int(hit[0]) + 1 if hit.size else None

    why = "no fixed-n interval (confidence sequences only)"
    return {
        "interval": {"default": why},
        "gate": {"default": why},
        "judge": {"default": "no judge-assisted (PPI) estimator"},
        "monitor": {"default": monitor},
    }


PEERS = {
    "evalci": evalci_methods,
    "statgate": statgate_methods,
    "evalsig": evalsig_methods,
    "evalstats": evalstats_methods,
    "truescore": truescore_methods,
    "ppi_py": ppi_py_methods,
    "confseq": confseq_methods,
}


def command(module, csv):
    """The argv of one fresh Python process that imports the peer and makes its paired call on the CSV."""
    code = {
        "evalci": "import evalci,csv,sys;r=list(csv.DictReader(open(sys.argv[1])));a=[float(x['score']) for x in r if x['model']=='A'];b=[float(x['score']) for x in r if x['model']=='B'];print(evalci.compare(a,b))",
        "statgate": "import csv,sys,numpy as np;from statgate.core.bootstrap import bca_mean_interval;r=list(csv.DictReader(open(sys.argv[1])));a=np.array([float(x['score']) for x in r if x['model']=='A']);b=np.array([float(x['score']) for x in r if x['model']=='B']);print(bca_mean_interval(a-b,confidence=0.95,resamples=10000,seed=0))",
        "evalsig": "import csv,sys;from evalsig import ItemResult,RunFrame,compare;r=list(csv.DictReader(open(sys.argv[1])));f=lambda m:RunFrame(run_id=m,model_id=m,task_id='t',metric_name='s',items=[ItemResult(item_id=x['item'],score=float(x['score'])) for x in r if x['model']==m]);print(compare(f('B'),f('A')))",
        "evalstats": "import csv,sys,numpy as np;from evalstats.core.paired import pairwise_differences;r=list(csv.DictReader(open(sys.argv[1])));a=[float(x['score']) for x in r if x['model']=='A'];b=[float(x['score']) for x in r if x['model']=='B'];print(pairwise_differences(np.vstack([a,b]),0,1))",
        "truescore": "import csv,sys,numpy as np;from truescore.compare import mcnemar;r=list(csv.DictReader(open(sys.argv[1])));a=[int(float(x['score'])) for x in r if x['model']=='A'];b=[int(float(x['score'])) for x in r if x['model']=='B'];print(mcnemar(np.array(a),np.array(b)))",
    }.get(module)
    if code is None:
        print(f"none: {module} has no paired comparison of two models")
        return
    print(json.dumps([sys.executable, "-c", code, csv]))


def main():
    if sys.argv[1] == "--command":
        command(sys.argv[2], sys.argv[3])
        return
    module, cells_file, out_file = sys.argv[1:4]
    budget = float(sys.argv[4]) if len(sys.argv) > 4 else 60.0
    min_reps = int(sys.argv[5]) if len(sys.argv) > 5 else 30
    methods = PEERS[module]()
    data = json.load(open(cells_file))
    out = {}
    for cell in data["cells"]:
        # a gate cell carries its own margin (the real COMET / BLEU cells); the file's is the default
        margin = cell.get("margin", data["margin"])
        kind_methods = methods[cell["kind"]]
        entry = {"results": {}, "msPerCall": {}, "cannot": {}, "errors": {}}
        for name, fn in kind_methods.items():
            if isinstance(fn, str):
                entry["cannot"][name] = fn
                continue
            results, times, errors = [], [], 0
            skipped = False
            spent = 0.0
            for r, rep in enumerate(cell["reps"]):
                if spent > budget and r >= min_reps:
                    break
                t0 = time.perf_counter()
                try:
                    value = fn(rep, r, margin)
                    if value is CANNOT:
                        skipped = True
                        break
                    results.append(value)
                except Exception as e:  # a peer that raises on a sample: counted, not hidden
                    results.append(None)
                    errors += 1
                    if name not in entry["errors"]:
                        entry["errors"][name] = f"{type(e).__name__}: {str(e)[:200]}"
                times.append((time.perf_counter() - t0) * 1000)
                spent += times[-1] / 1000
            if skipped:
                continue
            entry["results"][name] = results
            entry["msPerCall"][name] = float(np.median(times))
            if errors:
                entry["errors"][name] = f"{errors} of {len(results)} calls raised; first: {entry['errors'][name]}"
        out[cell["id"]] = entry
    json.dump(out, open(out_file, "w"))


if __name__ == "__main__":
    main()
