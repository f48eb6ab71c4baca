"""``tabletop scenarios``: the scenarios shipped with the package, which every command loads by
name (``tabletop play t9a-lines.toml``)."""

from __future__ import annotations

import argparse

from tabletop.cli._output import emit
from tabletop.errors import UserError
from tabletop.scenario.io import load_scenario, shipped, shipped_names

ORDER = 12


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``scenarios`` sub-command."""
    p = subparsers.add_parser(
        "scenarios", help="list the scenarios shipped with tabletop (play them by name)",
        description="List the scenarios shipped with the package: file name, ruleset, name, "
                    "where the game stands and what it shows. Every command takes these names "
                    "(`tabletop play t9a-lines.toml`, `tabletop show demo.toml -o board.png`).")
    p.set_defaults(func=run)


ABOUT_CHARS = 140
"""At most this much of a scenario's leading comment is listed (cut at a word)."""


def about(name: str) -> str:
    """What a shipped scenario shows: the start of its leading comment, at most
    :data:`ABOUT_CHARS` characters cut at a word (empty for a file without one)."""
    lines = []
    for line in shipped(name).read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        lines.append(line.lstrip("#").strip())
    text = " ".join(lines)
    if len(text) <= ABOUT_CHARS:
        return text
    return text[:ABOUT_CHARS].rsplit(" ", 1)[0].rstrip(",;:") + " …"


def lines() -> list[str]:
    """The listing, one line per scenario and one line of what it shows."""
    out = ["Shipped scenarios (`tabletop play NAME` opens one; every command takes these "
           "names):"]
    rows = []
    for name in shipped_names():
        try:
            st = load_scenario(shipped(name))
        except UserError:  # pragma: no cover - the shipped files are checked by the tests
            continue
        b = st.battle
        player = next((p.name or p.id for p in st.players if p.id == b.active_player),
                      b.active_player)
        where = f"round {b.round}, {player[:1].upper()}{player[1:]}'s {b.phase} phase"
        rows.append((name, st.ruleset, f"{st.name} ({where}, {len(st.units)} units)",
                     about(name)))
    w = max(len(r[0]) for r in rows)
    rw = max(len(r[1]) for r in rows)
    for name, ruleset, title, text in rows:
        out.append(f"  {name:<{w}}  {ruleset:<{rw}}  {title}")
        if text:
            out.append(f"  {'':<{w}}  {'':<{rw}}  {text}")
    return out


def run(args: argparse.Namespace) -> int:
    """Print the list; return 0."""
    emit(lines())
    return 0
