"""The 40kdc terrain resolver and keystone conformance cases (20 published cases, tol 5e-4)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tabletop.importers.kdc_layouts import keystone_measurements, resolve_layout

from support.paths import KDC_DATA

DATA = KDC_DATA
TOL = 5e-4


def _cases(name: str) -> list[dict[str, Any]]:
    path = DATA / name
    if not path.exists():
        return []
    return json.loads(path.read_text(encoding="utf-8"))


RESOLVER = _cases("conformance_terrain-resolver_cases.json")
KEYSTONES = _cases("conformance_terrain-keystones_cases.json")
needs_data = pytest.mark.skipif(not DATA.exists(), reason=f"40kdc data not found at {DATA}")


@needs_data
def test_case_counts() -> None:
    assert len(RESOLVER) == 13
    assert len(KEYSTONES) == 7


@needs_data
@pytest.mark.parametrize("case", RESOLVER, ids=[c["name"] for c in RESOLVER])
def test_resolver_case(case: dict[str, Any]) -> None:
    got = resolve_layout(case["layout"], case["templates"])
    expected = case["expected"]["pieces"]
    assert [g.id for g in got] == [e["id"] for e in expected]
    for g, e in zip(got, expected, strict=True):
        assert g.name == e["name"]
        assert g.piece_type == e["piece_type"]
        assert g.floor == e["floor"]
        assert len(g.vertices) == len(e["vertices"])
        for (x, y), v in zip(g.vertices, e["vertices"], strict=True):
            assert abs(x - v["x"]) <= TOL and abs(y - v["y"]) <= TOL, (g.id, (x, y), v)


@needs_data
@pytest.mark.parametrize("case", KEYSTONES, ids=[c["name"] for c in KEYSTONES])
def test_keystone_case(case: dict[str, Any]) -> None:
    board = case.get("board")
    size = (board["width"], board["height"]) if board else (60.0, 44.0)
    got = keystone_measurements(case["layout"], case["templates"], size)
    expected = case["expected"]["measurements"]
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        assert (g["piece_index"], g["piece_id"], g["edge"], g["ref"]) == \
            (e["piece_index"], e["piece_id"], e["edge"], e["ref"])
        assert abs(g["distance"] - e["distance"]) <= TOL, (g, e)
