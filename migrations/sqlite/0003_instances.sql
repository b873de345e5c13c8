-- Same version numbers and columns as migrations/postgres. SQLite serves one instance (a second
-- process on the same file refuses to start), so the instances table and the owner stay unused.
CREATE TABLE instances (
    id          TEXT PRIMARY KEY,
    alive_until BIGINT NOT NULL
);

ALTER TABLE games ADD COLUMN owner TEXT;
