//! One pick-up of a mover that translates (a round base, or one facing layer of a turning
//! one) in one call: the search from its sources, the wedges, their rays, the union, and the
//! cut to where it may end (the excluded set and the friends' regions near the union).
//! The Python engine does the same in `tabletop.geometry.geodesic` and `wedges` (the reference).

use std::sync::OnceLock;

use crate::booleans::{
    bounds, boxes_meet, contains, difference_within, overlay, union_minus, Grid, Op, Poly, Pt,
};
use crate::interior::Interior;
use crate::limits::Refused;
use crate::nested::drop_nested;
use crate::rays::{stars, Outline, Wedge};
use crate::search::{search, stands_in_piece, Search};
use crate::visibility::{Corners, Pieces, Stamp};
use crate::wedges::{merge_runs, reaches_past_the_box, wedges};

/// The obstacles of one map for a translating mover: their outline (rays), their convex pieces
/// (blocking), their corners and graph (searches), the box.
pub struct Map {
    pub outline: Outline,
    pub pieces: Pieces,
    pub corners: Corners,
    pub bounds: [f64; 4],
    free: OnceLock<Result<Vec<Poly>, Refused>>,
}

impl Map {
    pub fn new(outline: Outline, pieces: Pieces, corners: Corners) -> Map {
        let bounds = outline.bounds();
        Map { outline, pieces, corners, bounds, free: OnceLock::new() }
    }

    /// The free space's parts: the box minus the pieces (built once).
    fn free_parts(&self, rings: &dyn Fn() -> Vec<Poly>, grid: &Grid) -> Result<&Vec<Poly>, Refused> {
        let got = self.free.get_or_init(|| {
            let [x0, y0, x1, y1] = self.bounds;
            let b: Poly = vec![vec![[x0, y0], [x1, y0], [x1, y1], [x0, y1]]];
            overlay(grid, &[b], &rings(), Op::Difference)
        });
        got.as_ref().map_err(|e| e.clone())
    }
}

/// A pick-up's answer: its search (for the witnesses) and its region.
pub struct Pickup {
    pub search: Search,
    pub region: Vec<Poly>,
}

/// What a pick-up asks: where from, how far, and where the mover may not end.
pub struct Ask<'a> {
    /// `(x, y, d0)`: the start first
    pub sources: &'a [[f64; 3]],
    pub distance: f64,
    pub bends: u32,
    /// the excluded set (the end rules of the phase)
    pub exclude: Option<&'a [Poly]>,
    /// per corner: the radius of a disk about it inside `exclude`
    pub slack: Option<&'a [f64]>,
    /// more regions it may not end in (friends), taken where they meet the union
    pub friends: &'a [Poly],
    /// the cells wholly inside `exclude`, built on first need (wedges and stars there are
    /// left out of the union); `None`: never built
    pub interior: Option<&'a OnceLock<Option<Interior>>>,
}

/// The pick-up (module docstring), or `None` when the start stands in a piece (the caller
/// answers with the Python engine, which cuts such pieces).
pub fn pickup(
    map: &Map,
    rings: &dyn Fn() -> Vec<Poly>,
    ask: &Ask<'_>,
    grid: &Grid,
) -> Result<Option<Pickup>, Refused> {
    let s0 = ask.sources.first().ok_or_else(|| Refused("no start".into()))?;
    let mut stamp = Stamp::default();
    if !map.pieces.is_empty() && stands_in_piece(&map.pieces, map.bounds, [s0[0], s0[1]], &mut stamp)
    {
        return Ok(None);
    }
    let s = search(&map.corners, &map.pieces, map.bounds, ask.sources, ask.distance, ask.bends)?;
    let region = region_of(map, rings, &s, ask, grid)?;
    Ok(Some(Pickup { search: s, region }))
}

/// The region of the search `s` (done here or elsewhere: a turning mover's layer searched in
/// `turns::turn_rounds`) cut to where the mover may end: the free parts holding a source when
/// the search is complete and reaches past the box, else the union of its wedges' stars minus
/// `ask`'s excluded set and friends. `ask.sources` is not read; the start stands in no piece.
pub fn region_of(
    map: &Map,
    rings: &dyn Fn() -> Vec<Poly>,
    s: &Search,
    ask: &Ask<'_>,
    grid: &Grid,
) -> Result<Vec<Poly>, Refused> {
    Ok(region_and_box(map, rings, s, ask, grid)?.0)
}

/// [`region_of`] and the box of the region before the cut (`None` when that is empty): where a
/// caller that cut the friends here (`ask.friends`) would have looked for friends near it.
pub fn region_and_box(
    map: &Map,
    rings: &dyn Fn() -> Vec<Poly>,
    s: &Search,
    ask: &Ask<'_>,
    grid: &Grid,
) -> Result<(Vec<Poly>, Option<[f64; 4]>), Refused> {
    if !(ask.distance > 0.0) {
        return Ok((Vec::new(), None));
    }
    let union: Vec<Poly> = if ask.bends >= 2 && reaches_past_the_box(s, map.bounds) {
        // every free part that holds a source, exactly
        let parts = map.free_parts(rings, grid)?;
        parts
            .iter()
            .filter(|poly| (0..s.n_sources).any(|k| contains(poly, s.nodes[k])))
            .cloned()
            .collect()
    } else {
        let (mut w, mut rows) = wedges(s, &map.corners, &map.pieces, map.bounds, ask.slack);
        // the excluded set's cells, when enough wedges start inside it to pay for them (their
        // corners' slack: a disk inside; without slack, every wedge counts)
        let starting_inside = rows.iter().filter(|&&k| {
            let c = s.corner[k];
            c >= 0 && ask.slack.is_none_or(|sl| sl[c as usize] > 0.0)
        }).count();
        let inner = ask.interior.filter(|_| starting_inside >= MIN_WEDGES_INSIDE)
            .and_then(|lazy| lazy.get_or_init(|| Interior::new(ask.exclude.unwrap_or(&[])))
                .as_ref());
        if let Some(inner) = inner {
            // a wedge whose sector lies inside the excluded set casts nothing the cut keeps
            (w, rows) = w.into_iter().zip(rows)
                .filter(|(x, _)| x.full || !inner.holds_point(x.apex)
                        || !inner.holds(&sector_ring(x)))
                .unzip();
        }
        let mut stars = stars(&map.outline, &w)?;
        if let Some(inner) = inner {
            // nor does a star inside it (one seen from a corner among the excluded set's disks)
            for star in stars.iter_mut() {
                if inner.holds(star) {
                    star.clear();
                }
            }
        }
        // nor does a star inside another star (a turning layer's turn nodes cast many)
        drop_nested(&mut stars, &w);
        // runs of wedges round one piece as one ring each (far fewer overlapping rings)
        let (merged, used) = merge_runs(s, &map.corners, &stars, &rows);
        let mut rings: Vec<Poly> = merged.into_iter().map(|r| vec![r]).collect();
        rings.extend(stars.into_iter().zip(used).filter(|(r, u)| !u && r.len() >= 3)
            .map(|(r, _)| vec![r]));
        // the union and the cut in one cascade (its last step cuts); the union's box is the
        // rings' box (the same point set)
        let whole = (!rings.is_empty()).then(|| bounds(&rings));
        let clip = [ask.exclude.unwrap_or(&[]), ask.friends];
        return Ok((union_minus(grid, rings, &clip, CUT_MARGIN)?, whole));
    };
    let whole = (!union.is_empty()).then(|| bounds(&union));
    Ok((cut(&union, ask.exclude.unwrap_or(&[]), ask.friends, grid)?, whole))
}

/// How many wedges must start inside the excluded set (a corner in it) before its cells are
/// built (about 0.1 ms for a real layout's engagement areas) and the wedges and stars tested:
/// a wedge left out saves its star's rays and its share of the union (5-10 us among 300
/// enemies).
const MIN_WEDGES_INSIDE: usize = 16;

/// A ring holding wedge `w`'s sector (its arc by the circumscribed polygon, 8 edges a half
/// turn at least): the star cast from it lies inside.
fn sector_ring(w: &Wedge) -> Vec<Pt> {
    let n = (w.sweep.abs() / (std::f64::consts::PI / 8.0)).ceil().max(1.0) as usize;
    let d = w.sweep / n as f64;
    let r = w.radius / (0.5 * d).cos() * (1.0 + 1e-9) + 1e-9;
    let mut ring = Vec::with_capacity(n + 2);
    ring.push(w.apex);
    for k in 0..=n {
        let t = w.start + d * k as f64;
        ring.push([w.apex[0] + r * t.cos(), w.apex[1] + r * t.sin()]);
    }
    ring
}

/// `union` minus the parts of `exclude` and `friends` whose boxes meet its box, those cut to
/// that box (widened by [`CUT_MARGIN`]) first.
pub fn cut(union: &[Poly], exclude: &[Poly], friends: &[Poly], grid: &Grid)
           -> Result<Vec<Poly>, Refused> {
    if union.is_empty() {
        return Ok(Vec::new());
    }
    let ub = bounds(union);
    let within = [ub[0] - CUT_MARGIN, ub[1] - CUT_MARGIN, ub[2] + CUT_MARGIN, ub[3] + CUT_MARGIN];
    let clip: Vec<Poly> = exclude
        .iter()
        .chain(friends)
        .filter(|p| boxes_meet(bounds(std::slice::from_ref(p)), ub))
        .cloned()
        .collect();
    if clip.is_empty() {
        return Ok(union.to_vec());
    }
    difference_within(grid, union, &clip, within)
}

/// How far beyond the union's box the clip sets are kept (inches): far more than the grid's
/// rounding, so no vertex of the cut lies on the union.
const CUT_MARGIN: f64 = 0.01;

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::booleans::{area, Pt};

    pub(crate) fn square(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<Pt> {
        vec![[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
    }

    /// The area of the symmetric difference of `a` and `b`, and the length of `a`'s outline
    /// (two sets the same up to the grid's rounding are at most about 1.5e-7 times it apart).
    pub(crate) fn apart_and_outline(g: &Grid, a: &[Poly], b: &[Poly]) -> (f64, f64) {
        use crate::booleans::overlay;
        let apart = area(&overlay(g, a, b, Op::Difference).unwrap())
            + area(&overlay(g, b, a, Op::Difference).unwrap());
        let length = a.iter().flatten().map(|r| (0..r.len()).map(|i| {
            let (p, q) = (r[i], r[(i + 1) % r.len()]);
            (q[0] - p[0]).hypot(q[1] - p[1])
        }).sum::<f64>()).sum();
        (apart, length)
    }

    /// A map of convex rings (no corner graph).
    pub(crate) fn map_of(rings: &[Vec<Pt>], b: [f64; 4]) -> Map {
        let mut edges = Vec::new();
        let (mut at, mut pv, mut nx, mut ow) = (vec![], vec![], vec![], vec![]);
        for (i, r) in rings.iter().enumerate() {
            let m = r.len();
            for k in 0..m {
                let (p, q) = (r[k], r[(k + 1) % m]);
                edges.push([p[0], p[1], q[0], q[1]]);
                at.push(p);
                pv.push(r[(k + m - 1) % m]);
                nx.push(q);
                ow.push(i as i64);
            }
        }
        let corners = Corners::new(at, pv, nx, ow).unwrap();
        Map::new(Outline::new(&edges, b).unwrap(), Pieces::new(rings).unwrap(), corners)
    }

    #[test]
    fn an_open_board_is_a_disk_and_a_long_move_the_whole_box() {
        let m = map_of(&[], [0.0, 0.0, 20.0, 20.0]);
        let g = Grid::for_box(m.bounds, 1.0).unwrap();
        let rings = || Vec::new();
        let ask = Ask { sources: &[[10.0, 10.0, 0.0]], distance: 3.0, bends: 2, exclude: None,
                        interior: None, slack: None, friends: &[] };
        let got = pickup(&m, &rings, &ask, &g).unwrap().unwrap();
        let a = area(&got.region);
        assert!(a < std::f64::consts::PI * 9.0 && a > 0.99 * std::f64::consts::PI * 9.0);
        let ask = Ask { distance: 100.0, ..ask };
        let got = pickup(&m, &rings, &ask, &g).unwrap().unwrap();
        assert!((area(&got.region) - 400.0).abs() < 1e-9);
    }

    #[test]
    fn a_search_done_elsewhere_has_the_pickups_region() {
        let walls = vec![square(5.0, 5.0, 6.0, 15.0), square(8.0, 2.0, 9.0, 9.0)];
        let m = map_of(&walls, [0.0, 0.0, 20.0, 20.0]);
        let g = Grid::for_box(m.bounds, 1.0).unwrap();
        let rings = || walls.iter().map(|r| vec![r.clone()]).collect::<Vec<Poly>>();
        let ex = vec![vec![square(10.0, 10.0, 12.0, 12.0)]];
        let ask = Ask { sources: &[[3.0, 10.0, 0.0], [7.0, 4.0, 1.5]], distance: 6.0, bends: 1,
                        exclude: Some(&ex), slack: None, friends: &[], interior: None };
        let got = pickup(&m, &rings, &ask, &g).unwrap().unwrap();
        let again = region_of(&m, &rings, &got.search, &Ask { sources: &[], ..ask }, &g).unwrap();
        assert!(area(&got.region) > 10.0);
        assert_eq!(got.region, again);
    }

    #[test]
    fn a_start_in_a_piece_is_left_to_the_caller_and_friends_are_cut() {
        let walls = vec![square(5.0, 5.0, 6.0, 15.0)];
        let m = map_of(&walls, [0.0, 0.0, 20.0, 20.0]);
        let g = Grid::for_box(m.bounds, 1.0).unwrap();
        let rings = || walls.iter().map(|r| vec![r.clone()]).collect::<Vec<Poly>>();
        let ask = Ask { sources: &[[5.5, 10.0, 0.0]], distance: 3.0, bends: 2, exclude: None,
                        interior: None, slack: None, friends: &[] };
        assert!(pickup(&m, &rings, &ask, &g).unwrap().is_none());
        let friend = vec![vec![square(2.0, 9.0, 3.0, 11.0)]];
        let ask = Ask { sources: &[[4.0, 10.0, 0.0]], friends: &friend, ..ask };
        let got = pickup(&m, &rings, &ask, &g).unwrap().unwrap();
        assert!(!got.region.iter().any(|p| contains(p, [2.5, 10.0])));
        assert!(got.region.iter().any(|p| contains(p, [3.5, 10.0])));
        assert!(!got.region.iter().any(|p| contains(p, [7.0, 10.0])));
    }

    #[test]
    fn overlapping_friends_cut_as_their_union_and_the_box_is_the_uncut_regions() {
        // two friends overlapping (a turning layer's sums, not unioned): the non-zero fill
        // cuts their union, not their symmetric difference
        let walls = vec![square(5.0, 5.0, 6.0, 15.0)];
        let m = map_of(&walls, [0.0, 0.0, 20.0, 20.0]);
        let g = Grid::for_box(m.bounds, 1.0).unwrap();
        let rings = || walls.iter().map(|r| vec![r.clone()]).collect::<Vec<Poly>>();
        let ask = Ask { sources: &[[3.0, 10.0, 0.0]], distance: 2.5, bends: 2, exclude: None,
                        interior: None, slack: None, friends: &[] };
        let got = pickup(&m, &rings, &ask, &g).unwrap().unwrap();
        let (whole, whole_box) = region_and_box(&m, &rings, &got.search,
                                                &Ask { sources: &[], ..ask }, &g).unwrap();
        let friends = vec![vec![square(2.0, 9.0, 3.5, 11.0)], vec![square(3.0, 9.5, 4.0, 10.5)]];
        let (cut, cut_box) = region_and_box(&m, &rings, &got.search,
                                            &Ask { sources: &[], friends: &friends, ..ask }, &g)
            .unwrap();
        assert_eq!(whole_box, cut_box);
        let b = bounds(&whole);
        let wb = whole_box.unwrap();
        assert!((0..4).all(|k| (b[k] - wb[k]).abs() < 1e-6), "{b:?} {wb:?}");
        let union_area = 1.5 * 2.0 + 0.5 * 1.0; // the second sticks out of the first by 0.5 x 1
        assert!((area(&whole) - area(&cut) - union_area).abs() < 1e-5,
                "{} {}", area(&whole), area(&cut));
        assert!(!cut.iter().any(|p| contains(p, [3.2, 10.0])));
        assert!(!cut.iter().any(|p| contains(p, [3.8, 10.0])));
        // cut afterwards (as `search_region` cuts a turning layer's friends): the same set
        let after = super::cut(&whole, &[], &friends, &g).unwrap();
        assert!((area(&after) - area(&cut)).abs() < 1e-9);
        let none = Ask { distance: 0.0, ..ask };
        assert_eq!(region_and_box(&m, &rings, &got.search, &none, &g).unwrap(), (vec![], None));
    }

    #[test]
    fn wedges_and_stars_inside_the_excluded_set_leave_the_region_as_it_was() {
        // a crowd of octagons (enemies' bases) and the excluded set of 2.7" disks about them:
        // the region is the same with the excluded set's cells as without (up to rounding),
        // and they hold some of its stars (the test is not vacuous)
        use crate::booleans::overlay;
        let ngon = |c: Pt, r: f64, n: usize| -> Vec<Pt> {
            (0..n).map(|k| {
                let t = 2.0 * std::f64::consts::PI * (k as f64 + 0.5) / n as f64;
                [c[0] + r * t.cos(), c[1] + r * t.sin()]
            }).collect()
        };
        let centres: Vec<Pt> = (0..24).map(|k| {
            let (i, j) = ((k % 6) as f64, (k / 6) as f64);
            [8.0 + 1.6 * i + 0.3 * j, 8.0 + 1.7 * j + 0.2 * i]
        }).collect();
        let bases: Vec<Vec<Pt>> = centres.iter().map(|&c| ngon(c, 0.7, 8)).collect();
        let m = map_of(&bases, [0.0, 0.0, 30.0, 30.0]);
        let g = Grid::for_box(m.bounds, 1.0).unwrap();
        let disks: Vec<Poly> = centres.iter().map(|&c| vec![ngon(c, 2.7, 64)]).collect();
        let ex = overlay(&g, &disks, &[], Op::Union).unwrap();
        let inner = Interior::new(&ex).unwrap();
        let mut built = 0;
        let rings = || bases.iter().map(|r| vec![r.clone()]).collect::<Vec<Poly>>();
        for (start, d) in [([3.0, 3.0], 14.0), ([12.0, 4.0], 9.0), ([20.0, 12.0], 20.0),
                           ([10.85, 10.85], 12.0)] {
            let ask = Ask { sources: &[[start[0], start[1], 0.0]], distance: d, bends: 2,
                            exclude: Some(&ex), slack: None, friends: &[], interior: None };
            let plain = pickup(&m, &rings, &ask, &g).unwrap().unwrap();
            let lazy = OnceLock::new();
            let fast = pickup(&m, &rings, &Ask { interior: Some(&lazy), ..ask }, &g)
                .unwrap().unwrap();
            let a = area(&plain.region);
            assert!(a > 1.0);
            // (the same point set, up to the cascade's rounding on the grid: 1.5e-7" at most
            // along the outline)
            let (apart, length) = apart_and_outline(&g, &plain.region, &fast.region);
            assert!(apart < 3e-7 * length, "{start:?} {d}: {apart} of {a} (outline {length})");
            let (w, _) = wedges(&plain.search, &m.corners, &m.pieces, m.bounds, None);
            let held = stars(&m.outline, &w).unwrap().iter().filter(|r| inner.holds(r)).count()
                + w.iter().filter(|x| !x.full && inner.holds(&sector_ring(x))).count();
            assert!(held > 0, "{start:?} {d}: none of {} wedges held", w.len());
            // (built only where enough wedges start inside: here, without slack, every one)
            let ours = lazy.get().is_some_and(|g| g.is_some());
            assert_eq!(ours, w.len() >= MIN_WEDGES_INSIDE, "{start:?} {d}: {} wedges", w.len());
            built += usize::from(ours);
        }
        assert!(built >= 2, "{built}");
    }
}
