//! Boolean operations on polygons (Clipper2's pure Rust port, on an integer grid).
//!
//! Coordinates (inches) are moved to the grid `round((x - ox) * SCALE)` (1e-7" a unit, from the
//! centre of the map's box). A vertex moves by at most half a unit on the way in and Clipper2
//! rounds an intersection to the nearest unit on the way out, so no boundary moves by more
//! than 1.5e-7", far below the project's EPS (1e-6"). A map's union of its pieces is on a grid
//! of 1e-9" ([`FINE_SCALE`]) with its input vertices given back exactly ([`overlay_snapped`]).
//! The crate was chosen by measurement on
//! the construction's own polygons (benchmarks/RESULTS.md): i_overlay (and geo's BooleanOps,
//! built on it) took up to seconds on some unions of 800-vertex star polygons, Clipper2 under
//! a millisecond on all of them. The crate is vendored (`native/vendor/README.md`) with its
//! rounding made one instruction: the same values, a fifth to a third of a pick-up's core less.

use std::collections::HashMap;

use clipper2_rust::clipper::{boolean_op_64, boolean_op_tree_64, rect_clip_64};
use clipper2_rust::core::{FillRule, Path64, Paths64, Point64, Rect64};
use clipper2_rust::engine::ClipType;
use clipper2_rust::engine_public::PolyTree64;

use crate::limits::{check, Refused, MAX_COORDINATE, MAX_OVERLAY_VERTICES};
use crate::parallel::each;
use crate::pinches::simple_polygons;

/// Grid units an inch (1e-7").
pub const SCALE: f64 = 1e7;
/// The finest grid an overlay may ask for (1e-9" a unit: a map's union whose corners are then
/// tested against it shrunk by 1e-7", `ReachMap.outline` on the Python side). Coordinates stay
/// far inside Clipper2's range: [`MAX_COORDINATE`] inches are 4e14 units.
pub const FINE_SCALE: f64 = 1e9;

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
    /// The grid centred on the box `(x0, y0, x1, y1)`; refused when the box widened by
    /// `margin` reaches farther than [`MAX_COORDINATE`] from its centre.
    pub fn for_box(bounds: [f64; 4], margin: f64) -> Result<Grid, Refused> {
        Grid::for_box_at(bounds, margin, SCALE)
    }

    /// As [`Grid::for_box`], with `scale` units an inch (from [`SCALE`] to [`FINE_SCALE`]).
    pub fn for_box_at(bounds: [f64; 4], margin: f64, scale: f64) -> Result<Grid, Refused> {
        if !(SCALE..=FINE_SCALE).contains(&scale) {
            return Err(Refused(format!(
                "scale: {scale} units an inch is not between {SCALE} and {FINE_SCALE}"
            )));
        }
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
        Ok(Grid { ox, oy, scale })
    }

    #[inline]
    pub fn to_int(&self, p: Pt) -> Point64 {
        let lim = 4.0 * MAX_COORDINATE * self.scale;
        let x = ((p[0] - self.ox) * self.scale).round().clamp(-lim, lim);
        let y = ((p[1] - self.oy) * self.scale).round().clamp(-lim, lim);
        Point64::new(x as i64, y as i64)
    }

    #[inline]
    pub fn to_float(&self, p: &Point64) -> Pt {
        [p.x as f64 / self.scale + self.ox, p.y as f64 / self.scale + self.oy]
    }

    fn ring(&self, r: &[Pt]) -> Path64 {
        let mut out: Path64 = Vec::with_capacity(r.len());
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

/// The rings of `set` on the grid, exteriors counter-clockwise and holes clockwise (the
/// non-zero rule then fills each polygon once); rings of fewer than 3 distinct points left out.
fn paths<'a>(grid: &Grid, set: impl IntoIterator<Item = &'a Poly>) -> Paths64 {
    let mut out = Paths64::new();
    for poly in set {
        for (k, ring) in poly.iter().enumerate() {
            let mut r = grid.ring(ring);
            if r.len() < 3 {
                continue;
            }
            if (k == 0) != (signed_area_int(&r) > 0) {
                r.reverse();
            }
            out.push(r);
        }
    }
    out
}

fn clip_type(op: Op) -> ClipType {
    match op {
        Op::Union => ClipType::Union,
        Op::Intersection => ClipType::Intersection,
        Op::Difference => ClipType::Difference,
    }
}

/// The polygons of a Clipper2 tree: exteriors counter-clockwise, holes clockwise.
fn tree_polys(grid: &Grid, tree: &PolyTree64) -> Vec<Poly> {
    tree_polys_with(tree, |p| grid.to_float(p))
}

/// [`tree_polys`], each grid point made a point in inches by `to_float`.
fn tree_polys_with(tree: &PolyTree64, to_float: impl Fn(&Point64) -> Pt) -> Vec<Poly> {
    let mut out: Vec<Poly> = Vec::new();
    // the root's children are exteriors, theirs holes, the holes' children exteriors again
    let mut todo: Vec<usize> = tree.root().children().to_vec();
    while let Some(outer) = todo.pop() {
        let node = &tree.nodes[outer];
        let mut rings: Vec<Vec<Point64>> = vec![node.polygon().to_vec()];
        for &hole in node.children() {
            let h = &tree.nodes[hole];
            rings.push(h.polygon().to_vec());
            todo.extend_from_slice(h.children());
        }
        if rings[0].len() < 3 {
            continue;
        }
        // a ring touching itself at a vertex cut into simple ones (crate::pinches)
        for simple in simple_polygons(rings) {
            let mut poly: Poly = simple.iter()
                .map(|r| r.iter().map(&to_float).collect()).collect();
            for (k, ring) in poly.iter_mut().enumerate() {
                if (k == 0) != (ring_area(ring) > 0.0) {
                    ring.reverse();
                }
            }
            out.push(poly);
        }
    }
    out
}

/// `subject op clip` (each a set of polygons, their union taken by the non-zero rule).
pub fn overlay(grid: &Grid, subject: &[Poly], clip: &[Poly], op: Op) -> Result<Vec<Poly>, Refused> {
    check("overlay vertices", count(subject) + count(clip), MAX_OVERLAY_VERTICES)?;
    Ok(sweep(grid, subject, clip, op, |p| grid.to_float(p)))
}

/// One Clipper2 sweep of `subject op clip`, each grid point of the answer made a point in
/// inches by `to_float`.
fn sweep(grid: &Grid, subject: &[Poly], clip: &[Poly], op: Op, to_float: impl Fn(&Point64) -> Pt)
         -> Vec<Poly> {
    let (s, c) = (paths(grid, subject), paths(grid, clip));
    let mut tree = PolyTree64::new();
    boolean_op_tree_64(clip_type(op), FillRule::NonZero, &s, &c, &mut tree);
    tree_polys_with(&tree, to_float)
}

/// Polygons up to which [`overlay_snapped`] unions them in one sweep, a cascade above (a bike's
/// turning layer, about 60 pieces: 0.55 ms in one sweep, 0.84 in a cascade).
const SNAPPED_SWEEP: usize = 256;

/// [`overlay`], with every vertex of the answer that is an input vertex on the grid given back
/// as that input vertex exactly (where several round to one grid point, the first of them);
/// only the new vertices (where rings cross) are the grid's. A vertex of an input polygon then
/// lies on the answer's boundary exactly as on its own ring, as GEOS's overlays keep their
/// input vertices: a map's corners, taken from its pieces, are vertices of its union's outline.
pub fn overlay_snapped(grid: &Grid, subject: &[Poly], clip: &[Poly], op: Op)
    -> Result<Vec<Poly>, Refused> {
    check("overlay vertices", count(subject) + count(clip), MAX_OVERLAY_VERTICES)?;
    let mut exact: HashMap<(i64, i64), Pt> = HashMap::with_capacity(count(subject) + count(clip));
    for p in subject.iter().chain(clip).flatten().flatten() {
        let q = grid.to_int(*p);
        exact.entry((q.x, q.y)).or_insert(*p);
    }
    let to_float = |p: &Point64| exact.get(&(p.x, p.y)).copied().unwrap_or_else(|| grid.to_float(p));
    if op == Op::Union && clip.is_empty() && subject.len() > SNAPPED_SWEEP {
        // (a cascade, as union_all: one sweep of 1,491 overlapping pieces, a turning layer of a
        // 40-pointed star hull, took 0.12 s, twice GEOS's cascaded union)
        return union_minus_with(grid, subject.to_vec(), &[], 0.0, to_float);
    }
    Ok(sweep(grid, subject, clip, op, to_float))
}

/// `subject` minus `clip`, where `clip` is first cut to the box `within` (which must hold
/// `subject`): the same answer as [`overlay`] with [`Op::Difference`], but Clipper2's sweep sees
/// only the part of a large clip set (a whole army's engagement areas) near the subject. The cut
/// keeps each ring's orientation (so the non-zero rule still fills each polygon once); its new
/// vertices lie on the box, outside the subject.
pub fn difference_within(grid: &Grid, subject: &[Poly], clip: &[Poly], within: [f64; 4])
                         -> Result<Vec<Poly>, Refused> {
    check("overlay vertices", count(subject) + count(clip), MAX_OVERLAY_VERTICES)?;
    let c = near_paths(grid, clip.iter(), within);
    let s = paths(grid, subject);
    let mut tree = PolyTree64::new();
    boolean_op_tree_64(ClipType::Difference, FillRule::NonZero, &s, &c, &mut tree);
    Ok(tree_polys(grid, &tree))
}

/// The union of many polygons that overlap a lot (the stars of one geodesic disk): unions of
/// a few neighbours first, then of those, pairwise (a cascaded union: each step sees the
/// outlines of the unions below it, not every edge of every star crossing every other's).
/// Neighbours are neighbours along a Hilbert curve through the polygons' boxes (see
/// [`union_minus`]), and the steps stay on the integer grid (Clipper2's output rings, outer
/// ones counter-clockwise and holes clockwise, fill the same set by the non-zero rule): only
/// the last step builds polygons.
pub fn union_all(grid: &Grid, polys: Vec<Poly>) -> Result<Vec<Poly>, Refused> {
    union_minus(grid, polys, &[], 0.0)
}

/// The union of `sets`, each already one union with few overlaps of its own (a turning
/// mover's layers' regions, each cut to where it may end), pairwise in the given order:
/// neighbours first (the layers of adjacent facings, most alike), each step on the integer
/// grid; only the last builds polygons. Measured against one sweep of them all (which keeps
/// every layer's edges in its active list at once): 0.55-0.75x. The unions of each step but
/// the last on up to `threads` threads (the same answer).
pub fn union_sets(grid: &Grid, sets: &[&[Poly]], threads: usize) -> Result<Vec<Poly>, Refused> {
    check("overlay vertices", sets.iter().map(|s| count(s)).sum(), MAX_OVERLAY_VERTICES)?;
    let level: Vec<Paths64> =
        sets.iter().map(|s| paths(grid, s.iter())).filter(|p| !p.is_empty()).collect();
    if level.is_empty() {
        return Ok(Vec::new());
    }
    let (a, b) = pairwise(level, threads)?;
    check("overlay vertices", vertices(&a) + vertices(&b), MAX_OVERLAY_VERTICES)?;
    let mut tree = PolyTree64::new();
    boolean_op_tree_64(ClipType::Union, FillRule::NonZero, &a, &b, &mut tree);
    Ok(tree_polys(grid, &tree))
}

/// The union of `polys` (as [`union_all`]) minus the sets of `clip`, the cut made in the
/// cascade's last step (one sweep less than a union and then a difference): `clip`'s polygons
/// whose boxes meet the box of `polys` widened by `margin` (inches), cut to that box first as
/// in [`difference_within`].
pub fn union_minus(grid: &Grid, polys: Vec<Poly>, clip: &[&[Poly]], margin: f64)
                   -> Result<Vec<Poly>, Refused> {
    union_minus_with(grid, polys, clip, margin, |p| grid.to_float(p))
}

/// [`union_minus`], each grid point of the answer made a point in inches by `to_float`.
fn union_minus_with(grid: &Grid, polys: Vec<Poly>, clip: &[&[Poly]], margin: f64,
                    to_float: impl Fn(&Point64) -> Pt) -> Result<Vec<Poly>, Refused> {
    let cut = |a: &Paths64, b: &Paths64| -> Result<Vec<Poly>, Refused> {
        let c = clip_paths(grid, &polys, clip, margin);
        check("overlay vertices", vertices(a) + vertices(b) + vertices(&c), MAX_OVERLAY_VERTICES)?;
        let mut subject = a.clone();
        subject.extend_from_slice(b);
        let mut tree = PolyTree64::new();
        let op = if c.is_empty() { ClipType::Union } else { ClipType::Difference };
        boolean_op_tree_64(op, FillRule::NonZero, &subject, &c, &mut tree);
        Ok(tree_polys_with(&tree, &to_float))
    };
    // Leaves of 4 where the polygons pile up (their boxes cover their common box more than 8
    // times over: a 170x109 mm oval's layers, 500 stars about 34 deep, took 1.55x as long in
    // leaves of 64 as of 8; with the leaves' rings neighbours, leaves of 4 took 0.88-0.91x as
    // long as of 8 on the turning census's slowest inputs, 2 about as long as 4), else about
    // four leaves of 8 to 64 (a 20" disk among 300 enemies, 254 stars about 3 deep: leaves of 8
    // took 1.25x as long as leaves of 64)
    let leaf = if overlap(&polys) <= 8.0 { (polys.len() / 4).clamp(8, 64) } else { 4 };
    check("overlay vertices", count(&polys), MAX_OVERLAY_VERTICES)?;
    if polys.len() <= leaf {
        return cut(&paths(grid, &polys), &Paths64::new());
    }
    // leaves of neighbours (along a Hilbert curve): 0.94-0.99x of the given order on the
    // synthetic boards and the real layouts' turning layers
    let sorted: Vec<&Poly> = hilbert_order(&polys).into_iter().map(|k| &polys[k]).collect();
    let level: Vec<Paths64> = sorted
        .chunks(leaf)
        .map(|set| boolean_op_64(ClipType::Union, FillRule::NonZero,
                                 &paths(grid, set.iter().copied()), &Paths64::new()))
        .collect();
    let (a, b) = pairwise(level, 1)?;
    cut(&a, &b)
}

/// The order of `polys` along a Hilbert curve through their boxes' centres (on a 2^16 grid
/// over their common box): each leaf of the cascade then holds polygons near one another.
fn hilbert_order(polys: &[Poly]) -> Vec<usize> {
    let b = bounds(polys);
    let (w, h) = ((b[2] - b[0]).max(1e-12), (b[3] - b[1]).max(1e-12));
    let side = (1u32 << 16) as f64 - 1.0;
    let mut keyed: Vec<(u64, usize)> = polys
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let c = bounds(std::slice::from_ref(p));
            let x = (((c[0] + c[2]) * 0.5 - b[0]) / w * side).clamp(0.0, side) as u32;
            let y = (((c[1] + c[3]) * 0.5 - b[1]) / h * side).clamp(0.0, side) as u32;
            (hilbert(x, y), k)
        })
        .collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, k)| k).collect()
}

/// The index of `(x, y)` along the Hilbert curve of a 2^16 x 2^16 grid.
fn hilbert(mut x: u32, mut y: u32) -> u64 {
    let mut d = 0u64;
    let mut s = 1u32 << 15;
    while s > 0 {
        let rx = u32::from(x & s > 0);
        let ry = u32::from(y & s > 0);
        d += u64::from(s) * u64::from(s) * u64::from((3 * rx) ^ ry);
        if ry == 0 {
            if rx == 1 {
                x = 0xffff - x;
                y = 0xffff - y;
            }
            std::mem::swap(&mut x, &mut y);
        }
        s >>= 1;
    }
    d
}

/// Unions of neighbours in `level`, pairwise, until two sets are left (the second empty when
/// one was): each step's inputs checked against the overlay vertex limit, its unions on up to
/// `threads` threads ([`each`]); the last union is the caller's (a tree of polygons, or the
/// cut).
fn pairwise(mut level: Vec<Paths64>, threads: usize) -> Result<(Paths64, Paths64), Refused> {
    while level.len() > 2 {
        let mut pairs = Vec::with_capacity(level.len() / 2 + 1);
        let mut it = level.into_iter();
        while let Some(a) = it.next() {
            let b = it.next();
            if let Some(b) = &b {
                check("overlay vertices", vertices(&a) + vertices(b), MAX_OVERLAY_VERTICES)?;
            }
            pairs.push((a, b));
        }
        // (a step's unions are apart: on up to `threads` threads, the same answers)
        level = each(pairs, threads, |(a, b), _: &mut ()| match b {
            Some(b) => boolean_op_64(ClipType::Union, FillRule::NonZero, &a, &b),
            None => a,
        });
    }
    let mut it = level.into_iter();
    Ok((it.next().unwrap_or_default(), it.next().unwrap_or_default()))
}

/// The rings of those of `clip` whose boxes meet the box of `polys` widened by `margin`, cut
/// to that box (orientations kept; the new vertices lie on the box, outside `polys`).
fn clip_paths(grid: &Grid, polys: &[Poly], clip: &[&[Poly]], margin: f64) -> Paths64 {
    if clip.iter().all(|c| c.is_empty()) || polys.is_empty() {
        return Paths64::new();
    }
    let b = bounds(polys);
    let within = [b[0] - margin, b[1] - margin, b[2] + margin, b[3] + margin];
    near_paths(grid, clip.iter().flat_map(|c| c.iter()), within)
}

/// The rings of `set` on the grid (oriented as [`paths`] orients them) cut to the box
/// `within`: only the rings whose boxes meet it, and of a long ring only the stretches near it.
/// A stretch of [`STRETCH`] edges whose box misses `within` lies in a half-plane clear of it
/// (two boxes that do not meet are apart along x or along y), and so does the chord between
/// its ends: the ring with the chord instead winds the same way round every point of the box,
/// so the cut is the same point set (the stretches' vertices are never on it), without
/// carrying the far side of a whole army's engagement areas into it.
fn near_paths<'a>(grid: &Grid, set: impl Iterator<Item = &'a Poly>, within: [f64; 4])
                  -> Paths64 {
    let mut out = Paths64::new();
    let mut kept: Ring = Vec::new();
    for poly in set {
        for (k, ring) in poly.iter().enumerate() {
            let n = ring.len();
            if n < 3 {
                continue;
            }
            // one pass: the stretches' boxes, what is kept, and the whole ring's orientation
            kept.clear();
            let mut whole = [f64::INFINITY, f64::INFINITY, -f64::INFINITY, -f64::INFINITY];
            let mut twice_area = 0.0;
            let mut a = 0;
            while a < n {
                let end = (a + STRETCH).min(n); // the stretch a..=end, end taken mod n
                let mut b = [ring[a][0], ring[a][1], ring[a][0], ring[a][1]];
                for i in a..end {
                    let (p, q) = (ring[i], ring[(i + 1) % n]);
                    twice_area += p[0] * q[1] - q[0] * p[1];
                    b = [b[0].min(q[0]), b[1].min(q[1]), b[2].max(q[0]), b[3].max(q[1])];
                }
                whole = [whole[0].min(b[0]), whole[1].min(b[1]), whole[2].max(b[2]),
                         whole[3].max(b[3])];
                if boxes_meet(b, within) {
                    kept.extend_from_slice(&ring[a..end]);
                } else {
                    kept.push(ring[a]);
                }
                a = end;
            }
            // (a ring may wind round the box with every stretch clear of it: its box tells)
            if !boxes_meet(whole, within) {
                if k == 0 {
                    break; // an exterior clear of the box: its holes too
                }
                continue;
            }
            let mut r = grid.ring(&kept);
            if r.len() < 3 {
                continue;
            }
            // the orientation of the whole ring (the kept one may wind otherwise far away)
            if (k == 0) != (twice_area > 0.0) {
                r.reverse();
            }
            out.push(r);
        }
    }
    if out.is_empty() {
        return out;
    }
    let lo = grid.to_int([within[0], within[1]]);
    let hi = grid.to_int([within[2], within[3]]);
    rect_clip_64(&Rect64::new(lo.x, lo.y, hi.x, hi.y), &out)
}

/// Edges of a ring's stretch in [`near_paths`].
const STRETCH: usize = 16;

/// How many times over the polygons' boxes cover the box of them all (their areas' sum over
/// its area): about how many polygons lie over a point of the union.
fn overlap(polys: &[Poly]) -> f64 {
    let all = bounds(polys);
    let area = |b: [f64; 4]| (b[2] - b[0]).max(0.0) * (b[3] - b[1]).max(0.0);
    let total = area(all);
    if !(total > 0.0) {
        return f64::INFINITY;
    }
    polys.iter().map(|p| area(bounds(std::slice::from_ref(p)))).sum::<f64>() / total
}

fn vertices(paths: &Paths64) -> usize {
    paths.iter().map(|p| p.len()).sum()
}

/// Twice the signed area of an integer ring (positive: counter-clockwise).
fn signed_area_int(r: &[Point64]) -> i128 {
    let n = r.len();
    let mut s: i128 = 0;
    for i in 0..n {
        let (a, b) = (r[i], r[(i + 1) % n]);
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

/// The bounding box `(x0, y0, x1, y1)` of a set of polygons (inverted when empty).
pub fn bounds(polys: &[Poly]) -> [f64; 4] {
    points_bounds(polys.iter().flat_map(|p| p.first()).flatten())
}

/// The bounding box `(x0, y0, x1, y1)` of a ring (inverted when empty).
pub fn ring_bounds(ring: &[Pt]) -> [f64; 4] {
    points_bounds(ring.iter())
}

fn points_bounds<'a>(pts: impl Iterator<Item = &'a Pt>) -> [f64; 4] {
    pts.fold([f64::INFINITY, f64::INFINITY, -f64::INFINITY, -f64::INFINITY], |b, q| {
        [b[0].min(q[0]), b[1].min(q[1]), b[2].max(q[0]), b[3].max(q[1])]
    })
}

/// Whether two boxes `(x0, y0, x1, y1)` meet.
#[inline]
pub fn boxes_meet(a: [f64; 4], b: [f64; 4]) -> bool {
    a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3]
}

/// Whether `p` lies inside the polygon (its exterior, not in a hole; even-odd crossings).
pub fn contains(poly: &Poly, p: Pt) -> bool {
    let mut inside = false;
    for ring in poly {
        let n = ring.len();
        for i in 0..n {
            let (a, b) = (ring[i], ring[(i + 1) % n]);
            if (a[1] > p[1]) != (b[1] > p[1])
                && p[0] < a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0])
            {
                inside = !inside;
            }
        }
    }
    inside
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_difference_within_a_box_is_the_difference() {
        // a large clip set with a hole (a ring of engagement areas) and a small subject
        let g = Grid::for_box([0.0, 0.0, 40.0, 40.0], 1.0).unwrap();
        let sq = |x0: f64, y0: f64, x1: f64, y1: f64| vec![[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
        let clip: Vec<Poly> = vec![
            vec![sq(1.0, 1.0, 39.0, 39.0), sq(10.0, 10.0, 30.0, 30.0).into_iter().rev().collect()],
            vec![sq(19.0, 19.0, 21.0, 21.0)],
        ];
        let subject: Vec<Poly> = vec![vec![sq(8.0, 15.0, 22.0, 25.0)]];
        let b = bounds(&subject);
        let within = [b[0] - 0.01, b[1] - 0.01, b[2] + 0.01, b[3] + 0.01];
        let a = overlay(&g, &subject, &clip, Op::Difference).unwrap();
        let w = difference_within(&g, &subject, &clip, within).unwrap();
        // 14 x 10 less the ring's strip 8..10 (2 x 10) and the small square (2 x 2)
        assert!((area(&a) - 116.0).abs() < 1e-9, "{}", area(&a));
        assert!((area(&w) - area(&a)).abs() < 1e-9, "{} {}", area(&w), area(&a));
        let both = overlay(&g, &a, &w, Op::Difference).unwrap();
        assert!(area(&both).abs() < 1e-12);
    }

    #[test]
    fn far_stretches_of_long_rings_cut_as_the_whole_rings() {
        // a thick horseshoe of 600-vertex arcs round a small subject (its far stretches
        // replaced by chords, which must not cut across the box: the first subject stays
        // whole) and a disk with a round hole; the others cross the rings
        let g = Grid::for_box([0.0, 0.0, 40.0, 40.0], 1.0).unwrap();
        let arc = |cx: f64, cy: f64, r: f64, a0: f64, a1: f64, n: usize| -> Ring {
            (0..=n).map(|k| {
                let t = (a0 + (a1 - a0) * k as f64 / n as f64).to_radians();
                [cx + r * t.cos(), cy + r * t.sin()]
            }).collect()
        };
        let mut shoe = arc(20.0, 20.0, 10.0, 30.0, 330.0, 600);
        shoe.extend(arc(20.0, 20.0, 8.0, 330.0, 30.0, 600));
        let mut hole = arc(10.0, 30.0, 2.0, 360.0, 0.0, 500);
        hole.pop();
        let mut disk = arc(10.0, 30.0, 6.0, 0.0, 360.0, 900);
        disk.pop();
        let clip: Vec<Poly> = vec![vec![shoe], vec![disk, hole]];
        let sq = |x0: f64, y0: f64, x1: f64, y1: f64| vec![[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
        for subject in [sq(17.0, 17.0, 23.0, 23.0), sq(26.5, 19.0, 29.0, 21.0),
                        sq(27.0, 10.0, 29.0, 30.0), sq(9.0, 29.0, 13.0, 30.5)] {
            let subject: Vec<Poly> = vec![vec![subject]];
            let b = bounds(&subject);
            let within = [b[0] - 0.01, b[1] - 0.01, b[2] + 0.01, b[3] + 0.01];
            let want = overlay(&g, &subject, &clip, Op::Difference).unwrap();
            let got = difference_within(&g, &subject, &clip, within).unwrap();
            assert!(area(&want) > 0.5, "{}", area(&want));
            let more = overlay(&g, &got, &want, Op::Difference).unwrap();
            let less = overlay(&g, &want, &got, Op::Difference).unwrap();
            assert!(area(&more) < 1e-12 && area(&less) < 1e-12, "{} {}", area(&more), area(&less));
        }
    }

    fn square(x0: f64, y0: f64, s: f64) -> Poly {
        vec![vec![[x0, y0], [x0 + s, y0], [x0 + s, y0 + s], [x0, y0 + s]]]
    }

    #[test]
    fn a_cascaded_union_minus_is_the_union_then_the_difference() {
        // 200 overlapping squares along a zigzag (several levels of the cascade), minus a
        // ring that holds a square, one clip far away (left out by its box) and one crossing
        let g = Grid::for_box([0.0, 0.0, 60.0, 60.0], 1.0).unwrap();
        let sq = |x0: f64, y0: f64, w: f64| vec![[x0, y0], [x0 + w, y0], [x0 + w, y0 + w], [x0, y0 + w]];
        let polys: Vec<Poly> = (0..200)
            .map(|k| {
                let t = k as f64 * 0.2;
                vec![sq(5.0 + t, 5.0 + 3.0 * (t * 0.7).sin().abs(), 2.5)]
            })
            .collect();
        let ring: Poly = vec![sq(10.0, 4.0, 6.0), sq(12.0, 6.0, 2.0).into_iter().rev().collect()];
        let clips: Vec<Poly> = vec![ring, vec![sq(50.0, 50.0, 3.0)], vec![sq(30.0, 0.0, 2.0)]];
        let two: Vec<Poly> = vec![vec![sq(44.0, 6.0, 1.0)]];
        let got = union_minus(&g, polys.clone(), &[&clips, &two], 0.01).unwrap();
        let union = overlay(&g, &polys, &[], Op::Union).unwrap();
        let mut all = clips.clone();
        all.extend(two.clone());
        let want = overlay(&g, &union, &all, Op::Difference).unwrap();
        assert!((area(&got) - area(&want)).abs() < 1e-9, "{} {}", area(&got), area(&want));
        let diff = overlay(&g, &got, &want, Op::Difference).unwrap();
        let back = overlay(&g, &want, &got, Op::Difference).unwrap();
        assert!(area(&diff) < 1e-9 && area(&back) < 1e-9);
        // the cascade alone is the one-step union
        let u = union_all(&g, polys.clone()).unwrap();
        assert!((area(&u) - area(&union)).abs() < 1e-9);
        assert!(area(&got) < area(&u) - 1.0);
    }

    fn grid() -> Grid {
        Grid::for_box([0.0, 0.0, 60.0, 44.0], 1.0).unwrap()
    }

    #[test]
    fn the_vendored_rounding_is_round_half_to_even() {
        // C++'s nearbyint, as the published port's emulation rounded (native/vendor/README.md)
        use clipper2_rust::core::nearbyint_f64;
        let cases = [(0.5, 0.0), (1.5, 2.0), (2.5, 2.0), (-0.5, 0.0), (-1.5, -2.0), (-2.5, -2.0),
                     (2.4999999, 2.0), (-2.5000001, -3.0), (0.49999999999999994, 0.0),
                     (4503599627370495.5, 4503599627370496.0), (1e300, 1e300), (-7.0, -7.0)];
        for (x, want) in cases {
            assert_eq!(nearbyint_f64(x), want, "{x}");
        }
    }

    #[test]
    fn a_union_of_sets_is_the_union_of_all_their_polygons() {
        let g = grid();
        // five sets of overlapping squares (a layer's region each), one empty, one with a hole
        let mut sets: Vec<Vec<Poly>> = (0..5).map(|k| vec![square(k as f64, 0.0, 2.0)]).collect();
        sets[2] = Vec::new();
        sets[4] = vec![vec![vec![[10.0, 0.0], [14.0, 0.0], [14.0, 4.0], [10.0, 4.0]],
                            vec![[11.0, 1.0], [11.0, 3.0], [13.0, 3.0], [13.0, 1.0]]]];
        let refs: Vec<&[Poly]> = sets.iter().map(|s| s.as_slice()).collect();
        let got = union_sets(&g, &refs, 1).unwrap();
        // on threads the same polygons
        for threads in [2, 3] {
            assert_eq!(union_sets(&g, &refs, threads).unwrap(), got);
        }
        let all: Vec<Poly> = sets.concat();
        let want = overlay(&g, &all, &[], Op::Union).unwrap();
        assert!((area(&got) - area(&want)).abs() < 1e-9, "{} {}", area(&got), area(&want));
        assert!((area(&got) - (5.0 * 2.0 + 12.0)).abs() < 1e-9);
        assert_eq!(got.len(), 2);
        assert!(union_sets(&g, &[], 2).unwrap().is_empty());
        assert!(union_sets(&g, &[&[]], 2).unwrap().is_empty());
        assert!((area(&union_sets(&g, &refs[..1], 2).unwrap()) - 4.0).abs() < 1e-9);
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
    fn grid_keeps_a_tenth_of_eps() {
        let g = grid();
        let p = [12.345_678_91, 33.000_000_04];
        let q = g.to_float(&g.to_int(p));
        assert!((p[0] - q[0]).abs() <= 0.5 / g.scale + 1e-12);
        assert!((p[1] - q[1]).abs() <= 0.5 / g.scale + 1e-12);
        assert!(Grid::for_box([0.0, 0.0, 2.0 * MAX_COORDINATE + 10.0, 10.0], 0.0).is_err());
        assert!(Grid::for_box([0.0, 0.0, f64::NAN, 10.0], 0.0).is_err());
    }

    #[test]
    fn a_fine_grid_keeps_a_hundredth_of_its_erosion() {
        let g = Grid::for_box_at([0.0, 0.0, 60.0, 44.0], 1.0, FINE_SCALE).unwrap();
        let p = [12.345_678_912_3, 33.000_000_000_4];
        let q = g.to_float(&g.to_int(p));
        assert!((p[0] - q[0]).abs() <= 0.5e-9 + 1e-12);
        assert!((p[1] - q[1]).abs() <= 0.5e-9 + 1e-12);
        // the far corner of the largest box is not clamped
        let far = [MAX_COORDINATE, -MAX_COORDINATE];
        let h = Grid::for_box_at([-MAX_COORDINATE, -MAX_COORDINATE, MAX_COORDINATE, MAX_COORDINATE],
                                 0.0, FINE_SCALE).unwrap();
        assert_eq!(h.to_float(&h.to_int(far)), far);
        assert!(Grid::for_box_at([0.0, 0.0, 1.0, 1.0], 0.0, 1e12).is_err());
        assert!(Grid::for_box_at([0.0, 0.0, 1.0, 1.0], 0.0, 1e3).is_err());
        // two squares sharing an edge union to one rectangle on the fine grid too
        let out = overlay(&g, &[square(0.0, 0.0, 1.0), square(1.0, 0.0, 1.0)], &[], Op::Union)
            .unwrap();
        assert_eq!(out.len(), 1);
        assert!((area(&out) - 2.0).abs() < 1e-12);
    }

    #[test]
    fn a_snapped_overlay_gives_back_the_input_vertices_exactly() {
        let g = Grid::for_box_at([0.0, 0.0, 10.0, 10.0], 1.0, FINE_SCALE).unwrap();
        let a: Poly = vec![vec![[0.1 / 3.0, 0.2 / 7.0], [3.0 + 1.0 / 3.0, 0.0], [2.0, 2.0 + 1.0 / 9.0]]];
        let b: Poly = vec![vec![[1.0 / 7.0, 1.0], [4.0, 1.0 / 11.0], [4.0, 3.0 + 1.0 / 13.0]]];
        let inputs: Vec<Pt> = a[0].iter().chain(&b[0]).copied().collect();
        let out = overlay_snapped(&g, &[a.clone(), b.clone()], &[], Op::Union).unwrap();
        let plain = overlay(&g, &[a, b], &[], Op::Union).unwrap();
        assert_eq!(out.len(), 1);
        assert!((area(&out) - area(&plain)).abs() < 1e-7);
        assert_eq!(out[0][0].len(), plain[0][0].len());
        let mut exact = 0;
        for p in &out[0][0] {
            if inputs.contains(p) {
                exact += 1;
            } else {
                // a crossing: on the grid, as the plain overlay has it
                assert!(plain[0][0].contains(p), "{p:?}");
            }
        }
        // every input vertex on the plain answer's outline (up to the grid) is given back
        let on = inputs.iter()
            .filter(|q| plain[0][0].iter().any(|p| g.to_int(*p) == g.to_int(**q)))
            .count();
        assert!(on >= 3);
        assert_eq!(exact, on);
        // past SNAPPED_SWEEP polygons, a cascade: the same point set, the input vertices given
        // back exactly there too
        let many: Vec<Poly> = (0..300)
            .map(|k| {
                let (x, y) = ((k % 20) as f64 * 0.45 + 1.0 / 3.0, (k / 20) as f64 * 0.45 + 1.0 / 7.0);
                vec![vec![[x, y], [x + 0.5, y + 1e-3 / 3.0], [x + 0.5, y + 0.5], [x, y + 0.5]]]
            })
            .collect();
        assert!(many.len() > SNAPPED_SWEEP);
        let inputs: Vec<Pt> = many.iter().flatten().flatten().copied().collect();
        let out = overlay_snapped(&g, &many, &[], Op::Union).unwrap();
        let plain = overlay(&g, &many, &[], Op::Union).unwrap();
        assert!((area(&out) - area(&plain)).abs() < 1e-7);
        let vertices: Vec<Pt> = out.iter().flatten().flatten().copied().collect();
        let from_inputs = vertices.iter().filter(|p| inputs.contains(p)).count();
        assert!(from_inputs >= 4);
        for p in &vertices {
            // a vertex on the grid point of an input vertex is that input vertex
            if let Some(q) = inputs.iter().find(|q| g.to_int(**q) == g.to_int(*p)) {
                assert_eq!(p, q);
            }
        }
    }

    #[test]
    fn nested_islands_come_back_as_polygons() {
        // a square ring with an island in its hole: two polygons, the first with a hole
        let outer = vec![square(0.0, 0.0, 10.0)[0].clone(), {
            let mut h = square(2.0, 2.0, 6.0)[0].clone();
            h.reverse();
            h
        }];
        let island = square(4.0, 4.0, 2.0);
        let out = overlay(&grid(), &[outer, island], &[], Op::Union).unwrap();
        assert_eq!(out.len(), 2);
        assert!((area(&out) - (100.0 - 36.0 + 4.0)).abs() < 1e-9);
    }

    #[test]
    fn the_hilbert_order_walks_from_cell_to_neighbouring_cell() {
        // the lower-left 16 x 16 block of the curve is its first 256 cells, each next to the one
        // before
        let mut cells: Vec<(u64, (i64, i64))> = (0..16u32)
            .flat_map(|x| (0..16u32).map(move |y| (hilbert(x, y), (x as i64, y as i64))))
            .collect();
        cells.sort_unstable();
        assert!(cells.iter().enumerate().all(|(k, c)| c.0 == k as u64));
        let apart = |a: (i64, i64), b: (i64, i64)| (a.0 - b.0).abs() + (a.1 - b.1).abs();
        assert!(cells.windows(2).all(|w| apart(w[0].1, w[1].1) == 1));
        let polys: Vec<Poly> = (0..50).map(|k| vec![vec![[k as f64, 0.0], [k as f64 + 1.0, 0.0],
                                                          [k as f64, 1.0]]]).rev().collect();
        let mut order = hilbert_order(&polys);
        order.sort_unstable();
        assert_eq!(order, (0..50).collect::<Vec<_>>());
    }
}
