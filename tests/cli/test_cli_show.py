"""``tabletop show`` with a zone and a path drawn on the board."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop.cli import main
from tabletop.scenario.io import shipped


def test_show_draws_a_zone_and_a_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "fb.png"
    code = main(["show", str(shipped("fall-back.toml")), "-o", str(out), "--zone", "sq1",
                 "--move", "fall-back", "--mode", "ordered-retreat", "--to", "26,15"])
    assert code == 0 and out.stat().st_size > 1000
    plain = tmp_path / "plain.png"
    assert main(["show", str(shipped("fall-back.toml")), "-o", str(plain)]) == 0
    assert out.read_bytes() != plain.read_bytes()


def test_show_refuses_an_illegal_target(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    out = tmp_path / "fb.png"
    code = main(["show", str(shipped("fall-back.toml")), "-o", str(out), "--zone", "sq1",
                 "--move", "fall-back", "--to", "22,22"])
    assert code == 2 and not out.exists()
    assert "is not a legal end of the move" in capsys.readouterr().err
    assert main(["show", str(shipped("fall-back.toml")), "-o", str(out), "--to", "1,1"]) == 2
    assert "add --zone MODEL" in capsys.readouterr().err
