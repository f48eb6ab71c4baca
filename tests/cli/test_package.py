"""The package is complete: a licence, a version, typed exports, and every command reading a
shipped scenario by name from any folder."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

import tabletop
from tabletop.cli import main

from support.paths import REPO

REPO = REPO


def test_licence_and_metadata() -> None:
    assert (REPO / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    meta = metadata.metadata(tabletop.DISTRIBUTION)
    assert meta["Version"] == tabletop.__version__
    assert meta["License-Expression"] == "MIT"
    assert "Typing :: Typed" in meta.get_all("Classifier")
    assert meta.get_all("Project-URL")


def test_one_distribution_name_everywhere() -> None:
    """The package installs as ``tabletop-zones`` (``tabletop`` on the package index is another
    project's): the project file, the CI's wheel and every install command shown to users say
    so; the import name stays ``tabletop``."""
    import re
    import tomllib

    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["name"] == tabletop.DISTRIBUTION == "tabletop-zones"
    wheel = tabletop.DISTRIBUTION.replace("-", "_")
    assert f"dist/{wheel}-*.whl" in (REPO / ".ci" / "run").read_text(encoding="utf-8")
    texts = [REPO / "README.md", REPO / "pyproject.toml",
             *(REPO / "docs").rglob("*.md"), *(REPO / "tabletop").rglob("*.py")]
    installs = [(path.name, m) for path in texts
                for m in re.findall(r"pip install [^\n`']*?([A-Za-z0-9_.-]+)\[",
                                    path.read_text(encoding="utf-8"))]
    assert installs and all(name in (".", tabletop.DISTRIBUTION) for _, name in installs), \
        installs
    assert [d.split("[")[0] for d in project["optional-dependencies"]["dev"]] == \
        [tabletop.DISTRIBUTION]


def test_version_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    from tabletop.geometry.engine import describe

    assert capsys.readouterr().out == f"tabletop {tabletop.__version__}\n{describe()}\n"


@pytest.mark.slow
def test_a_user_script_sees_the_signatures(tmp_path: Path) -> None:
    script = tmp_path / "user.py"
    script.write_text("import tabletop\nreveal_type(tabletop.legal_zone)\n"
                      "reveal_type(tabletop.load_scenario)\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary",
                          "--cache-dir", str(tmp_path / "cache"), str(script)],
                         capture_output=True, text=True, cwd=tmp_path)
    out = run.stdout
    assert "def (state: tabletop.state.GameState, model_id: str, move: str" in out, out
    assert "-> tabletop.zones.zone.Zone" in out and "-> tabletop.state.GameState" in out, out
    assert "Any" not in out, out


def test_every_command_reads_a_shipped_scenario_by_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)  # no demo.toml here
    (tmp_path / "actions.json").write_text(json.dumps([{"do": "next"}]), encoding="utf-8")
    for argv in (["check", "demo.toml"], ["show", "demo.toml", "-o", "board.png"],
                 ["zone", "fall-back.toml", "--model", "sq1", "--move", "fall-back"],
                 ["path", "fall-back.toml", "--model", "sq1", "--move", "fall-back",
                  "--to", "30,10"],
                 ["apply", "command-phase.toml", "actions.json", "-o", "after.toml"]):
        assert main(argv) == 0, (argv, capsys.readouterr().err)
    assert (tmp_path / "board.png").is_file() and (tmp_path / "after.toml").is_file()
    capsys.readouterr()
    assert main(["check", "demo.tom"]) == 2
    err = capsys.readouterr().err
    assert "demo.tom: cannot read the file: No such file or directory (shipped scenarios, " \
           "loaded by name: command-phase.toml, demo.toml" in err
