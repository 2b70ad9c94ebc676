"""The quickstart notebook (python/examples/quickstart.ipynb) runs top to bottom, and prints the CLI's numbers."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

nbclient = pytest.importorskip("nbclient", reason="nbclient is not installed (scripts/setup-real-clients.sh installs it)")
nbformat = pytest.importorskip("nbformat")
pytest.importorskip("inspect_ai", reason="the notebook's Inspect section needs inspect-ai")

from conftest import ROOT, cli_json  # noqa: E402


def _value(cell: object) -> object:
    """The literal value a cell displayed (its execute_result's text/plain)."""
    for output in cell["outputs"]:  # type: ignore[index]
        if output["output_type"] == "execute_result":
            return ast.literal_eval(output["data"]["text/plain"])
    raise AssertionError(f"cell shows no result: {cell['source']}")  # type: ignore[index]


def test_the_notebook_runs_and_shows_the_cli_numbers(tmp_path: Path) -> None:
    notebook = nbformat.read(ROOT / "python" / "examples" / "quickstart.ipynb", as_version=4)
    nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}).execute()
    tagged = {tag: cell for cell in notebook.cells for tag in cell.get("metadata", {}).get("tags", [])}

    cli = cli_json("compare", "examples/scores.csv", "--a", "alpha", "--b", "beta")
    assert _value(tagged["compare"]) == (cli["estimate"], cli["confidenceInterval"], cli["pValue"], cli["methodUsed"])

    gate = cli_json("gate", "examples/agree-39.csv", "--baseline", "main", "--candidate", "pr", "--margin", "0.05")
    assert _value(tagged["gate"]) == (gate["passed"], gate["overall"]["lowerBound"], gate["overall"]["itemsNeeded"])

    n, mean_a, mean_b, estimate, interval = _value(tagged["inspect"])  # type: ignore[misc]
    # 30 items: the baseline misses 6 (i % 5 == 0), the candidate 3 (i % 8 == 0).
    assert (n, mean_a, mean_b) == (30, 0.9, 0.8) and abs(estimate - 0.1) < 1e-12
    assert interval[0] <= estimate <= interval[1]
