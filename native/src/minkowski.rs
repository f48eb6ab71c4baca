//! Minkowski sums with disks, never smaller than the true sum (the port of the Python engine's
//! `footprints.circumscribed_circle` and `minkowski.offset_convex`).

use std::f64::consts::PI;

use crate::booleans::{Pt, Ring};

/// The regular `n`-gon circumscribed about the circle of `radius` about `(x, y)` (every edge
/// tangent to it; vertex `k` at angle `(k + 1/2) 2 pi / n`), counter-clockwise.
pub fn circumscribed(x: f64, y: f64, radius: f64, n: usize) -> Ring {
    circumscribed_on(&directions(n), x, y, radius)
}

/// The directions `(cos t, sin t)` of the vertices of [`circumscribed`]'s `n`-gons (at least 3).
fn directions(n: usize) -> Vec<Pt> {
    let n = n.max(3);
    (0..n)
        .map(|k| {
            let t = (k as f64 + 0.5) * 2.0 * PI / n as f64;
            [t.cos(), t.sin()]
        })
        .collect()
}

/// [`circumscribed`] with its vertices' directions given (one table for many disks: the same
/// vertices, without a sine and a cosine each).
fn circumscribed_on(dirs: &[Pt], x: f64, y: f64, radius: f64) -> Ring {
    let rho = radius / (PI / dirs.len() as f64).cos();
    dirs.iter().map(|d| [x + rho * d[0], y + rho * d[1]]).collect()
}

/// The circumscribed `n`-gons of the disks `(x, y, radius)` (as [`circumscribed`]), each
/// without its stretches inside one earlier disk: the same union, fewer vertices for an
/// overlay to sweep (a unit's models stand close, their disks overlapping).
///
/// Of a polygon, a run of consecutive vertices strictly inside disk `j` (an earlier one) keeps
/// its two ends: the cap cut off by the chord between them lies in the hull of the run, inside
/// the disk and so inside polygon `j`, which is never cut where it is the first polygon to
/// hold a point; a polygon whose every vertex is inside one earlier disk is left out (it lies
/// inside it). A point of the union lies in the first polygon that holds it, which keeps it.
/// Any earlier disks will do, so the work is bounded: a polygon is tested against at most
/// [`COVERS`] of them, and past [`PRUNED`] disks none is pruned.
pub fn circumscribed_parts(circles: &[[f64; 3]], n: usize) -> Vec<Ring> {
    let mut out = Vec::with_capacity(circles.len());
    let mut cover: Vec<usize> = Vec::new();
    let dirs = directions(n);
    for (i, c) in circles.iter().enumerate() {
        let ring = circumscribed_on(&dirs, c[0], c[1], c[2]);
        if circles.len() > PRUNED {
            out.push(ring);
            continue;
        }
        let reach = c[2] / (PI / n.max(3) as f64).cos();
        // the earlier disks near it; inside one: at least COVER within its circle
        let near: Vec<(usize, &[f64; 3])> = circles[..i]
            .iter()
            .enumerate()
            .filter(|(_, d)| {
                let (dx, dy) = (d[0] - c[0], d[1] - c[1]);
                (dx * dx + dy * dy).sqrt() < d[2] + reach
            })
            .take(COVERS)
            .collect();
        if near.is_empty() {
            out.push(ring);
            continue;
        }
        const NONE: usize = usize::MAX;
        cover.clear();
        cover.extend(ring.iter().map(|p| {
            near.iter()
                .find(|(_, d)| {
                    let (dx, dy) = (p[0] - d[0], p[1] - d[1]);
                    d[2] - COVER > 0.0 && dx * dx + dy * dy < (d[2] - COVER) * (d[2] - COVER)
                })
                .map_or(NONE, |(j, _)| *j)
        }));
        let m = ring.len();
        if cover[0] != NONE && cover.iter().all(|&j| j == cover[0]) {
            continue;
        }
        let kept: Ring = (0..m)
            .filter(|&k| {
                let j = cover[k];
                j == NONE || cover[(k + m - 1) % m] != j || cover[(k + 1) % m] != j
            })
            .map(|k| ring[k])
            .collect();
        out.push(kept);
    }
    out
}

/// How far inside an earlier disk a vertex must be for [`circumscribed_parts`] to drop it
/// (inches): far more than the overlays' grid.
const COVER: f64 = 1e-6;

/// The earlier disks a polygon of [`circumscribed_parts`] is tested against, at most.
const COVERS: usize = 32;

/// Disks past which [`circumscribed_parts`] prunes none (finding the earlier disks near each
/// is quadratic: 4,096 disks about 8 million distances). A pick-up has tens of friends; 3,000
/// friends stacked in one place (hostile input) took the pick-up 157 s unpruned, 15 s pruned.
const PRUNED: usize = 4_096;

/// A counter-clockwise convex ring grown by `distance`: straight edges exactly at `distance`,
/// each corner by tangent segments turning at most `max_step` (their vertices at most
/// `distance (1 / cos(max_step / 2) - 1)` outside the arc), so never smaller than the sum.
pub fn offset_convex(coords: &[Pt], distance: f64, max_step: f64) -> Ring {
    let n0 = coords.len();
    let mut pts: Vec<Pt> = Vec::with_capacity(n0);
    let mut normals: Vec<f64> = Vec::with_capacity(n0);
    for i in 0..n0 {
        let (p, q) = (coords[i], coords[(i + 1) % n0]);
        let (ex, ey) = (q[0] - p[0], q[1] - p[1]);
        let l = (ex * ex + ey * ey).sqrt();
        if l > 1e-12 {
            pts.push(p);
            normals.push((-ex / l).atan2(ey / l));
        }
    }
    let n = pts.len();
    let mut out: Ring = Vec::with_capacity(n * 4);
    for i in 0..n {
        let a_out = normals[i];
        let a_in = normals[(i + n - 1) % n];
        let mut turn = (a_out - a_in).rem_euclid(2.0 * PI);
        if turn > PI {
            turn -= 2.0 * PI;
        }
        let m = ((turn / max_step - 1e-9).ceil() as i64).max(1);
        let step = turn / m as f64;
        let rho = distance / (step / 2.0).cos();
        for k in 0..m {
            let ang = a_in + step * (k as f64 + 0.5);
            out.push([pts[i][0] + rho * ang.cos(), pts[i][1] + rho * ang.sin()]);
        }
    }
    if out.len() > 3 {
        let m = out.len();
        let keep: Vec<bool> = (0..m)
            .map(|i| {
                let (p, q) = (out[i], out[(i + 1) % m]);
                (p[0] - q[0]).abs().max((p[1] - q[1]).abs()) > 1e-12
            })
            .collect();
        out = out.into_iter().zip(keep).filter(|(_, k)| *k).map(|(p, _)| p).collect();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::booleans::ring_area;

    #[test]
    fn a_circumscribed_polygon_holds_its_circle() {
        let r = circumscribed(1.0, 2.0, 3.0, 128);
        assert_eq!(r.len(), 128);
        // every edge's middle is at the radius, every vertex beyond it
        for i in 0..128 {
            let (p, q) = (r[i], r[(i + 1) % 128]);
            let m = [0.5 * (p[0] + q[0]) - 1.0, 0.5 * (p[1] + q[1]) - 2.0];
            assert!(((m[0] * m[0] + m[1] * m[1]).sqrt() - 3.0).abs() < 1e-12);
        }
        assert!(ring_area(&r) > PI * 9.0);
    }

    #[test]
    fn circumscribed_parts_have_the_union_of_the_polygons() {
        use crate::booleans::{area, overlay, Grid, Op, Poly};
        // a unit's models close together (overlapping disks), one inside another, one apart
        let circles = [[10.0, 10.0, 1.26], [11.0, 10.5, 1.26], [10.2, 11.4, 1.26],
                       [10.1, 10.1, 0.5], [11.5, 12.0, 1.26], [15.0, 15.0, 1.26],
                       [12.0, 10.0, 2.4]];
        let g = Grid::for_box([0.0, 0.0, 20.0, 20.0], 1.0).unwrap();
        let whole: Vec<Poly> = circles.iter()
            .map(|c| vec![circumscribed(c[0], c[1], c[2], 128)]).collect();
        let parts = circumscribed_parts(&circles, 128);
        let fewer: usize = parts.iter().map(|r| r.len()).sum();
        assert!(parts.len() == 6 && fewer < 5 * 128, "{} {}", parts.len(), fewer);
        let parts: Vec<Poly> = parts.into_iter().map(|r| vec![r]).collect();
        let a = overlay(&g, &whole, &[], Op::Union).unwrap();
        let b = overlay(&g, &parts, &[], Op::Union).unwrap();
        let more = overlay(&g, &a, &b, Op::Difference).unwrap();
        let less = overlay(&g, &b, &a, Op::Difference).unwrap();
        assert!(area(&more) < 1e-12 && area(&less) < 1e-12, "{} {}", area(&more), area(&less));
    }

    #[test]
    fn a_square_grown_keeps_its_edges_at_the_distance() {
        let sq = vec![[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]];
        let g = offset_convex(&sq, 1.0, PI / 16.0);
        // 4 corners of a quarter turn, 8 steps each
        assert_eq!(g.len(), 32);
        let a = ring_area(&g);
        let exact = 4.0 + 8.0 + PI;
        assert!(a >= exact && a < exact * 1.01, "{a}");
        assert!(g.iter().all(|p| p[0] >= -1.0 - 1e-12 && p[0] <= 3.0 + 1e-12));
    }
}
