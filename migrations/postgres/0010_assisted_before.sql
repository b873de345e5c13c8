-- Computer games in which the person took a move back before 0009 marked such games: the takeback
-- is in the log (an `undo` event), so they are marked now and leave the per-level record as later
-- ones do. A hint taken before 0009 left no trace: such a game still counts (docs/API.md).
UPDATE games SET assisted = TRUE
WHERE mode = 'computer'
  AND EXISTS (SELECT 1 FROM game_events WHERE game_events.game_id = games.id AND game_events.body LIKE '{"kind":"undo",%');
