//! No input makes the datasets.yaml loader panic: arbitrary bytes, YAML-shaped noise, and
//! mutations of a valid descriptor all end in a package or a located error.

use std::path::Path;
use std::sync::OnceLock;

use proptest::prelude::*;
use stone_package::package::resolve;

const VALID: &str = r#"name: demo
title: "Demo"
version: "1.0"
metadata: {owner: me, tags: [a, b], nested: {x: 1}}
publish:
  to: "stone:demo"
  public: true
  dialect: {delimiter: ";", quoting: all, lineTerminator: "\n"}
resources:
  - path: a.csv
    name: Table A
    kind: tabular
    schema:
      fields:
        - {name: x, type: integer, constraints: {required: true}}
      primaryKey: x
    dialect: {header: true}
    publish: {as_name: table-a}
  - path: dir
"#;

fn package_dir() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.csv"), "x\n1\n").unwrap();
        std::fs::create_dir(dir.path().join("dir")).unwrap();
        std::fs::write(dir.path().join("dir/f"), "f").unwrap();
        dir
    })
    .path()
}

fn load(text: &str) {
    let dir = package_dir();
    // Either outcome is fine; a panic is not.
    let _ = resolve(dir, &dir.join("datasets.yaml"), text);
}

#[test]
fn the_valid_descriptor_loads() {
    let dir = package_dir();
    let package = resolve(dir, &dir.join("datasets.yaml"), VALID).expect("valid");
    assert_eq!(package.resources.len(), 2);
    assert_eq!(package.resources[0].slug.as_str(), "table-a");
    assert_eq!(package.resources[1].files.len(), 1);
    assert_eq!(package.metadata["nested"]["x"], 1);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        load(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn yaml_shaped_noise(text in "[a-z_:{}\\[\\],&*!|>#'\" \n\t.-]{0,300}") {
        load(&text);
    }

    #[test]
    fn mutations_of_a_valid_descriptor(cut in 0..VALID.len(), len in 0usize..40, insert in "[\\PC\n]{0,12}") {
        let mut text = VALID.to_owned();
        let start = (0..=cut).rev().find(|i| text.is_char_boundary(*i)).unwrap_or(0);
        let mut end = (start + len).min(text.len());
        while !text.is_char_boundary(end) { end -= 1; }
        text.replace_range(start..end, &insert);
        load(&text);
    }
}
