-- Every table's settings, and its record one line a row.
CREATE TABLE tables (
    id TEXT PRIMARY KEY,
    -- Seconds since the Unix epoch.
    created BIGINT NOT NULL,
    -- waiting, playing, finished or closed: the server resumes the first two.
    status TEXT NOT NULL,
    -- The table's settings (TableMeta) as JSON.
    meta TEXT NOT NULL
);

CREATE INDEX tables_by_status ON tables (status, created);

-- A table's record, keyed (table, sequence number): line 0 is the
-- header. The primary key refuses a line stored twice; the foreign key on
-- `previous` refuses a line whose predecessor is not stored (a gap), so
-- that a second writer's insert fails in the database itself, whatever
-- the writer believed. The append transaction that will check a table's
-- owner and epoch (a later `table_owner` table) sits beside this key and
-- does not change it.
CREATE TABLE record_lines (
    table_id TEXT NOT NULL REFERENCES tables (id),
    seq INTEGER NOT NULL CHECK (seq >= 0),
    line TEXT NOT NULL,
    previous INTEGER GENERATED ALWAYS AS (CASE WHEN seq > 0 THEN seq - 1 END) STORED,
    PRIMARY KEY (table_id, seq),
    CONSTRAINT record_lines_follow_on
        FOREIGN KEY (table_id, previous) REFERENCES record_lines (table_id, seq)
);

-- The foreign key's other side: deleting a line (an undo drops the last
-- ones) looks up the line after it.
CREATE INDEX record_lines_by_previous ON record_lines (table_id, previous);
