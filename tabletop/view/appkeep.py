"""Saving and stopping for :class:`tabletop.view.app.App`: save, save as, asking before replacing,
watching the save, quitting, the answers to its questions, the stop note and screenshots.

Each function takes the window and is bound as its method of the same name (without a
leading underscore here).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

from tabletop.errors import UserError
from tabletop.view import render, turn
from tabletop.view.dialogs import Choice, Dialog
from tabletop.view.keeping import beside

if TYPE_CHECKING:
    from tabletop.view.app import App


def save(app: App, path: Path | None = None, *, replace: bool = False) -> Path | None:
    """Write the game as a scenario file (atomically) at ``path`` or :attr:`save_path`;
    ``None`` when it was not written: it failed (the status line and an alert say why)
    or the file there is not one this window wrote (a dialog asks: replace it, save
    beside it, or cancel)."""
    out = app.keeper.save(path, replace=replace)
    app.dirty = True
    if out.kind == "ask":
        app._ask_replace(out.path)
        return None
    if out.kind == "failed":
        app.message = out.problem
        app._after_save = None
        return None
    log = f" (log: {app.log_path.name})" if app.log_path is not None else ""
    app.message = f"saved {out.path}{log}"
    app._caption()
    if app._after_save == "quit":
        app.running = False
    app._after_save = None
    return out.path


def ask_replace(app: App, path: Path) -> None:
    """Ctrl+S onto a file this window did not write: replace it, save beside it, cancel."""
    other = beside(path)
    app.dialog = Dialog("Replace a file this window did not write?",
                         [app.keeper.needs_asking(path) + ".",
                          f"Replacing it loses what it holds; saving beside it keeps both "
                          f"(this game goes on saving to {other.name})."],
                         [Choice("b", f"Save beside it as {other.name} [Enter]", "beside"),
                          Choice("r", "Replace it [R]", "replace"),
                          Choice("n", "Cancel [Esc]", "cancel")],
                         purpose="replace-save", data={"path": str(path),
                                                       "beside": str(other)})
    app.dirty = True


def watch_save(app: App) -> None:
    """Notice a save of this window changed by another process (another window's Ctrl+S):
    the game is then unsaved, and an alert says so until dismissed."""
    if app.keeper.watch():
        app._caption()
        app.dirty = True


def ask_save_as(app: App) -> None:
    """Ctrl+Shift+S: ask for a file name, then save there (and there on from then)."""
    app.dialog = Dialog("Save as", ["A scenario file name (.toml or .json):"],
                         [Choice("", "Save [Enter]", "save"),
                          Choice("", "Cancel [Esc]", "cancel")],
                         text=str(app.save_path), purpose="save-as")
    app.dirty = True


def save_as_answer(app: App, text: str, *, overwrite: bool = False) -> None:
    path = Path(os.path.expanduser(text.strip()))
    problem = ""
    if not text.strip():
        problem = "write a file name"
    elif path.suffix.lower() not in (".toml", ".json"):
        problem = f"{path.name}: the name must end in .toml or .json"
    elif not path.parent.is_dir():
        problem = f"no folder {path.parent}"
    elif path.is_dir():
        problem = f"{path} is a folder"
    if problem:
        app.dialog = Dialog("Save as", ["A scenario file name (.toml or .json):"],
                             [Choice("", "Save [Enter]", "save"),
                              Choice("", "Cancel [Esc]", "cancel")],
                             text=text, error=problem, purpose="save-as")
        return
    if os.path.lexists(path) and not overwrite and not app.keeper.files.ours(path):
        app.dialog = Dialog("Replace the file?", [
            app.keeper.needs_asking(path) or f"{path} exists."],
                             [Choice("y", "Replace [Enter]", "replace"),
                              Choice("n", "Cancel [Esc]", "cancel")],
                             purpose="overwrite", data={"path": str(path)})
        return
    app.dialog = None
    app.save(path, replace=True)


def quit(app: App) -> None:
    """Ctrl+Q or closing the window: ask first when the game has unsaved changes."""
    if not app.history.unsaved:
        app.running = False
        return
    app.dialog = Dialog("Quit with unsaved changes?",
                         [f"The game has changed since it was last saved to "
                          f"{app.save_path.name}."],
                         [Choice("s", "Save and quit [Enter]", "save"),
                          Choice("d", "Quit without saving [D]", "discard"),
                          Choice("n", "Keep playing [Esc]", "cancel")], purpose="quit")
    app.dirty = True


def answer(app: App, value: str) -> None:
    """The open dialog was answered with ``value``."""
    d = app.dialog
    assert d is not None
    app.dialog = None
    app._full = True
    app.dirty = True
    if d.purpose == "next" and value == "yes":
        confirmed = d.data.get("confirmed", frozenset())
        assert isinstance(confirmed, frozenset)
        app.next_step(confirmed=confirmed)
    elif d.purpose == "quit":
        if value == "save":
            app._after_save = "quit"
            app.save()  # quits once written (after asking, if it must ask)
        elif value == "discard":
            app.running = False
    elif d.purpose == "dice":
        if value == "roll":
            agreed = d.data.get("agree", ())
            assert isinstance(agreed, tuple)
            app.dice_agreed.update(agreed)
            then = d.data["then"]
            assert isinstance(then, tuple)
            if then[0] == "select":
                app.select(*then[1:])
            elif then[0] == "commit":
                app.commit()
            elif then[0] == "next":
                app.next_step(confirmed=then[1])
        else:
            app.message = "no dice rolled"
    elif d.purpose == "replace-save":
        if value in ("beside", "replace"):
            app.save(Path(str(d.data[value if value == "beside" else "path"])),
                      replace=True)
        else:
            app._after_save = None
            app.message = "not saved"
    elif d.purpose == "save-as" and value == "save":
        app._save_as_answer(d.text or "")
    elif d.purpose == "overwrite" and value == "replace":
        app._save_as_answer(str(d.data["path"]), overwrite=True)


def stop(app: App, signal_name: str) -> None:
    """Stop the loop at once (a signal: nobody is there to answer a dialog)."""
    app.stopped_by = signal_name
    app.running = False


def stop_note(app: App) -> str:
    """The line said when a signal stopped the window: where the session's actions are and
    how to replay them (the actions themselves when the log lacks some), or that nothing
    was left unsaved; and every write that failed (:meth:`Keeper.stop_note`)."""
    app.watch_save()
    head = f"tabletop play: stopped by {app.stopped_by or 'a signal'}"
    staged = (f"; the {len(app.group.placed)} model(s) placed for "
              f"{turn.unit_label(app.state, app.group.unit)}'s emergency disembark "
              "were not sent yet") if app.group is not None and app.group.placed else ""
    return app.keeper.stop_note(head, staged)


def screenshot(app: App, path: str | os.PathLike[str] | None = None) -> Path | None:
    """Save the window's current picture as a PNG (``None``, and the status line says why,
    when it cannot be written: a read-only or vanished folder, a full disk)."""
    target = Path(path) if path is not None else app.save_path.with_name(
        f"{app.save_path.stem}-screenshot-{time.strftime('%Y%m%d-%H%M%S')}.png")
    if app.dirty:
        app.draw()
    try:
        render.save_png(app.screen, target)
    except UserError as exc:
        app.message = f"could not save the screenshot: {exc}"
        app.keeper.failed("screenshot", app.message)
        app.dirty = True
        return None
    app.keeper.succeeded("screenshot")
    app.message = f"screenshot {target}"
    app.dirty = True
    return target
