//! Test harness for stone: every test runs in its own [`TestContext`] (own HOME, config,
//! cache), and external programs are the real ones, installed by `scripts/install-tools`.

pub mod context;
pub mod fixture;
pub mod services;
pub mod tools;

pub use context::TestContext;
