"""The exceptions of benchplan's Python package."""

from __future__ import annotations


class BenchplanError(Exception):
    """Base class of every error this package raises."""


class InputError(BenchplanError, ValueError):
    """Bad input or usage: the CLI's exit status 2, with its message.

    The message is the CLI's ``FILE:LINE: what is wrong (got VALUE)`` (without ``error:``).
    For a DataFrame argument FILE reads ``<DataFrame N>`` and LINE is the line of the CSV it
    was written to (line 2 is the first row); for an Inspect ``EvalLog`` it reads
    ``<EvalLog N>``.

    Attributes
    ----------
    file : str or None
        The file (or flag) the CLI names, when it names one with a line.
    line : int or None
        The line number, when given.
    stderr : str
        Everything the CLI wrote to standard error.
    """

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None, stderr: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.stderr = stderr


class EngineError(BenchplanError, RuntimeError):
    """The CLI failed for a reason that is not bad input (its exit status and standard error attached)."""

    def __init__(self, message: str, *, status: int | None = None, stderr: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.stderr = stderr


class NodeNotFoundError(BenchplanError, RuntimeError):
    """No Node.js >= 20 to run the engine; the message names what was found."""
