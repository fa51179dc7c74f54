//! Tables and branches removed: a dataset deleted from a branch, a branch dropped.

use super::*;

impl IcebergEngine {
    /// Whether the table exists.
    pub async fn table_exists(&self, namespace: &str, table: &str) -> Result<bool, IcebergError> {
        let name = qualified(namespace, table);
        let ident = TableIdent::new(NamespaceIdent::new(namespace.to_owned()), table.to_owned());
        self.catalog
            .table_exists(&ident)
            .await
            .map_err(|error| IcebergError::iceberg(&name, "checking the table", error))
    }

    /// Drops the table from the catalog (for a dataset removed from its package). With
    /// `purge`, its files are deleted too (after the catalog row is gone; a crash in
    /// between leaves only orphan files). Returns whether the table existed.
    pub async fn drop_table(
        &self,
        namespace: &str,
        table: &str,
        purge: bool,
    ) -> Result<bool, IcebergError> {
        let name = qualified(namespace, table);
        let ident = TableIdent::new(NamespaceIdent::new(namespace.to_owned()), table.to_owned());
        let Some(existing) = self.load(&ident, &name).await? else {
            return Ok(false);
        };
        match self.catalog.drop_table(&ident).await {
            Ok(()) => {}
            Err(error) if error.kind() == ErrorKind::TableNotFound => return Ok(false),
            Err(error) => return Err(IcebergError::iceberg(&name, "dropping the table", error)),
        }
        if purge {
            existing
                .file_io()
                .delete_prefix(existing.metadata().location())
                .await
                .map_err(|error| IcebergError::iceberg(&name, "deleting the table files", error))?;
        }
        Ok(true)
    }

    /// Removes a branch of the table (a dataset deleted from that branch by the push API)
    /// with its versions (tags `<branch>@…`), by a compare-and-swap like an append; the
    /// table and its other refs stay. When no branch or tag would be left, the table is
    /// dropped with its files instead. Returns whether the branch existed.
    ///
    /// What only the removed refs reached goes with them, so that nothing of the branch
    /// stays readable by whoever may read the rest of the table (a reader of every
    /// remaining branch may be given credentials for the table's whole prefix): in the
    /// same commit, its snapshots that no remaining ref reaches, legacy bare tags only its
    /// history held, and the schemas only those snapshots used (the name mapping is
    /// recomputed without them); after the commit, the files only those snapshots
    /// referenced (content-addressed data files another snapshot reads stay) and the
    /// older metadata files that name a removed ref, snapshot or schema. A crash after the
    /// commit leaves some of those files behind, as orphans no ref names.
    pub async fn remove_branch(
        &self,
        namespace: &str,
        table: &str,
        branch: &str,
    ) -> Result<bool, IcebergError> {
        check_name("namespace", namespace, NameRule::Identifier)?;
        check_name("table", table, NameRule::Identifier)?;
        check_name("branch", branch, NameRule::Reference)?;
        let name = qualified(namespace, table);
        let ident = TableIdent::new(NamespaceIdent::new(namespace.to_owned()), table.to_owned());
        // No append runs while files are chosen for deletion (an append may be adding a
        // content-addressed file a removed snapshot also named).
        let writers = self.writers.get(&name);
        let _removing = writers.write().await;
        for attempt in 1..=self.commit_attempts {
            let Some(current) = self.load(&ident, &name).await? else {
                return Ok(false);
            };
            let ice = |operation: &'static str| {
                let name = name.clone();
                move |error: ::iceberg::Error| IcebergError::iceberg(&name, operation, error)
            };
            let refs = snapshot::refs(&current).map_err(ice("reading refs"))?;
            match refs.get(branch) {
                Some(reference) if reference.is_branch() => {}
                _ => return Ok(false),
            }
            let metadata = current.metadata();
            let versions = version_tag(branch, "");
            let mut removed: HashSet<String> = refs
                .iter()
                .filter(|(name, reference)| {
                    name.as_str() == branch
                        || (!reference.is_branch() && name.starts_with(&versions))
                })
                .map(|(name, _)| name.clone())
                .collect();
            let plan = expunge::plan(metadata, &refs, &mut removed);
            if removed.len() == refs.len() {
                return self.drop_table(namespace, table, true).await;
            }
            // What the kept snapshots read is known before anything changes: if it cannot
            // be read, nothing is removed.
            let needed = expire::referenced_files(
                &current,
                metadata
                    .snapshots()
                    .filter(|snapshot| !plan.snapshots.contains(&snapshot.snapshot_id())),
                true,
            )
            .await
            .map_err(ice("reading the kept snapshots"))?;
            let mut builder = metadata
                .clone()
                .into_builder(current.metadata_location().map(str::to_owned));
            for name in &removed {
                builder = builder.remove_ref(name);
            }
            let ids: Vec<i64> = plan.snapshots.iter().copied().collect();
            builder = builder.remove_snapshots(&ids);
            if !plan.schemas.is_empty() {
                let schemas: Vec<i32> = plan.schemas.iter().copied().collect();
                builder = builder
                    .remove_schemas(&schemas)
                    .map_err(ice("removing schemas"))?;
                let mapping = expunge::name_mapping_without(metadata, &plan.schemas)
                    .map_err(ice("writing the name mapping"))?;
                builder = builder
                    .set_properties(HashMap::from([(
                        DEFAULT_SCHEMA_NAME_MAPPING.to_owned(),
                        mapping,
                    )]))
                    .map_err(ice("setting the name mapping"))?;
            }
            let new_metadata = builder.build().map_err(ice("building metadata"))?.metadata;
            let log: Vec<String> = new_metadata
                .metadata_log()
                .iter()
                .map(|entry| entry.metadata_file.clone())
                .collect();
            let swapped = self
                .commit_metadata(
                    &current,
                    &ident,
                    &name,
                    new_metadata,
                    "removing a branch of",
                )
                .await?;
            if swapped {
                let deleted =
                    expunge::delete_files(&current, &name, &plan, &removed, &needed, &log).await;
                tracing::info!(table = %name, branch, snapshots = ids.len(), files = deleted.files, bytes = deleted.bytes, metadata_files = deleted.metadata_files, "branch removed with what only it reached");
                return Ok(true);
            }
            let backoff = 20u64.saturating_mul(1 << attempt.min(6));
            tokio::time::sleep(Duration::from_millis(backoff)).await;
        }
        Err(IcebergError::CommitConflict {
            table: name,
            branch: branch.to_owned(),
            attempts: self.commit_attempts,
        })
    }
}
