-- Issue 24: deletions of staged objects (S3 staging) under way or done, by key (the
-- object's key in the bucket). The sweep records one, under a lock shared with every
-- replica (PostgreSQL: an advisory transaction lock on the key), only while no record of
-- `staged_contents` keeps the object, before it deletes the object, and marks it
-- finished after. A completion or a reuse that records an object as a content reads the
-- key's row before it checks the object, and records only if that row is unchanged and
-- finished: an object a sweep was deleting, or deleted meanwhile, is never recorded.
CREATE TABLE staged_deletions (
    object_key  TEXT PRIMARY KEY,
    deletion    TEXT NOT NULL,
    started_at  TEXT NOT NULL,
    finished_at TEXT
);
