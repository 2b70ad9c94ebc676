"""lm-eval's own writer (its `dummy` model on a local task, no model download, no network) and benchplan reading it.

Two runs of a 40-question multiple-choice task from a local JSON Lines file, with different seeds
(the dummy model's log-likelihoods are random draws). The expected means and the paired estimate
are computed here from the samples files lm-eval wrote, read as plain JSON, not by benchplan.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

lm_eval = pytest.importorskip("lm_eval", reason="lm-eval is not installed (scripts/setup-real-clients.sh installs the pinned version)")

import benchplan  # noqa: E402

N = 40
TASK = """task: benchplan_local_mc
dataset_path: json
dataset_kwargs:
  data_files:
    test: {data}
test_split: test
output_type: multiple_choice
doc_to_text: "Question: {{{{question}}}}\\nAnswer:"
doc_to_choice: "{{{{choices}}}}"
doc_to_target: "{{{{answer}}}}"
metric_list:
  - metric: acc
    aggregation: mean
    higher_is_better: true
"""


def _version() -> str:
    from importlib.metadata import version

    return version("lm_eval")


def _run(task_dir: Path, out: Path, seed: int) -> Path:
    env = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_HOME": str(task_dir / "hf")}
    done = subprocess.run(
        [sys.executable, "-m", "lm_eval", "--model", "dummy", "--tasks", "benchplan_local_mc", "--include_path", str(task_dir),
         "--log_samples", "--output_path", str(out), "--seed", str(seed)],
        capture_output=True, text=True, env=env, timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    samples = sorted(out.rglob("samples_benchplan_local_mc_*.jsonl"))
    assert len(samples) == 1, list(out.rglob("*"))
    return samples[0]


def test_lm_eval_samples_files_are_read_by_benchplan(tmp_path: Path) -> None:
    print(f"real clients: lm-eval {_version()} (dummy model)")
    data = tmp_path / "questions.jsonl"
    with data.open("w") as handle:
        for i in range(N):
            handle.write(json.dumps({"question": f"q{i}", "choices": ["w", "x", "y", "z"], "answer": i % 4}) + "\n")
    (tmp_path / "task.yaml").write_text(TASK.format(data=data))

    a = _run(tmp_path, tmp_path / "out-a", 1)
    b = _run(tmp_path, tmp_path / "out-b", 2)

    def acc(path: Path) -> dict[int, float]:
        rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        return {int(r["doc_id"]): float(r["acc"]) for r in rows}

    acc_a, acc_b = acc(a), acc(b)
    assert sorted(acc_a) == sorted(acc_b) == list(range(N))
    r = benchplan.compare(a, b, model_name=[f"{a}=run-a", f"{b}=run-b"], a="run-a", b="run-b")
    assert r.n == N
    assert r.mean_a == pytest.approx(sum(acc_a.values()) / N, abs=1e-12)
    assert r.mean_b == pytest.approx(sum(acc_b.values()) / N, abs=1e-12)
    assert r.estimate == pytest.approx(sum(acc_a[k] - acc_b[k] for k in acc_a) / N, abs=1e-12)
