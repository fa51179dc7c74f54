//! Putting data files into the warehouse under their content address.
//!
//! A data file lives at `<table location>/data/<sha256>.parquet`. Placing is idempotent:
//! a file already there with the right content is kept, so a retried append (after a
//! crash, or a lost compare-and-swap) does not fail on "file exists", and branches
//! pushing the same content share one file.

use std::fs::{self, File};
use std::io::Read;
use std::path::{Path, PathBuf};

use ::iceberg::io::FileIO;
use bytes::Bytes;

use super::error::IcebergError;
use super::parquet_file::{PreparedFile, sha256_of};
use super::s3::S3Storage;

/// Location of the data file with content `sha256` in a table.
pub(crate) fn data_file_location(table_location: &str, sha256: &str) -> String {
    format!(
        "{}/data/{sha256}.parquet",
        table_location.trim_end_matches('/')
    )
}

/// The local path of a `file:` location, `None` for other schemes.
pub(crate) fn local_path(location: &str) -> Option<PathBuf> {
    if let Some(rest) = location.strip_prefix("file://") {
        // file:///abs/path (empty authority) or file://abs/path
        Some(if rest.starts_with('/') {
            PathBuf::from(rest)
        } else {
            PathBuf::from(format!("/{rest}"))
        })
    } else if let Some(rest) = location.strip_prefix("file:") {
        Some(PathBuf::from(rest))
    } else if location.starts_with('/') {
        Some(PathBuf::from(location))
    } else {
        None
    }
}

/// Places `file` at `location` unless it is there already: copied server-side from
/// `copy.1` in the bucket of `copy.0` when given (an upload if that fails), else uploaded.
pub(crate) async fn place(
    file_io: &FileIO,
    copy: Option<(&S3Storage, &str)>,
    file: &PreparedFile,
    location: &str,
) -> Result<(), IcebergError> {
    let write_error =
        |source: Box<dyn std::error::Error + Send + Sync>| IcebergError::WriteDataFile {
            location: location.to_owned(),
            source,
        };
    if let Some(destination) = local_path(location) {
        let source = file.source.clone();
        let sha256 = file.sha256.clone();
        let size = file.size;
        return tokio::task::spawn_blocking(move || {
            place_local(&source, &destination, &sha256, size)
        })
        .await
        .map_err(IcebergError::Task)?
        .map_err(|error| write_error(Box::new(error)));
    }

    // Object stores: a PUT is atomic, so an existing object of the right size is complete.
    let exists = file_io
        .exists(location)
        .await
        .map_err(|error| write_error(Box::new(error)))?;
    if exists {
        let input = file_io
            .new_input(location)
            .map_err(|error| write_error(Box::new(error)))?;
        let existing = input
            .metadata()
            .await
            .map_err(|error| write_error(Box::new(error)))?;
        if existing.size == file.size {
            return Ok(());
        }
    }
    if let Some((s3, source)) = copy {
        match s3.copy(source, location).await {
            Ok(()) => {
                tracing::debug!(source, location, "data file copied server-side");
                return Ok(());
            }
            Err(error) => {
                tracing::warn!(source, location, error = %error, "server-side copy failed; uploading");
            }
        }
    }
    let output = file_io
        .new_output(location)
        .map_err(|error| write_error(Box::new(error)))?;
    let mut writer = output
        .writer()
        .await
        .map_err(|error| write_error(Box::new(error)))?;
    let mut source = File::open(&file.source).map_err(|error| write_error(Box::new(error)))?;
    let mut buffer = vec![0u8; 8 << 20];
    loop {
        let read = source
            .read(&mut buffer)
            .map_err(|error| write_error(Box::new(error)))?;
        if read == 0 {
            break;
        }
        writer
            .write(Bytes::copy_from_slice(&buffer[..read]))
            .await
            .map_err(|error| write_error(Box::new(error)))?;
    }
    writer
        .close()
        .await
        .map_err(|error| write_error(Box::new(error)))
}

/// Local file system: copy to a temporary name next to the destination, fsync, rename.
/// A crash leaves at most a temporary file; the destination name only ever holds a
/// complete file. An existing destination is verified by its hash (it may have been put
/// there by someone else) and replaced if it is wrong.
fn place_local(source: &Path, destination: &Path, sha256: &str, size: u64) -> std::io::Result<()> {
    if let Ok(existing) = fs::metadata(destination)
        && existing.len() == size
        && sha256_of(destination)? == sha256
    {
        return Ok(());
    }
    let directory = destination
        .parent()
        .ok_or_else(|| std::io::Error::other("data file location has no parent directory"))?;
    fs::create_dir_all(directory)?;
    let temporary = directory.join(format!(".{sha256}.{}.tmp", uuid::Uuid::new_v4().simple()));
    let result = (|| {
        fs::copy(source, &temporary)?;
        File::open(&temporary)?.sync_all()?;
        fs::rename(&temporary, destination)?;
        File::open(directory)?.sync_all()
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    result
}
