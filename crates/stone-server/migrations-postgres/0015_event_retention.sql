-- Issue 58: events pruned after `[events] retention_days`, and OpenLineage deliveries.
-- `pruned`: events up to this cursor may be gone; the feed refuses an older `after`.
ALTER TABLE event_counter ADD COLUMN pruned BIGINT NOT NULL DEFAULT 0;
-- An OpenLineage delivery reads the events of its push.
CREATE INDEX events_by_push ON events (push_id, seq);
-- Pruning removes the deliveries of the events it removes.
CREATE INDEX deliveries_by_seq ON deliveries (seq);
-- Claims walk the pending deliveries in cursor order and stop at their LIMIT (with only
-- deliveries_due, SQLite sorted every pending row at each claim: 33 ms at 10,000).
CREATE INDEX deliveries_pending ON deliveries (state, seq);
