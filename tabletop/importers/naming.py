"""Ids for what an importer makes: slugs of names, made unique among the ids already taken."""

from __future__ import annotations

import re
from collections.abc import MutableSet

__all__ = ["fresh_id", "slug"]


def slug(text: str, default: str = "unit") -> str:
    """``text`` in lower case with every run of other characters than letters and digits
    made one ``-``.

    >>> slug("Intercessor Squad (Ultramarines)")
    'intercessor-squad-ultramarines'
    """
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or default


def fresh_id(base: str, taken: MutableSet[str]) -> str:
    """``base``, or ``base-2``, ``base-3``, ... the first not in ``taken``; added to it.

    >>> taken = {"red-rhino"}
    >>> fresh_id("red-rhino", taken), fresh_id("red-rhino", taken)
    ('red-rhino-2', 'red-rhino-3')
    """
    uid, n = base, 1
    while uid in taken:
        n += 1
        uid = f"{base}-{n}"
    taken.add(uid)
    return uid
