-- A dice game's server seed is drawn when the challenge is made, so that its commitment reaches
-- the challenged player before they add their entropy at the accept (docs/API.md, "Challenges"),
-- as a joiner sees an invite's game's commitment before joining. The challenger's entropy is kept
-- with it. Empty for a challenge made before: its game draws its seed when made, as then.
ALTER TABLE challenges ADD COLUMN server_seed TEXT NOT NULL DEFAULT '';
ALTER TABLE challenges ADD COLUMN entropy TEXT NOT NULL DEFAULT '';
