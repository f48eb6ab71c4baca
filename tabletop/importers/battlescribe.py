"""BattleScribe's own roster files (``.ros``: XML; ``.rosz``: that XML zipped) as the roster
tree ``wh40kdc`` reads.

BattleScribe saves a roster as XML in its ``rosterSchema``; NewRecruit exports the same tree
as JSON (elements as objects of their attributes, each container element as a list of its
children), which ``wh40kdc``'s NewRecruit JSON importer reads by that schema's namespace. A
BattleScribe file is turned into that JSON here and read by the same importer, so the units,
model lines, points and factions come out as a NewRecruit export of the same roster would.

Hostile files are bounded: at most :data:`MAX_BYTES` read, a zip's member read no further than
that whatever its header claims, no document type declaration (and so no entity expansion),
at most :data:`MAX_DEPTH` elements deep and :data:`MAX_ELEMENTS` in all.
"""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any
from xml.etree import ElementTree

from tabletop.errors import UserError

__all__ = ["MAX_BYTES", "MAX_DEPTH", "MAX_ELEMENTS", "NAMESPACE", "is_battlescribe",
           "roster_json"]

NAMESPACE = "http://www.battlescribe.net/schema/rosterSchema"
"""The XML namespace of a BattleScribe roster."""
MAX_BYTES = 2_000_000
"""Most bytes of a roster's XML (a zipped one's once unzipped)."""
MAX_DEPTH = 64
"""Most elements nested in a roster (BattleScribe's are about a dozen deep)."""
MAX_ELEMENTS = 200_000
"""Most elements in a roster."""
_NUMBERS = ("number", "value")
"""Attributes read as numbers (a selection's count, a cost's value)."""


def is_battlescribe(data: bytes) -> bool:
    """Whether ``data`` looks like a BattleScribe roster: a zip (``.rosz``) or XML whose
    document element is a ``roster``."""
    if data.startswith(b"PK\x03\x04"):
        return True
    head = data[:512].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith(b"<") and b"<roster" in data[:4096]


def _unzipped(data: bytes, source: str) -> bytes:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            names = [n for n in zf.namelist() if not n.endswith("/")]
            ros = [n for n in names if n.lower().endswith(".ros")] or names
            if not ros:
                raise UserError(f"{source}: an empty zip; a .rosz holds one BattleScribe "
                                ".ros roster")
            with zf.open(ros[0]) as fh:
                inner = fh.read(MAX_BYTES + 1)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, OSError,
            EOFError, RuntimeError) as exc:
        raise UserError(f"{source}: a damaged zip ({' '.join(str(exc).split())[:120]}); a "
                        ".rosz is BattleScribe's zipped roster") from None
    if len(inner) > MAX_BYTES:
        raise UserError(f"{source}: its roster unzips to more than {MAX_BYTES:,} bytes; an "
                        "army list is a few kilobytes")
    return inner


def _number(text: str) -> int | float | str:
    try:
        value = float(text)
    except ValueError:
        return text
    return int(value) if value.is_integer() and abs(value) < 2 ** 53 else value


def roster_json(data: bytes, source: str) -> str:
    """The BattleScribe roster ``data`` (``.ros`` XML or ``.rosz``) as the JSON roster tree
    ``wh40kdc`` reads (``{"roster": {...}}``); :class:`UserError` naming ``source`` when it is
    not one."""
    if data.startswith(b"PK\x03\x04"):
        data = _unzipped(data, source)
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        raise UserError(f"{source}: a BattleScribe roster has no document type declaration; "
                        "this XML has one (refused: its entities could expand without bound)")
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as exc:
        raise UserError(f"{source}: not well-formed XML ({exc}); export the roster again "
                        "from BattleScribe (.ros or .rosz)") from None
    ns, _, tag = root.tag.rpartition("}")
    if tag != "roster":
        raise UserError(f"{source}: XML whose document element is <{tag}>, not a BattleScribe "
                        "<roster>")
    count = 0

    def convert(el: ElementTree.Element, depth: int) -> dict[str, Any]:
        nonlocal count
        count += 1
        if depth > MAX_DEPTH or count > MAX_ELEMENTS:
            raise UserError(f"{source}: more than {MAX_DEPTH} elements deep or "
                            f"{MAX_ELEMENTS:,} in all; a BattleScribe roster is far smaller")
        out: dict[str, Any] = {k: _number(v) if k in _NUMBERS else v
                               for k, v in el.attrib.items()}
        for child in el:
            key = child.tag.rpartition("}")[2]
            items = list(child)
            if items or key.endswith("s"):  # a container: <selections>, <costs>, ...
                out[key] = [convert(c, depth + 2) for c in items]
            else:  # a leaf with text: <description>, <comment>
                out[key] = (child.text or "").strip()
        if not len(el) and (el.text or "").strip():  # <characteristic name="M">6"</...>
            out["$text"] = el.text.strip()  # type: ignore[union-attr]
        return out

    tree = convert(root, 0)
    tree["xmlns"] = ns.lstrip("{") or NAMESPACE
    return json.dumps({"roster": tree})
