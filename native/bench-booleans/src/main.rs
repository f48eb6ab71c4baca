//! Replays recorded unions (files of `[[ring, ...], ...]` polygons, inches) through the
//! candidate boolean-operations crates and prints each one's median time and area.
//! Run: `cargo run --release -- FILE...` (see benchmarks/RESULTS.md for how they were recorded).
use std::time::Instant;

use geo::{BooleanOps, Coord, LineString, MultiPolygon, Polygon};
use i_overlay::core::fill_rule::FillRule;
use i_overlay::core::overlay::{Overlay, ShapeType};
use i_overlay::core::overlay_rule::OverlayRule;
use i_overlay::i_float::int::point::IntPoint;

type Polys = Vec<Vec<Vec<[f64; 2]>>>;

fn centre(p: &Polys) -> (f64, f64) {
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for q in p.iter().flatten().flatten() {
        x0 = x0.min(q[0]); y0 = y0.min(q[1]); x1 = x1.max(q[0]); y1 = y1.max(q[1]);
    }
    (0.5 * (x0 + x1), 0.5 * (y0 + y1))
}

fn area_ring(r: &[[f64; 2]]) -> f64 {
    let n = r.len();
    (0..n).map(|i| r[i][0] * r[(i + 1) % n][1] - r[(i + 1) % n][0] * r[i][1]).sum::<f64>() * 0.5
}

fn i_overlay_32(p: &Polys, scale: f64) -> f64 {
    let (ox, oy) = centre(p);
    let mut ov: Overlay<i32> = Overlay::new(1024);
    for poly in p {
        for ring in poly {
            let mut r: Vec<IntPoint<i32>> = ring.iter().map(|q| IntPoint::new(((q[0] - ox) * scale).round() as i32, ((q[1] - oy) * scale).round() as i32)).collect();
            r.dedup();
            let a: i64 = (0..r.len()).map(|i| r[i].x as i64 * r[(i + 1) % r.len()].y as i64 - r[(i + 1) % r.len()].x as i64 * r[i].y as i64).sum();
            if a < 0 { r.reverse(); }
            ov.add_contour(&r, ShapeType::Subject);
        }
    }
    let out = ov.overlay(OverlayRule::Union, FillRule::NonZero);
    out.iter().flatten().map(|c| { let f: Vec<[f64; 2]> = c.iter().map(|q| [q.x as f64 / scale, q.y as f64 / scale]).collect(); area_ring(&f) }).sum()
}

fn i_overlay_64(p: &Polys, scale: f64) -> f64 {
    let (ox, oy) = centre(p);
    let mut ov: Overlay<i64> = Overlay::new(1024);
    for poly in p {
        for ring in poly {
            let mut r: Vec<IntPoint<i64>> = ring.iter().map(|q| IntPoint::new(((q[0] - ox) * scale).round() as i64, ((q[1] - oy) * scale).round() as i64)).collect();
            r.dedup();
            let a: i128 = (0..r.len()).map(|i| r[i].x as i128 * r[(i + 1) % r.len()].y as i128 - r[(i + 1) % r.len()].x as i128 * r[i].y as i128).sum();
            if a < 0 { r.reverse(); }
            ov.add_contour(&r, ShapeType::Subject);
        }
    }
    let out = ov.overlay(OverlayRule::Union, FillRule::NonZero);
    out.iter().flatten().map(|c| { let f: Vec<[f64; 2]> = c.iter().map(|q| [q.x as f64 / scale, q.y as f64 / scale]).collect(); area_ring(&f) }).sum()
}

fn geo_union(p: &Polys) -> f64 {
    use geo::Area;
    let polys: Vec<Polygon<f64>> = p.iter().map(|poly| {
        let ls = |r: &Vec<[f64; 2]>| LineString::from(r.iter().map(|q| Coord { x: q[0], y: q[1] }).collect::<Vec<_>>());
        Polygon::new(ls(&poly[0]), poly[1..].iter().map(ls).collect())
    }).collect();
    let mut acc = MultiPolygon::new(vec![]);
    // geo's unary union of many polygons
    acc = geo::algorithm::bool_ops::unary_union(&polys).union(&acc);
    acc.unsigned_area()
}

fn clipper2(p: &Polys, scale: f64) -> f64 {
    use clipper2_rust::core::{FillRule as CF, Point64};
    let (ox, oy) = centre(p);
    let paths: Vec<Vec<Point64>> = p.iter().flatten().map(|r| r.iter().map(|q| Point64::new(((q[0] - ox) * scale).round() as i64, ((q[1] - oy) * scale).round() as i64)).collect()).collect();
    // exteriors may come either way round: each ring made counter-clockwise (positive)
    let paths: Vec<Vec<Point64>> = paths.into_iter().map(|mut r| {
        let a: i128 = (0..r.len()).map(|i| r[i].x as i128 * r[(i + 1) % r.len()].y as i128 - r[(i + 1) % r.len()].x as i128 * r[i].y as i128).sum();
        if a < 0 { r.reverse(); }
        r
    }).collect();
    let out = clipper2_rust::clipper::union_subjects_64(&paths, CF::NonZero);
    out.iter().map(|r| { let f: Vec<[f64; 2]> = r.iter().map(|q| [q.x as f64 / scale, q.y as f64 / scale]).collect(); area_ring(&f) }).sum()
}

fn median_ms<F: FnMut() -> f64>(mut f: F, runs: usize) -> (f64, f64) {
    let mut t = Vec::new();
    let mut a = 0.0;
    for _ in 0..runs {
        let t0 = Instant::now();
        a = f();
        t.push(t0.elapsed().as_secs_f64() * 1000.0);
    }
    t.sort_by(|x, y| x.total_cmp(y));
    (t[runs / 2], a)
}

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    let runs = 5;
    println!("{:<28} {:>6} {:>12} {:>12} {:>12} {:>12} {:>12}   areas (sq in)", "input", "verts", "iov32@1e7", "iov32@1e6", "iov64@1e9", "geo(f64)", "clipper2@1e7");
    let mut tot = [0.0f64; 5];
    for f in &files {
        let p: Polys = serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
        let verts: usize = p.iter().flatten().map(|r| r.len()).sum();
        let r = [
            median_ms(|| i_overlay_32(&p, 1e7), runs),
            median_ms(|| i_overlay_32(&p, 1e6), runs),
            median_ms(|| i_overlay_64(&p, 1e9), runs),
            median_ms(|| geo_union(&p), runs),
            median_ms(|| clipper2(&p, 1e7), runs),
        ];
        for k in 0..5 { tot[k] += r[k].0; }
        let name = std::path::Path::new(f).file_name().unwrap().to_string_lossy().to_string();
        println!("{:<28} {:>6} {:>12.3} {:>12.3} {:>12.3} {:>12.3} {:>12.3}   {:.6} {:.6} {:.6} {:.6} {:.6}", name, verts,
                 r[0].0, r[1].0, r[2].0, r[3].0, r[4].0, r[0].1, r[1].1, r[2].1, r[3].1, r[4].1);
    }
    println!("{:<28} {:>6} {:>12.3} {:>12.3} {:>12.3} {:>12.3} {:>12.3}", "total ms", "", tot[0], tot[1], tot[2], tot[3], tot[4]);
}
