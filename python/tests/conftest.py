"""Shared fixtures: the repository root and the repo's own CLI (bin/benchplan.js), the reference the package must equal."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def cli_json(*args: str, accepted: tuple[int, ...] = (0, 1, 3)) -> dict[str, Any]:
    """``node bin/benchplan.js ARGS --json`` run from the repository root: the CLI's own numbers."""
    done = subprocess.run(["node", str(ROOT / "bin" / "benchplan.js"), *args, "--json"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode in accepted, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


@pytest.fixture(autouse=True)
def _from_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def pytest_report_header(config: pytest.Config) -> list[str]:
    node = shutil.which("node")
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip() if node else "none"
    lines = [f"benchplan python tests: node {version} ({node}), BENCHPLAN_NODE={os.environ.get('BENCHPLAN_NODE', '')}"]
    try:
        import inspect_ai

        lines.append(f"inspect-ai {inspect_ai.__version__}")
    except ImportError:
        lines.append("inspect-ai not installed")
    return lines
