-- A record line is keyed (table, sequence number), as in PostgreSQL.
ALTER TABLE record_lines RENAME COLUMN n TO seq;

-- A line is stored only as the one after the table's last: with the
-- primary key, which refuses a line stored twice, the database itself
-- refuses a gap and a line of a table it does not hold, whoever writes.
-- (PostgreSQL says the same with a foreign key; SQLite checks foreign keys
-- only on connections that ask, so a trigger says it here.)
CREATE TRIGGER record_lines_follow_on
BEFORE INSERT ON record_lines
WHEN NEW.seq < 0
    OR NOT EXISTS (SELECT 1 FROM tables WHERE id = NEW.table_id)
    OR (NEW.seq > 0 AND NOT EXISTS (
        SELECT 1 FROM record_lines WHERE table_id = NEW.table_id AND seq = NEW.seq - 1
    ))
BEGIN
    SELECT RAISE(ABORT, 'a record line must follow the table''s last line');
END;
