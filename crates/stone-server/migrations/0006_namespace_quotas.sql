-- Issue 22, per-namespace quotas (`[quotas]`): what each namespace holds, counted
-- against its quota. A row per content (sha256, size) written to a dataset on a branch,
-- recorded when the commit of the push that writes it is accepted; a push that deletes a
-- dataset on a branch removes that dataset's rows on it. A namespace holds the distinct
-- contents of its rows (a content in several datasets, branches or versions counts once).
-- Counting starts with this migration: what was committed before is not counted.
CREATE TABLE namespace_contents (
    namespace   TEXT NOT NULL,
    branch      TEXT NOT NULL,
    dataset     TEXT NOT NULL,
    sha256      TEXT NOT NULL,
    size        INTEGER NOT NULL,
    PRIMARY KEY (namespace, branch, dataset, sha256)
);
