"""Small army lists in every format ``wh40kdc`` reads, for the roster tests.

The text formats are written here as the list builders export them (a few units each: a
Captain, a Lieutenant attached to Intercessors, Intercessors, Outriders on ovals, a Rhino on a
hull, a Redemptor Dreadnought); the JSON formats of NewRecruit, Rosterizer and the 40kdc roster
are made from the GW app's list by ``wh40kdc``'s own exporters (byte-identical to the list
builders' ones, it says), and the ListForge share link is a small BattleScribe roster tree,
gzipped and base64-encoded as ListForge does. :data:`BATTLESCRIBE_ROS` is a roster as
BattleScribe saves it (its XML, with the ids, profiles and rules it writes), and
:func:`battlescribe_rosz` the same zipped, as a ``.rosz``."""

from __future__ import annotations

import base64
import gzip
import io
import json
import zipfile

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


def _bs_cost(points: float) -> str:
    return (f'<costs><cost name="pts" typeId="51b2-306e-1021-d207" value="{points:.1f}"/>'
            '<cost name="Crusade: Power" typeId="e356-c769-5920-6e14" value="0.0"/></costs>')


def _bs_cats(*names: str) -> str:
    cats = "".join(f'<category id="c{i}" name="{n}" entryId="e{i}" '
                   f'primary="{str(i == 0).lower()}"/>' for i, n in enumerate(names))
    return f"<categories>{cats}</categories>"


def _bs_weapon(name: str, number: int, kind: str = "Ranged Weapons") -> str:
    return (f'<selection id="w-{name}" name="{name}" entryId="w" number="{number}" '
            f'type="upgrade"><profiles><profile id="p" name="{name}" hidden="false" '
            f'typeId="f77d-b953-8fa4-b762" typeName="{kind}"><characteristics>'
            '<characteristic name="Range" typeId="914c-b413-91e3-a132">24&quot;</characteristic>'
            '<characteristic name="A" typeId="2337-daa1-6682-b110">2</characteristic>'
            '</characteristics></profile></profiles>'
            f'{_bs_cost(0)}{_bs_cats(kind[:-1])}</selection>')


def _bs_model(name: str, number: int, weapons: str, *, points: float | None = None,
              kind: str = "model", categories: str = "") -> str:
    return (f'<selection id="m-{name}" name="{name}" entryId="m" number="{number}" '
            f'type="{kind}"><rules><rule id="r" name="Oath of Moment" hidden="false">'
            '<description>Rules text.</description></rule></rules>'
            f'<selections>{weapons}</selections>'
            f'{_bs_cost(points or 0)}{categories}</selection>')


_FACTION = ("Faction: Adeptus Astartes", "Faction: Ultramarines")
BATTLESCRIBE_ROS = f"""\
<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<roster id="1f2e-3d4c" name="Strike Test" battleScribeVersion="2.03" \
gameSystemId="sys-352e-adc2-7639-d6a9" gameSystemName="Warhammer 40,000 10th Edition" \
gameSystemRevision="3" xmlns="http://www.battlescribe.net/schema/rosterSchema">
  {_bs_cost(445)}
  <costLimits><costLimit name="pts" typeId="51b2-306e-1021-d207" value="2000.0"/></costLimits>
  <forces>
    <force id="f1" name="Army Roster" entryId="fe1" catalogueId="cat-sm" catalogueRevision="7" \
catalogueName="Imperium - Adeptus Astartes - Ultramarines">
      <selections>
        <selection id="s1" name="Battle Size" entryId="b" number="1" type="upgrade">
          <selections><selection id="s2" name="2. Strike Force (2000 Point limit)" entryId="b2" \
number="1" type="upgrade">{_bs_cost(0)}</selection></selections>
          {_bs_cost(0)}{_bs_cats("Configuration")}
        </selection>
        <selection id="s3" name="Detachment" entryId="d" number="1" type="upgrade">
          <selections><selection id="s4" name="Gladius Task Force" entryId="d2" number="1" \
type="upgrade">{_bs_cost(0)}</selection></selections>
          {_bs_cost(0)}{_bs_cats("Configuration")}
        </selection>
        {_bs_model("Captain", 1, _bs_weapon("Bolt pistol", 1) + _bs_weapon(
            "Master-crafted power weapon", 1, "Melee Weapons")
            + '<selection id="wl" name="Warlord" entryId="wl" number="1" type="upgrade">'
            + _bs_cost(0) + '</selection>', points=80,
            categories=_bs_cats("Character", "Infantry", *_FACTION))}
        <selection id="u1" name="Intercessor Squad" entryId="is" number="1" type="unit">
          <selections>
            {_bs_model("Intercessor Sergeant", 1, _bs_weapon("Bolt rifle", 1))}
            {_bs_model("Intercessor", 4, _bs_weapon("Bolt rifle", 4))}
          </selections>
          {_bs_cost(80)}{_bs_cats("Battleline", "Infantry", *_FACTION)}
        </selection>
        {_bs_model("Redemptor Dreadnought", 1, _bs_weapon("Macro plasma incinerator", 1),
                   points=210, categories=_bs_cats("Vehicle", "Walker", *_FACTION))}
        {_bs_model("Rhino", 1, _bs_weapon("Storm bolter", 1), points=75,
                   categories=_bs_cats("Dedicated Transport", "Vehicle", *_FACTION))}
      </selections>
      {_bs_cats("Configuration", "Character", "Battleline", "Vehicle")}
    </force>
  </forces>
</roster>
"""
"""A roster as BattleScribe saves it (``.ros``): a Captain, Intercessors (a Sergeant and 4),
a Redemptor Dreadnought and a Rhino, 445 points."""


def battlescribe_rosz(xml: str = BATTLESCRIBE_ROS, member: str = "Strike Test.ros") -> bytes:
    """``xml`` zipped as BattleScribe's ``.rosz``."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(member, xml)
    return buf.getvalue()


_KNIGHTS = ("Knight Paladin", "Knight Errant", "Knight Warden", "Knight Crusader",
            "Knight Gallant", "Knight Preceptor", "Knight Castellan", "Knight Valiant",
            "Knight Defender", "Cerastus Knight Lancer", "Cerastus Knight Acheron",
            "Cerastus Knight Castigator", "Questoris Knight Magaera", "Questoris Knight Styrix")
KNIGHTS_14 = "Fourteen Knights (5390 Points)\n\nImperial Knights\nOnslaught (5000 Points)\n" \
    "Questor Forgepact\n\nOTHER DATASHEETS\n\n" + "".join(
        f"{name} (385 Points)\n  • 1x Meltagun\n\n" for name in _KNIGHTS)
"""The GW app's list of 14 Knights, each on the 170x109 mm oval: more than a Tipping Point zone
holds 1" apart."""
