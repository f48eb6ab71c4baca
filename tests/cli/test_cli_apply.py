"""``tabletop apply`` for a judge: stdout stays the JSON of the action format, a summary goes to
stderr, ``--strict`` exits 1 on a refusal (the default stays 0)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop.cli import main
from tabletop.scenario.io import shipped

ACTIONS = Path(__file__).resolve().parents[1] / "actions"


def _write(tmp_path: Path, actions: list[dict[str, object]]) -> Path:
    p = tmp_path / "actions.json"
    p.write_text(json.dumps(actions))
    return p


REFUSED = [{"do": "next"},
           {"do": "select", "unit": "squad", "move": "normal"},
           {"do": "move", "model": "sq1", "path": [[1, 1]]}]


@pytest.mark.parametrize("strict", [False, True])
def test_refusals_summarised_on_stderr_and_strict_exits_1(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, strict: bool) -> None:
    acts = _write(tmp_path, REFUSED)
    code = main(["apply", str(shipped("fall-back.toml")), str(acts),
                 *(["--strict"] if strict else [])])
    assert code == (1 if strict else 0)
    cap = capsys.readouterr()
    out = json.loads(cap.out)  # stdout is the one JSON object, nothing else
    assert set(out) == {"results", "state"}
    assert [r["ok"] for r in out["results"]] == [True, False, False]
    err = cap.err.splitlines()
    assert err[0] == "tabletop apply: 3 actions: 1 applied, 2 refused; no dice rolled"
    assert err[1] == '  action 1 (select "squad" (normal)) refused:'
    assert "engaged" in err[2] and err[2].startswith("    - ")
    assert err[3] == '  action 2 (move "sq1") refused:'
    assert "select one first" in err[4]
    assert len(err) == 5


def test_all_applied_strict_exits_0_and_counts_dice(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["apply", str(shipped("fall-back.toml")),
                 str(ACTIONS / "fall-back-desperate.json"), "--strict"])
    assert code == 0
    cap = capsys.readouterr()
    out = json.loads(cap.out)
    rolled = sum(len(e["dice"]) for r in out["results"] for e in r["events"]
                 if e["kind"] == "roll")
    assert rolled == 7
    assert cap.err.splitlines() == [
        "tabletop apply: 7 actions: 7 applied, 0 refused; 7 dice rolled "
        "(battle-shock 2, desperate-escape 5)"]


def test_malformed_file_still_exits_2_without_summary(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    acts = _write(tmp_path, [{"do": "jump"}])
    assert main(["apply", str(shipped("fall-back.toml")), str(acts), "--strict"]) == 2
    cap = capsys.readouterr()
    assert cap.out == ""
    assert "action 0" in cap.err and "tabletop apply:" not in cap.err
