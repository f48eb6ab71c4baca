//! Cells wholly inside a set of polygons (an excluded set), built once per set, to tell cheaply
//! and exactly that a ring's region lies inside the set: a pick-up's stars and wedges there add
//! nothing to the union the set is then cut from, so they are neither cast nor unioned.
//!
//! The set's box is cut into square cells; a cell is *inside* when no edge of the set comes
//! within [`MARGIN`] of it and its centre lies in the set (then every point of it does, by
//! [`MARGIN`] at least). A ring's region (non-zero winding) lies inside the set when every cell
//! its edges come within [`MARGIN`] of is inside, and every cell whose centre its region holds
//! is inside: a cell the region meets either meets the ring (the first test) or lies wholly in
//! the region with its centre (the second). Conservative both ways the floats can err: a cell
//! is kept out of *inside* by [`MARGIN`] (far more than the 1.5e-7" the overlays move a
//! boundary, and than any rounding of the tests), so a ring found inside lies inside the set
//! on the overlays' grid too, and the set minus the union with it is the set minus the union
//! without it, the same point set.

use crate::booleans::{Poly, Pt};

/// How near an edge a cell may come and still be inside, inches.
pub const MARGIN: f64 = 1e-5;
/// Most cells of one set's grid (a cell's count of cells not inside before it: 4 bytes).
const MAX_CELLS: usize = 1 << 14;
/// Most rows and cells visited while building one set's grid (past it: no grid, every ring is
/// cast and unioned as before).
const MAX_WORK: usize = 1 << 25;

/// Rows a ring's edges may span, a vertex (and 1,024 more), before [`Interior::holds`] keeps
/// it untested: a star's two radii across the grid and its arc's short edges are far within.
const MAX_ROWS_A_VERTEX: usize = 16;

/// The cells of one set (module docstring).
pub struct Interior {
    x0: f64,
    y0: f64,
    h: f64,
    nx: usize,
    ny: usize,
    /// row by row, `nx + 1` counts each: how many cells of the row before each column are not
    /// inside (a run of cells is all inside when its two counts are equal)
    bad: Vec<u32>,
}

/// Each row `j` of cells whose box, widened by [`MARGIN`], the segment `a`-`b` meets, with the
/// columns `i0..=i1` of those cells (unclamped: rows and columns past the grid included), to
/// `f` until it answers `false`; whether none did. A segment within two rows takes its box's
/// columns in both (a few more cells, never fewer); a longer one, the columns of its part in
/// each row's band.
#[inline]
fn cells_of(x0: f64, y0: f64, inv: f64, a: Pt, b: Pt, mut f: impl FnMut(i64, i64, i64) -> bool)
            -> bool {
    let (ylo, yhi) = (a[1].min(b[1]) - MARGIN, a[1].max(b[1]) + MARGIN);
    let (j0, j1) = (((ylo - y0) * inv).floor() as i64, ((yhi - y0) * inv).floor() as i64);
    let (xlo, xhi) = (a[0].min(b[0]) - MARGIN, a[0].max(b[0]) + MARGIN);
    if j1 - j0 <= 1 {
        let (i0, i1) = (((xlo - x0) * inv).floor() as i64, ((xhi - x0) * inv).floor() as i64);
        return (j0..=j1).all(|j| f(j, i0, i1));
    }
    let h = 1.0 / inv;
    let (dx, idy) = (b[0] - a[0], 1.0 / (b[1] - a[1]));
    for j in j0..=j1 {
        let (yl, yh) = (y0 + j as f64 * h - MARGIN, y0 + (j + 1) as f64 * h + MARGIN);
        let (t1, t2) = ((yl - a[1]) * idy, (yh - a[1]) * idy);
        let (lo, hi) = (t1.min(t2).max(0.0), t1.max(t2).min(1.0));
        let (xa, xb) = (a[0] + lo * dx, a[0] + hi * dx);
        // (the clipped range, widened, and never past the segment's box)
        let xl = (xa.min(xb) - MARGIN).max(xlo);
        let xr = (xa.max(xb) + MARGIN).min(xhi);
        if !f(j, ((xl - x0) * inv).floor() as i64, ((xr - x0) * inv).floor() as i64) {
            return false;
        }
    }
    true
}

/// The edges of a ring (closed: the last vertex back to the first).
fn edges(ring: &[Pt]) -> impl Iterator<Item = (Pt, Pt)> + '_ {
    (0..ring.len()).map(move |i| (ring[i], ring[(i + 1) % ring.len()]))
}

/// The rows whose centre lines the segment `a`-`b` crosses (a line through an end counted for
/// the end above it only), with the crossing's x.
fn centre_crossings(y0: f64, h: f64, a: Pt, b: Pt) -> impl Iterator<Item = (i64, f64)> {
    let inv = 1.0 / h;
    let row = |y: f64| ((y - y0) * inv - 0.5).ceil() as i64;
    let (ja, jb) = (row(a[1]), row(b[1]));
    (ja.min(jb)..ja.max(jb)).filter_map(move |j| {
        let yc = y0 + (j as f64 + 0.5) * h;
        ((a[1] <= yc) != (b[1] <= yc))
            .then(|| (j, a[0] + (yc - a[1]) / (b[1] - a[1]) * (b[0] - a[0])))
    })
}

/// The columns of the cells whose centres lie between `xa` and `xb` on a row (`xa <= xb`).
fn centre_columns(x0: f64, inv: f64, xa: f64, xb: f64) -> (i64, i64) {
    (((xa - x0) * inv - 0.5).ceil() as i64, ((xb - x0) * inv - 0.5).floor() as i64)
}

impl Interior {
    /// The grid of `set` (polygons with holes, overlapping or not: their union, though no cell
    /// an outline crosses is inside, so overlaps are told conservatively), or `None`
    /// when it is empty, not finite, or would take more than [`MAX_WORK`] to build.
    pub fn new(set: &[Poly]) -> Option<Interior> {
        let mut b = [f64::INFINITY, f64::INFINITY, -f64::INFINITY, -f64::INFINITY];
        for q in set.iter().flatten().flatten() {
            if !(q[0].is_finite() && q[1].is_finite()) {
                return None;
            }
            b = [b[0].min(q[0]), b[1].min(q[1]), b[2].max(q[0]), b[3].max(q[1])];
        }
        let (w, hh) = (b[2] - b[0], b[3] - b[1]);
        if !(w > 0.0 && hh > 0.0) {
            return None;
        }
        let h = ((w * hh) / MAX_CELLS as f64).sqrt().max(w.max(hh) / 4096.0).max(1e-3);
        let (nx, ny) = ((w / h).ceil() as usize + 1, (hh / h).ceil() as usize + 1);
        if nx.saturating_mul(ny) > 4 * MAX_CELLS {
            return None;
        }
        let (x0, y0) = (b[0], b[1]);
        let mut boundary = vec![false; nx * ny];
        let mut work = 0usize;
        let inv = 1.0 / h;
        for (a, c) in set.iter().flatten().flat_map(|r| edges(r)) {
            let fits = cells_of(x0, y0, inv, a, c, |j, i0, i1| {
                if j < 0 || j >= ny as i64 {
                    return true;
                }
                let (i0, i1) = (i0.max(0), i1.min(nx as i64 - 1));
                work += 1 + (i1 - i0 + 1).max(0) as usize;
                let row = j as usize * nx;
                for i in i0..=i1 {
                    boundary[row + i as usize] = true;
                }
                work <= MAX_WORK
            });
            if !fits {
                return None;
            }
        }
        // the centres in the set: each polygon's crossings of each row's centre line, even-odd
        let mut inside = vec![false; nx * ny];
        let mut xs: Vec<Vec<f64>> = vec![Vec::new(); ny];
        for poly in set {
            for r in xs.iter_mut() {
                r.clear();
            }
            for (a, c) in poly.iter().flat_map(|r| edges(r)) {
                work += 1 + ((a[1] - c[1]).abs() * inv) as usize;
                if work > MAX_WORK {
                    return None;
                }
                for (j, x) in centre_crossings(y0, h, a, c) {
                    if (0..ny as i64).contains(&j) {
                        xs[j as usize].push(x);
                    }
                }
            }
            for (j, row) in xs.iter_mut().enumerate() {
                if row.len() < 2 {
                    continue;
                }
                row.sort_unstable_by(f64::total_cmp);
                for pair in row.chunks_exact(2) {
                    let (i0, i1) = centre_columns(x0, inv, pair[0], pair[1]);
                    for i in i0.max(0)..=i1.min(nx as i64 - 1) {
                        inside[j * nx + i as usize] = true;
                    }
                }
            }
        }
        let mut bad = Vec::with_capacity(ny * (nx + 1));
        for j in 0..ny {
            let mut count = 0u32;
            bad.push(0);
            for i in 0..nx {
                let k = j * nx + i;
                count += u32::from(boundary[k] || !inside[k]);
                bad.push(count);
            }
        }
        Some(Interior { x0, y0, h, nx, ny, bad })
    }

    /// Whether cells `i0..=i1` of row `j` are all inside (`false` past the grid).
    #[inline]
    fn run_inside(&self, j: i64, i0: i64, i1: i64) -> bool {
        if i1 < i0 {
            return true;
        }
        if j < 0 || j >= self.ny as i64 || i0 < 0 || i1 >= self.nx as i64 {
            return false;
        }
        let row = j as usize * (self.nx + 1);
        self.bad[row + i1 as usize + 1] == self.bad[row + i0 as usize]
    }

    /// Whether the cell of `p` is inside (so `p` is; a cheap first test before [`holds`]).
    ///
    /// [`holds`]: Interior::holds
    #[inline]
    pub fn holds_point(&self, p: Pt) -> bool {
        let (i, j) = (((p[0] - self.x0) / self.h).floor(), ((p[1] - self.y0) / self.h).floor());
        i.is_finite() && j.is_finite() && self.run_inside(j as i64, i as i64, i as i64)
    }

    /// Whether the region of `ring` (non-zero winding; closed, no repeated first vertex) lies
    /// inside the set (module docstring); `false` for fewer than three vertices. Work: the rows
    /// its edges span and its crossings of the rows' centre lines.
    pub fn holds(&self, ring: &[Pt]) -> bool {
        if ring.len() < 3 || ring.iter().any(|p| !(p[0].is_finite() && p[1].is_finite())) {
            return false;
        }
        let (x0, y0, h) = (self.x0, self.y0, self.h);
        // the cells of the vertices first (those the edges' test looks at too): most rings
        // that are not inside have a vertex outside
        if !ring.iter().all(|&p| self.holds_point(p)) {
            return false;
        }
        let inv = 1.0 / h;
        // bounded work: a ring whose edges span more rows than a few a vertex is kept (told
        // not inside) untested; its vertices are all inside here, so each edge spans the grid
        // at most
        let rows: f64 = edges(ring).map(|(a, b)| ((a[1] - b[1]).abs() * inv).ceil() + 1.0).sum();
        if rows > (MAX_ROWS_A_VERTEX * ring.len() + 1024) as f64 {
            return false;
        }
        let inside = |j, i0, i1| self.run_inside(j, i0, i1);
        if !edges(ring).all(|(a, b)| cells_of(x0, y0, inv, a, b, inside)) {
            return false;
        }
        // every cell whose centre the region holds: (row, x, winding step) at each crossing
        let mut cross: Vec<(i64, f64, i32)> = Vec::new();
        for (a, b) in edges(ring) {
            let up = if b[1] > a[1] { 1 } else { -1 };
            cross.extend(centre_crossings(y0, h, a, b).map(|(j, x)| (j, x, up)));
        }
        cross.sort_unstable_by(|p, q| p.0.cmp(&q.0).then(p.1.total_cmp(&q.1)));
        let mut wind = 0;
        for k in 0..cross.len() {
            let (j, x, up) = cross[k];
            wind += up;
            if wind != 0 && k + 1 < cross.len() && cross[k + 1].0 == j {
                let (i0, i1) = centre_columns(x0, inv, x, cross[k + 1].1);
                if !self.run_inside(j, i0, i1) {
                    return false;
                }
            }
            if k + 1 == cross.len() || cross[k + 1].0 != j {
                wind = 0;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::booleans::{area, overlay, Grid, Op};
    use std::f64::consts::PI;

    fn circle(c: Pt, r: f64, n: usize) -> Vec<Pt> {
        (0..n).map(|k| {
            let t = 2.0 * PI * k as f64 / n as f64;
            [c[0] + r * t.cos(), c[1] + r * t.sin()]
        }).collect()
    }

    fn square(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<Pt> {
        vec![[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
    }

    #[test]
    fn a_ring_inside_is_held_and_one_round_a_hole_is_not() {
        // a 10" square with a 2" hole in its middle
        let set: Vec<Poly> = vec![vec![square(0.0, 0.0, 10.0, 10.0), square(4.0, 4.0, 6.0, 6.0)]];
        let g = Interior::new(&set).unwrap();
        assert!(g.holds(&square(1.0, 1.0, 3.0, 9.0)));
        // its boundary inside, the hole within it: not held
        assert!(!g.holds(&square(1.0, 1.0, 9.0, 9.0)));
        // the same, clockwise
        let mut cw = square(1.0, 1.0, 9.0, 9.0);
        cw.reverse();
        assert!(!g.holds(&cw));
        // touching the outline from inside, or past it
        assert!(!g.holds(&square(0.0, 1.0, 3.0, 3.0)));
        assert!(!g.holds(&square(-1.0, 1.0, 3.0, 3.0)));
        assert!(!g.holds(&square(1.0, 1.0, 4.0, 4.0)));
        assert!(g.holds(&square(1.0, 1.0, 3.9, 3.9)));
        assert!(!g.holds(&[[1.0, 1.0], [2.0, 2.0]]));
    }

    #[test]
    fn overlapping_polygons_hold_as_their_union_conservatively() {
        let set: Vec<Poly> =
            vec![vec![circle([0.0, 0.0], 3.0, 64)], vec![circle([4.0, 0.0], 3.0, 64)]];
        let g = Interior::new(&set).unwrap();
        // in one disk, clear of the other's outline
        assert!(g.holds(&square(-2.0, -0.5, 0.5, 0.5)));
        // in their union but across an outline: not told (the cells there are not inside)
        assert!(!g.holds(&square(-1.0, -0.5, 5.0, 0.5)));
        // partly outside
        assert!(!g.holds(&square(-1.0, -2.9, 5.0, 0.5)));
    }

    #[test]
    fn what_it_holds_lies_in_the_set_on_random_disks() {
        // a pseudo-random crowd of disks and star-like rings: every ring held is inside the set
        // (ring minus set has no area on the overlays' grid), and many are held
        let mut seed = 12345u64;
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % 1_000_000) as f64 / 1_000_000.0
        };
        let disks: Vec<Poly> = (0..60)
            .map(|_| vec![circle([rnd() * 30.0, rnd() * 20.0], 1.0 + 2.5 * rnd(), 48)])
            .collect();
        let grid = Grid::for_box([-5.0, -5.0, 35.0, 25.0], 1.0).unwrap();
        let set = overlay(&grid, &disks, &[], Op::Union).unwrap();
        let g = Interior::new(&set).unwrap();
        let (mut held, mut tried) = (0, 0);
        for _ in 0..3000 {
            let c = [rnd() * 30.0, rnd() * 20.0];
            let n = 3 + (rnd() * 12.0) as usize;
            let ring: Vec<Pt> = (0..n).map(|k| {
                let t = 2.0 * PI * (k as f64 + 0.8 * rnd()) / n as f64;
                let r = 0.05 + 2.0 * rnd();
                [c[0] + r * t.cos(), c[1] + r * t.sin()]
            }).collect();
            tried += 1;
            if g.holds(&ring) {
                held += 1;
                let out = overlay(&grid, &[vec![ring.clone()]], &set, Op::Difference).unwrap();
                assert!(area(&out) < 1e-12, "{ring:?} held but {} outside", area(&out));
            }
        }
        assert!(held > tried / 10, "{held} of {tried}");
    }

    #[test]
    fn no_grid_for_nothing_or_nan() {
        assert!(Interior::new(&[]).is_none());
        assert!(Interior::new(&[vec![vec![[0.0, 0.0], [f64::NAN, 1.0], [1.0, 1.0]]]]).is_none());
        assert!(Interior::new(&[vec![vec![[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]]]]).is_none());
    }

    #[test]
    fn a_ring_of_long_edges_back_and_forth_is_kept_untested() {
        // a zigzag of 20 edges each across the whole grid: more rows than 16 a vertex and 1,024
        let set: Vec<Poly> = vec![vec![square(0.0, 0.0, 100.0, 100.0)]];
        let g = Interior::new(&set).unwrap();
        let mut zig: Vec<Pt> = (0..20)
            .map(|k| [5.0 + 4.0 * k as f64, if k % 2 == 0 { 1.0 } else { 99.0 }])
            .collect();
        zig.push([90.0, 0.5]);
        zig.push([5.0, 0.5]);
        assert!(!g.holds(&zig));
        // the same few edges, short: held
        assert!(g.holds(&square(10.0, 10.0, 20.0, 20.0)));
    }
}
