"""Turning what a Python caller passes (paths, DataFrames, Inspect logs) into files the CLI reads."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Union

Source = Union[str, "os.PathLike[str]", Any]
"""A path (str or PathLike), a pandas DataFrame in the scores-table shape, or an Inspect ``EvalLog``."""


def _is_dataframe(value: Any) -> bool:
    return type(value).__name__ == "DataFrame" and type(value).__module__.startswith("pandas")


def _is_eval_log(value: Any) -> bool:
    return type(value).__name__ == "EvalLog" and type(value).__module__.startswith("inspect_ai")


class Materialised:
    """Writes non-path inputs into a temporary folder; maps the temporary paths back to labels for messages."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.labels: dict[str, str] = {}
        self._count = 0

    def path(self, value: Source, role: str = "input") -> str:
        """The path the CLI should read for ``value`` (written to the folder when not a path)."""
        if isinstance(value, (str, os.PathLike)):
            return os.fspath(value)
        self._count += 1
        if _is_dataframe(value):
            target = self.folder / f"{role}-{self._count}.csv"
            value.to_csv(target, index=False)
            self.labels[str(target)] = f"<DataFrame {self._count}>"
            return str(target)
        if _is_eval_log(value):
            from inspect_ai.log import write_eval_log

            # A log that is still on disk is read from there: its samples may not all be in memory.
            location = getattr(value, "location", None)
            if isinstance(location, str) and location and os.path.isfile(location) and value.samples is None:
                return location
            target = self.folder / f"{role}-{self._count}.json"
            write_eval_log(value, str(target), format="json")
            self.labels[str(target)] = f"<EvalLog {self._count}>"
            return str(target)
        raise TypeError(
            f"benchplan: an input must be a path, a pandas DataFrame or an Inspect EvalLog (got {type(value).__name__})"
        )
