"""benchplan from Python: paired comparisons, gates, sizing and allocation for private selection benchmarks.

Every function runs the benchplan CLI itself (bundled in this package as one JavaScript file,
run with your ``node`` >= 20), so the numbers are the CLI's to the last digit. Inputs are file
paths, pandas DataFrames in the scores-table shape (item, model, score [, stratum, cluster,
repeat]) or Inspect ``EvalLog`` objects; results are dataclasses whose fields are the
command's JSON fields in snake_case, each with ``.to_frame()``.

Examples
--------
>>> import benchplan                                              # doctest: +SKIP
>>> r = benchplan.compare("examples/scores.csv", a="alpha", b="beta")  # doctest: +SKIP
>>> r.pairs[0].estimate                                           # doctest: +SKIP
0.1525
"""

from __future__ import annotations

from ._commands import agree, allocate, compare, gate, headline, judge, monitor, rank, size, sweep
from ._node import engine_path, node_executable, run_cli
from ._results import Result, snake_case
from .errors import BenchplanError, EngineError, InputError, NodeNotFoundError

__version__ = "0.1.0"

__all__ = [
    "BenchplanError",
    "EngineError",
    "InputError",
    "NodeNotFoundError",
    "Result",
    "agree",
    "allocate",
    "compare",
    "engine_path",
    "gate",
    "headline",
    "judge",
    "monitor",
    "node_executable",
    "rank",
    "run_cli",
    "size",
    "snake_case",
    "sweep",
]
