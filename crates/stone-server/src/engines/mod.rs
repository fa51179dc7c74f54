//! Storage engines, one per AssetKind family. The engine is chosen from the AssetKind
//! alone (TABULAR → [`iceberg`]).

pub mod blob;
pub mod graph;
pub mod iceberg;
mod locks;
mod set;

pub use set::Engines;
