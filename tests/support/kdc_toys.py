"""A small 40kdc data set written by hand in the published format (three JSON files and a units
CSV), and hostile versions of it: what issue 28 found broke the importer, made inside the test.

:func:`write` puts a data set in a folder (``terrain-layouts.json``, ``terrain-templates.json``,
``deployment-patterns.json``, ``units.csv``); :data:`HOSTILE` names each hostile change: a
function that edits a :class:`Data` in place. ``benchmarks/fuzz.py`` draws from the same
changes and mixes them.
"""

from __future__ import annotations

import copy
import csv
import io
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from support.hostile_files import DEEP, LATIN1, deep_json, long_number

LAYOUT = "toy-layout"
DEPLOYMENT = "toy-map"

COLUMNS = ["unit_id", "unit_name", "faction_id", "role", "profile_idx", "profile_name", "M", "T",
           "W", "Sv", "invuln_sv", "Ld", "OC", "base_shape", "base_diameter_mm", "base_width_mm",
           "base_length_mm", "base_draft", "model_min", "model_max", "movement_keywords",
           "game_version"]


def _pt(x: float, y: float) -> dict[str, float]:
    return {"x": x, "y": y}


def templates() -> list[dict[str, Any]]:
    """An area, a light L-shaped corner, a dense ruin, and a ruin with two corners on it."""
    return [
        {"id": "area", "name": "Area", "kind": "area",
         "footprint": {"type": "rectangle", "width": 10, "height": 6}},
        {"id": "corner", "name": "Corner", "kind": "feature", "terrain_category": "light",
         "default_height_inches": 5,
         "footprint": {"type": "polygon", "points": [_pt(0, 0), _pt(3, 0), _pt(3, 0.5),
                                                     _pt(0.5, 0.5), _pt(0.5, 3), _pt(0, 3)]}},
        {"id": "ruin", "name": "Ruin", "kind": "feature", "terrain_category": "dense",
         "default_height_inches": 3, "footprint": {"type": "rectangle", "width": 4, "height": 2}},
        {"id": "ruin-with-corners", "name": "Ruin with corners", "kind": "area",
         "footprint": {"type": "rectangle", "width": 8, "height": 6},
         "features": [{"template": "corner", "position": _pt(-2, -1.5)},
                      {"template": "corner", "position": _pt(2, 1.5), "rotation_degrees": 180}]},
    ]


def layouts() -> list[dict[str, Any]]:
    """One layout of five pieces on the 60" x 44" board."""
    return [{"id": LAYOUT, "name": "Toy layout", "deployment_pattern_id": DEPLOYMENT,
             "pieces": [
                 {"id": "a1", "piece_type": "area", "template": "area", "position": _pt(15, 12)},
                 {"id": "c1", "piece_type": "feature", "template": "corner",
                  "position": _pt(15, 12), "rotation_degrees": 90},
                 {"id": "r1", "piece_type": "feature", "template": "ruin",
                  "position": _pt(45, 32), "mirror": "horizontal"},
                 {"id": "rc", "template": "ruin-with-corners", "position": _pt(30, 22)},
                 {"id": "f1", "piece_type": "feature", "position": _pt(40, 10),
                  "footprint": {"type": "polygon",
                                "points": [_pt(0, 0), _pt(2, 0), _pt(1, 2)]}},
             ]}]


def deployments() -> list[dict[str, Any]]:
    """One map: the attacker's zone on the left edge, the defender's on the right."""
    return [{"id": DEPLOYMENT, "name": "Toy map", "zones": [
        {"player": "attacker", "position": _pt(0, 0),
         "shape": {"type": "rectangle", "width": 12, "height": 44}},
        {"player": "defender", "position": _pt(48, 0),
         "shape": {"type": "polygon", "points": [_pt(0, 0), _pt(12, 0), _pt(12, 44),
                                                  _pt(0, 44), _pt(0, 30), _pt(4, 22),
                                                  _pt(0, 14)]}}],
             "objectives": [_pt(30, 22), _pt(10, 8), _pt(50, 36), _pt(30, 6), _pt(30, 38)]}]


def unit_rows() -> list[dict[str, str]]:
    """Three units: infantry with a sergeant, bikes on ovals, a walker on a 90 mm base."""
    def row(uid: str, name: str, idx: int, pname: str, m: int, w: int, shape: str, d: str,
            wid: str, ln: str, lo: int, hi: int, kws: str) -> dict[str, str]:
        return {"unit_id": uid, "unit_name": name, "faction_id": "toys", "role": "",
                "profile_idx": str(idx), "profile_name": pname, "M": str(m), "T": "4",
                "W": str(w), "Sv": "3", "invuln_sv": "", "Ld": "6", "OC": "2",
                "base_shape": shape, "base_diameter_mm": d, "base_width_mm": wid,
                "base_length_mm": ln, "base_draft": "0", "model_min": str(lo),
                "model_max": str(hi), "movement_keywords": kws, "game_version": "toy"}
    return [
        row("troopers", "Trooper Squad", 0, "Sergeant", 6, 2, "round", "32", "", "", 5, 10,
            "Infantry;Battleline"),
        row("troopers", "Trooper Squad", 1, "Trooper", 6, 1, "round", "32", "", "", 5, 10,
            "Infantry;Battleline"),
        row("riders", "Rider Squad", 0, "Rider", 12, 3, "oval", "", "35", "60", 3, 6,
            "Mounted"),
        row("walker", "Walker", 0, "Walker", 8, 12, "round", "90", "", "", 1, 1,
            "Vehicle;Walker"),
    ]


@dataclass
class Data:
    """A data set as it will be written: each file's content (``bytes`` written as they are)."""

    layouts: Any = field(default_factory=layouts)
    templates: Any = field(default_factory=templates)
    deployments: Any = field(default_factory=deployments)
    units: Any = field(default_factory=unit_rows)
    """Rows (dicts), or the CSV file's text or bytes."""


def _csv(rows: list[dict[str, str]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


FILES = {"layouts": "terrain-layouts.json", "templates": "terrain-templates.json",
         "deployments": "deployment-patterns.json", "units": "units.csv"}


def write_bytes(data: Data, key: str, limit: int | None = None) -> bytes:
    """The bytes of file ``key`` of ``data`` as :func:`write` writes them (``limit``: only the
    first ``limit`` of them, the rest of a JSON document never made: a mutation that repeats a
    20,000-point zone 300 times holds it once, its text would be 200 MB)."""
    value = getattr(data, key)
    if key == "units" and isinstance(value, list):
        value = _csv(value)
    if isinstance(value, bytes):
        return value[:limit]
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass")[:limit]
    if limit is None:
        return json.dumps(value).encode()
    # (ASCII: one byte a character)
    chunks, size = [], 0
    for chunk in json.JSONEncoder().iterencode(value):
        chunks.append(chunk)
        size += len(chunk)
        if size >= limit:
            break
    return "".join(chunks).encode()[:limit]


def write(folder: Path, data: Data | None = None) -> dict[str, Path]:
    """Write ``data`` (default: the toy set) into ``folder``; the path of each file by key."""
    data = data or Data()
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for key, name in FILES.items():
        (folder / name).write_bytes(write_bytes(data, key))
        paths[key] = folder / name
    return paths


# -- hostile changes -------------------------------------------------------------------------
def fan_out(d: Data, depth: int = 8, width: int = 10) -> None:
    """Templates each listing ``width`` features of the next, ``depth`` levels: a layout piece
    of the first would expand to width**depth features (the 11 KB file that took 2.3 GB)."""
    tpls = d.templates
    for k in range(depth, 0, -1):
        child = f"nest-{k + 1}" if k < depth else "corner"
        tpls.append({"id": f"nest-{k}", "name": f"Nest {k}", "kind": "area",
                     "footprint": {"type": "rectangle", "width": 1, "height": 1},
                     "features": [{"template": child, "position": _pt(0.01 * j, 0)}
                                  for j in range(width)]})
    d.templates = tpls
    d.layouts[0]["pieces"].append({"id": "bomb", "template": "nest-1", "position": _pt(30, 30)})


def _many_zone_points(d: Data, n: int = 1_000_000) -> None:
    import math
    pts = [_pt(round(6 + 5 * math.cos(2 * math.pi * k / n), 6),
               round(22 + 5 * math.sin(2 * math.pi * k / n), 6)) for k in range(n)]
    d.deployments[0]["zones"][0]["shape"] = {"type": "polygon", "points": pts}


def _many_pieces(d: Data, n: int = 200_000) -> None:
    d.layouts[0]["pieces"] = [{"id": f"p{k}", "piece_type": "feature", "template": "ruin",
                               "position": _pt(2 + (k % 28) * 2, 2 + (k // 28) % 20 * 2)}
                              for k in range(n)]


def _raw(key: str, text: str | bytes) -> Callable[[Data], None]:
    def change(d: Data) -> None:
        setattr(d, key, text)
    return change


def _set(path: str, value: Any) -> Callable[[Data], None]:
    """Set a value by a path such as ``layouts.0.pieces.2.footprint``."""
    def change(d: Data) -> None:
        key, *rest = path.split(".")
        node: Any = getattr(d, key)
        for part in rest[:-1]:
            node = node[int(part)] if isinstance(node, list) else node[part]
        last = rest[-1]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
    return change


def _row(**values: str) -> Callable[[Data], None]:
    """Change the first unit row (the Trooper Squad's sergeant)."""
    def change(d: Data) -> None:
        d.units[0].update(values)
    return change


def _csv_text(edit: Callable[[str], str]) -> Callable[[Data], None]:
    def change(d: Data) -> None:
        d.units = edit(_csv(d.units))
    return change


def _points(n: int, r: float = 1.0) -> list[dict[str, float]]:
    import math
    return [_pt(round(r * math.cos(2 * math.pi * k / n), 6),
                round(r * math.sin(2 * math.pi * k / n), 6)) for k in range(n)]


HOSTILE: dict[str, tuple[str, Callable[[Data], None]]] = {
    # name: (the file it is in, the change)
    "templates-fan-out": ("templates", fan_out),
    "zone-1000000-points": ("deployments", _many_zone_points),
    "layout-200000-pieces": ("layouts", _many_pieces),
    "layouts-deep": ("layouts", _raw("layouts", deep_json(DEEP))),
    "templates-deep": ("templates", _raw("templates", deep_json(DEEP))),
    "deployments-deep": ("deployments", _raw("deployments", deep_json(DEEP))),
    "layouts-long-number": ("layouts", _raw("layouts", json.dumps(layouts()).replace(
        '"rotation_degrees": 90', f'"rotation_degrees": {long_number()}'))),
    "templates-long-number": ("templates", _raw("templates", json.dumps(templates()).replace(
        '"width": 10', f'"width": {long_number()}'))),
    "deployments-long-number": ("deployments", _raw("deployments", json.dumps(
        deployments()).replace('"width": 12', f'"width": {long_number()}'))),
    "layouts-not-utf8": ("layouts", _raw("layouts", json.dumps(layouts()).encode().replace(
        b"Toy layout", LATIN1))),
    "templates-not-utf8": ("templates", _raw("templates", json.dumps(templates()).encode(
        ).replace(b"Area", LATIN1))),
    "deployments-not-utf8": ("deployments", _raw("deployments", json.dumps(
        deployments()).encode().replace(b"Toy map", LATIN1))),
    "units-not-utf8": ("units", _csv_text(lambda t: t.replace("Trooper", "S\x9curs")
                                          .encode("latin-1", "replace"))),  # type: ignore[arg-type,return-value]
    "footprint-1e308": ("layouts", _set("layouts.0.pieces.4.footprint",
                                        {"type": "polygon", "points": [
                                            _pt(0, 0), _pt(1e308, 0), _pt(1e308, 1e308)]})),
    "footprint-rect-1e308": ("templates", _set("templates.2.footprint",
                                               {"type": "rectangle", "width": 1e308,
                                                "height": 2})),
    "units-long-field": ("units", _row(unit_name="x" * 200_000)),
    "units-unterminated-quote": ("units", _csv_text(lambda t: t.replace(
        "Trooper Squad,toys", '"Trooper Squad,toys', 1))),
    "units-base-nan": ("units", _row(base_diameter_mm="nan")),
    "units-base-negative": ("units", _row(base_diameter_mm="-32")),
    "units-base-1e308": ("units", _row(base_diameter_mm="1e308")),
    # found by issue 28 named in the scenario written instead of the input (never written)
    "piece-100-points": ("layouts", _set("layouts.0.pieces.4.footprint",
                                         {"type": "polygon", "points": _points(100)})),
    "zone-100-points": ("deployments", _set("deployments.0.zones.0.shape",
                                            {"type": "polygon", "points": [
                                                _pt(6 + p["x"] * 5, 22 + p["y"] * 5)
                                                for p in _points(100)]})),
    "piece-far-away": ("layouts", _set("layouts.0.pieces.2.position", _pt(5_000_000, 3))),
    "height-huge": ("layouts", _set("layouts.0.pieces.2.height_inches", 1e9)),
    "height-negative": ("layouts", _set("layouts.0.pieces.2.height_inches", -3)),
    "objective-far-away": ("deployments", _set("deployments.0.objectives.1", _pt(3e6, 1))),
    "zone-self-crossing-far": ("deployments", _set("deployments.0.zones.0.position",
                                                   _pt(2e6, 0))),
    "piece-id-hostile": ("layouts", _set("layouts.0.pieces.2.id", "a\nFILE: ok" + "x" * 300)),
    "units-M-huge": ("units", _row(M="2000000")),
    "units-W-zero": ("units", _row(W="0")),
    "units-base-huge": ("units", _row(base_diameter_mm="20000")),
    "units-count-huge": ("units", _row(model_max="100000000")),
    # found by the 100,000-input fuzz run: tracebacks
    "zone-player-array": ("deployments", _set("deployments.0.zones.0.player", ["attacker"])),
    "zone-player-object": ("deployments", _set("deployments.0.zones.1.player", {"a": 1})),
    "zone-x-400-digits": ("deployments", _set("deployments.0.zones.0.position",
                                              {"x": 10**400, "y": 0})),
    "parent-area-array": ("layouts", _set("layouts.0.pieces.1.parent_area_id", ["a1"])),
    "units-base-tiny": ("units", _row(base_diameter_mm="1e-320")),
}
"""Every hostile change of issue 28 to the toy data, by name."""


def hostile(name: str) -> Data:
    """The toy data set with the hostile change ``name``."""
    data = Data()
    HOSTILE[name][1](data)
    return data


def copy_data(d: Data) -> Data:
    """A deep copy of ``d``."""
    return copy.deepcopy(d)
