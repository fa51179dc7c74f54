//! The fuzz corpus (`fuzz/corpus/<target>/`, kept minimized in the repository) replayed on
//! stable Rust: every file goes through the same function its fuzz target calls; none may
//! panic. Crashes the fuzzer found are in the corpus too, so this is their regression test.

mod properties;
mod replay;
