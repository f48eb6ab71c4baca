//! Each corner's slack in an excluded set (the Python engine's `ReachMap.slack`, GEOS's
//! `contains` and nearest boundary segment there): the radius of the largest disk about the
//! corner inside the set, that is its distance to the set's boundary when the corner lies
//! strictly inside, else 0. A wedge no longer than its corner's slack lies inside the set and
//! casts nothing the cut keeps (`wedges::wedges` skips it).
//!
//! The set's edges are put in horizontal bands (each edge in every band its height spans); a
//! corner is inside by the crossings of a ray to its right with the edges of its own band, and
//! its distance to the boundary is the least over the bands outwards from its own until the
//! next band lies farther than the nearest edge found. Work: the corners times the edges of
//! the bands each looks at, at most the corners times the bands' entries (16 an edge at most).

use crate::booleans::{Poly, Pt};

/// Most bands (about the square root of the set's edges, so a band holds few).
const MAX_BANDS: usize = 1024;
/// Most entries of edges in bands, per edge (an edge spanning many bands is in each): past it,
/// fewer bands.
const ENTRIES_AN_EDGE: usize = 16;

/// The slack of each of `corners` in the set `set` (non-zero winding of valid polygons:
/// exteriors and holes disjoint but for points, as GEOS makes them).
pub fn corner_slack(corners: &[Pt], set: &[Poly]) -> Vec<f64> {
    let edges: Vec<[Pt; 2]> = set
        .iter()
        .flatten()
        .flat_map(|r| (0..r.len()).map(move |i| [r[i], r[(i + 1) % r.len()]]))
        .filter(|e| e[0] != e[1])
        .collect();
    if edges.is_empty() {
        return vec![0.0; corners.len()];
    }
    let bands = Bands::new(edges);
    corners.iter().map(|&p| bands.slack(p)).collect()
}

struct Bands {
    edges: Vec<[Pt; 2]>,
    y0: f64,
    h: f64,
    /// the edges of band `j`: `of[start[j]..start[j + 1]]`
    start: Vec<usize>,
    of: Vec<u32>,
}

impl Bands {
    fn new(edges: Vec<[Pt; 2]>) -> Bands {
        let (mut y0, mut y1) = (f64::INFINITY, f64::NEG_INFINITY);
        for e in &edges {
            y0 = y0.min(e[0][1]).min(e[1][1]);
            y1 = y1.max(e[0][1]).max(e[1][1]);
        }
        let mut n = ((edges.len() as f64).sqrt().ceil() as usize).clamp(1, MAX_BANDS);
        loop {
            let h = ((y1 - y0) / n as f64).max(f64::MIN_POSITIVE);
            let span = |e: &[Pt; 2]| -> (usize, usize) {
                let band = |y: f64| (((y - y0) / h).floor().max(0.0) as usize).min(n - 1);
                let (lo, hi) = (e[0][1].min(e[1][1]), e[0][1].max(e[1][1]));
                (band(lo), band(hi))
            };
            let entries: usize = edges.iter().map(|e| { let (a, b) = span(e); b - a + 1 }).sum();
            if n > 1 && entries > ENTRIES_AN_EDGE * edges.len() {
                n /= 2;
                continue;
            }
            let mut count = vec![0usize; n + 1];
            for e in &edges {
                let (a, b) = span(e);
                for j in a..=b {
                    count[j + 1] += 1;
                }
            }
            for j in 0..n {
                count[j + 1] += count[j];
            }
            let mut fill = count.clone();
            let mut of = vec![0u32; entries];
            for (k, e) in edges.iter().enumerate() {
                let (a, b) = span(e);
                for j in a..=b {
                    of[fill[j]] = k as u32;
                    fill[j] += 1;
                }
            }
            return Bands { edges, y0, h, start: count, of };
        }
    }

    fn bands(&self) -> usize {
        self.start.len() - 1
    }

    fn band(&self, j: usize) -> &[u32] {
        &self.of[self.start[j]..self.start[j + 1]]
    }

    fn slack(&self, p: Pt) -> f64 {
        let n = self.bands();
        let top = self.y0 + n as f64 * self.h;
        if !(p[1] >= self.y0 && p[1] <= top && p[0].is_finite()) {
            return 0.0; // above or below every edge: outside
        }
        let j = (((p[1] - self.y0) / self.h).floor().max(0.0) as usize).min(n - 1);
        // inside: an odd number of edges crosses the ray to the right (half-open in y)
        let mut inside = false;
        for &k in self.band(j) {
            let [a, b] = self.edges[k as usize];
            if (a[1] > p[1]) != (b[1] > p[1]) {
                let x = a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1]);
                if x > p[0] {
                    inside = !inside;
                }
            }
        }
        if !inside {
            return 0.0;
        }
        // the nearest edge: bands outwards from the corner's own until the next lies farther
        // (the least distance, as `to_segment` gives it: an edge's `hypot` only where its
        // squared distance could be less, within rounding: the same least value, a few of the
        // calls)
        let mut best = f64::INFINITY;
        let mut bound = f64::INFINITY;
        let mut scan = |b: usize, best: &mut f64| {
            for &e in self.band(b) {
                let [ex, ey] = to_segment_offset(p, self.edges[e as usize]);
                if ex * ex + ey * ey <= bound {
                    let d = ex.hypot(ey);
                    if d < *best {
                        *best = d;
                        bound = d * d * (1.0 + 1e-9);
                    }
                }
            }
        };
        let mut k = 0usize;
        loop {
            if k == 0 {
                scan(j, &mut best);
            } else {
                if let Some(b) = j.checked_sub(k) {
                    scan(b, &mut best);
                }
                if j + k < n {
                    scan(j + k, &mut best);
                }
            }
            // an edge not looked at lies wholly in the bands below j - k or above j + k
            let below = if j > k { p[1] - (self.y0 + (j - k) as f64 * self.h) } else { f64::INFINITY };
            let above = if j + k + 1 < n { self.y0 + (j + k + 1) as f64 * self.h - p[1] }
                        else { f64::INFINITY };
            if best <= below.min(above) {
                break;
            }
            k += 1;
        }
        if best > 0.0 && best.is_finite() { best } else { 0.0 }
    }
}

/// The distance from `p` to the segment `s`.
#[cfg(test)]
fn to_segment(p: Pt, s: [Pt; 2]) -> f64 {
    let [ex, ey] = to_segment_offset(p, s);
    ex.hypot(ey)
}

/// From the nearest point of the segment `s` to `p` (its length the distance).
fn to_segment_offset(p: Pt, s: [Pt; 2]) -> Pt {
    let [a, b] = s;
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    [p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pickup::tests::square;

    /// The slack by looking at every edge (the definition).
    fn brute(p: Pt, set: &[Poly]) -> f64 {
        let edges: Vec<[Pt; 2]> = set.iter().flatten()
            .flat_map(|r| (0..r.len()).map(move |i| [r[i], r[(i + 1) % r.len()]])).collect();
        let mut inside = false;
        for &[a, b] in &edges {
            if (a[1] > p[1]) != (b[1] > p[1])
                && a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1]) > p[0] {
                inside = !inside;
            }
        }
        let d = edges.iter().map(|&e| to_segment(p, e)).fold(f64::INFINITY, f64::min);
        if inside && d > 0.0 { d } else { 0.0 }
    }

    #[test]
    fn a_square_with_a_hole() {
        let set = vec![vec![square(0.0, 0.0, 10.0, 10.0), {
            let mut h = square(4.0, 4.0, 6.0, 6.0);
            h.reverse();
            h
        }]];
        let got = corner_slack(&[[1.0, 5.0], [5.0, 5.0], [3.0, 3.0], [11.0, 5.0], [0.0, 5.0],
                                 [5.0, 9.5]], &set);
        assert_eq!(got, vec![1.0, 0.0, 2f64.sqrt(), 0.0, 0.0, 0.5]);
    }

    #[test]
    fn many_disks_the_same_as_every_edge() {
        // 60 overlapping-free 64-gons on a lattice (thousands of edges, many bands) and a
        // long thin one across them all; corners on a fine grid and on the vertices
        let mut set: Vec<Poly> = Vec::new();
        for i in 0..10 {
            for j in 0..6 {
                let (cx, cy) = (i as f64 * 3.0, j as f64 * 3.0 + 1.0);
                set.push(vec![(0..64).map(|k| {
                    let a = k as f64 * std::f64::consts::TAU / 64.0;
                    [cx + 1.2 * a.cos(), cy + 1.2 * a.sin()]
                }).collect()]);
            }
        }
        set.push(vec![square(-2.0, -0.9, 30.0, -0.7)]);
        let mut pts: Vec<Pt> = (0..120).flat_map(|i| (0..80).map(move |j| {
            [-2.0 + i as f64 * 0.27, -1.5 + j as f64 * 0.23]
        })).collect();
        pts.extend(set.iter().flatten().flatten().copied().step_by(7));
        let got = corner_slack(&pts, &set);
        let mut inside = 0;
        for (p, g) in pts.iter().zip(&got) {
            let want = brute(*p, &set);
            // (the same value to the last bit: the nearest edge's `hypot`)
            assert_eq!(g.to_bits(), want.to_bits(), "{p:?}: {g} against {want}");
            inside += (want > 0.0) as usize;
        }
        assert!(inside > 1000, "{inside}");
    }

    #[test]
    fn edges_all_in_one_band_and_an_empty_set() {
        let flat = vec![vec![square(0.0, 0.0, 100.0, 1e-9)]];
        assert_eq!(corner_slack(&[[50.0, 5e-10], [50.0, 1.0]], &flat)[1], 0.0);
        assert_eq!(corner_slack(&[[1.0, 1.0]], &[]), vec![0.0]);
        assert_eq!(corner_slack(&[[f64::NAN, 1.0]], &[vec![square(0.0, 0.0, 2.0, 2.0)]]),
                   vec![0.0]);
    }
}
