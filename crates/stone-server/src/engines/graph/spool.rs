//! Exports spooled to an unnamed temporary file: a graph's document is written once, its
//! sha256 (the `ETag`) and size counted on the way, and then streamed from disk, so
//! serving a graph keeps no copy of the document in memory.

use std::fs::File;
use std::io::{BufWriter, Seek, SeekFrom, Write};

use sha2::{Digest, Sha256};

use super::GraphError;

/// A graph's document in a given format, ready to be streamed.
#[derive(Debug)]
pub struct Exported {
    /// Positioned at the start; deleted by the OS when closed.
    pub file: File,
    /// sha256 of the document, lowercase hex.
    pub sha256: String,
    pub size: u64,
}

impl Exported {
    /// The whole document in memory (for small graphs and tests).
    pub fn into_bytes(mut self) -> std::io::Result<Vec<u8>> {
        use std::io::Read;
        let mut bytes = Vec::with_capacity(usize::try_from(self.size).unwrap_or(0));
        self.file.read_to_end(&mut bytes)?;
        Ok(bytes)
    }
}

struct Counting<W> {
    inner: W,
    hash: Sha256,
    size: u64,
}

impl<W: Write> Write for Counting<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hash.update(&buf[..n]);
        self.size += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

fn io_error(error: std::io::Error) -> GraphError {
    GraphError::persist(std::env::temp_dir())(error)
}

/// Serializes `triples` in `format` into a temporary file: [`spool`] with an RDF
/// serializer.
pub(super) fn spool_triples(
    format: super::RdfFormat,
    triples: impl IntoIterator<Item = Result<oxigraph::model::Triple, GraphError>>,
) -> Result<Exported, GraphError> {
    let task = |e: std::io::Error| GraphError::Task {
        message: e.to_string(),
    };
    spool(|out| {
        let mut serializer =
            oxigraph::io::RdfSerializer::from_format(format.to_oxigraph()).for_writer(out);
        for triple in triples {
            serializer.serialize_triple(&triple?).map_err(task)?;
        }
        serializer.finish().map_err(task)?;
        Ok(())
    })
}

/// Runs `write` into a temporary file and returns it with its sha256 and size.
pub(super) fn spool(
    write: impl FnOnce(&mut dyn Write) -> Result<(), GraphError>,
) -> Result<Exported, GraphError> {
    let file = tempfile::tempfile().map_err(io_error)?;
    let mut out = Counting {
        inner: BufWriter::with_capacity(1 << 16, file),
        hash: Sha256::new(),
        size: 0,
    };
    write(&mut out)?;
    out.flush().map_err(io_error)?;
    let Counting { inner, hash, size } = out;
    let mut file = inner.into_inner().map_err(|e| io_error(e.into_error()))?;
    file.seek(SeekFrom::Start(0)).map_err(io_error)?;
    Ok(Exported {
        file,
        sha256: hex::encode(hash.finalize()),
        size,
    })
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    #[test]
    fn a_spooled_document_reads_back_with_its_digest() {
        let mut exported = spool(|out| {
            out.write_all(b"<a> <b> <c> .\n").map_err(io_error)?;
            Ok(())
        })
        .unwrap();
        let mut text = String::new();
        exported.file.read_to_string(&mut text).unwrap();
        assert_eq!(text, "<a> <b> <c> .\n");
        assert_eq!(exported.size, 14);
        assert_eq!(
            exported.sha256,
            hex::encode(Sha256::digest(b"<a> <b> <c> .\n"))
        );
    }
}
