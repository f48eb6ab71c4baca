"""Build hook: the native zone core (``native/``, Rust + PyO3) built by maturin when cargo is here.

Where ``cargo`` is on PATH, a wheel (``pip install .``, ``pip wheel .``) or an editable install
(``pip install -e .``) builds the crate in ``native/`` with maturin and puts the extension module
``tabletop/native.<suffix>`` in the package (for an editable install, into the source tree, where
the editable package is imported from); the wheel is then tagged for this platform and Python.
Without cargo nothing is built: the wheel stays pure Python and tabletop runs on its Python zone
engine (``tabletop --version`` says which engine is in use). ``TABLETOP_BUILD_NATIVE=0`` skips the
build even where cargo is (a pure wheel); ``TABLETOP_BUILD_NATIVE=1`` makes a missing toolchain or a
failed build an error instead of the Python fallback.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

CRATE = "native"
"""The crate's folder, beside this file; its library (and the extension module) is ``native``."""
MATURIN = "maturin>=1.5,<2"


def _wanted() -> str:
    """``"auto"`` (build where cargo is), ``"0"`` (never) or ``"1"`` (always, or fail)."""
    value = os.environ.get("TABLETOP_BUILD_NATIVE", "auto").strip().lower()
    return {"0": "0", "no": "0", "false": "0", "1": "1", "yes": "1", "true": "1"}.get(value, "auto")


def _say(message: str) -> None:
    print(f"tabletop build: {message}", file=sys.stderr, flush=True)


class NativeCoreHook(BuildHookInterface):  # type: ignore[type-arg]
    """Builds ``native/`` into ``tabletop/native.<suffix>`` (see the module docstring)."""

    PLUGIN_NAME = "custom"

    def _buildable(self) -> bool:
        want = _wanted()
        if want == "0":
            return False
        if shutil.which("cargo") is None:
            if want == "1":
                raise RuntimeError("TABLETOP_BUILD_NATIVE=1 but cargo is not on PATH")
            return False
        return (Path(self.root) / CRATE / "Cargo.toml").is_file()

    def dependencies(self) -> list[str]:
        # maturin only where it will be used (a plain wheel from the package index)
        return [MATURIN] if self.target_name == "wheel" and self._buildable() else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        if not self._buildable():
            _say("no Rust toolchain (cargo) found: the Python zone engine only")
            return
        try:
            built = self._maturin()
        except (OSError, subprocess.CalledProcessError, RuntimeError) as exc:
            if _wanted() == "1":
                raise
            _say(f"the native core did not build ({exc}): the Python zone engine only")
            return
        target = Path(self.root) / "tabletop" / f"native{sysconfig.get_config_var('EXT_SUFFIX')}"
        if version == "editable":
            # the editable package is imported from the source tree: the module goes there,
            # by a rename (a process that has the old module loaded keeps it; overwriting the
            # file in place crashed such processes)
            part = target.with_name(f".{target.name}.{os.getpid()}.part")
            shutil.copyfile(built, part)
            os.replace(part, target)
        else:
            build_data["force_include"][str(built)] = f"tabletop/{target.name}"
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        _say(f"native core built ({target.name})")

    def _maturin(self) -> Path:
        """Build the crate's wheel with maturin and take its extension module out of it."""
        out = Path(tempfile.mkdtemp(prefix="tabletop-native-"))
        # the maturin of the build environment (pip puts its scripts on PATH; `python -m
        # maturin` looks only in the interpreter's own scripts and missed it there)
        exe = shutil.which("maturin")
        run = [exe] if exe else [sys.executable, "-m", "maturin"]
        cmd = [*run, "build", "--release", "--quiet",
               "--manifest-path", str(Path(self.root) / CRATE / "Cargo.toml"),
               "--features", "python", "--interpreter", sys.executable, "--out", str(out)]
        # from the crate's folder: its .cargo/config.toml (the target CPU) applies
        subprocess.run(cmd, check=True, stdout=sys.stderr, cwd=Path(self.root) / CRATE)
        wheels = sorted(out.glob("*.whl"))
        if not wheels:
            raise RuntimeError("maturin made no wheel")
        with zipfile.ZipFile(wheels[0]) as zf:
            names = [n for n in zf.namelist() if Path(n).name.startswith("native.")
                     and Path(n).suffix in (".so", ".pyd")]
            if not names:
                raise RuntimeError("maturin's wheel holds no native module")
            dest = out / Path(names[0]).name
            dest.write_bytes(zf.read(names[0]))
        return dest
