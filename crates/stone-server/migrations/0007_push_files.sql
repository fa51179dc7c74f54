-- Issue 27: the files of a push created with `paged_files`, recorded batch by batch
-- (`POST /v1/pushes/{id}/files`) instead of inside its manifest, so that no request,
-- answer or row grows with the count of files.
CREATE TABLE push_files (
    push_id     TEXT NOT NULL REFERENCES pushes (id) ON DELETE CASCADE,
    dataset     TEXT NOT NULL,
    path        TEXT NOT NULL,
    sha256      TEXT NOT NULL,
    size        INTEGER NOT NULL,
    PRIMARY KEY (push_id, dataset, path)
);

-- What the batches of a push declared so far, all together (checked against `[limits]`).
CREATE TABLE push_file_totals (
    push_id     TEXT PRIMARY KEY REFERENCES pushes (id) ON DELETE CASCADE,
    files       INTEGER NOT NULL,
    bytes       INTEGER NOT NULL
);
