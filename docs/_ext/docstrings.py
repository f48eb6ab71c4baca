"""A griffe extension: the docstrings of tabletop, written with Sphinx roles, read as Markdown.

The docstrings of ``tabletop`` name other objects the way Sphinx does (:class:`~a.b.C`,
:func:`.movement.select`, :meth:`Ruleset.apply`) and carry doctests (``>>> ...``). mkdocstrings
renders Markdown, where a role would show as its raw text and a doctest as a quotation. This
extension rewrites both when the package is loaded, leaving the source unchanged:

- a role becomes a link to the object when it is rendered on some page of the site, else code
  (an *optional* cross-reference of mkdocs-autorefs, so an object the API pages leave out is
  no warning of the strict build);
- a run of doctest lines becomes a ``pycon`` code block;
- a "Class attributes" section is read as numpydoc's "Attributes".

Loaded by ``mkdocs.yml`` (``extensions: [docs/_ext/docstrings.py]``).
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

import griffe

ROLE = re.compile(r":(?:class|func|meth|mod|data|attr|obj|exc|const):`(?P<target>[^`]+)`")
PROMPT = re.compile(r"^(?P<indent>\s*)>>> ")
SECTION_ALIAS = re.compile(r"^(?P<indent>[ \t]*)Class attributes\n[ \t]*-+$", flags=re.M)
"""Numpydoc section titles griffe does not know, read as the one it does."""


def _module(obj: griffe.Object) -> griffe.Module:
    while not isinstance(obj, griffe.Module):
        assert obj.parent is not None
        obj = obj.parent
    return obj


def _lookup(path: str, root: griffe.Object) -> griffe.Object | None:
    """The object at the dotted ``path`` from the package ``root``, or None."""
    parts = path.split(".")
    if parts[0] != root.name:
        return None
    obj: Any = root
    for part in parts[1:]:
        try:
            obj = obj.members[part]
        except (KeyError, AttributeError, griffe.AliasResolutionError,
                griffe.CyclicAliasError):
            return None
    return obj


def _resolve(target: str, obj: griffe.Object, root: griffe.Object) -> str | None:
    """The full path of what ``target`` names in the scope of ``obj``, or None."""
    if target.startswith("."):  # relative to the module's package: .movement, ..rules.x
        module = _module(obj)
        package: Any = module if module.is_package else module.parent
        rest = target[1:]
        while rest.startswith(".") and package is not None:
            package, rest = package.parent, rest[1:]
        return f"{package.path}.{rest}" if package is not None else None
    if _lookup(target, root) is not None:
        return target
    head, _, tail = target.partition(".")
    scope: Any = obj
    while scope is not None:  # the object's own scope, then its parents'
        try:
            found = scope.resolve(head)
        except (griffe.NameResolutionError, AttributeError):
            found = None
        if found:
            return f"{found}.{tail}" if tail else found
        scope = scope.parent
    return None


def _role(match: re.Match[str], obj: griffe.Object, root: griffe.Object) -> str:
    target = match["target"].strip()
    short = target.startswith("~")
    target = target.lstrip("~")
    title = target.rsplit(".", 1)[-1] if short else target.lstrip(".")
    full = _resolve(target, obj, root)
    code = f"<code>{escape(title)}</code>"
    if full is None:
        return code
    return f'<autoref identifier="{escape(full)}" optional>{code}</autoref>'


def _doctests(text: str) -> str:
    """``text`` with every run of doctest lines (to the next blank line) fenced as pycon."""
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = PROMPT.match(lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        indent = m["indent"]
        block = []
        while i < len(lines) and lines[i].strip():
            block.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        if out and out[-1].strip():
            out.append("")
        out += [f"{indent}```pycon", *(indent + b for b in block), f"{indent}```"]
    return "\n".join(out)


def _rewrite(obj: griffe.Object, root: griffe.Object, seen: set[int]) -> None:
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if obj.docstring is not None:
        text = ROLE.sub(lambda m: _role(m, obj, root), obj.docstring.value)
        text = SECTION_ALIAS.sub(r"\g<indent>Attributes\n\g<indent>----------", text)
        obj.docstring.value = _doctests(text)
    for member in obj.members.values():
        if isinstance(member, griffe.Alias):
            continue
        _rewrite(member, root, seen)


class SphinxRolesToMarkdown(griffe.Extension):
    """Rewrite Sphinx roles and doctests of every docstring of a loaded package."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        _rewrite(pkg, pkg, set())
