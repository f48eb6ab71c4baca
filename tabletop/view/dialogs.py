"""Modal dialogs of the window: a question with a few answers, or a line of text (Save As).

The dialog's logic is pure (:class:`Dialog` takes key names and text, answers with the chosen
option); :func:`draw_dialog` draws it. While a dialog is open the window sends it every key and
nothing else happens, so a quick second press of Space cannot skip a step behind its back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from tabletop.view import render

__all__ = ["Choice", "Dialog", "draw_dialog"]


@dataclass(frozen=True)
class Choice:
    """An answer: the key that picks it (pygame key name), its label and what it means."""

    key: str
    label: str
    value: str


@dataclass
class Dialog:
    """A question (``lines``) with ``choices``; with ``text`` not ``None``, a line to edit too.

    Enter picks the first choice, Esc the last (by convention: the first is the action, the
    last "cancel"). :meth:`key` returns the value chosen, or ``None`` while still open.
    """

    title: str
    lines: list[str]
    choices: list[Choice]
    text: str | None = None
    error: str = ""
    purpose: str = ""
    """What the app asked it for (``quit``, ``save-as``, ``next``...)."""
    data: dict[str, object] = field(default_factory=dict)

    def key(self, name: str, *, unicode: str = "", ctrl: bool = False) -> str | None:
        """A key pressed while the dialog is open."""
        name = name.lower()
        if name in ("return", "enter", "keypad enter"):
            return self.choices[0].value
        if name == "escape":
            return self.choices[-1].value
        if self.text is not None:
            if name == "backspace":
                self.text = self.text[:-1]
                self.error = ""
                return None
            if unicode and unicode.isprintable() and not ctrl:
                self.text += unicode
                self.error = ""
                return None
            return None
        for c in self.choices:
            if c.key and name == c.key.lower():
                return c.value
        return None

    def paste(self, s: str) -> None:
        """Text typed or pasted (SDL text input events)."""
        if self.text is not None:
            self.text += "".join(ch for ch in s if ch.isprintable())
            self.error = ""


def draw_dialog(surface: pygame.Surface, dialog: Dialog, area: pygame.Rect
                ) -> list[tuple[pygame.Rect, str]]:
    """Draw ``dialog`` centred in ``area``; the clickable rect of each choice with its value."""
    f = render.font(13)
    bold = render.font(13, bold=True)
    buttons = sum(bold.size(c.label)[0] + 34 for c in dialog.choices) + 22
    width = min(max(440, buttons, *(f.size(s)[0] + 40 for s in [dialog.title, *dialog.lines])),
                area.w - 40, 720)
    lines = [line for s in dialog.lines for line in render.wrap_text(s, width - 32, size=13)]
    h = 56 + 20 * len(lines) + (34 if dialog.text is not None else 0) + (
        20 if dialog.error else 0) + 44
    box = pygame.Rect(0, 0, width, h)
    box.center = area.center
    shade = pygame.Surface(area.size, pygame.SRCALPHA)
    shade.fill((0, 0, 0, 120))
    surface.blit(shade, area.topleft)
    pygame.draw.rect(surface, (34, 36, 42), box, border_radius=8)
    pygame.draw.rect(surface, (120, 126, 136), box, 1, border_radius=8)
    y = box.y + 14
    render.text(surface, dialog.title, (box.x + 16, y), size=15, bold=True)
    y += 30
    for s in lines:
        render.text(surface, s, (box.x + 16, y), size=13)
        y += 20
    if dialog.text is not None:
        field_rect = pygame.Rect(box.x + 16, y + 4, width - 32, 24)
        pygame.draw.rect(surface, (16, 16, 20), field_rect, border_radius=4)
        pygame.draw.rect(surface, (160, 166, 176), field_rect, 1, border_radius=4)
        shown = dialog.text
        fw = field_rect.w - 14
        while shown and f.size(shown + "|")[0] > fw:
            shown = shown[1:]
        render.text(surface, shown + "|", (field_rect.x + 6, field_rect.y + 4), size=13)
        y += 34
    if dialog.error:
        render.text(surface, render.fit_text(dialog.error, width - 32, size=12),
                    (box.x + 16, y), size=12, colour=(255, 110, 110))
        y += 20
    out = []
    x = box.right - 16
    for c in reversed(dialog.choices):
        label = c.label
        w = render.font(13, bold=True).size(label)[0] + 24
        r = pygame.Rect(x - w, box.bottom - 40, w, 28)
        pygame.draw.rect(surface, (62, 70, 84), r, border_radius=5)
        render.text(surface, label, r.center, size=13, bold=True, anchor="center")
        out.append((r, c.value))
        x = r.x - 10
    return out
