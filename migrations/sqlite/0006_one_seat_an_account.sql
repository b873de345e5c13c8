-- An account holds at most one seat of a game: no one plays themselves. A check before the insert
-- could race (two requests attaching a game's two seats at once); the index cannot. Games that
-- already have one account in both seats keep it in the first (they were never rated: a rating
-- needs two different accounts). Same version numbers as the other backend's migrations.
DELETE FROM seat_owners
WHERE EXISTS (
    SELECT 1 FROM seat_owners first
    WHERE first.game_id = seat_owners.game_id
      AND first.account_id = seat_owners.account_id
      AND first.player < seat_owners.player
);
CREATE UNIQUE INDEX seat_owners_one_an_account ON seat_owners (game_id, account_id);
