//! The `canasta` Python package's engine side: the flat action encoding,
//! the observation tensor, episodes and batches of them, in plain Rust
//! (tested by `cargo test`), and the Python bindings over them (feature
//! `python`, which maturin turns on).

pub mod batch;
pub mod encoding;
pub mod episode;
pub mod tensor;
pub mod tree;

#[cfg(feature = "python")]
mod py;
