"""The Inspect hook and EvalLog inputs, with the real inspect-ai running a small task on its mock model.

The two "models" are inspect-ai's mockllm with a function for its outputs: the baseline answers
item i wrongly when i % 5 == 0, the candidate when i % 8 == 0. The expected numbers come from
that rule, not from benchplan; each task runs 2 epochs, which benchplan pairs by sample id.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

inspect_ai = pytest.importorskip("inspect_ai", reason="inspect-ai is not installed (scripts/setup-real-clients.sh installs the pinned version)")

import benchplan  # noqa: E402
from benchplan import inspect_hooks  # noqa: E402

N = 30
EPOCHS = 2


def _right(name: str, i: int) -> bool:
    return i % (5 if name == "baseline" else 8) != 0


def _task() -> Any:
    from inspect_ai import Task, task
    from inspect_ai.dataset import MemoryDataset, Sample
    from inspect_ai.scorer import match
    from inspect_ai.solver import generate

    @task
    def arithmetic() -> Task:
        samples = [Sample(id=i, input=f"What is {i} + {i}? Answer with the number only.", target=str(2 * i)) for i in range(1, N + 1)]
        return Task(dataset=MemoryDataset(samples), solver=generate(), scorer=match(), epochs=EPOCHS)

    return arithmetic()


def _model(name: str) -> Any:
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    def answer(messages: list[Any], tools: Any, tool_choice: Any, config: Any) -> Any:
        text = messages[-1].text
        i = int(text.split("What is ")[1].split(" +")[0])
        output = ModelOutput.from_content(model=f"mockllm/{name}", content=str(2 * i if _right(name, i) else 2 * i + 1))
        # Usage given, so mockllm does not count tokens (tiktoken would download its encoding: no network here).
        output.usage = ModelUsage(input_tokens=12, output_tokens=1, total_tokens=13)
        return output

    return get_model(f"mockllm/{name}", custom_outputs=answer)


def _run(name: str, log_dir: Path) -> Any:
    from inspect_ai import eval as inspect_eval

    logs = inspect_eval(_task(), model=_model(name), log_dir=str(log_dir), display="none", log_format="eval")
    assert len(logs) == 1 and logs[0].status == "success", logs[0].error
    return logs[0]


def _expected() -> tuple[float, float]:
    base = sum(_right("baseline", i) for i in range(1, N + 1)) / N
    cand = sum(_right("candidate", i) for i in range(1, N + 1)) / N
    return cand - base, base


@pytest.fixture(scope="module")
def baseline_log(tmp_path_factory: pytest.TempPathFactory) -> Any:
    os.environ.pop("BENCHPLAN_INSPECT_BASELINE", None)
    return _run("baseline", tmp_path_factory.mktemp("baseline-logs"))


def test_version_run() -> None:
    print(f"real clients: inspect-ai {inspect_ai.__version__}")
    assert inspect_ai.__version__


def test_the_hook_reports_a_verdict_in_the_console_the_log_and_markdown(baseline_log: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    from inspect_ai.log import read_eval_log

    monkeypatch.setenv("BENCHPLAN_INSPECT_BASELINE", baseline_log.location)
    monkeypatch.setenv("BENCHPLAN_INSPECT_RESAMPLES", "999")
    candidate = _run("candidate", tmp_path / "logs")
    console = capfd.readouterr().err
    estimate, _ = _expected()

    # Console: one verdict line for the task.
    line = next((x for x in console.splitlines() if x.startswith("benchplan: arithmetic:")), None)
    assert line is not None, console
    assert "candidate − baseline = " in line and f"({N} items" in line

    # The log file: the verdict in eval.metadata["benchplan"], numbers from the paired comparison.
    written = read_eval_log(candidate.location)
    facts = written.eval.metadata["benchplan"]
    assert facts["n"] == N
    assert facts["estimate"] == pytest.approx(estimate, abs=1e-12)
    assert facts["baseline"] == baseline_log.location
    low, high = facts["confidenceInterval"]
    assert low <= facts["estimate"] <= high
    assert facts["verdict"] == ("candidate better" if low > 0 else "candidate worse" if high < 0 else "no difference detected")
    assert len(written.samples) == N * EPOCHS  # the rewrite kept every sample

    # The same numbers as benchplan.compare on the two logs (a notebook's call).
    direct = benchplan.compare(baseline_log.location, candidate.location, a="mockllm/candidate", b="mockllm/baseline", resamples=999)
    assert direct.estimate == facts["estimate"] and direct.confidence_interval == facts["confidenceInterval"]

    # The Markdown summary beside the log.
    summary = Path(str(Path(candidate.location).with_suffix(""))+ ".benchplan.md").read_text()
    assert "### benchplan: arithmetic" in summary


def test_with_a_margin_the_hook_gates(baseline_log: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    from inspect_ai.log import read_eval_log

    monkeypatch.setenv("BENCHPLAN_INSPECT_BASELINE", str(Path(baseline_log.location).parent))  # a folder: the task's newest log
    monkeypatch.setenv("BENCHPLAN_INSPECT_MARGIN", "0.05")
    monkeypatch.setenv("BENCHPLAN_INSPECT_SUMMARY", str(tmp_path / "summary.md"))
    candidate = _run("candidate", tmp_path / "logs")
    facts = read_eval_log(candidate.location, header_only=True).eval.metadata["benchplan"]
    assert facts["command"] == "gate" and facts["margin"] == 0.05
    assert facts["verdict"] in {"passed", "regression not ruled out", "inconclusive"}
    assert "benchplan: arithmetic: " + facts["verdict"] in capfd.readouterr().err
    assert "benchplan" in (tmp_path / "summary.md").read_text()


def test_the_hook_is_off_without_a_baseline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    from inspect_ai.log import read_eval_log

    monkeypatch.delenv("BENCHPLAN_INSPECT_BASELINE", raising=False)
    monkeypatch.chdir(tmp_path)
    log = _run("candidate", tmp_path / "logs")
    assert "benchplan" not in (read_eval_log(log.location, header_only=True).eval.metadata or {})
    assert "benchplan:" not in capfd.readouterr().err


def test_at_the_end_of_an_eval_set_the_verdicts_are_written_together(baseline_log: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from inspect_ai import eval_set

    monkeypatch.setenv("BENCHPLAN_INSPECT_BASELINE", baseline_log.location)
    monkeypatch.setenv("BENCHPLAN_INSPECT_RESAMPLES", "499")
    success, logs = eval_set(_task(), log_dir=str(tmp_path / "set"), model=_model("candidate"), display="none", log_format="eval", retry_attempts=0)
    assert success and len(logs) == 1
    summary = (tmp_path / "set" / "benchplan-summary.md").read_text()
    estimate, _ = _expected()
    row = next(line for line in summary.splitlines() if line.startswith("| arithmetic |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert float(cells[2]) == pytest.approx(estimate, abs=1e-12) and cells[4] == str(N), summary


def test_a_config_file_enables_the_hook(baseline_log: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BENCHPLAN_INSPECT_BASELINE", raising=False)
    (tmp_path / "benchplan-inspect.toml").write_text(f'baseline = "{baseline_log.location}"\nseed = 3\nresamples = 499\n')
    config = inspect_hooks.settings(cwd=tmp_path)
    assert config.baseline == baseline_log.location and config.seed == "3" and config.resamples == 499
    (tmp_path / "benchplan-inspect.toml").write_text('[tool.benchplan.inspect]\nbaseline = "x.eval"\nmargn = 1\n')
    with pytest.raises(benchplan.InputError, match="unknown key margn"):
        inspect_hooks.settings(cwd=tmp_path)


def test_evallog_objects_are_inputs_in_a_notebook(baseline_log: Any, tmp_path: Path) -> None:
    candidate = _run("candidate", tmp_path / "logs")
    estimate, base_mean = _expected()
    # EvalLog objects, as a notebook holds them after eval(): the models' names come from the logs.
    r = benchplan.compare(baseline_log, candidate, a="mockllm/candidate", b="mockllm/baseline")
    assert r.n == N and r.mean_b == base_mean and r.estimate == pytest.approx(estimate, abs=1e-12)
    # Two runs of one log compare too when named: an estimate of exactly 0.
    same = inspect_hooks.compare_logs(baseline_log, baseline_log.location)
    assert same.estimate == 0 and same.n == N
    # A scorer that is not in the log is bad input, named.
    with pytest.raises(benchplan.InputError, match="nosuch"):
        inspect_hooks.compare_logs(candidate, baseline_log, scorer="nosuch")
