-- Issue 22: staged content is no longer shared across callers by hash alone.
--
-- Multipart uploads are per owner (the caller who started them): another caller naming
-- the same content, with any size, gets an upload of its own and cannot disturb this one.
-- Uploads in progress are dropped by this migration: a resumed push starts them again
-- (their leftover assemblies and S3 uploads go with the next garbage collection).
DROP TABLE multipart_parts;
DROP TABLE multipart_uploads;

CREATE TABLE multipart_uploads (
    upload_id   TEXT PRIMARY KEY,             -- ours (local) or the S3 UploadId
    sha256      TEXT NOT NULL,
    owner       TEXT NOT NULL,                -- holder key of the caller ('' on S3: shared)
    size        BIGINT NOT NULL,
    part_size   BIGINT NOT NULL,
    created_at  TEXT NOT NULL,
    UNIQUE (sha256, owner)
);

-- Parts received by the local store.
CREATE TABLE multipart_parts (
    upload_id   TEXT NOT NULL REFERENCES multipart_uploads (upload_id) ON DELETE CASCADE,
    number      BIGINT NOT NULL,
    size        BIGINT NOT NULL,
    PRIMARY KEY (upload_id, number)
);

-- Who proved to have a content: a caller whose upload of it was verified (holder key:
-- the hex sha256 of the caller's subject). Only they may reuse it while it is staged.
CREATE TABLE content_holders (
    sha256      TEXT NOT NULL,
    holder      TEXT NOT NULL,
    PRIMARY KEY (sha256, holder)
);

-- The contents of each committed push: a content a succeeded push wrote may be reused by
-- whoever may read the push's namespace and branch.
CREATE TABLE push_contents (
    push_id     TEXT NOT NULL REFERENCES pushes (id) ON DELETE CASCADE,
    sha256      TEXT NOT NULL,
    PRIMARY KEY (push_id, sha256)
);
CREATE INDEX push_contents_by_sha256 ON push_contents (sha256);
