-- Issue 58: webhook subscriptions and their deliveries.
CREATE TABLE subscriptions (
    id          TEXT PRIMARY KEY,
    namespace   TEXT NOT NULL,
    url         TEXT NOT NULL,
    secret      TEXT NOT NULL,            -- whsec_…: shown once at creation, never again
    format      TEXT NOT NULL,            -- cloudevents | openlineage
    filters     TEXT NOT NULL,            -- JSON: {"types": [...], "branches": [...], "datasets": [...]}
    origin      TEXT NOT NULL,            -- api | config
    created_by  TEXT,
    created_at  TEXT NOT NULL,
    cursor      BIGINT NOT NULL          -- events up to this one are fanned out
);
CREATE INDEX subscriptions_by_namespace ON subscriptions (namespace);

-- One row per event a subscription takes. A pending delivery is sent only when no earlier
-- pending delivery of the same subscription and dataset (`ordering`) is left: commit order
-- per dataset. Claimed with a lease, as commit jobs are, so any replica sends it once at a
-- time and a crashed one's claim runs out.
CREATE TABLE deliveries (
    subscription_id TEXT NOT NULL REFERENCES subscriptions (id) ON DELETE CASCADE,
    seq             BIGINT NOT NULL,     -- the event's cursor
    ordering        TEXT NOT NULL,        -- namespace/branch/dataset (push events: namespace/branch/)
    state           TEXT NOT NULL,        -- pending | delivered | dead
    attempts        BIGINT NOT NULL DEFAULT 0,
    first_at        TEXT NOT NULL,
    next_at         TEXT NOT NULL,
    lease_owner     TEXT,
    lease_until     TEXT,
    delivered_at    TEXT,
    last_error      TEXT,
    PRIMARY KEY (subscription_id, seq)
);
CREATE INDEX deliveries_due ON deliveries (state, next_at);
CREATE INDEX deliveries_by_ordering ON deliveries (subscription_id, ordering, state, seq);
