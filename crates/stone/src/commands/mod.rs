pub mod credentials;
pub mod env;
pub mod events;
pub mod import;
pub mod login;
pub mod man;
pub mod plugin;
pub mod push;
