"""Every base description of the shared data set is accepted or refused with a helpful message."""

from __future__ import annotations

import csv

import pytest

from tabletop.geometry.footprints import BaseParseError, Oval, Rect, Round, parse_base
from tabletop.scenario.bases import normalise_base

from support.paths import SHARED

DATA = SHARED / "data"
CSV = DATA / "base_sizes_distinct.csv"
HULL = ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0))


def _description(row: dict[str, str]) -> str:
    shape = row["shape"]
    if shape.startswith("raw:"):
        return shape[4:]
    if row["dim1_mm"]:
        return f"{shape} {row['dim1_mm']}x{row['dim2_mm']}mm"
    return shape


def _rows() -> list[dict[str, str]]:
    if not CSV.is_file():
        pytest.skip(f"{CSV} is not there (the shared data folder is not beside the repository)")
    with CSV.open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_every_row_parses_or_is_refused_with_what_to_write() -> None:
    rows = _rows()
    assert len(rows) == 81
    accepted = refused = 0
    for row in rows:
        text = _description(row)
        try:
            spec = normalise_base(text)
        except BaseParseError as exc:
            refused += 1
            msg = str(exc)
            assert "write" in msg and ('"hull"' in msg or '"32mm"' in msg), (text, msg)
            continue
        accepted += 1
        base = parse_base(spec, hull=HULL)
        if row["shape"] == "round":
            assert isinstance(base, Round) and base.diameter_mm == float(row["dim1_mm"])
        elif row["shape"] == "oval":  # dim1 is the long axis: along the facing
            assert isinstance(base, Oval)
            assert (base.length_mm, base.width_mm) == (float(row["dim1_mm"]),
                                                       float(row["dim2_mm"]))
        elif row["shape"] == "rect":
            assert isinstance(base, Rect)
            assert (base.frontage_mm, base.depth_mm) == (float(row["dim1_mm"]),
                                                         float(row["dim2_mm"]))
    # every sized shape is accepted; only bases without a usable size are refused
    refusable = {"flying-base", "unique", "raw:Use model", "raw:", "raw:No official base size",
                 "raw:120 x 92mm flying base", "raw:60mm flying base", "raw:32mm flying base",
                 "raw:170 x 109mm flying base"}
    assert refused == sum(1 for r in rows if r["shape"] in refusable)
    assert accepted == len(rows) - refused


@pytest.mark.parametrize(("text", "spec"), [
    ("40mm", "40mm"), ("28.5 mm", "28.5mm"), ("120 x 92mm", "oval 120x92mm"),
    ("round 60.0x60.0mm", "60mm"), ("rect 25.0x50.0mm", "rect 25x50mm"),
    ("oval 60x35.5mm", "oval 60x35.5mm"), ("hull", "hull"), ("Oval 60X35mm", "oval 60x35mm"),
])
def test_spellings(text: str, spec: str) -> None:
    assert normalise_base(text) == spec


@pytest.mark.parametrize(("text", "message"), [
    ("Use model", '"Use model": this model has no standard base; write base = "hull" with a '
                  '`hull` polygon (the model\'s outline in inches), or write its base size, e.g. '
                  '"60mm" or "oval 60x35mm"'),
    ("60mm flying base", '"60mm flying base": a flying base stands on a stem above the model\'s '
                         'real footprint; write base = "hull" with a `hull` polygon (the model\'s '
                         'outline in inches), or give the stand\'s size as a plain base, e.g. '
                         '"oval 120x92mm" or "60mm"'),
    ("", 'no base size given; write "32mm", "oval 60x35mm", "rect 25x50mm" or "hull"'),
    ("round 60x40mm", '"round 60x40mm": a round base has one diameter; for two sizes write '
                      '"oval 60x40mm"'),
    ("square", 'unknown base "square"; write "32mm", "oval 60x35mm", "rect 25x50mm" or "hull"'),
])
def test_refusals_say_what_to_write(text: str, message: str) -> None:
    with pytest.raises(BaseParseError) as info:
        normalise_base(text)
    assert str(info.value) == message
