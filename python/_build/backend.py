"""PEP 517 backend of benchplan's Python package: setuptools, after bundling the engine.

The engine is the benchplan CLI bundled into one JavaScript file
(``src/benchplan/_engine/benchplan.mjs``) by ``scripts/bundle-python.mjs`` in the
repository this folder sits in. It is built here, from the repository, whenever a wheel
or an sdist is built, so ``pip install ./python`` from a clone and
``pip install "git+URL#subdirectory=python"`` (pip clones the whole repository and builds
in the subdirectory) both ship the engine of the code they were built from; no bundle is
committed. Building needs Node >= 20 and npm; ``npm ci`` and ``npm run build`` run first
when the repository has not been built. An sdist carries the built engine, so a wheel
built from an sdist (outside the repository) needs no Node.

Set ``BENCHPLAN_SKIP_ENGINE_BUILD=1`` to package an engine already in place as it is.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F401,F403  (the hooks not overridden below)

HERE = Path(__file__).resolve().parent.parent
ENGINE = HERE / "src" / "benchplan" / "_engine" / "benchplan.mjs"


def _repository() -> Path | None:
    """The benchplan repository above python/, or None (building from an sdist)."""
    root = HERE.parent
    manifest = root / "package.json"
    if (root / "scripts" / "bundle-python.mjs").is_file() and manifest.is_file() and '"name": "benchplan"' in manifest.read_text("utf8"):
        return root
    return None


def _fail(message: str) -> None:
    sys.stderr.write(f"benchplan build: {message}\n")
    raise SystemExit(1)


def _run(command: list[str], cwd: Path) -> None:
    sys.stderr.write(f"benchplan build: {' '.join(command)}\n")
    done = subprocess.run(command, cwd=cwd, stdout=sys.stderr, stderr=sys.stderr)
    if done.returncode != 0:
        _fail(f"`{' '.join(command)}` failed with exit status {done.returncode} in {cwd}")


def _node_major(node: str) -> tuple[int, str]:
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    try:
        return int(version.lstrip("v").split(".")[0]), version
    except ValueError:
        return 0, version or "no version"


def build_engine() -> None:
    """Bundle the CLI into src/benchplan/_engine/ from the repository (building it first if needed)."""
    if os.environ.get("BENCHPLAN_SKIP_ENGINE_BUILD") == "1":
        if not ENGINE.is_file():
            _fail(f"BENCHPLAN_SKIP_ENGINE_BUILD=1 but {ENGINE} does not exist")
        return
    root = _repository()
    if root is None:
        if ENGINE.is_file():
            return  # an sdist: the engine was bundled when the sdist was made
        _fail(f"no engine at {ENGINE} and no benchplan repository above {HERE} to bundle it from")
        return
    node = shutil.which("node")
    npm = shutil.which("npm")
    if node is None or npm is None:
        _fail("building the Python package bundles the benchplan CLI and needs Node >= 20 and npm on PATH "
              f"(found node: {node or 'none'}, npm: {npm or 'none'})")
        return
    major, version = _node_major(node)
    if major < 20:
        _fail(f"building the Python package needs Node >= 20 (found {version} at {node})")
    if not (root / "node_modules" / "esbuild").is_dir():
        _run([npm, "ci", "--no-audit", "--no-fund"], root)
    if not (root / "dist" / "cli" / "main.js").is_file():
        _run([npm, "run", "build"], root)
    _run([node, "scripts/bundle-python.mjs"], root)


def build_wheel(wheel_directory: str, config_settings: dict[str, Any] | None = None, metadata_directory: str | None = None) -> str:
    build_engine()
    return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_editable(wheel_directory: str, config_settings: dict[str, Any] | None = None, metadata_directory: str | None = None) -> str:
    build_engine()
    return _setuptools.build_editable(wheel_directory, config_settings, metadata_directory)


def build_sdist(sdist_directory: str, config_settings: dict[str, Any] | None = None) -> str:
    build_engine()
    return _setuptools.build_sdist(sdist_directory, config_settings)
