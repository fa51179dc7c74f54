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
    /// The lock of `key` (the same one for every caller naming the same key). The map keeps
    /// only the locks someone holds or waits for: an entry per graph or table ever written
    /// would grow with the store (100,000 graphs).
    pub(crate) fn get(&self, key: &str) -> Arc<L> {
        let mut locks = self.locks.lock().unwrap_or_else(|e| e.into_inner());
        locks.retain(|_, lock| Arc::strong_count(lock) > 1);
        Arc::clone(locks.entry(key.to_owned()).or_default())
    }

    /// How many keys the map holds (tests).
    #[cfg(test)]
    fn len(&self) -> usize {
        self.locks.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

impl KeyedLocks {
    /// Takes the mutex of `key`, held until the guard drops.
    pub(crate) async fn lock(&self, key: &str) -> tokio::sync::OwnedMutexGuard<()> {
        self.get(key).lock_owned().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_map_keeps_only_the_locks_in_use() {
        let locks = KeyedLocks::default();
        let held = locks.lock("a").await;
        for i in 0..1000 {
            drop(locks.lock(&format!("g{i}")).await);
        }
        // "a" is held, the last one was just taken: the 999 before it are gone.
        assert_eq!(locks.len(), 2);
        // The same key still gives the same lock while held.
        assert!(Arc::ptr_eq(&locks.get("a"), &locks.get("a")));
        assert!(locks.get("a").try_lock().is_err());
        drop(held);
        assert!(locks.get("a").try_lock().is_ok());
    }
}
