-- Issue 58: the transactional outbox. One row per committed outcome, written in the same
-- transaction as the outcome it tells of. `seq` is the feed's cursor: taken from
-- event_counter's one row, whose row lock the writing transaction holds until it ends,
-- so cursors become visible in the order they were taken (a reader that saw cursor N
-- never sees a smaller one appear later).
CREATE TABLE events (
    seq         BIGINT PRIMARY KEY,
    id          TEXT NOT NULL UNIQUE,     -- UUID: CloudEvents id, webhook-id
    type        TEXT NOT NULL,            -- push.committed, dataset.appended, ...
    namespace   TEXT NOT NULL,
    branch      TEXT NOT NULL,
    dataset     TEXT,
    push_id     TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    body        TEXT NOT NULL             -- stone-api Event JSON (cursor included)
);
CREATE INDEX events_by_namespace ON events (namespace, seq);

CREATE TABLE event_counter (
    id          BIGINT PRIMARY KEY,
    last        BIGINT NOT NULL
);
INSERT INTO event_counter (id, last) VALUES (1, 0);
