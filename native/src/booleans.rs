//! Boolean operations on polygons (i_overlay, on an integer grid).
//!
//! Coordinates (inches) are moved to the grid `round((x - ox) * scale)` with `scale` at most
//! [`MAX_SCALE`] (1e-7" a unit) and at least [`MIN_SCALE`] (1e-6" a unit, the project's EPS):
//! the largest that holds the extent in the 29 bits i_overlay's `i32` engine accepts. A vertex
//! moves by at most half a unit on the way in and an intersection by at most one unit on the
//! way out, so no boundary moves by more than 1.5 units: 1.5e-7" at the usual scale, below
//! the project's EPS (1e-6") at any accepted scale.

use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::overlay::{Overlay, ShapeType};
use i_overlay::core::overlay_rule::OverlayRule;
use i_overlay::i_float::int::point::IntPoint;

use crate::limits::{check, Refused, MAX_COORDINATE, MAX_OVERLAY_VERTICES};

/// Grid units an inch, at most (1e-7").
pub const MAX_SCALE: f64 = 1e7;
/// Grid units an inch, at least (1e-6").
pub const MIN_SCALE: f64 = 1e6;
/// Largest grid coordinate of i_overlay's `i32` engine with room for its arithmetic.
const GRID_LIMIT: f64 = (1u32 << 29) as f64;

/// A point, inches.
pub type Pt = [f64; 2];
/// A closed ring (no repeated first point).
pub type Ring = Vec<Pt>;
/// A polygon: its exterior ring (counter-clockwise) and its holes (clockwise).
pub type Poly = Vec<Ring>;

/// The integer grid of one set of overlays.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grid {
    pub ox: f64,
    pub oy: f64,
    pub scale: f64,
}

impl Grid {
    /// The finest grid whose 29 bits hold the box `(x0, y0, x1, y1)` widened by `margin`.
    pub fn for_box(bounds: [f64; 4], margin: f64) -> Result<Grid, Refused> {
        let [x0, y0, x1, y1] = bounds;
        let ox = 0.5 * (x0 + x1);
        let oy = 0.5 * (y0 + y1);
        let half = (0.5 * (x1 - x0)).max(0.5 * (y1 - y0)) + margin.max(0.0);
        if !bounds.iter().all(|v| v.is_finite()) || !half.is_finite() || half > MAX_COORDINATE {
            return Err(Refused(format!(
                "coordinates: {half:.1} in from the centre is over the native core's limit of \
                 {MAX_COORDINATE} in"
            )));
        }
        let scale = (GRID_LIMIT / half.max(1.0)).min(MAX_SCALE);
        Ok(Grid { ox, oy, scale: scale.max(MIN_SCALE) })
    }

    #[inline]
    pub fn to_int(&self, p: Pt) -> IntPoint<i32> {
        let lim = GRID_LIMIT;
        let x = ((p[0] - self.ox) * self.scale).round().clamp(-lim, lim);
        let y = ((p[1] - self.oy) * self.scale).round().clamp(-lim, lim);
        IntPoint::new(x as i32, y as i32)
    }

    #[inline]
    pub fn to_float(&self, p: IntPoint<i32>) -> Pt {
        [p.x as f64 / self.scale + self.ox, p.y as f64 / self.scale + self.oy]
    }

    fn ring(&self, r: &[Pt]) -> Vec<IntPoint<i32>> {
        let mut out: Vec<IntPoint<i32>> = Vec::with_capacity(r.len());
        for &p in r {
            let q = self.to_int(p);
            if out.last() != Some(&q) {
                out.push(q);
            }
        }
        while out.len() > 1 && out.first() == out.last() {
            out.pop();
        }
        out
    }
}

/// Which operation: `subject op clip`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Op {
    Union,
    Intersection,
    Difference,
}

fn count(polys: &[Poly]) -> usize {
    polys.iter().flat_map(|p| p.iter()).map(|r| r.len()).sum()
}

/// `subject op clip` (each a set of polygons, their union taken by the non-zero rule).
pub fn overlay(grid: &Grid, subject: &[Poly], clip: &[Poly], op: Op) -> Result<Vec<Poly>, Refused> {
    check("overlay vertices", count(subject) + count(clip), MAX_OVERLAY_VERTICES)?;
    let mut ov: Overlay<i32> = Overlay::new(count(subject) + count(clip));
    for (set, kind) in [(subject, ShapeType::Subject), (clip, ShapeType::Clip)] {
        for poly in set {
            for (k, ring) in poly.iter().enumerate() {
                let mut r = grid.ring(ring);
                if r.len() < 3 {
                    continue;
                }
                // the non-zero rule needs exteriors one way and holes the other
                let ccw = signed_area_int(&r) > 0;
                if (k == 0) != ccw {
                    r.reverse();
                }
                ov.add_contour(&r, kind);
            }
        }
    }
    let rule = match op {
        Op::Union => OverlayRule::Union,
        Op::Intersection => OverlayRule::Intersect,
        Op::Difference => OverlayRule::Difference,
    };
    let shapes = ov.overlay(rule, FillRule::NonZero);
    Ok(shapes
        .into_iter()
        .map(|shape| {
            shape
                .into_iter()
                .map(|c| c.into_iter().map(|p| grid.to_float(p)).collect::<Ring>())
                .collect::<Poly>()
        })
        .filter(|p: &Poly| !p.is_empty() && p[0].len() >= 3)
        .collect())
}

/// Twice the signed area of an integer ring (positive: counter-clockwise).
fn signed_area_int(r: &[IntPoint<i32>]) -> i128 {
    let n = r.len();
    let mut s: i128 = 0;
    for i in 0..n {
        let a = r[i];
        let b = r[(i + 1) % n];
        s += a.x as i128 * b.y as i128 - b.x as i128 * a.y as i128;
    }
    s
}

/// Signed area of a ring, square inches (positive: counter-clockwise).
pub fn ring_area(r: &[Pt]) -> f64 {
    let n = r.len();
    let mut s = 0.0;
    for i in 0..n {
        let a = r[i];
        let b = r[(i + 1) % n];
        s += a[0] * b[1] - b[0] * a[1];
    }
    0.5 * s
}

/// Area of a set of polygons (exteriors minus holes).
pub fn area(polys: &[Poly]) -> f64 {
    polys.iter().map(|p| p.iter().map(|r| ring_area(r)).sum::<f64>()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x0: f64, y0: f64, s: f64) -> Poly {
        vec![vec![[x0, y0], [x0 + s, y0], [x0 + s, y0 + s], [x0, y0 + s]]]
    }

    fn grid() -> Grid {
        Grid::for_box([0.0, 0.0, 60.0, 44.0], 1.0).unwrap()
    }

    #[test]
    fn union_of_overlapping_squares() {
        let out = overlay(&grid(), &[square(0.0, 0.0, 2.0), square(1.0, 1.0, 2.0)], &[], Op::Union)
            .unwrap();
        assert_eq!(out.len(), 1);
        assert!((area(&out) - 7.0).abs() < 1e-9);
    }

    #[test]
    fn difference_makes_a_hole_and_intersection_a_piece() {
        let g = grid();
        let out = overlay(&g, &[square(0.0, 0.0, 4.0)], &[square(1.0, 1.0, 1.0)], Op::Difference)
            .unwrap();
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].len(), 2);
        assert!((area(&out) - 15.0).abs() < 1e-9);
        let out = overlay(&g, &[square(0.0, 0.0, 4.0)], &[square(3.0, 3.0, 2.0)], Op::Intersection)
            .unwrap();
        assert!((area(&out) - 1.0).abs() < 1e-9);
    }

    #[test]
    fn clockwise_input_is_read_as_an_exterior() {
        let mut cw = square(0.0, 0.0, 1.0);
        cw[0].reverse();
        let out = overlay(&grid(), &[cw], &[], Op::Union).unwrap();
        assert!((area(&out) - 1.0).abs() < 1e-9);
    }

    #[test]
    fn grid_keeps_a_tenth_of_eps_on_a_battlefield() {
        let g = grid();
        assert_eq!(g.scale, MAX_SCALE);
        let p = [12.345_678_91, 33.000_000_04];
        let q = g.to_float(g.to_int(p));
        assert!((p[0] - q[0]).abs() <= 0.5 / g.scale + 1e-12);
        assert!((p[1] - q[1]).abs() <= 0.5 / g.scale + 1e-12);
        // a large board: a coarser grid, still at least EPS
        let big = Grid::for_box([0.0, 0.0, 400.0, 300.0], 10.0).unwrap();
        assert!(big.scale >= MIN_SCALE && big.scale < MAX_SCALE);
        assert!(Grid::for_box([0.0, 0.0, 2000.0, 10.0], 0.0).is_err());
        assert!(Grid::for_box([0.0, 0.0, f64::NAN, 10.0], 0.0).is_err());
    }
}
