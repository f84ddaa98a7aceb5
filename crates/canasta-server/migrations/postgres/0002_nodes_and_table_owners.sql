-- Several servers (nodes) on one database, each table owned by one of
-- them at a time.

-- Every node that has served: its number (`canasta serve --node-id`), the
-- address it is reached at (`--public-url`), and when it last said it was
-- alive (with every lease renewal).
CREATE TABLE nodes (
    node_id INTEGER PRIMARY KEY CHECK (node_id >= 0),
    public_url TEXT,
    heartbeat_at TIMESTAMPTZ NOT NULL
);

-- A table's owner: the one node that plays it and writes its record, for
-- as long as its lease runs (`expires_at`, in the database's own clock, so
-- that the nodes' clocks do not matter). `epoch` grows by one with every
-- change of owner: the fencing token. Each write of a table's record or
-- settings first locks this row (`FOR SHARE`) and goes on only while it
-- still names the writing node and the epoch it took, so that a paused or
-- cut-off old owner's writes are refused once another node took the table;
-- a takeover's update of the row waits for such a write to commit, and
-- reads the table after it.
CREATE TABLE table_owners (
    table_id TEXT PRIMARY KEY REFERENCES tables (id),
    node_id INTEGER NOT NULL,
    epoch BIGINT NOT NULL CHECK (epoch > 0),
    expires_at TIMESTAMPTZ NOT NULL
);

-- What a node renews and releases.
CREATE INDEX table_owners_by_node ON table_owners (node_id);
