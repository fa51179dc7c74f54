pub mod env;
pub mod plugin;
pub mod push;
