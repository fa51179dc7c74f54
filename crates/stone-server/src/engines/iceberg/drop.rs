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
            let versions = version_tag(branch, "");
            let removed: Vec<&String> = refs
                .iter()
                .filter(|(name, reference)| {
                    name.as_str() == branch
                        || (!reference.is_branch() && name.starts_with(&versions))
                })
                .map(|(name, _)| name)
                .collect();
            if removed.len() == refs.len() {
                return self.drop_table(namespace, table, true).await;
            }
            let mut builder = current
                .metadata()
                .clone()
                .into_builder(current.metadata_location().map(str::to_owned));
            for name in removed {
                builder = builder.remove_ref(name);
            }
            let new_metadata = builder.build().map_err(ice("building metadata"))?.metadata;
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
