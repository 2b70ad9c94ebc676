"""The ``benchplan`` console script: forwards its arguments to the bundled CLI."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Sequence

from ._node import engine_path, node_executable
from .errors import BenchplanError


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``benchplan ARGS`` on the bundled engine with the terminal's own streams.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        The CLI's exit status (2 with a message when no suitable Node is found).
    """
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        command = [node_executable(), str(engine_path()), *args]
    except BenchplanError as error:
        sys.stderr.write(f"error: {error}\n")
        return 2
    if os.name != "nt" and argv is None:
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(command[0], command)  # the CLI's own process: signals, TTY and exit status pass through
    return subprocess.run(command).returncode


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
