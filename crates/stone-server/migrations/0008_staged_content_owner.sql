-- Issue 24: where a verified content of the S3 staging store lives. '' is the content's
-- own key (`<prefix><sha256>`, written by the server: a copy of a verified upload);
-- a holder key is that caller's direct upload (`<prefix>direct/<holder>/<sha256>`),
-- kept in place because the store itself checked its signed SHA-256, instead of being
-- copied.
ALTER TABLE staged_contents ADD COLUMN owner TEXT NOT NULL DEFAULT '';
