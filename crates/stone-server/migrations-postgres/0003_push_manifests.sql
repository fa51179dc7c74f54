-- A push's manifest in a table of its own. In the push row it made every update of that
-- row (the change counter, the lease, the state: several per commit batch) read or write
-- the whole manifest again: about 2 MB for a push of 10,000 datasets.
CREATE TABLE push_manifests (
    push_id     TEXT PRIMARY KEY REFERENCES pushes (id) ON DELETE CASCADE,
    manifest    TEXT NOT NULL                 -- CreatePush JSON, without push_id
);
INSERT INTO push_manifests (push_id, manifest) SELECT id, manifest FROM pushes;
ALTER TABLE pushes DROP COLUMN manifest;
