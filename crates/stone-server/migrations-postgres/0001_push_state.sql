-- Push state of stone-server on PostgreSQL (replicas share it): the same tables as
-- migrations/0001_push_state.sql for SQLite, with BIGINT for every integer (sqlx reads
-- them as i64 on both). Times are RFC 3339 UTC text; JSON columns hold stone-api
-- wire types.

-- One row per push.
CREATE TABLE pushes (
    id              TEXT PRIMARY KEY,
    principal       TEXT NOT NULL,            -- user that created it
    namespace       TEXT NOT NULL,
    branch          TEXT NOT NULL,
    state           TEXT NOT NULL,            -- staging | committing | succeeded | failed
    manifest        TEXT NOT NULL,            -- CreatePush JSON, without push_id
    protected       BIGINT NOT NULL,          -- branch matched a protected pattern at creation
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    commits         BIGINT NOT NULL DEFAULT 0,
    lease_owner     TEXT,                     -- job runner instance working on it
    lease_until     TEXT,
    node_status     TEXT,                     -- created | updated | unchanged
    result          TEXT,                     -- PushResult JSON
    error           TEXT                      -- Problem JSON
);
CREATE INDEX pushes_by_state ON pushes (state, updated_at);

-- One row per dataset of a push: written (operation 'write') or deleted by replace
-- (operation 'delete').
CREATE TABLE push_datasets (
    push_id     TEXT NOT NULL REFERENCES pushes (id) ON DELETE CASCADE,
    position    BIGINT NOT NULL,
    name        TEXT NOT NULL,
    kind        TEXT NOT NULL,                -- AssetKind
    operation   TEXT NOT NULL,                -- write | delete
    state       TEXT NOT NULL,                -- pending | writing | done | failed
    status      TEXT,                         -- created | appended | replaced | unchanged | deleted
    detail      TEXT,                         -- DatasetDetail JSON
    error       TEXT,                         -- Problem JSON
    checkpoint  TEXT,                         -- engine state before the first write attempt
    PRIMARY KEY (push_id, name)
);

-- What the last successful write left on a dataset's branch: the sha256 of its files.
-- Guards use it to tell a retraction or a version move before anything is uploaded.
CREATE TABLE dataset_heads (
    namespace   TEXT NOT NULL,
    name        TEXT NOT NULL,
    branch      TEXT NOT NULL,
    kind        TEXT NOT NULL,
    files       TEXT NOT NULL,                -- JSON array of sha256, sorted, distinct
    push_id     TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (namespace, name, branch)
);

-- The package node of a namespace on a branch (PackageNode JSON).
CREATE TABLE package_nodes (
    namespace   TEXT NOT NULL,
    branch      TEXT NOT NULL,
    node        TEXT NOT NULL,
    push_id     TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (namespace, branch)
);

-- S3 staging store: contents whose size and sha256 were verified.
CREATE TABLE staged_contents (
    sha256      TEXT PRIMARY KEY,
    size        BIGINT NOT NULL,
    verified_at TEXT NOT NULL
);

-- Multipart uploads in progress, one per content (shared by the pushes that need it).
CREATE TABLE multipart_uploads (
    sha256      TEXT PRIMARY KEY,
    size        BIGINT NOT NULL,
    part_size   BIGINT NOT NULL,
    upload_id   TEXT NOT NULL,                -- ours (local) or the S3 UploadId
    created_at  TEXT NOT NULL
);

-- Parts received by the local store.
CREATE TABLE multipart_parts (
    sha256      TEXT NOT NULL REFERENCES multipart_uploads (sha256) ON DELETE CASCADE,
    number      BIGINT NOT NULL,
    size        BIGINT NOT NULL,
    PRIMARY KEY (sha256, number)
);
