//! Local staging through signed URLs: nothing unverified is kept or committed (corrupt,
//! truncated, expired, altered, credentialed uploads), and large contents go up in parts.

use std::collections::BTreeMap;

use serde_json::json;

use crate::api_support::{
    Dataset, File, Options, Site, blob_files, client, manifest, noise, put, put_part, sha256_hex,
    staged_contents, upload_all,
};

fn one_blob(bytes: Vec<u8>) -> (serde_json::Value, crate::api_support::Contents) {
    manifest(
        "demo",
        "dev",
        Options::default(),
        None,
        &[Dataset::new(
            "raw",
            "BLOB",
            vec![File::new("data.bin", bytes)],
        )],
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_corrupt_upload_is_rejected_and_never_committed() {
    let site = Site::new();
    let server = site.start();
    let bytes = noise(7, 50_000);
    let (manifest, contents) = one_blob(bytes.clone());
    let created = server.create_push(&manifest).await.expect(201);
    let push_id = created.body["push_id"].as_str().unwrap().to_owned();
    let url = created.body["uploads"][0]["url"]
        .as_str()
        .unwrap()
        .to_owned();

    // Same size, other bytes: the digest does not match; nothing is kept.
    let mut corrupt = bytes.clone();
    corrupt[1234] ^= 0xff;
    let (status, text) = put(client(), url.clone(), BTreeMap::new(), corrupt).await;
    assert_eq!(status.as_u16(), 400, "{text}");
    let problem: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(problem["code"], "staging.digest_mismatch");
    assert_eq!(problem["expected"], sha256_hex(&bytes).as_str());
    assert!(staged_contents(&server.data_dir).is_empty());
    assert_eq!(
        std::fs::read_dir(server.data_dir.join("staging/incoming"))
            .unwrap()
            .count(),
        0,
        "no temporary file left"
    );

    // A truncated body (its length says so): refused before it is read.
    let (status, text) = put(
        client(),
        url.clone(),
        BTreeMap::new(),
        bytes[..1000].to_vec(),
    )
    .await;
    assert_eq!(status.as_u16(), 400, "{text}");
    assert!(text.contains("staging.size_mismatch"), "{text}");

    // The commit refuses: the content is not staged.
    let refused = server.commit(&push_id).await.expect(409);
    assert_eq!(refused.code(), "push.incomplete");
    assert_eq!(refused.body["missing"], json!([sha256_hex(&bytes)]));
    assert_eq!(server.status(&push_id).await["state"], "staging");

    // The right bytes go through, and the push completes.
    upload_all(&server, &created.body, &contents).await;
    assert_eq!(staged_contents(&server.data_dir), vec![sha256_hex(&bytes)]);
    server.commit(&push_id).await.expect(202);
    let status = server.wait(&push_id).await;
    assert_eq!(status["state"], "succeeded", "{status:#}");
    let (_, objects) = blob_files(&server.data_dir, "demo", "raw", "dev");
    assert_eq!(objects[&sha256_hex(&bytes)], bytes);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn upload_urls_are_signed_and_take_no_credentials() {
    let site = Site::new();
    let server = site.start();
    let bytes = noise(8, 1000);
    let (manifest, _) = one_blob(bytes.clone());
    let created = server.create_push(&manifest).await.expect(201);
    let url = created.body["uploads"][0]["url"]
        .as_str()
        .unwrap()
        .to_owned();

    // The API token must never go to an upload URL: the server refuses it outright.
    let response = client()
        .put(&url)
        .header("authorization", "Bearer secret-token")
        .body(bytes.clone())
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

    // An altered URL (a longer expiry, another size) has no valid signature.
    let longer = url.replace("expires=", "expires=9");
    let (status, text) = put(client(), longer, BTreeMap::new(), bytes.clone()).await;
    assert_eq!(status.as_u16(), 403, "{text}");
    assert!(text.contains("staging.invalid_signature"), "{text}");
    // Another content, another size, a signature with one digit changed.
    let sha = sha256_hex(&bytes);
    let other_hash = url.replace(&sha, &sha256_hex(b"something else"));
    let smaller = url.replace("size=1000", "size=999");
    let mut forged = url.clone();
    let last = forged.pop().unwrap();
    forged.push(if last == '0' { '1' } else { '0' });
    for tampered in [other_hash, smaller, forged] {
        assert_ne!(tampered, url);
        let (status, text) = put(client(), tampered.clone(), BTreeMap::new(), bytes.clone()).await;
        assert_eq!(status.as_u16(), 403, "{tampered}: {text}");
        assert!(text.contains("staging.invalid_signature"), "{text}");
    }
    let unsigned = url.split("&sig=").next().unwrap().to_owned();
    let (status, text) = put(client(), unsigned, BTreeMap::new(), bytes.clone()).await;
    assert_eq!(status.as_u16(), 403, "{text}");
    assert!(staged_contents(&server.data_dir).is_empty());

    let (status, text) = put(client(), url, BTreeMap::new(), bytes.clone()).await;
    assert_eq!(status.as_u16(), 200, "{text}");
    let answer: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        answer,
        json!({"sha256": sha256_hex(&bytes), "size": 1000, "staged": true})
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_url_is_rejected_and_renewed_by_resuming() {
    let site = Site::with_config("[staging]\nurl_ttl_seconds = 1\n");
    let server = site.start();
    let bytes = noise(9, 2000);
    let (manifest, contents) = one_blob(bytes.clone());
    let created = server.create_push(&manifest).await.expect(201);
    let push_id = created.body["push_id"].as_str().unwrap().to_owned();
    let url = created.body["uploads"][0]["url"]
        .as_str()
        .unwrap()
        .to_owned();
    tokio::time::sleep(std::time::Duration::from_millis(2100)).await;

    let (status, text) = put(client(), url, BTreeMap::new(), bytes.clone()).await;
    assert_eq!(status.as_u16(), 403, "{text}");
    let problem: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(problem["code"], "staging.expired");
    assert!(staged_contents(&server.data_dir).is_empty());

    // Re-posting the manifest with the push ID renews the URL.
    let mut again = manifest.clone();
    again["push_id"] = json!(push_id);
    let resumed = server.create_push(&again).await.expect(200);
    assert_eq!(resumed.body["uploads"].as_array().unwrap().len(), 1);
    upload_all(&server, &resumed.body, &contents).await;
    server.commit(&push_id).await.expect(202);
    assert_eq!(server.wait(&push_id).await["state"], "succeeded");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_large_file_goes_up_in_parallel_parts() {
    // 1 MiB parts: a 2.5 MiB file is three parts.
    let site = Site::with_config("[staging]\npart_size = 1048576\n");
    let server = site.start();
    let info = server.get("/v1/info").await.expect(200).body;
    assert_eq!(info["staging"]["part_size"], 1048576);
    let bytes = noise(10, 2_621_440);
    let (manifest, contents) = one_blob(bytes.clone());
    let created = server.create_push(&manifest).await.expect(201);
    let push_id = created.body["push_id"].as_str().unwrap().to_owned();
    let upload = &created.body["uploads"][0];
    assert!(
        upload.get("url").is_none(),
        "a multipart upload has no single URL"
    );
    let parts = upload["parts"].as_array().unwrap();
    assert_eq!(
        parts
            .iter()
            .map(|p| (
                p["number"].as_u64().unwrap(),
                p["offset"].as_u64().unwrap(),
                p["size"].as_u64().unwrap()
            ))
            .collect::<Vec<_>>(),
        vec![(1, 0, 1048576), (2, 1048576, 1048576), (3, 2097152, 524288)]
    );

    // Part 3 first, then part 1; completing now names the missing part.
    for index in [2usize, 0] {
        let (status, text) = put_part(&parts[index], &bytes).await;
        assert_eq!(status.as_u16(), 204, "{text}");
    }
    let sha = sha256_hex(&bytes);
    let incomplete = server
        .post_empty(&format!("/v1/pushes/{push_id}/uploads/{sha}/complete"))
        .await
        .expect(409);
    assert_eq!(incomplete.code(), "staging.parts_missing");
    assert_eq!(incomplete.body["missing_parts"], json!([2]));
    assert_eq!(
        server.commit(&push_id).await.expect(409).code(),
        "push.incomplete"
    );

    // Resuming hands out the one missing part only.
    let mut again = manifest.clone();
    again["push_id"] = json!(push_id);
    let resumed = server.create_push(&again).await.expect(200);
    let remaining = resumed.body["uploads"][0]["parts"].as_array().unwrap();
    assert_eq!(remaining.len(), 1);
    assert_eq!(remaining[0]["number"], 2);
    upload_all(&server, &resumed.body, &contents).await;
    assert_eq!(staged_contents(&server.data_dir), vec![sha.clone()]);

    server.commit(&push_id).await.expect(202);
    let status = server.wait(&push_id).await;
    assert_eq!(status["state"], "succeeded", "{status:#}");
    let (_, objects) = blob_files(&server.data_dir, "demo", "raw", "dev");
    assert_eq!(sha256_hex(&objects[&sha]), sha);
    assert_eq!(objects[&sha].len(), bytes.len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn corrupt_parts_are_found_at_completion_and_nothing_is_kept() {
    let site = Site::with_config("[staging]\npart_size = 1048576\n");
    let server = site.start();
    let bytes = noise(11, 2_500_000);
    let (manifest, contents) = one_blob(bytes.clone());
    let created = server.create_push(&manifest).await.expect(201);
    let push_id = created.body["push_id"].as_str().unwrap().to_owned();
    let sha = sha256_hex(&bytes);
    let mut corrupt = bytes.clone();
    corrupt[1_500_000] ^= 1;
    for part in created.body["uploads"][0]["parts"].as_array().unwrap() {
        let (offset, size) = (
            part["offset"].as_u64().unwrap() as usize,
            part["size"].as_u64().unwrap() as usize,
        );
        let (status, _) = put(
            client(),
            part["url"].as_str().unwrap().to_owned(),
            BTreeMap::new(),
            corrupt[offset..offset + size].to_vec(),
        )
        .await;
        assert_eq!(status.as_u16(), 204);
    }
    let refused = server
        .post_empty(&format!("/v1/pushes/{push_id}/uploads/{sha}/complete"))
        .await
        .expect(400);
    assert_eq!(refused.code(), "staging.digest_mismatch");
    assert!(staged_contents(&server.data_dir).is_empty());
    assert_eq!(
        server.commit(&push_id).await.expect(409).code(),
        "push.incomplete"
    );

    // A fresh upload: every part again.
    let mut again = manifest.clone();
    again["push_id"] = json!(push_id);
    let resumed = server.create_push(&again).await.expect(200);
    assert_eq!(
        resumed.body["uploads"][0]["parts"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    upload_all(&server, &resumed.body, &contents).await;
    server.commit(&push_id).await.expect(202);
    assert_eq!(server.wait(&push_id).await["state"], "succeeded");
}
