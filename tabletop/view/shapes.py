"""Shapes drawn and hit-tested by the view, without pygame (t9a blocks)."""

from __future__ import annotations

from shapely.geometry import Polygon

from tabletop.geometry.blocks import BlockGeom
from tabletop.geometry.footprints import Rect
from tabletop.geometry.tolerance import mm
from tabletop.state import Block

__all__ = ["block_geom", "block_model_polygons", "block_outline"]


def block_geom(block: Block) -> BlockGeom:
    """The block's geometry (:class:`tabletop.geometry.blocks.BlockGeom`)."""
    base = block.base
    if isinstance(base, Rect):
        w, d = mm(base.frontage_mm), mm(base.depth_mm)
    else:
        w = d = 2 * base.radius
    return BlockGeom(base_w=w, base_d=d, models=block.models, files=min(block.files, block.models),
                     at=block.at, facing=block.facing)


def block_model_polygons(block: Block) -> list[Polygon]:
    """The rectangle of every model of a t9a block, placed and turned with the block."""
    return list(block_geom(block).model_polygons())


def block_outline(block: Block) -> Polygon:
    """The unit boundary: the rectangle around all ranks (its footprint for picking)."""
    return block_geom(block).polygon
