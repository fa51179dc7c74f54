//! No code: this crate exists for its dependency features (see its Cargo.toml). A build of
//! one package (`cargo build -p stone-server`, as maturin's wheel build runs it) otherwise
//! resolves fewer features than the workspace's build and compiles the dependency tree
//! again, RocksDB included.
