-- Issue 27: whether a push takes its files in batches, beside its state. Each batch read
-- it (and the names and kinds of its datasets) from the stored manifest: for a push of
-- 100,000 datasets, tens of MB selected, copied and parsed a batch. A batch now reads this
-- column and the `push_datasets` rows it names.
ALTER TABLE pushes ADD COLUMN paged_files INTEGER NOT NULL DEFAULT 0;
UPDATE pushes SET paged_files = 1
WHERE id IN (SELECT push_id FROM push_manifests
             WHERE json_extract(manifest, '$.paged_files') IN (1, 'true'));
