"""The package type-checks with mypy --strict (it ships py.typed: its annotations are part of its API)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT

pytest.importorskip("mypy", reason="mypy is not installed (scripts/setup-real-clients.sh installs the pinned version)")


def test_mypy_strict() -> None:
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT / "python", capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_py_typed_ships() -> None:
    assert (ROOT / "python" / "src" / "benchplan" / "py.typed").is_file()
    assert "py.typed" in (ROOT / "python" / "pyproject.toml").read_text()
