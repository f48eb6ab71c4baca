//! Bounds on the work and memory of one call, checked before the work starts: an input past
//! one of them is refused with [`Refused`] (a Python `NativeError` naming the limit), never
//! answered slowly or by running out of memory. The Python engine has no such bounds; the
//! callers fall back to it, or report the refusal (see `docs/`, exactness and speed).

/// Vertices of all obstacle rings of one map.
pub const MAX_VERTICES: usize = 2_000_000;
/// Rings (convex pieces) of one map.
pub const MAX_RINGS: usize = 200_000;
/// Sources of one search (the start and a turning model's turn nodes).
pub const MAX_SOURCES: usize = 200_000;
/// Edges of the corner graph kept for one map (about 16 bytes each).
pub const MAX_GRAPH_EDGES: usize = 20_000_000;
/// Pairs of corners within the corner graph's reach of one another, tested for one graph
/// (each pair once).
pub const MAX_GRAPH_PAIRS: usize = 100_000_000;
/// Vertices of the polygons one overlay takes or makes.
pub const MAX_OVERLAY_VERTICES: usize = 20_000_000;
/// Facing layers of one turning search (a footprint's facing grid and its own facing).
pub const MAX_LAYERS: usize = 4_096;
/// Turn nodes times facing layers of one turning search (its per-node, per-layer tables).
pub const MAX_TURN_CELLS: usize = 10_000_000;
/// Work of the rounds of one turning search (the nodes each turn node's length looks at, the
/// corners near each source, the rows and edges of each search), counted as it goes: past it
/// the call is refused and the Python engine answers, many times slower (about 3.4 s of work a
/// billion here: a 35x60 mm oval advancing at a 7.5-degree step on the fall-back board needed
/// 1.008 billion, 3.4 s, and then 26 s of Python; this bound, about half a minute, is for
/// runaways only).
pub const MAX_TURN_WORK: usize = 10_000_000_000;
/// Threads of one call that spreads its work ([`crate::parallel::each`]; the caller asks for
/// fewer: `TABLETOP_THREADS`, at most 4 unless set).
pub const MAX_THREADS: usize = 16;
/// Largest distance of the map's box from its centre, inches (the overlays' 64-bit integer grid,
/// [`crate::booleans::SCALE`] units an inch, holds far more).
pub const MAX_COORDINATE: f64 = 100_000.0;

/// An input past one of the limits above (its name and the offending size).
#[derive(Debug, Clone, PartialEq)]
pub struct Refused(pub String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// `Err` naming `what` when `value` exceeds `limit`.
pub fn check(what: &str, value: usize, limit: usize) -> Result<(), Refused> {
    if value > limit {
        Err(Refused(format!("{what}: {value} is over the native core's limit of {limit}")))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_names_the_limit() {
        assert!(check("rings", 10, 10).is_ok());
        let err = check("rings", 11, 10).unwrap_err();
        assert!(err.0.contains("rings") && err.0.contains("11") && err.0.contains("10"));
    }
}
