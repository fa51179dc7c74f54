//! Free `metadata` is the user's data: the keys datasets.yaml itself may not hold (`branch`,
//! `env`, `environment`) are plain data there, and reach the loaded package as written.

use serde_json::json;

#[test]
fn branch_env_and_environment_are_data_inside_metadata() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("datasets.yaml"),
        "publish: {to: \"stone:t\"}\nmetadata:\n  branch: main\n  env: {environment: marine}\n\
         resources:\n  - path: a.csv\n    metadata: {environment: marine, Branch: x}\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("a.csv"), "x\n1\n").unwrap();
    let package = stone_package::load_package(dir.path()).unwrap();
    assert_eq!(
        package.metadata,
        json!({"branch": "main", "env": {"environment": "marine"}})
    );
    assert_eq!(
        package.resources[0].metadata,
        json!({"environment": "marine", "Branch": "x"})
    );
}

#[test]
fn the_same_keys_outside_metadata_are_refused() {
    for text in [
        "branch: main\npublish: {to: \"stone:t\"}\nresources: [{path: a.csv}]\n",
        "publish: {to: \"stone:t\", env: dev}\nresources: [{path: a.csv}]\n",
        "publish: {to: \"stone:t\"}\nresources: [{path: a.csv, Environment: dev}]\n",
    ] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("datasets.yaml"), text).unwrap();
        std::fs::write(dir.path().join("a.csv"), "x\n1\n").unwrap();
        let error = stone_package::load_package(dir.path())
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("does not belong in datasets.yaml"),
            "{text}: {error}"
        );
    }
}
