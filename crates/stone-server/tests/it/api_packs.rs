//! Packed uploads (issue 27): many small contents in one signed request to the local
//! staging store, all verified and staged or none; the pack URL is signed, takes no
//! credentials, and keeps its limits.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::api_support::{
    Dataset, File, Options, Server, Site, blob_files, client, manifest, noise, put, sha256_hex,
    staged_contents,
};

/// A push of `count` small files of one BLOB folder, and their bytes.
fn small_files(count: u64) -> (Value, Vec<Vec<u8>>) {
    let files: Vec<File> = (0..count)
        .map(|i| File::new(&format!("f{i}.bin"), noise(100 + i, 100 + i as usize)))
        .collect();
    let bytes = files.iter().map(|f| f.bytes.clone()).collect();
    let (manifest, _) = manifest(
        "demo",
        "dev",
        Options::default(),
        None,
        &[Dataset::new("small", "BLOB", files)],
    );
    (manifest, bytes)
}

fn pack_body(contents: &[&[u8]]) -> Vec<u8> {
    let mut body = Vec::new();
    for content in contents {
        body.extend_from_slice(
            stone_api::pack::record_header(&sha256_hex(content), content.len() as u64).as_bytes(),
        );
        body.extend_from_slice(content);
    }
    body
}

fn incoming(server: &Server) -> usize {
    std::fs::read_dir(server.data_dir.join("staging/incoming"))
        .unwrap()
        .count()
}

fn pack_url(created: &Value) -> String {
    created["pack"]["url"]
        .as_str()
        .unwrap_or_else(|| panic!("no pack offered: {created:#}"))
        .to_owned()
}

/// The answer to a `PUT` of `url` that declares `length` bytes and sends none.
async fn declared_only(url: &str, length: u64) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let rest = url.strip_prefix("http://").unwrap();
    let (host, target) = rest.split_at(rest.find('/').unwrap());
    let mut stream = tokio::net::TcpStream::connect(host).await.unwrap();
    let request = format!(
        "PUT {target} HTTP/1.1\r\nhost: {host}\r\ncontent-length: {length}\r\nconnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(
        std::time::Duration::from_secs(30),
        stream.read_to_end(&mut answer),
    )
    .await;
    String::from_utf8_lossy(&answer).into_owned()
}

/// A pack of `contents` to the pack URL of `created`.
async fn send_pack(created: &Value, contents: &[&[u8]]) -> (reqwest::StatusCode, String) {
    put(
        client(),
        pack_url(created),
        BTreeMap::new(),
        pack_body(contents),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn small_uploads_go_up_in_one_pack_and_commit() {
    let site = Site::new();
    let server = site.start();
    let (manifest, bytes) = small_files(5);
    let created = server.create_push(&manifest).await.expect(201);
    let push_id = created.body["push_id"].as_str().unwrap().to_owned();
    let pack = &created.body["pack"];
    assert_eq!(pack["max_members"], 1000, "{pack:#}");
    assert!(
        pack["max_member_size"].as_u64().unwrap() >= 1000,
        "{pack:#}"
    );
    assert_eq!(created.body["uploads"].as_array().unwrap().len(), 5);

    let contents: Vec<&[u8]> = bytes.iter().map(Vec::as_slice).collect();
    let (status, text) = send_pack(&created.body, &contents).await;
    assert_eq!(status.as_u16(), 200, "{text}");
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap(),
        json!({"staged": 5})
    );
    let mut expected: Vec<String> = contents.iter().map(|c| sha256_hex(c)).collect();
    expected.sort();
    assert_eq!(staged_contents(&server.data_dir), expected);
    assert_eq!(incoming(&server), 0, "no temporary file left");

    // The caller holds them now: posting the manifest again asks for nothing.
    let again = server
        .create_push(&{
            let mut m = manifest.clone();
            m["push_id"] = json!(push_id);
            m
        })
        .await
        .expect(200);
    assert_eq!(again.body["uploads"], json!([]), "{:#}", again.body);
    assert!(again.body.get("pack").is_none(), "{:#}", again.body);

    server.commit(&push_id).await.expect(202);
    let status = server.wait(&push_id).await;
    assert_eq!(status["state"], "succeeded", "{status:#}");
    let (_, objects) = blob_files(&server.data_dir, "demo", "small", "dev");
    for content in &contents {
        assert_eq!(objects[&sha256_hex(content)], *content);
    }

    // Sending the same pack again is harmless.
    let (status, text) = send_pack(&created.body, &contents).await;
    assert_eq!(status.as_u16(), 200, "{text}");
    assert_eq!(staged_contents(&server.data_dir), expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pack_with_one_wrong_content_keeps_none_of_it() {
    let site = Site::new();
    let server = site.start();
    let (manifest, bytes) = small_files(3);
    let created = server.create_push(&manifest).await.expect(201);
    let push_id = created.body["push_id"].as_str().unwrap().to_owned();
    let url = pack_url(&created.body);

    // The second record announces the digest of its content, and carries other bytes.
    let mut body = pack_body(&[&bytes[0]]);
    let second = stone_api::pack::record_header(&sha256_hex(&bytes[1]), bytes[1].len() as u64);
    let second_at = body.len();
    body.extend_from_slice(second.as_bytes());
    let mut corrupt = bytes[1].clone();
    corrupt[7] ^= 0xff;
    body.extend_from_slice(&corrupt);
    body.extend_from_slice(&pack_body(&[&bytes[2]]));
    let (status, text) = put(client(), url.clone(), BTreeMap::new(), body).await;
    assert_eq!(status.as_u16(), 400, "{text}");
    let problem: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(problem["code"], "staging.digest_mismatch", "{problem:#}");
    assert_eq!(problem["expected"], sha256_hex(&bytes[1]).as_str());
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains(&format!("at byte {second_at}")),
        "{problem:#}"
    );
    assert!(staged_contents(&server.data_dir).is_empty(), "none kept");
    assert_eq!(incoming(&server), 0, "no temporary file left");

    // A body that ends inside a record, and one that is not a pack at all.
    let whole = pack_body(&[&bytes[0], &bytes[1]]);
    for (body, words) in [
        (whole[..whole.len() - 3].to_vec(), "ends inside the record"),
        (b"hello\n".to_vec(), "does not start with"),
    ] {
        let (status, text) = put(client(), url.clone(), BTreeMap::new(), body).await;
        assert_eq!(status.as_u16(), 400, "{text}");
        assert!(text.contains("staging.pack_invalid"), "{text}");
        assert!(text.contains(words), "{text}");
    }
    assert!(staged_contents(&server.data_dir).is_empty(), "none kept");
    assert_eq!(incoming(&server), 0, "no temporary file left");

    // The commit refuses: nothing is staged.
    let refused = server.commit(&push_id).await.expect(409);
    assert_eq!(refused.code(), "push.incomplete");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pack_urls_are_signed_keep_their_limits_and_take_no_credentials() {
    let site = Site::new();
    let server = site.start();
    let (manifest, bytes) = small_files(2);
    let created = server.create_push(&manifest).await.expect(201);
    let url = pack_url(&created.body);
    let max = created.body["pack"]["max_bytes"].as_u64().unwrap();
    let body = pack_body(&[&bytes[0], &bytes[1]]);

    let response = client()
        .put(&url)
        .header("authorization", "Bearer secret-token")
        .body(body.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 400);
    assert!(
        response
            .text()
            .await
            .unwrap()
            .contains("staging.credentials_sent")
    );

    // A larger `max`, another holder: no valid signature.
    for altered in [
        url.replace(&format!("max={max}"), &format!("max={}", max * 4)),
        url.replace("holder=", "holder=0"),
    ] {
        assert_ne!(altered, url);
        let (status, text) = put(client(), altered, BTreeMap::new(), body.clone()).await;
        assert_eq!(status.as_u16(), 403, "{text}");
        assert!(text.contains("staging.invalid_signature"), "{text}");
    }

    // More bytes than the URL allows, in valid records: refused by their declared length,
    // and when sent without one (a stream), once past the limit.
    let member = noise(
        9,
        created.body["pack"]["max_member_size"].as_u64().unwrap() as usize,
    );
    let record = pack_body(&[&member]);
    let big = record.repeat(max as usize / record.len() + 1);
    // The declared length alone (the server answers before reading a body, and closes).
    let answer = declared_only(&url, max + 1).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("staging.pack_invalid"), "{answer}");
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> =
        big.chunks(1 << 16).map(|c| Ok(c.to_vec())).collect();
    // The server may answer before the client has sent it all, and close.
    if let Ok(response) = client()
        .put(&url)
        .body(reqwest::Body::wrap_stream(futures::stream::iter(chunks)))
        .send()
        .await
    {
        let status = response.status().as_u16();
        let text = response.text().await.unwrap_or_default();
        assert_eq!(status, 413, "a streamed body past the limit: {text}");
        assert!(text.contains("larger than its URL allows"), "{text}");
    }
    // A record announcing more than a pack takes.
    let header = format!("{} {}\n", sha256_hex(b""), 1u64 << 40);
    let (status, text) = put(client(), url.clone(), BTreeMap::new(), header.into_bytes()).await;
    assert_eq!(status.as_u16(), 400, "{text}");
    assert!(text.contains("a pack takes contents of at most"), "{text}");
    assert!(staged_contents(&server.data_dir).is_empty(), "none kept");
    assert_eq!(incoming(&server), 0, "no temporary file left");

    // One small upload alone is not offered a pack.
    let (manifest, _) = small_files(1);
    let created = server.create_push(&manifest).await.expect(201);
    assert!(created.body.get("pack").is_none(), "{:#}", created.body);
}

/// Issue 52, hole 7 (suspected, confirmed): a pack URL named its holder, not its push, so
/// until it expired it staged any content, any number of times (16 MiB a request, outside
/// every quota), for whoever had the URL. Now it is signed for its push and stages only
/// contents that push declares; sending those again stays harmless.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pack_stages_only_the_contents_its_push_declares() {
    let site = Site::new();
    let server = site.start();
    let (manifest, bytes) = small_files(3);
    let created = server.create_push(&manifest).await.expect(201);
    let url = pack_url(&created.body);
    assert!(url.contains("push="), "{url}");
    let stranger = noise(999, 300);

    for contents in [
        vec![&stranger[..]],
        vec![&bytes[0][..], &stranger[..], &bytes[1][..]],
    ] {
        let (status, text) = send_pack(&created.body, &contents).await;
        assert_eq!(status.as_u16(), 403, "{text}");
        let problem: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(problem["code"], "staging.pack_invalid", "{problem:#}");
        assert_eq!(problem["sha256"], sha256_hex(&stranger).as_str());
        assert!(staged_contents(&server.data_dir).is_empty(), "none kept");
        assert_eq!(incoming(&server), 0, "no temporary file left");
    }
    // The URL names its push: another push ID breaks the signature.
    let id = created.body["push_id"].as_str().unwrap();
    let other = url.replace(&format!("push={id}"), "push=someone-elses-push");
    assert_ne!(other, url);
    let (status, text) = put(client(), other, BTreeMap::new(), pack_body(&[&stranger])).await;
    assert_eq!(status.as_u16(), 403, "{text}");
    assert!(text.contains("staging.invalid_signature"), "{text}");

    // The push's own contents are staged, and again as often as sent.
    let contents: Vec<&[u8]> = bytes.iter().map(Vec::as_slice).collect();
    for _ in 0..2 {
        let (status, text) = send_pack(&created.body, &contents).await;
        assert_eq!(status.as_u16(), 200, "{text}");
    }
    assert_eq!(staged_contents(&server.data_dir).len(), 3);
    let (status, text) = send_pack(&created.body, &[&stranger]).await;
    assert_eq!(status.as_u16(), 403, "{text}");
    assert_eq!(staged_contents(&server.data_dir).len(), 3);
}

/// The same for a paged push, whose contents its batches declare, not its manifest: a
/// pack's contents are looked up among the batches together (issue 56); one no batch named
/// is refused with nothing of the pack kept, the declared ones are staged.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pack_of_a_paged_push_stages_only_what_its_batches_declared() {
    let site = Site::new();
    let server = site.start();
    let created = server
        .create_push(&json!({
            "namespace": "demo", "branch": "dev",
            "options": {"yes": false, "force": false, "replace": false, "manual": true},
            "package": {"public": false},
            "datasets": [{"name": "small", "kind": "BLOB", "files": []}],
            "paged_files": true,
        }))
        .await
        .expect(201)
        .body;
    let id = created["push_id"].as_str().unwrap().to_owned();
    let bytes: Vec<Vec<u8>> = (0..3).map(|i| noise(300 + i, 200 + i as usize)).collect();
    let files: Vec<Value> = bytes
        .iter()
        .enumerate()
        .map(
            |(i, b)| json!({"path": format!("f{i}.bin"), "sha256": sha256_hex(b), "size": b.len()}),
        )
        .collect();
    let batch = server
        .post(
            &format!("/v1/pushes/{id}/files"),
            &json!({"datasets": [{"name": "small", "files": files}]}),
        )
        .await
        .expect(200)
        .body;
    let stranger = noise(999, 300);
    let (status, text) = send_pack(&batch, &[&bytes[0], &stranger, &bytes[1]]).await;
    assert_eq!(status.as_u16(), 403, "{text}");
    let problem: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(problem["code"], "staging.pack_invalid", "{problem:#}");
    assert_eq!(problem["sha256"], sha256_hex(&stranger).as_str());
    assert!(staged_contents(&server.data_dir).is_empty(), "none kept");

    let contents: Vec<&[u8]> = bytes.iter().map(Vec::as_slice).collect();
    let (status, text) = send_pack(&batch, &contents).await;
    assert_eq!(status.as_u16(), 200, "{text}");
    assert_eq!(staged_contents(&server.data_dir).len(), 3);
}
