"""Base descriptions as other sources spell them, turned into scenario-format base strings.

Unit lists and data sets write bases as ``"40mm"``, ``"120 x 92mm"``, ``"60mm flying base"``,
``"Use model"`` or as a shape with two sizes. :func:`normalise_base` maps each spelling to the
format's ``"32mm"``, ``"oval 60x35mm"``, ``"rect 25x50mm"`` or ``"hull"``, or refuses it with a
:class:`~tabletop.geometry.footprints.BaseParseError` that says what to write instead.
"""

from __future__ import annotations

import re

from tabletop.geometry.footprints import BASE_HELP, BaseParseError, parse_base

__all__ = ["normalise_base"]

_NUM = r"(\d+(?:\.\d+)?)"
_PAIR = re.compile(rf"^(?:(round|oval|rect)\s+)?{_NUM}\s*[x×]\s*{_NUM}\s*mm$", re.IGNORECASE)
_SINGLE = re.compile(rf"^(?:round\s+)?{_NUM}\s*mm$", re.IGNORECASE)
_HULL = 'write base = "hull" with a `hull` polygon (the model\'s outline in inches)'


def _n(text: str) -> str:
    v = float(text)
    return f"{v:g}" if v == float(f"{v:g}") else repr(v)


def normalise_base(text: str) -> str:
    """The scenario-format base string for a base description from a data set.

    Accepts the format's own strings unchanged (up to spacing and case), ``"N mm"`` (round),
    ``"A x Bmm"`` (an oval, A along the facing), ``"round|oval|rect AxBmm"`` (a round shape needs
    A = B) and ``"hull"``.

    Raises
    ------
    BaseParseError
        For descriptions that name no usable size (``"Use model"``, ``"unique"``, ``"flying
        base"``, empty), with a message saying what to write instead.

    Examples
    --------
    >>> normalise_base("120 x 92mm")
    'oval 120x92mm'
    >>> normalise_base("round 28.5x28.5mm")
    '28.5mm'
    """
    raw = text
    text = " ".join(text.strip().split())
    low = text.lower()
    if not text:
        raise BaseParseError(f"no base size given; {BASE_HELP}")
    if low == "hull":
        return "hull"
    if "flying" in low:
        raise BaseParseError(
            f'"{raw}": a flying base stands on a stem above the model\'s real footprint; '
            f'{_HULL}, or give the stand\'s size as a plain base, e.g. "oval 120x92mm" or "60mm"')
    if low in ("use model", "no official base size") or low.startswith("unique"):
        raise BaseParseError(f'"{raw}": this model has no standard base; {_HULL}, or write its '
                             'base size, e.g. "60mm" or "oval 60x35mm"')
    m = _SINGLE.match(text)
    if m:
        return f"{_n(m.group(1))}mm"
    m = _PAIR.match(text)
    if m:
        shape = (m.group(1) or "oval").lower()
        a, b = _n(m.group(2)), _n(m.group(3))
        if shape == "round":
            if float(a) != float(b):
                raise BaseParseError(f'"{raw}": a round base has one diameter; for two sizes '
                                     f'write "oval {a}x{b}mm"')
            return f"{a}mm"
        return f"{shape} {a}x{b}mm"
    # Anything else must already be a base string of the format.
    parse_base(text, hull=((0.0, 0.0), (1.0, 0.0), (0.0, 1.0)))
    return text
