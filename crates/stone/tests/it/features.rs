//! The `rdf` feature (off in the default build, spec 2.3: `cargo install stone` has no RDF
//! crate in its dependency tree; `--features rdf` and the `stone-rdf` crate have them), and
//! every crate's `rust-version`.

use std::process::Command;

fn normal_dependencies(extra: &[&str]) -> Vec<String> {
    normal_dependencies_of("stone", extra)
}

fn normal_dependencies_of(package: &str, extra: &[&str]) -> Vec<String> {
    let out = Command::new(env!("CARGO"))
        .args([
            "tree",
            "-p",
            package,
            "-e",
            "normal",
            "--prefix",
            "none",
            "--offline",
        ])
        .args(extra)
        .current_dir(stone_test::tools::package_dir(env!("CARGO_MANIFEST_DIR")))
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.split_whitespace().next().unwrap_or("").to_owned())
        .collect()
}

fn rdf_crates(deps: &[String]) -> Vec<&String> {
    deps.iter()
        .filter(|d| {
            d.starts_with("oxrdf")
                || d.starts_with("oxttl")
                || d.starts_with("oxjsonld")
                || d.starts_with("oxigraph")
        })
        .collect()
}

#[test]
fn the_default_build_has_no_rdf_crate_and_the_rdf_builds_have_them() {
    let default = normal_dependencies(&[]);
    assert!(
        default.iter().any(|d| d == "stone-package") && default.iter().any(|d| d == "keyring"),
        "the tree was read, with the default features: {default:?}"
    );
    assert_eq!(
        rdf_crates(&default),
        Vec::<&String>::new(),
        "`cargo install stone` must not pull an RDF library (spec 2.3)"
    );
    let minimal = normal_dependencies(&["--no-default-features"]);
    assert_eq!(rdf_crates(&minimal), Vec::<&String>::new());
    let rdf = normal_dependencies(&["--features", "rdf"]);
    assert!(
        !rdf_crates(&rdf).is_empty(),
        "`--features rdf` has the RDF handler: {rdf:?}"
    );
    let rdf_executable = normal_dependencies_of("stone-rdf", &[]);
    assert!(
        !rdf_crates(&rdf_executable).is_empty(),
        "the stone-rdf executable (the wheel of the `rdf` extra) has the RDF handler"
    );
}

/// Every crate's `rust-version` is true of its dependencies: no crate it needs to build
/// (normal dependencies, every feature the workspace turns on) asks for a newer Rust. The
/// language side (let chains: 1.88) is checked by clippy's `incompatible_msrv` in
/// `scripts/test` for the standard library, and by this floor.
#[test]
fn every_rust_version_is_met_by_the_dependencies() {
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--offline", "--locked"])
        .current_dir(stone_test::tools::package_dir(env!("CARGO_MANIFEST_DIR")))
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let version = |id: &str| -> Option<(String, Vec<u64>)> {
        let package = meta["packages"]
            .as_array()?
            .iter()
            .find(|p| p["id"] == id)?;
        let text = package["rust_version"].as_str()?;
        // Three parts ("1.88" is "1.88.0"), so that versions compare as numbers.
        let mut parts: Vec<u64> = text.split('.').map(|n| n.parse().unwrap_or(0)).collect();
        parts.resize(3, 0);
        Some((package["name"].as_str()?.to_owned(), parts))
    };
    let nodes = meta["resolve"]["nodes"].as_array().unwrap();
    let normal_deps = |id: &str| -> Vec<String> {
        nodes
            .iter()
            .find(|n| n["id"] == id)
            .and_then(|n| n["deps"].as_array())
            .into_iter()
            .flatten()
            .filter(|d| {
                d["dep_kinds"]
                    .as_array()
                    .is_some_and(|k| k.iter().any(|k| k["kind"].is_null()))
            })
            .filter_map(|d| d["pkg"].as_str().map(str::to_owned))
            .collect()
    };
    let members: Vec<String> = meta["workspace_members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect();
    let mut checked = 0;
    for member in &members {
        let (name, declared) = version(member).expect("every crate declares a rust-version");
        assert!(
            declared >= vec![1, 88, 0],
            "{name}: the code uses let chains, stable since Rust 1.88"
        );
        let mut seen = std::collections::HashSet::new();
        let mut stack = normal_deps(member);
        while let Some(id) = stack.pop() {
            if !seen.insert(id.clone()) {
                continue;
            }
            if let Some((dep, needed)) = version(&id) {
                assert!(
                    needed <= declared,
                    "{name} declares rust-version {declared:?}, but its dependency {dep} needs {needed:?}"
                );
            }
            stack.extend(normal_deps(&id));
        }
        checked += seen.len();
    }
    assert!(
        checked > 100,
        "the dependency graph was read ({checked} edges)"
    );
}
