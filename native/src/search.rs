//! Shortest paths among the pieces from one or more sources within a limit (the port of the
//! Python engine's `tabletop.geometry.geodesic` search): edges from each source to the corners
//! it sees along a line tangent at them, then Dijkstra over the corner graph, stopped at the
//! limit. Paths bend only at corners (Lozano-Perez and Wesley 1979).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::booleans::Pt;
use crate::limits::{check, Refused, MAX_SOURCES};
use crate::visibility::{hypot, tangent, Corners, Pieces, Stamp};

/// A search's reached nodes as rows: the sources first (the start is row 0), then the reached
/// corners in index order.
#[derive(Debug, Clone, Default)]
pub struct Search {
    pub nodes: Vec<Pt>,
    pub dist: Vec<f64>,
    /// each row's predecessor on its shortest path (-1: a source)
    pub parent: Vec<i64>,
    /// each row's corner (-1: a source)
    pub corner: Vec<i64>,
    /// rows `0 .. n_sources` are the sources
    pub n_sources: usize,
    /// the limit
    pub distance: f64,
}

#[derive(PartialEq)]
struct Item(f64, u32);

impl Eq for Item {}

impl Ord for Item {
    fn cmp(&self, other: &Self) -> Ordering {
        // a min-heap on the distance, then on the corner (as Python's heapq of tuples)
        other.0.total_cmp(&self.0).then_with(|| other.1.cmp(&self.1))
    }
}

impl PartialOrd for Item {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Whether `p` lies in a piece (shrunk by the blocking test's erosion) or off the box.
pub fn stands_in_piece(pieces: &Pieces, bounds: [f64; 4], p: Pt, stamp: &mut Stamp) -> bool {
    let tol = 1e-9;
    !(p[0] >= bounds[0] - tol && p[0] <= bounds[2] + tol && p[1] >= bounds[1] - tol
        && p[1] <= bounds[3] + tol)
        || pieces.blocked(p, p, stamp)
}

/// The search from `sources` (`(x, y, d0)`: reached already at `d0`; the first is the start,
/// kept whatever its `d0`; the others only when free and `d0 < distance`) within `distance`.
/// `bends`: 2 for paths through the corner graph, 1 for paths bending at most once (at a
/// corner a source sees). The corner graph must hold every edge up to `distance`.
pub fn search(
    corners: &Corners,
    pieces: &Pieces,
    bounds: [f64; 4],
    sources: &[[f64; 3]],
    distance: f64,
    bends: u32,
) -> Result<Search, Refused> {
    check("sources", sources.len(), MAX_SOURCES)?;
    if sources.is_empty() || sources.iter().flatten().any(|v| !v.is_finite())
        || !distance.is_finite()
    {
        return Err(Refused("a source or the distance is not finite".into()));
    }
    let mut stamp = Stamp::default();
    let mut src: Vec<[f64; 3]> = vec![sources[0]];
    for s in &sources[1..] {
        if s[2] < distance && !stands_in_piece(pieces, bounds, [s[0], s[1]], &mut stamp) {
            src.push(*s);
        }
    }
    let mut near: Vec<u32> = Vec::new();
    let edges: Vec<Vec<(u32, f64)>> = src
        .iter()
        .map(|s| source_edges(corners, pieces, [s[0], s[1]], distance - s[2] + 1e-9, &mut stamp,
                              &mut near))
        .collect();
    Ok(search_with(corners, &src, &edges, distance, bends))
}

/// The corners within `reach` of the source `p` that it sees along a line tangent at them,
/// with their distances (ascending by corner).
pub fn source_edges(corners: &Corners, pieces: &Pieces, p: Pt, reach: f64, stamp: &mut Stamp,
                    near: &mut Vec<u32>) -> Vec<(u32, f64)> {
    // (unsorted: the corners kept, far fewer, are sorted)
    corners.near_after(p, reach, None, near);
    let mut out: Vec<(u32, f64)> = near.iter()
        .filter(|&&t| {
            let t = t as usize;
            let c = corners.at[t];
            tangent(c, p, corners.prev[t], corners.next[t]) && !pieces.blocked(p, c, stamp)
        })
        .map(|&t| {
            let c = corners.at[t as usize];
            (t, hypot(c[0] - p[0], c[1] - p[1]))
        })
        .collect();
    out.sort_unstable_by_key(|e| e.0);
    out
}

/// [`search`] from sources already kept (the start first) with their edges
/// ([`source_edges`], one list a source).
pub fn search_with(corners: &Corners, src: &[[f64; 3]], edges: &[Vec<(u32, f64)>],
                   distance: f64, bends: u32) -> Search {
    let n = corners.len();
    let lim = distance + 1e-12;
    let mut label = vec![f64::INFINITY; n];
    let mut par = vec![-1i64; n]; // a corner's parent: another corner, or -(source + 2)
    let mut heap: BinaryHeap<Item> = BinaryHeap::new();
    for (si, (s, es)) in src.iter().zip(edges).enumerate() {
        for &(t, w) in es {
            let t = t as usize;
            let dj = s[2] + w;
            if dj <= lim && dj < label[t] {
                label[t] = dj;
                par[t] = -(si as i64) - 2;
                heap.push(Item(dj, t as u32));
            }
        }
    }
    let graph = bends > 1;
    while let Some(Item(du, u)) = heap.pop() {
        let u = u as usize;
        if du > label[u] {
            continue;
        }
        if !graph {
            continue;
        }
        for e in corners.ptr[u]..corners.ptr[u + 1] {
            let j = corners.nbr[e] as usize;
            let dj = du + corners.w[e];
            if dj <= lim && dj < label[j] {
                label[j] = dj;
                par[j] = u as i64;
                heap.push(Item(dj, j as u32));
            }
        }
    }
    // rows: the sources, then the reached corners in index order
    let ns = src.len();
    let mut row = vec![-1i64; n];
    let mut out = Search { n_sources: ns, distance, ..Default::default() };
    for s in src {
        out.nodes.push([s[0], s[1]]);
        out.dist.push(s[2]);
        out.parent.push(-1);
        out.corner.push(-1);
    }
    for k in 0..n {
        if label[k].is_finite() {
            row[k] = out.nodes.len() as i64;
            out.nodes.push(corners.at[k]);
            out.dist.push(label[k]);
            out.corner.push(k as i64);
            out.parent.push(0); // set below
        }
    }
    for r in ns..out.nodes.len() {
        let k = out.corner[r] as usize;
        out.parent[r] = if par[k] <= -2 { -par[k] - 2 } else { row[par[k] as usize] };
    }
    out
}

impl Search {
    /// The shortest path to row `k` (its source first).
    pub fn path(&self, mut k: usize) -> Vec<Pt> {
        let mut out = vec![self.nodes[k]];
        while self.parent[k] >= 0 {
            k = self.parent[k] as usize;
            out.push(self.nodes[k]);
        }
        out.reverse();
        out
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn square(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<Pt> {
        vec![[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
    }

    /// The corners of convex rings (every vertex; none inside another piece here).
    pub(crate) fn corners_of(rings: &[Vec<Pt>]) -> Corners {
        let (mut at, mut pv, mut nx, mut ow) = (vec![], vec![], vec![], vec![]);
        for (i, r) in rings.iter().enumerate() {
            let m = r.len();
            for k in 0..m {
                at.push(r[k]);
                pv.push(r[(k + m - 1) % m]);
                nx.push(r[(k + 1) % m]);
                ow.push(i as i64);
            }
        }
        let mut c = Corners::new(at, pv, nx, ow).unwrap();
        // the full graph: every tangent, unblocked pair
        let p = Pieces::new(rings).unwrap();
        let mut s = Stamp::default();
        let n = c.len();
        let (mut ptr, mut nbr, mut w) = (vec![0usize], vec![], vec![]);
        for i in 0..n {
            for j in 0..n {
                if i != j && tangent(c.at[i], c.at[j], c.prev[i], c.next[i])
                    && tangent(c.at[j], c.at[i], c.prev[j], c.next[j])
                    && !p.blocked(c.at[i], c.at[j], &mut s)
                {
                    nbr.push(j as u32);
                    w.push(hypot(c.at[j][0] - c.at[i][0], c.at[j][1] - c.at[i][1]));
                }
            }
            ptr.push(nbr.len());
        }
        c.set_graph(ptr, nbr, w, f64::INFINITY).unwrap();
        c
    }

    #[test]
    fn around_a_wall() {
        // a wall from (5, -10) to (6, 10): from (0, 0) to behind it at (11, 0) the path goes
        // round a corner at the top or bottom
        let rings = vec![square(5.0, -10.0, 6.0, 10.0)];
        let c = corners_of(&rings);
        let p = Pieces::new(&rings).unwrap();
        let s = search(&c, &p, [-50.0, -50.0, 50.0, 50.0], &[[0.0, 0.0, 0.0]], 40.0, 2)
            .unwrap();
        assert_eq!(s.n_sources, 1);
        // every corner reached; the far ones through the near ones
        assert_eq!(s.nodes.len(), 5);
        let far = (0..s.nodes.len()).find(|&k| s.nodes[k] == [6.0, 10.0]).unwrap();
        let want = hypot(5.0, 10.0) + 1.0;
        assert!((s.dist[far] - want).abs() < 1e-12);
        assert_eq!(s.path(far), vec![[0.0, 0.0], [5.0, 10.0], [6.0, 10.0]]);
        // a limit short of the far corners
        let s = search(&c, &p, [-50.0, -50.0, 50.0, 50.0], &[[0.0, 0.0, 0.0]], 11.5, 2)
            .unwrap();
        assert_eq!(s.nodes.len(), 3);
    }

    #[test]
    fn a_source_in_a_piece_is_dropped_the_start_kept() {
        let rings = vec![square(5.0, -10.0, 6.0, 10.0)];
        let c = corners_of(&rings);
        let p = Pieces::new(&rings).unwrap();
        let s = search(&c, &p, [-50.0, -50.0, 50.0, 50.0],
                       &[[0.0, 0.0, 0.0], [5.5, 0.0, 0.0], [20.0, 0.0, 50.0], [8.0, 0.0, 1.0]],
                       40.0, 2)
            .unwrap();
        assert_eq!(s.n_sources, 2);
        assert_eq!(s.nodes[1], [8.0, 0.0]);
    }
}
