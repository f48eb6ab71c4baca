"""mkdocs hooks: API pages that follow the package as its modules move.

An API page lists packages, not modules: a line ``<!-- api: tabletop.geometry -->`` becomes one
mkdocstrings block (``::: tabletop.geometry.footprints``, ...) for the package itself and each of
its public modules, found on disk when the site is built; ``-tabletop.x.y`` leaves out a module
(or package) that another page documents. A module that moves or splits appears on the page
under its new name without an edit here; a name that does not exist (yet, or any more) adds
nothing. Loaded by ``mkdocs.yml`` (``hooks: [docs/_ext/hooks.py]``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
MARKER = re.compile(r"^<!-- api: (?P<names>[\w. -]+) -->$", flags=re.M)


def _path(name: str) -> Path:
    return ROOT.joinpath(*name.split("."))


def modules(name: str) -> list[str]:
    """``name`` and its public modules, recursively (a package first, then its modules by
    name); ``[]`` when there is no such module."""
    path = _path(name)
    if path.with_suffix(".py").is_file():
        return [name]
    if not (path / "__init__.py").is_file():
        return []
    found = [name]
    for child in sorted(path.iterdir()):
        stem = child.stem if child.suffix == ".py" else child.name
        if stem.startswith("_") or (child.suffix != ".py" and not child.is_dir()):
            continue
        found += modules(f"{name}.{stem}")
    return found


def _blocks(match: re.Match[str]) -> str:
    words = match["names"].split()
    out = [m for n in words if not n.startswith("-") for m in modules(n)]
    left_out = {m for n in words if n.startswith("-") for m in modules(n[1:])}
    names = [m for m in out if m not in left_out]
    return "\n\n".join(f"::: {m}" for m in names)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """Expand every ``<!-- api: ... -->`` line of a page."""
    return MARKER.sub(_blocks, markdown)
