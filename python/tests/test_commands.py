"""Each command from Python gives the CLI's JSON to the last digit (same engine, same bytes parsed)."""

from __future__ import annotations

import math

import pytest

import benchplan
from conftest import cli_json

# (function, positional inputs, options, the same run as CLI arguments)
CASES = [
    ("compare", ["examples/scores.csv"], {}, ["compare", "examples/scores.csv"]),
    ("compare", ["examples/scores.csv"], {"a": "alpha", "b": "beta", "method": "bca", "resamples": 1999, "seed": 7},
     ["compare", "examples/scores.csv", "--a", "alpha", "--b", "beta", "--method", "bca", "--resamples", "1999", "--seed", "7"]),
    ("compare", ["examples/promptfoo/main.json", "examples/promptfoo/pr.json"], {"drop_unpaired": True},
     ["compare", "examples/promptfoo/main.json", "examples/promptfoo/pr.json", "--drop-unpaired"]),
    ("gate", ["examples/agree-39.csv"], {"baseline": "main", "candidate": "pr", "margin": 0.05},
     ["gate", "examples/agree-39.csv", "--baseline", "main", "--candidate", "pr", "--margin", "0.05"]),
    ("gate", ["examples/scores.csv"], {"baseline": "beta", "candidate": "alpha", "margin": 0.02, "cluster": True, "per_stratum": True},
     ["gate", "examples/scores.csv", "--baseline", "beta", "--candidate", "alpha", "--margin", "0.02", "--cluster", "--per-stratum"]),
    ("size", ["examples/scores.csv"], {"a": "alpha", "b": "beta", "mde": 0.05},
     ["size", "examples/scores.csv", "--a", "alpha", "--b", "beta", "--mde", "0.05"]),
    ("allocate", [], {"strata": "examples/strata.yaml", "budget": 400, "method": "neyman", "min": 30, "pilot": "examples/pilot.csv", "a": "candidate", "b": "baseline"},
     ["allocate", "--strata", "examples/strata.yaml", "--budget", "400", "--method", "neyman", "--min", "30", "--pilot", "examples/pilot.csv", "--a", "candidate", "--b", "baseline"]),
    ("headline", ["examples/scores.csv"], {"strata": "examples/strata.yaml", "model": ["alpha", "beta"]},
     ["headline", "examples/scores.csv", "--strata", "examples/strata.yaml", "--model", "alpha", "--model", "beta"]),
    ("sweep", ["examples/scores.csv"], {"policy": "examples/policy.yaml"}, ["sweep", "examples/scores.csv", "--policy", "examples/policy.yaml"]),
    ("agree", ["examples/annotations.csv"], {"annotators": "ana,chloe"}, ["agree", "examples/annotations.csv", "--annotators", "ana,chloe"]),
    ("monitor", ["examples/monitor.csv"], {"a": "candidate", "b": "current", "cluster": True},
     ["monitor", "examples/monitor.csv", "--a", "candidate", "--b", "current", "--cluster"]),
    ("rank", ["examples/scores.csv"], {"incumbent": "beta", "resamples": 999}, ["rank", "examples/scores.csv", "--incumbent", "beta", "--resamples", "999"]),
    ("judge", ["examples/judge-labels.csv"], {"permutations": 99}, ["judge", "examples/judge-labels.csv", "--permutations", "99"]),
]


def _same(python: object, cli: object, path: str = "") -> None:
    """Equal to the last digit: floats compared with ==, NaN only to NaN."""
    if isinstance(cli, float) and math.isnan(cli):
        assert isinstance(python, float) and math.isnan(python), path
    elif isinstance(cli, dict):
        assert isinstance(python, dict) and list(python) == list(cli), path
        for k in cli:
            _same(python[k], cli[k], f"{path}.{k}")
    elif isinstance(cli, list):
        assert isinstance(python, list) and len(python) == len(cli), path
        for i, (p, c) in enumerate(zip(python, cli)):
            _same(p, c, f"{path}[{i}]")
    else:
        assert type(python) is type(cli) and python == cli, f"{path}: {python!r} != {cli!r}"


@pytest.mark.parametrize("name, inputs, options, args", CASES, ids=[" ".join(c[3][:2]) + f" #{i}" for i, c in enumerate(CASES)])
def test_numbers_equal_the_cli(name: str, inputs: list[str], options: dict[str, object], args: list[str]) -> None:
    result = getattr(benchplan, name)(*inputs, **options)
    expected = cli_json(*args)
    _same(result.to_dict(), expected)
    # Every top-level JSON field is a snake_case attribute holding the same value.
    for key, value in expected.items():
        attribute = getattr(result, benchplan.snake_case(key))
        plain = attribute.to_dict() if isinstance(attribute, benchplan.Result) else attribute
        if isinstance(plain, list):
            plain = [x.to_dict() if isinstance(x, benchplan.Result) else x for x in plain]
        _same(plain, value, key)
    assert len(result.to_frame()) >= 1


def test_fields_are_snake_case_and_nested_records_are_results() -> None:
    r = benchplan.compare("examples/scores.csv")
    cli = cli_json("compare", "examples/scores.csv")
    pair = r.pairs[0]
    assert isinstance(pair, benchplan.Result)
    assert pair.p_value == cli["pairs"][0]["pValue"]
    assert pair.standard_error == cli["pairs"][0]["standardError"]
    assert pair.method_used == cli["pairs"][0]["methodUsed"]
    assert r["confidenceLevel"] == r.confidence_level == cli["confidenceLevel"]
    frame = r.to_frame()
    assert list(frame["a"]) == [p["a"] for p in cli["pairs"]]
    assert "p_value" in frame.columns and frame["estimate"].iloc[0] == cli["pairs"][0]["estimate"]
    # One pair (--a/--b): the pair's fields are the result's own; to_frame() is one row of them.
    one = benchplan.compare("examples/scores.csv", a="alpha", b="beta")
    assert one.p_value == cli["pairs"][0]["pValue"] and one.confidence_interval == cli["pairs"][0]["confidenceInterval"]
    row = one.to_frame()
    assert len(row) == 1 and row["p_value"].iloc[0] == one.p_value


def test_an_inconclusive_gate_is_a_result_with_exit_status_3() -> None:
    g = benchplan.gate("examples/agree-39.csv", baseline="main", candidate="pr", margin=0.05)
    assert g.passed is False and g.verdict == "inconclusive" and g.exit_status == 3
    frame = g.to_frame()
    assert frame["lower_bound"].iloc[0] == g.overall.lower_bound


def test_dataframe_input_gives_the_same_numbers_as_its_file() -> None:
    pandas = pytest.importorskip("pandas")
    frame = pandas.read_csv("examples/scores.csv", dtype={"item": str})
    from_frame = benchplan.compare(frame, a="alpha", b="beta").to_dict()
    from_file = cli_json("compare", "examples/scores.csv", "--a", "alpha", "--b", "beta")
    from_frame.pop("scores"), from_file.pop("scores")  # the input path differs (a temporary CSV)
    _same(from_frame, from_file)


def test_a_dataframe_option_is_written_to_a_file_too() -> None:
    pandas = pytest.importorskip("pandas")
    pilot = pandas.read_csv("examples/pilot.csv", dtype={"item": str})
    r = benchplan.allocate(strata="examples/strata.yaml", budget=400, method="neyman", pilot=pilot, a="candidate", b="baseline")
    cli = cli_json("allocate", "--strata", "examples/strata.yaml", "--budget", "400", "--method", "neyman", "--pilot", "examples/pilot.csv", "--a", "candidate", "--b", "baseline")
    assert [x.to_dict() for x in r.allocation] == cli["allocation"]


def test_bad_input_raises_input_error_with_the_cli_file_line_message(tmp_path: object) -> None:
    pandas = pytest.importorskip("pandas")
    frame = pandas.DataFrame({"item": ["1", "1", "2", "2"], "model": ["a", "b", "a", "b"], "score": [1, 0, "n/a", 1]})
    with pytest.raises(benchplan.InputError) as caught:
        benchplan.compare(frame)
    error = caught.value
    # Row 2 of the frame (0-based) is line 4 of the CSV (line 1 is the header).
    assert error.file == "<DataFrame 1>" and error.line == 4, str(error)
    assert "score" in str(error) and "n/a" in str(error)
    assert "benchplan-" not in str(error)  # the temporary path is not shown


def test_bad_input_in_a_file_names_the_file_and_line(tmp_path: object) -> None:
    from pathlib import Path

    bad = Path(str(tmp_path)) / "bad.csv"
    bad.write_text("item,model,score\n1,a,1\n1,b,oops\n")
    with pytest.raises(benchplan.InputError) as caught:
        benchplan.compare(bad)
    expected = __import__("subprocess").run(["node", "bin/benchplan.js", "compare", str(bad)], capture_output=True, text=True)
    assert expected.returncode == 2
    assert f"error: {caught.value.message}" in expected.stderr
    assert caught.value.file == str(bad) and caught.value.line == 3


def test_a_missing_or_old_node_is_named(tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    from pathlib import Path

    from benchplan import _node

    _node._checked_node.cache_clear()
    old = Path(str(tmp_path)) / "node"
    old.write_text("#!/bin/sh\necho v18.19.1\n")
    old.chmod(0o755)
    monkeypatch.setenv("BENCHPLAN_NODE", str(old))
    with pytest.raises(benchplan.NodeNotFoundError, match=r"found v18\.19\.1 at .*node"):
        benchplan.compare("examples/scores.csv")
    monkeypatch.setenv("BENCHPLAN_NODE", str(Path(str(tmp_path)) / "missing-node"))
    with pytest.raises(benchplan.NodeNotFoundError, match="could not be run"):
        benchplan.compare("examples/scores.csv")
    monkeypatch.delenv("BENCHPLAN_NODE")
    monkeypatch.setenv("PATH", str(tmp_path) + "/empty")
    with pytest.raises(benchplan.NodeNotFoundError, match="found no `node` on PATH"):
        benchplan.compare("examples/scores.csv")
    _node._checked_node.cache_clear()


def test_the_console_script_forwards_to_the_cli() -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "benchplan.cli", "compare", "examples/scores.csv", "--json"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    import json

    assert json.loads(done.stdout) == cli_json("compare", "examples/scores.csv")
    bad = subprocess.run([sys.executable, "-m", "benchplan.cli", "compare", "examples/none.csv"], capture_output=True, text=True)
    assert bad.returncode == 2 and "error: examples/none.csv" in bad.stderr
