"""Hostile inputs, shared by the fuzz tests (``tests/test_fuzz.py``, a few hundred examples) and
``benchmarks/fuzz.py`` (100,000): mutated scenario files (models given ovals, rects and hulls,
hostile ones among them), action files (paths with facings), zone queries, zone queries of models
that turn as they move, ``tabletop fit`` and other command lines, and what running each must do.

Each ``run_*`` function feeds one input to the program the way a user would and returns
``"accepted"`` or ``"refused"`` (a :class:`~tabletop.errors.UserError`); anything else it raises
is a crash. Accepted scenario files must save and load back identically; so must the state an
action file reaches; where a zone contains a point, the witness path ``Zone.path_to`` gives must
be one ``validate_path`` accepts.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import tempfile
import tomllib
from collections.abc import Callable
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import tomli_w
from hypothesis import strategies as st

from tabletop import Zone, legal_zone, rulesets, validate_path
from tabletop.cli import main
from tabletop.errors import UserError
from tabletop.scenario.io import dumps_scenario, load_scenario, loads_scenario
from tabletop.state import Block, GameState, Unit

from support.paths import SHIPPED

SHIPPED = SHIPPED
NAMES = sorted(p.name for p in SHIPPED.iterdir() if p.suffix in (".toml", ".json"))

HOSTILE_NUMBERS: list[Any] = [
    0, -0.0, 1, -1, 0.5, 5e-324, 1e-320, 1e-9, 999_999.0, 1e6, -1e6, 1_000_000.5, 1e9, 1e300,
    1e308, math.inf, -math.inf, math.nan, 2**31, 2**63 - 1, 2**63, 2**64, -(2**63) - 1, 10**400,
    99_999_999_999, 360.0, -360.0, 180.0, 180.5, -180.5, 1e6 * 360,
]
HOSTILE_STRINGS: list[str] = [
    "", " ", "sq1", "a\nFILE: ok", "\x1b[2J\x1b[31mred\x1b[0m", "\r", "\t", "\x00", '"', "\\",
    "\u202etxt.exe", "é", "\u2028", "x" * 20_000, "[0]", "units[0]", "a.b", "🙂", "\ud800",
    "32mm", "oval 60x35mm", "rect 25x50mm", "hull", "33 mm", "-5mm", "1e400mm", "nanmm",
    "rect 0x0mm", "oval 1e6x1mm",
]

HOSTILE_FACINGS: list[Any] = [
    0.0, -0.0, 359.999, 360.0, 720.0, -90.0, 5e-324, 1e-300, 90.0000001, 179.99999999, 1e6,
    -1e6, 1e6 + 0.5, 1_000_000.5, 1e300, math.inf, -math.inf, math.nan, "90", None, True,
    10**400,
]


def _ring(n: int, r: float, spikes: float = 0.0) -> list[list[float]]:
    """A regular ``n``-gon of radius ``r`` (a star when ``spikes``: every other vertex at
    ``r * spikes``)."""
    return [[round((r * spikes if spikes and k % 2 else r) * math.cos(2 * math.pi * k / n), 9),
             round((r * spikes if spikes and k % 2 else r) * math.sin(2 * math.pi * k / n), 9)]
            for k in range(n)]


L_HULL = [[-2.0, -2.0], [2.0, -2.0], [2.0, -1.0], [-1.0, -1.0], [-1.0, 2.0], [-2.0, 2.0]]
HULLS: list[list[list[float]]] = [
    [[-2.0, -3.5], [2.0, -3.5], [2.0, 3.5], [-2.0, 3.5]],  # a 4x7" tank
    [[-2.5, -4.3], [2.5, -4.3], [2.75, -3.6], [2.75, 3.8], [2.5, 4.3], [-2.5, 4.3],
     [-2.75, 3.8], [-2.75, -3.6]],  # the demo's Land Raider
    L_HULL,  # not convex
    L_HULL[:3] + [L_HULL[2]] * 50 + L_HULL[3:],  # a vertex repeated
    [[-2.0 + 4.0 * k / 20, -2.0] for k in range(20)] + [[2.0, 2.0], [-2.0, 2.0]],  # collinear
    [[0.0, -2.0], [1.5, 1.5], [-1.5, 1.5]],
    [[-1e-4, -1e-4], [1e-4, -1e-4], [1e-4, 1e-4], [-1e-4, 1e-4]],  # tiny
    [[1.0, 1.0], [3.0, 1.0], [3.0, 3.0], [1.0, 3.0]],  # the centre outside the hull (refused)
    [[-0.01, -5.0], [0.01, -5.0], [0.01, 5.0], [-0.01, 5.0]],  # long and thin
    [[-2.0, 3.5], [2.0, 3.5], [2.0, -3.5], [-2.0, -3.5]],  # clockwise
    [[-1.0, -1.0], [1.0, 1.0], [1.0, -1.0], [-1.0, 1.0]],  # crosses itself
    [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]],
    _ring(256, 2.0),  # many vertices
    _ring(2000, 1.5),
    _ring(40, 2.0, spikes=0.4),  # a star: many convex pieces
]
NON_ROUND_BASES = ["oval 60x35mm", "oval 90x52.5mm", "oval 170x109mm", "oval 32x31.9mm",
                   "oval 35x60mm", "rect 25x50mm", "rect 100x150mm", "rect 0.001x50mm",
                   "oval 10000x1mm", "rect 50x0.01mm", "hull", "hull", "hull"]
"""Bases of models that turn as they move (``"hull"``: with one of :data:`HULLS`)."""

numbers = st.one_of(st.sampled_from(HOSTILE_NUMBERS), st.floats(allow_nan=True),
                    st.integers(-(2**70), 2**70), st.floats(-100, 100))
strings = st.one_of(st.sampled_from(HOSTILE_STRINGS), st.text(max_size=30))
leaves = st.one_of(numbers, strings, st.booleans(), st.none(),
                   st.builds(list), st.builds(dict), st.lists(numbers, max_size=3))


@cache
def shipped_doc(name: str) -> Any:
    """A shipped scenario as parsed data (never mutated: copy it)."""
    text = (SHIPPED / name).read_text(encoding="utf-8")
    return json.loads(text) if name.endswith(".json") else tomllib.loads(text)


@cache
def shipped_state(name: str) -> GameState:
    return load_scenario(SHIPPED / name)


def _copy(doc: Any) -> Any:
    return json.loads(json.dumps(doc))


def _containers(doc: Any) -> list[tuple[Any, Any]]:
    """Every (container, key) pair of a document: the places a mutation may touch.

    A container that appears more than once (a ``repeat`` mutation repeats the same object) is
    walked once: repeating a list of 3,000 repeated models made 9 million places, and the
    memory cap then stopped one draw where its replay went on (hypothesis: "Inconsistent data
    generation")."""
    out: list[tuple[Any, Any]] = []
    stack = [doc]
    seen = {id(doc)}
    while stack:
        c = stack.pop()
        keys = list(c) if isinstance(c, dict) else range(len(c)) if isinstance(c, list) else []
        for k in keys:
            out.append((c, k))
            if isinstance(c[k], dict | list) and id(c[k]) not in seen:
                seen.add(id(c[k]))
                stack.append(c[k])
    return out


@st.composite
def mutated_doc(draw: st.DrawFn, doc: Any) -> Any:
    """``doc`` with 1 to 4 mutations: a value replaced by a hostile one, a key removed or
    added, an item repeated (up to a pile of 3,000 models), every model moved to one point."""
    doc = _copy(doc)
    for _ in range(draw(st.integers(1, 4))):
        places = _containers(doc)
        if not places:
            break
        c, k = draw(st.sampled_from(places))
        kind = draw(st.sampled_from(["nudge", "nudge", "nudge", "replace", "replace", "delete",
                                     "add", "repeat", "pile", "wrap", "rebase", "rebase"]))
        if kind == "nudge":  # a plausible edit: another number, a copied string
            old = c[k]
            if isinstance(old, int | float) and not isinstance(old, bool):
                c[k] = draw(st.one_of(st.floats(-5, 70), st.integers(0, 12)))
            elif isinstance(old, str):
                c[k] = draw(st.sampled_from([old, old + "x", old.upper(), "sq1", "red"]))
        elif kind == "replace":
            c[k] = draw(leaves)
        elif kind == "delete":
            del c[k]
        elif kind == "add" and isinstance(c, dict):
            c[draw(strings)] = draw(leaves)
        elif kind == "repeat" and isinstance(c, list):
            times = draw(st.sampled_from([1, 2, 10, 300, 3000]))
            # (a file of at most a few MB: repeating a repeated pile again made one of 9
            # million models, past the memory cap in the middle of a draw)
            if len(json.dumps(c[k])) * times <= 2_000_000:
                c.extend([c[k]] * times)
        elif kind == "pile":
            for m in _model_dicts(doc):
                m["at"] = [10.0, 10.0]
        elif kind == "rebase" and _model_dicts(doc):  # a model that turns as it moves
            _rebase(draw, draw(st.sampled_from(_model_dicts(doc))))
        elif kind == "wrap":
            c[k] = [[[[[[c[k]]]]]]] if draw(st.booleans()) else {"v": {"v": {"v": c[k]}}}
    return doc


def _model_dicts(doc: Any) -> list[dict[str, Any]]:
    """The model tables of a scenario document (wh40k units' ``models``)."""
    units = doc.get("units") if isinstance(doc, dict) else None
    return [m for u in units if isinstance(u, dict) and isinstance(u.get("models"), list)
            for m in u["models"] if isinstance(m, dict)] if isinstance(units, list) else []


def _rebase(draw: st.DrawFn, model: dict[str, Any]) -> None:
    """Give ``model`` a base that turns (an oval, a rect, a hull), sometimes a hostile
    facing."""
    model["base"] = draw(st.sampled_from(NON_ROUND_BASES))
    model.pop("hull", None)
    if model["base"] == "hull":
        model["hull"] = _copy(draw(st.sampled_from(HULLS)))  # later mutations edit it
    if _rarely(draw, 3):
        model["facing"] = draw(st.one_of(st.sampled_from(HOSTILE_FACINGS), st.floats(-720, 720)))


def _serialise(doc: Any, fmt: str) -> bytes:
    if fmt == "toml" and isinstance(doc, dict):
        try:
            return tomli_w.dumps(doc).encode("utf-8")
        except (TypeError, ValueError, UnicodeEncodeError):
            pass  # None values, lone surrogates: not TOML
    return json.dumps(doc).encode("utf-8", "surrogatepass")


@st.composite
def scenario_files(draw: st.DrawFn) -> tuple[bytes, str]:
    """``(content, suffix)`` of a mutated shipped scenario, sometimes also damaged as text."""
    doc = draw(mutated_doc(shipped_doc(draw(st.sampled_from(NAMES)))))
    fmt = draw(st.sampled_from(["toml", "json"]))
    data = _serialise(doc, fmt)
    damage = draw(st.sampled_from(["none"] * 12 + ["flip", "cut", "insert", "deep", "bom",
                                                   "latin1"]))
    if damage != "none" and data:
        i = draw(st.integers(0, len(data) - 1))
        if damage == "flip":
            data = data[:i] + bytes([data[i] ^ (1 << draw(st.integers(0, 7)))]) + data[i + 1:]
        elif damage == "cut":
            data = data[:i]
        elif damage == "insert":
            data = data[:i] + draw(st.binary(min_size=1, max_size=8)) + data[i:]
        elif damage == "deep":
            n = draw(st.sampled_from([40, 1000, 100_000]))
            inner = b"[" * n + b"]" * n if fmt == "json" else b"x = " + b"[" * n + b"]" * n
            data = (data[:i] + inner + data[i:]) if fmt == "json" else data + b"\n" + inner
        elif damage == "bom":
            data = b"\xef\xbb\xbf" + data
        else:
            data = data.decode("utf-8", "replace").encode("latin-1", "replace")
    return data, "." + fmt


def run_scenario_file(data: bytes, suffix: str, zone: bool = False) -> str:
    """Load a scenario file; an accepted one must save and load back identically, and with
    ``zone`` the zone of its first model that can move must be computed (or refused)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"fuzz{suffix}"
        path.write_bytes(data)
        try:
            state = load_scenario(path)
        except UserError:
            return "refused"
    assert_saves(state)
    if zone:  # the zone engine on a hostile board: its first mover, and its first that turns
        movers = [m for u in state.units if isinstance(u, Unit)
                  and u.player == state.battle.active_player for m in u.models if m.at]
        for m in {m.id: m for m in movers[:1] + [m for m in movers if not m.base.is_round][:1]
                  }.values():
            assert m.at is not None
            with contextlib.suppress(UserError):
                zone_probe(legal_zone(state, m.id, "normal"), state, m.id, "normal",
                           [(m.at[0] + 1.0, m.at[1] + 1.0)])
    return "accepted"


def assert_saves(state: GameState) -> None:
    """``state`` saves as TOML and JSON to files that load back (with every check) identically."""
    for fmt in ("toml", "json"):
        text = dumps_scenario(state, fmt)  # type: ignore[arg-type]
        back = loads_scenario(text, fmt=fmt)  # type: ignore[arg-type]
        assert back == loads_scenario(text, fmt=fmt, check=False), fmt
        assert dumps_scenario(back, fmt) == text, fmt  # type: ignore[arg-type]


# -- actions --------------------------------------------------------------------------------------

MODES = ["ordered-retreat", "desperate-escape", "rapid", "tactical", "combat"]


def _rarely(draw: st.DrawFn, n: int) -> bool:
    """True about one time in ``n``; False for hypothesis's simplest draw (0), so shrinking
    leads to plausible values."""
    return bool(draw(st.integers(0, n - 1)) == n - 1)


def _near(state: GameState, unit: Unit | Block | None = None, model: Any = None
          ) -> list[tuple[float, float]]:
    """Where models stand (``model``, else those of ``unit`` if given): where moves are drawn
    around."""
    units = [unit] if unit is not None else list(state.units)
    pts = [m.at for u in units if isinstance(u, Unit) for m in u.models if m.at
           and (model is None or m.id == model)]
    if not pts and model is not None:
        return _near(state, unit)
    pts += [u.at for u in units if isinstance(u, Block)]
    return pts or [(state.battlefield.width / 2, state.battlefield.depth / 2)]


@st.composite
def field_value(draw: st.DrawFn, state: GameState, do: str, key: str, kind: str,
                partial: dict[str, Any]) -> Any:
    """A value for one field of an action (``partial``: its fields so far): mostly plausible,
    sometimes hostile."""
    if _rarely(draw, 20):
        return draw(leaves)
    sel = state.battle.selection
    mine = [u for u in state.units if u.player == state.battle.active_player]
    moving = [u for u in state.units if sel is not None and u.id == sel.unit]
    ids = {"unit": [u.id for u in state.units] if _rarely(draw, 5) else [u.id for u in mine],
           "model": [m.id for u in state.units if isinstance(u, Unit) for m in u.models]
           if _rarely(draw, 5) else
           [m.id for u in (moving or mine) if isinstance(u, Unit) for m in u.models]}
    if kind in ids:
        return draw(st.sampled_from(ids[kind] or ["nobody"]))
    if kind == "str":
        if key == "move":
            return draw(st.sampled_from([t.name for t in rulesets.of(state).move_types]))
        return draw(st.sampled_from(MODES))
    if kind == "bool":
        return draw(st.booleans())
    if kind == "dice":
        return draw(st.lists(st.integers(1, 6), max_size=4))
    if kind == "int":
        return draw(st.integers(1, 12))
    if kind == "models":
        return draw(st.lists(st.sampled_from(ids["model"] or ["nobody"]), max_size=2))
    if kind == "placements":
        ms = draw(st.lists(st.sampled_from(ids["model"] or ["nobody"]), max_size=3))
        return {m: [draw(st.floats(0, 60)), draw(st.floats(0, 44))] for m in ms}
    around = moving[0] if moving else None
    if "model" in partial:
        around = next((u for u in state.units if isinstance(u, Unit)
                       and any(m.id == partial["model"] for m in u.models)), around)
    x, y = draw(st.sampled_from(_near(state, around, partial.get("model"))))
    reach = draw(st.sampled_from([2.0, 5.0, 12.0]))
    point = st.tuples(st.floats(-reach, reach), st.floats(-reach, reach)).map(
        lambda d: [round(x + d[0], 3), round(y + d[1], 3)])
    if kind == "point":
        return draw(point)
    if kind == "path":  # points [x, y] or [x, y, facing] (move there, then turn)
        facing = st.one_of(st.floats(0, 360), st.floats(-720, 720),
                           st.sampled_from(HOSTILE_FACINGS))
        turned = st.tuples(point, facing).map(lambda pf: [*pf[0], pf[1]])
        return draw(st.lists(st.one_of(point, turned), min_size=1, max_size=3))
    if key == "angle":
        return draw(st.one_of(st.floats(-200, 200), st.sampled_from([1e6, -1e6, 181.0])))
    if key == "facing":
        return draw(st.one_of(st.floats(-720, 720), st.sampled_from([1e6, -0.0, 359.999])))
    return draw(st.floats(-12, 12))


@st.composite
def action(draw: st.DrawFn, state: GameState) -> dict[str, Any]:
    """One action of ``state``'s ruleset, its fields drawn by kind from its action schema."""
    ruleset = rulesets.of(state)
    schema = ruleset.actions
    # weighted towards what makes a game go on: a selection, then its moves and commit
    usual = (["move", "move", "place", "forward", "forward", "wheel", "reform", "commit",
              "commit", "undo"] if state.battle.selection is not None else
             ["select", "select", "select", "next"])
    do = draw(st.sampled_from([d for d in usual if d in schema] + sorted(schema)))
    if do == "select" and state.battle.selection is None and not _rarely(draw, 4):
        mine = [u.id for u in state.units if u.player == state.battle.active_player]
        allowed = sorted(((uid, e.move) for uid in mine for e in ruleset.eligibility(state, uid)
                          if e.ok), key=lambda um: um[1] == "remain-stationary")  # moves first:
        # hypothesis draws the first items most
        if allowed:  # mostly a selection the rules allow now
            unit, move = draw(st.sampled_from(allowed))
            return {"do": "select", "unit": unit, "move": move}
    out: dict[str, Any] = {"do": do}
    for key, spec in schema[do].items():
        if spec.required or draw(st.booleans()):
            out[key] = draw(field_value(state, do, key, spec.kind, out))
    return out


@st.composite
def action_files(draw: st.DrawFn) -> tuple[str, list[dict[str, Any]]]:
    """``(shipped scenario name, actions)``: 1 to 14 actions drawn against its state."""
    name = draw(st.sampled_from(NAMES))
    state = shipped_state(name)
    return name, draw(st.lists(action(state), min_size=1, max_size=14))


def run_action_file(name: str, actions: list[dict[str, Any]]) -> str:
    """Play the actions (``tabletop apply``'s path); the state reached must save and reload."""
    try:
        final, _ = rulesets.apply_actions(shipped_state(name), actions)
    except UserError:
        return "refused"
    assert_saves(final)
    return "accepted"


# -- zone queries ---------------------------------------------------------------------------------

coordinate = st.one_of(st.floats(-5, 70), st.sampled_from(HOSTILE_NUMBERS))


def _mostly(draw: st.DrawFn, usual: st.SearchStrategy[Any], hostile: st.SearchStrategy[Any]
            ) -> Any:
    """A value of ``usual``, or one time in eight of ``hostile``."""
    return draw(hostile if _rarely(draw, 8) else usual)


@st.composite
def zone_queries(draw: st.DrawFn) -> tuple[str, str, str, Any, Any, list[tuple[Any, Any]]]:
    """``(scenario, model, move, roll, mode, [point])`` for ``legal_zone``, the zone's queries
    at the point and ``validate_path`` to it; ids, rolls, modes and the point sometimes
    hostile."""
    name = draw(st.sampled_from([n for n in NAMES if shipped_state(n).ruleset == "wh40k-11e"]))
    state = shipped_state(name)
    active = [m.id for u in state.units if isinstance(u, Unit)
              and u.player == state.battle.active_player for m in u.models if m.at]
    model = _mostly(draw, st.sampled_from(active or ["nobody"]), strings)
    move = _mostly(draw, st.sampled_from(["normal", "advance", "fall-back"]),
                   st.sampled_from(["charge", "", "Normal"]))
    roll = _mostly(draw, st.just(draw(st.integers(1, 6)) if move == "advance" else None),
                   st.sampled_from(HOSTILE_NUMBERS))
    mode = _mostly(draw, st.none(), st.one_of(st.sampled_from(MODES), strings))
    x, y = draw(st.sampled_from(_near(state)))
    point = st.tuples(st.floats(x - 14, x + 14), st.floats(y - 14, y + 14))
    return name, model, move, roll, mode, [draw(st.one_of(point, point, point,
                                                          st.tuples(coordinate, coordinate)))]


def run_zone_query(name: str, model: Any, move: Any, roll: Any, mode: Any,
                   points: list[tuple[Any, ...]]) -> str:
    """``legal_zone``, then every query of the zone at each point, and ``validate_path``."""
    return _query(shipped_state(name), model, move, roll, mode, None, points)


def _query(state: GameState, model: Any, move: Any, roll: Any, mode: Any, step: Any,
           points: list[tuple[Any, ...]]) -> str:
    try:
        zone = legal_zone(state, model, move, roll=roll, mode=mode, step=step)
    except UserError:
        return "refused"
    return zone_probe(zone, state, model, move, points, roll=roll, mode=mode)


def zone_probe(zone: Zone, state: GameState, model: Any, move: Any,
               points: list[tuple[Any, ...]], *, roll: Any = None, mode: Any = None) -> str:
    """Every query of ``zone`` at each point (``contains``, ``explain``, ``nearest``,
    ``path_to``, ``facing_at``), then ``validate_path`` along the points (which may carry
    facings). Where the zone contains a point, ``path_to`` must give a witness and
    ``validate_path`` must accept it (the zone's guarantee). ``"refused"`` if any refused."""
    refused = False
    queries: list[Callable[[Any, Any], Any]] = [zone.contains, zone.explain, zone.nearest,
                                                zone.path_to, zone.facing_at]
    for x, y, *_ in points:
        try:
            found = [query(x, y) for query in queries]
        except UserError:
            refused = True
            continue
        if found[0]:
            assert found[3] is not None, f"({x!r}, {y!r}) is in the zone but has no path"
            check = validate_path(state, model, move, found[3].points, roll=roll, mode=mode)
            assert check.legal, (found[3].points, check.violations)
    try:
        validate_path(state, model, move, points, roll=roll, mode=mode)
    except UserError:
        refused = True
    return "refused" if refused else "accepted"


# -- zone queries of models that turn as they move ------------------------------------------------

WH40K = [n for n in NAMES if not n.startswith("t9a")]
STEPS: list[Any] = [7.5, 15.0, 30.0, 90.0, 0, -15.0, 0.5, 90.5, 1e9, math.nan, math.inf, "15",
                    True, 10**400]
"""Facing steps for ``legal_zone``: valid ones of 7.5 degrees and over (a finer step is a
finer zone at a cost that grows as 1 / step: not a hostile input), and invalid ones."""


@lru_cache(maxsize=64)  # (each state keeps its zones' caches: a bounded number of them)
def turning_state(name: str, model: str, base: str | None, hull: int | None,
                  facing: Any) -> GameState | None:
    """The shipped scenario ``name`` with ``model`` given ``base`` (a ``"hull"``: the polygon
    ``HULLS[hull]``) and ``facing``, loaded as a file would be (``None``: the loader refuses
    it)."""
    doc = _copy(shipped_doc(name))
    for m in _model_dicts(doc):
        if m.get("id") == model:
            if base is not None:
                m["base"] = base
                m.pop("hull", None)
                if hull is not None:
                    m["hull"] = _copy(HULLS[hull])
            if facing is not None:
                m["facing"] = facing
    try:
        return loads_scenario(json.dumps(doc), fmt="json", source=name)
    except (UserError, ValueError):  # the loader's refusal; or NaN, which JSON cannot hold
        return None


@st.composite
def turning_queries(draw: st.DrawFn) -> tuple[Any, ...]:
    """``(scenario, model, base, hull, facing, move, roll, step, [point])``: a zone query of a
    model on a non-round base (a shipped one, or a model given one of :data:`NON_ROUND_BASES`
    and a hostile facing), maybe with a facing step; points with facings, some hostile."""
    name = draw(st.sampled_from(WH40K))
    state = shipped_state(name)
    active = [m for u in state.units if isinstance(u, Unit)
              and u.player == state.battle.active_player for m in u.models if m.at]
    turning = [m.id for m in active if not m.base.is_round]
    model = draw(st.sampled_from(turning or [m.id for m in active] or ["nobody"]))
    base = hull = facing = None
    if not turning or _rarely(draw, 2):  # another base (a round model given one)
        model = draw(st.sampled_from([m.id for m in active] or ["nobody"]))
        base = draw(st.sampled_from(NON_ROUND_BASES))
        hull = draw(st.integers(0, len(HULLS) - 1)) if base == "hull" else None
    if _rarely(draw, 3):
        facing = draw(st.sampled_from(HOSTILE_FACINGS[:16]))  # numbers a file can hold
    move = _mostly(draw, st.sampled_from(["normal", "normal", "advance", "fall-back"]),
                   st.sampled_from(["charge", "", "Normal"]))
    roll = draw(st.integers(1, 6)) if move == "advance" else None
    step = draw(st.sampled_from(STEPS)) if _rarely(draw, 4) else None
    x, y = draw(st.sampled_from(_near(state, model=model)))
    reach = draw(st.sampled_from([1.0, 4.0, 10.0]))
    at = st.tuples(st.floats(x - reach, x + reach), st.floats(y - reach, y + reach))
    with_facing = st.tuples(st.floats(x - reach, x + reach), st.floats(y - reach, y + reach),
                            st.one_of(st.floats(0, 360), st.sampled_from(HOSTILE_FACINGS)))
    points = draw(st.lists(st.one_of(at, with_facing, st.tuples(coordinate, coordinate)),
                           min_size=1, max_size=3))
    return name, model, base, hull, facing, move, roll, step, points


def run_turning_query(name: str, model: str, base: str | None, hull: int | None, facing: Any,
                      move: str, roll: Any, step: Any, points: list[tuple[Any, ...]]) -> str:
    """The scenario with the model's base (refused if the loader refuses it), then
    :func:`legal_zone` with ``step`` and every query of the zone at each point
    (:func:`zone_probe`)."""
    state = turning_state(name, model, base, hull, facing)
    if state is None:
        return "refused"
    return _query(state, model, move, roll, None, step, points)


# -- tabletop fit ---------------------------------------------------------------------------------

FIT_BASES = [*NON_ROUND_BASES[:-3], "32mm", "25mm", "170mm", "0.001mm", "10000mm",
             "oval 10001x1mm", "oval 1e3x1mm", "rect 0x5mm", "9" * 400 + "mm", "hull", "",
             "Rect 25x50mm"]


@st.composite
def fit_lines(draw: st.DrawFn) -> list[str]:
    """A ``tabletop fit`` command line: a shipped scenario, a base (a base string, the id of
    one of its units or models, a hostile string), maybe ``--at``, ``--limit``, ``--format``
    and ``-o``; each mostly plausible."""
    name = "missing.toml" if _rarely(draw, 20) else draw(st.sampled_from(NAMES))
    ids = [i for u in shipped_state(name).units if isinstance(u, Unit)
           for i in (u.id, *(m.id for m in u.models))] if name in NAMES else []
    argv = ["fit", name, "--base", _mostly(draw, st.sampled_from(FIT_BASES + ids),
                                           strings.filter(lambda s: "\x00" not in s
                                                          and "\ud800" not in s))]
    if draw(st.booleans()):
        argv += ["--at", _mostly(draw, st.tuples(st.floats(-5, 75), st.floats(-5, 50)).map(
            lambda p: f"{p[0]},{p[1]}"), st.sampled_from([
                "nan,1", "1e308,0", "inf,inf", "-0,-0", "1e6,1e6", "30", "x,y", "", "30,22,5",
                "1" * 400 + ",2"]))]
    if _rarely(draw, 3):
        argv += ["--limit", draw(st.sampled_from(["0", "-1", "1e400", "nan", "inf", "100",
                                                  "100.5", "0.001", "5", "x"]))]
    fmt = _mostly(draw, st.sampled_from(["text", "text", "json", "png"]), st.just("svg"))
    argv += ["--format", fmt]
    if fmt == "png" or _rarely(draw, 3):
        argv += ["-o", draw(st.sampled_from(["OUT/fit.png", "OUT/fit.png", "OUT/fit.txt",
                                             "OUT", "OUT/no/x", "/dev/full"]))]
    return argv


# -- command lines --------------------------------------------------------------------------------

COMMANDS = ["check", "schema", "show", "zone", "path", "apply", "new", "import-layout", "nope",
            "--version", "-h"]  # not play: it would open a window
OPTIONS = ["--model", "--move", "--roll", "--mode", "--to", "--format", "-o", "--zone",
           "--scale", "--engagement", "--triggers", "--layout", "--list", "--grid", "--units",
           "--step", "--fly"]


@st.composite
def command_lines(draw: st.DrawFn) -> list[str]:
    """An argument list for ``tabletop``: a command, maybe a shipped scenario, options with
    plausible or hostile values."""
    argv = [draw(st.sampled_from(COMMANDS))]
    if draw(st.integers(0, 3)):
        argv.append(draw(st.sampled_from([*NAMES, "missing.toml", ".", "/dev/null", ""])))
    for _ in range(draw(st.integers(0, 5))):
        argv.append(draw(st.sampled_from(OPTIONS)))
        argv.append(draw(st.one_of(
            st.sampled_from(["int1", "s1", "normal", "advance", "4", "0", "1e400", "nan",
                             "9" * 400, "30,22", "nan,1", "1e308,0", "png", "wkt", "geojson",
                             "OUT/x.png", "OUT/x.toml", "OUT", "/dev/full", "red", "-1",
                             "lr1", "out1", "rh1", "bk1", "15", "7.5", "91", "0.5"]),
            strings.filter(lambda s: "\x00" not in s and "\ud800" not in s))))
    return argv


def run_command(argv: list[str]) -> str:
    """Run ``tabletop ARGV`` in a scratch folder (``OUT`` in an argument is that folder; shipped
    scenarios are found by name); exit 0 is accepted, 2 refused (argparse's errors too)."""
    with tempfile.TemporaryDirectory() as folder:
        args = [a.replace("OUT", folder) for a in argv]
        out, err = io.StringIO(), io.StringIO()
        try:
            with (contextlib.chdir(folder), contextlib.redirect_stdout(out),
                  contextlib.redirect_stderr(err)):
                code = main(args)
        except SystemExit as exc:  # argparse: --help, --version, a bad option
            code = exc.code if isinstance(exc.code, int) else 2
    assert "Traceback" not in err.getvalue()
    assert code in (0, 2), (code, err.getvalue()[-300:])
    return "accepted" if code == 0 else "refused"
