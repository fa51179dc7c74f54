-- How many times a commit of the push was started and did not end (the process or its
-- replica died under it): counted when a runner starts working on the push, given back
-- when it parks at a clean stop. A push started `[jobs] max_crashes` times this way is
-- failed (`push.crashed`) instead of being resumed again: no crash loop at start.
ALTER TABLE pushes ADD COLUMN commit_starts INTEGER NOT NULL DEFAULT 0;
