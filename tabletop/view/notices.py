"""What the window tells the player in words: alerts that stay until dismissed, and the status
line, wrapped rather than cut.

An *alert* is a problem the player must not miss (a write that failed, a save changed by another
program, :class:`~tabletop.view.keeping.Keeper`): drawn across the top of the board, each in its
own box, until a click on it dismisses it. The status line holds two lines; a longer message ends
with a pointer to the panel's Messages tab, which keeps every message of the session in full.
"""

from __future__ import annotations

import pygame

from tabletop.view import render

__all__ = ["ALERT_BG", "STATUS_LINES", "draw_alerts", "draw_help", "draw_status", "status_lines"]

ALERT_BG = (120, 28, 28, 238)
ALERT_EDGE = (255, 140, 140)
SHOWN_ALERTS = 3
"""Alerts drawn at once (the oldest first); the others are counted on the last one."""

STATUS_LINES = 2
"""Lines of the status line; a longer message goes on in the Messages tab."""

MORE = "  [the rest: Messages tab]"

ACCENT = (255, 226, 110)


def draw_alerts(surface: pygame.Surface, alerts: list[str], area: pygame.Rect
                ) -> list[tuple[pygame.Rect, int]]:
    """Draw the alerts across the top of ``area``; each box's rect with its alert's index (a
    click there dismisses it)."""
    out: list[tuple[pygame.Rect, int]] = []
    y = area.y + 8
    width = min(area.w - 24, 760)
    for i, text in enumerate(alerts[:SHOWN_ALERTS]):
        more = len(alerts) - SHOWN_ALERTS
        tail = f" ({more} more after this one)" if i == SHOWN_ALERTS - 1 and more > 0 else ""
        lines = render.wrap_text("⚠ " + text + tail, width - 24, size=13)
        h = 10 + 18 * len(lines) + 18
        box = pygame.Rect(area.centerx - width // 2, y, width, h)
        back = pygame.Surface(box.size, pygame.SRCALPHA)
        back.fill(ALERT_BG)
        surface.blit(back, box.topleft)
        pygame.draw.rect(surface, ALERT_EDGE, box, 1, border_radius=4)
        for k, line in enumerate(lines):
            render.text(surface, line, (box.x + 12, box.y + 6 + 18 * k), size=13,
                        colour=(255, 240, 240))
        render.text(surface, "click to dismiss", (box.right - 10, box.bottom - 4), size=11,
                    colour=(255, 190, 190), anchor="bottomright")
        out.append((box, i))
        y = box.bottom + 6
    return out


def status_lines(message: str, width: int, *, size: int = 13) -> list[str]:
    """``message`` in at most :data:`STATUS_LINES` lines of ``width`` pixels, the last one
    saying where the rest is when it does not fit."""
    lines = render.wrap_text(message, width, size=size)
    if len(lines) <= STATUS_LINES:
        return lines
    last = render.fit_text(" ".join(lines[STATUS_LINES - 1:]),
                           width - render.font(size).size(MORE)[0], size=size)
    return [*lines[:STATUS_LINES - 1], last + MORE]


def draw_status(surface: pygame.Surface, rect: pygame.Rect, message: str, colour: render.Colour,
                tools: list[str]) -> None:
    """The status line: ``message`` wrapped on the left, the tools switched on at the right."""
    pygame.draw.rect(surface, (22, 22, 26), rect)
    tools_w = render.font(13).size("  ".join(tools))[0] + 16 if tools else 0
    for k, line in enumerate(status_lines(message, rect.w - 16 - tools_w)):
        render.text(surface, line, (8, rect.y + 4 + 17 * k), size=13, colour=colour)
    if tools:
        render.text(surface, "  ".join(tools), (rect.right - 8, rect.y + 4), size=13,
                    colour=ACCENT, anchor="topright")


def draw_help(surface: pygame.Surface, rows: list[tuple[str, str]], area: pygame.Rect) -> None:
    """The key list (``(keys, what)``, a row without keys a heading) over ``area``: keys in a
    column of their own, the words wrapped, in two columns of rows when one is too tall."""
    kf = render.font(13, bold=True)
    key_w = max(kf.size(k)[0] for k, _ in rows if k) + 14
    ncol = 1
    while True:
        col_w = min((area.w - 40) // ncol, 620)
        text_w = col_w - key_w - 20
        laid = [(k, render.wrap_text(t, text_w if k else col_w - 20, size=13,
                                     bold=not k)) for k, t in rows]
        heights = [18 * len(lines) + (8 if not k else 2) for k, lines in laid]
        per = -(-len(rows) // ncol)
        tallest = max(sum(heights[c * per:(c + 1) * per]) for c in range(ncol))
        if tallest + 30 <= area.h or ncol == 2:
            break
        ncol = 2
    w, h = col_w * ncol + 20, min(tallest + 30, area.h)
    box = pygame.Surface((w, h), pygame.SRCALPHA)
    box.fill((10, 10, 14, 238))
    x0, y0 = area.centerx - w // 2, area.centery - h // 2
    surface.blit(box, (x0, y0))
    for c in range(ncol):
        y = y0 + 14
        x = x0 + 10 + c * col_w
        for (k, lines), hh in list(zip(laid, heights, strict=True))[c * per:(c + 1) * per]:
            if not k:
                y += 6
                for i, line in enumerate(lines):
                    render.text(surface, line, (x + 4, y + 18 * i), size=13, bold=True,
                                colour=ACCENT)
            else:
                render.text(surface, k, (x + 4, y), size=13, bold=True)
                for i, line in enumerate(lines):
                    render.text(surface, line, (x + key_w, y + 18 * i), size=13)
            y += hh - (6 if not k else 0)
