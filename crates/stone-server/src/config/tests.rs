use super::*;

#[test]
fn defaults_without_a_file() {
    let config: ConfigFile = toml_edit::de::from_str("").unwrap();
    assert_eq!(config.guards.protected_refs, ["main", "release-*"]);
    assert_eq!(config.local.roles, ["protected-write"]);
    assert_eq!(config.guards.force_role, "protected-force");
    assert_eq!(config.staging.part_size, DEFAULT_PART_SIZE);
    assert_eq!(config.staging.store, StoreKind::Local);
    assert_eq!(config.auth.mode, AuthModeOption::Local);
}

#[test]
fn a_full_file_parses_and_typos_are_refused() {
    let config: ConfigFile = toml_edit::de::from_str(
        r#"
        public_host = "data.example.org"
        [local]
        user = "me"
        roles = ["protected-write", "protected-force"]
        [guards]
        protected_refs = ["main"]
        [staging]
        store = "s3"
        part_size = 5242880
        url_ttl_seconds = 60
        [staging.s3]
        endpoint = "http://127.0.0.1:8333"
        bucket = "stage"
        access_key_id = "a"
        secret_access_key = "b"
        allow_http = true
        [graph]
        remote_url = "http://127.0.0.1:7878"
        "#,
    )
    .unwrap();
    assert_eq!(config.staging.s3.as_ref().unwrap().region, "us-east-1");
    assert_eq!(config.local.user, "me");
    let typo = toml_edit::de::from_str::<ConfigFile>("[guards]\nprotected_ref = []\n");
    assert!(typo.is_err());
}

#[test]
fn a_shared_database_needs_shared_engines() {
    let dir = tempfile::tempdir().unwrap();
    let listen: SocketAddr = "127.0.0.1:0".parse().unwrap();
    let mut config: ConfigFile =
        toml_edit::de::from_str("[database]\nurl = \"postgres://s@127.0.0.1:1/s\"\n").unwrap();
    let error = Settings::resolve(dir.path(), listen, None, config.clone()).unwrap_err();
    let text = error.to_string();
    for needed in [
        "[staging] store",
        "[blob] store",
        "[graph] remote_url",
        "[iceberg] warehouse",
    ] {
        assert!(text.contains(needed), "{text}");
    }
    let s3 = S3Options {
        endpoint: None,
        bucket: "b".into(),
        prefix: String::new(),
        region: "r".into(),
        access_key_id: "a".into(),
        secret_access_key: "s".into(),
        allow_http: false,
    };
    config.staging.store = StoreKind::S3;
    config.staging.s3 = Some(s3.clone());
    config.blob.store = StoreKind::S3;
    config.blob.s3 = Some(s3);
    config.graph.remote_url = Some("http://127.0.0.1:7878".into());
    config.iceberg.warehouse = Some("relative/dir".into());
    let error = Settings::resolve(dir.path(), listen, None, config.clone()).unwrap_err();
    assert!(error.to_string().contains("absolute path"), "{error}");
    config.iceberg.warehouse = Some("/srv/warehouse".into());
    Settings::resolve(dir.path(), listen, None, config.clone()).unwrap();
    config.database.url = Some("mysql://x".into());
    let error = Settings::resolve(dir.path(), listen, None, config).unwrap_err();
    assert!(error.to_string().contains("PostgreSQL URL"), "{error}");
}

#[test]
fn an_s3_warehouse_needs_its_table_and_a_bucket() {
    let parse = |text: &str| {
        toml_edit::de::from_str::<ConfigFile>(text)
            .unwrap()
            .iceberg
            .warehouse_location()
    };
    let access = "[iceberg.s3]\nendpoint = \"http://127.0.0.1:8333\"\naccess_key_id = \"a\"\nsecret_access_key = \"b\"\nallow_http = true\n";
    assert_eq!(
        parse(&format!(
            "[iceberg]\nwarehouse = \"s3://lake/wh/\"\n{access}"
        ))
        .unwrap(),
        WarehouseLocation::S3 {
            bucket: "lake".into(),
            prefix: "wh".into()
        }
    );
    assert_eq!(
        parse(&format!("[iceberg]\nwarehouse = \"s3://lake\"\n{access}")).unwrap(),
        WarehouseLocation::S3 {
            bucket: "lake".into(),
            prefix: String::new()
        }
    );
    let error = parse("[iceberg]\nwarehouse = \"s3://lake/wh\"\n").unwrap_err();
    assert!(error.to_string().contains("[iceberg.s3]"), "{error}");
    for bad in ["s3://", "s3://Lake/x", "s3://ab", "s3://lake/a/../b"] {
        let error = parse(&format!("[iceberg]\nwarehouse = \"{bad}\"\n{access}")).unwrap_err();
        assert!(
            error.to_string().contains("iceberg.warehouse"),
            "{bad}: {error}"
        );
    }
    let error = parse(access).unwrap_err();
    assert!(
        error.to_string().contains("only used with an S3"),
        "{error}"
    );
    assert_eq!(
        parse("[iceberg]\nwarehouse = \"file:///srv/wh\"\n").unwrap(),
        WarehouseLocation::Local(PathBuf::from("/srv/wh"))
    );
    let typo = toml_edit::de::from_str::<ConfigFile>(&format!("{access}bucket = \"x\"\n"));
    assert!(typo.is_err(), "the bucket belongs in the warehouse URL");

    // Replicas accept an S3 warehouse.
    let dir = tempfile::tempdir().unwrap();
    let s3 = "endpoint = \"http://127.0.0.1:8333\"\nbucket = \"stage\"\naccess_key_id = \"a\"\nsecret_access_key = \"b\"\n";
    let config: ConfigFile = toml_edit::de::from_str(&format!(
        "[database]\nurl = \"postgres://s@127.0.0.1:1/s\"\n[staging]\nstore = \"s3\"\n[staging.s3]\n{s3}[blob]\nstore = \"s3\"\n[blob.s3]\n{s3}[graph]\nremote_url = \"http://127.0.0.1:7878\"\n[iceberg]\nwarehouse = \"s3://lake/wh\"\n{access}"
    ))
    .unwrap();
    Settings::resolve(dir.path(), "127.0.0.1:0".parse().unwrap(), None, config).unwrap();
}

#[test]
fn s3_staging_needs_its_table_and_large_parts() {
    let dir = tempfile::tempdir().unwrap();
    let listen: SocketAddr = "127.0.0.1:0".parse().unwrap();
    let mut config = ConfigFile::default();
    config.staging.store = StoreKind::S3;
    let error = Settings::resolve(dir.path(), listen, None, config.clone()).unwrap_err();
    assert!(error.to_string().contains("[staging.s3]"), "{error}");
    config.staging.s3 = Some(S3Options {
        endpoint: None,
        bucket: "b".into(),
        prefix: String::new(),
        region: "r".into(),
        access_key_id: "a".into(),
        secret_access_key: "s".into(),
        allow_http: false,
    });
    config.staging.part_size = 1024;
    let error = Settings::resolve(dir.path(), listen, None, config).unwrap_err();
    assert!(error.to_string().contains("5 MiB"), "{error}");
}

#[test]
fn the_clock_margin_is_from_one_second_to_a_day() {
    let dir = tempfile::tempdir().unwrap();
    let listen: SocketAddr = "127.0.0.1:0".parse().unwrap();
    for (margin, taken) in [
        (0, false),
        (1, true),
        (300, true),
        (86_400, true),
        (86_401, false),
    ] {
        let mut config = ConfigFile::default();
        config.gc.clock_margin_seconds = margin;
        let resolved = Settings::resolve(dir.path(), listen, None, config);
        match resolved {
            Ok(settings) => {
                assert!(taken, "{margin} s was taken");
                assert_eq!(
                    settings.config.gc.clock_margin().num_seconds(),
                    i64::try_from(margin).unwrap()
                );
            }
            Err(error) => {
                assert!(!taken, "{margin} s: {error}");
                assert!(
                    error.to_string().contains("gc.clock_margin_seconds"),
                    "{error}"
                );
            }
        }
    }
    assert_eq!(ConfigFile::default().gc.clock_margin_seconds, 300);
}
