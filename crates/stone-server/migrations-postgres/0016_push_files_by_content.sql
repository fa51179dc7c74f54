-- Issue 56: a pack's check (`PUT /v1/staging/pack`) asks, for each content it holds,
-- whether a batch of the push declared it (`SELECT size FROM push_files WHERE push_id = $1
-- AND sha256 = $2`). The primary key (push_id, dataset, path) finds the push's rows only,
-- so each lookup read every file of the push: a push of 20,000 one-file GRAPH datasets
-- spent ~60 s between its file batches and its commit (quadratic in its files). With this
-- index each lookup is a search.
CREATE INDEX push_files_by_content ON push_files (push_id, sha256);
