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


def test_zone_png_is_drawn_on_the_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                        ) -> None:
    """``zone --format png`` is the whole board (the picture ``show`` draws) with the zone shaded
    over it; ``--format layer`` is the zone alone (the goldens' picture)."""
    from support.pngio import read_png

    fb = str(shipped("fall-back.toml"))
    zone, plain, layer = (tmp_path / n for n in ("zone.png", "plain.png", "layer.png"))
    assert main(["zone", fb, "--model", "sq1", "--move", "fall-back", "--format", "png",
                 "-o", str(zone)]) == 0
    assert main(["show", fb, "-o", str(plain)]) == 0
    assert main(["zone", fb, "--model", "sq1", "--move", "fall-back", "--format", "layer",
                 "-o", str(layer)]) == 0
    z, p, lay = read_png(zone), read_png(plain), read_png(layer)
    assert z.shape == p.shape != lay.shape
    changed = (z != p).any(axis=2)
    # the shading covers a region of the board, not a few labels: more than 2 sq in at 20 px/in
    assert changed.sum() > 2 * 400
    # outside the zone's reach (M 6" around the squad, on the left) the board is untouched
    assert not changed[:, -200:].any()
    assert main(["zone", fb, "--model", "sq1", "--move", "fall-back", "--format", "layer"]) == 2
    assert "needs an output file" in capsys.readouterr().err
