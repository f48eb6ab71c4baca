//! The wedges of a geodesic disk (the port of the Python engine's `tabletop.geometry.wedges`:
//! `wedges_of` with `ahead`, `held_sources`, `_reach_cap`): a full disk per source that the
//! others' reach does not hold, and one sector per reached corner, from the continuation of
//! `parent -> corner` turning towards the obstacle side until the corner's first edge.

use std::f64::consts::PI;

use crate::booleans::Pt;
use crate::booleans::Ring;
use crate::nearest::NodeTree;
use crate::rays::{Wedge, ARC_TOLERANCE};
use crate::search::Search;
use crate::visibility::{hypot, Corners, Pieces, Stamp};

/// The largest radius a disk about `p` needs on the box: its farthest corner, and twice the
/// arc tolerance more (even the chords of its inscribed arcs pass outside the box).
pub fn reach_cap(bounds: [f64; 4], p: Pt) -> f64 {
    let fx = (p[0] - bounds[0]).abs().max((p[0] - bounds[2]).abs());
    let fy = (p[1] - bounds[1]).abs().max((p[1] - bounds[3]).abs());
    hypot(fx, fy) + 2.0 * ARC_TOLERANCE
}

/// Which sources (never the start) have a disk the rest of the region holds: a node `u` sees
/// the source `s` and reaches it sooner by more than twice the arc tolerance, and no node's
/// path comes through `s` (the Python engine's `held_sources`, four candidates a source).
pub fn held_sources(s: &Search, pieces: &Pieces, stamp: &mut Stamp) -> Vec<bool> {
    let ns = s.n_sources;
    let mut out = vec![false; ns];
    if ns < 2 {
        return out;
    }
    let mut through = vec![false; s.nodes.len()];
    for &p in &s.parent {
        if p >= 0 {
            through[p as usize] = true;
        }
    }
    let margin = 2.0 * ARC_TOLERANCE;
    const TRIES: usize = 4;
    // many sources among many nodes: the candidates through the tree of the nodes (the same
    // few least lengths; a tie may pick another of equal length, as the scan's selection may)
    let tree = (ns * s.nodes.len() > 4096).then(|| NodeTree::new(&s.nodes, &s.dist));
    let mut cand: Vec<(f64, usize)> = Vec::with_capacity(s.nodes.len());
    let mut work = 0usize;
    for k in 1..ns {
        if through[k] {
            continue;
        }
        let p = s.nodes[k];
        cand.clear();
        if let Some(t) = &tree {
            let mut best = [(f64::INFINITY, usize::MAX); TRIES + 1];
            // only a node sooner by more than the margin holds the source: none longer looked for
            let got = t.nearest(&s.nodes, &s.dist, p, &mut best, &mut work, s.dist[k] - margin);
            cand.extend(best[..got].iter().filter(|c| c.1 != k).take(TRIES));
        } else {
            for (u, q) in s.nodes.iter().enumerate() {
                if u != k {
                    cand.push((s.dist[u] + hypot(p[0] - q[0], p[1] - q[1]), u));
                }
            }
        }
        let m = TRIES.min(cand.len());
        if m == 0 {
            continue;
        }
        if m < cand.len() {
            cand.select_nth_unstable_by(m - 1, |a, b| a.0.total_cmp(&b.0));
        }
        out[k] = cand[..m].iter().any(|&(d, u)| {
            d < s.dist[k] - margin && !pieces.blocked(s.nodes[u], p, stamp)
        });
    }
    out
}

/// The wedges of `s` (see the module docstring). `slack[c]`: the radius of a disk about corner
/// `c` inside the excluded set (a corner whose wedge is no larger casts none).
/// Each wedge comes with its node's row in `s`.
pub fn wedges(
    s: &Search,
    corners: &Corners,
    pieces: &Pieces,
    bounds: [f64; 4],
    slack: Option<&[f64]>,
) -> (Vec<Wedge>, Vec<usize>) {
    let mut stamp = Stamp::default();
    let held = held_sources(s, pieces, &mut stamp);
    let mut out = Vec::with_capacity(s.nodes.len());
    let mut rows = Vec::with_capacity(s.nodes.len());
    for k in (0..s.n_sources).filter(|&k| !held[k]) {
        let p = s.nodes[k];
        rows.push(k);
        out.push(Wedge {
            apex: p,
            radius: (s.distance - s.dist[k]).min(reach_cap(bounds, p)),
            start: 0.0,
            sweep: 2.0 * PI,
            full: true,
            prev: p,
            next: p,
        });
    }
    for k in s.n_sources..s.nodes.len() {
        let rho = s.distance - s.dist[k];
        if !(rho > 1e-9) {
            continue;
        }
        let ci = s.corner[k];
        if ci >= 0 {
            if let Some(sl) = slack {
                if rho <= sl[ci as usize] {
                    continue;
                }
            }
        }
        let v = s.nodes[k];
        let par = s.nodes[s.parent[k].max(0) as usize];
        let (dx, dy) = (v[0] - par[0], v[1] - par[1]);
        let dn = hypot(dx, dy);
        if !(dn > 1e-12) {
            continue;
        }
        let (dx, dy) = (dx / dn, dy / dn);
        let (pv, nx) = if ci >= 0 {
            (corners.prev[ci as usize], corners.next[ci as usize])
        } else {
            (v, v)
        };
        let (e1, e2) = ([pv[0] - v[0], pv[1] - v[1]], [nx[0] - v[0], nx[1] - v[1]]);
        let c1 = dx * e1[1] - dy * e1[0];
        let c2 = dx * e2[1] - dy * e2[0];
        let side = if c1.abs() > 1e-12 {
            c1.signum()
        } else if c2.abs() > 1e-12 {
            c2.signum()
        } else {
            0.0
        };
        if side == 0.0 {
            continue;
        }
        let p1 = (side * c1).atan2(dx * e1[0] + dy * e1[1]);
        let p2 = (side * c2).atan2(dx * e2[0] + dy * e2[1]);
        // an edge straight ahead (the path runs on along it) leaves no wedge at all
        let a1 = if p1 > -1e-9 { p1 } else { f64::INFINITY };
        let a2 = if p2 > -1e-9 { p2 } else { f64::INFINITY };
        let sweep = a1.min(a2);
        if !(sweep.is_finite() && sweep > 1e-9) {
            continue;
        }
        rows.push(k);
        out.push(Wedge {
            apex: v,
            radius: rho.min(reach_cap(bounds, v)),
            start: dy.atan2(dx),
            sweep: side * sweep,
            full: false,
            prev: pv,
            next: nx,
        });
    }
    (out, rows)
}

/// Runs of wedges that wrap one piece, each merged into one ring (the Python engine's
/// `wedges._chains`): when corner `v[i + 1]` follows `v[i]` on a piece's ring and its shortest
/// path comes from `v[i]`, wedge `i` ends on the ray through `v[i + 1]` where wedge `i + 1`
/// begins, so the run's union is the ring of its stars' outlines in order and back along the
/// apexes. `stars[w]`: wedge `w`'s outline (apex first), `rows[w]` its node. Returns the merged
/// rings (only those that do not cross themselves) and which wedges they hold.
pub fn merge_runs(
    s: &Search,
    corners: &Corners,
    stars: &[Ring],
    rows: &[usize],
) -> (Vec<Ring>, Vec<bool>) {
    let nw = stars.len();
    let mut used = vec![false; nw];
    let own = |w: usize| -> i64 {
        let ci = s.corner[rows[w]];
        if ci >= 0 { corners.owner[ci as usize] } else { -1 }
    };
    let mut wedge_of = vec![usize::MAX; s.nodes.len()];
    for w in 0..nw {
        if own(w) >= 0 && rows[w] >= s.n_sources && stars[w].len() >= 3 {
            wedge_of[rows[w]] = w;
        }
    }
    // child[j]: the first wedge whose corner follows j's on the piece's ring, reached from it
    let mut child = vec![usize::MAX; nw];
    let mut has_parent = vec![false; nw];
    for w in 0..nw {
        let k = rows[w];
        if wedge_of[k] != w || s.parent[k] < 0 {
            continue;
        }
        let pk = s.parent[k] as usize;
        let j = wedge_of[pk];
        if j == usize::MAX || own(j) != own(w) || child[j] != usize::MAX {
            continue;
        }
        let ci = s.corner[k] as usize;
        let pc = s.nodes[pk];
        let adj = |q: Pt| hypot(pc[0] - q[0], pc[1] - q[1]) <= 1e-12;
        if adj(corners.prev[ci]) || adj(corners.next[ci]) {
            child[j] = w;
            has_parent[w] = true;
        }
    }
    let mut out = Vec::new();
    for head in 0..nw {
        if child[head] == usize::MAX || has_parent[head] {
            continue;
        }
        let mut run = vec![head];
        while child[*run.last().unwrap()] != usize::MAX {
            let c = child[*run.last().unwrap()];
            if run.len() > nw {
                break; // (a cycle cannot happen: parents are reached sooner)
            }
            run.push(c);
        }
        let mut ring: Ring = vec![stars[run[0]][0]];
        for &w in &run {
            ring.extend_from_slice(&stars[w][1..]);
        }
        for &w in run[1..].iter().rev() {
            ring.push(stars[w][0]);
        }
        if is_simple(&ring) {
            for &w in &run {
                used[w] = true;
            }
            out.push(ring);
        }
    }
    (out, used)
}

/// Whether a closed ring has no two non-neighbouring edges that meet (and no neighbouring
/// edges that overlap), by a grid of the edges' boxes.
pub fn is_simple(ring: &[Pt]) -> bool {
    let n = ring.len();
    if n < 3 {
        return false;
    }
    let (mut x0, mut y0, mut x1, mut y1) = (f64::INFINITY, f64::INFINITY, -f64::INFINITY,
                                            -f64::INFINITY);
    for p in ring {
        x0 = x0.min(p[0]);
        y0 = y0.min(p[1]);
        x1 = x1.max(p[0]);
        y1 = y1.max(p[1]);
    }
    let side = ((n as f64).sqrt().ceil() as usize).clamp(1, 64);
    let (w, h) = ((x1 - x0).max(1e-12), (y1 - y0).max(1e-12));
    let cell = |x: f64, y: f64| -> (usize, usize) {
        (((x - x0) / w * side as f64).floor().clamp(0.0, (side - 1) as f64) as usize,
         ((y - y0) / h * side as f64).floor().clamp(0.0, (side - 1) as f64) as usize)
    };
    let mut cells: Vec<Vec<u32>> = vec![Vec::new(); side * side];
    for i in 0..n {
        let (a, b) = (ring[i], ring[(i + 1) % n]);
        let (i0, j0) = cell(a[0].min(b[0]), a[1].min(b[1]));
        let (i1, j1) = cell(a[0].max(b[0]), a[1].max(b[1]));
        for j in j0..=j1 {
            for ii in i0..=i1 {
                cells[j * side + ii].push(i as u32);
            }
        }
    }
    for c in &cells {
        for (x, &i) in c.iter().enumerate() {
            for &j in &c[x + 1..] {
                let (i, j) = (i as usize, j as usize);
                let near = j == i + 1 || (i == 0 && j == n - 1);
                if segments_meet(ring[i], ring[(i + 1) % n], ring[j], ring[(j + 1) % n], near) {
                    return false;
                }
            }
        }
    }
    true
}

#[inline]
fn orient(a: Pt, b: Pt, c: Pt) -> f64 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

#[inline]
fn on_segment(a: Pt, b: Pt, p: Pt) -> bool {
    p[0] >= a[0].min(b[0]) && p[0] <= a[0].max(b[0]) && p[1] >= a[1].min(b[1])
        && p[1] <= a[1].max(b[1])
}

/// Whether segments `a b` and `c d` meet; for neighbours (sharing `b == c` or `d == a`),
/// whether they overlap beyond the shared end.
fn segments_meet(a: Pt, b: Pt, c: Pt, d: Pt, neighbours: bool) -> bool {
    let (o1, o2, o3, o4) = (orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b));
    if neighbours {
        // only a fold back along the shared end counts
        return o1 == 0.0 && o2 == 0.0 && {
            let (u, v) = ([b[0] - a[0], b[1] - a[1]], [d[0] - c[0], d[1] - c[1]]);
            u[0] * v[0] + u[1] * v[1] < 0.0
        };
    }
    if ((o1 > 0.0 && o2 < 0.0) || (o1 < 0.0 && o2 > 0.0))
        && ((o3 > 0.0 && o4 < 0.0) || (o3 < 0.0 && o4 > 0.0))
    {
        return true;
    }
    (o1 == 0.0 && on_segment(a, b, c)) || (o2 == 0.0 && on_segment(a, b, d))
        || (o3 == 0.0 && on_segment(c, d, a)) || (o4 == 0.0 && on_segment(c, d, b))
}

/// Whether every point of the free parts that hold a source is within reach: the search is
/// complete and every reached node has more left than its way to the farthest corner of the
/// box (then the region is those parts, exactly: the Python engine's `whole_region`).
pub fn reaches_past_the_box(s: &Search, bounds: [f64; 4]) -> bool {
    if bounds[2] < bounds[0] || bounds[3] < bounds[1] {
        return false;
    }
    (0..s.nodes.len()).all(|k| {
        s.dist[k] + reach_cap(bounds, s.nodes[k]) - 2.0 * ARC_TOLERANCE <= s.distance
    })
}
