"""Writing files: only regular files are replaced, modes are kept or follow the umask, interrupted
saves leave nothing behind for long, and every refusal is a one-line message. Reading JSON: its
nesting counted on the text is the value's, and a parse leaves the garbage collector as it was."""

from __future__ import annotations

import errno
import gc
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tabletop.files
from tabletop.errors import UserError
from tabletop.files import atomic_write, collector_paused, nested_deeper, new_file_mode

posix = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes, FIFOs and devices")


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_writes_and_replaces(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    assert atomic_write(target, "one\n") == target
    atomic_write(target, b"two\n")
    assert target.read_bytes() == b"two\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


@posix
def test_refuses_what_is_not_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    to_device = tmp_path / "null-link"
    to_device.symlink_to("/dev/null")
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "nowhere")
    cases = {tmp_path: "exists and is a folder", fifo: "exists and is a FIFO (named pipe)",
             to_device: "exists and is a character device",
             dangling: "is a symbolic link to nothing",
             tmp_path / "no-such-folder" / "x.toml": "is not an existing folder"}
    for target, why in cases.items():
        with pytest.raises(UserError) as err:
            atomic_write(target, "data")
        assert len(err.value.lines) == 1 and why in err.value.lines[0], target
        assert err.value.lines[0].startswith(f"{target}: ")
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and to_device.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dangling", "null-link", "pipe"]


@posix
def test_a_symlink_to_a_file_writes_the_file_and_keeps_the_link(tmp_path: Path) -> None:
    real = tmp_path / "real.toml"
    real.write_text("old")
    link = tmp_path / "link.toml"
    link.symlink_to(real)
    atomic_write(link, "new")
    assert link.is_symlink() and real.read_text() == "new"


@posix
def test_modes_kept_or_from_the_umask(tmp_path: Path) -> None:
    private = tmp_path / "private.toml"
    private.write_text("x")
    private.chmod(0o600)
    atomic_write(private, "y")
    assert _mode(private) == 0o600
    old = os.umask(0o027)
    try:
        assert new_file_mode() == 0o640
        atomic_write(tmp_path / "new.toml", "z")
    finally:
        os.umask(old)
    assert _mode(tmp_path / "new.toml") == 0o640


@posix
def test_temporary_files_of_interrupted_saves_are_removed(tmp_path: Path) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    pid = int(dead.stdout)
    stale = tmp_path / f".game.toml.{pid}-0123abcd.tmp"
    alive = tmp_path / f".game.toml.{os.getppid()}-0123abcd.tmp"  # a running process's
    legacy = tmp_path / ".game.toml.k2j4h5g6.tmp"  # an earlier version's, old
    recent_legacy = tmp_path / ".game.toml.a1b2c3d4.tmp"
    other = tmp_path / f".game.toml.bak.{pid}-0123abcd.tmp"  # another target's
    for p in (stale, alive, legacy, recent_legacy, other):
        p.write_text("partial")
    os.utime(legacy, (0, 0))
    atomic_write(tmp_path / "game.toml", "whole")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["game.toml", alive.name, recent_legacy.name, other.name])


@posix
def test_a_failed_write_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    if os.geteuid() == 0:
        # root writes into a read-only folder (CI runs as root): the kernel's refusal is
        # given where it would come, at the temporary file's creation
        real_open = os.open

        def refuse(path, *args, **kwargs):  # type: ignore[no-untyped-def]
            if str(path).endswith(".tmp"):
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
            return real_open(path, *args, **kwargs)

        monkeypatch.setattr(tabletop.files.os, "open", refuse)
    try:
        with pytest.raises(UserError, match="cannot write here: Permission denied"):
            atomic_write(folder / "x.toml", "data")
    finally:
        folder.chmod(0o700)
    assert list(folder.iterdir()) == []


@posix
def test_a_write_failing_midway_keeps_the_old_file_and_leaves_no_temporary(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A disk that fills while the new contents are written: the old file stays whole, the
    temporary file is removed, one line says why (for every user, root included)."""
    target = tmp_path / "game.toml"
    target.write_text("old")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(tabletop.files.os, "fsync", full)
    with pytest.raises(UserError, match=r"game\.toml: cannot write: No space left on device"):
        atomic_write(target, "new contents")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["game.toml"]


@pytest.mark.slow
@posix
def test_kill_9_during_saves_leaves_a_whole_file_and_the_next_save_cleans_up(
        tmp_path: Path) -> None:
    import random
    import signal
    import time

    target = tmp_path / "game.toml"
    # the writer saves until it is killed, or until the test is gone (its parent changes: a
    # test run killed midway must not leave it writing)
    writer = ("import os, sys\nfrom tabletop.files import atomic_write\n"
              f"target = {str(target)!r}\n"
              f"parent = {os.getpid()}\n"
              "i = 0\n"
              "while os.getppid() == parent:\n"
              "    atomic_write(target, (b'AB'[i % 2:i % 2 + 1]) * 2_000_000)\n"
              "    i += 1\n")
    rng = random.Random(15)
    for _ in range(8):
        proc = subprocess.Popen([sys.executable, "-c", writer])
        time.sleep(0.15 + rng.random() * 0.3)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        if target.exists():
            data = target.read_bytes()
            assert len(data) == 2_000_000 and data.count(data[:1]) == len(data)  # whole
    atomic_write(target, "done")
    assert [p.name for p in tmp_path.iterdir()] == ["game.toml"]


def _nesting(value: object) -> int:
    """How deep arrays and objects nest in ``value``, by a walk of the value (the reference
    for :func:`tabletop.files.nested_deeper`, which reads the text)."""
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        elif not isinstance(item, list):
            continue
        deepest = max(deepest, level)
        stack.extend((v, level + 1) for v in item)
    return deepest


_TEXTS = st.text(alphabet=st.sampled_from('[]{}"\\ab\u00e9\u20ac\U0001f600\n\ud800'),
                 max_size=12)
_JSON = st.recursive(st.none() | st.integers() | st.floats(allow_nan=False) | _TEXTS,
                     lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(_TEXTS, inner, max_size=4), max_leaves=40)


@settings(max_examples=400, deadline=None)
@given(value=_JSON, ensure_ascii=st.booleans(), indent=st.sampled_from([None, 0, 2]))
def test_the_nesting_read_from_the_text_is_the_values(value: object, ensure_ascii: bool,
                                                       indent: int | None) -> None:
    """Brackets, quotes and backslashes inside strings (escaped or not, keys too) count for
    nothing; every depth around the value's is told apart."""
    text = json.dumps(value, ensure_ascii=ensure_ascii, indent=indent)
    depth = _nesting(value)
    assert not nested_deeper(text, depth)
    assert depth == 0 or nested_deeper(text, depth - 1)


def test_the_nesting_of_a_text_longer_than_a_chunk(monkeypatch: pytest.MonkeyPatch) -> None:
    """The running count carries over from one chunk of the text to the next: the quotes'
    too (a string that begins in one chunk and ends in the next)."""
    monkeypatch.setattr(tabletop.files, "_CHUNK", 3)
    value = [[["]]]]", "[[["], {"k": [[[]]]}], "]"]
    text = json.dumps(value)
    assert _nesting(value) == 6
    assert not nested_deeper(text, 6) and nested_deeper(text, 5)
    assert not nested_deeper(json.dumps(["x" + "[" * 10, {"k": "{" * 10}]), 2)


def test_a_parse_pauses_the_collector_and_leaves_it_as_it_was() -> None:
    was = gc.isenabled()
    try:
        for on in (True, False):
            (gc.enable if on else gc.disable)()
            with collector_paused():
                assert not gc.isenabled()
            assert gc.isenabled() == on
            with pytest.raises(ValueError), collector_paused():
                json.loads("[1,")
            assert gc.isenabled() == on
    finally:
        (gc.enable if was else gc.disable)()
