//! One async mutex per key (a table, a graph, a dataset's branch): the writers of one
//! thing inside one process take turns. Across processes, the callers hold the state
//! database's lock (`StateDb::lock`) as well.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

#[derive(Debug, Default)]
pub(crate) struct KeyedLocks {
    locks: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

impl KeyedLocks {
    /// The mutex of `key` (the same one for every caller naming the same key).
    pub(crate) fn get(&self, key: &str) -> Arc<tokio::sync::Mutex<()>> {
        let mut locks = self.locks.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(locks.entry(key.to_owned()).or_default())
    }
}
