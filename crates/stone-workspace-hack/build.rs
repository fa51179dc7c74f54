//! Empty: its presence makes the build-dependencies of this crate count (see Cargo.toml).
fn main() {}
