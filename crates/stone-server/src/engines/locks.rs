//! One async lock per key (a table, a graph, a dataset's branch): the writers of one
//! thing inside one process take turns. Across processes, the callers hold the state
//! database's lock (`StateDb::lock`) as well.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A lock of type `L` per key: a mutex by default, a read-write lock where some writers
/// may run together (Iceberg appends) and others only alone (an expiry).
#[derive(Debug)]
pub(crate) struct KeyedLocks<L = tokio::sync::Mutex<()>> {
    locks: Mutex<HashMap<String, Arc<L>>>,
}

impl<L> Default for KeyedLocks<L> {
    fn default() -> Self {
        Self {
            locks: Mutex::new(HashMap::new()),
        }
    }
}

impl<L: Default> KeyedLocks<L> {
    /// The lock of `key` (the same one for every caller naming the same key).
    pub(crate) fn get(&self, key: &str) -> Arc<L> {
        let mut locks = self.locks.lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(locks.entry(key.to_owned()).or_default())
    }
}
