"""Small army lists in every format ``wh40kdc`` reads, for the roster tests.

The text formats are written here as the list builders export them (a few units each: a
Captain, a Lieutenant attached to Intercessors, Intercessors, Outriders on ovals, a Rhino on a
hull, a Redemptor Dreadnought); the JSON formats of NewRecruit, Rosterizer and the 40kdc roster
are made from the GW app's list by ``wh40kdc``'s own exporters (byte-identical to the list
builders' ones, it says), and the ListForge share link is a small BattleScribe roster tree,
gzipped and base64-encoded as ListForge does."""

from __future__ import annotations

import base64
import gzip
import json

GW_APP = """\
Strike Test (595 Points)

Space Marines
Ultramarines
Strike Force (2000 Points)
Gladius Task Force

CHARACTERS

Captain (80 Points)
  • Warlord
  • 1x Bolt pistol
  • 1x Master-crafted power weapon

BATTLELINE

Intercessor Squad (80 Points)
  • 1x Intercessor Sergeant
    ◦ 1x Bolt rifle
  • 4x Intercessor
    ◦ 4x Bolt rifle

OTHER DATASHEETS

Outrider Squad (100 Points)
  • 1x Outrider Sergeant
    ◦ 1x Twin bolt rifle
  • 2x Outrider
    ◦ 2x Twin bolt rifle

Redemptor Dreadnought (210 Points)
  • 1x Macro plasma incinerator

DEDICATED TRANSPORTS

Rhino (75 Points)
  • 1x Storm bolter
"""

GW_FRAMED = """\
+++++++++++++++++++++++++++++++++++++++++++++++
+ FACTION KEYWORD: Ultramarines
+ DETACHMENT: Gladius Task Force
+ TOTAL ARMY POINTS: 545pts
+++++++++++++++++++++++++++++++++++++++++++++++

CHARACTERS

Captain (80 pts)
  • Warlord
  • 1x Bolt pistol

BATTLELINE

Intercessor Squad (80 pts)
  • 1x Intercessor Sergeant
    • 1x Bolt rifle
  • 4x Intercessor
    • 4x Bolt rifle

OTHER DATASHEETS

Outrider Squad (100 pts)
  • 1x Outrider Sergeant
    • 1x Twin bolt rifle
  • 2x Outrider
    • 2x Twin bolt rifle

Rhino (75 pts)
  • 1x Storm bolter
"""
"""The GW app's export with its summary fence."""

GW_HEADERLESS = """\
Strike Test (370 Points)

## Characters
Captain (80 pts)
• Warlord
• Bolt pistol

## Battleline
Intercessor Squad (80 pts)
• 1x Intercessor Sergeant
  ◦ Bolt rifle
• 4x Intercessor
  ◦ 4x Bolt rifle

## Other datasheets
Redemptor Dreadnought (210 pts)
• Macro plasma incinerator
"""
"""A list without the summary fence (the GW app's exported list, NewRecruit's copied text,
markdown sections): ``wh40kdc`` calls it ``gw`` too."""

LISTFORGE_TEXT = """\
Strike Test - Ultramarines - Gladius Task Force (615 Points)

Character:
Captain (80 pts)
  • Warlord
  • Bolt pistol

Attached Units:
Lieutenant + Intercessor Squad (145 pts)
  Lieutenant (65 pts)
    • Bolt pistol
  Intercessor Squad (80 pts)
    • Intercessor Sergeant
      • Bolt rifle
    • 4x Intercessor
      • 4x Bolt rifle

Other:
Outrider Squad (100 pts)
  • Outrider Sergeant
  • 2x Outrider
Rhino (75 pts)
  • Storm bolter
"""

NEWRECRUIT_SIMPLE = """\
Ultramarines - Strike Test - [545 pts]

# ++ Army Roster ++ [545 pts]
## Configuration
List Name: Strike Test
Faction: Ultramarines
Battle Size: Strike Force (2000 Point limit)
Detachment: Gladius Task Force

## Battleline [545 pts]
Captain [80 pts]: Warlord, Bolt pistol, Master-crafted power weapon
Intercessor Squad [80 pts]:
• 1x Intercessor Sergeant: Bolt rifle
• 4x Intercessor: Bolt rifle
Outrider Squad [100 pts]:
• 1x Outrider Sergeant: Twin bolt rifle
• 2x Outrider: Twin bolt rifle
Redemptor Dreadnought [210 pts]: Macro plasma incinerator
Rhino [75 pts]: Storm bolter
"""

NEWRECRUIT_SIMPLE_NO_MODEL_LINES = """\
Ultramarines - Strike Test - [535 pts]

# ++ Army Roster ++ [535 pts]
## Configuration
List Name: Strike Test
Faction: Ultramarines
Battle Size: Strike Force (2000 Point limit)
Detachment: Gladius Task Force

## Battleline [535 pts]
Captain [80 pts]: Warlord, Bolt pistol
Intercessor Squad [150 pts]: Bolt rifle
Hellblaster Squad [230 pts]: Plasma incinerator
Rhino [75 pts]: Storm bolter
"""
"""NewRecruit's simple text without model lines: every unit reads as one model."""

NEWRECRUIT_WTC_COMPACT = """\
+++++++++++++++++++++++++++++++++++++++++++++++
+ LIST NAME: Strike Test
+ FACTION KEYWORD: Ultramarines
+ DETACHMENT: Gladius Task Force
+ TOTAL ARMY POINTS: 545pts
+ POINTS LIMIT: 2000pts
+
+ WARLORD: Char1: Captain
+ ENHANCEMENT: —
+ NUMBER OF UNITS: 5
+++++++++++++++++++++++++++++++++++++++++++++++

Char1: 1x Captain (80 pts): Bolt pistol, Master-crafted power weapon, Warlord
5x Intercessor Squad (80 pts):
• 1x Intercessor Sergeant: Bolt rifle
• 4x Intercessor: Bolt rifle
3x Outrider Squad (100 pts):
• 1x Outrider Sergeant: Twin bolt rifle
• 2x Outrider: Twin bolt rifle
1x Redemptor Dreadnought (210 pts): Macro plasma incinerator
1x Rhino (75 pts): Storm bolter
"""

NEWRECRUIT_WTC_FULL = """\
+++++++++++++++++++++++++++++++++++++++++++++++
+ LIST NAME: Strike Test
+ FACTION KEYWORD: Ultramarines
+ DETACHMENT: Gladius Task Force
+ TOTAL ARMY POINTS: 545pts
+ POINTS LIMIT: 2000pts
+
+ WARLORD: Char1: Captain
+ ENHANCEMENT: —
+ NUMBER OF UNITS: 5
+++++++++++++++++++++++++++++++++++++++++++++++

CHARACTER

Char1: 1x Captain (80 pts)
1 with Bolt pistol, Master-crafted power weapon, Warlord

BATTLELINE

5x Intercessor Squad (80 pts)
• 1x Intercessor Sergeant: Bolt rifle
• 4x Intercessor: Bolt rifle

OTHER DATASHEETS

3x Outrider Squad (100 pts)
• 1x Outrider Sergeant: Twin bolt rifle
• 2x Outrider: Twin bolt rifle

1x Redemptor Dreadnought (210 pts)
1 with Macro plasma incinerator

1x Rhino (75 pts)
1 with Storm bolter
"""


def _selection(name: str, kind: str, number: int, points: int | None = None,
               children: list[dict[str, object]] | None = None) -> dict[str, object]:
    sel: dict[str, object] = {"name": name, "type": kind, "number": number,
                              "categories": [{"name": "Faction: Ultramarines"}]}
    if points is not None:
        sel["costs"] = [{"name": "pts", "value": points}]
    if children:
        sel["selections"] = children
    return sel


def listforge_link() -> str:
    """A ListForge share link: a small BattleScribe roster, gzipped, base64, in the URL."""
    roster = {"name": "Strike Test", "generatedBy": "ListForge", "roster": {
        "name": "Strike Test", "forces": [{"name": "Army Roster", "selections": [
            _selection("Captain", "model", 1, 80),
            _selection("Intercessor Squad", "unit", 1, 80, [
                _selection("Intercessor Sergeant", "model", 1),
                _selection("Intercessor", "model", 4)]),
            _selection("Redemptor Dreadnought", "model", 1, 210),
            _selection("Rhino", "model", 1, 75),
        ]}]}}
    payload = base64.b64encode(gzip.compress(json.dumps(roster).encode())).decode()
    return f"https://listforge.club/#/listforge/{payload}"


def exported(fmt: str) -> str:
    """The GW app's list exported by ``wh40kdc`` as ``fmt`` (``newrecruit-json``,
    ``rosterizer``, ``roster-json``)."""
    import wh40kdc

    roster = wh40kdc.try_import_roster(GW_APP)["roster"]
    return str(wh40kdc.export_roster(roster, fmt))


TEXTS = {
    "gw": GW_FRAMED,
    "gw-app": GW_APP,
    "gw-headerless": GW_HEADERLESS,
    "listforge-text": LISTFORGE_TEXT,
    "newrecruit-simple": NEWRECRUIT_SIMPLE,
    "newrecruit-wtc-compact": NEWRECRUIT_WTC_COMPACT,
    "newrecruit-wtc-full": NEWRECRUIT_WTC_FULL,
}
"""The text formats (``gw-app`` and ``gw-headerless``: the GW app's list as its app exports it
and a markdown-sectioned one, both of ``wh40kdc``'s headerless ``gw`` dialects)."""
EXPORTED = ("newrecruit-json", "rosterizer", "roster-json")


def every_format() -> dict[str, str]:
    """One list per format ``wh40kdc`` reads, by its format id."""
    out = dict(TEXTS)
    out.update({fmt: exported(fmt) for fmt in EXPORTED})
    out["listforge"] = listforge_link()
    return out
