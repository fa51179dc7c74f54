//! An example plugin: `copy:///some/dir` destinations copy every file of the package into
//! that directory. Build it with `cargo build -p stone-plugin-protocol --example
//! stone-plugin-copy`, put the binary on `PATH`, and `stone plugin list` shows it.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use stone_plugin_protocol::{Context, Plugin, PluginError, PushParams, serve};

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

    fn push(&self, params: PushParams, cx: &Context) -> Result<Value, PluginError> {
        let destination = params.package["destination"].as_str().unwrap_or_default();
        let root = PathBuf::from(destination.trim_start_matches("copy://"));
        let mut uploaded = 0;
        let mut datasets = Vec::new();
        for resource in params.package["resources"].as_array().into_iter().flatten() {
            let dir = root.join(resource["path"].as_str().unwrap_or_default());
            for file in resource["files"].as_array().into_iter().flatten() {
                if cx.is_cancelled() {
                    return Err(PluginError::new("copy.cancelled", "cancelled"));
                }
                let from = Path::new(file["local"].as_str().unwrap_or_default());
                let to = dir.join(file["path"].as_str().unwrap_or_default());
                let copied = std::fs::create_dir_all(to.parent().unwrap_or(&root))
                    .and_then(|()| std::fs::copy(from, &to))
                    .map_err(|e| {
                        PluginError::new("copy.io", format!("cannot copy to {}", to.display()))
                            .caused_by(e)
                    })?;
                uploaded += copied;
                cx.uploaded(copied);
            }
            datasets.push(json!({
                "url": format!("{destination}/{}", resource["path"].as_str().unwrap_or_default()),
                "iri": format!("file://{}", dir.display()),
                "kind": resource["kind"],
                "engine": null,
                "status": "created",
            }));
        }
        Ok(json!({
            "push_id": "copy",
            "handler": "copy",
            "datasets": datasets,
            "package_node": null,
            "uploaded_bytes": uploaded,
            "already_staged": 0,
        }))
    }
}

fn main() {
    serve(Copy);
}
