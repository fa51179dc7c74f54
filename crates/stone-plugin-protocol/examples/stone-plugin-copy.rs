//! An example plugin: `copy:///some/dir` destinations copy every file of the package into
//! that directory. Build it with `cargo build -p stone-plugin-protocol --example
//! stone-plugin-copy`, put the binary on `PATH`, and `stone plugin list` shows it.

use std::path::PathBuf;

use stone_plugin_protocol::{
    Context, DatasetOutcome, Plugin, PluginError, PushOptions, PushPackage, PushResult, serve,
};

struct Copy;

impl Plugin for Copy {
    fn name(&self) -> &str {
        "copy"
    }

    fn version(&self) -> &str {
        env!("CARGO_PKG_VERSION")
    }

    fn can_handle(&self, destination: &str) -> bool {
        destination.starts_with("copy:///")
    }

    fn push(
        &self,
        package: PushPackage,
        _options: PushOptions,
        cx: &Context,
    ) -> Result<PushResult, PluginError> {
        let root = PathBuf::from(package.destination.trim_start_matches("copy://"));
        let mut uploaded = 0;
        let mut datasets = Vec::new();
        for resource in &package.resources {
            let dir = root.join(&resource.path);
            for file in &resource.files {
                if cx.is_cancelled() {
                    return Err(PluginError::new("copy.cancelled", "cancelled"));
                }
                let to = dir.join(&file.path);
                let copied = std::fs::create_dir_all(to.parent().unwrap_or(&root))
                    .and_then(|()| std::fs::copy(&file.local, &to))
                    .map_err(|e| {
                        PluginError::new("copy.io", format!("cannot copy to {}", to.display()))
                            .caused_by(e)
                    })?;
                uploaded += copied;
                cx.uploaded(copied);
            }
            datasets.push(DatasetOutcome {
                url: format!("{}/{}", package.destination, resource.path),
                iri: format!("file://{}", dir.display()),
                kind: Some(resource.kind),
                engine: None,
                status: "created".into(),
                detail: None,
            });
        }
        Ok(PushResult {
            push_id: "copy".into(),
            handler: "copy".into(),
            datasets,
            package_node: None,
            uploaded_bytes: uploaded,
            already_staged: 0,
        })
    }
}

fn main() {
    serve(Copy);
}
