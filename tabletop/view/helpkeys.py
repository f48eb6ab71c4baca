"""Every key of the window, as H lists it for the board in front of the player (no pygame).

The list is built from the game's ruleset: its move types and their keys
(:attr:`Ruleset.move_types <tabletop.rules.ruleset.Ruleset.move_types>`) and the tools it builds
moves with (:mod:`tabletop.rules.tools`): models dragged (wh40k-11e: turning with Q and E, the
threat range, engagement ranges) or blocks dragged (t9a-2: wheels and reforms). A key a ruleset
has no use for is not listed.
"""

from __future__ import annotations

from collections.abc import Sequence

from tabletop.rules.ruleset import MoveType
from tabletop.rules.tools import BLOCK_DRAG, MODEL_DRAG

__all__ = ["help_rows"]

Row = tuple[str, str]
"""``(keys, what they do)``; a row with no keys is a heading."""


def help_rows(move_types: Sequence[MoveType], tools: Sequence[str]) -> list[Row]:
    """The help's rows for a ruleset with ``move_types`` and ``tools``."""
    rows: list[Row] = [("", "Move types of the clicked unit (or click one in the panel)")]
    for t in move_types:
        extra = " (Shift+F: Desperate Escape)" if t.name == "fall-back" and \
            MODEL_DRAG in tools else ""
        rows.append((t.key.upper(), t.title + extra))
    if MODEL_DRAG in tools:
        rows += [
            ("", "Moving models"),
            ("drag", "a model of the moving unit: its legal zone is shaded, the ghost snaps "
                     "to it, the path shows its length against the move"),
            ("Shift+drag", "the whole unit by one vector, as far as every model may go (the "
                           "model that stops it is named)"),
            ("Ctrl+click, box", "pick several models: they move together, each along its own "
                                "legal path"),
            ("Q / E", "turn the model under the pointer (or the last one moved) 15° anti-"
                      "clockwise / clockwise; with Shift 1°"),
            ("Backspace", "put the model under the pointer back where it started, alone"),
            ("list → board", "models set up (reserves, passengers): drag them from the panel "
                             "onto the shaded area"),
        ]
    if BLOCK_DRAG in tools:
        rows += [
            ("", "Moving blocks"),
            ("drag", "the front edge (or the body): straight; a front corner: wheel about "
                     "the other; the shaded area is the legal range"),
            ("[ ]  ↑ ↓", "reform: fewer / more files"),
            (", .", "reform: turn 15° (with Shift 5°)"),
            ("← →", "reform: turn 90°"),
        ]
    rows += [
        ("", "The move"),
        ("Enter", "commit the unit's move (a refusal keeps the models where they are, to fix)"),
        ("R", "reset the unit"),
        ("Esc", "cancel a drag, the ruler, picked models, then a selection none of whose "
                "models moved"),
        ("Ctrl+Z / Ctrl+Y", "undo / redo over the phase (committed units too); never past "
                            "dice: a key that rolls dice asks first"),
        ("Space", "the next step (it asks first when units could still move)"),
        ("", "Looking"),
        ("M", "the ruler: base to base, base to terrain, from a base (ends snap to bases)"),
    ]
    if MODEL_DRAG in tools:
        rows += [("T", "where the clicked unit could charge next turn (its threat range)"),
                 ("O", "where the clicked unit may end its move out of every charge (safe "
                       "ground)"),
                 ("- / =", "safe ground: laxer / stricter odds"),
                 ("Shift+O", "safe ground near the next objective"),
                 ("2", "enemy engagement ranges")]
    rows += [
        ("G", "the inch grid"),
        ("wheel, Home", "zoom; fit the board"),
        ("right / middle drag", "pan"),
        ("hover", "a model's profile; a summary label shows every label it stands for"),
        ("", "Files"),
        ("Ctrl+S", "save (asks before replacing a file this window did not write)"),
        ("Ctrl+Shift+S", "save as"),
        ("P, F12", "screenshot beside the save"),
        ("Ctrl+Q", "quit (asks when there are unsaved changes)"),
        ("click an alert", "dismiss it (a write that failed, a save changed elsewhere)"),
        ("H, F1", "this list"),
    ]
    return rows
