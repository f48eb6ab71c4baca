"""The one place that picks the implementation of the zone engine's hot path.

:func:`engine` answers with the implementation of the engine the user chose
(:func:`tabletop.geometry.engine.engine_name`: ``TABLETOP_ENGINE``, the compiled core when it
is built, else Python). ``python`` is the reference implementation of
:func:`~tabletop.zones.zone_of` (:mod:`tabletop.zones.build`), whose costliest step, a disk's
region, already asks the compiled core where it is chosen (:mod:`tabletop.geometry.wedges`);
the compiled core's implementation (:mod:`tabletop.zones.native`) is registered under
``native``; another registers itself with :func:`register` under its engine's name, and an
engine chosen without one is answered by the Python implementation. Every implementation
answers the same :class:`~tabletop.zones.query.MoveQuery` with a
:class:`~tabletop.zones.zone.Zone`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tabletop.geometry.engine import engine_name
from tabletop.zones import build, native
from tabletop.zones.query import MoveQuery
from tabletop.zones.zone import Zone

__all__ = ["Engine", "engine", "engines", "register", "unregister"]


@dataclass(frozen=True)
class Engine:
    """An implementation of the hot path: the zone of a query, and how to forget its caches."""

    name: str
    zone_of: Callable[[MoveQuery], Zone]
    clear_caches: Callable[[], None]


_ENGINES: dict[str, Engine] = {
    "python": Engine("python", build.zone_of, build.clear_caches),
    # the compiled core's (tabletop.zones.native): a round mover's pick-up in one call
    "native": Engine("native", native.zone_of, native.clear_caches),
}


def register(e: Engine) -> Engine | None:
    """Make ``e`` the implementation of the engine called ``e.name``; the one it replaces, if
    any."""
    old = _ENGINES.get(e.name)
    _ENGINES[e.name] = e
    return old


def unregister(name: str) -> None:
    """Forget the implementation called ``name`` (never the Python reference)."""
    if name != "python":
        _ENGINES.pop(name, None)


def engines() -> tuple[Engine, ...]:
    """Every implementation registered (the Python one first)."""
    return tuple(_ENGINES.values())


def engine() -> Engine:
    """The implementation of the engine the user chose (module docstring)."""
    return _ENGINES.get(engine_name(), _ENGINES["python"])
