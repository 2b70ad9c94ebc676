"""Inspect integration: compare an eval's log with a baseline log when a task or an eval set ends.

Installed with the package, Inspect loads these hooks through the ``inspect_ai`` entry point;
they stay off until a baseline is given:

- ``BENCHPLAN_INSPECT_BASELINE``: the baseline log (``.eval`` or ``.json``), or a folder of
  logs (the newest log of the same task is used);
- or a config file: ``$BENCHPLAN_INSPECT_CONFIG``, else ``benchplan-inspect.toml`` in the
  working directory, with the keys below (``baseline = "logs/main.eval"``; Python >= 3.11).

Settings (environment variable, config key):

===============================  ==============  =====================================================
``BENCHPLAN_INSPECT_BASELINE``   ``baseline``    baseline log or folder of logs (enables the hooks)
``BENCHPLAN_INSPECT_MARGIN``     ``margin``      largest acceptable drop: a gate instead of a comparison
``BENCHPLAN_INSPECT_SUMMARY``    ``summary``     Markdown file appended to (default: ``<log>.benchplan.md``)
``BENCHPLAN_INSPECT_SCORER``     ``scorer``      the scorer to read (default: the only one)
``BENCHPLAN_INSPECT_SEED``       ``seed``        seed of the resampling (default 0)
``BENCHPLAN_INSPECT_RESAMPLES``  ``resamples``   bootstrap resamples (default: the CLI's)
===============================  ==============  =====================================================

At the end of each task the hook pairs the task's samples with the baseline's by sample id
(epochs are repeats of a sample, reduced with the log's own reducer, as ``benchplan import``
does), runs ``benchplan compare --a candidate --b baseline`` (or ``gate`` with a margin), and
reports the verdict three ways: a line on standard error, ``eval.metadata["benchplan"]`` in the
task's log file, and a Markdown summary. At the end of an eval set the verdicts of its tasks
are written together to ``benchplan-summary.md`` in the set's log folder. A hook never fails
the eval: Inspect catches and logs any exception a hook raises.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import _commands
from ._results import Result
from .errors import BenchplanError

CONFIG_FILE = "benchplan-inspect.toml"
_KEYS = ("baseline", "margin", "summary", "scorer", "seed", "resamples")


@dataclass(frozen=True)
class HookSettings:
    """The hook's settings, from the environment, else the config file."""

    baseline: str | None
    margin: float | None = None
    summary: str | None = None
    scorer: str | None = None
    seed: str | None = None
    resamples: int | None = None


def settings(environ: dict[str, str] | None = None, cwd: str | os.PathLike[str] | None = None) -> HookSettings:
    """Read the hook's settings (environment first, then the config file).

    Parameters
    ----------
    environ : dict, optional
        The environment (default: ``os.environ``).
    cwd : path, optional
        Where to look for ``benchplan-inspect.toml`` (default: the working directory).

    Returns
    -------
    HookSettings
        ``baseline`` is None when the hooks are off.

    Raises
    ------
    InputError
        A margin or resamples value that is not a number, or an unreadable config file.
    """
    from .errors import InputError

    env = os.environ if environ is None else environ
    values: dict[str, Any] = {}
    config_path = env.get("BENCHPLAN_INSPECT_CONFIG") or str(Path(cwd or os.getcwd()) / CONFIG_FILE)
    if os.path.isfile(config_path):
        try:
            import tomllib
        except ImportError:  # pragma: no cover  (Python 3.10)
            raise InputError(f"{config_path}: reading the config file needs Python >= 3.11 (use the environment variables)") from None
        try:
            with open(config_path, "rb") as handle:
                data = tomllib.load(handle)
        except (OSError, tomllib.TOMLDecodeError) as error:
            raise InputError(f"{config_path}: cannot read the config file ({error})", file=config_path) from None
        table = data.get("tool", {}).get("benchplan", {}).get("inspect", data)
        for key, value in table.items():
            if key not in _KEYS:
                raise InputError(f"{config_path}: unknown key {key} (known: {', '.join(_KEYS)})", file=config_path)
            values[key] = value
    for key in _KEYS:
        text = env.get(f"BENCHPLAN_INSPECT_{key.upper()}", "").strip()
        if text:
            values[key] = text

    def number(key: str, kind: type) -> Any:
        if key not in values:
            return None
        try:
            return kind(values[key])
        except (TypeError, ValueError):
            raise InputError(f"BENCHPLAN_INSPECT_{key.upper()}: must be a number (got {values[key]!r})", file=f"BENCHPLAN_INSPECT_{key.upper()}") from None

    return HookSettings(
        baseline=str(values["baseline"]) if values.get("baseline") else None,
        margin=number("margin", float),
        summary=str(values["summary"]) if values.get("summary") else None,
        scorer=str(values["scorer"]) if values.get("scorer") else None,
        seed=str(values["seed"]) if values.get("seed") is not None else None,
        resamples=number("resamples", int),
    )


def baseline_log(baseline: str, task: str) -> str:
    """The baseline log for ``task``: ``baseline`` itself, or the newest log of that task in the folder ``baseline``.

    Raises
    ------
    InputError
        When the path does not exist or the folder holds no log of the task.
    """
    from .errors import InputError

    if os.path.isfile(baseline):
        return baseline
    if not os.path.isdir(baseline):
        raise InputError(f"BENCHPLAN_INSPECT_BASELINE: no such log or folder (got {baseline})", file="BENCHPLAN_INSPECT_BASELINE")
    from inspect_ai.log import list_eval_logs, read_eval_log

    found = []
    for info in list_eval_logs(baseline, recursive=False):
        header = read_eval_log(info, header_only=True)
        if header.eval.task == task or header.eval.task.split("/")[-1] == task.split("/")[-1]:
            found.append((header.eval.created, info.name))
    if not found:
        raise InputError(f"BENCHPLAN_INSPECT_BASELINE: {baseline} holds no log of task {task}", file="BENCHPLAN_INSPECT_BASELINE")
    name = max(found)[1]
    return name[len("file://"):] if name.startswith("file://") else name


def compare_logs(candidate: Any, baseline: Any, *, margin: float | None = None, **options: Any) -> Result:
    """Compare a candidate Inspect log with a baseline log, paired by sample id.

    The two logs are named ``candidate`` and ``baseline`` for the comparison (so two runs of
    one model compare too); the estimate is candidate − baseline.

    Parameters
    ----------
    candidate, baseline : path or inspect_ai EvalLog
        The logs (``.eval`` or ``.json``, or ``EvalLog`` objects).
    margin : float, optional
        With a margin: ``benchplan gate`` (does the candidate drop by more than ``margin``?);
        without: ``benchplan compare``.
    **options
        More flags of the command (``scorer``, ``seed``, ``resamples``, ``method``…).

    Returns
    -------
    Result
        ``CompareResult`` or ``GateResult``.

    Raises
    ------
    InputError
        Bad logs (e.g. no sample in common, a scorer that is not there).

    Examples
    --------
    >>> compare_logs("logs/pr.eval", "logs/main.eval").estimate  # doctest: +SKIP
    """
    import tempfile

    from ._inputs import Materialised

    with tempfile.TemporaryDirectory(prefix="benchplan-inspect-") as folder:
        files = Materialised(Path(folder))
        base = files.path(baseline, "baseline")
        cand = files.path(candidate, "candidate")
        names = [f"{base}=baseline", f"{cand}=candidate"]
        if margin is None:
            return _commands.run_json("compare", (base, cand), {"a": "candidate", "b": "baseline", "model_name": names, **options}, "pairs")
        return _commands.run_json("gate", (base, cand), {"baseline": "baseline", "candidate": "candidate", "margin": margin, "model_name": names, **options}, "+overall+strata")


def verdict(result: Result) -> dict[str, Any]:
    """A compact verdict of a :func:`compare_logs` result (camelCase keys: it goes into the log's JSON).

    Returns
    -------
    dict
        ``verdict`` (``candidate better``, ``candidate worse``, ``no difference detected``;
        with a margin ``passed``, ``regression not ruled out`` or ``inconclusive``), the
        estimate, ``confidenceInterval``, ``pValue`` (comparisons), ``methodUsed``, ``n``,
        ``margin``, ``seed``, ``warnings``.
    """
    data = result.to_dict()
    if "passed" in data:  # a gate
        overall = data.get("overall") or {}
        word = "passed" if data["passed"] else ("inconclusive" if result.exit_status == 3 else "regression not ruled out")
        return {
            "verdict": word,
            "estimate": overall.get("estimate"),
            "confidenceInterval": overall.get("confidenceInterval", overall.get("interval")),
            "lowerBound": overall.get("lowerBound"),
            "margin": data.get("margin"),
            "methodUsed": data.get("methodUsed", overall.get("methodUsed")),
            "n": data.get("n"),
            "seed": data.get("seed"),
            "warnings": data.get("warnings", []),
        }
    interval = data.get("confidenceInterval", data.get("interval")) or [None, None]
    low, high = interval
    word = "candidate better" if low is not None and low > 0 else "candidate worse" if high is not None and high < 0 else "no difference detected"
    return {
        "verdict": word,
        "estimate": data.get("estimate"),
        "confidenceInterval": interval,
        "pValue": data.get("pValue"),
        "confidenceLevel": data.get("confidenceLevel"),
        "methodUsed": data.get("methodUsed"),
        "n": data.get("n"),
        "seed": data.get("seed"),
        "warnings": data.get("warnings", []),
    }


def verdict_line(task: str, facts: dict[str, Any]) -> str:
    """One console line: ``benchplan: TASK: VERDICT: candidate − baseline = E [LOW, HIGH] (n items, METHOD)``."""

    def number(x: Any) -> str:
        return "–" if x is None else f"{x:.4g}"

    low, high = (facts.get("confidenceInterval") or [None, None])[:2]
    return (
        f"benchplan: {task}: {facts['verdict']}: candidate − baseline = {number(facts.get('estimate'))} "
        f"[{number(low)}, {number(high)}] ({facts.get('n')} items, {facts.get('methodUsed')})"
    )


def markdown(task: str, candidate: str, baseline: str, result: Result, margin: float | None, options: dict[str, Any]) -> str:
    """The CLI's own Markdown verdict of the same comparison (``--format markdown``), under a heading naming the logs."""
    from ._node import raise_for_status, run_cli

    if margin is None:
        args = _commands.command_args(_NoFiles(), "compare", (baseline, candidate), {"a": "candidate", "b": "baseline", "model_name": [f"{baseline}=baseline", f"{candidate}=candidate"], **options})
    else:
        args = _commands.command_args(_NoFiles(), "gate", (baseline, candidate), {"baseline": "baseline", "candidate": "candidate", "margin": margin, "model_name": [f"{baseline}=baseline", f"{candidate}=candidate"], **options})
    done = run_cli(args + ["--format", "markdown"])
    raise_for_status(done, (0, 1, 3), {})
    return f"### benchplan: {task}\n\ncandidate `{candidate}` vs baseline `{baseline}`\n\n{done.stdout.strip()}\n"


class _NoFiles:
    def path(self, value: Any, role: str = "input") -> str:
        return str(os.fspath(value))


def report_task(log: Any, config: HookSettings) -> dict[str, Any]:
    """Compare one task's log with its baseline and report it (console, log metadata, Markdown).

    Parameters
    ----------
    log : inspect_ai.log.EvalLog
        The task's log, as Inspect passes it to ``on_task_end`` (written to ``log.location``).
    config : HookSettings
        The settings (``baseline`` set).

    Returns
    -------
    dict
        The verdict stored in the log's ``eval.metadata["benchplan"]``, plus ``summary``: the
        Markdown file written.
    """
    from inspect_ai.log import read_eval_log, write_eval_log

    assert config.baseline is not None
    task = log.eval.task
    location = log.location[len("file://"):] if log.location.startswith("file://") else log.location
    base = baseline_log(config.baseline, task)
    options: dict[str, Any] = {"scorer": config.scorer, "seed": config.seed, "resamples": config.resamples}
    options = {k: v for k, v in options.items() if v is not None}
    result = compare_logs(location, base, margin=config.margin, **options)
    facts = {**verdict(result), "baseline": base, "candidate": location, "command": "gate" if config.margin is not None else "compare"}
    sys.stderr.write(verdict_line(task, facts) + "\n")
    sys.stderr.flush()
    summary = config.summary or str(Path(location).with_suffix("")) + ".benchplan.md"
    with open(summary, "a", encoding="utf-8") as handle:
        handle.write(markdown(task, location, base, result, config.margin, options) + "\n")
    # The verdict into the log itself, beside the task's own metadata.
    full = read_eval_log(location)
    metadata = dict(full.eval.metadata or {})
    metadata["benchplan"] = facts
    full.eval.metadata = metadata
    write_eval_log(full, location)
    return {**facts, "summary": summary}


def write_set_summary(path: Path, reports: list[tuple[str, dict[str, Any]]]) -> None:
    """The verdicts of an eval set's tasks as one Markdown table (written at the end of the set)."""
    lines = ["# benchplan: eval set verdicts", "", "| task | verdict | candidate − baseline | interval | n | baseline |", "| --- | --- | ---: | --- | ---: | --- |"]
    for task, facts in reports:
        low, high = (facts.get("confidenceInterval") or [None, None])[:2]
        lines.append(f"| {task} | {facts['verdict']} | {facts.get('estimate')} | [{low}, {high}] | {facts.get('n')} | `{facts.get('baseline')}` |")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _register() -> None:
    """Register the hooks with Inspect (called when Inspect loads the package's entry point)."""
    from inspect_ai.hooks import EvalSetEnd, Hooks, TaskEnd, hooks

    @hooks(name="benchplan", description="benchplan: compare each task's log with a baseline log (paired by sample id)")
    class BenchplanHooks(Hooks):
        def __init__(self) -> None:
            self.reports: list[tuple[str, dict[str, Any]]] = []

        def enabled(self) -> bool:
            try:
                return settings().baseline is not None
            except BenchplanError as error:
                sys.stderr.write(f"benchplan: the Inspect hook is off: {error}\n")
                return False

        async def on_task_end(self, data: TaskEnd) -> None:
            try:
                facts = report_task(data.log, settings())
            except BenchplanError as error:
                sys.stderr.write(f"benchplan: {data.log.eval.task}: no verdict: {error}\n")
                return
            self.reports.append((data.log.eval.task, facts))

        async def on_eval_set_end(self, data: EvalSetEnd) -> None:
            folder = Path(data.log_dir).resolve()
            mine = [(task, facts) for task, facts in self.reports if Path(facts["candidate"]).resolve().is_relative_to(folder)]
            self.reports = [r for r in self.reports if r not in mine]
            if mine:
                write_set_summary(folder / "benchplan-summary.md", mine)

    BenchplanHooks.__module__ = __name__
