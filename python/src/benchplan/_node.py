"""Running the bundled engine (the benchplan CLI as one JavaScript file) with the user's Node."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Sequence

from .errors import EngineError, InputError, NodeNotFoundError

MINIMUM_NODE = 20
ENGINE = Path(__file__).resolve().parent / "_engine" / "benchplan.mjs"

_ERROR_LINE = re.compile(r"^error: (.*)$", re.MULTILINE)
_FILE_LINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+): ")


@dataclass(frozen=True)
class Completed:
    """What one run of the CLI produced: exit status, standard output and standard error."""

    status: int
    stdout: str
    stderr: str


@lru_cache(maxsize=8)
def _checked_node(node: str) -> str:
    try:
        version = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=60).stdout.strip()
    except OSError as error:
        raise NodeNotFoundError(f"benchplan needs Node.js >= {MINIMUM_NODE}: {node} could not be run ({error})") from None
    match = re.match(r"^v(\d+)\.", version)
    if match is None or int(match.group(1)) < MINIMUM_NODE:
        raise NodeNotFoundError(
            f"benchplan needs Node.js >= {MINIMUM_NODE}: found {version or 'no version'} at {node} "
            "(install a current Node, or point BENCHPLAN_NODE at one)"
        )
    return node


def node_executable() -> str:
    """The Node.js executable the engine runs on: ``$BENCHPLAN_NODE``, else ``node`` on PATH.

    Returns
    -------
    str
        Its path, checked to be Node >= 20 (once per path).

    Raises
    ------
    NodeNotFoundError
        When there is none, or it is older than Node 20; the message names what was found.
    """
    configured = os.environ.get("BENCHPLAN_NODE", "").strip()
    node = configured or shutil.which("node")
    if node is None:
        raise NodeNotFoundError(
            f"benchplan needs Node.js >= {MINIMUM_NODE} to run its engine: found no `node` on PATH "
            "(install Node, or set BENCHPLAN_NODE to its path)"
        )
    return _checked_node(node)


def engine_path() -> Path:
    """The bundled CLI this package runs.

    Raises
    ------
    EngineError
        When the package was installed without it (a broken build).
    """
    if not ENGINE.is_file():
        raise EngineError(f"the benchplan engine {ENGINE} is missing: reinstall the package (its build bundles the CLI)")
    return ENGINE


def run_cli(args: Sequence[str], cwd: str | os.PathLike[str] | None = None) -> Completed:
    """Run ``benchplan ARGS`` and capture its output (no check of the exit status)."""
    done = subprocess.run(
        [node_executable(), str(engine_path()), *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd,
        env={**os.environ, "NO_COLOR": "1"},
    )
    return Completed(done.returncode, done.stdout, done.stderr)


def raise_for_status(done: Completed, accepted: Sequence[int], replacements: dict[str, str]) -> None:
    """Turn an exit status the caller does not accept into the package's exceptions.

    Exit status 2 (bad input or usage) becomes :class:`InputError` with the CLI's
    ``FILE:LINE: what is wrong (got VALUE)`` message; temporary files written for
    DataFrames or Inspect logs are renamed in it to what the caller passed.
    """
    if done.status in accepted:
        return
    stderr = done.stderr
    for temporary, label in replacements.items():
        stderr = stderr.replace(temporary, label)
    if done.status == 2:
        lines = _ERROR_LINE.findall(stderr)
        message = lines[0] if lines else (stderr.strip() or "bad input or usage")
        where = _FILE_LINE.match(message)
        raise InputError(
            message,
            file=where.group("file") if where else None,
            line=int(where.group("line")) if where else None,
            stderr=stderr,
        )
    if "dejavu-fonts-ttf" in stderr or "resvg" in stderr:
        raise EngineError(
            "charts are not available from the Python package (it ships neither the chart fonts nor the native PNG "
            "renderer): draw them with the npm package's CLI (npx benchplan … --chart FILE)",
            status=done.status,
            stderr=stderr,
        )
    raise EngineError(f"benchplan exited with status {done.status}: {stderr.strip()[-2000:]}", status=done.status, stderr=stderr)
