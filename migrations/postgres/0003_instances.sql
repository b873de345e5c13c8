-- Several server instances on one database (docs/DESIGN.md, "Several instances on one Postgres").
-- Same version numbers as migrations/sqlite. Each running instance renews its row every second;
-- an instance whose `alive_until` has passed is gone, and the games it owned are taken over.
CREATE TABLE instances (
    id          TEXT PRIMARY KEY,
    alive_until BIGINT NOT NULL                  -- milliseconds since the Unix epoch, the database's clock
);

-- The instance that runs the game's timers (its clocks' flags, the computer's moves). Any
-- instance may write a game; only its owner acts on it unasked.
ALTER TABLE games ADD COLUMN owner TEXT;
CREATE INDEX games_in_play_by_owner ON games (owner) WHERE status = 'playing';
