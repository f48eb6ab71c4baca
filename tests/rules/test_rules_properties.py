"""Properties of committed moves (hypothesis): a committed normal, advance or fall-back move never
ends engaged, with overlapping bases, or with a path longer than the model's cap; a refused commit
leaves the state identical to before the unit was selected."""

from __future__ import annotations

import math
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.rulesets import apply_action
from tabletop.rulesets.wh40k_11e import checks, eligibility
from tabletop.rulesets.wh40k_11e.paths import move_cap

from support.rules_helpers import get, scenario, unit


@st.composite
def situations(draw: st.DrawFn):  # type: ignore[no-untyped-def]
    n = draw(st.integers(1, 4))
    jit = st.floats(-0.1, 0.1)
    red = [(20.0 + 1.5 * (i % 2) + draw(jit), 20.0 + 1.5 * (i // 2) + draw(jit))
           for i in range(n)]
    ex = draw(st.floats(22.0, 30.0))
    ey = draw(st.floats(16.0, 26.0))
    enemy = [(ex, ey)]
    if any(math.dist(p, (ex, ey)) < 1.3 for p in red):
        enemy = [(ex + 4.0, ey)]
    s = scenario([unit("a", "red", red), unit("e", "blue", enemy)],  # type: ignore[arg-type]
                 seed=draw(st.integers(0, 1000)))
    moves = [m for m, ok, _ in eligibility.eligible_moves(s, "a")
             if ok and m in ("normal", "advance", "fall-back")]
    move = draw(st.sampled_from(moves))
    select = {"do": "select", "unit": "a", "move": move}
    if move == "advance":
        select["dice"] = [draw(st.integers(1, 6))]
    if move == "fall-back":
        select["mode"] = draw(st.sampled_from(["ordered-retreat", "desperate-escape"]))
        select["dice"] = [6] * n  # no casualties: the property is about the move
    steps = []
    for i in range(n):
        for _ in range(draw(st.integers(0, 2))):
            ang = draw(st.floats(0, 2 * math.pi))
            r = draw(st.floats(0, 9))
            x, y = red[i]
            steps.append({"do": "move", "model": f"a{i + 1}",
                          "path": [[x + r * math.cos(ang), y + r * math.sin(ang)]]})
    return s, select, steps


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(situations())
def test_committed_moves_end_legal_and_refusals_restore(case) -> None:  # type: ignore[no-untyped-def]
    before, select, steps = case
    res = apply_action(before, select)
    assert res.ok, res.reasons
    s = res.state
    for a in steps:
        r = apply_action(s, a)
        s = r.state
    sel = s.battle.selection
    assert sel is not None
    done = apply_action(s, {"do": "commit"})
    if not done.ok:
        # the models go back; the dice stand (no casualties here: hazard dice are all 6)
        b = done.state.battle
        assert done.state == replace(before, battle=replace(before.battle, dice_used=b.dice_used,
                                                            rolls=b.rolls))
        assert done.reasons and done.violations
        return
    after = done.state
    u = get(after, "a")
    assert not checks.is_engaged(after, u)
    assert checks.overlap_violations(after, u) == []
    assert checks.coherency_violations(u) == []
    for m in u.models:
        start = next(at for mid, at, _ in sel.start if mid == m.id)
        pts = [start] + [tuple(p) for a in sel.staged if a["model"] == m.id for p in a["path"]]
        length = sum(math.dist(pts[i], pts[i + 1]) for i in range(len(pts) - 1))
        assert length <= move_cap(u, m, sel.move, sel.roll) + 1e-6
        assert m.at == (pts[-1] if len(pts) > 1 else start)
