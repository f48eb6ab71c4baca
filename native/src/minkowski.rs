//! Minkowski sums with disks, never smaller than the true sum (the port of the Python engine's
//! `footprints.circumscribed_circle` and `minkowski.offset_convex`).

use std::f64::consts::PI;

use crate::booleans::{Pt, Ring};

/// The regular `n`-gon circumscribed about the circle of `radius` about `(x, y)` (every edge
/// tangent to it; vertex `k` at angle `(k + 1/2) 2 pi / n`), counter-clockwise.
pub fn circumscribed(x: f64, y: f64, radius: f64, n: usize) -> Ring {
    let n = n.max(3);
    let rho = radius / (PI / n as f64).cos();
    (0..n)
        .map(|k| {
            let t = (k as f64 + 0.5) * 2.0 * PI / n as f64;
            [x + rho * t.cos(), y + rho * t.sin()]
        })
        .collect()
}

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
