"""Which zone engine answers: the compiled core (``tabletop.native``) or the Python reference.

The zone engine's hot path exists twice: in Python (the reference, always there) and in the
Rust crate ``native/`` (built by ``pip install`` where a Rust toolchain is found; see the docs'
install and speed pages). ``TABLETOP_ENGINE`` chooses:

- unset or empty: :data:`DEFAULT`: the native core where it is built and current, else the
  Python engine;
- ``native``: the native core; an error when it is not built;
- ``python``: the Python engine.

>>> engine_name() in ENGINES
True
>>> describe().startswith("zone engine: ")
True
"""

from __future__ import annotations

import importlib
import os
import threading
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from functools import lru_cache, partial
from types import ModuleType
from typing import Any, TypeVar

import numpy as np

from tabletop.errors import UserError, quote

__all__ = [
    "DEFAULT",
    "ENGINES",
    "ENV",
    "NATIVE_VERSION",
    "NO_POLYGONS",
    "THREADS_ENV",
    "call_threads",
    "core",
    "describe",
    "engine_name",
    "native_later",
    "native_map",
    "native_module",
    "native_problem",
    "threads",
]

ENV = "TABLETOP_ENGINE"
"""The environment variable that chooses the engine."""
ENGINES = ("native", "python")
"""Its accepted values."""
DEFAULT = "native"
"""The engine when :data:`ENV` is unset (``"native"``: the core where it is built, else
Python)."""
NATIVE_VERSION = "0.1.5"
"""The version of ``native/Cargo.toml`` this Python code expects of the compiled module."""
NO_POLYGONS = (np.zeros((0, 2)), np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64))
"""An empty set of polygons in the core's ragged layout (coordinates, ring starts, polygon
starts), for a call that takes a set and has none (read, never written)."""

_NOT_BUILT = ("the native core is not built (no Rust toolchain when tabletop was installed; "
              "with cargo on PATH, `pip install -e .` builds it)")


@lru_cache(maxsize=1)
def _load() -> tuple[ModuleType | None, str]:
    """The compiled module and ``""``, or ``None`` and why it cannot be used."""
    try:
        mod = importlib.import_module("tabletop.native")
    except ImportError:
        return None, _NOT_BUILT
    built = getattr(mod, "__version__", "?")
    if built != NATIVE_VERSION:
        return None, (f"the native core is out of date (built {built}, this tabletop expects "
                      f"{NATIVE_VERSION}; `pip install -e .` builds it again)")
    return mod, ""


def native_module() -> ModuleType | None:
    """The compiled module when it is built and current, whatever the choice of engine."""
    return _load()[0]


def native_problem() -> str:
    """Why the compiled module cannot be used (``""`` when it can)."""
    return _load()[1]


def engine_name() -> str:
    """``"native"`` or ``"python"``: the engine ``TABLETOP_ENGINE`` chooses (read on
    each call, so a test or a benchmark can switch)."""
    raw = os.environ.get(ENV, "")
    key = (raw, DEFAULT, _load)
    got = _CHOSEN.get(key)
    if got is None:
        got = _CHOSEN[key] = _choose(raw)
    return got


_CHOSEN: dict[tuple[str, str, object], str] = {}
""":func:`engine_name`'s answers by the variable's value (asked several times a pick-up)."""


def _choose(raw: str) -> str:
    want = raw.strip().lower()
    if want not in ("", *ENGINES):
        raise UserError(f"{ENV}: {quote(raw)} is not an engine; accepted: "
                        f"{', '.join(ENGINES)} (or unset: native when built)")
    if want == "python" or (want == "" and DEFAULT == "python"):
        return "python"
    if native_module() is None:
        if want == "native":
            raise UserError(f"{ENV}=native but {native_problem()}")
        return "python"
    return "native"


def core() -> ModuleType | None:
    """The compiled module when the native engine is chosen, else ``None``."""
    return native_module() if engine_name() == "native" else None


def describe() -> str:
    """One line for the user: which engine answers, and why when it is the Python one."""
    try:
        name = engine_name()
    except UserError as exc:
        return f"zone engine: {exc}"
    if name == "native":
        return f"zone engine: native (compiled core {NATIVE_VERSION})"
    if os.environ.get(ENV, "").strip().lower() == "python":
        return f"zone engine: Python ({ENV}=python)"
    if native_module() is not None:
        return f"zone engine: Python (the default; {ENV}=native uses the compiled core)"
    return f"zone engine: Python ({native_problem()})"


THREADS_ENV = "TABLETOP_THREADS"
"""The environment variable that caps the threads :func:`native_map` uses (a whole number, 1:
none besides the caller's; unset: the processors this process may use, at most 4)."""

T = TypeVar("T")
J = TypeVar("J")
R = TypeVar("R")

_PREFIX = "tabletop-native-map"
_POOL: dict[int, ThreadPoolExecutor] = {}
_POOL_LOCK = threading.Lock()


def threads() -> int:
    """How many threads :func:`native_map` may use (:data:`THREADS_ENV`; read on each call)."""
    raw = os.environ.get(THREADS_ENV, "").strip()
    if raw:
        try:
            return max(1, int(raw))
        except ValueError:
            raise UserError(f"{THREADS_ENV}: {quote(raw)} is not a whole number of threads "
                            "(1 or more)") from None
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        cpus = os.cpu_count() or 1
    return max(1, min(4, cpus))


def call_threads() -> int:
    """How many threads one call of the compiled core may spread its work over, the caller's
    among them (the core's own threads, for the call only): :func:`threads`, or 1 on one of
    :func:`native_map`'s threads (they already share the processors)."""
    if threading.current_thread().name.startswith(_PREFIX):
        return 1
    return threads()


def native_map(fn: Callable[[T], R], items: Iterable[T]) -> list[R]:
    """``[fn(x) for x in items]``, on several threads when the native engine is chosen: work
    that is mostly the compiled core's (it lets go of the interpreter's lock while it works,
    so the threads run at once; a turning mover's layers, one region each), the caller's
    thread among them (:class:`_Batch`). On the Python engine, with one thread
    (:func:`threads`) or one item, in the caller's thread. The answers are in the items'
    order, each the same as alone; ``fn`` must not change what another call reads. An error
    ``fn`` raised is raised once every item is done (the first in the items' order)."""
    work = list(items)
    pool = _pool(len(work) >= 2)
    if pool is None:
        return [fn(x) for x in work]
    out, errors, tasks = _tasks(fn, work)
    _Batch(pool, tasks, caller=True).begin().wait()
    if errors:
        raise errors[min(errors)]
    return out


def native_later(fn: Callable[[T], R], items: Iterable[T]) -> Callable[[], list[R]]:
    """:func:`native_map` begun now on the pool's threads, while the caller goes on (its own
    work fills the processor they leave idle): the answers when the returned function is
    called (the caller then does the items not begun yet, and waits for the rest; an error
    ``fn`` raised is raised there, the first in the items' order). Where :func:`native_map`
    would work in the caller's thread, the work is done when it is first called. A task may
    wait on the answers of work begun before it (it does what is left of that work itself).
    ``fn`` must not change what the caller reads meanwhile."""
    work = list(items)
    pool = _pool(len(work) >= 1)
    if pool is None:
        done: list[list[R]] = []

        def now() -> list[R]:
            if not done:
                done.append([fn(x) for x in work])
            return done[0]
        return now
    out, errors, tasks = _tasks(fn, work)
    batch = _Batch(pool, tasks, caller=False).begin()

    def answers() -> list[R]:
        batch.wait()
        if errors:
            raise errors[min(errors)]
        return out
    return answers


def _tasks(fn: Callable[[T], R], work: list[T]
           ) -> tuple[list[Any], dict[int, BaseException], list[Callable[[], None]]]:
    """A task per item of ``work``: ``fn`` of it, its answer put in the list at its index, or
    the error it raised in the dict by its index (for the caller to raise once every item is
    done); with the list and the dict."""
    out: list[Any] = [None] * len(work)
    errors: dict[int, BaseException] = {}

    def one(i: int) -> None:
        try:
            out[i] = fn(work[i])
        except BaseException as e:  # (raised by the caller, after the others)
            errors[i] = e

    return out, errors, [partial(one, i) for i in range(len(work))]


class _Batch:
    """Tasks (none may raise) run by the pool's threads and by whoever
    waits for them: :meth:`wait` does the tasks no thread has begun, then waits for those
    begun. With ``caller=True`` the caller waits at once and is one of the :func:`threads`
    (the pool holds the others: a batch wakes one thread fewer, and no task waits for a
    thread to wake while the caller, awake, waits for it); else it goes on with its own work
    first (:func:`native_later`). The pool's threads not begun when the tasks run out are
    called off (they may be busy with work begun before)."""

    def __init__(self, pool: ThreadPoolExecutor, tasks: list[Callable[[], None]],
                 caller: bool) -> None:
        self._todo: deque[Callable[[], None]] = deque(tasks)
        self._left = len(tasks)
        self._lock = threading.Lock()
        self._done = threading.Event()
        if not tasks:
            self._done.set()
        self._pool, self._caller = pool, caller
        self._helpers: list[Future[None]] = []

    def begin(self) -> _Batch:
        """Give the tasks to the pool's threads."""
        n = min(threads() - 1, len(self._todo) - 1 if self._caller else len(self._todo))
        self._helpers = [self._pool.submit(self._drain) for _ in range(n)]
        return self

    def _drain(self) -> None:
        while True:
            try:
                task = self._todo.popleft()
            except IndexError:
                return
            try:
                task()
            finally:
                with self._lock:
                    self._left -= 1
                    if self._left == 0:
                        self._done.set()

    def wait(self) -> None:
        """Do the tasks not begun, then wait until every task is done."""
        self._drain()
        self._done.wait()
        for h in self._helpers:
            h.cancel()


def _pool(worth: bool) -> ThreadPoolExecutor | None:
    """The threads of :func:`native_map` (``None``: the caller's thread, on the Python engine,
    with one thread, when not ``worth`` it, or in one of the pool's own threads: never wait
    on it)."""
    n = threads()
    if n < 2 or not worth or core() is None or \
            threading.current_thread().name.startswith(_PREFIX):
        return None
    with _POOL_LOCK:
        pool = _POOL.get(n)
        if pool is None:
            # the caller is one of the n (native_map), or goes on with its own
            # work beside the others (native_later)
            pool = _POOL[n] = ThreadPoolExecutor(max_workers=n - 1, thread_name_prefix=_PREFIX)
    return pool
