"""Cache keys by identity (no pygame).

The window caches what it draws and asks per state object: states are immutable, so the same
object means the same answer. A key made of ``id(state)`` alone could match a new state that
happens to reuse a freed object's address; :class:`Ref` holds the object (so its address cannot be
reused while the key lives) and compares by identity (never field by field, which would be slow).
"""

from __future__ import annotations

from typing import Any

__all__ = ["Ref"]


class Ref:
    """``obj`` as a cache key: equal only to a :class:`Ref` of the very same object."""

    __slots__ = ("obj",)

    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ref) and other.obj is self.obj

    def __hash__(self) -> int:
        return id(self.obj)

    def __repr__(self) -> str:
        return f"Ref({type(self.obj).__name__} at {id(self.obj):#x})"
