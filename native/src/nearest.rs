//! The few nodes of a search nearest a point by the length through them (`dist[k] + |p -
//! nodes[k]|`), found by branch and bound in a tree of boxes instead of by looking at every
//! node: the same answer as the scan (the `k` least by length, then row), since a box's bound
//! (its least `dist` plus the point's distance to the box, each step rounded the same way as
//! the length itself) is never more than the length through any node in it.

use crate::booleans::Pt;
use crate::visibility::hypot;

/// Nodes a leaf holds.
const LEAF: usize = 8;

/// A box of nodes: its extent, the least length already travelled to any of them, and either
/// its two halves or (a leaf) its rows `lo .. hi` of [`NodeTree::rows`].
struct Cell {
    b: [f64; 4],
    min_d: f64,
    lo: u32,
    hi: u32,
    kids: Option<(u32, u32)>,
}

/// The tree of one search's nodes (built once per search, asked for many points).
pub struct NodeTree {
    rows: Vec<u32>,
    cells: Vec<Cell>,
}

impl NodeTree {
    /// The tree of `nodes` with their lengths `dist` (one a node).
    pub fn new(nodes: &[Pt], dist: &[f64]) -> NodeTree {
        let mut t = NodeTree { rows: (0..nodes.len() as u32).collect(), cells: Vec::new() };
        if !nodes.is_empty() {
            t.build(nodes, dist, 0, nodes.len());
        }
        t
    }

    fn build(&mut self, nodes: &[Pt], dist: &[f64], lo: usize, hi: usize) -> u32 {
        let mut b = [f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY];
        let mut min_d = f64::INFINITY;
        for &r in &self.rows[lo..hi] {
            let q = nodes[r as usize];
            b = [b[0].min(q[0]), b[1].min(q[1]), b[2].max(q[0]), b[3].max(q[1])];
            min_d = min_d.min(dist[r as usize]);
        }
        let at = self.cells.len();
        self.cells.push(Cell { b, min_d, lo: lo as u32, hi: hi as u32, kids: None });
        if hi - lo > LEAF {
            // halves along the longer side, at the median
            let axis = usize::from(b[3] - b[1] > b[2] - b[0]);
            let mid = lo + (hi - lo) / 2;
            self.rows[lo..hi].select_nth_unstable_by(mid - lo, |&u, &v| {
                nodes[u as usize][axis].total_cmp(&nodes[v as usize][axis])
            });
            let a = self.build(nodes, dist, lo, mid);
            let c = self.build(nodes, dist, mid, hi);
            self.cells[at].kids = Some((a, c));
        }
        at as u32
    }

    /// The bound of cell `c` for `p`: no node in it has a smaller length.
    #[inline]
    fn bound(&self, c: &Cell, p: Pt) -> f64 {
        let dx = (c.b[0] - p[0]).max(p[0] - c.b[2]).max(0.0);
        let dy = (c.b[1] - p[1]).max(p[1] - c.b[3]).max(0.0);
        c.min_d + hypot(dx, dy)
    }

    /// The `best.len()` rows `k` least by `(dist[k] + |p - nodes[k]|, k)`, ascending, in
    /// `best` (how many there are: the return value), of those whose length is at most `cap`
    /// (`f64::INFINITY`: every row); `work` counts the cells and nodes looked at. The same
    /// rows, lengths and order as looking at every node in row order (and keeping those up to
    /// `cap`); a box whose bound is over `cap` is not looked into (a turn node no row reaches
    /// within the move costs a few boxes, not the search for its nearest rows).
    pub fn nearest(&self, nodes: &[Pt], dist: &[f64], p: Pt, best: &mut [(f64, usize)],
                   work: &mut usize, cap: f64) -> usize {
        let want = best.len();
        let mut kept = 0usize;
        if self.cells.is_empty() || want == 0 {
            return 0;
        }
        let mut stack: Vec<(f64, u32)> = Vec::with_capacity(64);
        stack.push((self.bound(&self.cells[0], p), 0));
        while let Some((lb, c)) = stack.pop() {
            *work += 1;
            if lb > cap || (kept == want && lb > best[want - 1].0) {
                continue;
            }
            let cell = &self.cells[c as usize];
            match cell.kids {
                Some((a, b)) => {
                    let (la, lb2) = (self.bound(&self.cells[a as usize], p),
                                     self.bound(&self.cells[b as usize], p));
                    // the nearer half is looked at first (pushed last)
                    if la <= lb2 {
                        stack.push((lb2, b));
                        stack.push((la, a));
                    } else {
                        stack.push((la, a));
                        stack.push((lb2, b));
                    }
                }
                None => {
                    for &r in &self.rows[cell.lo as usize..cell.hi as usize] {
                        let k = r as usize;
                        let q = nodes[k];
                        let dd = dist[k] + hypot(p[0] - q[0], p[1] - q[1]);
                        *work += 1;
                        if dd > cap || (kept == want && !less((dd, k), best[want - 1])) {
                            continue;
                        }
                        let mut at = kept.min(want - 1);
                        while at > 0 && less((dd, k), best[at - 1]) {
                            best[at] = best[at - 1];
                            at -= 1;
                        }
                        best[at] = (dd, k);
                        kept = (kept + 1).min(want);
                    }
                }
            }
        }
        kept
    }
}

/// `(length, row)` before another: by length, then row (the order of a scan in row order,
/// which keeps the earlier of two equal lengths).
#[inline]
fn less(a: (f64, usize), b: (f64, usize)) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1 < b.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scan the tree stands for.
    fn scan(nodes: &[Pt], dist: &[f64], p: Pt, want: usize) -> Vec<(f64, usize)> {
        let mut all: Vec<(f64, usize)> = nodes.iter().zip(dist).enumerate()
            .map(|(k, (q, d))| (d + hypot(p[0] - q[0], p[1] - q[1]), k)).collect();
        all.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        all.truncate(want);
        all
    }

    /// A small generator of numbers in [0, 1) (no dependency for the tests).
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self) -> f64 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    #[test]
    fn the_tree_finds_what_the_scan_finds() {
        let mut g = Lcg(7);
        for n in [0usize, 1, 3, 8, 9, 40, 500, 3000] {
            // clusters, duplicates and equal lengths (a grid of points at length 0) included
            let mut nodes: Vec<Pt> = (0..n).map(|_| [g.next() * 30.0, g.next() * 20.0]).collect();
            let mut dist: Vec<f64> = (0..n).map(|_| if g.next() < 0.3 { 0.0 } else {
                g.next() * 12.0 }).collect();
            if n > 10 {
                for k in 0..n / 5 {
                    nodes[k] = [(k % 7) as f64, (k / 7) as f64];
                    dist[k] = 1.0;
                }
                nodes[n - 1] = nodes[0];
                dist[n - 1] = dist[0];
            }
            let t = NodeTree::new(&nodes, &dist);
            for _ in 0..200 {
                let p = if g.next() < 0.2 { [(g.next() * 8.0).floor(), (g.next() * 8.0).floor()] }
                        else { [g.next() * 40.0 - 5.0, g.next() * 30.0 - 5.0] };
                for want in [1usize, 4, 8] {
                    let mut best = vec![(f64::INFINITY, usize::MAX); want];
                    let mut work = 0;
                    let kept = t.nearest(&nodes, &dist, p, &mut best, &mut work, f64::INFINITY);
                    assert_eq!(&best[..kept], &scan(&nodes, &dist, p, want)[..], "n {n} p {p:?}");
                    // under a cap: the scan's rows up to it (fewer than wanted where few are)
                    for cap in [0.0, 1.0, 6.5, 14.0] {
                        let mut capped = vec![(f64::INFINITY, usize::MAX); want];
                        let got = t.nearest(&nodes, &dist, p, &mut capped, &mut work, cap);
                        let all: Vec<(f64, usize)> = scan(&nodes, &dist, p, n)
                            .into_iter().filter(|r| r.0 <= cap).take(want).collect();
                        assert_eq!(&capped[..got], &all[..], "n {n} p {p:?} cap {cap}");
                    }
                }
            }
        }
    }
}
