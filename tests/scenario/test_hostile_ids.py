"""Ids from a file cannot make a message lie (issue #15): an id holding a line break and a forged
``FILE: ok``, a terminal escape code, or 20,000 characters reaches every command that names it
(``apply`` reasons and event texts, ``show --to`` and ``path`` refusals, ``check`` warnings,
``fit`` lines) quoted and escaped, in a line of bounded length; plain ids stay bare."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tabletop.cli import main
from tabletop.errors import ident, idents

from support.action_files import squad, wh40k

A, E, L = "a\nFILE: ok", "\x1b[31mred", "\x1b[2J" + "x" * 20_000
UNIT, BLUE, WALL = "u\r\nFILE: ok", "b\nFILE: ok", "t\nFILE: ok"
BOUND = 1_000
"""No message or printed line here is longer: a quoted id takes at most 106 characters (80 of
its own, escapes included, its quotes and its length), and the longest line here, a coherency
warning, names seven ids."""


def _scenario(tmp_path: Path, *, far: bool = False) -> str:
    red = squad("r", "red", [(10.0, 10.0), (11.5, 10.0), (30.0 if far else 13.0, 10.0)])
    red["id"] = UNIT
    for model, mid in zip(red["models"], (A, E, L), strict=True):
        model["id"] = mid
    blue = squad("b", "blue", [(10.0, 30.0)])
    blue["id"] = BLUE
    wall = {"id": WALL, "kind": "impassable", "height": 5.0,
            "polygon": [[8.0, 13.0], [14.0, 13.0], [14.0, 14.0], [8.0, 14.0]]}
    path = tmp_path / ("far.json" if far else "s.json")
    pillar = {"id": "pillar", "kind": "impassable", "height": 5.0,
              "polygon": [[15.0, 13.0], [16.0, 13.0], [16.0, 14.0], [15.0, 14.0]]}
    path.write_text(json.dumps(wh40k([red, blue], terrain=[wall, pillar])), encoding="utf-8")
    return str(path)


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    for line in (out.out + out.err).splitlines():
        assert line != "FILE: ok" and not line.startswith("FILE: ok")
        assert line.isprintable(), line[:100]  # no escape code, no carriage return
    return code, out.out, out.err


def _texts(node: Any) -> list[str]:
    """Every message, reason and event text in a JSON answer (ids as data left out)."""
    if isinstance(node, list):
        return [t for item in node for t in _texts(item)]
    if not isinstance(node, dict):
        return []
    out = [v for k, v in node.items() if k in ("message", "reason") and isinstance(v, str)]
    out += [r for r in node.get("reasons", []) if isinstance(r, str)]
    return out + [t for v in node.values() for t in _texts(v)]


def _check_texts(texts: list[str]) -> None:
    assert texts
    for text in texts:
        assert text.isprintable() and len(text) <= BOUND, text[:200]
        assert "\nFILE" not in text and L not in text


def test_plain_ids_stay_bare_and_others_are_quoted() -> None:
    assert ident("sq1") == "sq1" and ident("barricade-west.2:a_b") == "barricade-west.2:a_b"
    assert ident(A) == '"a\\nFILE: ok"' and ident("sq 1") == '"sq 1"' and ident("") == '""'
    assert len(ident(L)) < 110 and ident(L).endswith('"… (20,004 characters)')
    assert ident("x" * 80) == "x" * 80 and ident("x" * 81).startswith('"')
    assert idents([A, "b"]) == '"a\\nFILE: ok", b'
    assert idents(f"m{i}" for i in range(10_000)).endswith("m9 and 9,990 more")


def test_apply_reasons_and_events(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    actions = tmp_path / "a.json"
    actions.write_text(json.dumps([
        {"do": "select", "unit": BLUE, "move": "normal"},  # not the active player's
        {"do": "select", "unit": UNIT, "move": "normal"},
        {"do": "move", "model": A, "path": [[10.0, 16.0]]},  # through the wall
        {"do": "move", "model": A, "path": [[13.0, 10.5]]},  # onto L: refused at the commit
        {"do": "next"},
        {"do": "commit"},
    ]), encoding="utf-8")
    code, out, err = _run(["apply", _scenario(tmp_path), str(actions)], capsys)
    assert code == 0
    # the judge's summary on stderr: ids quoted and escaped there too
    assert err.startswith("tabletop apply: 6 actions: 2 applied, 4 refused")
    assert '(select "b\\nFILE: ok" (normal)) refused:' in err
    assert "\x1b" not in err and "\r" not in err
    results = json.loads(out)["results"]
    assert [r["ok"] for r in results] == [False, True, False, True, False, False]
    _check_texts(_texts(results))
    assert results[0]["reasons"] == ['"b\\nFILE: ok" cannot make a normal move: "b\\nFILE: ok" '
                                     "belongs to blue, not to the active player red"]
    assert results[2]["reasons"] == ['"a\\nFILE: ok" would cross terrain "t\\nFILE: ok" '
                                     "(impassable) on line 1 of the path"]
    assert results[4]["reasons"][0].startswith('"u\\r\\nFILE: ok" is moving')
    assert results[5]["reasons"][0].startswith(
        '"u\\r\\nFILE: ok" cannot end its normal move: "a\\nFILE: ok" overlaps "\\x1b[2Jxxx')
    # ids as data (the JSON's "unit", "model" and "models") are the file's own, JSON-escaped
    assert results[5]["violations"][0]["models"] == [A, L]
    assert "\x1b" not in out and "\r" not in out


def test_show_to_and_path_refusals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sc = _scenario(tmp_path)
    code, out, err = _run(["show", sc, "-o", str(tmp_path / "x.png"), "--zone", A,
                           "--to", "13,10.2"], capsys)
    assert (code, out) == (2, "") and err.count("\n") == 1 and len(err) <= BOUND
    assert err.startswith('--to 13,10.2 is not a legal end of the move: the base of '
                          '"a\\nFILE: ok" would overlap model "\\x1b[2Jxxx')
    assert not (tmp_path / "x.png").exists()
    code, out, err = _run(["path", sc, "--model", A, "--move", "normal", "--to", "13,10.2"],
                          capsys)
    assert (code, err) == (0, "") and out.count("\n") == 1
    answer = json.loads(out)
    assert answer["legal"] is False
    _check_texts(_texts(answer))
    for to, says in (("10,13.5", 'would overlap impassable terrain "t\\nFILE: ok"'),
                     ("10,16", 'the straight line is blocked by "t\\nFILE: ok", and the way')):
        code, out, err = _run(["path", sc, "--model", A, "--move", "normal", "--to", to],
                              capsys)
        assert code == 0 and any(says in t for t in _texts(json.loads(out))), out[:300]


def test_check_warnings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sc = _scenario(tmp_path, far=True)
    code, out, err = _run(["check", sc], capsys)
    assert code == 0 and out == f"{sc}: ok\n"
    lines = err.splitlines()
    assert len(lines) == 1 and len(lines[0]) <= BOUND
    assert lines[0].startswith(f'{sc}: warning: units[0]: "u\\r\\nFILE: ok" is out of '
                               'coherency: "a\\nFILE: ok" and "\\x1b[2Jxxx')


def test_fit_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(["fit", _scenario(tmp_path), "--base", A], capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith(f'{tmp_path / "s.json"}: base 32mm of "a\\nFILE: ok" '
                               '("u\\r\\nFILE: ok"): ')
    assert any(' "t\\nFILE: ok" - pillar at ' in line for line in lines[1:])
    assert all(len(line) <= BOUND for line in lines)


def test_file_names_and_option_values_are_printed_escaped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sc = _scenario(tmp_path)
    out_png = tmp_path / "b\nFILE: ok.png"
    code, out, _ = _run(["show", sc, "-o", str(out_png)], capsys)
    assert code == 0 and out.count("\n") == 1 and "\\nFILE: ok.png" in out
    with pytest.raises(SystemExit) as exc:  # argparse's own error lines, through printable too
        main(["check", sc, "--x", "\nFILE: ok\x1b[2J"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "FILE: ok" not in err.splitlines()
    assert err.splitlines()[-1] == "tabletop: error: unrecognized arguments: --x \\nFILE: " \
                                   "ok\\x1b[2J"
    with pytest.raises(SystemExit):
        main(["path", sc, "--model", A, "--move", "normal", "--to", "1\n\x1b,2"])
    err = capsys.readouterr().err
    assert '"1\\n\\x1b,2" is not a point' in err.splitlines()[-1]
