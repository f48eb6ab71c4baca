//! The Python module `tabletop.native` (PyO3). Every entry point runs its Rust work inside
//! [`guarded`]: a panic becomes a `tabletop.native.NativeError` (never a crash of the
//! interpreter), and so does an input past one of the [`crate::limits`].

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::create_exception;
use pyo3::prelude::*;

use crate::booleans::{self, Grid, Op, Poly};
use crate::region;
use crate::limits::Refused;

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

/// `subject op clip` on the integer grid of `bounds` (x0, y0, x1, y1; widened by `margin`):
/// `op` is "union", "intersection" or "difference"; each set in shapely's ragged layout.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn overlay<'py>(
    py: Python<'py>,
    op: &str,
    bounds: [f64; 4],
    margin: f64,
    subject: (PyReadonlyArray2<'py, f64>, PyReadonlyArray1<'py, i64>, PyReadonlyArray1<'py, i64>),
    clip: (PyReadonlyArray2<'py, f64>, PyReadonlyArray1<'py, i64>, PyReadonlyArray1<'py, i64>),
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
        let grid = Grid::for_box(bounds, margin)?;
        booleans::overlay(&grid, &s, &c, op)
    })?;
    write_polys(py, &out)
}

/// The obstacles' outline of one map (built once per obstacle set): its directed edges (the
/// union on the left) and the box.
#[pyclass(frozen, module = "tabletop.native")]
struct Outline {
    inner: region::Outline,
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
        let inner = guarded(py, "Outline", move || region::Outline::new(&edges, bounds))?;
        Ok(Outline { inner })
    }

    /// Whether each point is off the box or inside the obstacles.
    fn blocked<'py>(&self, py: Python<'py>, pts: PyReadonlyArray2<'py, f64>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let p = pts.as_array();
        let out: Vec<bool> = (0..p.nrows()).map(|k| self.inner.blocked(p[[k, 0]], p[[k, 1]])).collect();
        Ok(PyArray1::from_vec(py, out))
    }
}

/// A set of polygons kept on the Rust side (an excluded set, converted once per phase).
#[pyclass(frozen, module = "tabletop.native")]
struct PolySet {
    polys: Vec<Poly>,
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
        Ok(PolySet { polys })
    }

    fn __len__(&self) -> usize {
        self.polys.len()
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
    let wedges: Vec<region::Wedge> = (0..n)
        .map(|k| region::Wedge {
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
        region::region(o, &wedges, ex, &grid)
    })?;
    write_polys(py, &out)
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
    m.add("MAX_OVERLAY_VERTICES", crate::limits::MAX_OVERLAY_VERTICES)?;
    m.add("MAX_COORDINATE", crate::limits::MAX_COORDINATE)?;
    m.add_function(wrap_pyfunction!(overlay, m)?)?;
    m.add_function(wrap_pyfunction!(swept_region, m)?)?;
    m.add_class::<Outline>()?;
    m.add_class::<PolySet>()?;
    m.add_function(wrap_pyfunction!(selftest_panic, m)?)?;
    Ok(())
}
