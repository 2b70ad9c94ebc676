"""The commands: each runs ``benchplan COMMAND … --json`` on the bundled engine and returns its result."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Protocol, Sequence, Union

from ._inputs import Materialised, Source
from ._node import raise_for_status, run_cli
from ._results import Result, to_result
from .errors import EngineError

Option = Union[str, int, float, bool, None, Sequence[Any], Any]
"""An option value: True is a switch, None/False leave it out, a list or tuple repeats the flag,
a DataFrame or EvalLog is written to a temporary file whose path is passed."""

# Exit statuses after which the CLI has printed its JSON: 0 done, 1 a check failed (gate), 3 inconclusive.
_ANSWERED = (0, 1, 3)


def _flag(name: str) -> str:
    return "--" + name.rstrip("_").replace("_", "-")


class PathMaker(Protocol):
    """What turns an input into a path the CLI reads (:class:`Materialised` writes DataFrames and logs to files)."""

    def path(self, value: Source, role: str = "input") -> str: ...


def command_args(files: PathMaker, command: str, inputs: Sequence[Source], options: dict[str, Option]) -> list[str]:
    """The CLI arguments for ``command`` with ``inputs`` and keyword ``options`` (snake_case flag names)."""
    args = [command, *(files.path(x, "input") for x in inputs)]
    for name, value in options.items():
        if value is None or value is False:
            continue
        flag = _flag(name)
        if value is True:
            args.append(flag)
        elif isinstance(value, (list, tuple)):
            for item in value:
                args += [flag, _text(files, name, item)]
        else:
            args += [flag, _text(files, name, value)]
    return args


def _text(files: PathMaker, name: str, value: Any) -> str:
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, os.PathLike):
        return str(os.fspath(value))
    return files.path(value, name)


def run_json(command: str, inputs: Sequence[Source], options: dict[str, Option], table: str | None, cwd: str | os.PathLike[str] | None = None) -> Result:
    """Run one command with ``--json`` and build its result (see :func:`benchplan.compare` for the conventions)."""
    with tempfile.TemporaryDirectory(prefix="benchplan-") as folder:
        files = Materialised(Path(folder))
        args = command_args(files, command, inputs, options) + ["--json"]
        done = run_cli(args, cwd=cwd)
        raise_for_status(done, _ANSWERED, files.labels)
        try:
            data = json.loads(done.stdout)
        except json.JSONDecodeError:
            raise EngineError(
                f"benchplan {command} exited with status {done.status} without a JSON result: {done.stderr.strip()[-2000:]}",
                status=done.status,
                stderr=done.stderr,
            ) from None
    if not isinstance(data, dict):
        raise EngineError(f"benchplan {command} printed JSON that is not an object", status=done.status, stderr=done.stderr)
    result = to_result(data, command.capitalize() + "Result", table)
    object.__setattr__(result, "_exit_status", done.status)
    object.__setattr__(result, "_stderr", done.stderr)
    return result


def compare(*inputs: Source, cwd: str | os.PathLike[str] | None = None, **options: Option) -> Result:
    """Decide whether model A beats model B on the same items: ``benchplan compare``.

    Parameters
    ----------
    *inputs : str, PathLike, pandas.DataFrame or inspect_ai EvalLog
        Scores tables (item, model, score [, stratum, cluster, repeat]) or result files and
        folders of promptfoo, Inspect or lm-eval; DataFrames are written to a CSV, EvalLogs to
        a JSON log. Two Inspect logs of one model: name them with
        ``model_name=["a.json=base", "b.json=new"]`` or use :func:`benchplan.inspect.compare_logs`.
    cwd : path, optional
        Folder relative input paths are read from (default: the current one).
    **options
        The command's flags in snake_case (``a="alpha", b="beta", method="bca", seed=1,
        drop_unpaired=True``); ``benchplan compare --help`` lists them.

    Returns
    -------
    Result
        ``CompareResult``: the fields of ``benchplan compare --json`` in snake_case (``pairs``,
        each with ``estimate``, ``confidence_interval``, ``p_value``, ``method_used``…); ``to_frame()``
        gives one row per pair.

    Raises
    ------
    InputError
        Bad input (the CLI's ``FILE:LINE: what is wrong (got VALUE)``).
    NodeNotFoundError
        No Node.js >= 20.

    Examples
    --------
    >>> r = compare("examples/scores.csv", a="alpha", b="beta")  # doctest: +SKIP
    >>> r.pairs[0].estimate  # doctest: +SKIP
    0.1525
    """
    return run_json("compare", inputs, options, "pairs", cwd)


def gate(*inputs: Source, cwd: str | os.PathLike[str] | None = None, **options: Option) -> Result:
    """Check that a candidate does not regress beyond a margin: ``benchplan gate``.

    A failed gate is a result, not an exception: ``passed`` is False and ``exit_status`` 1
    (3 when the gate cannot decide).

    Parameters
    ----------
    *inputs : str, PathLike, pandas.DataFrame or inspect_ai EvalLog
        One scores table with both models, or two result files (baseline first).
    cwd : path, optional
        Folder relative input paths are read from.
    **options
        ``baseline``, ``candidate``, ``margin`` (required), ``method``, ``confidence``, …
        (``benchplan gate --help``).

    Returns
    -------
    Result
        ``GateResult`` (``passed``, ``threshold``, ``overall``, ``strata``…); ``to_frame()``
        gives the overall comparison and then one row per stratum.

    Raises
    ------
    InputError
        Bad input.

    Examples
    --------
    >>> gate("examples/agree-39.csv", baseline="main", candidate="pr", margin=0.05).passed  # doctest: +SKIP
    False
    """
    return run_json("gate", inputs, options, "+overall+strata", cwd)


def size(*pilot: Source, cwd: str | os.PathLike[str] | None = None, **options: Option) -> Result:
    """Items needed to see the smallest gap you would act on, from a pilot: ``benchplan size``.

    Parameters
    ----------
    *pilot : str, PathLike, pandas.DataFrame or inspect_ai EvalLog
        The pilot's scores.
    cwd : path, optional
        Folder relative input paths are read from.
    **options
        ``a``, ``b``, ``mde``, ``budget``, ``power``… (``benchplan size --help``).

    Returns
    -------
    Result
        ``SizeResult`` (``n``, ``n_for_power``, ``variance_of_difference``…); ``to_frame()``
        gives the curve.

    Raises
    ------
    InputError
        Bad input.

    Examples
    --------
    >>> size("examples/scores.csv", a="alpha", b="beta", mde=0.05).n  # doctest: +SKIP
    """
    return run_json("size", pilot, options, "curve", cwd)


def allocate(cwd: str | os.PathLike[str] | None = None, **options: Option) -> Result:
    """Split an annotation budget across strata: ``benchplan allocate``.

    Parameters
    ----------
    cwd : path, optional
        Folder relative paths are read from.
    **options
        ``strata`` (a strata YAML), ``budget``, ``method``, ``pilot`` (a path or DataFrame),
        ``a``, ``b``, ``min``… (``benchplan allocate --help``).

    Returns
    -------
    Result
        ``AllocateResult``; ``to_frame()`` gives the allocation per stratum.

    Raises
    ------
    InputError
        Bad input.

    Examples
    --------
    >>> allocate(strata="examples/strata.yaml", budget=400).total  # doctest: +SKIP
    400
    """
    return run_json("allocate", (), options, "allocation", cwd)


def headline(*inputs: Source, cwd: str | os.PathLike[str] | None = None, **options: Option) -> Result:
    """Per-stratum scores and a traffic-reweighted headline: ``benchplan headline``.

    Parameters
    ----------
    *inputs : str, PathLike, pandas.DataFrame or inspect_ai EvalLog
        Scores with a stratum column (or a ``stratum_key`` for tool files).
    cwd : path, optional
        Folder relative paths are read from.
    **options
        ``strata`` (required), ``model`` (a list repeats the flag)… (``benchplan headline --help``).

    Returns
    -------
    Result
        ``HeadlineResult``; ``to_frame()`` gives one row per model.

    Raises
    ------
    InputError
        Bad input.

    Examples
    --------
    >>> headline("examples/scores.csv", strata="examples/strata.yaml").models[0].model  # doctest: +SKIP
    """
    return run_json("headline", inputs, options, "models", cwd)


def sweep(*outcomes: Source, cwd: str | os.PathLike[str] | None = None, **options: Option) -> Result:
    """Check a cost ranking against the exchange rate between errors: ``benchplan sweep``.

    Parameters
    ----------
    *outcomes : str, PathLike or pandas.DataFrame
        Scores with an ``outcome`` column.
    cwd : path, optional
        Folder relative paths are read from.
    **options
        ``policy`` (required)… (``benchplan sweep --help``).

    Returns
    -------
    Result
        ``SweepResult`` (``verdict``, ``ranking``, ``crossings``…); ``to_frame()`` gives the costs.

    Raises
    ------
    InputError
        Bad input.

    Examples
    --------
    >>> sweep("examples/scores.csv", policy="examples/policy.yaml").verdict  # doctest: +SKIP
    """
    return run_json("sweep", outcomes, options, "costs", cwd)


def agree(annotations: Source, cwd: str | os.PathLike[str] | None = None, **options: Option) -> Result:
    """Annotator agreement per clause type: ``benchplan agree``.

    Parameters
    ----------
    annotations : str, PathLike or pandas.DataFrame
        Annotations (item, annotator, label [, type]).
    cwd : path, optional
        Folder relative paths are read from.
    **options
        ``annotators="ana,chloe"``, ``threshold``… (``benchplan agree --help``).

    Returns
    -------
    Result
        ``AgreeResult``; ``to_frame()`` gives one row per clause type.

    Raises
    ------
    InputError
        Bad input.

    Examples
    --------
    >>> agree("examples/annotations.csv").types[0].type  # doctest: +SKIP
    """
    return run_json("agree", (annotations,), options, "types", cwd)


def monitor(scores: Source, cwd: str | os.PathLike[str] | None = None, **options: Option) -> Result:
    """Watch a comparison as labels arrive (anytime-valid intervals): ``benchplan monitor``.

    Parameters
    ----------
    scores : str, PathLike or pandas.DataFrame
        Scores in the order they were labelled.
    cwd : path, optional
        Folder relative paths are read from.
    **options
        ``a``, ``b``, ``mde``, ``cluster``, ``sequence``… (``benchplan monitor --help``).

    Returns
    -------
    Result
        ``MonitorResult`` (``decision``, ``looks``…); ``to_frame()`` gives one row per look.

    Raises
    ------
    InputError
        Bad input.

    Examples
    --------
    >>> monitor("examples/monitor.csv", a="candidate", b="current").decision  # doctest: +SKIP
    """
    return run_json("monitor", (scores,), options, "looks", cwd)


def rank(*inputs: Source, cwd: str | os.PathLike[str] | None = None, **options: Option) -> Result:
    """The best of k candidates on the same items: ``benchplan rank``.

    Parameters
    ----------
    *inputs : str, PathLike, pandas.DataFrame or inspect_ai EvalLog
        A scores table with every candidate, or results files the import adapters read.
    cwd : path, optional
        Folder relative paths are read from.
    **options
        ``incumbent``, ``budget``, ``margin``, ``cluster``, ``seed``… (``benchplan rank --help``).

    Returns
    -------
    Result
        ``RankResult`` (``leader``, ``candidates`` with P(best) and intervals, ``selection``,
        ``label_more``); ``to_frame()`` gives one row per candidate.

    Raises
    ------
    InputError
        Bad input.

    Examples
    --------
    >>> rank("examples/scores.csv").leader  # doctest: +SKIP
    """
    return run_json("rank", inputs, options, "candidates", cwd)


def judge(table: Source, cwd: str | os.PathLike[str] | None = None, **options: Option) -> Result:
    """Validate an LLM judge against human labels: ``benchplan judge``.

    Parameters
    ----------
    table : str, PathLike or pandas.DataFrame
        Items with the judge's score (``judge``) and the human label (``score``) per candidate.
    cwd : path, optional
        Folder relative paths are read from.
    **options
        ``self_family``, ``covariate``, ``mde``, ``seed``… (``benchplan judge --help``).

    Returns
    -------
    Result
        ``JudgeResult`` (``agreement``, ``candidates``, ``probes``, ``corrected_rates``…);
        ``to_frame()`` gives one row per candidate.

    Raises
    ------
    InputError
        Bad input.

    Examples
    --------
    >>> judge("examples/judge-labels.csv").agreement  # doctest: +SKIP
    """
    return run_json("judge", (table,), options, "candidates", cwd)
