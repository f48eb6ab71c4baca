//! The Python module `tabletop.native` (PyO3). Every entry point runs its Rust work inside
//! [`guarded`]: a panic becomes a `tabletop.native.NativeError` (never a crash of the
//! interpreter), and so does an input past one of the [`crate::limits`].

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Once, OnceLock};

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::create_exception;
use pyo3::prelude::*;

use crate::booleans::{self, Grid, Op, Poly, Pt};
use crate::ends::{ccw, end_region as run_end_region, end_rings, EndAsk, Shape};
use crate::interior::Interior;
use crate::layers::{self, Obstacle};
use crate::limits::{Refused, MAX_COORDINATE};
use crate::minkowski::circumscribed_parts;
use crate::pickup::{cut, pickup as run_pickup, region_and_box, Ask, Map};
use crate::rays;
use crate::parallel::each;
use crate::search::Search;
use crate::turns::{turn_rounds as run_turn_rounds, Added, Layer};
use crate::visibility::{Corners, Pieces};

create_exception!(
    tabletop.native,
    NativeError,
    pyo3::exceptions::PyRuntimeError,
    "The native zone core refused an input (past one of its limits) or failed inside (a bug: \
     its message says where); the Python engine answers the same question."
);

thread_local! {
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}
static HOOK: Once = Once::new();

/// A panic hook that keeps the message for [`guarded`] instead of printing it to stderr.
fn quiet_panics() {
    HOOK.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let msg = if let Some(s) = info.payload().downcast_ref::<&str>() {
                (*s).to_string()
            } else if let Some(s) = info.payload().downcast_ref::<String>() {
                s.clone()
            } else {
                "panic".to_string()
            };
            let at = info.location().map(|l| format!(" at {}:{}", l.file(), l.line()));
            LAST_PANIC.with(|p| *p.borrow_mut() = Some(format!("{msg}{}", at.unwrap_or_default())));
        }));
    });
}

/// Run `f` (Rust work, no Python objects) without the GIL; a panic or a refusal becomes a
/// `NativeError`.
pub(crate) fn guarded<T: Send, F: FnOnce() -> Result<T, Refused> + Send>(
    py: Python<'_>,
    what: &str,
    f: F,
) -> PyResult<T> {
    quiet_panics();
    let got = py.detach(|| catch_unwind(AssertUnwindSafe(f)));
    match got {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(Refused(msg))) => Err(NativeError::new_err(format!("{what}: {msg}"))),
        Err(_) => {
            let msg = LAST_PANIC.with(|p| p.borrow_mut().take()).unwrap_or_default();
            Err(NativeError::new_err(format!("{what}: internal error in the native core ({msg})")))
        }
    }
}

/// Polygons from shapely's ragged layout: `coords` (n, 2), `rings` (ring starts in `coords`,
/// one more than the rings), `polys` (polygon starts in `rings`, one more than the polygons).
pub(crate) fn read_polys(
    coords: &PyReadonlyArray2<'_, f64>,
    rings: &PyReadonlyArray1<'_, i64>,
    polys: &PyReadonlyArray1<'_, i64>,
) -> Result<Vec<Poly>, Refused> {
    let c = coords.as_array();
    let r = rings.as_slice().map_err(|_| Refused("ring offsets are not contiguous".into()))?;
    let p = polys.as_slice().map_err(|_| Refused("polygon offsets are not contiguous".into()))?;
    if c.ncols() != 2 {
        return Err(Refused("coordinates must be an (n, 2) array".into()));
    }
    let n = c.nrows() as i64;
    let ok_offsets = |o: &[i64], end: i64| {
        !o.is_empty() && o[0] == 0 && o.windows(2).all(|w| w[0] <= w[1]) && *o.last().unwrap() <= end
    };
    if !ok_offsets(r, n) || !ok_offsets(p, r.len() as i64 - 1) {
        return Err(Refused("ring or polygon offsets out of order or out of range".into()));
    }
    let mut out = Vec::with_capacity(p.len() - 1);
    for w in p.windows(2) {
        let mut poly = Vec::with_capacity((w[1] - w[0]) as usize);
        for k in w[0]..w[1] {
            let (a, b) = (r[k as usize] as usize, r[k as usize + 1] as usize);
            let mut ring: Vec<[f64; 2]> = (a..b).map(|i| [c[[i, 0]], c[[i, 1]]]).collect();
            if ring.len() > 1 && ring.first() == ring.last() {
                ring.pop();
            }
            if ring.iter().any(|q| !q[0].is_finite() || !q[1].is_finite()) {
                return Err(Refused("a coordinate is not finite".into()));
            }
            poly.push(ring);
        }
        out.push(poly);
    }
    Ok(out)
}

type Ragged<'py> = (Bound<'py, PyArray2<f64>>, Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i64>>);

/// Polygons in shapely's ragged layout (rings closed, as shapely writes them).
pub(crate) fn write_polys<'py>(py: Python<'py>, polys: &[Poly]) -> PyResult<Ragged<'py>> {
    let mut flat: Vec<f64> = Vec::new();
    let mut rings: Vec<i64> = vec![0];
    let mut starts: Vec<i64> = vec![0];
    for poly in polys {
        for ring in poly {
            for q in ring.iter().chain(ring.first()) {
                flat.extend_from_slice(q);
            }
            rings.push((flat.len() / 2) as i64);
        }
        starts.push(rings.len() as i64 - 1);
    }
    let n = flat.len() / 2;
    let coords = PyArray1::from_vec(py, flat).reshape([n, 2])?;
    Ok((coords, PyArray1::from_vec(py, rings), PyArray1::from_vec(py, starts)))
}

/// `subject op clip` on the integer grid of `bounds` (x0, y0, x1, y1; widened by `margin`),
/// `scale` units an inch (1e7, the default, to 1e9): `op` is "union", "intersection" or
/// "difference"; each set in shapely's ragged layout. With `snap` every vertex of the answer
/// that is an input vertex on the grid comes back as that input vertex exactly
/// (`booleans::overlay_snapped`).
#[pyfunction]
#[pyo3(signature = (op, bounds, margin, subject, clip, scale=booleans::SCALE, snap=false))]
#[allow(clippy::too_many_arguments)]
fn overlay<'py>(
    py: Python<'py>,
    op: &str,
    bounds: [f64; 4],
    margin: f64,
    subject: (PyReadonlyArray2<'py, f64>, PyReadonlyArray1<'py, i64>, PyReadonlyArray1<'py, i64>),
    clip: (PyReadonlyArray2<'py, f64>, PyReadonlyArray1<'py, i64>, PyReadonlyArray1<'py, i64>),
    scale: f64,
    snap: bool,
) -> PyResult<Ragged<'py>> {
    let op = match op {
        "union" => Op::Union,
        "intersection" => Op::Intersection,
        "difference" => Op::Difference,
        _ => return Err(NativeError::new_err(format!("overlay: no operation {op:?}"))),
    };
    let s = read_polys(&subject.0, &subject.1, &subject.2).map_err(|e| NativeError::new_err(e.0))?;
    let c = read_polys(&clip.0, &clip.1, &clip.2).map_err(|e| NativeError::new_err(e.0))?;
    let out = guarded(py, "overlay", move || {
        let grid = Grid::for_box_at(bounds, margin, scale)?;
        if snap {
            booleans::overlay_snapped(&grid, &s, &c, op)
        } else {
            booleans::overlay(&grid, &s, &c, op)
        }
    })?;
    write_polys(py, &out)
}

/// The obstacles' outline of one map (built once per obstacle set): its directed edges (the
/// union on the left) and the box.
#[pyclass(frozen, module = "tabletop.native")]
struct Outline {
    inner: rays::Outline,
}

#[pymethods]
impl Outline {
    /// `a`, `b`: (n, 2) arrays of the edges' ends; `bounds`: the box (x0, y0, x1, y1).
    #[new]
    fn new(
        py: Python<'_>,
        a: PyReadonlyArray2<'_, f64>,
        b: PyReadonlyArray2<'_, f64>,
        bounds: [f64; 4],
    ) -> PyResult<Self> {
        let (a, b) = (a.as_array(), b.as_array());
        if a.ncols() != 2 || b.ncols() != 2 || a.nrows() != b.nrows() {
            return Err(NativeError::new_err("Outline: a and b must be (n, 2) arrays of one length"));
        }
        let edges: Vec<[f64; 4]> =
            (0..a.nrows()).map(|k| [a[[k, 0]], a[[k, 1]], b[[k, 0]], b[[k, 1]]]).collect();
        let inner = guarded(py, "Outline", move || rays::Outline::new(&edges, bounds))?;
        Ok(Outline { inner })
    }

    /// Whether each point lies closer than `d` to an obstacle edge (the box's not counted).
    fn near_edge<'py>(&self, py: Python<'py>, pts: PyReadonlyArray2<'py, f64>, d: f64)
                      -> PyResult<Bound<'py, PyArray1<bool>>> {
        each_point(py, &pts, "Outline.near_edge", |x, y| self.inner.near_edge(x, y, d))
    }

    /// Whether each point lies inside the edges' rings (even-odd) or closer than `d` to one
    /// of them (`rays::Outline::within`).
    fn within<'py>(&self, py: Python<'py>, pts: PyReadonlyArray2<'py, f64>, d: f64)
                   -> PyResult<Bound<'py, PyArray1<bool>>> {
        each_point(py, &pts, "Outline.within", |x, y| self.inner.within(x, y, d))
    }

    /// Whether each point is off the box or inside the obstacles.
    fn blocked<'py>(&self, py: Python<'py>, pts: PyReadonlyArray2<'py, f64>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        each_point(py, &pts, "Outline.blocked", |x, y| self.inner.blocked(x, y))
    }
}

/// `test` of each point of `pts` (an (n, 2) array; else `what`'s `NativeError`), as an array.
fn each_point<'py>(py: Python<'py>, pts: &PyReadonlyArray2<'py, f64>, what: &str,
                   test: impl Fn(f64, f64) -> bool) -> PyResult<Bound<'py, PyArray1<bool>>> {
    let p = pts.as_array();
    if p.ncols() != 2 {
        return Err(NativeError::new_err(format!("{what}: points must be an (n, 2) array")));
    }
    let out: Vec<bool> = (0..p.nrows()).map(|k| test(p[[k, 0]], p[[k, 1]])).collect();
    Ok(PyArray1::from_vec(py, out))
}

/// A set of polygons kept on the Rust side (an excluded set, converted once per phase).
#[pyclass(frozen, module = "tabletop.native")]
struct PolySet {
    polys: Vec<Poly>,
    /// its cells wholly inside (built by the first pick-up that needs them: `pickup::Ask`)
    interior: OnceLock<Option<Interior>>,
}

impl PolySet {
    fn of(polys: Vec<Poly>) -> PolySet {
        PolySet { polys, interior: OnceLock::new() }
    }

}

#[pymethods]
impl PolySet {
    /// From shapely's ragged layout (see `overlay`).
    #[new]
    fn new(
        coords: PyReadonlyArray2<'_, f64>,
        rings: PyReadonlyArray1<'_, i64>,
        polys: PyReadonlyArray1<'_, i64>,
    ) -> PyResult<Self> {
        let polys = read_polys(&coords, &rings, &polys).map_err(|e| NativeError::new_err(e.0))?;
        Ok(PolySet::of(polys))
    }

    fn __len__(&self) -> usize {
        self.polys.len()
    }

    /// The polygons in shapely's ragged layout (as `overlay` answers).
    fn polygons<'py>(&self, py: Python<'py>) -> PyResult<Ragged<'py>> {
        write_polys(py, &self.polys)
    }
}

/// The region of a geodesic disk: the union of the stars of its wedges (row k: `apex[k]`,
/// `radius[k]`, `start[k]`, `sweep[k]`, `full[k]` for a source's whole disk, the apex's ring
/// neighbours `prev[k]`, `next[k]`), minus `exclude`; in shapely's ragged layout.
#[pyfunction]
#[pyo3(signature = (outline, apex, radius, start, sweep, full, prev, next, exclude=None))]
#[allow(clippy::too_many_arguments)]
fn swept_region<'py>(
    py: Python<'py>,
    outline: &Outline,
    apex: PyReadonlyArray2<'py, f64>,
    radius: PyReadonlyArray1<'py, f64>,
    start: PyReadonlyArray1<'py, f64>,
    sweep: PyReadonlyArray1<'py, f64>,
    full: PyReadonlyArray1<'py, bool>,
    prev: PyReadonlyArray2<'py, f64>,
    next: PyReadonlyArray2<'py, f64>,
    exclude: Option<&PolySet>,
) -> PyResult<Ragged<'py>> {
    let (ap, pv, nx) = (apex.as_array(), prev.as_array(), next.as_array());
    let (r, s0, sw, f) = (radius.as_array(), start.as_array(), sweep.as_array(), full.as_array());
    let n = ap.nrows();
    if [r.len(), s0.len(), sw.len(), f.len(), pv.nrows(), nx.nrows()].iter().any(|&m| m != n)
        || ap.ncols() != 2 || pv.ncols() != 2 || nx.ncols() != 2
    {
        return Err(NativeError::new_err("swept_region: the wedge arrays differ in length"));
    }
    let wedges: Vec<rays::Wedge> = (0..n)
        .map(|k| rays::Wedge {
            apex: [ap[[k, 0]], ap[[k, 1]]],
            radius: r[k],
            start: s0[k],
            sweep: sw[k],
            full: f[k],
            prev: [pv[[k, 0]], pv[[k, 1]]],
            next: [nx[[k, 0]], nx[[k, 1]]],
        })
        .collect();
    let o = &outline.inner;
    let ex = exclude.map(|e| e.polys.as_slice());
    let out = guarded(py, "swept_region", move || {
        let grid = Grid::for_box(o.bounds(), 1.0)?;
        rays::region(o, &wedges, ex, &grid)
    })?;
    write_polys(py, &out)
}

fn points(a: &PyReadonlyArray2<'_, f64>, what: &str) -> Result<Vec<Pt>, Refused> {
    let a = a.as_array();
    if a.ncols() != 2 {
        return Err(Refused(format!("{what} must be an (n, 2) array")));
    }
    Ok((0..a.nrows()).map(|k| [a[[k, 0]], a[[k, 1]]]).collect())
}

type RaggedIn<'py> = (PyReadonlyArray2<'py, f64>, PyReadonlyArray1<'py, i64>, PyReadonlyArray1<'py, i64>);

type CornersIn<'py> = (PyReadonlyArray2<'py, f64>, PyReadonlyArray2<'py, f64>,
                        PyReadonlyArray2<'py, f64>, PyReadonlyArray1<'py, i64>);

/// The corners with their ring neighbours and pieces (`at`, `prev`, `next`, `owner`).
#[allow(clippy::type_complexity)]
fn read_corners(corners: &CornersIn<'_>) -> Result<(Vec<Pt>, Vec<Pt>, Vec<Pt>, Vec<i64>), Refused> {
    let at = points(&corners.0, "corners")?;
    let prev = points(&corners.1, "prev")?;
    let next = points(&corners.2, "next")?;
    let owner = corners.3.as_array().to_vec();
    if prev.len() != at.len() || next.len() != at.len() || owner.len() != at.len() {
        return Err(Refused("the corner arrays differ in length".into()));
    }
    Ok((at, prev, next, owner))
}

/// The obstacles of one map for a translating mover (built once per map and corner graph):
/// the outline's directed edges `a -> b`, the box, the convex pieces (shapely's ragged layout:
/// one ring a polygon), the corners with their ring neighbours and pieces, and the corner
/// graph in compressed rows (`ptr`, `nbr`, `w`) holding every edge up to `cap`.
#[pyclass(frozen, module = "tabletop.native")]
struct ReachCore {
    map: Map,
    rings: Vec<Poly>,
}

#[pymethods]
impl ReachCore {
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        a: PyReadonlyArray2<'_, f64>,
        b: PyReadonlyArray2<'_, f64>,
        bounds: [f64; 4],
        pieces: RaggedIn<'_>,
        corners: (PyReadonlyArray2<'_, f64>, PyReadonlyArray2<'_, f64>, PyReadonlyArray2<'_, f64>,
                  PyReadonlyArray1<'_, i64>),
        graph: (PyReadonlyArray1<'_, i64>, PyReadonlyArray1<'_, i64>, PyReadonlyArray1<'_, f64>),
        cap: f64,
    ) -> PyResult<Self> {
        let err = |e: Refused| NativeError::new_err(format!("ReachCore: {}", e.0));
        let (a, b) = (points(&a, "a").map_err(err)?, points(&b, "b").map_err(err)?);
        if a.len() != b.len() {
            return Err(NativeError::new_err("ReachCore: a and b differ in length"));
        }
        let edges: Vec<[f64; 4]> = a.iter().zip(&b).map(|(p, q)| [p[0], p[1], q[0], q[1]]).collect();
        let rings = read_polys(&pieces.0, &pieces.1, &pieces.2).map_err(err)?;
        let (at, prev, next, owner) = read_corners(&corners).map_err(err)?;
        let ptr: Vec<usize> = graph.0.as_array().iter().map(|&v| v.max(0) as usize).collect();
        let nbr: Vec<u32> = graph.1.as_array().iter().map(|&v| v.clamp(0, u32::MAX as i64) as u32).collect();
        let w = graph.2.as_array().to_vec();
        let map = guarded(py, "ReachCore", move || {
            let outline = rays::Outline::new(&edges, bounds)?;
            let ring_list: Vec<Vec<Pt>> = rings.iter().filter_map(|p| p.first().cloned()).collect();
            let pieces = Pieces::new(&ring_list)?;
            let mut c = Corners::new(at, prev, next, owner)?;
            c.set_graph(ptr, nbr, w, cap)?;
            Ok((Map::new(outline, pieces, c), rings))
        })?;
        Ok(ReachCore { map: map.0, rings: map.1 })
    }

    /// The corner graph's reach (every edge up to this long is in it).
    #[getter]
    fn cap(&self) -> f64 {
        self.map.corners.cap
    }
}

type SearchOut<'py> = (Bound<'py, PyArray2<f64>>, Bound<'py, PyArray1<f64>>, Bound<'py, PyArray1<i64>>,
                       Bound<'py, PyArray1<i64>>, usize);

/// One pick-up (the compiled core's `pickup`): the search from `sources` ((n, 3): x, y, d0;
/// the start first) within `distance`, its region cut to where the mover may end (minus
/// `exclude` and the friends near it: circles (m, 3) as circumscribed polygons of
/// `segments` vertices, and polygons), with `slack` per corner (see `ReachMap.slack`).
/// `None` when the start stands in a piece; else the region (ragged) and the search (nodes,
/// distances, parents, corners, how many sources).
#[pyfunction]
#[pyo3(signature = (core, sources, distance, bends=2, exclude=None, slack=None,
                    circles=None, segments=128, polygons=None))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn pickup<'py>(
    py: Python<'py>,
    core: &ReachCore,
    sources: PyReadonlyArray2<'py, f64>,
    distance: f64,
    bends: u32,
    exclude: Option<&PolySet>,
    slack: Option<PyReadonlyArray1<'py, f64>>,
    circles: Option<PyReadonlyArray2<'py, f64>>,
    segments: usize,
    polygons: Option<&PolySet>,
) -> PyResult<Option<(Ragged<'py>, SearchOut<'py>)>> {
    let src = sources.as_array();
    if src.ncols() != 3 || src.nrows() == 0 {
        return Err(NativeError::new_err("pickup: sources must be a non-empty (n, 3) array"));
    }
    let src: Vec<[f64; 3]> = (0..src.nrows()).map(|k| [src[[k, 0]], src[[k, 1]], src[[k, 2]]]).collect();
    let slack: Option<Vec<f64>> = slack.map(|s| s.as_array().to_vec());
    if let Some(s) = &slack {
        if s.len() != core.map.corners.len() {
            return Err(NativeError::new_err("pickup: slack must have one value a corner"));
        }
    }
    let circles: Vec<[f64; 3]> = match circles {
        Some(c) => {
            let c = c.as_array();
            if c.ncols() != 3 {
                return Err(NativeError::new_err("pickup: circles must be an (m, 3) array"));
            }
            (0..c.nrows()).map(|k| [c[[k, 0]], c[[k, 1]], c[[k, 2]]]).collect()
        }
        None => Vec::new(),
    };
    let ex = exclude.map(|e| e.polys.as_slice());
    let more = polygons.map(|p| p.polys.as_slice()).unwrap_or(&[]);
    let map = &core.map;
    let rings = &core.rings;
    let got = guarded(py, "pickup", move || {
        let grid = Grid::for_box(map.bounds, 1.0)?;
        let circles: Vec<[f64; 3]> = circles
            .into_iter()
            .filter(|c| c.iter().all(|v| v.is_finite()) && c[2] > 0.0)
            .collect();
        let mut friends: Vec<Poly> = circumscribed_parts(&circles, segments.clamp(3, 4096))
            .into_iter()
            .map(|r| vec![r])
            .collect();
        friends.extend_from_slice(more);
        let interior = exclude.map(|e| &e.interior);
        let ask = Ask { sources: &src, distance, bends, exclude: ex, slack: slack.as_deref(),
                        friends: &friends, interior };
        run_pickup(map, &|| rings.clone(), &ask, &grid)
    })?;
    let Some(got) = got else { return Ok(None) };
    let region = write_polys(py, &got.region)?;
    Ok(Some((region, search_out(py, got.search)?)))
}

/// The region of a search done elsewhere (a turning mover's layer, searched by `turn_rounds`
/// or the Python engine): `nodes` (the sources first), `dist`, `parent` (rows, -1 for a
/// source), `corner` (each node's corner of `core`, -1 for a source), `n_sources`, within
/// `distance`, minus `exclude`, with `slack` per corner: `pickup`'s region without its search
/// (the start stands in no piece), and minus `friends` and `fixed` (more regions it may not
/// end in: `end_region`'s, `union=False`'s sums or a union the caller keeps between calls;
/// one overlay for both, filled by the non-zero rule). Ragged, as `pickup`'s, with the box of
/// the region before the cuts (`None` when that is empty); with `keep`, the region is kept in
/// the core instead (a `PolySet`, for `union_regions`; the ragged layout is then empty), else
/// `None`.
#[pyfunction]
#[pyo3(signature = (core, nodes, dist, parent, corner, n_sources, distance, bends=2,
                    exclude=None, slack=None, friends=None, keep=false, fixed=None))]
#[allow(clippy::too_many_arguments)]
fn search_region<'py>(
    py: Python<'py>,
    core: &ReachCore,
    nodes: PyReadonlyArray2<'py, f64>,
    dist: PyReadonlyArray1<'py, f64>,
    parent: PyReadonlyArray1<'py, i64>,
    corner: PyReadonlyArray1<'py, i64>,
    n_sources: usize,
    distance: f64,
    bends: u32,
    exclude: Option<&PolySet>,
    slack: Option<PyReadonlyArray1<'py, f64>>,
    friends: Option<&PolySet>,
    keep: bool,
    fixed: Option<&PolySet>,
) -> PyResult<(Ragged<'py>, Option<[f64; 4]>, Option<PolySet>)> {
    let ask = RegionAsk::read(core, &nodes, &dist, &parent, &corner, n_sources, distance, bends,
                              exclude, slack.as_ref(), friends, fixed)
        .map_err(|e| NativeError::new_err(format!("search_region: {}", e.0)))?;
    let (out, whole) = guarded(py, "search_region", move || ask.region())?;
    if keep {
        return Ok((write_polys(py, &[])?, whole, Some(PolySet::of(out))));
    }
    Ok((write_polys(py, &out)?, whole, None))
}

/// One region for [`search_region`] or [`search_regions`]: its inputs checked and read.
struct RegionAsk<'a> {
    core: &'a ReachCore,
    search: Search,
    bends: u32,
    exclude: Option<&'a PolySet>,
    slack: Option<Vec<f64>>,
    friends: &'a [Poly],
    fixed: &'a [Poly],
}

impl<'a> RegionAsk<'a> {
    #[allow(clippy::too_many_arguments)]
    fn read(core: &'a ReachCore, nodes: &PyReadonlyArray2<'_, f64>,
            dist: &PyReadonlyArray1<'_, f64>, parent: &PyReadonlyArray1<'_, i64>,
            corner: &PyReadonlyArray1<'_, i64>, n_sources: usize, distance: f64, bends: u32,
            exclude: Option<&'a PolySet>, slack: Option<&PyReadonlyArray1<'_, f64>>,
            friends: Option<&'a PolySet>, fixed: Option<&'a PolySet>)
            -> Result<RegionAsk<'a>, Refused> {
        let err = |m: &str| Refused(m.to_string());
        let nodes = points(nodes, "nodes")?;
        let (dist, parent, corner) =
            (dist.as_array().to_vec(), parent.as_array().to_vec(), corner.as_array().to_vec());
        let n = nodes.len();
        let nc = core.map.corners.len() as i64;
        if dist.len() != n || parent.len() != n || corner.len() != n {
            return Err(err("nodes, dist, parent and corner differ in length"));
        }
        if n_sources == 0 || n_sources > n {
            return Err(err("n_sources must be from 1 to the number of nodes"));
        }
        if parent.iter().enumerate().any(|(k, &p)| p < -1 || p >= n as i64 || (k >= n_sources && p < 0))
            || corner.iter().enumerate().any(|(k, &c)| c < -1 || c >= nc || (k >= n_sources && c < 0))
        {
            return Err(err("a parent or corner is out of range"));
        }
        if nodes.iter().flatten().chain(&dist).any(|v| !v.is_finite()) || !distance.is_finite() {
            return Err(err("a node or distance is not finite"));
        }
        let slack: Option<Vec<f64>> = slack.map(|s| s.as_array().to_vec());
        if slack.as_ref().is_some_and(|s| s.len() != core.map.corners.len()) {
            return Err(err("slack must have one value a corner"));
        }
        Ok(RegionAsk {
            core,
            search: Search { nodes, dist, parent, corner, n_sources, distance },
            bends,
            exclude,
            slack,
            friends: friends.map_or(&[], |f| f.polys.as_slice()),
            fixed: fixed.map_or(&[], |f| f.polys.as_slice()),
        })
    }

    /// The region and the box of it before the cuts (the work of [`search_region`]).
    fn region(&self) -> Result<(Vec<Poly>, Option<[f64; 4]>), Refused> {
        let (map, rings) = (&self.core.map, &self.core.rings);
        let grid = Grid::for_box(map.bounds, 1.0)?;
        // the friends are cut from the region made (an overlay of its outline), not in the
        // cascade's last step, where their many overlapping sums (a mob's, summed with an
        // oval) would cross the inner edges of the two halves too: measured slower for ovals
        let ask = Ask { sources: &[], distance: self.search.distance, bends: self.bends,
                        exclude: self.exclude.map(|e| e.polys.as_slice()),
                        slack: self.slack.as_deref(), friends: &[],
                        interior: self.exclude.map(|e| &e.interior) };
        let (region, whole) = region_and_box(map, &|| rings.clone(), &self.search, &ask, &grid)?;
        Ok((cut(&region, self.fixed, self.friends, &grid)?, whole))
    }
}

/// One item of [`search_regions`]: `search_region`'s arguments from `core` to `fixed`, in
/// its order (`keep` is always true).
type RegionRow<'py> = (
    PyRef<'py, ReachCore>,
    PyReadonlyArray2<'py, f64>,
    PyReadonlyArray1<'py, f64>,
    PyReadonlyArray1<'py, i64>,
    PyReadonlyArray1<'py, i64>,
    usize,
    f64,
    u32,
    Option<PyRef<'py, PolySet>>,
    Option<PyReadonlyArray1<'py, f64>>,
    Option<PyRef<'py, PolySet>>,
    Option<PyRef<'py, PolySet>>,
);

/// A region kept in the core and its box before the cuts (`None`: empty).
type KeptRegion = (PolySet, Option<[f64; 4]>);

/// [`search_region`] with `keep` of each of `rows` (a turning mover's layers) in one call, on
/// up to `threads` threads (the caller's among them; no Python on any: the interpreter's lock
/// is let go for the whole call): each answer a kept region (a `PolySet`) and its box before
/// the cuts, or `None` where that row is refused (the caller builds it another way). A panic
/// in any row is the call's `NativeError`.
#[pyfunction]
#[pyo3(signature = (rows, threads=1))]
fn search_regions<'py>(
    py: Python<'py>,
    rows: Vec<RegionRow<'py>>,
    threads: usize,
) -> PyResult<Vec<Option<KeptRegion>>> {
    let asks: Vec<Option<RegionAsk<'_>>> = rows
        .iter()
        .map(|(core, nodes, dist, parent, corner, n_sources, distance, bends, exclude, slack,
               friends, fixed)| {
            RegionAsk::read(core, nodes, dist, parent, corner, *n_sources, *distance, *bends,
                            exclude.as_deref(), slack.as_ref(), friends.as_deref(),
                            fixed.as_deref())
                .ok()
        })
        .collect();
    let got = guarded(py, "search_regions", move || {
        Ok(each(asks.iter().collect(), threads, |ask: &Option<RegionAsk<'_>>, _: &mut ()| {
            ask.as_ref().and_then(|a| a.region().ok())
        }))
    })?;
    Ok(got.into_iter().map(|g| g.map(|(polys, whole)| (PolySet::of(polys), whole))).collect())
}

/// The union of the regions `sets` (kept in the core: `search_region(..., keep=True)`, a
/// turning mover's layers, adjacent facings next to each other) and of `more` (polygons in
/// shapely's ragged layout: the hub's region, a layer the Python engine built), on the
/// integer grid of `bounds` (x0, y0, x1, y1; the battlefield), pairwise in that order
/// (`booleans::union_sets`); in shapely's ragged layout.
/// The steps but the last on up to `threads` threads (the same answer).
#[pyfunction]
#[pyo3(signature = (bounds, sets, more, threads=1))]
fn union_regions<'py>(py: Python<'py>, bounds: [f64; 4], sets: Vec<PyRef<'py, PolySet>>,
                      more: (PyReadonlyArray2<'py, f64>, PyReadonlyArray1<'py, i64>,
                             PyReadonlyArray1<'py, i64>), threads: usize)
                      -> PyResult<Ragged<'py>> {
    let more = read_polys(&more.0, &more.1, &more.2)
        .map_err(|e| NativeError::new_err(format!("union_regions: {}", e.0)))?;
    let sets: Vec<Vec<Poly>> = sets.iter().map(|s| s.polys.clone()).collect();
    let out = guarded(py, "union_regions", move || {
        let grid = Grid::for_box(bounds, 1.0)?;
        let mut refs: Vec<&[Poly]> = sets.iter().map(|s| s.as_slice()).collect();
        refs.push(&more);
        booleans::union_sets(&grid, &refs, threads)
    })?;
    write_polys(py, &out)
}

/// A search as Python takes it (`GeodesicDisk.of_search`): nodes, distances, parents, corners,
/// how many sources.
fn search_out(py: Python<'_>, s: Search) -> PyResult<SearchOut<'_>> {
    let k = s.nodes.len();
    let flat: Vec<f64> = s.nodes.iter().flatten().copied().collect();
    let nodes = PyArray1::from_vec(py, flat).reshape([k, 2])?;
    Ok((nodes, PyArray1::from_vec(py, s.dist), PyArray1::from_vec(py, s.parent),
        PyArray1::from_vec(py, s.corner), s.n_sources))
}

type AddedOut<'py> = (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<f64>>,
                      Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i64>>,
                      Bound<'py, PyArray2<f64>>);

/// A turning mover's turns on the way (the compiled core's `turns::turn_rounds`): layer `l` is
/// the map `cores[l]` with its sources `sources[l]` ((n, 3): x, y, d0, the start first; none:
/// no reach yet) and `bends[l]`, turning at the turn nodes `xy` ((m, 2)) where `usable[l]`
/// ((layers, m)). `None` when a layer's start stands in a piece; else each layer's final search
/// (as `pickup`'s, `None`: never reached), the layers created in the rounds in that order, and
/// the sources added: per source its layer, turn node, length, the layer it came from and the
/// source row there, and the path from that source (rows `offsets[k] .. offsets[k + 1]` of
/// `points`, the source first, the turn node not included). Each round's searches and lengths
/// on up to `threads` threads (the same answer).
#[pyfunction]
#[pyo3(signature = (cores, sources, bends, xy, usable, distance, max_rounds, gain, threads=1))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn turn_rounds<'py>(
    py: Python<'py>,
    cores: Vec<PyRef<'py, ReachCore>>,
    sources: Vec<PyReadonlyArray2<'py, f64>>,
    bends: Vec<u32>,
    xy: PyReadonlyArray2<'py, f64>,
    usable: PyReadonlyArray2<'py, bool>,
    distance: f64,
    max_rounds: usize,
    gain: f64,
    threads: usize,
) -> PyResult<Option<(Vec<Option<SearchOut<'py>>>, Vec<usize>, AddedOut<'py>)>> {
    let err = |e: Refused| NativeError::new_err(format!("turn_rounds: {}", e.0));
    let n = cores.len();
    let us = usable.as_array();
    if sources.len() != n || bends.len() != n || us.nrows() != n {
        return Err(NativeError::new_err("turn_rounds: one source array, bends and usable row a layer"));
    }
    let xy = points(&xy, "xy").map_err(err)?;
    let mut srcs: Vec<Vec<[f64; 3]>> = Vec::with_capacity(n);
    for a in &sources {
        let a = a.as_array();
        if a.ncols() != 3 && a.nrows() > 0 {
            return Err(NativeError::new_err("turn_rounds: sources must be (n, 3) arrays"));
        }
        srcs.push((0..a.nrows()).map(|k| [a[[k, 0]], a[[k, 1]], a[[k, 2]]]).collect());
    }
    let rows: Vec<Vec<bool>> = (0..n).map(|l| us.row(l).to_vec()).collect();
    let maps: Vec<&Map> = cores.iter().map(|c| &c.map).collect();
    let got = guarded(py, "turn_rounds", move || {
        let layers = maps.into_iter().zip(srcs).zip(bends).zip(rows)
            .map(|(((map, sources), bends), usable)| Layer { map, sources, bends, usable })
            .collect();
        run_turn_rounds(layers, &xy, distance, max_rounds, gain, threads)
    })?;
    let Some(got) = got else { return Ok(None) };
    let searches = got.searches.into_iter()
        .map(|s| s.map(|s| search_out(py, s)).transpose())
        .collect::<PyResult<Vec<_>>>()?;
    let a = &got.added;
    let col = |f: &dyn Fn(&Added) -> i64| PyArray1::from_vec(py, a.iter().map(f).collect());
    let mut offsets = vec![0i64];
    let mut flat: Vec<f64> = Vec::new();
    for g in a {
        flat.extend(g.path.iter().flatten());
        offsets.push((flat.len() / 2) as i64);
    }
    let k = flat.len() / 2;
    let added = (col(&|g| g.layer as i64), col(&|g| g.node as i64),
                 PyArray1::from_vec(py, a.iter().map(|g| g.dist).collect()),
                 col(&|g| g.from as i64), col(&|g| g.src_row as i64),
                 PyArray1::from_vec(py, offsets), PyArray1::from_vec(py, flat).reshape([k, 2])?);
    Ok(Some((searches, got.created, added)))
}

/// Rings from a flat `(n, 2)` array and ring offsets (one more than the rings).
fn read_rings(coords: &PyReadonlyArray2<'_, f64>, offsets: &PyReadonlyArray1<'_, i64>)
              -> Result<Vec<Vec<Pt>>, Refused> {
    let c = coords.as_array();
    let o = offsets.as_slice().map_err(|_| Refused("ring offsets are not contiguous".into()))?;
    if c.ncols() != 2 {
        return Err(Refused("coordinates must be an (n, 2) array".into()));
    }
    if o.is_empty() || o[0] != 0 || o.windows(2).any(|w| w[0] > w[1])
        || *o.last().unwrap() != c.nrows() as i64
    {
        return Err(Refused("ring offsets out of order or out of range".into()));
    }
    let out: Vec<Vec<Pt>> = o.windows(2)
        .map(|w| (w[0] as usize..w[1] as usize).map(|i| [c[[i, 0]], c[[i, 1]]]).collect())
        .collect();
    if out.iter().flatten().flatten().any(|v| !v.is_finite() || v.abs() > MAX_COORDINATE) {
        return Err(Refused(format!("a coordinate is not finite or over {MAX_COORDINATE} in")));
    }
    Ok(out)
}

/// The obstacles of a turning mover's layers (built once per phase): the circles `(m, 3)`
/// first, then the convex polygon pieces (counter-clockwise; flat coordinates and ring
/// offsets), in the order of the Python engine's `TurnMap.obstacles`.
#[pyclass(frozen, module = "tabletop.native")]
struct Obstacles {
    items: Vec<Obstacle>,
    /// the circles' grown unions of the turns asked of [`turn_region`] with `foot0`
    unions: layers::SweepUnions,
}

#[pymethods]
impl Obstacles {
    #[new]
    fn new(circles: PyReadonlyArray2<'_, f64>, coords: PyReadonlyArray2<'_, f64>,
           offsets: PyReadonlyArray1<'_, i64>) -> PyResult<Self> {
        let err = |e: Refused| NativeError::new_err(format!("Obstacles: {}", e.0));
        let c = circles.as_array();
        if c.ncols() != 3 {
            return Err(NativeError::new_err("Obstacles: circles must be an (m, 3) array"));
        }
        let mut items: Vec<Obstacle> = Vec::with_capacity(c.nrows());
        for k in 0..c.nrows() {
            let v = [c[[k, 0]], c[[k, 1]], c[[k, 2]]];
            if v.iter().any(|x| !x.is_finite() || x.abs() > MAX_COORDINATE) || v[2] < 0.0 {
                return Err(NativeError::new_err("Obstacles: a circle is not finite, too far or of \
                                                 negative radius"));
            }
            items.push(Obstacle::Circle(v));
        }
        let rings = read_rings(&coords, &offsets).map_err(err)?;
        crate::limits::check("obstacles", items.len() + rings.len(), crate::limits::MAX_RINGS)
            .map_err(err)?;
        items.extend(rings.into_iter().map(Obstacle::Polygon));
        Ok(Obstacles { items, unions: layers::SweepUnions::default() })
    }

    fn __len__(&self) -> usize {
        self.items.len()
    }
}

fn chosen<'a>(obstacles: &'a Obstacles, which: Option<PyReadonlyArray1<'_, i64>>)
              -> PyResult<Vec<&'a Obstacle>> {
    match which {
        None => Ok(obstacles.items.iter().collect()),
        Some(w) => w.as_array().iter().map(|&i| {
            usize::try_from(i).ok().and_then(|i| obstacles.items.get(i))
                .ok_or_else(|| NativeError::new_err("which: an obstacle index out of range"))
        }).collect(),
    }
}

type GrownOut<'py> = (Bound<'py, PyArray2<f64>>, Bound<'py, PyArray1<i64>>, Bound<'py, PyArray2<i64>>);

/// The obstacles (those of `which`, all when `None`) grown by each convex piece of a
/// footprint (`foot`: flat coordinates and ring offsets), as the Python engine's
/// `cspace.grow`: the rings (flat coordinates, ring offsets) and each one's (obstacle, piece).
#[pyfunction]
#[pyo3(signature = (obstacles, foot, offsets, max_step, which=None))]
fn grown_pieces<'py>(py: Python<'py>, obstacles: &Obstacles, foot: PyReadonlyArray2<'py, f64>,
                     offsets: PyReadonlyArray1<'py, i64>, max_step: f64,
                     which: Option<PyReadonlyArray1<'py, i64>>) -> PyResult<GrownOut<'py>> {
    let foot = read_rings(&foot, &offsets).map_err(|e| NativeError::new_err(e.0))?;
    let items = chosen(obstacles, which)?;
    let (rings, pairs) = guarded(py, "grown_pieces", move || {
        layers::grow(&items, &foot, max_step.clamp(1e-3, 1.0))
    })?;
    let mut flat: Vec<f64> = Vec::new();
    let mut starts: Vec<i64> = vec![0];
    for r in &rings {
        flat.extend(r.iter().flatten());
        starts.push((flat.len() / 2) as i64);
    }
    let n = flat.len() / 2;
    let k = pairs.len();
    let pairs: Vec<i64> = pairs.iter().flatten().map(|&v| v as i64).collect();
    Ok((PyArray1::from_vec(py, flat).reshape([n, 2])?, PyArray1::from_vec(py, starts),
        PyArray1::from_vec(py, pairs).reshape([k, 2])?))
}

/// A turn region (see `layers::turn_region`): the box `free` minus the obstacles grown by the
/// sweep's pieces (`foot`, turned to the step's first facing); never larger than the exact
/// region; in shapely's ragged layout. `board`: the box whose centre is the grid's origin (the
/// battlefield: every step's region on one grid, so edges two regions share stay shared).
/// `foot0`: the same sweep at facing 0 (`foot` is it turned by `facing` degrees): each circle
/// radius's grown union is then made once a sweep and kept in `obstacles` for the other steps,
/// turned to each.
#[pyfunction]
#[pyo3(signature = (obstacles, foot, offsets, free, max_step, board, foot0=None, facing=0.0))]
#[allow(clippy::too_many_arguments)]
fn turn_region<'py>(py: Python<'py>, obstacles: &Obstacles, foot: PyReadonlyArray2<'py, f64>,
                    offsets: PyReadonlyArray1<'py, i64>, free: [f64; 4], max_step: f64,
                    board: [f64; 4], foot0: Option<RingsIn<'py>>, facing: f64)
                    -> PyResult<Ragged<'py>> {
    let foot = read_rings(&foot, &offsets).map_err(|e| NativeError::new_err(e.0))?;
    let foot0 = foot0.map(|(c, o)| read_rings(&c, &o)).transpose()
        .map_err(|e| NativeError::new_err(e.0))?;
    if !facing.is_finite() {
        return Err(NativeError::new_err("turn_region: the facing is not finite"));
    }
    let items = chosen(obstacles, None)?;
    let kept = &obstacles.unions;
    let out = guarded(py, "turn_region", move || {
        let grid = Grid::for_box(board, 1.0)?;
        let turned = foot0.as_deref().map(|f| layers::Turned { foot0: f, facing, kept });
        layers::turn_region(&items, &foot, free, max_step.clamp(1e-3, 1.0), &grid,
                            turned.as_ref())
    })?;
    write_polys(py, &out)
}

type RingsIn<'py> = (PyReadonlyArray2<'py, f64>, PyReadonlyArray1<'py, i64>);

/// Where a mover may not end (the compiled core's `ends`): the union of the regions of the
/// models (centres `at` (n, 2), each of shape `which[k]`) within `extra`, and of the terrain's
/// convex pieces. The mover is its reflected footprint's convex pieces (`mover`: rings as
/// `(coords, starts)`), or a disk of `mover_radius` when it has none; shape k is the pieces
/// `shape_starts[k]..shape_starts[k + 1]` of `shapes` about its centre, or a disk of
/// `shape_radius[k]` when it has none. Corners turn at most `max_step` radians a tangent
/// segment; a disk summed with a disk has `segments` vertices. In shapely's ragged layout, and
/// kept in the core (a `PolySet`, for `common_region`). With `union=False` the rings are not
/// unioned: each one a polygon of the `PolySet` (counter-clockwise, overlapping: a clip set for
/// `search_region`'s `friends`, whose cut fills them by the non-zero rule), and the ragged
/// layout is empty.
#[pyfunction]
#[pyo3(signature = (mover, mover_radius, shapes, shape_starts, shape_radius, at, which, extra,
                    terrain, max_step, segments, union=true))]
#[allow(clippy::too_many_arguments)]
fn end_region<'py>(
    py: Python<'py>,
    mover: RingsIn<'py>,
    mover_radius: f64,
    shapes: RingsIn<'py>,
    shape_starts: PyReadonlyArray1<'py, i64>,
    shape_radius: PyReadonlyArray1<'py, f64>,
    at: PyReadonlyArray2<'py, f64>,
    which: PyReadonlyArray1<'py, i64>,
    extra: f64,
    terrain: RingsIn<'py>,
    max_step: f64,
    segments: usize,
    union: bool,
) -> PyResult<(Ragged<'py>, PolySet)> {
    let err = |e: Refused| NativeError::new_err(format!("end_region: {}", e.0));
    let fs = read_rings(&mover.0, &mover.1).map_err(err)?;
    let pieces = read_rings(&shapes.0, &shapes.1).map_err(err)?;
    let terrain = read_rings(&terrain.0, &terrain.1).map_err(err)?;
    let starts = shape_starts.as_array().to_vec();
    let radius = shape_radius.as_array().to_vec();
    let centres = points(&at, "at").map_err(err)?;
    let which = which.as_array().to_vec();
    if starts.len() != radius.len() + 1 || which.len() != centres.len()
        || starts.first() != Some(&0) || starts.windows(2).any(|w| w[0] > w[1])
        || *starts.last().unwrap_or(&0) as usize != pieces.len()
        || which.iter().any(|&k| k < 0 || k as usize >= radius.len())
    {
        return Err(NativeError::new_err("end_region: the shape or model arrays disagree"));
    }
    let out = guarded(py, "end_region", move || {
        let mover = if fs.is_empty() { Shape::Disk(mover_radius) } else { Shape::Pieces(fs) };
        let shapes: Vec<Shape> = (0..radius.len())
            .map(|k| {
                let (a, b) = (starts[k] as usize, starts[k + 1] as usize);
                if a == b { Shape::Disk(radius[k]) } else { Shape::Pieces(pieces[a..b].to_vec()) }
            })
            .collect();
        let bodies: Vec<(Pt, usize)> =
            centres.iter().zip(&which).map(|(&p, &k)| (p, k as usize)).collect();
        let ask = EndAsk { mover: &mover, shapes: &shapes, bodies: &bodies, extra,
                           terrain: &terrain, max_step, segments };
        if union {
            run_end_region(&ask)
        } else {
            Ok(end_rings(&ask)?.iter().map(|r| vec![ccw(r)]).collect())
        }
    })?;
    if !union {
        return Ok((write_polys(py, &[])?, PolySet::of(out)));
    }
    Ok((write_polys(py, &out)?, PolySet::of(out)))
}

/// The part of the box `bounds` (x0, y0, x1, y1) that every one of `sets` covers (where every
/// facing's end region holds a centre: a turning mover's hub), in shapely's ragged layout.
#[pyfunction]
fn common_region<'py>(py: Python<'py>, bounds: [f64; 4], sets: Vec<PyRef<'py, PolySet>>)
                      -> PyResult<Ragged<'py>> {
    let sets: Vec<Vec<Poly>> = sets.iter().map(|s| s.polys.clone()).collect();
    let out = guarded(py, "common_region", move || {
        let refs: Vec<&[Poly]> = sets.iter().map(|s| s.as_slice()).collect();
        crate::ends::common(bounds, &refs)
    })?;
    write_polys(py, &out)
}

/// What the corner graph of one map is built from (once per map): the convex pieces (flat
/// coordinates and ring offsets) and the corners with their ring neighbours and pieces.
#[pyclass(frozen, module = "tabletop.native")]
struct GraphMaker {
    pieces: Pieces,
    corners: Corners,
}

#[pymethods]
impl GraphMaker {
    #[new]
    fn new(py: Python<'_>, coords: PyReadonlyArray2<'_, f64>, offsets: PyReadonlyArray1<'_, i64>,
           corners: CornersIn<'_>) -> PyResult<Self> {
        let err = |e: Refused| NativeError::new_err(format!("GraphMaker: {}", e.0));
        let rings = read_rings(&coords, &offsets).map_err(err)?;
        let (at, prev, next, owner) = read_corners(&corners).map_err(err)?;
        let (pieces, corners) = guarded(py, "GraphMaker", move || {
            Ok((Pieces::new(&rings)?, Corners::new(at, prev, next, owner)?))
        })?;
        Ok(GraphMaker { pieces, corners })
    }

    /// The corner graph up to `cap` (see `graph::corner_graph`): `ptr`, `nbr`, `w`.
    #[allow(clippy::type_complexity)]
    fn graph<'py>(&self, py: Python<'py>, cap: f64)
                  -> PyResult<(Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i64>>,
                               Bound<'py, PyArray1<f64>>)> {
        if !cap.is_finite() || cap < 0.0 {
            return Err(NativeError::new_err("GraphMaker.graph: cap must be finite and >= 0"));
        }
        let (p, c) = (&self.pieces, &self.corners);
        let g = guarded(py, "corner graph", move || crate::graph::corner_graph(p, c, cap))?;
        Ok((PyArray1::from_vec(py, g.ptr.iter().map(|&v| v as i64).collect()),
            PyArray1::from_vec(py, g.nbr.iter().map(|&v| v as i64).collect()),
            PyArray1::from_vec(py, g.w)))
    }
}

/// Each of the core's corners' slack in `set` (kept in the core: an excluded set): the radius
/// of the largest disk about it inside the set, 0 outside (`slack::corner_slack`; the Python
/// engine's `ReachMap.slack`). On a set cut to the box, a corner near its edge has a slack no
/// larger than on the whole set (the cut's edge counts as boundary): a wedge is skipped only
/// where the whole set holds it.
#[pyfunction]
fn corner_slack<'py>(py: Python<'py>, core: &ReachCore, set: &PolySet)
                     -> PyResult<Bound<'py, PyArray1<f64>>> {
    let (at, polys) = (&core.map.corners.at, &set.polys);
    let out = guarded(py, "corner_slack", move || Ok(crate::slack::corner_slack(at, polys)))?;
    Ok(PyArray1::from_vec(py, out))
}

/// What [`merge_triangles`] answers: each piece's input triangle or -1, the merged pieces'
/// vertices and their counts.
type MergedPieces<'py> =
    (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray2<f64>>, Bound<'py, PyArray1<i64>>);

/// Convex pieces from the triangles of a triangulation, `tris` an (n, 2) array of 3 points a
/// triangle (`convex::merge_triangles`, the Python engine's `merge_convex` by edges): each
/// piece's input triangle or -1, then the merged pieces' vertices (clockwise from the least,
/// not closed) and their counts.
#[pyfunction]
fn merge_triangles<'py>(py: Python<'py>, tris: PyReadonlyArray2<'py, f64>)
                        -> PyResult<MergedPieces<'py>> {
    let c = tris.as_array();
    #[allow(clippy::manual_is_multiple_of)] // (`is_multiple_of` needs Rust 1.87)
    if c.ncols() != 2 || c.nrows() % 3 != 0 {
        return Err(NativeError::new_err("merge_triangles: tris must be an (3n, 2) array"));
    }
    let t: Vec<[Pt; 3]> = (0..c.nrows() / 3)
        .map(|k| [0, 1, 2].map(|i| [c[[3 * k + i, 0]], c[[3 * k + i, 1]]]))
        .collect();
    let pieces = guarded(py, "merge_triangles", move || crate::convex::merge_triangles(&t))?;
    let (mut which, mut flat, mut sizes) = (Vec::new(), Vec::new(), Vec::new());
    for p in pieces {
        match p {
            crate::convex::Piece::Kept(k) => which.push(k as i64),
            crate::convex::Piece::Merged(r) => {
                which.push(-1);
                sizes.push(r.len() as i64);
                for q in r {
                    flat.extend_from_slice(&q);
                }
            }
        }
    }
    let n = flat.len() / 2;
    Ok((PyArray1::from_vec(py, which), PyArray1::from_vec(py, flat).reshape([n, 2])?,
        PyArray1::from_vec(py, sizes)))
}

/// Panic inside the core on purpose: shows that a panic reaches Python as a `NativeError`.
#[pyfunction]
fn selftest_panic(py: Python<'_>) -> PyResult<()> {
    guarded(py, "panic test", || -> Result<(), Refused> { panic!("a deliberate panic") })
}

#[pymodule]
fn native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("NativeError", m.py().get_type::<NativeError>())?;
    m.add("MAX_VERTICES", crate::limits::MAX_VERTICES)?;
    m.add("MAX_RINGS", crate::limits::MAX_RINGS)?;
    m.add("MAX_SOURCES", crate::limits::MAX_SOURCES)?;
    m.add("MAX_GRAPH_EDGES", crate::limits::MAX_GRAPH_EDGES)?;
    m.add("MAX_GRAPH_PAIRS", crate::limits::MAX_GRAPH_PAIRS)?;
    m.add("MAX_OVERLAY_VERTICES", crate::limits::MAX_OVERLAY_VERTICES)?;
    m.add("MAX_COORDINATE", crate::limits::MAX_COORDINATE)?;
    m.add("MAX_LAYERS", crate::limits::MAX_LAYERS)?;
    m.add("MAX_TURN_CELLS", crate::limits::MAX_TURN_CELLS)?;
    m.add("MAX_TURN_WORK", crate::limits::MAX_TURN_WORK)?;
    m.add_function(wrap_pyfunction!(overlay, m)?)?;
    m.add_function(wrap_pyfunction!(swept_region, m)?)?;
    m.add_function(wrap_pyfunction!(pickup, m)?)?;
    m.add_function(wrap_pyfunction!(search_region, m)?)?;
    m.add_function(wrap_pyfunction!(search_regions, m)?)?;
    m.add_function(wrap_pyfunction!(union_regions, m)?)?;
    m.add_function(wrap_pyfunction!(end_region, m)?)?;
    m.add_function(wrap_pyfunction!(common_region, m)?)?;
    m.add_function(wrap_pyfunction!(turn_rounds, m)?)?;
    m.add_function(wrap_pyfunction!(corner_slack, m)?)?;
    m.add_function(wrap_pyfunction!(merge_triangles, m)?)?;
    m.add_class::<ReachCore>()?;
    m.add_class::<Outline>()?;
    m.add_class::<PolySet>()?;
    m.add_class::<Obstacles>()?;
    m.add_class::<GraphMaker>()?;
    m.add_function(wrap_pyfunction!(grown_pieces, m)?)?;
    m.add_function(wrap_pyfunction!(turn_region, m)?)?;
    m.add_function(wrap_pyfunction!(selftest_panic, m)?)?;
    Ok(())
}
