"""Charts are the npm package's: the Python engine ships no native PNG renderer, and says so clearly."""

from __future__ import annotations

from pathlib import Path

import pytest

import benchplan


def test_a_png_chart_from_python_raises_a_clear_engine_error(tmp_path: Path) -> None:
    target = tmp_path / "chart.png"
    with pytest.raises(benchplan.EngineError, match="charts are not available from the Python package") as caught:
        benchplan.compare("examples/scores.csv", a="alpha", b="beta", chart=str(target))
    assert "npx benchplan" in str(caught.value)
    assert not target.exists()  # nothing half-written
