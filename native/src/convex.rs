//! Convex pieces of a polygon from its triangulation: neighbouring triangles merged greedily
//! while their union stays convex. The same merges, in the same order, as the Python engine's
//! `tabletop.geometry.polygons.merge_convex(..., by_edges=True)`, and the same pieces bit for
//! bit (each merged piece is the convex hull of its points, clockwise from its least point, as
//! GEOS's `normalize` writes it); a test of the Python package compares them on every layout's
//! terrain and on the footprints' swept areas.
//!
//! The triangles must be those of a triangulation in which every inner edge is a whole edge of
//! the triangles on both sides (GEOS's constrained Delaunay triangulation without flat
//! triangles): two pieces made of them meet along a stretch of boundary only where they share
//! a whole edge, and only such pairs are tried.

use std::collections::{HashMap, HashSet};

use crate::booleans::Pt;
use crate::limits::Refused;

/// A point as a map key: its coordinates' bits, -0.0 taken as 0.0 (as Python's tuples of
/// floats compare).
type Key = (u64, u64);

fn key(p: Pt) -> Key {
    ((p[0] + 0.0).to_bits(), (p[1] + 0.0).to_bits())
}

fn at(k: Key) -> Pt {
    [f64::from_bits(k.0), f64::from_bits(k.1)]
}

/// Most triangles one call merges (the pairs tried grow with their square at worst).
pub const MAX_TRIANGLES: usize = 20_000;

/// What became of the pieces: each is a triangle of the input left as it was
/// (`Kept(index)`) or a merged piece (`Merged(ring)`: the hull's vertices, clockwise from the
/// least point by x then y, without the closing point).
#[derive(Debug, Clone, PartialEq)]
pub enum Piece {
    Kept(usize),
    Merged(Vec<Pt>),
}

/// GEOS's area of a ring (its `Area::ofRing`, unsigned): the shoelace about the first point.
#[allow(clippy::needless_range_loop)] // (GEOS's loop, term for term)
fn ring_area(ring: &[Pt]) -> f64 {
    let n = ring.len();
    if n < 3 {
        return 0.0;
    }
    // the ring closed: ring[0] again after the last
    let y = |i: usize| ring[i % n][1];
    let x0 = ring[0][0];
    let mut sum = 0.0;
    for i in 1..n {
        let x = ring[i][0] - x0;
        sum += x * (y(i + 1) - y(i - 1));
    }
    (sum / 2.0).abs()
}

fn bounds(ring: &[Pt]) -> [f64; 4] {
    let mut b = [f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY];
    for p in ring {
        b[0] = b[0].min(p[0]);
        b[1] = b[1].min(p[1]);
        b[2] = b[2].max(p[0]);
        b[3] = b[3].max(p[1]);
    }
    b
}

fn orient(a: Pt, b: Pt, c: Pt) -> f64 {
    robust::orient2d(
        robust::Coord { x: a[0], y: a[1] },
        robust::Coord { x: b[0], y: b[1] },
        robust::Coord { x: c[0], y: c[1] },
    )
}

/// The convex hull of `pts` (its extreme points only, by exact orientation), clockwise from
/// the least point by x then y.
fn hull(pts: &[Pt]) -> Vec<Pt> {
    let mut p: Vec<Pt> = pts.to_vec();
    p.sort_by(|a, b| a[0].total_cmp(&b[0]).then(a[1].total_cmp(&b[1])));
    p.dedup_by(|a, b| a[0] == b[0] && a[1] == b[1]);
    if p.len() < 3 {
        return p;
    }
    // Andrew's monotone chain, counter-clockwise, collinear points left out
    let mut lower: Vec<Pt> = Vec::with_capacity(p.len());
    for &q in &p {
        while lower.len() >= 2 && orient(lower[lower.len() - 2], lower[lower.len() - 1], q) <= 0.0 {
            lower.pop();
        }
        lower.push(q);
    }
    let mut upper: Vec<Pt> = Vec::with_capacity(p.len());
    for &q in p.iter().rev() {
        while upper.len() >= 2 && orient(upper[upper.len() - 2], upper[upper.len() - 1], q) <= 0.0 {
            upper.pop();
        }
        upper.push(q);
    }
    lower.pop();
    upper.pop();
    lower.extend(upper);
    // clockwise from the least point: the first, then the rest backwards
    let mut cw = Vec::with_capacity(lower.len());
    cw.push(lower[0]);
    cw.extend(lower[1..].iter().rev());
    cw
}

/// A triangle's ring as each vertex's next, counter-clockwise (Python's `_ring_map`).
fn ring_map(t: &[Pt]) -> HashMap<Key, Key> {
    let mut ring: Vec<Pt> = t.to_vec();
    let n = ring.len();
    let twice: f64 = (0..n)
        .map(|i| ring[i][0] * ring[(i + 1) % n][1] - ring[(i + 1) % n][0] * ring[i][1])
        .sum();
    if twice < 0.0 {
        ring.reverse();
    }
    (0..n).map(|i| (key(ring[i]), key(ring[(i + 1) % n]))).collect()
}

/// Python's `_turns_right`: whether the union of two neighbouring convex pieces surely turns
/// right where their rings join, by more than rounding.
fn turns_right(a: &HashMap<Key, Key>, b: &HashMap<Key, Key>, bx: [f64; 4]) -> bool {
    let [x0, y0, x1, y1] = bx;
    let big = x0.abs().max(x1.abs()).max(y0.abs()).max(y1.abs());
    let slack = 2e-9 * 1f64.max((x1 - x0) * (y1 - y0)) + 1e-12 * big * big;
    let a_into: HashMap<Key, Key> = a.iter().map(|(&u, &v)| (v, u)).collect();
    let b_into: HashMap<Key, Key> = b.iter().map(|(&u, &v)| (v, u)).collect();
    for (&p, &q) in a {
        if b.get(&q) != Some(&p) {
            continue;
        }
        let ends = [(a_into.get(&p), p, b.get(&p)), (b_into.get(&q), q, a.get(&q))];
        for (u, v, w) in ends {
            let (Some(&u), Some(&w)) = (u, w) else { continue };
            if a.get(&w) == Some(&v) || b.get(&w) == Some(&v) || a.get(&v) == Some(&u)
                || b.get(&v) == Some(&u)
            {
                continue;
            }
            let (u, v, w) = (at(u), at(v), at(w));
            if (v[0] - u[0]) * (w[1] - v[1]) - (v[1] - u[1]) * (w[0] - v[0]) < -slack {
                return true;
            }
        }
    }
    false
}

struct Merger {
    parts: Vec<Vec<Pt>>,
    kept: Vec<Option<usize>>,
    ids: Vec<usize>,
    boxes: Vec<[f64; 4]>,
    areas: Vec<f64>,
    fresh: usize,
    failed: HashSet<(usize, usize)>,
    rings: HashMap<usize, HashMap<Key, Key>>,
    owner: HashMap<(Key, Key), usize>,
    nbrs: HashMap<usize, HashSet<usize>>,
}

impl Merger {
    /// Python's `_merged` on two pieces that share an edge: their hull when their union is
    /// convex (within 1e-12 of its area), else `None`.
    fn union_hull(&self, a: usize, b: usize) -> Option<Vec<Pt>> {
        let mut pts = self.parts[a].clone();
        pts.extend_from_slice(&self.parts[b]);
        let h = hull(&pts);
        let union = self.areas[a] + self.areas[b];
        let ha = ring_area(&h);
        (ha - union <= 1e-12 * ha.max(1.0)).then_some(h)
    }

    fn merged(&mut self, a: usize, b: usize) -> Option<Vec<Pt>> {
        let k = (self.ids[a], self.ids[b]);
        if self.failed.contains(&k) {
            return None;
        }
        let ([ax0, ay0, ax1, ay1], [bx0, by0, bx1, by1]) = (self.boxes[a], self.boxes[b]);
        let mut got = None;
        if ax0 <= bx1 && bx0 <= ax1 && ay0 <= by1 && by0 <= ay1
            && self.nbrs[&k.0].contains(&k.1)
            && !turns_right(&self.rings[&k.0], &self.rings[&k.1],
                            [ax0.min(bx0), ay0.min(by0), ax1.max(bx1), ay1.max(by1)])
        {
            got = self.union_hull(a, b);
        }
        if got.is_none() {
            self.failed.insert(k);
        }
        got
    }

    fn merge(&mut self, a: usize, b: usize, h: Vec<Pt>) {
        let (ka, kb) = (self.ids[a], self.ids[b]);
        let ra = self.rings.remove(&ka).unwrap();
        let rb = self.rings.remove(&kb).unwrap();
        let mut ring: HashMap<Key, Key> = HashMap::with_capacity(ra.len() + rb.len());
        for (&u, &v) in &ra {
            if rb.get(&v) != Some(&u) {
                ring.insert(u, v);
            }
        }
        for (&u, &v) in &rb {
            if ra.get(&v) != Some(&u) {
                ring.insert(u, v);
            }
        }
        for (&u, &v) in &ra {
            if rb.get(&v) == Some(&u) {
                self.owner.remove(&(u, v));
                self.owner.remove(&(v, u));
            }
        }
        let fresh = self.fresh;
        for (&u, &v) in &ring {
            self.owner.insert((u, v), fresh);
        }
        self.rings.insert(fresh, ring);
        let mut around: HashSet<usize> = self.nbrs.remove(&ka).unwrap_or_default();
        around.extend(self.nbrs.remove(&kb).unwrap_or_default());
        around.retain(|k| self.nbrs.contains_key(k));
        around.remove(&ka);
        around.remove(&kb);
        for k in &around {
            // (in a triangulation neighbours are mutual; a soup of triangles may name one
            // merged away already)
            if let Some(s) = self.nbrs.get_mut(k) {
                s.remove(&ka);
                s.remove(&kb);
                s.insert(fresh);
            }
        }
        self.nbrs.insert(fresh, around);
        self.boxes[a] = bounds(&h);
        self.areas[a] = ring_area(&h);
        self.parts[a] = h;
        self.kept[a] = None;
        self.ids[a] = fresh;
        self.fresh += 1;
        self.parts.remove(b);
        self.kept.remove(b);
        self.ids.remove(b);
        self.boxes.remove(b);
        self.areas.remove(b);
    }

    /// The pieces in `lo..hi` that could merge with piece `i`, in order.
    fn others(&self, i: usize, lo: usize, hi: usize) -> Vec<usize> {
        let mut js: Vec<usize> = self.nbrs[&self.ids[i]]
            .iter()
            .filter_map(|k| self.ids.iter().position(|id| id == k))
            .filter(|&j| lo <= j && j < hi)
            .collect();
        js.sort_unstable();
        js
    }
}

/// Merge the triangles `tris` greedily: scan the pairs `(i, j)`, `i < j`, in order and merge
/// the first whose union is convex, again and again until none is (after a merge into `i`,
/// the scan goes on from the first earlier piece that merges with the new one, else from `i`).
pub fn merge_triangles(tris: &[[Pt; 3]]) -> Result<Vec<Piece>, Refused> {
    if tris.len() > MAX_TRIANGLES {
        return Err(Refused(format!(
            "{} triangles to merge (at most {MAX_TRIANGLES})",
            tris.len()
        )));
    }
    if tris.iter().flatten().any(|p| !p[0].is_finite() || !p[1].is_finite()) {
        return Err(Refused("a coordinate is not finite".into()));
    }
    let n = tris.len();
    let rings: HashMap<usize, HashMap<Key, Key>> =
        (0..n).map(|k| (k, ring_map(&tris[k]))).collect();
    let mut owner: HashMap<(Key, Key), usize> = HashMap::new();
    for (&k, r) in &rings {
        for (&u, &v) in r {
            owner.insert((u, v), k);
        }
    }
    let mut nbrs: HashMap<usize, HashSet<usize>> = HashMap::with_capacity(n);
    for (&k, r) in &rings {
        let s = r.iter().filter_map(|(&u, &v)| owner.get(&(v, u)).copied()).collect();
        nbrs.insert(k, s);
    }
    let mut m = Merger {
        parts: tris.iter().map(|t| t.to_vec()).collect(),
        kept: (0..n).map(Some).collect(),
        ids: (0..n).collect(),
        boxes: tris.iter().map(|t| bounds(t)).collect(),
        areas: tris.iter().map(|t| ring_area(t)).collect(),
        fresh: n,
        failed: HashSet::new(),
        rings,
        owner,
        nbrs,
    };
    let mut i = 0;
    while i + 1 < m.parts.len() {
        let mut found = None;
        for j in m.others(i, i + 1, m.parts.len()) {
            if let Some(h) = m.merged(i, j) {
                found = Some((i, j, h));
                break;
            }
        }
        if found.is_none() {
            i += 1;
            continue;
        }
        while let Some((a, b, h)) = found {
            m.merge(a, b, h);
            i = a;
            found = None;
            for e in m.others(i, 0, i) {
                if let Some(h) = m.merged(e, i) {
                    found = Some((e, i, h));
                    break;
                }
            }
        }
    }
    Ok(m.parts
        .into_iter()
        .zip(m.kept)
        .map(|(p, k)| match k {
            Some(t) => Piece::Kept(t),
            None => Piece::Merged(p),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_square_of_two_triangles_is_one_piece() {
        let tris = [[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]], [[0.0, 0.0], [1.0, 1.0], [0.0, 1.0]]];
        let got = merge_triangles(&tris).unwrap();
        assert_eq!(got, vec![Piece::Merged(vec![[0.0, 0.0], [0.0, 1.0], [1.0, 1.0], [1.0, 0.0]])]);
    }

    #[test]
    fn an_l_is_two_pieces() {
        // an L: (0,0) (2,0) (2,1) (1,1) (1,2) (0,2), cut at the reflex vertex (1,1)
        let tris = [
            [[0.0, 0.0], [2.0, 0.0], [2.0, 1.0]],
            [[0.0, 0.0], [2.0, 1.0], [1.0, 1.0]],
            [[0.0, 0.0], [1.0, 1.0], [0.0, 2.0]],
            [[1.0, 1.0], [1.0, 2.0], [0.0, 2.0]],
        ];
        let got = merge_triangles(&tris).unwrap();
        assert_eq!(got.len(), 2);
        let total: f64 = got
            .iter()
            .map(|p| match p {
                Piece::Kept(t) => ring_area(&tris[*t]),
                Piece::Merged(r) => ring_area(r),
            })
            .sum();
        assert!((total - 3.0).abs() < 1e-12);
    }

    #[test]
    fn collinear_points_leave_the_hull() {
        let h = hull(&[[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0], [1.0, 1.0]]);
        assert_eq!(h, vec![[0.0, 0.0], [0.0, 2.0], [2.0, 2.0], [2.0, 0.0]]);
    }

    #[test]
    fn any_soup_of_triangles_is_answered_without_a_panic() {
        // not a triangulation: triangles sharing vertices of a small lattice at random (edges
        // shared by several, repeated triangles, huge and tiny coordinates): an answer, each
        // input triangle in at most one piece, no panic
        let mut seed = 7u64;
        let mut rnd = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        for case in 0..400 {
            let scale = [1.0, 1e-9, 1e150, 3.0][case % 4];
            let n = 1 + (40.0 * rnd()) as usize;
            let mut pt = || [scale * (4.0 * rnd()).floor(), scale * (4.0 * rnd()).floor()];
            let tris: Vec<[Pt; 3]> = (0..n).map(|_| [pt(), pt(), pt()]).collect();
            let got = merge_triangles(&tris).unwrap();
            let mut kept: Vec<usize> = got
                .iter()
                .filter_map(|p| if let Piece::Kept(k) = p { Some(*k) } else { None })
                .collect();
            kept.sort_unstable();
            kept.dedup();
            assert!(got.len() <= n && kept.iter().all(|&k| k < n));
        }
    }

    #[test]
    fn refuses_what_is_not_finite() {
        assert!(merge_triangles(&[[[0.0, 0.0], [f64::NAN, 0.0], [1.0, 1.0]]]).is_err());
    }
}
