-- Optional accounts: who holds a seat, results, Glicko-2 ratings per variant, and challenges.
-- Same version numbers and tables as migrations/postgres. Secrets (sessions, personal tokens) are
-- stored as SHA-256 hashes; passwords as Argon2id PHC strings.
CREATE TABLE accounts (
    id            TEXT PRIMARY KEY,
    username      TEXT NOT NULL,
    -- Unique without regard to case; a deleted account keeps its name so nobody can take it over.
    username_key  TEXT NOT NULL UNIQUE,          -- lower-case username
    password_hash TEXT NOT NULL,                 -- empty once deleted
    created_at    BIGINT NOT NULL,
    deleted       BOOLEAN NOT NULL DEFAULT FALSE
);

CREATE TABLE sessions (
    hash       TEXT PRIMARY KEY,                 -- SHA-256 of the cookie's secret
    account_id TEXT NOT NULL REFERENCES accounts (id),
    created_at BIGINT NOT NULL
);
CREATE INDEX sessions_by_account ON sessions (account_id);

CREATE TABLE personal_tokens (
    id          TEXT PRIMARY KEY,
    account_id  TEXT NOT NULL REFERENCES accounts (id),
    hash        TEXT NOT NULL UNIQUE,            -- SHA-256 of the token
    description TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);
CREATE INDEX personal_tokens_by_account ON personal_tokens (account_id);

-- A seat taken while identified: the game's side `side` (player index `player`) is the account's.
CREATE TABLE seat_owners (
    game_id    TEXT NOT NULL REFERENCES games (id),
    player     BIGINT NOT NULL,
    side       TEXT NOT NULL,                    -- the side's name, as games.winner holds it
    account_id TEXT NOT NULL REFERENCES accounts (id),
    PRIMARY KEY (game_id, player)
);
CREATE INDEX seat_owners_by_account ON seat_owners (account_id);

-- Online games created with "rated": false (every other game between two accounts is rated).
CREATE TABLE unrated_games (
    game_id TEXT PRIMARY KEY REFERENCES games (id)
);

CREATE TABLE ratings (
    account_id TEXT NOT NULL REFERENCES accounts (id),
    variant    TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT NOT NULL,                  -- rated games played
    PRIMARY KEY (account_id, variant)
);
CREATE INDEX ratings_by_variant ON ratings (variant, rating);

-- One row per player of each rated game: the rating before and after it.
CREATE TABLE rating_changes (
    game_id    TEXT NOT NULL REFERENCES games (id),
    account_id TEXT NOT NULL REFERENCES accounts (id),
    variant    TEXT NOT NULL,
    before     DOUBLE PRECISION NOT NULL,
    after      DOUBLE PRECISION NOT NULL,
    at         BIGINT NOT NULL,
    PRIMARY KEY (game_id, account_id)
);
CREATE INDEX rating_changes_by_account ON rating_changes (account_id, at);

CREATE TABLE challenges (
    id            TEXT PRIMARY KEY,
    challenger_id TEXT NOT NULL REFERENCES accounts (id),
    challenged_id TEXT NOT NULL REFERENCES accounts (id),
    variant       TEXT NOT NULL,
    terms         TEXT NOT NULL,                 -- JSON: clock, side, rated
    status        TEXT NOT NULL,                 -- pending, accepted, declined, canceled
    created_at    BIGINT NOT NULL,
    game_id       TEXT REFERENCES games (id)
);
CREATE INDEX challenges_by_challenged ON challenges (challenged_id, status);
