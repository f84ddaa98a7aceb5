-- The schema every server made before there were migrations (it ran these
-- statements at each start, up to commit a6647af): kept to the letter, with
-- IF NOT EXISTS, so that such a file is taken as this version as it is.
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created INTEGER NOT NULL,
    status TEXT NOT NULL,
    meta TEXT NOT NULL
);

CREATE INDEX IF NOT EXISTS tables_by_status ON tables (status, created);

CREATE TABLE IF NOT EXISTS record_lines (
    table_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    line TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
) WITHOUT ROWID;
