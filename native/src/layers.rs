//! The per-phase build of a turning mover's layers (the port of the Python engine's
//! `cspace.grow`, `cspace.convex_sum` and `TurnMap.turn_region`): obstacles grown by the
//! footprint's convex pieces at one facing, and the turn regions, where the footprint swept
//! through one step of facings is clear.
//!
//! Grown pieces are the Python engine's to the last bit where the arithmetic allows (the same
//! vertex order, the same sums): a layer's corners and graph are then the same. A turn region
//! is the box minus the union of the grown pieces in one Clipper2 difference on the 1e-7" grid;
//! each grown piece is first moved out by [`SAFE`] (and the box in by as much), more than the
//! grid's rounding on the way in and out (1.5e-7" at most), so the region is never larger than
//! the exact one, and lies within `SAFE` + 1.5e-7" of it.

use std::f64::consts::PI;
use std::sync::Mutex;

use crate::booleans::{self, boxes_meet, Grid, Op, Poly, Pt, Ring};
use crate::limits::{check, Refused, MAX_OVERLAY_VERTICES, MAX_RINGS};
use crate::minkowski::offset_convex;

/// Inches by which a turn region's obstacles grow (and its box shrinks) before the overlay:
/// three grid units, twice the most the grid's rounding moves a boundary.
pub const SAFE: f64 = 3e-7;

/// One obstacle of a layer: a convex polygon piece (counter-clockwise) or a circle.
#[derive(Debug, Clone, PartialEq)]
pub enum Obstacle {
    Polygon(Ring),
    Circle([f64; 3]),
}

/// The lowest vertex first (the leftmost of a bottom edge level up to rounding): the Python
/// engine's `convex_sum.start`.
fn from_lowest(c: &[Pt]) -> Vec<Pt> {
    let ymin = c.iter().map(|p| p[1]).fold(f64::INFINITY, f64::min);
    let amax = c.iter().flat_map(|p| [p[0].abs(), p[1].abs()]).fold(0.0, f64::max);
    let tol = 1e-12 * amax.max(1.0);
    let mut k = 0;
    let mut best = f64::INFINITY;
    for (i, p) in c.iter().enumerate() {
        if p[1] <= ymin + tol && p[0] < best {
            best = p[0];
            k = i;
        }
    }
    c[k..].iter().chain(&c[..k]).copied().collect()
}

/// The Minkowski sum of two convex counter-clockwise polygons, exactly: their edges merged by
/// direction from the lowest vertices (the Python engine's `cspace.convex_sum`, step by step).
pub fn convex_sum(a: &[Pt], b: &[Pt]) -> Ring {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let (a, b) = (from_lowest(a), from_lowest(b));
    let edges = |c: &[Pt]| -> Vec<Pt> {
        (0..c.len()).map(|i| {
            let q = c[(i + 1) % c.len()];
            [q[0] - c[i][0], q[1] - c[i][1]]
        }).collect()
    };
    let mut e = edges(&a);
    e.extend(edges(&b));
    let two_pi = 2.0 * PI;
    let ang: Vec<f64> = e.iter().map(|d| {
        let t = d[1].atan2(d[0]);
        // numpy's mod: the result takes the divisor's sign
        let m = t - two_pi * (t / two_pi).floor();
        let m = if m >= two_pi { m - two_pi } else { m };
        if m > two_pi - 1e-12 { 0.0 } else { m }
    }).collect();
    let mut order: Vec<usize> = (0..e.len()).collect();
    order.sort_by(|&i, &j| ang[i].partial_cmp(&ang[j]).unwrap_or(std::cmp::Ordering::Equal));
    let (x0, y0) = (a[0][0] + b[0][0], a[0][1] + b[0][1]);
    let mut out = Vec::with_capacity(e.len());
    let (mut sx, mut sy) = (0.0, 0.0);
    out.push([x0, y0]);
    for &k in &order[..order.len() - 1] {
        sx += e[k][0];
        sy += e[k][1];
        out.push([x0 + sx, y0 + sy]);
    }
    out
}

/// Centres at which a footprint made of the convex `foot` pieces meets an obstacle (the Python
/// engine's `cspace.grow`): for each obstacle (in order) and piece `F`, the obstacle grown by
/// `-F` (a polygon: [`convex_sum`]; a circle: `-F` offset by its radius, corners by tangent
/// segments turning at most `max_step`, moved to its centre). The rings and, for each, its
/// obstacle and piece.
pub fn grow(obstacles: &[&Obstacle], foot: &[Ring], max_step: f64)
            -> Result<(Vec<Ring>, Vec<[usize; 2]>), Refused> {
    check("grown pieces", obstacles.len().saturating_mul(foot.len()), MAX_RINGS)?;
    let neg: Vec<Ring> = foot.iter().map(|f| f.iter().map(|p| [-p[0], -p[1]]).collect()).collect();
    let mut offsets: Vec<(usize, f64, Ring)> = Vec::new();
    let mut rings = Vec::with_capacity(obstacles.len() * foot.len());
    let mut pairs = Vec::with_capacity(obstacles.len() * foot.len());
    let mut vertices = 0usize;
    for (i, o) in obstacles.iter().enumerate() {
        for (j, f) in neg.iter().enumerate() {
            let ring = match o {
                Obstacle::Circle([x, y, r]) => {
                    let local = match offsets.iter().find(|(jj, rr, _)| *jj == j && *rr == *r) {
                        Some((_, _, g)) => g.clone(),
                        None => {
                            let g = if *r > 0.0 { offset_convex(f, *r, max_step) } else { f.clone() };
                            offsets.push((j, *r, g.clone()));
                            g
                        }
                    };
                    local.iter().map(|p| [p[0] + x, p[1] + y]).collect()
                }
                Obstacle::Polygon(a) => convex_sum(a, f),
            };
            vertices += ring.len();
            check("grown vertices", vertices, MAX_OVERLAY_VERTICES)?;
            rings.push(ring);
            pairs.push([i, j]);
        }
    }
    Ok((rings, pairs))
}

/// A convex counter-clockwise ring moved out by `d` (each edge by `d`; a corner sharper than
/// 120 degrees squared off at `d`): it holds every point within `d` of the ring.
pub fn inflate_convex(ring: &[Pt], d: f64) -> Ring {
    let n = ring.len();
    let mut pts: Vec<Pt> = Vec::with_capacity(n);
    let mut dirs: Vec<Pt> = Vec::with_capacity(n);
    for i in 0..n {
        let q = ring[(i + 1) % n];
        let (ex, ey) = (q[0] - ring[i][0], q[1] - ring[i][1]);
        let l = (ex * ex + ey * ey).sqrt();
        if l > 1e-12 {
            pts.push(ring[i]);
            dirs.push([ex / l, ey / l]);
        }
    }
    let m = pts.len();
    if m < 3 {
        // a point or a segment: its box moved out by d
        let (mut x0, mut y0, mut x1, mut y1) = (f64::INFINITY, f64::INFINITY, -f64::INFINITY,
                                                -f64::INFINITY);
        for p in ring {
            (x0, y0, x1, y1) = (x0.min(p[0]), y0.min(p[1]), x1.max(p[0]), y1.max(p[1]));
        }
        return vec![[x0 - d, y0 - d], [x1 + d, y0 - d], [x1 + d, y1 + d], [x0 - d, y1 + d]];
    }
    let mut out = Vec::with_capacity(m + 4);
    for i in 0..m {
        let u1 = dirs[(i + m - 1) % m];
        let u2 = dirs[i];
        let (n1, n2) = ([u1[1], -u1[0]], [u2[1], -u2[0]]);
        let c = 1.0 + n1[0] * n2[0] + n1[1] * n2[1];
        let v = pts[i];
        if c >= 0.5 {
            let s = d / c;
            out.push([v[0] + s * (n1[0] + n2[0]), v[1] + s * (n1[1] + n2[1])]);
        } else {
            out.push([v[0] + d * (n1[0] + u1[0]), v[1] + d * (n1[1] + u1[1])]);
            out.push([v[0] + d * (n2[0] - u2[0]), v[1] + d * (n2[1] - u2[1])]);
        }
    }
    out
}

/// The unions of the circles grown by a turn's sweep about the origin at facing 0, one a
/// sweep and radius, kept for the steps of a facing grid (each step's sweep is the same sweep
/// turned to the step's first facing, and a circle turned about its centre is itself: the
/// union a step needs is the kept one turned; the Python engine's `TurnMap._circle_sweep`).
/// At most [`SweepUnions::SLOTS`]; the oldest forgotten first.
#[derive(Default)]
pub struct SweepUnions {
    kept: Mutex<Vec<KeptUnion>>,
}

/// A sweep at facing 0, the bits of its `max_step` and of the radius, and the union.
type KeptUnion = (Vec<Ring>, u64, u64, Vec<Poly>);

impl SweepUnions {
    /// How many unions are kept (a few radii for each of a few turns).
    pub const SLOTS: usize = 64;

    /// The kept union for the sweep `foot0` (facing 0), `max_step` and radius `r`, or the one
    /// `make` builds (then kept). `make` runs outside the lock: two threads asking at once may
    /// both build it (the same union).
    fn get_or_make(&self, foot0: &[Ring], max_step: f64, r: f64,
                   make: impl FnOnce() -> Result<Vec<Poly>, Refused>) -> Result<Vec<Poly>, Refused> {
        let (ms, rb) = (max_step.to_bits(), r.to_bits());
        {
            let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((_, _, _, u)) = kept.iter()
                .find(|(f, m, rr, _)| *m == ms && *rr == rb && f.as_slice() == foot0) {
                return Ok(u.clone());
            }
        }
        let u = make()?;
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() >= Self::SLOTS {
            kept.remove(0);
        }
        kept.push((foot0.to_vec(), ms, rb, u.clone()));
        Ok(u)
    }
}

/// A step's sweep given as the same sweep at facing 0 (`foot0`) turned by `facing` degrees
/// (the Python engine's `cspace.turned`), with the kept unions of its circles.
pub struct Turned<'a> {
    pub foot0: &'a [Ring],
    pub facing: f64,
    pub kept: &'a SweepUnions,
}

/// `polys` turned by `facing` degrees about the origin (as `cspace.turned`).
fn turned_polys(polys: &[Poly], facing: f64) -> Vec<Poly> {
    let (s, c) = facing.to_radians().sin_cos();
    polys.iter()
        .map(|p| p.iter().map(|r| r.iter().map(|q| [q[0] * c - q[1] * s, q[0] * s + q[1] * c])
            .collect()).collect())
        .collect()
}

/// Where the footprint may turn through one step: the box `free` (its centres inside the
/// battlefield all through the turn) minus every obstacle grown by a piece of the sweep `foot`
/// (already turned to the step's first facing), each grown piece moved out by [`SAFE`] and
/// the box in by as much: never larger than the exact region. With `turned` (the same sweep
/// at facing 0 and the step's facing), each circle radius's union is the kept union of the
/// sweep at facing 0 turned (the grown pieces of a circle turn with the sweep: the same
/// guarantee, the union's rounding on the grid once as before).
pub fn turn_region(obstacles: &[&Obstacle], foot: &[Ring], free: [f64; 4], max_step: f64,
                   grid: &Grid, turned: Option<&Turned<'_>>) -> Result<Vec<Poly>, Refused> {
    let b = [free[0] + SAFE, free[1] + SAFE, free[2] - SAFE, free[3] - SAFE];
    if !(b[0] < b[2] && b[1] < b[3]) {
        return Ok(Vec::new());
    }
    let boxed: Vec<Poly> = vec![vec![vec![[b[0], b[1]], [b[2], b[1]], [b[2], b[3]], [b[0], b[3]]]]];
    check("grown pieces", obstacles.len().saturating_mul(foot.len()), MAX_RINGS)?;
    // each obstacle's grown pieces overlap one another a lot: their union first (a circle's
    // once per radius, about the origin, then moved to each centre; as the Python engine's
    // `_circle_sweep`), so the last overlay sees one outline an obstacle
    let local_grid = Grid { ox: 0.0, oy: 0.0, scale: grid.scale };
    let union_of = |rings: Vec<Ring>, g: &Grid| -> Result<Vec<Poly>, Refused> {
        let polys: Vec<Poly> = rings.into_iter().filter(|r| r.len() >= 3)
            .map(|r| vec![inflate_convex(&r, SAFE)]).collect();
        if polys.len() == 1 {
            return Ok(polys);
        }
        booleans::overlay(g, &polys, &[], Op::Union)
    };
    let mut by_radius: Vec<(f64, Vec<Poly>)> = Vec::new();
    let mut clip: Vec<Poly> = Vec::new();
    let mut vertices = 0usize;
    for o in obstacles {
        let grown: Vec<Poly> = match o {
            Obstacle::Circle([x, y, r]) => {
                let local = match by_radius.iter().find(|(rr, _)| rr == r) {
                    Some((_, u)) => u.clone(),
                    None => {
                        let origin = Obstacle::Circle([0.0, 0.0, *r]);
                        let u = match turned {
                            Some(t) => turned_polys(&t.kept.get_or_make(t.foot0, max_step, *r, || {
                                let (rings, _) = grow(&[&origin], t.foot0, max_step)?;
                                union_of(rings, &local_grid)
                            })?, t.facing),
                            None => {
                                let (rings, _) = grow(&[&origin], foot, max_step)?;
                                union_of(rings, &local_grid)?
                            }
                        };
                        by_radius.push((*r, u.clone()));
                        u
                    }
                };
                local.into_iter()
                    .map(|p| p.into_iter()
                        .map(|ring| ring.into_iter().map(|q| [q[0] + x, q[1] + y]).collect())
                        .collect())
                    .collect()
            }
            Obstacle::Polygon(_) => {
                let (rings, _) = grow(&[*o], foot, max_step)?;
                let rb = booleans::bounds(&rings.iter().map(|r| vec![r.clone()]).collect::<Vec<_>>());
                if !boxes_meet(rb, b) {
                    continue;
                }
                union_of(rings, grid)?
            }
        };
        for p in grown {
            if p.is_empty() || !boxes_meet(booleans::bounds(std::slice::from_ref(&p)), b) {
                continue;
            }
            vertices += p.iter().map(|r| r.len()).sum::<usize>();
            check("turn region vertices", vertices, MAX_OVERLAY_VERTICES)?;
            clip.push(p);
        }
    }
    if clip.is_empty() {
        return Ok(boxed);
    }
    booleans::overlay(grid, &boxed, &clip, Op::Difference)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::booleans::{area, contains, ring_area};

    fn square(x0: f64, y0: f64, x1: f64, y1: f64) -> Ring {
        vec![[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
    }

    #[test]
    fn the_sum_of_two_squares_is_a_square() {
        let s = convex_sum(&square(0.0, 0.0, 1.0, 1.0), &square(-1.0, -1.0, 1.0, 1.0));
        assert!((ring_area(&s) - 9.0).abs() < 1e-12, "{s:?}");
        assert_eq!(s[0], [-1.0, -1.0]);
        // a triangle and a square: 4 + 3 edges, area = |A| + |B| + mixed
        let t = vec![[0.0, 0.0], [2.0, 0.0], [0.0, 2.0]];
        let s = convex_sum(&t, &square(0.0, 0.0, 1.0, 1.0));
        assert!(s.len() <= 7 && s.len() >= 5);
        assert!((ring_area(&s) - (2.0 + 1.0 + 2.0 + 2.0)).abs() < 1e-12, "{}", ring_area(&s));
    }

    #[test]
    fn a_circle_grows_by_the_footprint_reflected() {
        let foot = vec![square(0.0, -1.0, 3.0, 1.0)];
        let o = Obstacle::Circle([10.0, 10.0, 1.0]);
        let (rings, pairs) = grow(&[&o], &foot, PI / 16.0).unwrap();
        assert_eq!(pairs, vec![[0, 0]]);
        // -F is 3 x 2 to the left of the centre, grown by the radius: never smaller
        let a = ring_area(&rings[0]);
        assert!((6.0 + 2.0 * 5.0 + PI..6.0 + 10.0 + PI * 1.01).contains(&a), "{a}");
        assert!(contains(&vec![rings[0].clone()], [10.0 - 3.5, 10.0]));
        assert!(!contains(&vec![rings[0].clone()], [10.0 + 1.5, 10.0]));
    }

    #[test]
    fn an_inflated_ring_holds_the_ring_grown_by_d() {
        let t = vec![[0.0, 0.0], [10.0, 0.0], [0.0, 0.1]]; // a needle
        let g = inflate_convex(&t, 0.01);
        for (k, p) in [[-0.0099, -0.0099], [10.0099, 0.0], [5.0, 0.0599], [0.0, 0.1099]].iter()
            .enumerate()
        {
            assert!(contains(&vec![g.clone()], *p), "{k}");
        }
        assert!(!contains(&vec![g.clone()], [-0.03, 0.0]));
    }

    #[test]
    fn a_circles_union_kept_at_facing_0_and_turned_is_the_steps_own() {
        // an L of two convex pieces, circles of two radii: each step's region from the unions
        // kept at facing 0 and turned is the one made from the step's own sweep, within the
        // grid's rounding, and the unions are made once a radius
        let grid = Grid::for_box([0.0, 0.0, 30.0, 22.0], 1.0).unwrap();
        let foot0 = vec![square(-1.0, -1.0, 2.0, 0.0), square(-1.0, 0.0, 0.0, 2.0)];
        let circles: Vec<Obstacle> = [[8.0, 7.0, 0.63], [12.0, 9.5, 0.63], [20.0, 14.0, 1.0],
                                      [9.0, 15.0, 1.0]]
            .into_iter().map(Obstacle::Circle).collect();
        let items: Vec<&Obstacle> = circles.iter().collect();
        let kept = SweepUnions::default();
        for facing in [0.0, 15.0, 37.5, 142.0, 300.0] {
            let (s, c) = f64::to_radians(facing).sin_cos();
            let foot: Vec<Ring> = foot0.iter()
                .map(|r| r.iter().map(|q| [q[0] * c - q[1] * s, q[0] * s + q[1] * c]).collect())
                .collect();
            let free = [3.0, 3.0, 27.0, 19.0];
            let own = turn_region(&items, &foot, free, PI / 16.0, &grid, None).unwrap();
            let t = Turned { foot0: &foot0, facing, kept: &kept };
            let got = turn_region(&items, &foot, free, PI / 16.0, &grid, Some(&t)).unwrap();
            let (a, b) = (area(&own), area(&got));
            assert!(a > 300.0 && (a - b).abs() < 1e-5, "{facing}: {a} {b}");
            // the same holes: the points well inside either are inside both
            for p in [[8.0, 7.0], [20.0, 14.0], [5.0, 5.0], [26.0, 18.0]] {
                assert_eq!(contains(&own[0], p), contains(&got[0], p), "{facing} {p:?}");
            }
        }
        assert_eq!(kept.kept.lock().unwrap().len(), 2);
    }

    #[test]
    fn a_turn_region_is_the_box_less_the_grown_obstacles() {
        let grid = Grid::for_box([0.0, 0.0, 20.0, 20.0], 1.0).unwrap();
        let o = Obstacle::Polygon(square(8.0, 8.0, 12.0, 12.0));
        let foot = vec![square(-1.0, -1.0, 1.0, 1.0)];
        let got = turn_region(&[&o], &foot, [0.0, 0.0, 20.0, 20.0], PI / 16.0, &grid, None).unwrap();
        let exact = 400.0 - 36.0;
        let a = area(&got);
        assert!(a <= exact && a > exact - 1e-4, "{a}");
        assert!(!contains(&got[0], [7.0 + 1e-6, 10.0]));
        assert!(contains(&got[0], [7.0 - 1e-6, 10.0]));
        // an empty box, no obstacles
        assert!(turn_region(&[&o], &foot, [5.0, 5.0, 5.0, 9.0], PI / 16.0, &grid, None).unwrap().is_empty());
        let all = turn_region(&[], &foot, [0.0, 0.0, 20.0, 20.0], PI / 16.0, &grid, None).unwrap();
        assert!((area(&all) - 400.0).abs() < 1e-4);
    }
}
