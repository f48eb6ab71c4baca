"""Printing the survey's pages with a headless Chromium: a card to PDF or PNG (#29).

A card is HTML; organisers publish PDFs and share pictures. Both come from a headless Chromium
(``chromium``, ``chromium-browser``, ``google-chrome`` or ``google-chrome-stable`` on the PATH,
or the program named by the environment variable :data:`ENV`), run on a copy of the page in a
private temporary folder with a private profile (so that two runs never share one), with no
network use and nothing kept. The result is written atomically
(:func:`tabletop.files.atomic_write`): a failure leaves the target as it was.

Without a browser the card can still be written as HTML and printed from any browser; the
message says so.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from tabletop.errors import UserError, printable
from tabletop.files import atomic_write

__all__ = ["ENV", "NAMES", "PAGE_PX", "find", "print_pdf", "screenshot"]

ENV = "TABLETOP_CHROMIUM"
"""The environment variable that names the browser to use."""
NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
TIMEOUT = 120.0
"""Seconds a print may take."""
PAGE_PX = {"a4": (794, 1123), "letter": (816, 1056)}
"""A sheet's size in CSS pixels (96 to the inch): the window of a screenshot."""
MISSING = ("printing a card to {what} needs Chromium, which was not found (looked for "
           + ", ".join(NAMES) + " and {env}); install it (Debian: apt-get install chromium), "
           "set {env} to the browser, or write the card as .html and print it from a browser")


def find() -> str | None:
    """The browser to print with, or ``None``."""
    named = os.environ.get(ENV)
    if named:
        return shutil.which(named) or (named if os.access(named, os.X_OK) else None)
    for name in NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def _run(html: str, target: Path, what: str, args: Callable[[Path], list[str]]) -> Path:
    """Run the browser on ``html`` with ``args(out)`` and write what it left at ``out``."""
    browser = find()
    if browser is None:
        raise UserError(MISSING.format(what=what, env=ENV))
    with tempfile.TemporaryDirectory(prefix="tabletop-print-") as tmp:
        page = Path(tmp) / "page.html"
        page.write_text(html, encoding="utf-8")
        out = Path(tmp) / f"out.{what.lower()}"
        cmd = [browser, "--headless", "--disable-gpu", "--no-first-run",
               "--disable-extensions", "--disable-background-networking",
               f"--user-data-dir={Path(tmp) / 'profile'}", *args(out)]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            cmd.append("--no-sandbox")  # Chromium refuses to run as root with its sandbox
        try:
            done = subprocess.run([*cmd, page.as_uri()], capture_output=True, text=True,
                                  timeout=TIMEOUT, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise UserError(f"{printable(browser)}: could not print the card to {what}: "
                            f"{printable(str(exc))[:200]}") from None
        if done.returncode != 0 or not out.is_file() or out.stat().st_size == 0:
            last = [ln for ln in (done.stderr or "").splitlines() if ln.strip()][-1:]
            raise UserError(f"{printable(browser)}: could not print the card to {what} (exit "
                            f"{done.returncode}{': ' + printable(last[0])[:200] if last else ''})")
        return atomic_write(target, out.read_bytes())


def print_pdf(html: str, target: str | os.PathLike[str]) -> Path:
    """Print ``html`` to the PDF ``target`` (the page's own ``@page`` size and margins)."""
    return _run(html, Path(target), "PDF",
                lambda out: ["--no-pdf-header-footer", f"--print-to-pdf={out}"])


def screenshot(html: str, target: str | os.PathLike[str], *, paper: str = "a4",
               scale: float = 2.0) -> Path:
    """A PNG of ``html`` in a window the size of a sheet of ``paper``, at ``scale`` device
    pixels to the CSS pixel (2: 1588 x 2246 for A4)."""
    w, h = PAGE_PX[paper]
    return _run(html, Path(target), "PNG",
                lambda out: ["--hide-scrollbars", f"--window-size={w},{h}",
                             f"--force-device-scale-factor={scale:g}", f"--screenshot={out}"])
