"""One placement for every label on the board: off each other, off the moving unit's models,
inside the board; many of one kind collapse into a summary that expands on hover."""

from __future__ import annotations

from itertools import combinations

import pygame

from tabletop.geometry.passages import passages
from tabletop.scenario.io import load_scenario, shipped
from tabletop.view import passagepaint, render
from tabletop.view.labels import LabelItem, boxes_overlap, collapse
from tabletop.view.viewport import Viewport

from support.view_support import click, key, post

Box = tuple[float, float, float, float]


def inside(b: Box, r: Box) -> bool:
    return b[0] >= r[0] - 1e-6 and b[1] >= r[1] - 1e-6 and \
        b[0] + b[2] <= r[0] + r[2] + 1e-6 and b[1] + b[3] <= r[1] + r[3] + 1e-6


def apart(boxes: list[Box]) -> bool:
    return not any(boxes_overlap(a, b) for a, b in combinations(boxes, 2))


def test_unit_labels_of_the_demo_sit_on_no_model_and_no_other_label() -> None:
    st = load_scenario(shipped("demo.toml"))
    surf = pygame.Surface((1240, 920))
    vp = Viewport.fit(60, 44, (0, 0, 1240, 920), margin=20)
    board = pygame.Rect(*vp.to_px(0, 0), round(vp.length(60)), round(vp.length(44)))
    boxes = render.draw_models(surf, st, vp, label_bounds=board)
    assert len(boxes) == len(st.units) - 2  # not the units in reserves or embarked
    assert apart(boxes)
    assert all(inside(b, (board.x, board.y, board.w, board.h)) for b in boxes)
    models = render.model_boxes(st, vp)
    assert not [b for b in boxes for m in models if boxes_overlap(b, m)]


def test_a_fall_back_shows_one_summary_that_expands_on_hover(app_factory) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(load_scenario(shipped("fall-back.toml")))
    while app.state.battle.step != "move-units":
        key(app, pygame.K_SPACE)
    click(app, app.state.model("sq1")[1].at)  # type: ignore[arg-type]
    key(app, pygame.K_f)
    assert app.state.battle.selection is not None, app.message
    app.step()
    labels = app._mark_labels
    (rect, group), = labels.summaries
    texts = [t for t, _ in labels.placed]
    assert texts == ['6 pairs within 2": closest 1.43" (hover: all)']
    assert len(group.items) == 6
    vp = app.ctrl.viewport
    moving = render.model_boxes(app.state, vp, units=["squad"])
    board = app.board_rect()
    b = (board.x, board.y, board.w, board.h)
    for _, p in labels.placed:
        assert inside(p.box, b) and not any(boxes_overlap(p.box, m) for m in moving)
    # the pointer over it: every pair's label, placed apart and off the models to grab
    from tabletop.view.boardlabels import expanded

    post(app, pygame.MOUSEMOTION, pos=rect.center, rel=(0, 0), buttons=(0, 0, 0))
    assert app._hovered_summary == 0
    shown = expanded(group, b, [*moving, (rect.x, rect.y, rect.w, rect.h)])
    assert [t for t, _ in shown] == ['1.43" (must be over 2")'] * 6
    boxes = [p.box for _, p in shown]
    assert apart(boxes) and all(inside(x, b) for x in boxes)
    assert not [x for x in boxes for m in moving if boxes_overlap(x, m)]
    post(app, pygame.MOUSEMOTION, pos=(5, 5), rel=(0, 0), buttons=(0, 0, 0))
    assert app._hovered_summary is None


def test_collapse_keeps_few_and_sums_up_many() -> None:
    few = [LabelItem(f'{d:.2f}"', (0.0, 10.0 * i), "engaged", d, 2.0)
           for i, d in enumerate((1.5, 1.9, 1.2))]
    out, summaries = collapse(few)
    assert out == few and not summaries
    many = [LabelItem(f'{d:.2f}"', (0.0, 10.0 * i), "coherency-2", d, 2.0)
            for i, d in enumerate((2.5, 3.1, 2.2, 4.0))]
    out, summaries = collapse([*few, *many])
    assert out[:3] == few and len(out) == 4
    assert out[3].text == '4 pairs over 2": farthest 4.00" (hover: all)'
    assert out[3].anchor == many[3].anchor and summaries[0].items == tuple(many)


def test_fit_labels_are_apart_and_inside_the_board() -> None:
    from tabletop.rulesets.blockers import blocking_pieces

    st = load_scenario(shipped("demo.toml"))
    unit, lr = st.model("lr1")
    pieces, _ = blocking_pieces(st, unit.keywords)
    found = passages(60.0, 44.0, pieces, lr.base)
    vp = Viewport.fit(60, 44, (0, 28, 1240, 920), margin=20)
    placed = passagepaint.passage_labels(st, vp, found)
    assert len(placed) == len(found) >= 3
    boxes = [p.box for _, _, p in placed]
    (x0, y0), (x1, y1) = vp.to_px(0, 0), vp.to_px(60, 44)
    assert apart(boxes) and all(inside(b, (x0, y0, x1 - x0, y1 - y0)) for b in boxes)
    models = render.model_boxes(st, vp)
    assert not [b for b in boxes for m in models if boxes_overlap(b, m)]


def test_a_block_readout_stays_inside_the_board_and_off_its_handles(app_factory) -> None:  # type: ignore[no-untyped-def]
    from dataclasses import replace

    from tabletop.view.blockdrag import handle_points

    st = load_scenario(shipped("t9a-lines.toml"))
    knights = st.unit("knights")
    bf = st.battlefield
    app = app_factory(st)
    vp = app.ctrl.viewport
    board = app.board_rect()
    for at, facing in (((bf.width / 2, 1.2), 0.0), ((bf.width - 1.5, bf.depth / 2), 90.0),
                       ((bf.width / 2, bf.depth - 1.2), 180.0), ((1.5, 1.5), 315.0)):
        geom = replace(knights, at=at, facing=facing).geom
        p = app.block_label_place(vp, geom, 'forward 3.20" / 8"  (limit)')
        assert inside(p.box, (board.x, board.y, board.w, board.h)), (at, p.box, board)
        for hx, hy in (vp.to_px(*q) for q in handle_points(geom, vp.scale).values()):
            assert not boxes_overlap(p.box, (hx - 12, hy - 12, 24, 24)), (at, p.box)
        minx, miny, maxx, maxy = geom.polygon.bounds
        (x0, y0), (x1, y1) = vp.to_px(minx, miny), vp.to_px(maxx, maxy)
        assert not boxes_overlap(p.box, (x0, y0, x1 - x0, y1 - y0))
        app._block_label(vp, geom, 'forward 3.20" / 8"', False, bad=False)  # draws


def test_a_block_readout_keeps_off_the_enemy_it_moves_towards(app_factory) -> None:  # type: ignore[no-untyped-def]
    """The spearmen advancing on the warband: the readout above the ghost would sit on the
    warband; it goes elsewhere, off every block and unit label."""
    from dataclasses import replace

    st = load_scenario(shipped("t9a-lines.toml"))
    spear = st.unit("spearmen")
    app = app_factory(st)
    app.step()
    vp = app.ctrl.viewport
    geom = replace(spear, at=(spear.at[0], spear.at[1] - 3.6)).geom  # 1" short of the warband
    p = app.block_label_place(vp, geom, 'forward 3.60" / 4"')
    board = app.board_rect()
    assert inside(p.box, (board.x, board.y, board.w, board.h))
    for b in render.model_boxes(app.state, vp) + app._unit_labels:
        assert not boxes_overlap(p.box, b), (p.box, b)


def test_no_unit_label_on_the_selected_blocks_handles(app_factory) -> None:  # type: ignore[no-untyped-def]
    """A block's label sits above its front edge, where the corner handles are: once the block is
    selected the label goes elsewhere, the handles stay free to grab."""
    st = load_scenario(shipped("t9a-lines.toml"))
    app = app_factory(st)
    while app.state.battle.step != "move-units":
        app.apply({"do": "next"})
    app.apply({"do": "select", "unit": "spearmen", "move": "advance"})
    app.step()
    handles = app._handle_boxes(app.ctrl.viewport)
    assert handles
    assert not [(b, h) for b in app._unit_labels for h in handles if boxes_overlap(b, h)]
