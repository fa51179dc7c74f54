pub mod env;
pub mod login;
pub mod plugin;
pub mod push;
