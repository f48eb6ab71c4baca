//! The tangent visibility graph of one map's corners (the port of the Python engine's
//! `ReachMap.ensure_graph`): an edge `u v` for every pair of corners at most `cap` apart whose
//! line leaves both ring neighbours of each end on one side (`visibility::tangent`) and meets
//! no piece's interior (`Pieces::blocked`, each piece shrunk by `ERODE`). The rows are in the
//! Python engine's order (a corner's neighbours after it, ascending, then those before it,
//! ascending) with its lengths (`hypot`), so a search over either graph takes the same steps.
//!
//! The Python engine tests a segment against the union of the pieces shrunk by `ERODE`; the two
//! differ only where two pieces overlap by less than `2 ERODE` (1e-7") or touch along a seam
//! without overlapping (a segment along the seam is free here): pieces grown by a footprint or a
//! radius overlap by the footprint's or disk's width along a shared edge.

use crate::booleans::Pt;
use crate::limits::{check, Refused, MAX_GRAPH_EDGES, MAX_GRAPH_PAIRS};
use crate::visibility::{tangent, Corners, Pieces, Stamp};

/// The corner graph in compressed rows: `ptr` (one more than the corners), `nbr`, `w`.
pub struct Graph {
    pub ptr: Vec<usize>,
    pub nbr: Vec<u32>,
    pub w: Vec<f64>,
}

#[inline]
fn norm(p: Pt, q: Pt) -> f64 {
    // the Python engine's `norm` (sqrt of the sum of squares), for the cut at `cap`
    let (dx, dy) = (q[0] - p[0], q[1] - p[1]);
    (dx * dx + dy * dy).sqrt()
}

/// Every edge of the corner graph up to `cap` long (module docs); refused when the pairs of
/// corners within `cap` of one another or the edges are past the limits.
pub fn corner_graph(pieces: &Pieces, c: &Corners, cap: f64) -> Result<Graph, Refused> {
    let n = c.len();
    let mut near: Vec<u32> = Vec::new();
    let mut stamp = Stamp::default();
    // (i, j) with i < j, ascending by i then j
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    let mut seen = 0usize;
    for i in 0..n {
        let u = c.at[i];
        // the corners after this one within reach, each pair once (unsorted: the pairs kept
        // are sorted below, far fewer)
        c.near_after(u, cap, Some(i as u32), &mut near);
        seen += near.len();
        check("corner pairs within the graph's reach", seen, MAX_GRAPH_PAIRS)?;
        let row = pairs.len();
        for &j in near.iter() {
            let jj = j as usize;
            let v = c.at[jj];
            if norm(u, v) > cap || norm(u, v).is_nan() {
                continue;
            }
            if !tangent(u, v, c.prev[i], c.next[i]) || !tangent(v, u, c.prev[jj], c.next[jj]) {
                continue;
            }
            if pieces.blocked(u, v, &mut stamp) {
                continue;
            }
            pairs.push((i as u32, j));
            check("graph edges", 2 * pairs.len(), MAX_GRAPH_EDGES)?;
        }
        pairs[row..].sort_unstable();
    }
    // rows: first the pairs where the corner is the smaller end (ascending other end), then
    // those where it is the larger (ascending other end), as the Python engine's stable sort
    let mut deg = vec![0usize; n + 1];
    for &(i, j) in &pairs {
        deg[i as usize] += 1;
        deg[j as usize] += 1;
    }
    let mut ptr = vec![0usize; n + 1];
    for k in 0..n {
        ptr[k + 1] = ptr[k] + deg[k];
    }
    let mut fill = ptr.clone();
    let m = ptr[n];
    let mut nbr = vec![0u32; m];
    let mut w = vec![0.0f64; m];
    // first each pair at its smaller end, then at its larger (the pairs are sorted by the
    // smaller end, so each row's second half is ascending too)
    for larger in [false, true] {
        for &(i, j) in &pairs {
            let (u, v) = (c.at[i as usize], c.at[j as usize]);
            let (row, other) = if larger { (j, i) } else { (i, j) };
            let k = fill[row as usize];
            nbr[k] = other;
            w[k] = (v[0] - u[0]).hypot(v[1] - u[1]);
            fill[row as usize] += 1;
        }
    }
    Ok(Graph { ptr, nbr, w })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<Pt> {
        vec![[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
    }

    fn corners_of(rings: &[Vec<Pt>]) -> Corners {
        let (mut at, mut prev, mut next, mut owner) = (vec![], vec![], vec![], vec![]);
        for (k, r) in rings.iter().enumerate() {
            for i in 0..r.len() {
                at.push(r[i]);
                prev.push(r[(i + r.len() - 1) % r.len()]);
                next.push(r[(i + 1) % r.len()]);
                owner.push(k as i64);
            }
        }
        Corners::new(at, prev, next, owner).unwrap()
    }

    #[test]
    fn two_squares_see_each_other_along_their_tangents() {
        let rings = vec![square(0.0, 0.0, 1.0, 1.0), square(3.0, 0.0, 4.0, 1.0)];
        let p = Pieces::new(&rings).unwrap();
        let c = corners_of(&rings);
        let g = corner_graph(&p, &c, 100.0).unwrap();
        let edges: Vec<(usize, u32)> = (0..c.len())
            .flat_map(|i| g.nbr[g.ptr[i]..g.ptr[i + 1]].iter().map(move |&j| (i, j)))
            .collect();
        // symmetric; a square's diagonal runs through it; the bottom line touches both
        // squares along their edges (free); a line from the first's bottom right corner to the
        // second's top left leaves both on one side
        assert!(edges.iter().all(|&(i, j)| edges.contains(&(j as usize, i as u32))));
        assert!(!edges.contains(&(0, 2)) && !edges.contains(&(4, 6)));
        assert!(edges.contains(&(0, 5)) && edges.contains(&(1, 4)) && edges.contains(&(1, 7)));
        // from (0, 0) to (4, 1) the line cuts the first square's top right corner region: no
        assert!(!edges.contains(&(0, 6)));
        // rows: after-then-before, ascending
        let row1: Vec<u32> = g.nbr[g.ptr[1]..g.ptr[2]].to_vec();
        let split = row1.iter().position(|&j| j < 1).unwrap_or(row1.len());
        assert!(row1[..split].windows(2).all(|w| w[0] < w[1]));
        assert!(row1[split..].iter().all(|&j| j < 1));
        // and a short cap keeps only the short edges
        let g = corner_graph(&p, &c, 1.5).unwrap();
        assert!(g.w.iter().all(|&w| w <= 1.5) && !g.w.is_empty());
    }
}
