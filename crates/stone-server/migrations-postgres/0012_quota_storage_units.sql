-- Issue 52, hole 5: quotas count what the engines store. A content counts once per
-- storage unit that holds a copy of it, not once per namespace: an Iceberg table (one
-- per dataset, shared by its branches and versions), a dataset's objects on a branch, a
-- named graph (a dataset on a branch, and each of its named versions). `unit` names it;
-- rows recorded before this migration have the unit '' (counted as before: once per
-- namespace).
CREATE TABLE namespace_units (
    namespace   TEXT NOT NULL,
    branch      TEXT NOT NULL,
    dataset     TEXT NOT NULL,
    unit        TEXT NOT NULL,
    sha256      TEXT NOT NULL,
    size        BIGINT NOT NULL,
    PRIMARY KEY (namespace, branch, dataset, unit, sha256)
);
INSERT INTO namespace_units (namespace, branch, dataset, unit, sha256, size)
    SELECT namespace, branch, dataset, '', sha256, size FROM namespace_contents;
DROP TABLE namespace_contents;
ALTER TABLE namespace_units RENAME TO namespace_contents;
