//! The region of a geodesic disk from its wedges, by casting rays (the port of the Python
//! engine's `tabletop.geometry.rays.visible_outlines` and `wedges._build_swept`).
//!
//! Each wedge (a sector about an apex, or a source's whole disk) becomes a star-shaped outline:
//! rays leave the apex at the arc's sample angles (chord sag at most [`ARC_TOLERANCE`]) and on
//! both sides of every direction where the visible boundary can change (an outline vertex within
//! reach, a crossing of an outline edge with the wedge's circle, a side of an obstacle's cone at
//! an apex on the outline); each ray stops at the first outline edge facing the apex. Between two
//! neighbouring rays the visible part is convex, so every star lies inside the true visible
//! region. The battlefield's box is cast against like the obstacles (its edges face inwards), so
//! every star lies in the box. The region is the union of the stars, minus the excluded set.

use crate::booleans::{overlay, union_all, Grid, Op, Poly, Pt, Ring};
use crate::limits::{check, Refused, MAX_RINGS, MAX_VERTICES};
use crate::visibility::{cell_index, grid_shape, hypot};

/// Largest chord sag of the inscribed arcs, inches (the Python engine's `ARC_TOLERANCE`).
pub const ARC_TOLERANCE: f64 = 0.002;
const TWO_PI: f64 = 2.0 * std::f64::consts::PI;
const RAY_EPS: f64 = 1e-9;

/// The boundary of the union of the obstacles as directed edges (the union on the left, free
/// space on the right), with the box's four edges (facing in), in a uniform grid of cells.
pub struct Outline {
    a: Vec<Pt>,
    b: Vec<Pt>,
    /// how many of the edges are the obstacles' (the box's four come after them)
    n_obstacle: usize,
    bounds: [f64; 4],
    x0: f64,
    y0: f64,
    cell: f64,
    nx: usize,
    ny: usize,
    cells: Vec<Vec<u32>>,
    /// points where an obstacle edge crosses the box's boundary: the visible boundary turns
    /// there too (from the box's edge to the obstacle's), so each is an event of the rays
    box_crossings: Vec<Pt>,
}

impl Outline {
    /// `edges` (ax, ay, bx, by) of the obstacles' union, `bounds` the box (x0, y0, x1, y1).
    pub fn new(edges: &[[f64; 4]], bounds: [f64; 4]) -> Result<Outline, Refused> {
        check("outline edges", edges.len(), MAX_VERTICES)?;
        if !bounds.iter().all(|v| v.is_finite()) || edges.iter().flatten().any(|v| !v.is_finite())
        {
            return Err(Refused("a coordinate is not finite".into()));
        }
        let [x0, y0, x1, y1] = bounds;
        let mut a: Vec<Pt> = edges.iter().map(|e| [e[0], e[1]]).collect();
        let mut b: Vec<Pt> = edges.iter().map(|e| [e[2], e[3]]).collect();
        let n_obstacle = a.len();
        // the box, clockwise: its inside (free) on the right of each edge
        let corners = [[x0, y0], [x0, y1], [x1, y1], [x1, y0]];
        for k in 0..4 {
            a.push(corners[k]);
            b.push(corners[(k + 1) % 4]);
        }
        // the grid covers the box and every edge
        let (mut gx0, mut gy0, mut gx1, mut gy1) = (x0, y0, x1, y1);
        for (p, q) in a.iter().zip(&b) {
            gx0 = gx0.min(p[0]).min(q[0]);
            gy0 = gy0.min(p[1]).min(q[1]);
            gx1 = gx1.max(p[0]).max(q[0]);
            gy1 = gy1.max(p[1]).max(q[1]);
        }
        let w = (gx1 - gx0).max(1e-9);
        let h = (gy1 - gy0).max(1e-9);
        // about as many cells as edges (at least one), square
        let (cell, nx, ny) = grid_shape(w, h, a.len() as f64, 512);
        let mut box_crossings = Vec::new();
        for k in 0..n_obstacle {
            for j in n_obstacle..a.len() {
                if let Some(c) = crossing(a[k], b[k], a[j], b[j]) {
                    box_crossings.push(c);
                }
            }
        }
        let mut out = Outline { a, b, n_obstacle, bounds, x0: gx0, y0: gy0, cell, nx, ny,
                                cells: vec![Vec::new(); nx * ny], box_crossings };
        for k in 0..out.a.len() {
            let (p, q) = (out.a[k], out.b[k]);
            let (i0, j0) = out.cell_of(p[0].min(q[0]), p[1].min(q[1]));
            let (i1, j1) = out.cell_of(p[0].max(q[0]), p[1].max(q[1]));
            for j in j0..=j1 {
                for i in i0..=i1 {
                    out.cells[j * nx + i].push(k as u32);
                }
            }
        }
        Ok(out)
    }

    /// The box (x0, y0, x1, y1).
    pub fn bounds(&self) -> [f64; 4] {
        self.bounds
    }

    #[inline]
    fn cell_of(&self, x: f64, y: f64) -> (usize, usize) {
        cell_index([self.x0, self.y0], self.cell, self.nx, self.ny, x, y)
    }

    /// The edges whose boxes meet the box `(x0, y0, x1, y1)` (each once, ascending).
    fn edges_near(&self, x0: f64, y0: f64, x1: f64, y1: f64, seen: &mut Vec<u32>, out: &mut Vec<u32>) {
        out.clear();
        let (i0, j0) = self.cell_of(x0, y0);
        let (i1, j1) = self.cell_of(x1, y1);
        for j in j0..=j1 {
            for i in i0..=i1 {
                out.extend_from_slice(&self.cells[j * self.nx + i]);
            }
        }
        out.sort_unstable();
        out.dedup();
        seen.clear();
        let (a, b) = (&self.a, &self.b);
        out.retain(|&k| {
            let (p, q) = (a[k as usize], b[k as usize]);
            p[0].max(q[0]) >= x0 && p[0].min(q[0]) <= x1 && p[1].max(q[1]) >= y0
                && p[1].min(q[1]) <= y1
        });
    }

    /// Whether `(x, y)` lies closer than `d` to one of the obstacles' edges (the closest
    /// point's distance; the box's edges not counted): a piece's vertex that does not is
    /// inside the union by `d` at least, no corner.
    pub fn near_edge(&self, x: f64, y: f64, d: f64) -> bool {
        if !(x.is_finite() && y.is_finite() && d >= 0.0) {
            return false;
        }
        let (i0, j0) = self.cell_of(x - d, y - d);
        let (i1, j1) = self.cell_of(x + d, y + d);
        let d2 = d * d;
        for j in j0..=j1 {
            for i in i0..=i1 {
                for &k in &self.cells[j * self.nx + i] {
                    let k = k as usize;
                    if k < self.n_obstacle && segment_dist2(self.a[k], self.b[k], x, y) < d2 {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether `(x, y)` lies inside the obstacles' edges' rings by the even-odd rule (a point
    /// of valid polygons, whichever way their rings turn) or closer than `d` to one of those
    /// edges ([`Outline::near_edge`]): the polygons grown by `d`, without building them. A
    /// point within rounding of an edge is within `d` of it, so the parity's answer there
    /// does not matter.
    pub fn within(&self, x: f64, y: f64, d: f64) -> bool {
        if !(x.is_finite() && y.is_finite()) {
            return false;
        }
        let [bx0, by0, bx1, by1] = self.bounds;
        if x >= bx0 && x <= bx1 && y >= by0 && y <= by1 {
            // the crossings of the horizontal line through the point on its side with fewer
            // cells of its row (the rings cross the whole line an even number of times), each
            // counted in the cell where it lies (an edge is in every cell of its box)
            let (i, j) = self.cell_of(x, y);
            let left = i < self.nx - 1 - i;
            let cols = if left { 0..=i } else { i..=self.nx - 1 };
            let mut crossings = 0usize;
            for c in cols {
                for &k in &self.cells[j * self.nx + c] {
                    let k = k as usize;
                    if k >= self.n_obstacle {
                        continue;
                    }
                    let (p, q) = (self.a[k], self.b[k]);
                    if (p[1] <= y) == (q[1] <= y) {
                        continue;
                    }
                    let t = (y - p[1]) / (q[1] - p[1]);
                    let xc = (p[0] + t * (q[0] - p[0])).clamp(p[0].min(q[0]), p[0].max(q[0]));
                    if self.cell_of(xc, y).0 == c && (if left { xc < x } else { xc > x }) {
                        crossings += 1;
                    }
                }
            }
            if crossings % 2 == 1 {
                return true;
            }
        }
        self.near_edge(x, y, d)
    }

    /// Whether `(x, y)` is off the box or inside the obstacles' union (non-zero winding of
    /// the obstacles' edges).
    pub fn blocked(&self, x: f64, y: f64) -> bool {
        let [bx0, by0, bx1, by1] = self.bounds;
        if !(x >= bx0 && x <= bx1 && y >= by0 && y <= by1) {
            return true;
        }
        // every edge crossing the horizontal line through the point, right of it: the cells
        // of the row from the point's cell on hold all of them
        let (i0, j) = self.cell_of(x, y);
        let winding: i32 = self.edges_right(i0, j, j).iter().map(|&k| self.crossing_right(k, x, y))
            .sum();
        winding != 0
    }

    /// The obstacles' edges in the cells of rows `j0..=j1` from column `i0` on (each once).
    fn edges_right(&self, i0: usize, j0: usize, j1: usize) -> Vec<u32> {
        let mut ks: Vec<u32> = Vec::new();
        for j in j0..=j1 {
            for i in i0..self.nx {
                ks.extend_from_slice(&self.cells[j * self.nx + i]);
            }
        }
        ks.sort_unstable();
        ks.dedup();
        ks.retain(|&k| (k as usize) < self.n_obstacle);
        ks
    }

    /// What edge `k` adds to the winding number at `(x, y)`: +1 or -1 when it crosses the
    /// horizontal line through the point right of it (by its direction), else 0.
    #[inline]
    fn crossing_right(&self, k: u32, x: f64, y: f64) -> i32 {
        let (p, q) = (self.a[k as usize], self.b[k as usize]);
        if (p[1] <= y) != (q[1] <= y) {
            let t = (y - p[1]) / (q[1] - p[1]);
            if p[0] + t * (q[0] - p[0]) > x {
                return if q[1] > p[1] { 1 } else { -1 };
            }
        }
        0
    }

    /// What [`Outline::blocked`] needs for points within [`PROBE`] of `at`: the winding
    /// that the edges crossing the band of those points' heights wholly right of them all
    /// give, and the edges near them (crossing the band near them, or ending in it) to test
    /// point by point ([`Outline::blocked_near`]): the same answer, without the row's scan
    /// for each point.
    pub fn band_near(&self, at: Pt, out: &mut Band) {
        out.edges.clear();
        out.base = 0;
        out.at = at;
        let m = 2.0 * PROBE;
        let (ylo, yhi) = (at[1] - m, at[1] + m);
        let (i0, j0) = self.cell_of(at[0] - m, ylo);
        let (_, j1) = self.cell_of(at[0] - m, yhi);
        for k in self.edges_right(i0, j0, j1) {
            let ku = k as usize;
            let (p, q) = (self.a[ku], self.b[ku]);
            let (lo, hi) = (p[1].min(q[1]), p[1].max(q[1]));
            if hi < ylo || lo > yhi {
                continue; // (no point of the band is crossed)
            }
            if lo < ylo && hi > yhi {
                // across the whole band: where, at its two heights
                let xa = p[0] + (ylo - p[1]) / (q[1] - p[1]) * (q[0] - p[0]);
                let xb = p[0] + (yhi - p[1]) / (q[1] - p[1]) * (q[0] - p[0]);
                if xa.min(xb) > at[0] + m {
                    out.base += if q[1] > p[1] { 1 } else { -1 };
                    continue;
                }
                if xa.max(xb) < at[0] - m {
                    continue;
                }
            }
            out.edges.push(k);
        }
    }

    /// [`Outline::blocked`] for a point within [`PROBE`] of the band's point.
    pub fn blocked_near(&self, band: &Band, x: f64, y: f64) -> bool {
        debug_assert!(hypot(x - band.at[0], y - band.at[1]) <= PROBE * 1.5);
        let [bx0, by0, bx1, by1] = self.bounds;
        if !(x >= bx0 && x <= bx1 && y >= by0 && y <= by1) {
            return true;
        }
        let winding = band.base + band.edges.iter().map(|&k| self.crossing_right(k, x, y))
            .sum::<i32>();
        winding != 0
    }
}

/// How far from its apex a star's rays are probed for an obstacle (inches).
pub const PROBE: f64 = 1e-6;

/// The edges near a point and the winding of the rest ([`Outline::band_near`]).
#[derive(Default)]
pub struct Band {
    at: Pt,
    base: i32,
    edges: Vec<u32>,
}

/// Where the segments `p0 p1` and `q0 q1` cross (ends included), if they do.
fn crossing(p0: Pt, p1: Pt, q0: Pt, q1: Pt) -> Option<Pt> {
    let (rx, ry) = (p1[0] - p0[0], p1[1] - p0[1]);
    let (sx, sy) = (q1[0] - q0[0], q1[1] - q0[1]);
    let den = rx * sy - ry * sx;
    if den.abs() <= 1e-300 {
        return None;
    }
    let (wx, wy) = (q0[0] - p0[0], q0[1] - p0[1]);
    let t = (wx * sy - wy * sx) / den;
    let u = (wx * ry - wy * rx) / den;
    if (0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u) {
        Some([p0[0] + t * rx, p0[1] + t * ry])
    } else {
        None
    }
}

/// A sector about `apex` of `radius` from angle `start` turning by `sweep` (signed), or with
/// `full` a source's whole disk; `prev` and `next` are the apex's ring neighbours (its own
/// obstacle edges, not read for a full disk).
#[derive(Debug, Clone, Copy)]
pub struct Wedge {
    pub apex: Pt,
    pub radius: f64,
    pub start: f64,
    pub sweep: f64,
    pub full: bool,
    pub prev: Pt,
    pub next: Pt,
}

#[inline]
fn wrap(a: f64) -> f64 {
    let r = a.rem_euclid(TWO_PI);
    if r >= TWO_PI { 0.0 } else { r }
}

/// The squared distance from `(x, y)` to the segment `p - q` (its closest point).
#[inline]
fn segment_dist2(p: Pt, q: Pt, x: f64, y: f64) -> f64 {
    let (dx, dy) = (q[0] - p[0], q[1] - p[1]);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 { (((x - p[0]) * dx + (y - p[1]) * dy) / len2).clamp(0.0, 1.0) } else { 0.0 };
    let (ex, ey) = (p[0] + t * dx - x, p[1] + t * dy - y);
    ex * ex + ey * ey
}

/// Scratch buffers reused from wedge to wedge.
#[derive(Default)]
pub struct Scratch {
    near: Vec<u32>,
    band: Band,
    close: Vec<u32>,
    seen: Vec<u32>,
    front: Vec<(u32, f64, f64)>,
    events: Vec<f64>,
    rays: Vec<f64>,
}

/// The star-shaped outline of the part of `w` seen from its apex (apex first unless full).
pub fn star(o: &Outline, w: &Wedge, s: &mut Scratch) -> Ring {
    let (ax, ay) = (w.apex[0], w.apex[1]);
    let rho = w.radius;
    let side = if w.sweep < 0.0 { -1.0 } else { 1.0 };
    let span = if w.full { TWO_PI } else { w.sweep.abs() };
    // the sector's box: the apex, the arc's ends and its axis extremes inside the turn
    let (mut bx0, mut by0, mut bx1, mut by1) = (ax, ay, ax, ay);
    let mut grow = |ang: f64| {
        let (x, y) = (ax + rho * ang.cos(), ay + rho * ang.sin());
        bx0 = bx0.min(x);
        by0 = by0.min(y);
        bx1 = bx1.max(x);
        by1 = by1.max(y);
    };
    grow(w.start);
    grow(w.start + w.sweep);
    for k in 0..4 {
        let axis = k as f64 * 0.5 * std::f64::consts::PI;
        if w.full || wrap(side * (axis - w.start)) <= span {
            grow(axis);
        }
    }
    o.edges_near(bx0, by0, bx1, by1, &mut s.seen, &mut s.near);
    s.front.clear();
    s.events.clear();
    let mut touching = false;
    // the obstacles' cones at an apex on the outline: (first side, width)
    let mut cones: Vec<(f64, f64)> = Vec::new();
    let mut outs: Vec<f64> = Vec::new();
    let mut ins: Vec<f64> = Vec::new();
    let own_dirs: [Pt; 2] = [w.prev, w.next].map(|nb| {
        let (ex, ey) = (nb[0] - ax, nb[1] - ay);
        let n = hypot(ex, ey).max(1e-300);
        [ex / n, ey / n]
    });
    let r2 = rho * rho;
    // the edges within twice the probe's step of the apex (a probe's point on an edge is on
    // one of them)
    let mut close = std::mem::take(&mut s.close);
    close.clear();
    for &k in &s.near {
        let ku = k as usize;
        let (pa, pb) = (o.a[ku], o.b[ku]);
        let (px, py) = (pa[0] - ax, pa[1] - ay);
        let (qx, qy) = (pb[0] - ax, pb[1] - ay);
        let (dx, dy) = (pb[0] - pa[0], pb[1] - pa[1]);
        let dl2 = dx * dx + dy * dy;
        if dl2 <= 0.0 {
            continue;
        }
        let dl = dl2.sqrt();
        let sf = (-(px * dx + py * dy) / dl2).clamp(0.0, 1.0);
        let near = hypot(px + sf * dx, py + sf * dy);
        if near <= 2.0 * PROBE {
            close.push(k);
        }
        if near < 1e-6 {
            // an apex on this edge: its own edge, or something to keep the rays out of
            let at_p = hypot(px, py) <= 1e-12;
            let at_q = hypot(qx, qy) <= 1e-12;
            let (ex, ey) = (dx / dl, dy / dl);
            let (ox, oy) = if at_p { (ex, ey) } else { (-ex, -ey) };
            let own = (at_p || at_q)
                && !w.full
                && own_dirs.iter().any(|d| (ox * d[1] - oy * d[0]).abs() <= 1e-9
                    && ox * d[0] + oy * d[1] > 0.0);
            if !own {
                touching = true;
            }
            let ang = oy.atan2(ox);
            if at_p {
                outs.push(ang);
            } else if at_q {
                ins.push(ang);
            } else {
                cones.push((ey.atan2(ex), std::f64::consts::PI));
            }
        }
        if !((px * dy - py * dx) < -1e-12 * dl && near < rho) {
            continue;
        }
        let ph_p = wrap(side * (py.atan2(px) - w.start));
        let ph_q = wrap(side * (qy.atan2(qx) - w.start));
        s.front.push((k, ph_p, ph_q));
        let (rp2, rq2) = (px * px + py * py, qx * qx + qy * qy);
        if rp2 < r2 {
            s.events.push(ph_p);
        }
        if rq2 < r2 {
            s.events.push(ph_q);
        }
        let b2 = dx * px + dy * py;
        let disc = b2 * b2 - dl2 * (rp2 - r2);
        if disc > 0.0 {
            let sq = disc.sqrt();
            for t in [(-b2 - sq) / dl2, (-b2 + sq) / dl2] {
                if t > 0.0 && t < 1.0 {
                    s.events.push(wrap(side * ((py + t * dy).atan2(px + t * dx) - w.start)));
                }
            }
        }
    }
    for c in &o.box_crossings {
        let (cx, cy) = (c[0] - ax, c[1] - ay);
        if c[0] >= bx0 && c[0] <= bx1 && c[1] >= by0 && c[1] <= by1 && cx * cx + cy * cy < r2
            && hypot(cx, cy) > 1e-12
        {
            s.events.push(wrap(side * (cy.atan2(cx) - w.start)));
        }
    }
    if touching {
        o.band_near(w.apex, &mut s.band);
        if !outs.is_empty() && !ins.is_empty() {
            for &a in &outs {
                let width = ins.iter().map(|&b| wrap(b - a)).fold(f64::INFINITY, f64::min);
                cones.push((a, width));
            }
        }
        for &(a, width) in &cones {
            s.events.push(wrap(side * (a - w.start)));
            s.events.push(wrap(side * (a + width - w.start)));
        }
    } else {
        cones.clear();
    }
    // rays: the arc's samples, and both sides of every event
    let step = 2.0 * (1.0 - ARC_TOLERANCE / rho.max(1e-9)).max(-1.0).acos();
    let mut nseg = ((span / step).ceil() as usize).max(1);
    if w.full {
        nseg = nseg.max(3);
    }
    let count = if w.full { nseg } else { nseg + 1 };
    s.rays.clear();
    for j in 0..count {
        s.rays.push(span * j as f64 / nseg as f64);
    }
    for &e in &s.events {
        s.rays.push(e - RAY_EPS);
        s.rays.push(e + RAY_EPS);
    }
    for r in s.rays.iter_mut() {
        // max then min, as the Python engine does (a wedge narrower than 2 RAY_EPS is a line at
        // span - RAY_EPS; `clamp` would panic there)
        *r = if w.full { wrap(*r) } else { r.max(RAY_EPS).min(span - RAY_EPS) };
    }
    s.rays.sort_unstable_by(|a, b| a.total_cmp(b));
    s.rays.dedup();
    // each front edge stops the rays within its (shorter) angular interval: found by binary
    // search in the sorted rays, so the work is the pairs an edge spans, not rays x edges
    let n = s.rays.len();
    let mut best: Vec<f64> = vec![rho; n];
    let mut hits: Vec<i64> = vec![-1; n];
    let dirs: Vec<(f64, f64)> = s.rays.iter().map(|&rp| {
        let theta = w.start + side * rp;
        (theta.cos(), theta.sin())
    }).collect();
    let rays = &s.rays;
    let above = |v: f64| rays.partition_point(|&r| r <= v);
    let below = |v: f64| rays.partition_point(|&r| r < v);
    for &(k, ph_p, ph_q) in &s.front {
        let (lo, hi) = (ph_p.min(ph_q), ph_p.max(ph_q));
        let ranges = if hi - lo > std::f64::consts::PI {
            [(above(hi), n), (0, below(lo))]
        } else {
            [(above(lo), below(hi)), (0, 0)]
        };
        let ku = k as usize;
        let (pa, pb) = (o.a[ku], o.b[ku]);
        let (px, py) = (pa[0] - ax, pa[1] - ay);
        let (dx, dy) = (pb[0] - pa[0], pb[1] - pa[1]);
        let num = px * dy - py * dx;
        for (i0, i1) in ranges {
            for i in i0..i1.max(i0) {
                let (ux, uy) = dirs[i];
                let den = ux * dy - uy * dx;
                if den.abs() <= 1e-300 {
                    continue;
                }
                let t = num / den;
                if t > 0.0 && t < best[i] {
                    best[i] = t;
                    hits[i] = k as i64;
                }
            }
        }
    }
    let mut xs: Vec<f64> = Vec::with_capacity(n);
    let mut ys: Vec<f64> = Vec::with_capacity(n);
    for i in 0..n {
        let (ux, uy) = dirs[i];
        let mut r = best[i];
        if touching {
            let theta = w.start + side * s.rays[i];
            let (px, py) = (ax + PROBE * ux, ay + PROBE * uy);
            // (a point on an edge is not inside: a ray along the face the apex touches runs
            // on the boundary, as the Python engine's `contains` says)
            let blocked = (o.blocked_near(&s.band, px, py) && !on_an_edge(o, &close, px, py))
                || cones.iter().any(|&(a0, width)| {
                    let into = wrap(theta - a0);
                    into > 0.0 && into < width
                });
            if blocked {
                r = 0.0;
                hits[i] = -1;
            }
        }
        let (mut x, mut y) = (ax + r * ux, ay + r * uy);
        if hits[i] >= 0 {
            // a ray's end at an outline vertex is that vertex
            let (pa, pb) = (o.a[hits[i] as usize], o.b[hits[i] as usize]);
            if hypot(x - pa[0], y - pa[1]) <= 1e-7 {
                (x, y) = (pa[0], pa[1]);
            } else if hypot(x - pb[0], y - pb[1]) <= 1e-7 {
                (x, y) = (pb[0], pb[1]);
            }
        }
        xs.push(x);
        ys.push(y);
    }
    // inner rays of a run on one edge, and points repeating their predecessor, are dropped
    let mut out: Ring = Vec::with_capacity(n + 1);
    if !w.full {
        out.push(w.apex);
    }
    let mut last: Option<usize> = None;
    for i in 0..n {
        if i > 0 && i + 1 < n && hits[i] >= 0 && hits[i] == hits[i - 1] && hits[i] == hits[i + 1]
        {
            continue;
        }
        // (against the last point kept: two rays a hair apart that both end at one vertex,
        // the first dropped as inside a run, leave the vertex once, not never)
        if let Some(j) = last {
            if hypot(xs[i] - xs[j], ys[i] - ys[j]) <= 1e-9 {
                continue;
            }
        }
        last = Some(i);
        out.push([xs[i], ys[i]]);
    }
    s.close = close;
    out
}

/// Whether `(x, y)` lies on one of the edges `near` of `o` (within 1e-12").
fn on_an_edge(o: &Outline, near: &[u32], x: f64, y: f64) -> bool {
    near.iter().any(|&k| {
        let (p, q) = (o.a[k as usize], o.b[k as usize]);
        let (dx, dy) = (q[0] - p[0], q[1] - p[1]);
        let l2 = dx * dx + dy * dy;
        let t = if l2 > 0.0 { (((x - p[0]) * dx + (y - p[1]) * dy) / l2).clamp(0.0, 1.0) } else { 0.0 };
        hypot(x - p[0] - t * dx, y - p[1] - t * dy) <= 1e-12
    })
}

/// Each wedge's star (empty for a wedge of no radius).
pub fn stars(o: &Outline, wedges: &[Wedge]) -> Result<Vec<Ring>, Refused> {
    check("wedges", wedges.len(), MAX_RINGS)?;
    let mut s = Scratch::default();
    let mut out: Vec<Ring> = Vec::with_capacity(wedges.len());
    let mut total = 0usize;
    for w in wedges {
        if !(w.radius > 0.0) || !w.apex[0].is_finite() || !w.apex[1].is_finite() {
            out.push(Vec::new());
            continue;
        }
        let ring = star(o, w, &mut s);
        total += ring.len();
        check("star vertices", total, MAX_VERTICES)?;
        out.push(ring);
    }
    Ok(out)
}

/// The union of the wedges' stars, as polygons on `grid`.
pub fn union_of_stars(o: &Outline, wedges: &[Wedge], grid: &Grid) -> Result<Vec<Poly>, Refused> {
    let rings: Vec<Poly> = stars(o, wedges)?.into_iter().filter(|r| r.len() >= 3)
        .map(|r| vec![r]).collect();
    if rings.is_empty() {
        return Ok(Vec::new());
    }
    union_all(grid, rings)
}

/// The union of the wedges' stars minus `exclude`, as polygons on `grid`.
pub fn region(
    o: &Outline,
    wedges: &[Wedge],
    exclude: Option<&[Poly]>,
    grid: &Grid,
) -> Result<Vec<Poly>, Refused> {
    let union = union_of_stars(o, wedges, grid)?;
    match exclude {
        Some(ex) if !ex.is_empty() && !union.is_empty() => {
            overlay(grid, &union, ex, Op::Difference)
        }
        _ => Ok(union),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::booleans::area;

    fn square_edges(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<[f64; 4]> {
        // counter-clockwise: the square on the left
        let c = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
        (0..4).map(|k| [c[k][0], c[k][1], c[(k + 1) % 4][0], c[(k + 1) % 4][1]]).collect()
    }

    fn disk(p: Pt, r: f64) -> Wedge {
        Wedge { apex: p, radius: r, start: 0.0, sweep: TWO_PI, full: true, prev: p, next: p }
    }

    #[test]
    fn near_edge_is_the_closest_points_distance() {
        // a square obstacle 5..15 in a 20" box: its edges count, the box's do not
        let o = Outline::new(&square_edges(5.0, 5.0, 15.0, 15.0), [0.0, 0.0, 20.0, 20.0]).unwrap();
        let d = 1e-7;
        assert!(o.near_edge(5.0, 5.0, d)); // a vertex
        assert!(o.near_edge(10.0, 15.0 - 0.5e-7, d)); // inside, by less than d
        assert!(o.near_edge(15.0 + 0.9e-7, 15.0, d)); // outside, off a vertex
        assert!(!o.near_edge(10.0, 15.0 - 1.5e-7, d)); // inside, by more
        assert!(!o.near_edge(10.0, 10.0, d));
        assert!(!o.near_edge(15.0 + 0.8e-7, 15.0 + 0.8e-7, d)); // past the corner: 1.13e-7
        assert!(!o.near_edge(0.0, 10.0, d)); // on the box's edge only
        assert!(!o.near_edge(f64::NAN, 10.0, d));
    }

    #[test]
    fn within_is_even_odd_or_near_an_edge() {
        // rings of every turn: a star's spikes, a hole turning either way, a thin sliver; a
        // grid of points and every vertex and edge midpoint, against the definition (every
        // edge's crossing to the right, the closest point's distance)
        let star: Vec<Pt> = (0..40).map(|k| {
            let t = k as f64 * TWO_PI / 40.0;
            let r = if k % 2 == 0 { 6.0 } else { 2.5 };
            [10.0 + r * t.cos(), 10.0 + r * t.sin()]
        }).collect();
        let mut hole = vec![[9.0, 9.0], [11.0, 9.0], [11.0, 11.0], [9.0, 11.0]];
        let sliver = vec![[1.0, 18.0], [19.0, 18.0000001], [1.0, 18.0000002]];
        for flip in [false, true] {
            if flip {
                hole.reverse();
            }
            let rings = [&star, &hole, &sliver];
            let edges: Vec<[f64; 4]> = rings.iter().flat_map(|r| (0..r.len()).map(move |i| {
                let (p, q) = (r[i], r[(i + 1) % r.len()]);
                [p[0], p[1], q[0], q[1]]
            })).collect();
            let o = Outline::new(&edges, [0.5, 0.5, 19.5, 19.5]).unwrap();
            let d = 1e-7;
            let mut pts: Vec<Pt> = (0..97).flat_map(|i| (0..97).map(move |j| {
                [0.3 + i as f64 * 0.2011, 0.3 + j as f64 * 0.2013]
            })).collect();
            for e in &edges {
                pts.push([e[0], e[1]]);
                pts.push([(e[0] + e[2]) / 2.0, (e[1] + e[3]) / 2.0]);
            }
            let mut inside = 0;
            for p in pts {
                let odd = edges.iter().filter(|e| {
                    ((e[1] <= p[1]) != (e[3] <= p[1]))
                        && e[0] + (p[1] - e[1]) / (e[3] - e[1]) * (e[2] - e[0]) > p[0]
                }).count() % 2 == 1;
                let near = edges.iter().any(|e| segment_dist2([e[0], e[1]], [e[2], e[3]], p[0], p[1]) < d * d);
                assert_eq!(o.within(p[0], p[1], d), odd || near, "{p:?}");
                inside += (odd && !near) as usize;
            }
            assert!(inside > 1000, "{inside}");
            assert!(!o.within(f64::NAN, 10.0, d));
            assert!(!o.within(0.0, 10.0, d)); // off the box
        }
    }

    #[test]
    fn a_free_disk_is_an_inscribed_polygon() {
        let o = Outline::new(&[], [0.0, 0.0, 20.0, 20.0]).unwrap();
        let g = Grid::for_box(o.bounds, 0.0).unwrap();
        let got = region(&o, &[disk([10.0, 10.0], 3.0)], None, &g).unwrap();
        let a = area(&got);
        let exact = std::f64::consts::PI * 9.0;
        assert!(a <= exact && a > exact * (1.0 - 2.0 * ARC_TOLERANCE / 3.0), "{a}");
    }

    #[test]
    fn the_box_cuts_the_disk() {
        let o = Outline::new(&[], [0.0, 0.0, 20.0, 20.0]).unwrap();
        let g = Grid::for_box(o.bounds, 0.0).unwrap();
        let got = region(&o, &[disk([0.0, 10.0], 3.0)], None, &g).unwrap();
        let half = 0.5 * std::f64::consts::PI * 9.0;
        assert!((area(&got) - half).abs() < 0.01 * half, "{}", area(&got));
    }

    #[test]
    fn a_square_casts_a_shadow() {
        let o = Outline::new(&square_edges(12.0, 9.0, 13.0, 11.0), [0.0, 0.0, 40.0, 40.0])
            .unwrap();
        let g = Grid::for_box(o.bounds, 0.0).unwrap();
        let got = region(&o, &[disk([10.0, 10.0], 8.0)], None, &g).unwrap();
        // the point behind the square is not seen; one beside it is
        let seen = |p: Pt| got.iter().any(|poly| inside(&poly[0], p));
        assert!(!seen([15.0, 10.0]));
        assert!(seen([15.0, 13.0]));
        assert!(seen([5.0, 10.0]));
        assert!(o.blocked(12.5, 10.0) && !o.blocked(11.0, 10.0) && o.blocked(-1.0, 1.0));
    }

    fn inside(ring: &[Pt], p: Pt) -> bool {
        let mut c = false;
        let n = ring.len();
        for i in 0..n {
            let (a, b) = (ring[i], ring[(i + 1) % n]);
            if (a[1] > p[1]) != (b[1] > p[1])
                && p[0] < a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0])
            {
                c = !c;
            }
        }
        c
    }

    #[test]
    fn a_sliver_wedge_ending_at_a_vertex_keeps_its_far_corner() {
        // the last two rays end a hair apart at the vertex (10.4793, 17.0815): the star is the
        // triangle apex, first ray's end, vertex (a case from a random board)
        let e = [
            [10.56150418, 17.09786018, 10.47929771, 17.0815083],
            [10.47929771, 17.0815083, 10.47457487, 17.08623114],
            [10.47457487, 17.08623114, 10.29441113, 17.2066127],
        ];
        let o = Outline::new(&e, [0.0, 0.0, 20.0, 20.0]).unwrap();
        let w = Wedge {
            apex: [10.47457487, 17.08623114],
            radius: 6.488512493772739,
            start: -0.5890486225480783,
            sweep: -0.19634954084936995,
            full: false,
            prev: [10.62779153, 16.93301448],
            next: [10.29441113, 17.2066127],
        };
        let r = star(&o, &w, &mut Scratch::default());
        assert_eq!(r.len(), 3, "{r:?}");
        assert_eq!(r[2], [10.47929771, 17.0815083]);
        assert!((crate::booleans::ring_area(&r).abs() - 5.1168e-6).abs() < 1e-9);
    }

    #[test]
    fn a_wedge_narrower_than_two_ray_gaps_does_not_panic() {
        // a sweep of 6.4e-10 rad (an Outrider's million-inch move): its rays cannot stay
        // RAY_EPS inside both sides; they lie on one line, and the star is empty or a sliver
        let o = Outline::new(&square_edges(12.0, 9.0, 13.0, 11.0), [0.0, 0.0, 40.0, 40.0])
            .unwrap();
        let w = Wedge {
            apex: [12.0, 9.0],
            radius: 2.0,
            start: 0.5,
            sweep: -6.353879891942197e-10,
            full: false,
            prev: [12.0, 11.0],
            next: [13.0, 9.0],
        };
        let r = star(&o, &w, &mut Scratch::default());
        assert!(crate::booleans::ring_area(&r).abs() < 1e-9, "{r:?}");
    }

    #[test]
    fn an_obstacle_through_the_box_edge_leaves_the_corner_seen() {
        // a wall from below the box up into it: its face and the box's bottom edge meet at
        // (12.87, 0.63), a corner the start sees (a case of the zone catalogue)
        let e = square_edges(12.87, -0.062, 15.13, 6.862);
        let o = Outline::new(&e, [0.63, 0.63, 23.37, 17.37]).unwrap();
        let g = Grid::for_box(o.bounds, 1.0).unwrap();
        let got = region(&o, &[disk([9.0, 9.0], 12.0)], None, &g).unwrap();
        let seen = |p: Pt| got.iter().any(|poly| inside(&poly[0], p));
        assert!(seen([12.86, 0.64]) && seen([12.8, 0.7]));
        assert!(!seen([12.9, 0.7]));
    }

    #[test]
    fn excluded_set_is_removed() {
        let o = Outline::new(&[], [0.0, 0.0, 20.0, 20.0]).unwrap();
        let g = Grid::for_box(o.bounds, 0.0).unwrap();
        let ex = vec![vec![vec![[0.0, 0.0], [20.0, 0.0], [20.0, 10.0], [0.0, 10.0]]]];
        let got = region(&o, &[disk([10.0, 10.0], 3.0)], Some(&ex), &g).unwrap();
        let half = 0.5 * std::f64::consts::PI * 9.0;
        assert!((area(&got) - half).abs() < 0.01 * half);
    }

    #[test]
    fn a_wedge_turns_round_its_corner() {
        // the corner (12, 9) of the square, reached from (10, 7): the wedge turns from the
        // continuation (45 degrees) towards the square, clockwise to its bottom edge (0)
        let o = Outline::new(&square_edges(12.0, 9.0, 13.0, 11.0), [0.0, 0.0, 40.0, 40.0])
            .unwrap();
        let w = Wedge {
            apex: [12.0, 9.0],
            radius: 2.0,
            start: std::f64::consts::FRAC_PI_4,
            sweep: -std::f64::consts::FRAC_PI_4,
            full: false,
            prev: [12.0, 11.0],
            next: [13.0, 9.0],
        };
        let mut s = Scratch::default();
        let r = star(&o, &w, &mut s);
        let sector = 0.5 * 4.0 * std::f64::consts::FRAC_PI_4;
        let a = crate::booleans::ring_area(&r).abs();
        assert!(a <= sector && a > 0.99 * sector, "{a} {sector}");
    }

    #[test]
    fn the_band_near_a_point_answers_as_the_whole_row() {
        // overlapping squares, a thin sliver and a slanted triangle; apexes at vertices, on
        // edges, and in the open: every probe within PROBE of one is blocked or not as
        // `blocked` says
        let mut edges = square_edges(2.0, 2.0, 6.0, 6.0);
        edges.extend(square_edges(5.0, 5.0, 9.0, 7.0));
        edges.extend(square_edges(3.0, 6.5, 3.0000005, 8.0));
        edges.extend([[10.0, 1.0, 14.0, 1.5], [14.0, 1.5, 11.0, 9.0], [11.0, 9.0, 10.0, 1.0]]);
        let o = Outline::new(&edges, [0.0, 0.0, 16.0, 12.0]).unwrap();
        let mut apexes: Vec<Pt> = Vec::new();
        for e in &edges {
            apexes.push([e[0], e[1]]);
            apexes.push([0.5 * (e[0] + e[2]), 0.5 * (e[1] + e[3])]);
            apexes.push([e[0] + 0.3 * (e[2] - e[0]), e[1] + 0.3 * (e[3] - e[1])]);
        }
        apexes.extend([[1.0, 1.0], [7.0, 6.0], [12.0, 4.0], [0.0, 5.0], [16.0, 0.0]]);
        let mut band = Band::default();
        let (mut checked, mut inside) = (0, 0);
        for &a in &apexes {
            o.band_near(a, &mut band);
            for k in 0..96 {
                let t = 2.0 * std::f64::consts::PI * k as f64 / 96.0;
                for r in [PROBE, 0.5 * PROBE] {
                    let (x, y) = (a[0] + r * t.cos(), a[1] + r * t.sin());
                    let want = o.blocked(x, y);
                    assert_eq!(o.blocked_near(&band, x, y), want, "{a:?} {t} {r}");
                    checked += 1;
                    inside += usize::from(want);
                }
            }
        }
        assert!(inside > checked / 5 && inside < checked * 4 / 5, "{inside} of {checked}");
    }
}
