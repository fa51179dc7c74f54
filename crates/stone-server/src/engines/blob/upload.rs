//! Copying one staged file to its content-addressed object, checking size and sha256 on
//! the way: a mismatch aborts before the object becomes visible.

use object_store::path::Path as StorePath;
use object_store::{ObjectStore, ObjectStoreExt, PutPayload, WriteMultipart};
use sha2::{Digest, Sha256};
use tokio::io::AsyncReadExt;

use super::{BlobError, BlobFile, BlobTuning};

/// Read size while streaming a large file.
const READ_CHUNK: usize = 1 << 20;

/// Uploads `file` to `location`: one PUT below the multipart threshold, a multipart
/// upload (parts of `options.part_size`, `options.part_concurrency` in flight) above.
pub(super) async fn upload(
    store: &dyn ObjectStore,
    location: &StorePath,
    file: &BlobFile,
    options: &BlobTuning,
) -> Result<(), BlobError> {
    let read_error = |source| BlobError::ReadStaged {
        local: file.local.clone(),
        source,
    };
    if file.size < options.multipart_threshold {
        let bytes = tokio::fs::read(&file.local).await.map_err(read_error)?;
        check(file, bytes.len() as u64, Sha256::digest(&bytes).into())?;
        store
            .put(location, PutPayload::from(bytes))
            .await
            .map_err(BlobError::storage("put", location))?;
        return Ok(());
    }

    let mut reader = tokio::fs::File::open(&file.local)
        .await
        .map_err(read_error)?;
    let upload = store
        .put_multipart(location)
        .await
        .map_err(BlobError::storage("put", location))?;
    let mut writer = WriteMultipart::new_with_chunk_size(upload, options.part_size);
    let mut hasher = Sha256::new();
    let mut size = 0u64;
    let mut buffer = vec![0u8; READ_CHUNK];
    let streamed = async {
        loop {
            let n = reader.read(&mut buffer).await.map_err(read_error)?;
            if n == 0 {
                break;
            }
            hasher.update(&buffer[..n]);
            size += n as u64;
            writer
                .wait_for_capacity(options.part_concurrency)
                .await
                .map_err(BlobError::storage("put", location))?;
            writer.write(&buffer[..n]);
        }
        Ok::<_, BlobError>(())
    }
    .await;
    let outcome = streamed.and_then(|()| check(file, size, hasher.finalize().into()));
    match outcome {
        Ok(()) => {
            writer
                .finish()
                .await
                .map_err(BlobError::storage("put", location))?;
            Ok(())
        }
        Err(error) => {
            // Nothing becomes visible: the parts are discarded.
            if let Err(abort) = writer.abort().await {
                tracing::warn!(%location, error = %abort, "aborting a multipart upload failed");
            }
            Err(error)
        }
    }
}

fn check(file: &BlobFile, actual_size: u64, actual: [u8; 32]) -> Result<(), BlobError> {
    let actual_sha256 = hex::encode(actual);
    if actual_size == file.size && actual_sha256 == file.sha256 {
        Ok(())
    } else {
        Err(BlobError::Digest {
            local: file.local.clone(),
            expected_sha256: file.sha256.clone(),
            expected_size: file.size,
            actual_sha256,
            actual_size,
        })
    }
}
