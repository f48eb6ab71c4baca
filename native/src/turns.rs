//! A turning mover's turns on the way in one call (the port of the rounds of the Python
//! engine's `tabletop.geometry.turn_reach.TurnReach`, the reference): each facing layer is a
//! search from its sources ([`crate::search::search`]); round after round, every layer's
//! lengths at the turn nodes it may turn at are found ([`distance_at`]: the nearest few nodes
//! of its search, the first one that sees the point), and a node that one layer reaches sooner
//! (by more than the gain) than another layer that may turn there becomes a source of that
//! other layer, until no layer gains or the rounds run out.
//!
//! Each source added keeps where it came from (the layer, the source row of that layer's
//! search and the path from it, as the search was in that round), so the caller builds the
//! witnesses without a cycle: a turn node's witness runs only through sources added in earlier
//! rounds.
//!
//! A layer whose start (its first source) stands in a piece is not answered here (the Python
//! engine cuts such pieces per query): [`turn_rounds`] answers `None` and the caller falls back.

use crate::booleans::Pt;
use crate::limits::{check, Refused, MAX_LAYERS, MAX_SOURCES, MAX_TURN_CELLS, MAX_TURN_WORK};
use crate::nearest::NodeTree;
use crate::parallel::each;
use crate::pickup::Map;
use crate::search::{search_with, source_edges, stands_in_piece, Search};
use crate::visibility::{hypot, Stamp};

/// How many of a search's nodes a point tries, nearest (by the length through them) first:
/// the Python engine's `GeodesicDisk.distances(tries=8)`.
pub const TRIES: usize = 8;

/// Searches (and sets of new rows) of more nodes than this are asked through a [`NodeTree`].
const TREE_FROM: usize = 32;

/// One facing layer: its map, its sources so far (`(x, y, d0)`, the start first; none: the
/// layer has no reach yet), how its paths bend (see [`search`]) and which turn nodes it may
/// turn at.
pub struct Layer<'a> {
    pub map: &'a Map,
    pub sources: Vec<[f64; 3]>,
    pub bends: u32,
    pub usable: Vec<bool>,
}

/// A source added to a layer at a turn node, and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Added {
    /// the layer it was added to
    pub layer: usize,
    /// the turn node
    pub node: usize,
    /// its length (that of the path in `from`)
    pub dist: f64,
    /// the layer that reached the node sooner
    pub from: usize,
    /// the source row of `from`'s search in that round the path starts at
    pub src_row: usize,
    /// that path: the source first, then the nodes of the search up to the one that sees the
    /// turn node (the turn node itself not included)
    pub path: Vec<Pt>,
}

/// The answer of [`turn_rounds`]: each layer's final search (`None`: it never had a source),
/// the layers that got their first source in the rounds (in that order), and the sources
/// added (in the order they were added).
pub struct Rounds {
    pub searches: Vec<Option<Search>>,
    pub created: Vec<usize>,
    pub added: Vec<Added>,
}

/// The length of a free path to `p` through the search `s` of `map`, and the row it comes
/// through: of the [`TRIES`] rows `k` with the least `dist[k] + |p - nodes[k]|` (its
/// candidates), the least one within the limit (up to 1e-6) whose straight line to `p` is free;
/// `None` when there is none or `p` is off the map's box (by more than 1e-9). With it, the
/// largest length among the candidates when all of them are within the limit, else the limit
/// (`-inf` off the box): a search with more sources changes the answer only through a row new
/// or nearer that comes to it or below (a row past the limit is never the answer, nor does it
/// push one within it out of the candidates). `work` counts the nodes looked at.
/// `tree`: the search's [`NodeTree`] where one is built (the same answer, found without
/// looking at every node).
pub fn distance_at(map: &Map, s: &Search, tree: Option<&NodeTree>, p: Pt, stamp: &mut Stamp,
                   work: &mut usize) -> (Option<(f64, usize)>, f64) {
    let b = map.bounds;
    let tol = 1e-9;
    if !(p[0] >= b[0] - tol && p[0] <= b[2] + tol && p[1] >= b[1] - tol && p[1] <= b[3] + tol) {
        return (None, f64::NEG_INFINITY);
    }
    let lim = s.distance + 1e-6;
    // the nearest few within the limit, ascending (length, then row): a row past the limit is
    // never the answer, nor does it push a row within it out of the few
    let mut best: [(f64, usize); TRIES] = [(f64::INFINITY, usize::MAX); TRIES];
    let mut kept = 0usize;
    if let Some(t) = tree {
        kept = t.nearest(&s.nodes, &s.dist, p, &mut best, work, lim);
    } else {
        for (k, (q, d)) in s.nodes.iter().zip(&s.dist).enumerate() {
            let dd = d + hypot(p[0] - q[0], p[1] - q[1]);
            if dd > lim || (kept == TRIES && dd >= best[TRIES - 1].0) {
                continue;
            }
            let mut at = kept.min(TRIES - 1);
            while at > 0 && best[at - 1].0 > dd {
                best[at] = best[at - 1];
                at -= 1;
            }
            best[at] = (dd, k);
            kept = (kept + 1).min(TRIES);
        }
        *work += s.nodes.len();
    }
    // what a row must come below to change the answer: the last of the few, or the limit
    // when fewer are within it
    let tau = if kept == TRIES { best[TRIES - 1].0 } else { lim };
    for &(dd, k) in &best[..kept] {
        if !(dd <= lim) {
            break;
        }
        *work += 1;
        if !map.pieces.blocked(s.nodes[k], p, stamp) {
            return (Some((dd, k)), tau);
        }
    }
    (None, tau)
}

/// The rows of `new` (the search `old` with more sources) that are new or nearer: its new
/// sources, and the corners it reaches that `old` did not or sooner.
fn nearer_rows(old: &Search, new: &Search) -> Vec<usize> {
    let mut out: Vec<usize> = (old.n_sources..new.n_sources).collect();
    let mut j = old.n_sources;
    for r in new.n_sources..new.nodes.len() {
        let c = new.corner[r];
        while j < old.nodes.len() && old.corner[j] < c {
            j += 1;
        }
        if !(j < old.nodes.len() && old.corner[j] == c && old.dist[j] <= new.dist[r]) {
            out.push(r);
        }
    }
    out
}

/// Row `k` of `old` in `new` (the same search with more sources; `usize::MAX` stays).
fn same_row(old: &Search, new: &Search, k: usize) -> usize {
    if k == usize::MAX || k < old.n_sources {
        return k;
    }
    let c = old.corner[k];
    new.n_sources + new.corner[new.n_sources..].binary_search(&c)
        .expect("a corner a search reached, one with more sources reaches")
}

/// `Err` once `work` (nodes, edges and corners looked at) is past [`MAX_TURN_WORK`].
fn over(work: usize) -> Result<(), Refused> {
    check("turn rounds' work (nodes, edges and corners looked at)", work, MAX_TURN_WORK)
}

/// The source row and the path (source first) to row `k` of `s`.
fn path_from_source(s: &Search, mut k: usize) -> (usize, Vec<Pt>) {
    let mut out = vec![s.nodes[k]];
    while s.parent[k] >= 0 {
        k = s.parent[k] as usize;
        out.push(s.nodes[k]);
    }
    out.reverse();
    (k, out)
}

/// A layer's sources the search keeps (the start, then the free ones within the limit, as
/// [`crate::search::search`] keeps them) and their edges, found once a source.
#[derive(Default)]
struct Kept {
    src: Vec<[f64; 3]>,
    edges: Vec<Vec<(u32, f64)>>,
}

impl Kept {
    /// Take the sources of `l` from the `from`-th on; `false` when its start stands in a piece
    /// (module docstring).
    fn take(&mut self, l: &Layer<'_>, from: usize, distance: f64, stamp: &mut Stamp,
            near: &mut Vec<u32>, work: &mut usize) -> bool {
        let map = l.map;
        for (k, s) in l.sources.iter().enumerate().skip(from) {
            let p = [s[0], s[1]];
            if k == 0 {
                if map.pieces.blocked(p, p, stamp) {
                    return false;
                }
            } else if !(s[2] < distance) || stands_in_piece(&map.pieces, map.bounds, p, stamp) {
                continue;
            }
            self.src.push(*s);
            self.edges.push(source_edges(&map.corners, &map.pieces, p, distance - s[2] + 1e-9,
                                         stamp, near));
            *work += near.len();
        }
        true
    }

    /// The search; `work` counts its rows and the graph's edges out of them.
    fn search(&self, l: &Layer<'_>, distance: f64, work: &mut usize) -> Search {
        let c = &l.map.corners;
        let s = search_with(c, &self.src, &self.edges, distance, l.bends);
        *work += s.nodes.len() + s.corner.iter().filter(|&&k| k >= 0)
            .map(|&k| c.ptr[k as usize + 1] - c.ptr[k as usize]).sum::<usize>();
        s
    }
}

/// One layer's part of the rounds: its kept sources, its search, the search its lengths at
/// the turn nodes were found with (the round before), those lengths, the row each comes
/// through and its candidates' largest length.
struct State {
    kept: Kept,
    search: Option<Search>,
    before: Option<Search>,
    dist: Vec<f64>,
    via: Vec<usize>,
    tau: Vec<f64>,
}

/// A thread's scratch: the visit stamps and the list of corners near a source.
type Scratch = (Stamp, Vec<u32>);

/// The states of the layers `changed` (in increasing order), each with its index.
fn changed_states<'a>(st: &'a mut [State], changed: &[usize]) -> Vec<(usize, &'a mut State)> {
    let mut mine = vec![false; st.len()];
    for &l in changed {
        mine[l] = true;
    }
    st.iter_mut().enumerate().filter(|(l, _)| mine[*l]).collect()
}

/// The layer's lengths at the turn nodes `xy` it may turn at, found again after its search
/// changed (a round's few new sources change the lengths at few nodes: only those whose
/// candidates a new or nearer row comes among are found again, the same answer); the work.
fn lengths(l: &Layer<'_>, s: &mut State, xy: &[Pt], stamp: &mut Stamp) -> usize {
    let mut work = 0usize;
    let Some(search) = &s.search else { return work };
    let old = s.before.take();
    let rows = old.as_ref().map(|o| nearer_rows(o, search));
    if rows.as_ref().is_some_and(|r| r.is_empty()) {
        return work; // the same rows: the same lengths
    }
    // a search of many nodes is asked for many points: through the tree of its nodes
    let tree = (search.nodes.len() > TREE_FROM).then(|| NodeTree::new(&search.nodes, &search.dist));
    // and the new or nearer rows, when there are many, through theirs
    let fresh = rows.as_ref().filter(|r| r.len() > TREE_FROM).map(|r| {
        let pts: Vec<Pt> = r.iter().map(|&k| search.nodes[k]).collect();
        let d: Vec<f64> = r.iter().map(|&k| search.dist[k]).collect();
        (NodeTree::new(&pts, &d), pts, d)
    });
    for i in (0..xy.len()).filter(|&i| l.usable[i]) {
        if let (Some(o), Some(rows)) = (&old, &rows) {
            // found again only where a new or nearer row comes among the candidates
            let p = xy[i];
            let low = if let Some((t, pts, d)) = &fresh {
                let mut one = [(f64::INFINITY, usize::MAX)];
                t.nearest(pts, d, p, &mut one, &mut work, s.tau[i]);
                one[0].0
            } else {
                work += rows.len();
                rows.iter()
                    .map(|&r| search.dist[r] + hypot(p[0] - search.nodes[r][0],
                                                     p[1] - search.nodes[r][1]))
                    .fold(f64::INFINITY, f64::min)
            };
            if !(low <= s.tau[i]) {
                s.via[i] = same_row(o, search, s.via[i]);
                continue;
            }
        }
        let (got, t) = distance_at(l.map, search, tree.as_ref(), xy[i], stamp, &mut work);
        (s.dist[i], s.via[i]) = got.unwrap_or((f64::INFINITY, usize::MAX));
        s.tau[i] = t;
    }
    work
}

/// How many threads a round of the layers `changed` is spread over: up to `threads` where
/// their usable turn nodes and sources come to [`THREADS_FROM`] or more, else the caller's only.
fn round_threads(layers: &[Layer<'_>], changed: &[usize], threads: usize) -> usize {
    let size: usize = changed.iter()
        .map(|&l| layers[l].sources.len() + layers[l].usable.iter().filter(|&&u| u).count())
        .sum();
    if size >= THREADS_FROM { threads } else { 1 }
}

/// The size of a round (its layers' usable turn nodes and sources) from which it is spread over
/// threads: a cached tank's rounds (about 1,000) took some 3 % more CPU on two threads than on
/// one; a census input's (200,000 and more) gain wall time.
const THREADS_FROM: usize = 8192;

/// The rounds (module docstring) over `layers` (in the order a tie goes to the first) at the
/// turn nodes `xy` within `distance`: at most `max_rounds`, a node becoming a source of a layer
/// when another reaches it sooner by more than `gain` and within `distance - 1e-6`; each layer
/// takes a node once. `Ok(None)` when a layer's start stands in a piece. The layers' searches
/// and lengths of a round are found on up to `threads` threads ([`each`]: the same answer as on
/// one; the work is counted, and bounded, after each round's lengths and searches).
pub fn turn_rounds(mut layers: Vec<Layer<'_>>, xy: &[Pt], distance: f64, max_rounds: usize,
                   gain: f64, threads: usize) -> Result<Option<Rounds>, Refused> {
    let m = xy.len();
    check("turn nodes", m, MAX_SOURCES)?;
    check("layers", layers.len(), MAX_LAYERS)?;
    check("turn nodes times layers", m * layers.len(), MAX_TURN_CELLS)?;
    if layers.iter().any(|l| l.usable.len() != m) {
        return Err(Refused("each layer needs one usable flag a turn node".into()));
    }
    if !distance.is_finite() || !gain.is_finite() || xy.iter().flatten().any(|v| !v.is_finite()) {
        return Err(Refused("a turn node, the distance or the gain is not finite".into()));
    }
    for l in &layers {
        check("sources", l.sources.len(), MAX_SOURCES)?;
        if l.sources.iter().flatten().any(|v| !v.is_finite()) {
            return Err(Refused("a source is not finite".into()));
        }
    }
    let n = layers.len();
    let mut work = 0usize;
    let mut st: Vec<State> = (0..n)
        .map(|_| State {
            kept: Kept::default(),
            search: None,
            before: None,
            dist: vec![f64::INFINITY; m],
            via: vec![usize::MAX; m], // the row each length comes through
            tau: vec![f64::INFINITY; m], // and its candidates' largest length
        })
        .collect();
    // each layer's first search (none without a source; a start in a piece: the caller's)
    let firsts = each(layers.iter().zip(st.iter_mut()).collect(), threads,
                      |(l, s): (&Layer<'_>, &mut State), (stamp, near): &mut Scratch| {
        let mut w = 0usize;
        if l.sources.is_empty() {
            return Some(w);
        }
        if !s.kept.take(l, 0, distance, stamp, near, &mut w) {
            return None;
        }
        s.search = Some(s.kept.search(l, distance, &mut w));
        Some(w)
    });
    for w in firsts {
        let Some(w) = w else { return Ok(None) };
        work += w;
    }
    let mut used = vec![vec![false; m]; n];
    let mut changed: Vec<usize> = (0..n).filter(|&l| st[l].search.is_some()).collect();
    let mut created: Vec<usize> = Vec::new();
    let mut added: Vec<Added> = Vec::new();
    for _ in 0..max_rounds {
        let threads = round_threads(&layers, &changed, threads);
        work += each(changed_states(&mut st, &changed), threads, |(l, s), (stamp, _): &mut Scratch| {
            lengths(&layers[l], s, xy, stamp)
        })
        .into_iter()
        .sum::<usize>();
        over(work)?;
        // the least length at each node and the first layer with it
        let mut gains: Vec<Added> = Vec::new();
        #[allow(clippy::needless_range_loop)] // (a node: a column of every layer's rows)
        for i in 0..m {
            let (mut best, mut arg) = (f64::INFINITY, 0usize);
            for (l, s) in st.iter().enumerate() {
                if s.dist[i] < best {
                    (best, arg) = (s.dist[i], l);
                }
            }
            if !(best < distance - 1e-6) {
                continue;
            }
            for (l, layer) in layers.iter().enumerate().take(n) {
                if layer.usable[i] && !used[l][i] && best + gain < st[l].dist[i] {
                    let s = st[arg].search.as_ref().expect("a layer with a length has a search");
                    let (src_row, path) = path_from_source(s, st[arg].via[i]);
                    gains.push(Added { layer: l, node: i, dist: best, from: arg, src_row, path });
                }
            }
        }
        if gains.is_empty() {
            break;
        }
        // by layer, then node (the Python engine's order)
        gains.sort_by_key(|g| (g.layer, g.node));
        changed.clear();
        let mut had = vec![0usize; n];
        for g in &gains {
            used[g.layer][g.node] = true;
            let l = &mut layers[g.layer];
            if changed.last() != Some(&g.layer) {
                changed.push(g.layer);
                had[g.layer] = l.sources.len();
                if l.sources.is_empty() {
                    created.push(g.layer);
                }
            }
            l.sources.push([xy[g.node][0], xy[g.node][1], g.dist]);
        }
        over(work)?;
        // the changed layers' searches again, with their new sources
        let threads = round_threads(&layers, &changed, threads);
        let layers = &layers;
        let again = each(changed_states(&mut st, &changed), threads, |(l, s), (stamp, near): &mut Scratch| {
            let mut w = 0usize;
            if !s.kept.take(&layers[l], had[l], distance, stamp, near, &mut w) {
                return None;
            }
            let new = s.kept.search(&layers[l], distance, &mut w);
            s.before = s.search.replace(new);
            Some(w)
        });
        for w in again {
            let Some(w) = w else { return Ok(None) };
            work += w;
        }
        added.extend(gains);
    }
    let searches = st.into_iter().map(|s| s.search).collect();
    Ok(Some(Rounds { searches, created, added }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pickup::tests::square;
    use crate::search::search;

    /// A map of convex rings with the full corner graph.
    fn map_of(rings: &[Vec<Pt>], b: [f64; 4]) -> Map {
        let mut m = crate::pickup::tests::map_of(rings, b);
        m.corners = crate::search::tests::corners_of(rings);
        m
    }

    #[test]
    fn distances_take_the_nearest_node_that_sees_the_point() {
        let m = map_of(&[square(5.0, -10.0, 6.0, 10.0)], [-50.0, -50.0, 50.0, 50.0]);
        let s = search(&m.corners, &m.pieces, m.bounds, &[[0.0, 0.0, 0.0]], 40.0, 2).unwrap();
        let (mut st, mut work) = (Stamp::default(), 0);
        // in the open: straight from the start
        let (d, k) = distance_at(&m, &s, None, [3.0, 4.0], &mut st, &mut work).0.unwrap();
        assert!((d - 5.0).abs() < 1e-12 && k == 0);
        // behind the wall: round its top corner
        let (d, k) = distance_at(&m, &s, None, [6.0, 11.0], &mut st, &mut work).0.unwrap();
        assert_eq!(s.nodes[k], [5.0, 10.0]);
        assert!((d - (hypot(5.0, 10.0) + hypot(1.0, 1.0))).abs() < 1e-12);
        // beyond the limit and off the box: none
        assert!(distance_at(&m, &s, None, [39.0, 20.0], &mut st, &mut work).0.is_none());
        assert_eq!(distance_at(&m, &s, None, [0.0, 60.0], &mut st, &mut work), (None, f64::NEG_INFINITY));
    }

    #[test]
    fn a_search_with_more_sources_tells_its_new_and_nearer_rows() {
        let m = map_of(&[square(5.0, -10.0, 6.0, 10.0)], [-50.0, -50.0, 50.0, 50.0]);
        let (c, p) = (&m.corners, &m.pieces);
        let old = search(c, p, m.bounds, &[[0.0, 0.0, 0.0]], 40.0, 2).unwrap();
        // a source behind the wall, reached at 1: the far corners come nearer, not the near
        let new = search(c, p, m.bounds, &[[0.0, 0.0, 0.0], [7.0, 0.0, 1.0]], 40.0, 2).unwrap();
        let rows = nearer_rows(&old, &new);
        assert_eq!(rows[0], 1);
        let far: Vec<Pt> = rows[1..].iter().map(|&r| new.nodes[r]).collect();
        assert_eq!(far, vec![[6.0, -10.0], [6.0, 10.0]]);
        // the rows of the corners move past the new source
        for k in old.n_sources..old.nodes.len() {
            assert_eq!(new.nodes[same_row(&old, &new, k)], old.nodes[k]);
        }
        assert_eq!(same_row(&old, &new, 0), 0);
    }

    #[test]
    fn a_layer_turns_where_another_got_sooner_and_keeps_the_path() {
        // layer 0 (the start's) is open; layer 1 is walled off where the mover starts
        // (x = 2..3 across the board): it can only begin at a turn node past its wall, where
        // layer 0 gets first
        let open = map_of(&[], [-20.0, -20.0, 20.0, 20.0]);
        let walled = map_of(&[square(2.0, -20.0, 3.0, 20.0)], [-20.0, -20.0, 20.0, 20.0]);
        let xy = vec![[5.0, 0.0], [8.0, 0.0], [-5.0, 0.0]];
        let layers = vec![
            Layer { map: &open, sources: vec![[0.0, 0.0, 0.0]], bends: 2, usable: vec![true; 3] },
            Layer { map: &walled, sources: vec![], bends: 2, usable: vec![true, true, false] },
        ];
        let got = turn_rounds(layers, &xy, 10.0, 6, 1e-3, 1).unwrap().unwrap();
        assert_eq!(got.created, vec![1]);
        // both nodes past the wall in the first round (from layer 0, straight from its start)
        assert_eq!(got.added.len(), 2);
        let a = &got.added[0];
        assert_eq!((a.layer, a.node, a.from, a.src_row), (1, 0, 0, 0));
        assert!((a.dist - 5.0).abs() < 1e-12);
        assert_eq!(a.path, vec![[0.0, 0.0]]);
        // layer 1's search starts at the first node, the second kept as a source
        let s1 = got.searches[1].as_ref().unwrap();
        assert_eq!(s1.n_sources, 2);
        assert_eq!(s1.nodes[0], [5.0, 0.0]);
        assert_eq!(s1.dist[1], 8.0);
    }

    #[test]
    fn the_rounds_on_threads_are_the_rounds_on_one() {
        // six layers, walled differently, turning at a lattice of nodes over several rounds:
        // every search, layer created and source added the same on 1, 2 and 5 threads
        let b = [-20.0, -20.0, 20.0, 20.0];
        let walls: Vec<[[f64; 4]; 2]> = (0..6)
            .map(|k| {
                let (x, k) = (1.5 + k as f64, k as f64);
                [[x, -12.0 + k, x + 0.5, 20.0], [-x - 2.0, -20.0, -x - 1.0, 9.0 - k]]
            })
            .collect();
        let maps: Vec<Map> = walls.iter()
            .map(|w| map_of(&w.map(|[x0, y0, x1, y1]| square(x0, y0, x1, y1)), b))
            .collect();
        // (a layer may turn at a node outside its walls)
        let free = |k: usize, p: Pt| walls[k].iter()
            .all(|&[x0, y0, x1, y1]| p[0] < x0 || p[0] > x1 || p[1] < y0 || p[1] > y1);
        let xy: Vec<Pt> = (0..15)
            .flat_map(|i| (0..9).map(move |j| [-14.0 + 2.0 * i as f64, -8.0 + 2.0 * j as f64]))
            .collect();
        let run = |threads: usize| {
            let layers: Vec<Layer> = maps.iter().enumerate()
                .map(|(k, m)| Layer {
                    map: m,
                    sources: if k == 0 { vec![[0.0, 0.0, 0.0]] } else { vec![] },
                    bends: 2,
                    usable: (0..xy.len()).map(|i| (i + k) % 3 != 0 && free(k, xy[i])).collect(),
                })
                .collect();
            turn_rounds(layers, &xy, 14.0, 8, 1e-3, threads).unwrap().unwrap()
        };
        let one = run(1);
        assert!(one.created.len() >= 3 && one.added.len() > 40, "{:?}", one.created);
        for threads in [2, 5] {
            let got = run(threads);
            assert_eq!(got.created, one.created);
            assert_eq!(got.added, one.added);
            let rows = |s: &Option<Search>| s.as_ref()
                .map(|s| (s.nodes.clone(), s.dist.clone(), s.parent.clone(), s.corner.clone(),
                          s.n_sources));
            for (a, b) in got.searches.iter().zip(&one.searches) {
                assert_eq!(rows(a), rows(b));
            }
        }
    }

    #[test]
    fn a_start_in_a_piece_is_left_to_the_caller() {
        let walled = map_of(&[square(-1.0, -1.0, 1.0, 1.0)], [-20.0, -20.0, 20.0, 20.0]);
        let layers = vec![Layer { map: &walled, sources: vec![[0.0, 0.0, 0.0]], bends: 2,
                                  usable: vec![true] }];
        assert!(turn_rounds(layers, &[[5.0, 0.0]], 10.0, 6, 1e-3, 1).unwrap().is_none());
        // a start on the piece's edge is free
        let layers = vec![Layer { map: &walled, sources: vec![[1.0, 0.0, 0.0]], bends: 2,
                                  usable: vec![true] }];
        assert!(turn_rounds(layers, &[[5.0, 0.0]], 10.0, 6, 1e-3, 1).unwrap().is_some());
    }

    #[test]
    fn inputs_that_do_not_fit_are_refused() {
        let open = map_of(&[], [-20.0, -20.0, 20.0, 20.0]);
        let layers = vec![Layer { map: &open, sources: vec![[0.0, 0.0, 0.0]], bends: 2,
                                  usable: vec![true, true] }];
        assert!(turn_rounds(layers, &[[5.0, 0.0]], 10.0, 6, 1e-3, 1).is_err());
        let layers = vec![Layer { map: &open, sources: vec![[0.0, 0.0, 0.0]], bends: 2,
                                  usable: vec![true] }];
        assert!(turn_rounds(layers, &[[f64::NAN, 0.0]], 10.0, 6, 1e-3, 1).is_err());
        // more turn nodes times layers than the tables may hold
        let layers: Vec<Layer> = (0..MAX_LAYERS)
            .map(|_| Layer { map: &open, sources: vec![], bends: 2, usable: vec![] })
            .collect();
        let xy = vec![[0.0, 0.0]; MAX_TURN_CELLS / MAX_LAYERS + 1];
        let err = turn_rounds(layers, &xy, 10.0, 6, 1e-3, 1).err().unwrap();
        assert!(err.0.contains("turn nodes times layers"));
    }
}
