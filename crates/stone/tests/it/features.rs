//! The `rdf` feature: on in the default build, and without it no RDF crate is in stone's
//! dependency tree.

use std::process::Command;

fn normal_dependencies(extra: &[&str]) -> Vec<String> {
    let out = Command::new(env!("CARGO"))
        .args([
            "tree",
            "-p",
            "stone",
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
fn no_rdf_crate_without_the_rdf_feature() {
    let minimal = normal_dependencies(&["--no-default-features"]);
    assert!(
        minimal.iter().any(|d| d == "stone-package"),
        "the tree was read: {minimal:?}"
    );
    assert_eq!(rdf_crates(&minimal), Vec::<&String>::new());
    let default = normal_dependencies(&[]);
    assert!(
        !rdf_crates(&default).is_empty(),
        "the default build has the RDF handler"
    );
}
