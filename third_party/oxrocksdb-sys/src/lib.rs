#![allow(
    non_upper_case_globals,
    non_camel_case_types,
    non_snake_case,
    dead_code
)]

// stone: the bindings are kept in the tree (scripts/vendor --bindings makes them), not made
// by bindgen at build time: no libclang needed.
include!("bindings.rs");
