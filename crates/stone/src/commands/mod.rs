pub mod env;
pub mod login;
pub mod push;
