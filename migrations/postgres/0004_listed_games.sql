-- Whether the creator lets a live game be listed for anyone to watch (GET /api/v1/games?status=
-- waiting or playing). Off for every game created before this option existed. Same version
-- numbers as migrations/sqlite.
ALTER TABLE games ADD COLUMN listed BOOLEAN NOT NULL DEFAULT FALSE;
