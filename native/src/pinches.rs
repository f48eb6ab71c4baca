//! Clipper2's answer as valid polygons: a ring of its output may touch itself at a vertex (a
//! *pinch*: two lobes of one polygon meeting at a point, or a hole pinched off its exterior),
//! which the non-zero rule fills as meant but the simple-features rules shapely and GEOS hold
//! to call invalid; making such a polygon valid in GEOS took longer than the overlay (a
//! 60x35 mm bike's pick-up: 10 ms of 57). Here a pinched ring is cut at its repeated vertices
//! into simple loops: a loop turning the ring's way is a lobe (an exterior of its own, or a
//! hole of its own), one turning the other way what the ring pinched off (a hole of the
//! exterior it lies in, or an island in a hole). The same point set, every ring simple.

use std::collections::HashMap;

use clipper2_rust::core::Point64;

/// Twice the signed area of an integer ring (positive: counter-clockwise).
pub fn signed_area2(r: &[Point64]) -> i128 {
    let n = r.len();
    let mut s: i128 = 0;
    for i in 0..n {
        let (a, b) = (r[i], r[(i + 1) % n]);
        s += a.x as i128 * b.y as i128 - b.x as i128 * a.y as i128;
    }
    s
}

/// The simple loops of a closed ring (no repeated first point): cut at each vertex the walk
/// comes back to; loops of no area (spikes) are dropped. A simple ring comes back as itself.
pub fn loops(ring: &[Point64]) -> Vec<Vec<Point64>> {
    let mut out = Vec::new();
    let mut path: Vec<Point64> = Vec::with_capacity(ring.len());
    let mut at: HashMap<(i64, i64), usize> = HashMap::with_capacity(ring.len());
    for &p in ring {
        if let Some(&i) = at.get(&(p.x, p.y)) {
            // the walk closed a loop: path[i..] (p is path[i])
            let lobe: Vec<Point64> = path.drain(i + 1..).collect();
            for q in &lobe {
                at.remove(&(q.x, q.y));
            }
            let mut lp = Vec::with_capacity(lobe.len() + 1);
            lp.push(p);
            lp.extend(lobe);
            if lp.len() >= 3 && signed_area2(&lp) != 0 {
                out.push(lp);
            }
        } else {
            at.insert((p.x, p.y), path.len());
            path.push(p);
        }
    }
    if path.len() >= 3 && signed_area2(&path) != 0 {
        out.push(path);
    }
    out
}

/// Whether `p` lies strictly inside or on the integer ring `r` (crossings, exact).
fn inside(r: &[Point64], p: Point64) -> bool {
    let n = r.len();
    let mut wn = 0i64;
    for i in 0..n {
        let (a, b) = (r[i], r[(i + 1) % n]);
        let cross = (b.x - a.x) as i128 * (p.y - a.y) as i128 - (p.x - a.x) as i128 * (b.y - a.y) as i128;
        if a.y <= p.y {
            if b.y > p.y && cross > 0 {
                wn += 1;
            }
        } else if b.y <= p.y && cross < 0 {
            wn -= 1;
        }
    }
    wn != 0
}

/// One polygon of a Clipper2 tree (its exterior and holes, as the tree gives them) as simple
/// polygons: exterior first, holes after, each ring simple (module docstring). The rings keep
/// the tree's orientations; the caller orients them.
pub fn simple_polygons(rings: Vec<Vec<Point64>>) -> Vec<Vec<Vec<Point64>>> {
    let mut rings = rings.into_iter();
    let Some(ext) = rings.next() else { return Vec::new() };
    let holes: Vec<Vec<Point64>> = rings.collect();
    let pinched = |r: &[Point64]| {
        let mut seen = std::collections::HashSet::with_capacity(r.len());
        !r.iter().all(|p| seen.insert((p.x, p.y)))
    };
    if !pinched(&ext) && !holes.iter().any(|h| pinched(h)) {
        let mut poly = vec![ext];
        poly.extend(holes);
        return vec![poly];
    }
    let sign = signed_area2(&ext).signum();
    let (mut exts, mut hs): (Vec<Vec<Point64>>, Vec<Vec<Point64>>) = (Vec::new(), Vec::new());
    let mut islands: Vec<Vec<Point64>> = Vec::new();
    for lp in loops(&ext) {
        if signed_area2(&lp).signum() == sign { exts.push(lp) } else { hs.push(lp) }
    }
    for h in holes {
        for lp in loops(&h) {
            if signed_area2(&lp).signum() == sign { islands.push(lp) } else { hs.push(lp) }
        }
    }
    let mut polys: Vec<Vec<Vec<Point64>>> = exts.into_iter().map(|e| vec![e]).collect();
    if polys.is_empty() {
        return Vec::new();
    }
    // the exterior lobe holding a hole: tested at a vertex of the hole on no lobe
    let on: std::collections::HashSet<(i64, i64)> = if polys.len() > 1 {
        polys.iter().flat_map(|p| p[0].iter().map(|q| (q.x, q.y))).collect()
    } else {
        Default::default()
    };
    for h in hs {
        let k = if polys.len() == 1 {
            0
        } else {
            h.iter().find(|q| !on.contains(&(q.x, q.y)))
                .and_then(|&q| polys.iter().position(|p| inside(&p[0], q)))
                .unwrap_or(0)
        };
        polys[k].push(h);
    }
    polys.extend(islands.into_iter().map(|i| vec![i]));
    polys
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts(v: &[(i64, i64)]) -> Vec<Point64> {
        v.iter().map(|&(x, y)| Point64::new(x, y)).collect()
    }

    fn total(polys: &[Vec<Vec<Point64>>]) -> i128 {
        polys.iter().map(|p| {
            let e = signed_area2(&p[0]).abs();
            e - p[1..].iter().map(|h| signed_area2(h).abs()).sum::<i128>()
        }).sum()
    }

    #[test]
    fn a_simple_ring_is_itself() {
        let sq = pts(&[(0, 0), (10, 0), (10, 10), (0, 10)]);
        assert_eq!(loops(&sq), vec![sq.clone()]);
        assert_eq!(simple_polygons(vec![sq.clone()]), vec![vec![sq]]);
    }

    #[test]
    fn two_lobes_meeting_at_a_point_are_two_polygons() {
        // a figure of eight through (10, 10), both lobes counter-clockwise
        let r = pts(&[(0, 0), (10, 0), (10, 10), (20, 10), (20, 20), (10, 20), (10, 10), (0, 10)]);
        let got = simple_polygons(vec![r.clone()]);
        assert_eq!(got.len(), 2);
        assert!(got.iter().all(|p| p.len() == 1 && signed_area2(&p[0]) > 0));
        assert_eq!(total(&got), signed_area2(&r));
    }

    #[test]
    fn a_hole_pinched_off_the_exterior_becomes_a_hole() {
        // a square whose boundary runs in to (5, 5) and round a clockwise loop there
        let r = pts(&[(0, 0), (10, 0), (10, 10), (5, 10), (5, 5), (4, 7), (6, 7), (5, 5),
                      (5, 10), (0, 10)]);
        let got = simple_polygons(vec![r.clone()]);
        // the spike (5, 10) -> (5, 5) -> (5, 10) goes, the loop is the square's hole
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].len(), 2);
        assert!(signed_area2(&got[0][1]) < 0);
        assert_eq!(total(&got), 200 - signed_area2(&pts(&[(5, 5), (6, 7), (4, 7)])).abs());
    }

    #[test]
    fn holes_go_to_the_lobe_they_lie_in() {
        let r = pts(&[(0, 0), (10, 0), (10, 10), (20, 10), (20, 20), (10, 20), (10, 10), (0, 10)]);
        let hole = pts(&[(14, 14), (14, 16), (16, 16), (16, 14)]);
        let got = simple_polygons(vec![r, hole]);
        let with_hole: Vec<_> = got.iter().filter(|p| p.len() == 2).collect();
        assert_eq!(with_hole.len(), 1);
        assert!(with_hole[0][0].iter().any(|q| q.x == 20));
    }
}
