"""Issue 28, the loaders: a FIFO or a device is refused at once (it hung the reader), a
5,000-digit number is one line naming the file and its line (it was a traceback), and the TOML
guard against long dotted keys no longer refuses valid files whose comments or strings hold a
rules number such as ``09.07.01.``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import tomli_w

from tabletop.cli import main
from tabletop.errors import UserError
from tabletop.scenario.io import load_scenario, loads_scenario

from support.action_files import squad, wh40k
from support.hostile_files import fifo, long_number, within
from support.paths import SHIPPED


def test_a_fifo_or_a_device_is_refused_not_waited_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with fifo(tmp_path / "board.toml") as pipe:
        with pytest.raises(UserError) as info:
            within(5, load_scenario, pipe)
        assert info.value.lines == [f"{pipe}: is a FIFO (named pipe), not a scenario file; give "
                                    "a regular file"]
        (tmp_path / "actions.json").symlink_to(pipe)  # through a link too
        code = within(5, main, ["apply", str(SHIPPED / "command-phase.toml"),
                                str(tmp_path / "actions.json")])
        err = capsys.readouterr().err
        assert code == 2 and err == (f"{tmp_path / 'actions.json'}: is a FIFO (named pipe), not "
                                     "an action file; give a regular file\n")
    with pytest.raises(UserError) as info:
        within(5, load_scenario, "/dev/zero")  # endless
    assert info.value.lines == ["/dev/zero: is a character device, not a scenario file; give a "
                                "regular file"]


def test_a_5000_digit_number_is_one_line_with_its_place(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    n = long_number()
    (tmp_path / "a.json").write_text(json.dumps(wh40k([]))[:-1] + f', "x": {n}}}')
    (tmp_path / "b.toml").write_text(f"format = 1\n\nname = {n}\n")
    (tmp_path / "acts.json").write_text(f'[{{"do": "next"}},\n {{"do": "next", "n": {n}}}]')
    for path, what, line in (("a.json", "a scenario file", 1), ("b.toml", "a scenario file", 3),
                             ("acts.json", "an action file", 2)):
        argv = ["check", str(tmp_path / path)] if what.startswith("a scen") else \
            ["apply", str(SHIPPED / "command-phase.toml"), str(tmp_path / path)]
        assert main(argv) == 2
        out = capsys.readouterr()
        assert out.err == (f"{tmp_path / path}: line {line}: a number of 5,000 digits; {what} "
                           "needs none over 1,000,000\n"), out.err


def test_comments_and_strings_are_not_dotted_keys(tmp_path: Path) -> None:
    doc = wh40k([squad("s", "red", [(10.0, 10.0), (11.5, 10.0)])])
    doc["name"] = "Fall back, seed 09.07.01.02"
    doc["description"] = "Rules 09.07.01.\nand 03.03.01.02 on a second line"
    text = "# after seed 09.07.01. of the rules\n" + tomli_w.dumps(doc, multiline_strings=True)
    text = text.replace('ruleset = "wh40k-11e"', 'ruleset = "wh40k-11e"  # per 09.07.01.01')
    assert "09.07.01." in text and '"""' in text
    state = loads_scenario(text, fmt="toml")
    assert state.description == doc["description"]
    literal = text.replace('name = "Fall back, seed 09.07.01.02"',
                           "name = 'Fall back, seed 09.07.01.02'")
    assert loads_scenario(literal, fmt="toml").name == doc["name"]
    # a key of many parts is refused where it is, after strings of many lines
    for bad, line in ((text + "a.b.c.d = 1\n", text.count("\n") + 1),
                      ('x = """\n1.2.3.4\n"""\n"a".b.c.d = 1\n', 4)):
        with pytest.raises(UserError) as info:
            loads_scenario(bad, fmt="toml", source="F")
        assert info.value.lines == [f"F: line {line}: a dotted key of more than 3 parts "
                                    "(a.b.c); a scenario file needs no more"]
