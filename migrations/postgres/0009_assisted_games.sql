-- A game against the computer in which the person took a hint or a move back: its result is
-- listed with the player's games, marked, but not counted in their record at the computer's level
-- (docs/API.md "Players and bots"). Set when the first hint is given or the first takeback made.
ALTER TABLE games ADD COLUMN assisted BOOLEAN NOT NULL DEFAULT FALSE;
