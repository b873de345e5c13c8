-- A dice game's rematch draws its server seed when it is offered, so that the offer's event can
-- carry its commitment before the other player adds their entropy by accepting (docs/RULES.md §4),
-- as a joiner sees an invite's game's commitment before joining. The seed is secret until the
-- rematch ends, so it is kept here with the offerer's entropy, not in the finished game's public
-- log. Empty when no rematch of dice was offered (or it was offered before this migration: its
-- rematch draws its seed when made, as then).
ALTER TABLE games ADD COLUMN rematch_server_seed TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN rematch_entropy TEXT NOT NULL DEFAULT '';
