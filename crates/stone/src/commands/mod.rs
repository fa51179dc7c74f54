pub mod env;
pub mod import;
pub mod login;
pub mod plugin;
pub mod push;
