-- Games and their append-only event log. same version numbers as migrations/sqlite.
CREATE TABLE games (
    id              TEXT PRIMARY KEY,
    variant         TEXT NOT NULL,
    mode            TEXT NOT NULL,
    status          TEXT NOT NULL,
    settings        TEXT NOT NULL,           -- JSON: clock, level, creator's side, first mover
    seat0_hash      TEXT,                    -- SHA-256 of the first side's seat token
    seat1_hash      TEXT,
    invite_hash     TEXT UNIQUE,             -- SHA-256 of the invite code (online games)
    invite_redeemed BOOLEAN NOT NULL DEFAULT FALSE,
    server_seed     TEXT,                    -- secret until the game ends (dice games)
    commitment      TEXT,
    creator_entropy TEXT NOT NULL DEFAULT '',
    joiner_entropy  TEXT NOT NULL DEFAULT '',
    created_at      BIGINT NOT NULL,         -- milliseconds since the Unix epoch
    finished_at     BIGINT,
    winner          TEXT,
    termination     TEXT
);
CREATE INDEX games_by_status ON games (status, finished_at);

CREATE TABLE game_events (
    game_id  TEXT NOT NULL REFERENCES games (id),
    seq      BIGINT NOT NULL,                -- the game's version after this event
    at       BIGINT NOT NULL,
    body     TEXT NOT NULL,                  -- JSON of the event
    move_id  TEXT,                           -- the client's move id, for idempotent resends
    PRIMARY KEY (game_id, seq),
    UNIQUE (game_id, move_id)
);
