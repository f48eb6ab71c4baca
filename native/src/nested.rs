//! Stars that add nothing to a union: a star lying inside another star of the same union. A
//! turning mover's layer casts many from its turn nodes: about half of a bike's layer's stars
//! on a real layout lie inside one other (thin wedges at corners the source sees past, smaller
//! wedges at a corner reached from another turn node, turn nodes' disks inside a larger one).
//!
//! A star is star-shaped about its centre (a wedge's apex, a disk's source): the set of
//! points `c + t u(θ)`, `0 <= t <= ρ(θ)`, over its phases `θ`, with `ρ` following its chain of
//! vertices. A segment lies inside it when its own `ρ` (seen from `c`) is at most the star's at
//! every phase it spans. Between two neighbouring phases of the segment's ends and the star's
//! vertices both are one straight line, and `1 / ρ` along a line is `α cos θ + β sin θ`: the
//! difference of two changes sign at most once a half turn, so it is enough to compare them at
//! the segment's ends and at the star's vertices it spans (a segment spanning nearly a half
//! turn is not tested).
//! A star lies inside when every edge of it does. One is dropped only when that holds within
//! [`SLACK`] (its points lie within that of the star that holds it), so the union is the same
//! point set within [`SLACK`], far below the integer grid's unit.

use crate::booleans::{ring_bounds, Pt, Ring};
use crate::rays::Wedge;

const TWO_PI: f64 = 2.0 * std::f64::consts::PI;

/// How far (inches) a dropped star's points may lie outside the star that holds it.
pub const SLACK: f64 = 1e-9;

/// How far (radians) a point may pass a wedge's sides (the float rounding of its start and
/// sweep, a ray's end moved onto an outline vertex): at the board's scale a few 1e-9" at most.
const PHASE_SLACK: f64 = 1e-10;

/// Phases below this wrap round (a sector's vertices a hair before its start still count as at
/// its start).
const BEFORE: f64 = 0.25;

/// The widest angle (seen from a star's centre) a segment tested against it may span.
const WIDEST: f64 = 0.9 * std::f64::consts::PI;

/// How many of the largest stars every star is tested against (by box), besides the larger ones
/// from its own apex.
const LARGEST: usize = 32;

/// How many stars that might hold it a star is tested against at most: bounds the work.
const TRIES: usize = 8;

/// How many of the larger stars from its apex a star looks at (their boxes) at most.
const FROM_ITS_APEX: usize = 64;

/// Empties every star lying inside another star (module docstring); returns how many.
/// `stars[k]` is `wedges[k]`'s outline (apex first unless a whole disk).
pub fn drop_nested(stars: &mut [Ring], wedges: &[Wedge]) -> usize {
    let n = stars.len().min(wedges.len());
    let boxes: Vec<[f64; 4]> = stars[..n].iter().map(|r| ring_bounds(r)).collect();
    let area = |k: usize| (boxes[k][2] - boxes[k][0]) * (boxes[k][3] - boxes[k][1]);
    let live: Vec<usize> = (0..n).filter(|&k| stars[k].len() >= 3).collect();
    if live.len() < 2 {
        return 0;
    }
    // the largest stars (by box), and each wedge's neighbours at its apex (larger first)
    let mut largest = live.clone();
    largest.sort_unstable_by(|&a, &b| area(b).total_cmp(&area(a)));
    largest.truncate(LARGEST);
    let apex = |k: usize| (wedges[k].apex[0].to_bits(), wedges[k].apex[1].to_bits());
    let mut by_apex: Vec<usize> = live.iter().copied().filter(|&k| !wedges[k].full).collect();
    by_apex.sort_unstable_by(|&a, &b| {
        apex(a).cmp(&apex(b)).then(wedges[b].radius.total_cmp(&wedges[a].radius))
    });
    let mut group = vec![(0usize, 0usize); n];
    let mut s = 0;
    while s < by_apex.len() {
        let mut e = s + 1;
        while e < by_apex.len() && apex(by_apex[e]) == apex(by_apex[s]) {
            e += 1;
        }
        for &k in &by_apex[s..e] {
            group[k] = (s, e);
        }
        s = e;
    }
    let mut shapes: Vec<Option<Option<Radial>>> = (0..n).map(|_| None).collect();
    let mut order = live;
    order.sort_unstable_by(|&a, &b| area(a).total_cmp(&area(b)));
    let mut dropped = 0;
    for &b in &order {
        let (gs, ge) = group[b];
        let candidates = largest.iter().chain(by_apex[gs..ge].iter().take(FROM_ITS_APEX)).copied();
        let mut tried = 0;
        for a in candidates {
            if a == b || stars[a].is_empty() || area(a) < area(b)
                || !box_holds(&boxes[a], &boxes[b])
            {
                continue;
            }
            if tried == TRIES {
                break;
            }
            tried += 1;
            let shape = shapes[a].get_or_insert_with(|| Radial::new(&stars[a], &wedges[a]));
            if shape.as_ref().is_some_and(|r| r.holds(&stars[b])) {
                stars[b].clear();
                dropped += 1;
                break;
            }
        }
    }
    dropped
}

fn box_holds(a: &[f64; 4], b: &[f64; 4]) -> bool {
    b[0] >= a[0] - SLACK && b[1] >= a[1] - SLACK && b[2] <= a[2] + SLACK && b[3] <= a[3] + SLACK
}

fn cross(p: Pt, q: Pt) -> f64 {
    p[0] * q[1] - p[1] * q[0]
}

fn norm(p: Pt) -> f64 {
    (p[0] * p[0] + p[1] * p[1]).sqrt()
}

/// A star seen from its centre: its vertices (relative to the centre, the apex left out) in
/// increasing phase.
pub struct Radial {
    centre: Pt,
    start: f64,
    side: f64,
    /// a whole disk's chain closes on itself; a sector's spans `phase[0]..=phase[last]`
    full: bool,
    phase: Vec<f64>,
    pts: Vec<Pt>,
    /// the farthest vertex's distance from the centre: no point beyond it is inside
    reach: f64,
}

impl Radial {
    /// `ring` (wedge `w`'s star) seen from its centre; `None` when its chain is not in phase
    /// order or a vertex after the apex is at the centre (a ray stopped there).
    pub fn new(ring: &Ring, w: &Wedge) -> Option<Radial> {
        let centre = w.apex;
        let side = if w.sweep < 0.0 { -1.0 } else { 1.0 };
        let chain = if w.full { &ring[..] } else { &ring[1..] };
        if ring.len() < 3 || (!w.full && ring[0] != centre) {
            return None;
        }
        let mut r = Radial { centre, start: w.start, side, full: w.full, phase: Vec::new(),
                             pts: Vec::with_capacity(chain.len()), reach: 0.0 };
        for v in chain {
            let p = [v[0] - centre[0], v[1] - centre[1]];
            if !(norm(p) > SLACK) {
                return None;
            }
            r.reach = r.reach.max(norm(p));
            r.pts.push(p);
        }
        r.phase = r.pts.iter().map(|&p| r.phase_of(p)).collect();
        let n = r.phase.len();
        if r.phase[0] > r.phase[n - 1] && !r.full {
            r.phase.reverse();
            r.pts.reverse();
        }
        if r.full {
            // a closed chain: begin at its least phase, increasing (counter-clockwise rings)
            let first = (0..n).min_by(|&a, &b| r.phase[a].total_cmp(&r.phase[b])).unwrap();
            r.phase.rotate_left(first);
            r.pts.rotate_left(first);
        }
        let steps_ok = r.phase.windows(2).all(|p| p[0] <= p[1] && p[1] - p[0] <= WIDEST);
        // (a disk's chain closes within a half turn; a sector stops short of wrapping round)
        let closes = if r.full {
            r.phase[0] + TWO_PI - r.phase[n - 1] <= WIDEST
        } else {
            r.phase[n - 1] <= TWO_PI - 2.0 * BEFORE
        };
        (steps_ok && closes).then_some(r)
    }

    fn phase_of(&self, p: Pt) -> f64 {
        let t = self.side * (p[1].atan2(p[0]) - self.start);
        if self.full {
            t.rem_euclid(TWO_PI)
        } else {
            (t + BEFORE).rem_euclid(TWO_PI) - BEFORE
        }
    }

    /// The chain's segment `(i, i + 1)` (cyclically for a disk) holding phase `t`, or `None`
    /// past a sector's ends (beyond [`PHASE_SLACK`]); at a vertex's phase, that vertex's
    /// index twice.
    fn segment(&self, t: f64) -> Option<(usize, usize)> {
        let n = self.phase.len();
        let (first, last) = (self.phase[0], self.phase[n - 1]);
        if !self.full {
            if t < first - PHASE_SLACK || t > last + PHASE_SLACK {
                return None;
            }
            let t = t.clamp(first, last);
            let i = self.phase.partition_point(|&p| p < t);
            return Some(if self.phase[i] == t { (i, i) } else { (i - 1, i) });
        }
        let i = self.phase.partition_point(|&p| p < t);
        if i < n && self.phase[i] == t {
            return Some((i, i));
        }
        Some(if i == 0 || i == n { (n - 1, 0) } else { (i - 1, i) })
    }

    /// Whether point `p` (relative to the centre, at phase `t`) lies inside within [`SLACK`].
    fn holds_point(&self, p: Pt, t: f64) -> bool {
        let r = norm(p);
        if r <= SLACK {
            return true;
        }
        let Some((i, j)) = self.segment(t) else {
            return false;
        };
        if i == j {
            // at a vertex's phase: the least reach of the radial steps there
            let n = self.pts.len();
            let mut reach = norm(self.pts[i]);
            for k in [i.checked_sub(1), Some(i + 1).filter(|&k| k < n)].into_iter().flatten() {
                if self.phase[k] == self.phase[i] {
                    reach = reach.min(norm(self.pts[k]));
                }
            }
            return r <= reach + SLACK;
        }
        // where the ray through p meets the segment: s times p
        let (a, b) = (self.pts[i], self.pts[j]);
        let d = [b[0] - a[0], b[1] - a[1]];
        let den = cross(p, d);
        if den.abs() <= 1e-300 {
            return r <= norm(a).min(norm(b)) + SLACK;
        }
        let s = cross(a, d) / den;
        s > 0.0 && r <= s * r + SLACK
    }

    /// Whether the segment `p`-`q` (relative to the centre, at phases `tp`, `tq`), whose ends
    /// lie inside, lies inside within [`SLACK`].
    fn holds_segment(&self, p: Pt, tp: f64, q: Pt, tq: f64) -> bool {
        if norm(p) <= SLACK || norm(q) <= SLACK {
            return true; // radial from the centre: its ends tell
        }
        let mut span = tq - tp;
        if self.full {
            span = (span + std::f64::consts::PI).rem_euclid(TWO_PI) - std::f64::consts::PI;
        }
        if span.abs() > WIDEST {
            return false;
        }
        let (lo, hi) = if span >= 0.0 { (tp, tp + span) } else { (tp + span, tp) };
        let d = [q[0] - p[0], q[1] - p[1]];
        let num = cross(p, d);
        // the star's vertices strictly between the two phases: the segment no farther out
        let beyond = |k: usize| {
            let v = self.pts[k];
            let den = cross(v, d);
            // (a vertex on the segment's line through the centre: the segment is radial there)
            den.abs() > 1e-300 && num / den > 1.0 + SLACK / norm(v)
        };
        let range = |lo: f64, hi: f64| {
            let a = self.phase.partition_point(|&x| x <= lo);
            let b = self.phase.partition_point(|&x| x < hi);
            a..b.max(a)
        };
        if self.full && (lo < 0.0 || hi >= TWO_PI) {
            let (l, h) = (lo.rem_euclid(TWO_PI), hi.rem_euclid(TWO_PI));
            return !range(l, TWO_PI).chain(range(-1.0, h)).any(beyond);
        }
        !range(lo, hi).any(beyond)
    }

    /// Whether `ring` lies inside within [`SLACK`]: every vertex, then every edge of it does.
    pub fn holds(&self, ring: &Ring) -> bool {
        let n = ring.len();
        if n < 3 {
            return false;
        }
        let c = self.centre;
        let pts: Vec<Pt> = ring.iter().map(|v| [v[0] - c[0], v[1] - c[1]]).collect();
        // (first the cheap test: every vertex within the farthest vertex's distance)
        let far = (self.reach + SLACK) * (self.reach + SLACK);
        if pts.iter().any(|p| p[0] * p[0] + p[1] * p[1] > far) {
            return false;
        }
        let mut phases = Vec::with_capacity(n);
        for &p in &pts {
            let t = self.phase_of(p);
            if !self.holds_point(p, t) {
                return false;
            }
            phases.push(t);
        }
        (0..n).all(|k| {
            let j = (k + 1) % n;
            self.holds_segment(pts[k], phases[k], pts[j], phases[j])
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sector(apex: Pt, r: f64, start: f64, sweep: f64, n: usize) -> (Ring, Wedge) {
        let mut ring = vec![apex];
        for k in 0..=n {
            let t = start + sweep * (1e-9 + (1.0 - 2e-9) * k as f64 / n as f64);
            ring.push([apex[0] + r * t.cos(), apex[1] + r * t.sin()]);
        }
        let w = Wedge { apex, radius: r, start, sweep, full: false, prev: apex, next: apex };
        (ring, w)
    }

    fn disk(c: Pt, r: f64, n: usize) -> (Ring, Wedge) {
        let ring = (0..n)
            .map(|k| {
                let t = TWO_PI * k as f64 / n as f64;
                [c[0] + r * t.cos(), c[1] + r * t.sin()]
            })
            .collect();
        let w = Wedge { apex: c, radius: r, start: 0.0, sweep: TWO_PI, full: true, prev: c,
                        next: c };
        (ring, w)
    }

    fn holds(a: &(Ring, Wedge), b: &Ring) -> bool {
        Radial::new(&a.0, &a.1).is_some_and(|r| r.holds(b))
    }

    #[test]
    fn a_smaller_narrower_sector_from_the_apex_lies_inside() {
        let a = sector([1.0, 2.0], 5.0, 0.3, 1.2, 40);
        assert!(holds(&a, &sector([1.0, 2.0], 4.9, 0.5, 0.8, 30).0));
        // wider, longer, or from another apex: not inside
        assert!(!holds(&a, &sector([1.0, 2.0], 4.9, 0.2, 0.8, 30).0));
        assert!(!holds(&a, &sector([1.0, 2.0], 5.1, 0.5, 0.8, 30).0));
        assert!(!holds(&a, &sector([1.0, 1.0], 4.0, 0.5, 0.8, 30).0));
        // from another apex inside a
        assert!(holds(&a, &sector([3.0, 4.0], 1.0, 0.4, 0.5, 10).0));
    }

    #[test]
    fn the_same_radius_on_other_chords_is_not_inside() {
        // b's arc vertices lie on a's circle between a's chords: outside a by the chords' sag
        let a = sector([0.0, 0.0], 5.0, 0.0, 1.0, 10);
        assert!(!holds(&a, &sector([0.0, 0.0], 5.0, 0.05, 0.9, 13).0));
        // within a's chords (the sag of 10 chords over 1 radian of radius 5 is 0.031)
        assert!(holds(&a, &sector([0.0, 0.0], 4.96, 0.05, 0.9, 13).0));
        // a chord of b crossing a's vertex: b's ends inside, a's vertex nearer than b's chord
        let (mut b, _) = sector([0.0, 0.0], 4.0, 0.1, 0.8, 2);
        b[2] = [4.999 * 0.5f64.cos(), 4.999 * 0.5f64.sin()];
        let notched = {
            let mut r = a.clone();
            r.0.insert(6, [4.9 * 0.5f64.cos(), 4.9 * 0.5f64.sin()]);
            r
        };
        assert!(!holds(&notched, &b));
    }

    #[test]
    fn an_edge_passing_a_notch_between_its_ends_is_not_inside() {
        // a's vertex at phase 0.5 pulled in to radius 2; b's vertices (phases 0.3 and 0.7,
        // radius 3) lie inside a, its chord between them (radius 2.94 at 0.5) does not
        let mut a = sector([0.0, 0.0], 5.0, 0.0, 1.0, 20);
        a.0[11] = [2.0 * 0.5f64.cos(), 2.0 * 0.5f64.sin()];
        let chord = vec![[0.0, 0.0], [3.0 * 0.3f64.cos(), 3.0 * 0.3f64.sin()],
                         [3.0 * 0.7f64.cos(), 3.0 * 0.7f64.sin()]];
        assert!(!holds(&a, &chord));
        // a disk's notch between the vertices of a triangle inside it, across its first phase
        let mut d = disk([0.0, 0.0], 5.0, 64);
        d.0[0] = [2.0, 0.0];
        let tri = vec![[3.0 * (-0.2f64).cos(), 3.0 * (-0.2f64).sin()],
                       [3.0 * 0.2f64.cos(), 3.0 * 0.2f64.sin()], [2.5, -0.3]];
        assert!(!holds(&d, &tri));
        let whole = disk([0.0, 0.0], 5.0, 64);
        assert!(holds(&whole, &tri));
    }

    #[test]
    fn turning_the_other_way_and_a_notch_in_the_larger() {
        // b described clockwise (negative sweep) over the same phases
        let a = sector([0.0, 0.0], 5.0, 0.0, 1.0, 20);
        let (mut b, _) = sector([0.0, 0.0], 3.0, 0.9, -0.8, 20);
        assert!(holds(&a, &b));
        // a notch in a (a vertex pulled in to radius 2) at a phase inside b's range
        let mut notched = a.clone();
        notched.0[10] = [2.0 * 0.45f64.cos(), 2.0 * 0.45f64.sin()];
        assert!(!holds(&notched, &b));
        // b's spike between a's vertices (a's chords are far out, b's vertex beyond a's reach)
        b[5] = [5.5 * 0.7f64.cos(), 5.5 * 0.7f64.sin()];
        assert!(!holds(&a, &b));
    }

    #[test]
    fn disks_hold_what_lies_inside_them_across_their_first_phase() {
        let a = disk([0.0, 0.0], 5.0, 64);
        // a sector crossing phase 0 (its chord edges span the wrap)
        assert!(holds(&a, &sector([1.0, 0.0], 3.0, -0.5, 1.0, 8).0));
        assert!(holds(&a, &disk([0.5, -0.5], 4.0, 32).0));
        assert!(!holds(&a, &disk([1.5, 0.0], 4.0, 32).0));
        assert!(!holds(&a, &sector([1.0, 0.0], 4.2, -0.5, 1.0, 8).0));
        // a disk holds no sector reaching past it, a sector no disk
        let s = sector([0.0, 0.0], 5.0, 0.0, 1.0, 20);
        assert!(holds(&s, &disk([3.0, 1.5], 0.3, 16).0));
        assert!(!holds(&s, &disk([3.0, 1.5], 2.0, 16).0));
    }

    #[test]
    fn drop_nested_keeps_the_largest_and_what_sticks_out() {
        let a = sector([0.0, 0.0], 5.0, 0.0, 1.0, 20);
        let b = sector([0.0, 0.0], 3.0, 0.1, 0.5, 20);
        let c = sector([1.0, 0.0], 3.0, 0.1, 0.5, 20); // inside a, another apex
        let d = sector([0.0, 0.0], 4.0, -0.5, 1.0, 20); // sticks out below
        let e = disk([2.5, 1.5], 0.5, 16); // inside a
        let mut stars = vec![b.0.clone(), a.0.clone(), c.0.clone(), d.0.clone(), e.0.clone()];
        let n = drop_nested(&mut stars, &[b.1, a.1, c.1, d.1, e.1]);
        assert_eq!(n, 3);
        assert!(stars[0].is_empty() && stars[2].is_empty() && stars[4].is_empty());
        assert_eq!((stars[1].len(), stars[3].len()), (a.0.len(), d.0.len()));
    }

    #[test]
    fn a_layers_union_is_the_same_without_the_stars_it_drops() {
        // a layer of many sources among square pieces (turn nodes along two lines, their
        // lengths growing along them, and a scatter): the union of the stars kept is the union
        // of all of them, up to the grid's rounding, and stars are dropped (not vacuous)
        use crate::booleans::{area, overlay, union_all, Grid, Op, Poly};
        use crate::pickup::tests::{apart_and_outline, map_of, square};
        use crate::rays::stars;
        use crate::search::search;
        use crate::wedges::wedges;
        let pieces = vec![square(6.0, 6.0, 9.0, 8.0), square(12.0, 3.0, 13.0, 11.0),
                          square(4.0, 12.0, 10.0, 13.0), square(15.0, 14.0, 18.0, 15.5)];
        let m = map_of(&pieces, [0.0, 0.0, 24.0, 20.0]);
        let g = Grid::for_box(m.bounds, 1.0).unwrap();
        let mut src: Vec<[f64; 3]> = vec![[2.0, 2.0, 0.0]];
        for k in 1..30 {
            let t = k as f64 * 0.3;
            src.push([2.0 + t, 2.0, t]); // along a straight run: each just held by the last
            src.push([11.5, 2.0 + t, 9.5 + 0.9 * t]);
        }
        let mut seed = 7u64;
        let mut rnd = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        for _ in 0..40 {
            src.push([1.0 + 22.0 * rnd(), 1.0 + 18.0 * rnd(), 2.0 + 8.0 * rnd()]);
        }
        let mut dropped_total = 0;
        for d in [6.0, 11.0, 16.0] {
            let s = search(&m.corners, &m.pieces, m.bounds, &src, d, 2).unwrap();
            let (w, _) = wedges(&s, &m.corners, &m.pieces, m.bounds, None);
            let all = stars(&m.outline, &w).unwrap();
            let mut kept = all.clone();
            let dropped = drop_nested(&mut kept, &w);
            dropped_total += dropped;
            let polys = |v: &[Ring]| -> Vec<Poly> {
                v.iter().filter(|r| r.len() >= 3).map(|r| vec![r.clone()]).collect()
            };
            let a = union_all(&g, polys(&all)).unwrap();
            let b = union_all(&g, polys(&kept)).unwrap();
            let (apart, length) = apart_and_outline(&g, &a, &b);
            assert!(apart < 3e-7 * length, "{d}: {apart} apart of {} ({dropped} dropped)",
                    area(&a));
            // and each dropped star lies inside the union of the others
            for (k, r) in all.iter().enumerate() {
                if kept[k].is_empty() && r.len() >= 3 {
                    let out = area(&overlay(&g, &[vec![r.clone()]], &b, Op::Difference).unwrap());
                    assert!(out < 1e-9, "{d}: star {k} sticks out by {out} sq in");
                }
            }
        }
        assert!(dropped_total > 20, "{dropped_total} dropped");
    }

    #[test]
    fn random_stars_said_inside_lie_inside() {
        // random star-shaped rings (sectors and disks with jagged radii) and random rings near
        // them: whenever `holds` says inside, Clipper2's difference leaves nothing
        use crate::booleans::{area, overlay, Grid, Op};
        let g = Grid::for_box([-10.0, -10.0, 10.0, 10.0], 1.0).unwrap();
        let mut seed = 11u64;
        let mut rnd = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let (mut inside, mut tried) = (0, 0);
        for case in 0..3000 {
            let full = case % 3 == 0;
            let (start, sweep) = (6.0 * rnd(), if full { TWO_PI } else { 0.3 + 2.5 * rnd() });
            let n = 5 + (30.0 * rnd()) as usize;
            let jag = rnd();
            let mut a: Ring = if full { vec![] } else { vec![[0.0, 0.0]] };
            let m = if full { n } else { n + 1 };
            for k in 0..m {
                let t = start + sweep * (1e-9 + (1.0 - 2e-9) * k as f64 / n as f64);
                let r = 5.0 * (1.0 - jag * rnd() * 0.6);
                a.push([r * t.cos(), r * t.sin()]);
            }
            let w = Wedge { apex: [0.0, 0.0], radius: 5.0, start, sweep, full, prev: [0.0, 0.0],
                            next: [0.0, 0.0] };
            let Some(shape) = Radial::new(&a, &w) else { continue };
            // b: a small jagged ring about a point within a's reach, or a's own sub-sector
            let b: Ring = if case % 2 == 0 {
                let t = start + sweep * rnd();
                let (c, rad) = ([3.0 * rnd() * t.cos(), 3.0 * rnd() * t.sin()], 0.2 + 1.5 * rnd());
                let k = 3 + (12.0 * rnd()) as usize;
                (0..k).map(|i| {
                    let u = TWO_PI * i as f64 / k as f64;
                    let r = rad * (0.5 + 0.5 * rnd());
                    [c[0] + r * u.cos(), c[1] + r * u.sin()]
                }).collect()
            } else {
                let (s0, s1) = (sweep * rnd() * 0.5, sweep * (0.5 + 0.5 * rnd()));
                let k = 2 + (10.0 * rnd()) as usize;
                let mut b = vec![[0.0, 0.0]];
                for i in 0..=k {
                    let t = start + s0 + (s1 - s0) * i as f64 / k as f64;
                    let r = 4.5 * (0.3 + 0.7 * rnd());
                    b.push([r * t.cos(), r * t.sin()]);
                }
                b
            };
            tried += 1;
            if shape.holds(&b) {
                inside += 1;
                let out = area(&overlay(&g, &[vec![b.clone()]], &[vec![a.clone()]], Op::Difference)
                    .unwrap());
                assert!(out < 1e-9, "case {case}: said inside, {out} sq in outside");
            }
        }
        assert!(inside > 100 && inside < tried, "{inside} of {tried} inside");
    }
}
