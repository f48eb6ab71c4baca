//! The obstacles of one map as convex pieces, their bend corners and the corner graph (the port
//! of the Python engine's `tabletop.geometry.visibility`: the blocking test, the tangent test and
//! the corner-to-corner graph a search runs on).
//!
//! A segment is *blocked* when it meets a piece shrunk by [`ERODE`] (each piece is the
//! intersection of its edges' half-planes, each moved in by `ERODE`: a segment along an edge or
//! ending at a corner is free, one through the interior is not), or runs along the seam of two
//! pieces that touch or overlap by less than `2 ERODE` (points a little way off it on both sides
//! lie in pieces: inside their union). The Python engine tests against the union of the pieces
//! shrunk by `ERODE`, which blocks the same segments.

use crate::booleans::Pt;
use crate::limits::{check, Refused, MAX_GRAPH_EDGES, MAX_RINGS, MAX_VERTICES};

/// Inches by which pieces shrink for the blocking test (the Python engine's `ERODE`).
pub const ERODE: f64 = 1e-7;
/// The tangent test's tolerance on the sine between a line and a corner's edge.
const TURN_TOL: f64 = 1e-10;

#[inline]
pub fn hypot(x: f64, y: f64) -> f64 {
    (x * x + y * y).sqrt()
}

/// A uniform grid's cell size and shape for `items` things in a `w` x `h` box: about one
/// thing a cell, square cells, at most `max` cells a side (the grids of the pieces, the corners
/// and the outline's edges).
pub(crate) fn grid_shape(w: f64, h: f64, items: f64, max: usize) -> (f64, usize, usize) {
    let cell = ((w * h) / items.max(1.0)).sqrt().max(w.max(h) / max as f64).max(1e-6);
    (cell, ((w / cell).ceil() as usize).clamp(1, max), ((h / cell).ceil() as usize).clamp(1, max))
}

/// The cell `(i, j)` of a grid (origin, cell size, shape) holding `(x, y)`, clamped to it.
#[inline]
pub(crate) fn cell_index(origin: Pt, cell: f64, nx: usize, ny: usize, x: f64, y: f64)
                         -> (usize, usize) {
    let i = ((x - origin[0]) / cell).floor();
    let j = ((y - origin[1]) / cell).floor();
    ((i.max(0.0) as usize).min(nx - 1), (j.max(0.0) as usize).min(ny - 1))
}

/// Convex pieces as half-planes, with a uniform grid of their boxes.
pub struct Pieces {
    /// per piece: its half-planes `(nx, ny, c)` (inside: `nx x + ny y <= c`), outward normals
    planes: Vec<Vec<[f64; 3]>>,
    bbox: Vec<[f64; 4]>,
    x0: f64,
    y0: f64,
    cell: f64,
    nx: usize,
    ny: usize,
    cells: Vec<Vec<u32>>,
}

impl Pieces {
    /// From counter-clockwise convex rings (no repeated first point).
    pub fn new(rings: &[Vec<Pt>]) -> Result<Pieces, Refused> {
        check("pieces", rings.len(), MAX_RINGS)?;
        check("piece vertices", rings.iter().map(|r| r.len()).sum(), MAX_VERTICES)?;
        let mut planes = Vec::with_capacity(rings.len());
        let mut bbox = Vec::with_capacity(rings.len());
        let (mut gx0, mut gy0, mut gx1, mut gy1) = (f64::INFINITY, f64::INFINITY, -f64::INFINITY,
                                                    -f64::INFINITY);
        for ring in rings {
            if ring.iter().flatten().any(|v| !v.is_finite()) {
                return Err(Refused("a coordinate is not finite".into()));
            }
            let n = ring.len();
            let mut hp = Vec::with_capacity(n);
            let mut b = [f64::INFINITY, f64::INFINITY, -f64::INFINITY, -f64::INFINITY];
            // the ring's orientation (a clockwise ring is read the other way round)
            let area: f64 = (0..n).map(|i| {
                let (p, q) = (ring[i], ring[(i + 1) % n]);
                p[0] * q[1] - q[0] * p[1]
            }).sum();
            let s = if area < 0.0 { -1.0 } else { 1.0 };
            for i in 0..n {
                let (p, q) = (ring[i], ring[(i + 1) % n]);
                let (ex, ey) = (q[0] - p[0], q[1] - p[1]);
                let l = hypot(ex, ey);
                if l > 1e-12 {
                    let (nx, ny) = (s * ey / l, -s * ex / l);
                    hp.push([nx, ny, nx * p[0] + ny * p[1] - ERODE]);
                }
                b = [b[0].min(p[0]), b[1].min(p[1]), b[2].max(p[0]), b[3].max(p[1])];
            }
            if n < 3 || area.abs() <= 0.0 {
                hp.clear(); // no interior: blocks nothing
            }
            gx0 = gx0.min(b[0]);
            gy0 = gy0.min(b[1]);
            gx1 = gx1.max(b[2]);
            gy1 = gy1.max(b[3]);
            planes.push(hp);
            bbox.push(b);
        }
        if rings.is_empty() {
            (gx0, gy0, gx1, gy1) = (0.0, 0.0, 1.0, 1.0);
        }
        let w = (gx1 - gx0).max(1e-9);
        let h = (gy1 - gy0).max(1e-9);
        let (cell, nx, ny) = grid_shape(w, h, rings.len() as f64, 256);
        let mut out = Pieces { planes, bbox, x0: gx0, y0: gy0, cell, nx, ny,
                               cells: vec![Vec::new(); nx * ny] };
        for k in 0..out.bbox.len() {
            let b = out.bbox[k];
            let (i0, j0) = out.cell_of(b[0], b[1]);
            let (i1, j1) = out.cell_of(b[2], b[3]);
            for j in j0..=j1 {
                for i in i0..=i1 {
                    out.cells[j * nx + i].push(k as u32);
                }
            }
        }
        Ok(out)
    }

    pub fn len(&self) -> usize {
        self.planes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.planes.is_empty()
    }

    #[inline]
    fn cell_of(&self, x: f64, y: f64) -> (usize, usize) {
        cell_index([self.x0, self.y0], self.cell, self.nx, self.ny, x, y)
    }

    /// Whether the segment `a b` meets piece `k` shrunk by [`ERODE`].
    #[inline]
    fn meets(&self, k: usize, a: Pt, b: Pt) -> bool {
        self.clip(k, a, b, 0.0).is_some()
    }

    /// The stretch `(t0, t1)` of the segment `a b` (`a + t (b - a)`) that lies in piece `k`
    /// grown by [`ERODE`] (its closure and a rounding's slack), when it is longer than a point.
    fn along(&self, k: usize, a: Pt, b: Pt) -> Option<(f64, f64)> {
        let (lo, hi) = self.clip(k, a, b, 2.0 * ERODE)?;
        ((hi - lo) * hypot(b[0] - a[0], b[1] - a[1]) > 4.0 * ERODE).then_some((lo, hi))
    }

    /// The stretch `(t0, t1)` of the segment `a b` in piece `k` shrunk by [`ERODE`] and then
    /// moved out by `out` (Cyrus-Beck clipping by the piece's half-planes), if any.
    #[inline]
    fn clip(&self, k: usize, a: Pt, b: Pt, out: f64) -> Option<(f64, f64)> {
        let hp = &self.planes[k];
        if hp.is_empty() {
            return None;
        }
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        let (mut lo, mut hi) = (0.0f64, 1.0f64);
        for h in hp {
            let den = h[0] * dx + h[1] * dy;
            let num = h[2] + out - (h[0] * a[0] + h[1] * a[1]);
            if den == 0.0 {
                if num < 0.0 {
                    return None;
                }
            } else {
                let t = num / den;
                if den > 0.0 {
                    if t < hi {
                        hi = t;
                    }
                } else if t > lo {
                    lo = t;
                }
                if lo > hi {
                    return None;
                }
            }
        }
        Some((lo, hi))
    }

    /// Whether `p` lies in piece `k` grown by [`ERODE`].
    fn holds(&self, k: usize, p: Pt) -> bool {
        let hp = &self.planes[k];
        !hp.is_empty() && hp.iter().all(|h| h[0] * p[0] + h[1] * p[1] <= h[2] + 2.0 * ERODE)
    }

    /// Whether the segment `a b`, which meets no piece shrunk by [`ERODE`], runs along a seam
    /// of `touching` (pieces it lies along, with the stretches): where two of their stretches
    /// overlap, the points a little way off the segment on both sides lie in some piece (the
    /// union's interior, as the Python engine's test of the union sees it).
    fn along_a_seam(&self, a: Pt, b: Pt, touching: &[(usize, f64, f64)]) -> bool {
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        let len = hypot(dx, dy);
        if len <= 0.0 {
            return false;
        }
        let off = 8.0 * ERODE;
        let (nx, ny) = (-dy / len * off, dx / len * off);
        for (i, &(_, lo, hi)) in touching.iter().enumerate() {
            for &(_, lo2, hi2) in &touching[i + 1..] {
                let (t0, t1) = (lo.max(lo2), hi.min(hi2));
                if (t1 - t0) * len <= 4.0 * ERODE {
                    continue;
                }
                let t = 0.5 * (t0 + t1);
                let m = [a[0] + t * dx, a[1] + t * dy];
                let left = [m[0] + nx, m[1] + ny];
                let right = [m[0] - nx, m[1] - ny];
                if touching.iter().any(|&(k, _, _)| self.holds(k, left))
                    && touching.iter().any(|&(k, _, _)| self.holds(k, right))
                {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the segment `a b` meets the interior of a piece (up to [`ERODE`]).
    pub fn blocked(&self, a: Pt, b: Pt, stamp: &mut Stamp) -> bool {
        if self.planes.is_empty() {
            return false;
        }
        let (x0, y0) = (a[0].min(b[0]), a[1].min(b[1]));
        let (x1, y1) = (a[0].max(b[0]), a[1].max(b[1]));
        let (i0, j0) = self.cell_of(x0, y0);
        let (i1, j1) = self.cell_of(x1, y1);
        stamp.next(self.planes.len());
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        let c = self.cell;
        // pieces the segment runs along (not into): a seam of two is inside their union
        let mut touching: Vec<(usize, f64, f64)> = Vec::new();
        for j in j0..=j1 {
            for i in i0..=i1 {
                if (i1 > i0 || j1 > j0) && !(i == i0 && j == j0) {
                    // the cell must meet the segment's line: its corners not all on one side
                    let (cx0, cy0) = (self.x0 + i as f64 * c, self.y0 + j as f64 * c);
                    let side = |x: f64, y: f64| dx * (y - a[1]) - dy * (x - a[0]);
                    let s = [side(cx0, cy0), side(cx0 + c, cy0), side(cx0, cy0 + c),
                             side(cx0 + c, cy0 + c)];
                    let tol = 1e-9 * (hypot(dx, dy) * c + 1.0);
                    if s.iter().all(|&v| v > tol) || s.iter().all(|&v| v < -tol) {
                        continue;
                    }
                }
                for &k in &self.cells[j * self.nx + i] {
                    let k = k as usize;
                    if !stamp.first(k) {
                        continue;
                    }
                    let bb = self.bbox[k];
                    if bb[2] < x0 || bb[0] > x1 || bb[3] < y0 || bb[1] > y1 {
                        continue;
                    }
                    if self.meets(k, a, b) {
                        return true;
                    }
                    if let Some((lo, hi)) = self.along(k, a, b) {
                        touching.push((k, lo, hi));
                    }
                }
            }
        }
        touching.len() >= 2 && self.along_a_seam(a, b, &touching)
    }
}

/// Marks of which items a query has seen (reset in O(1) per query).
#[derive(Default)]
pub struct Stamp {
    marks: Vec<u32>,
    now: u32,
}

impl Stamp {
    fn next(&mut self, n: usize) {
        if self.marks.len() < n {
            self.marks.resize(n, 0);
        }
        self.now = self.now.wrapping_add(1);
        if self.now == 0 {
            self.marks.iter_mut().for_each(|m| *m = 0);
            self.now = 1;
        }
    }

    /// `true` the first time `k` is seen since [`Stamp::next`].
    #[inline]
    fn first(&mut self, k: usize) -> bool {
        if self.marks[k] == self.now {
            false
        } else {
            self.marks[k] = self.now;
            true
        }
    }
}

#[inline]
fn sign(v: f64) -> i32 {
    if v > TURN_TOL {
        1
    } else if v < -TURN_TOL {
        -1
    } else {
        0
    }
}

/// Whether the line `u -> v` leaves both neighbours `a` and `b` of `u` on one side (the Python
/// engine's `visibility.tangent`).
#[inline]
pub fn tangent(u: Pt, v: Pt, a: Pt, b: Pt) -> bool {
    let (dx, dy) = (v[0] - u[0], v[1] - u[1]);
    let dn = hypot(dx, dy);
    let dn = if dn == 0.0 { 1.0 } else { dn };
    let (eax, eay) = (a[0] - u[0], a[1] - u[1]);
    let (ebx, eby) = (b[0] - u[0], b[1] - u[1]);
    let na = hypot(eax, eay);
    let nb = hypot(ebx, eby);
    let ca = (dx * eay - dy * eax) / (dn * if na == 0.0 { 1.0 } else { na });
    let cb = (dx * eby - dy * ebx) / (dn * if nb == 0.0 { 1.0 } else { nb });
    sign(ca) * sign(cb) >= 0
}

/// The corners of one map (with their ring neighbours and pieces), their graph and a grid of
/// them for the queries "which corners lie within `r` of a point".
pub struct Corners {
    pub at: Vec<Pt>,
    pub prev: Vec<Pt>,
    pub next: Vec<Pt>,
    pub owner: Vec<i64>,
    /// the graph (compressed rows): neighbours of corner `i` are `nbr[ptr[i]..ptr[i + 1]]`
    pub ptr: Vec<usize>,
    pub nbr: Vec<u32>,
    pub w: Vec<f64>,
    /// every edge of length up to this is in the graph
    pub cap: f64,
    x0: f64,
    y0: f64,
    cell: f64,
    nx: usize,
    ny: usize,
    cells: Vec<Vec<u32>>,
}

impl Corners {
    pub fn new(at: Vec<Pt>, prev: Vec<Pt>, next: Vec<Pt>, owner: Vec<i64>) -> Result<Corners, Refused> {
        check("corners", at.len(), MAX_VERTICES)?;
        if at.iter().chain(&prev).chain(&next).flatten().any(|v| !v.is_finite()) {
            return Err(Refused("a coordinate is not finite".into()));
        }
        let (mut x0, mut y0, mut x1, mut y1) = (0.0f64, 0.0f64, 1.0f64, 1.0f64);
        if let Some(p) = at.first() {
            (x0, y0, x1, y1) = (p[0], p[1], p[0], p[1]);
        }
        for p in &at {
            x0 = x0.min(p[0]);
            y0 = y0.min(p[1]);
            x1 = x1.max(p[0]);
            y1 = y1.max(p[1]);
        }
        let w = (x1 - x0).max(1e-9);
        let h = (y1 - y0).max(1e-9);
        let (cell, nx, ny) = grid_shape(w, h, at.len() as f64 / 4.0, 256);
        let n = at.len();
        let mut out = Corners { at, prev, next, owner, ptr: vec![0; n + 1], nbr: Vec::new(),
                                w: Vec::new(), cap: 0.0, x0, y0, cell, nx, ny,
                                cells: vec![Vec::new(); nx * ny] };
        for k in 0..n {
            let (i, j) = out.cell_of(out.at[k][0], out.at[k][1]);
            out.cells[j * nx + i].push(k as u32);
        }
        Ok(out)
    }

    pub fn len(&self) -> usize {
        self.at.len()
    }

    pub fn is_empty(&self) -> bool {
        self.at.is_empty()
    }

    #[inline]
    fn cell_of(&self, x: f64, y: f64) -> (usize, usize) {
        cell_index([self.x0, self.y0], self.cell, self.nx, self.ny, x, y)
    }

    /// The graph, from compressed rows (`ptr` of `len() + 1` offsets into `nbr` and `w`).
    pub fn set_graph(&mut self, ptr: Vec<usize>, nbr: Vec<u32>, w: Vec<f64>, cap: f64)
                     -> Result<(), Refused> {
        check("graph edges", nbr.len(), MAX_GRAPH_EDGES)?;
        let n = self.at.len();
        let ok = ptr.len() == n + 1 && ptr[0] == 0 && ptr.windows(2).all(|w| w[0] <= w[1])
            && ptr[n] == nbr.len() && nbr.len() == w.len()
            && nbr.iter().all(|&j| (j as usize) < n);
        if !ok {
            return Err(Refused("the corner graph's rows are out of order or out of range".into()));
        }
        self.ptr = ptr;
        self.nbr = nbr;
        self.w = w;
        self.cap = cap;
        Ok(())
    }

    /// The corners within `r` of `p` numbered above `after` (all: `None`), in no set order.
    pub fn near_after(&self, p: Pt, r: f64, after: Option<u32>, out: &mut Vec<u32>) {
        out.clear();
        if self.at.is_empty() || !(r >= 0.0) {
            return;
        }
        let first = after.map_or(0, |a| a + 1);
        let (i0, j0) = self.cell_of(p[0] - r, p[1] - r);
        let (i1, j1) = self.cell_of(p[0] + r, p[1] + r);
        for j in j0..=j1 {
            for i in i0..=i1 {
                for &k in &self.cells[j * self.nx + i] {
                    if k < first {
                        continue;
                    }
                    let c = self.at[k as usize];
                    if hypot(c[0] - p[0], c[1] - p[1]) <= r {
                        out.push(k);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<Pt> {
        vec![[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
    }

    #[test]
    fn segments_through_a_piece_are_blocked_along_it_not() {
        let p = Pieces::new(&[square(2.0, 2.0, 4.0, 4.0)]).unwrap();
        let mut s = Stamp::default();
        assert!(p.blocked([0.0, 3.0], [6.0, 3.0], &mut s));
        // along an edge, and ending at a corner
        assert!(!p.blocked([0.0, 2.0], [6.0, 2.0], &mut s));
        assert!(!p.blocked([0.0, 0.0], [2.0, 2.0], &mut s));
        // a hair inside (less than ERODE) is free, more is not
        assert!(!p.blocked([0.0, 2.0 + 0.5e-7], [6.0, 2.0 + 0.5e-7], &mut s));
        assert!(p.blocked([0.0, 2.0 + 2e-7], [6.0, 2.0 + 2e-7], &mut s));
        // clockwise rings are read as the same piece
        let mut cw = square(2.0, 2.0, 4.0, 4.0);
        cw.reverse();
        let q = Pieces::new(&[cw]).unwrap();
        assert!(q.blocked([0.0, 3.0], [6.0, 3.0], &mut s));
        assert!(!q.blocked([0.0, 1.0], [6.0, 1.0], &mut s));
    }

    #[test]
    fn a_seam_of_two_touching_pieces_is_blocked_their_outer_edges_not() {
        // an L cut in two convex pieces that share the edge x = 2, 0 <= y <= 2 (the Python
        // engine tests the union: the seam is inside it)
        let p = Pieces::new(&[square(0.0, 0.0, 2.0, 2.0), square(2.0, 0.0, 4.0, 6.0)]).unwrap();
        let mut s = Stamp::default();
        assert!(p.blocked([2.0, 0.5], [2.0, 1.5], &mut s));
        assert!(p.blocked([2.0, -1.0], [2.0, 1.0], &mut s));
        // along the outer edges: free (the bottom edge spans both pieces, meeting at a point)
        assert!(!p.blocked([-1.0, 0.0], [5.0, 0.0], &mut s));
        assert!(!p.blocked([2.0, 2.0], [2.0, 7.0], &mut s));
        assert!(!p.blocked([0.0, 2.0], [2.0, 2.0], &mut s));
        // two pieces side by side with a gap of 1e-6": the gap is free
        let q = Pieces::new(&[square(0.0, 0.0, 2.0, 2.0), square(2.000001, 0.0, 4.0, 2.0)])
            .unwrap();
        assert!(!q.blocked([2.0000005, -1.0], [2.0000005, 3.0], &mut s));
        // overlapping pieces with a common bottom edge: along it, free
        let r = Pieces::new(&[square(0.0, 0.0, 2.0, 2.0), square(1.0, 0.0, 3.0, 2.0)]).unwrap();
        assert!(!r.blocked([-1.0, 0.0], [4.0, 0.0], &mut s));
    }

    #[test]
    fn many_pieces_through_the_grid() {
        let rings: Vec<Vec<Pt>> = (0..100)
            .map(|k| {
                let (x, y) = ((k % 10) as f64 * 3.0, (k / 10) as f64 * 3.0);
                square(x, y, x + 1.0, y + 1.0)
            })
            .collect();
        let p = Pieces::new(&rings).unwrap();
        let mut s = Stamp::default();
        // between the rows of squares, and through a row
        assert!(!p.blocked([-1.0, 2.0], [40.0, 2.0], &mut s));
        assert!(p.blocked([-1.0, 27.5], [40.0, 27.5], &mut s));
        assert!(!p.blocked([1.5, -1.0], [1.5, 40.0], &mut s));
        assert!(p.blocked([1.5, 1.5], [28.5, 28.5], &mut s));
        // a segment inside one cell, and one ending inside a far square
        assert!(!p.blocked([1.2, 1.2], [1.8, 1.8], &mut s));
        assert!(p.blocked([2.0, 2.0], [27.5, 27.2], &mut s));
    }

    #[test]
    fn tangent_lines_leave_both_neighbours_on_one_side() {
        let (u, a, b) = ([0.0, 0.0], [1.0, 0.0], [0.0, 1.0]);
        assert!(tangent(u, [-1.0, 1.0], a, b));
        assert!(!tangent(u, [1.0, 1.0], a, b));
        assert!(!tangent(u, [-1.0, -1.0], a, b));
        assert!(tangent(u, [1.0, -1.0], a, b));
    }

    #[test]
    fn corners_near_a_point() {
        let at: Vec<Pt> = (0..50).map(|k| [k as f64, 0.5 * k as f64]).collect();
        let c = Corners::new(at.clone(), at.clone(), at.clone(), vec![0; 50]).unwrap();
        let mut out = Vec::new();
        c.near_after([10.0, 5.0], 2.3, None, &mut out);
        out.sort_unstable();
        assert_eq!(out, vec![8, 9, 10, 11, 12]);
        // those numbered above 9 only
        c.near_after([10.0, 5.0], 2.3, Some(9), &mut out);
        out.sort_unstable();
        assert_eq!(out, vec![10, 11, 12]);
    }
}
