//! The reference stone server: the push API and read access, on real engines.
//!
//! For now this crate holds the storage engines; the HTTP routes, staging and the job
//! runner come next.

pub mod engines;
