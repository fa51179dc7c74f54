pub mod env;
pub mod push;
