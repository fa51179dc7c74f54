//! The manifest of `POST /pushes`, written without the whole of it in memory (issue 27).

use super::*;

impl Session<'_> {
    /// The manifest of `POST /pushes` but its datasets, which [`ManifestBody`] adds one at
    /// a time as it is written.
    fn manifest_head(&self, push_id: Option<String>) -> CreatePush {
        CreatePush {
            paged_files: self.paged(),
            push_id,
            namespace: self.package.namespace.clone(),
            branch: self.options.branch.clone(),
            options: PushFlags {
                yes: self.options.yes,
                force: self.options.force,
                replace: self.options.replace,
                manual: self.options.manual,
            },
            package: self.package.metadata.clone(),
            datasets: Vec::new(),
        }
    }

    /// The manifest entry of the `i`th resource.
    fn dataset_manifest(&self, i: usize, r: &PushResource) -> DatasetManifest {
        let paged = self.paged();
        DatasetManifest {
            listing: paged
                .then(|| self.declared(i))
                .flatten()
                .map(Cow::into_owned),
            name: r.name.clone(),
            kind: r.kind,
            metadata: r.metadata.clone(),
            schema: r.schema.clone(),
            files: r
                .files
                .iter()
                .filter(|_| !paged)
                .map(|f| ManifestFile {
                    path: f.path.clone(),
                    sha256: f.sha256.clone(),
                    size: f.size,
                })
                .collect(),
        }
    }

    pub(super) async fn create(&self, push_id: Option<String>) -> Result<PushCreated, PushError> {
        let url = format!("{}/pushes", self.api);
        let body = ManifestBody::of(self, push_id).map_err(|e| PushError::Protocol {
            phase: Phase::Stage,
            url: url.clone(),
            message: format!("the manifest could not be written as JSON: {e}"),
        })?;
        self.request(Phase::Stage, Method::POST, &url, Some(body.0))
            .await
    }
}

/// The body of `POST /pushes`, written without the whole manifest in memory: the manifest's
/// other fields as [`CreatePush`] writes them, and its datasets built one at a time as they
/// are written, into a buffer of the exact size (issue 27: at 100,000 resources the
/// manifest and its JSON text, grown by doubling, were ~45 MB of the client's peak next to
/// the package to push).
struct ManifestBody(bytes::Bytes);

impl ManifestBody {
    fn of(session: &Session<'_>, push_id: Option<String>) -> serde_json::Result<ManifestBody> {
        let serde_json::Value::Object(mut head) =
            serde_json::to_value(session.manifest_head(push_id))?
        else {
            unreachable!("a struct is written as an object")
        };
        head.remove("datasets");
        let manifest = Manifest {
            head,
            datasets: Datasets(session),
        };
        let mut length = Counted(0);
        serde_json::to_writer(&mut length, &manifest)?;
        let mut out = Vec::with_capacity(length.0);
        serde_json::to_writer(&mut out, &manifest)?;
        Ok(ManifestBody(out.into()))
    }
}

#[derive(Serialize)]
struct Manifest<'s, 'a> {
    #[serde(flatten)]
    head: serde_json::Map<String, serde_json::Value>,
    datasets: Datasets<'s, 'a>,
}

struct Datasets<'s, 'a>(&'s Session<'a>);

impl Serialize for Datasets<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let session = self.0;
        serializer.collect_seq(
            session
                .package
                .resources
                .iter()
                .enumerate()
                .map(|(i, r)| session.dataset_manifest(i, r)),
        )
    }
}

/// A writer that only counts.
struct Counted(usize);

impl std::io::Write for Counted {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
