pub mod env;
pub mod import;
pub mod push;
