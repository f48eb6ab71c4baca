//! The compiled core of tabletop's zone engine (see the project's docs: exactness and speed).
//!
//! Pure Rust (`cargo test` runs it without Python); the Python bindings are the `python`
//! feature (`py` module), which maturin builds into `tabletop.native`.
// `!(x > 0.0)` is how the core says "not a positive number, NaN included": the negations of
// comparisons on floats are meant, and `partial_cmp` would hide what they keep out
#![allow(clippy::neg_cmp_op_on_partial_ord)]
pub mod booleans;
pub mod convex;
pub mod ends;
pub mod graph;
pub mod interior;
pub mod layers;
pub mod limits;
pub mod minkowski;
pub mod nearest;
pub mod nested;
pub mod pickup;
pub mod parallel;
pub mod pinches;
pub mod rays;
pub mod search;
pub mod slack;
pub mod turns;
pub mod visibility;
pub mod wedges;

#[cfg(feature = "python")]
mod py;
