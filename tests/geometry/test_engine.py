"""The choice of zone engine (TABLETOP_ENGINE) and the compiled core's boundary: panics and
refused inputs reach Python as NativeError, and a wheel built without a Rust toolchain is pure
Python and runs on the Python engine."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
import shapely

from tabletop.errors import UserError
from tabletop.geometry import engine

from support.paths import REPO

native = engine.native_module()
needs_native = pytest.mark.skipif(native is None, reason=engine.native_problem())


def test_the_variable_chooses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(engine.ENV, "python")
    assert engine.engine_name() == "python" and engine.core() is None
    assert engine.describe() == f"zone engine: Python ({engine.ENV}=python)"
    monkeypatch.setenv(engine.ENV, "fortran")
    with pytest.raises(UserError, match="TABLETOP_ENGINE: \"fortran\" is not an engine"):
        engine.engine_name()
    assert "accepted: native, python" in engine.describe()
    monkeypatch.delenv(engine.ENV)
    assert engine.engine_name() == ("native" if native is not None and
                                    engine.DEFAULT == "native" else "python")
    if native is not None:
        monkeypatch.setenv(engine.ENV, "native")
        assert engine.engine_name() == "native" and engine.core() is native


def test_native_asked_for_but_not_built(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "_load", lambda: (None, "the native core is not built (test)"))
    monkeypatch.setenv(engine.ENV, "native")
    with pytest.raises(UserError, match="TABLETOP_ENGINE=native but the native core is not"):
        engine.engine_name()
    monkeypatch.delenv(engine.ENV)
    assert engine.engine_name() == "python"
    assert engine.describe() == "zone engine: Python (the native core is not built (test))"


@needs_native
def test_a_panic_is_a_python_exception() -> None:
    assert native is not None
    with pytest.raises(native.NativeError, match="internal error in the native core"):
        native.selftest_panic()
    assert issubclass(native.NativeError, RuntimeError)


def _ragged(*geoms: shapely.Geometry) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    _, coords, (rings, polys) = shapely.to_ragged_array(list(geoms))
    return coords, rings.astype(np.int64), polys.astype(np.int64)


@needs_native
def test_overlay_matches_geos_and_refuses_what_it_cannot_hold() -> None:
    assert native is not None
    a, b = shapely.box(0, 0, 4, 4), shapely.Point(4, 2).buffer(1.5)
    for op in ("union", "intersection", "difference"):
        coords, rings, polys = native.overlay(op, (0, 0, 10, 10), 1.0, _ragged(a), _ragged(b))
        got = shapely.from_ragged_array(shapely.GeometryType.POLYGON, coords, (rings, polys))
        want = getattr(shapely, op)(a, b)
        # vertices on a grid of 1e-7": every boundary within 1.5e-7" of GEOS's
        assert shapely.hausdorff_distance(shapely.union_all(got), want) <= 1.5e-7
    with pytest.raises(native.NativeError, match="over the native core's limit"):
        native.overlay("union", (0, 0, 1e6, 10), 0.0, _ragged(a), _ragged(b))
    with pytest.raises(native.NativeError, match="no operation"):
        native.overlay("xor", (0, 0, 10, 10), 0.0, _ragged(a), _ragged(b))
    coords, rings, polys = _ragged(a)
    with pytest.raises(native.NativeError, match="offsets"):
        native.overlay("union", (0, 0, 10, 10), 0.0, (coords, rings[::-1].copy(), polys),
                       _ragged(b))
    bad = coords.copy()
    bad[1, 0] = np.nan
    with pytest.raises(native.NativeError, match="not finite"):
        native.overlay("union", (0, 0, 10, 10), 0.0, (bad, rings, polys), _ragged(b))


def _wheel(tmp_path: Path, env: dict[str, str]) -> Path:
    out = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--wheel-dir", str(out), str(REPO)], check=True, env=env,
                   capture_output=True)
    (wheel,) = out.glob("*.whl")
    return wheel


def _installed_version(tmp_path: Path, wheel: Path, native: bool = False) -> str:
    """``tabletop --version`` of ``wheel`` installed on its own (this environment's
    dependencies), from a folder outside the checkout."""
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--target", str(target), str(wheel)], check=True, capture_output=True)
    env = {k: v for k, v in os.environ.items() if k != engine.ENV}
    if native:
        env[engine.ENV] = "native"
    env["PYTHONPATH"] = str(target)
    run = subprocess.run([sys.executable, "-m", "tabletop", "--version"], check=True,
                         capture_output=True, text=True, env=env, cwd=tmp_path)
    return run.stdout


@pytest.mark.slow
def test_a_machine_without_rust_installs_and_runs_on_python(tmp_path: Path) -> None:
    cargo = shutil.which("cargo")
    path = [p for p in os.environ.get("PATH", "").split(os.pathsep)
            if not (cargo and Path(p) == Path(cargo).parent)]
    env = {**os.environ, "PATH": os.pathsep.join(path)}
    wheel = _wheel(tmp_path, env)
    assert wheel.name.endswith("-py3-none-any.whl"), wheel.name
    assert not [n for n in zipfile.ZipFile(wheel).namelist() if n.startswith("tabletop/native.")]
    out = _installed_version(tmp_path, wheel)
    assert "zone engine: Python (the native core is not built" in out, out


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("cargo") is None, reason="no Rust toolchain (cargo) here")
def test_where_cargo_is_the_wheel_holds_the_core(tmp_path: Path) -> None:
    wheel = _wheel(tmp_path, dict(os.environ))
    assert "-py3-none-any" not in wheel.name, wheel.name
    assert [n for n in zipfile.ZipFile(wheel).namelist() if n.startswith("tabletop/native.")]
    out = _installed_version(tmp_path, wheel, native=True)
    assert "zone engine: native" in out, out


def test_native_map_keeps_the_order_and_uses_threads_only_on_the_native_engine(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    seen: list[str] = []

    def f(x: int) -> int:
        seen.append(threading.current_thread().name)
        return x * x

    monkeypatch.setenv(engine.THREADS_ENV, "3")
    assert engine.threads() == 3
    monkeypatch.setenv(engine.ENV, "python")
    assert engine.native_map(f, range(20)) == [x * x for x in range(20)]
    assert set(seen) == {threading.current_thread().name}
    monkeypatch.setenv(engine.THREADS_ENV, "lots")
    with pytest.raises(UserError, match="TABLETOP_THREADS: \"lots\" is not a whole number"):
        engine.threads()
    monkeypatch.setenv(engine.THREADS_ENV, "0")
    assert engine.threads() == 1
    monkeypatch.delenv(engine.THREADS_ENV)
    assert engine.threads() == min(4, len(os.sched_getaffinity(0)))
    if native is None:
        return
    monkeypatch.setenv(engine.ENV, "native")
    monkeypatch.setenv(engine.THREADS_ENV, "2")
    # two threads at once, the caller's and the pool's: the one that takes item 0 waits
    # until the other has done an item
    names: set[str] = set()
    lock = threading.Lock()
    both = threading.Event()

    def g(x: int) -> int:
        with lock:
            names.add(threading.current_thread().name)
            if len(names) == 2:
                both.set()
        if x == 0:
            assert both.wait(10), "no second thread took an item beside the first"
        return x * x

    assert engine.native_map(g, range(50)) == [x * x for x in range(50)]
    pool_names = {n for n in names if n.startswith("tabletop-native-map")}
    assert len(pool_names) == 1 and names - pool_names == {threading.current_thread().name}
    # an error is raised once every item is done, the first in the items' order
    done: list[int] = []

    def bad(x: int) -> int:
        done.append(x)
        if x in (3, 7):
            raise ValueError(f"bad {x}")
        return x

    with pytest.raises(ValueError, match="bad 3"):
        engine.native_map(bad, range(10))
    assert sorted(done) == list(range(10))
    seen.clear()
    # from one of the pool's threads: in that thread (never waiting on the pool itself)
    inner = engine.native_map(lambda x: engine.native_map(f, [x, x + 1]), [1, 2, 3])
    assert inner == [[1, 4], [4, 9], [9, 16]]
    monkeypatch.setenv(engine.THREADS_ENV, "1")
    seen.clear()
    engine.native_map(f, range(5))
    assert set(seen) == {threading.current_thread().name}


def test_native_later_begins_on_the_threads_and_answers_in_order(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    seen: list[str] = []

    def f(x: int) -> int:
        seen.append(threading.current_thread().name)
        if x == 7:
            raise ValueError("seven")
        return x * x

    # the Python engine: nothing before the first call, then once, in the caller's thread
    monkeypatch.setenv(engine.ENV, "python")
    monkeypatch.setenv(engine.THREADS_ENV, "2")
    later = engine.native_later(f, range(5))
    assert seen == []
    assert later() == [0, 1, 4, 9, 16] and later() == [0, 1, 4, 9, 16]
    assert seen == [threading.current_thread().name] * 5
    with pytest.raises(ValueError, match="seven"):
        engine.native_later(f, [6, 7])()
    if native is None:
        return
    monkeypatch.setenv(engine.ENV, "native")
    seen.clear()
    started = threading.Event()
    gate = threading.Event()

    def slow(x: int) -> int:
        started.set()
        assert gate.wait(10)
        return f(x)

    later = engine.native_later(slow, range(6))
    assert started.wait(10)  # begun before it is asked for
    gate.set()
    assert later() == [x * x for x in range(6)]
    # (the caller, asking, does the items the pool's thread had not begun)
    me = threading.current_thread().name
    assert any(name.startswith("tabletop-native-map") for name in seen)
    assert all(name.startswith("tabletop-native-map") or name == me for name in seen)
    # a task waiting on work begun before it (the hub's end region on the grid's)
    first = engine.native_later(f, range(4))
    second = engine.native_later(lambda _: sum(first()), [None])
    assert second() == [0 + 1 + 4 + 9]
    # an error is raised where the answers are asked for
    with pytest.raises(ValueError, match="seven"):
        engine.native_later(f, [6, 7, 8])()
    # the pool's thread busy with work begun before: native_map's items all in the caller's
    # thread, which does not wait for it
    gate.clear()
    busy = engine.native_later(slow, [2])
    seen.clear()
    assert engine.native_map(f, range(5)) == [0, 1, 4, 9, 16]
    assert seen == [threading.current_thread().name] * 5
    gate.set()
    assert busy() == [4]
