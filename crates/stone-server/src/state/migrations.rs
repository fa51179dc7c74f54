//! The state database's migrations, embedded in the binary: the SQL files of `migrations/`
//! (SQLite) and `migrations-postgres/`, in version order.
//!
//! Built here rather than by `sqlx::migrate!`: that macro is all that needed sqlx's
//! proc-macro crate, whose build compiled sqlx's core, both drivers and tokio a second time
//! for the compiler's own use (issue 51: a first build in minutes). The migrations are the
//! same records the macro makes (version, description from the file name, the file's SQL,
//! its SHA-384 as the checksum), so a database migrated by an earlier server is up to date.
//! A test checks that each list names every file of its folder.

use std::borrow::Cow;

use sqlx::migrate::{Migration, MigrationType, Migrator};

/// `(file name, SQL)` of each migration, in version order.
type Files = &'static [(&'static str, &'static str)];

macro_rules! migration_files {
    ($dir:literal: $($file:literal),* $(,)?) => {
        &[$(($file, include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/", $dir, "/", $file)))),*]
    };
}

const SQLITE: Files = migration_files!("migrations":
    "0001_push_state.sql",
    "0002_dataset_changes.sql",
    "0003_push_manifests.sql",
    "0004_staging_possession.sql",
    "0005_commit_starts.sql",
    "0006_namespace_quotas.sql",
    "0007_push_files.sql",
    "0008_staged_content_owner.sql",
    "0009_staged_deletions.sql",
    "0010_push_paged_files.sql",
    "0011_push_datasets_by_change.sql",
    "0012_quota_storage_units.sql",
    "0013_events.sql",
    "0014_subscriptions.sql",
    "0015_event_retention.sql",
    "0016_push_files_by_content.sql",
);

const POSTGRES: Files = migration_files!("migrations-postgres":
    "0001_push_state.sql",
    "0002_dataset_changes.sql",
    "0003_push_manifests.sql",
    "0004_staging_possession.sql",
    "0005_commit_starts.sql",
    "0006_namespace_quotas.sql",
    "0007_push_files.sql",
    "0008_staged_content_owner.sql",
    "0009_staged_deletions.sql",
    "0010_push_paged_files.sql",
    "0011_push_datasets_by_change.sql",
    "0012_quota_storage_units.sql",
    "0013_events.sql",
    "0014_subscriptions.sql",
    "0015_event_retention.sql",
    "0016_push_files_by_content.sql",
);

/// The migrator of the SQLite (`postgres = false`) or PostgreSQL schema.
pub(super) fn migrator(postgres: bool) -> Migrator {
    let files = if postgres { POSTGRES } else { SQLITE };
    Migrator {
        migrations: Cow::Owned(
            files
                .iter()
                .map(|(name, sql)| migration(name, sql))
                .collect(),
        ),
        ..Migrator::DEFAULT
    }
}

/// A migration as sqlx reads one from its file: `<version>_<description>.sql`, the
/// description's underscores read as spaces, no transaction when the SQL starts so.
fn migration(name: &str, sql: &'static str) -> Migration {
    let stem = name.strip_suffix(".sql").unwrap_or(name);
    let (version, description) = stem.split_once('_').unwrap_or((stem, ""));
    let version = version
        .parse()
        .unwrap_or_else(|_| panic!("migration file {name} does not start with a version"));
    Migration::new(
        version,
        Cow::Owned(description.replace('_', " ")),
        MigrationType::Simple,
        Cow::Borrowed(sql),
        sql.starts_with("-- no-transaction"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each list names every `.sql` file of its folder, in order: a migration added to the
    /// folder and not to the list would never run.
    #[test]
    fn every_migration_file_is_listed() {
        for (dir, files) in [("migrations", SQLITE), ("migrations-postgres", POSTGRES)] {
            let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
            let mut on_disk: Vec<String> = std::fs::read_dir(&folder)
                .unwrap()
                .map(|entry| entry.unwrap().file_name().into_string().unwrap())
                .filter(|name| name.ends_with(".sql"))
                .collect();
            on_disk.sort();
            let listed: Vec<&str> = files.iter().map(|(name, _)| *name).collect();
            assert_eq!(
                listed, on_disk,
                "{dir}/ and its list in state/migrations.rs"
            );
        }
    }

    /// The records are sqlx's own: version, description and checksum as `sqlx::migrate!`
    /// made them (a database migrated by an earlier server must stay up to date).
    #[test]
    fn migrations_read_as_sqlx_reads_their_files() {
        let sqlite = migrator(false);
        let first = sqlite.iter().next().unwrap();
        assert_eq!(first.version, 1);
        assert_eq!(first.description, "push state");
        assert_eq!(first.checksum.len(), 48, "SHA-384");
        let versions: Vec<i64> = sqlite.iter().map(|m| m.version).collect();
        assert_eq!(versions, (1..=SQLITE.len() as i64).collect::<Vec<_>>());
        assert_eq!(migrator(true).iter().count(), POSTGRES.len());
    }
}
