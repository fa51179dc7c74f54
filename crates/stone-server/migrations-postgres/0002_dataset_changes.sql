-- Change counters for incremental progress: every transaction that changes a push's
-- datasets increments pushes.changes and stamps the rows it changes with the new value,
-- so that `GET /v1/pushes/{id}?since=N` sends only the datasets changed after N.
ALTER TABLE pushes ADD COLUMN changes BIGINT NOT NULL DEFAULT 0;
ALTER TABLE push_datasets ADD COLUMN changed BIGINT NOT NULL DEFAULT 0;
