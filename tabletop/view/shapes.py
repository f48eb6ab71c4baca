"""Shapes drawn and hit-tested by the view, without pygame (t9a blocks)."""

from __future__ import annotations

from shapely.geometry import Polygon

from tabletop.geometry.blocks import BlockGeom
from tabletop.state import Block

__all__ = ["block_geom", "block_model_polygons", "block_outline"]


def block_geom(block: Block) -> BlockGeom:
    """The geometry of ``block`` as it stands."""
    return block.geom


def block_model_polygons(block: Block) -> list[Polygon]:
    """The rectangle of every model of a t9a block, placed and turned with the block."""
    return list(block_geom(block).model_polygons())


def block_outline(block: Block) -> Polygon:
    """The unit boundary: the rectangle around all ranks (its footprint for picking)."""
    return block_geom(block).polygon
