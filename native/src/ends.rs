//! Where a mover may not end: unions of Minkowski sums (the port of the Python engine's
//! `zones.end`: `static_end`, `model_region`, `grow`).
//!
//! A model's region is the set of centres at which the mover's footprint comes within `extra`
//! of it: the model's convex pieces each summed with each convex piece of the reflected mover
//! (`-F`), exactly ([`convex_sum`], the layers' own), then grown by `extra` with straight edges at the distance
//! and corners by tangent segments ([`offset_convex`]): circumscribed, so never smaller than
//! the exact region (the Minkowski sum with a disk distributes over the union of the pieces;
//! the straight edges of a sum's growth lie at `extra / cos(3 max_step / 4)`, where the Python
//! engine's conservative buffer puts them). A round model is a disk: the mover's pieces grown
//! by its radius plus `extra`; a round mover is a disk too. Terrain pieces are summed with the mover as the models are, with no `extra`.
//! The union of all of it is one Clipper2 overlay on the integer grid of [`crate::booleans`].

use std::f64::consts::PI;

use crate::booleans::{bounds, overlay, ring_area, union_all, Grid, Op, Poly, Pt, Ring, SCALE};
use crate::layers::convex_sum;
use crate::limits::{check, Refused, MAX_COORDINATE, MAX_OVERLAY_VERTICES, MAX_RINGS};
use crate::minkowski::{circumscribed, offset_convex};

/// What a model (or the mover) is for the sums: a disk of a radius, or convex pieces about its
/// centre (counter-clockwise or not: they are oriented here).
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    Disk(f64),
    Pieces(Vec<Ring>),
}

/// One question: the mover (`-F` already: its footprint reflected through its centre), the
/// distinct shapes of the models, the models (centre and shape index), how near they may not
/// come (`extra`), the terrain's convex pieces, and the polygonisation: corners turn at most
/// `max_step` radians a tangent segment, a disk summed with a disk is a circumscribed polygon
/// of `segments` vertices.
pub struct EndAsk<'a> {
    pub mover: &'a Shape,
    pub shapes: &'a [Shape],
    pub bodies: &'a [(Pt, usize)],
    pub extra: f64,
    pub terrain: &'a [Ring],
    pub max_step: f64,
    pub segments: usize,
}

/// `r` counter-clockwise.
pub fn ccw(r: &[Pt]) -> Ring {
    let mut out = r.to_vec();
    if ring_area(&out) < 0.0 {
        out.reverse();
    }
    out
}

fn moved(r: &[Pt], at: Pt) -> Ring {
    r.iter().map(|p| [p[0] + at[0], p[1] + at[1]]).collect()
}

/// The region of a model of `shape` standing at the origin for the mover (rings whose union it
/// is; see the module's docs).
pub fn local_region(mover: &Shape, shape: &Shape, extra: f64, max_step: f64, segments: usize)
                    -> Vec<Ring> {
    let grow = |r: Ring, d: f64| if d > 0.0 { offset_convex(&r, d, max_step) } else { r };
    match (mover, shape) {
        (Shape::Disk(r), Shape::Disk(re)) => vec![circumscribed(0.0, 0.0, r + re + extra, segments)],
        (Shape::Disk(r), Shape::Pieces(ps)) => {
            ps.iter().map(|p| grow(ccw(p), r + extra)).filter(|q| q.len() >= 3).collect()
        }
        (Shape::Pieces(fs), Shape::Disk(re)) => {
            fs.iter().map(|f| grow(ccw(f), re + extra)).filter(|q| q.len() >= 3).collect()
        }
        (Shape::Pieces(fs), Shape::Pieces(ps)) => {
            // the Python engine buffers the union of these sums by `extra / cos(3 max_step /
            // 4)` (GEOS rounds a corner's segments to the nearest count, so one turns up to 1.5
            // steps; its chords then never cut inside the distance): its straight edges lie
            // there, and so do these, so the two engines answer the same point sets
            let extra = extra / (0.75 * max_step).cos();
            let fs: Vec<Ring> = fs.iter().map(|f| ccw(f)).collect();
            let mut out = Vec::with_capacity(ps.len() * fs.len());
            for p in ps {
                let p = ccw(p);
                for f in &fs {
                    let s = convex_sum(&p, f);
                    if s.len() >= 3 {
                        out.push(grow(s, extra));
                    }
                }
            }
            out
        }
    }
}

/// Vertices of a shape's pieces (a disk: its polygon's).
fn size(s: &Shape, segments: usize) -> usize {
    match s {
        Shape::Disk(_) => segments,
        Shape::Pieces(ps) => ps.iter().map(|p| p.len()).sum::<usize>().max(1),
    }
}

/// A bound on the vertices of one corner's tangent segments, and so of one grown ring's.
fn corner_steps(max_step: f64) -> usize {
    (2.0 * PI / max_step).ceil() as usize + 1
}

/// The rings whose union is where the mover may not end (module docs), each model's region
/// built once per shape and moved to the model.
pub fn end_rings(ask: &EndAsk<'_>) -> Result<Vec<Ring>, Refused> {
    if !(ask.max_step.is_finite() && ask.max_step >= PI / 4096.0) {
        return Err(Refused(format!("max_step: {} is not a turn of pi / 4096 or more", ask.max_step)));
    }
    check("polygon vertices", ask.segments, 4096)?;
    if !ask.extra.is_finite() || ask.extra < 0.0 {
        return Err(Refused(format!("extra: {} is not a distance", ask.extra)));
    }
    let radius_ok = |s: &Shape| match s {
        Shape::Disk(r) => r.is_finite() && *r >= 0.0,
        Shape::Pieces(ps) => ps.iter().flatten().all(|p| p[0].is_finite() && p[1].is_finite()),
    };
    if !radius_ok(ask.mover) || !ask.shapes.iter().all(radius_ok) {
        return Err(Refused("a radius or a piece's coordinate is not finite".into()));
    }
    if let Some(&(_, k)) = ask.bodies.iter().find(|(_, k)| *k >= ask.shapes.len()) {
        return Err(Refused(format!("a model's shape {k} is not one of the {} shapes", ask.shapes.len())));
    }
    // bounded work, before any of it: every ring a sum of two pieces, grown
    let pieces = |s: &Shape| match s { Shape::Disk(_) => 1, Shape::Pieces(ps) => ps.len() };
    let fm = pieces(ask.mover);
    let grown = size(ask.mover, ask.segments) + corner_steps(ask.max_step) * 8;
    let mut rings = ask.terrain.len() * fm;
    let mut verts = ask.terrain.iter().map(|t| t.len()).sum::<usize>() * fm + rings * grown;
    for &(_, k) in ask.bodies {
        let s = &ask.shapes[k];
        rings += pieces(s) * fm;
        verts += (size(s, ask.segments) + grown) * fm * pieces(s);
    }
    check("end region rings", rings, MAX_RINGS)?;
    check("end region vertices", verts, MAX_OVERLAY_VERTICES)?;
    let mut out: Vec<Ring> = Vec::with_capacity(rings);
    let locals: Vec<Option<Vec<Ring>>> = {
        let mut used = vec![false; ask.shapes.len()];
        for &(_, k) in ask.bodies {
            used[k] = true;
        }
        ask.shapes.iter().zip(used)
            .map(|(s, u)| u.then(|| local_region(ask.mover, s, ask.extra, ask.max_step, ask.segments)))
            .collect()
    };
    for &(at, k) in ask.bodies {
        if !(at[0].is_finite() && at[1].is_finite()) {
            return Err(Refused("a model's centre is not finite".into()));
        }
        out.extend(locals[k].iter().flatten().map(|r| moved(r, at)));
    }
    for t in ask.terrain {
        if t.len() < 3 || t.iter().any(|p| !(p[0].is_finite() && p[1].is_finite())) {
            continue;
        }
        let t = ccw(t);
        match ask.mover {
            Shape::Disk(r) => out.push(if *r > 0.0 { offset_convex(&t, *r, ask.max_step) } else { t }),
            Shape::Pieces(fs) => {
                for f in fs {
                    let s = convex_sum(&t, &ccw(f));
                    if s.len() >= 3 {
                        out.push(s);
                    }
                }
            }
        }
    }
    Ok(out)
}

/// The union of [`end_rings`] (polygons: exteriors counter-clockwise, holes clockwise), on the
/// grid whose origin is the board's (so a region built from a part of the same models and
/// pieces is, where they are, the same polygons to the last unit, whatever else it holds).
pub fn end_region(ask: &EndAsk<'_>) -> Result<Vec<Poly>, Refused> {
    let rings = end_rings(ask)?;
    if rings.is_empty() {
        return Ok(Vec::new());
    }
    let polys: Vec<Poly> = rings.into_iter().map(|r| vec![r]).collect();
    union_all(&board_grid(bounds(&polys))?, polys)
}

/// The grid of the end regions: its origin the board's, so that regions built apart round
/// alike; refused beyond [`MAX_COORDINATE`].
fn board_grid(b: [f64; 4]) -> Result<Grid, Refused> {
    let far = b.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if far > MAX_COORDINATE || b.iter().any(|v| v.is_nan()) {
        return Err(Refused(format!(
            "coordinates: {far:.1} in from the origin is over the native core's limit of \
             {MAX_COORDINATE} in"
        )));
    }
    Ok(Grid { ox: 0.0, oy: 0.0, scale: SCALE })
}

/// The part of the box `b` (x0, y0, x1, y1) every one of `sets` covers (each a set of polygons,
/// such as [`end_region`]'s): intersected one after the other, on the end regions' grid.
pub fn common(b: [f64; 4], sets: &[&[Poly]]) -> Result<Vec<Poly>, Refused> {
    let grid = board_grid(b)?;
    let mut out: Vec<Poly> = vec![vec![vec![[b[0], b[1]], [b[2], b[1]], [b[2], b[3]], [b[0], b[3]]]]];
    for s in sets {
        if out.is_empty() {
            break;
        }
        out = overlay(&grid, &out, s, Op::Intersection)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::booleans::{area, contains};

    fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Ring {
        vec![[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
    }

    #[test]
    fn a_rect_mover_near_a_round_model_keeps_the_clearance() {
        // a 2 x 1 rectangle mover, a model of radius 0.5 at (10, 10), 1" clearance: the region
        // holds every centre within 1.5 of the model's centre in the rectangle's own metric
        let mover = Shape::Pieces(vec![rect(-1.0, -0.5, 1.0, 0.5)]);
        let shapes = [Shape::Disk(0.5)];
        let bodies = [([10.0, 10.0], 0usize)];
        let ask = EndAsk { mover: &mover, shapes: &shapes, bodies: &bodies, extra: 1.0,
                           terrain: &[], max_step: PI / 32.0, segments: 128 };
        let got = end_region(&ask).unwrap();
        let exact = 2.0 * 1.0 + 2.0 * 1.5 * (2.0 + 1.0) + PI * 1.5 * 1.5;
        let a = area(&got);
        assert!(a >= exact - 1e-9 && a <= exact * 1.001, "{a} {exact}");
        assert!(contains(&got[0], [12.0 + 0.49, 10.0]));
        assert!(!contains(&got[0], [12.0 + 0.51, 10.0]));
    }

    #[test]
    fn pieces_against_pieces_grow_by_the_clearance_never_less() {
        let mover = Shape::Pieces(vec![rect(-1.0, -0.5, 1.0, 0.5)]);
        let shapes = [Shape::Pieces(vec![rect(-0.5, -0.5, 0.5, 0.5)])];
        let bodies = [([0.0, 0.0], 0usize), ([20.0, 0.0], 0usize)];
        let terrain = [rect(5.0, 5.0, 6.0, 8.0)];
        let ask = EndAsk { mover: &mover, shapes: &shapes, bodies: &bodies, extra: 2.0,
                           terrain: &terrain, max_step: PI / 32.0, segments: 128 };
        let got = end_region(&ask).unwrap();
        assert_eq!(got.len(), 3);
        // each model: a 3 x 2 rectangle grown by 2 (its edges at 2 / cos(3 pi / 128)); the
        // terrain: 3 x 4
        let d = 2.0 / (3.0 * PI / 128.0).cos();
        let one = 6.0 + 2.0 * d * 5.0 + PI * d * d;
        let a = area(&got);
        assert!(a >= 2.0 * one + 12.0 - 1e-9 && a <= 2.0 * one * 1.001 + 12.0, "{a}");
    }

    #[test]
    fn a_round_mover_sums_disks_as_circumscribed_polygons() {
        let mover = Shape::Disk(0.6);
        let shapes = [Shape::Disk(0.4), Shape::Pieces(vec![rect(-1.0, -1.0, 1.0, 1.0)])];
        let bodies = [([0.0, 0.0], 0usize), ([10.0, 0.0], 1usize)];
        let ask = EndAsk { mover: &mover, shapes: &shapes, bodies: &bodies, extra: 0.0,
                           terrain: &[], max_step: PI / 32.0, segments: 128 };
        let got = end_region(&ask).unwrap();
        let a = area(&got);
        let exact = PI + (4.0 + 4.0 * 2.0 * 0.6 + PI * 0.36);
        assert!(a >= exact - 1e-9 && a <= exact * 1.001, "{a} {exact}");
    }

    #[test]
    fn the_common_part_of_sets_within_a_box() {
        let a: Vec<Poly> = vec![vec![rect(0.0, 0.0, 6.0, 6.0)]];
        let b: Vec<Poly> = vec![vec![rect(2.0, 2.0, 9.0, 9.0)], vec![rect(-5.0, -5.0, -4.0, -4.0)]];
        let got = common([1.0, 1.0, 8.0, 8.0], &[&a, &b]).unwrap();
        assert!((area(&got) - 16.0).abs() < 1e-9, "{}", area(&got));
        assert!(common([1.0, 1.0, 8.0, 8.0], &[&a, &[]]).unwrap().is_empty());
        assert!((area(&common([1.0, 1.0, 8.0, 8.0], &[]).unwrap()) - 49.0).abs() < 1e-9);
        assert!(common([0.0, 0.0, 2.0 * MAX_COORDINATE, 1.0], &[&a]).is_err());
    }

    #[test]
    fn bad_input_is_refused() {
        let mover = Shape::Disk(0.6);
        let shapes = [Shape::Disk(f64::NAN)];
        let bodies = [([0.0, 0.0], 0usize)];
        let mut ask = EndAsk { mover: &mover, shapes: &shapes, bodies: &bodies, extra: 0.0,
                               terrain: &[], max_step: PI / 32.0, segments: 128 };
        assert!(end_region(&ask).is_err());
        let ok = [Shape::Disk(1.0)];
        ask.shapes = &ok;
        let far = [([0.0, 0.0], 3usize)];
        ask.bodies = &far;
        assert!(end_region(&ask).is_err());
        ask.bodies = &bodies;
        ask.max_step = 0.0;
        assert!(end_region(&ask).is_err());
        ask.max_step = PI / 32.0;
        assert!(end_region(&ask).is_ok());
        let farther = [([2.0 * MAX_COORDINATE, 0.0], 0usize)];
        ask.bodies = &farther;
        assert!(end_region(&ask).unwrap_err().0.contains("limit"));
    }
}
