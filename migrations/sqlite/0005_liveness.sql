-- When a server last noted that it was alive, while games were loaded (one row, the latest note).
-- After a crash, the time from then until a server serves the games again is charged to no one's
-- clock. Same version numbers as the other backend's migrations.
CREATE TABLE liveness (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    alive_at BIGINT NOT NULL
);
