//! Optional accounts and what hangs off them: sessions and personal tokens (stored hashed), the
//! seats an account holds, Glicko-2 ratings per variant and their history, and challenges.
//!
//! Ratings change only when a game finishes, inside the transaction that stores the result
//! ([`settle_ratings!`], called by `append_events`); a move never touches these tables. This module
//! never sees a usable secret: callers hash tokens and passwords before they get here.

use crate::{GameId, PageAfter, SecretHash, Store, StoreError};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

/// An account as stored.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct AccountRow {
    pub id: String,
    pub username: String,
    /// The Argon2id PHC string (empty once the account is deleted).
    pub password_hash: String,
    pub created_at: i64,
    pub deleted: bool,
}

/// A personal API token's listing (never its secret).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct TokenRow {
    pub id: String,
    pub description: String,
    pub created_at: i64,
}

/// A player's rating in one variant.
#[derive(Clone, Copy, Debug, PartialEq, sqlx::FromRow)]
pub struct RatingRow {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games played.
    pub games: i64,
}

impl RatingRow {
    /// Where every player starts: Glicko-2's defaults (1500, 350, 0.06).
    pub fn initial() -> RatingRow {
        let start = Glicko2Rating::new();
        RatingRow {
            rating: start.rating,
            deviation: start.deviation,
            volatility: start.volatility,
            games: 0,
        }
    }

    fn glicko(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn after(self, rated: Glicko2Rating) -> RatingRow {
        RatingRow {
            rating: rated.rating,
            deviation: rated.deviation,
            volatility: rated.volatility,
            games: self.games + 1,
        }
    }
}

/// One variant's rating of a player, with its name (profiles).
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct VariantRating {
    pub variant: String,
    pub rating: f64,
    pub deviation: f64,
    pub games: i64,
}

/// A row of a leaderboard.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct Leader {
    pub username: String,
    pub rating: f64,
    pub deviation: f64,
    pub games: i64,
}

/// A finished game seen from one of its account-held seats.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct PlayedGame {
    pub game_id: String,
    pub variant: String,
    pub mode: String,
    pub settings: String,
    /// The account's side.
    pub side: String,
    pub winner: Option<String>,
    pub termination: Option<String>,
    pub finished_at: i64,
    /// The opponent's username, if an account held the other seat.
    pub opponent: Option<String>,
    pub opponent_deleted: Option<bool>,
    pub rating_before: Option<f64>,
    pub rating_after: Option<f64>,
    /// A game against the computer in which the player took a hint or a move back.
    pub assisted: bool,
}

/// A game in play or waiting that an account holds a seat of.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct LiveSeat {
    pub game_id: String,
    pub variant: String,
    pub mode: String,
    pub status: String,
    /// The account's side.
    pub side: String,
    /// The opponent's username, if an account holds the other seat.
    pub opponent: Option<String>,
    pub opponent_deleted: Option<bool>,
}

/// A point of a rating history.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct RatingPoint {
    pub variant: String,
    pub rating: f64,
    pub at: i64,
}

/// An identified player taking a seat: the account, and the seat's player index and side name
/// (as `games.winner` holds it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatOwner<'a> {
    pub account_id: &'a str,
    pub player: i64,
    pub side: &'static str,
}

/// Records a seat's owner: one statement for taking a seat on its own and inside a redemption's
/// transaction. It does nothing when the seat has a holder, or when the account holds the game's
/// other seat (the unique index of migration 0006: no one plays themselves, however two requests
/// race).
pub(crate) const INSERT_SEAT_OWNER: &str = "INSERT INTO seat_owners (game_id, player, side, account_id) \
     VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING";

/// A seat of a game and who holds it (the game screen's names).
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct SeatHolder {
    pub side: String,
    pub username: String,
    pub deleted: bool,
    pub rating: Option<f64>,
    /// The holder's rating before and after the game's end, once it ended rated.
    pub rating_before: Option<f64>,
    pub rating_after: Option<f64>,
    /// Whether the game counts for the ratings when both its seats are held by accounts: an
    /// online game not created unrated (the same test as `settle_ratings!`).
    pub rated: bool,
}

/// A game seat a token opens (for attaching a browser's games to an account).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct TokenSeat {
    pub game_id: String,
    pub variant: String,
    pub mode: String,
    pub seat0_hash: Option<String>,
    pub seat1_hash: Option<String>,
}

/// A challenge as stored.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct ChallengeRow {
    pub id: String,
    pub challenger_id: String,
    pub challenged_id: String,
    pub variant: String,
    /// JSON of the challenge's terms (clock, side, rated): the server's to read.
    pub terms: String,
    pub status: String,
    pub created_at: i64,
    pub game_id: Option<String>,
    /// Dice variants: the game's server seed, drawn with the challenge (hex; empty for a
    /// challenge made before migration 0007).
    pub server_seed: String,
    /// The challenger's entropy for the game's seed.
    pub entropy: String,
}

/// The result of a finished game for the first seat's holder, or `None` when it was not decided
/// between two sides (no winner and no draw is impossible once finished, so `None` means a draw).
fn outcome_for(first_side: &str, winner: Option<&str>) -> Outcomes {
    match winner {
        None => Outcomes::DRAW,
        Some(w) if w == first_side => Outcomes::WIN,
        Some(_) => Outcomes::LOSS,
    }
}

/// Both players' new ratings after a game between them (`a` holds `a_side`).
pub fn rate(
    a: RatingRow,
    b: RatingRow,
    a_side: &str,
    winner: Option<&str>,
) -> (RatingRow, RatingRow) {
    let (new_a, new_b) = glicko2(
        &a.glicko(),
        &b.glicko(),
        &outcome_for(a_side, winner),
        &Glicko2Config::new(),
    );
    (a.after(new_a), b.after(new_b))
}

/// Inside a transaction that has just finished game `$game_id` (status `finished`; `$game` is its
/// variant, mode and winner as that update returned them): when it is an online game between two
/// accounts and not created unrated, updates both players' ratings in its variant and writes their
/// history rows. A local or computer game reads nothing here; an online one, in one statement, who
/// holds its seats unless it was created unrated. Expanded once per backend (the transaction types
/// differ).
macro_rules! settle_ratings {
    ($tx:expr, $game_id:expr, $game:expr, $at:expr) => {{
        let (variant, mode, winner): (String, String, Option<String>) = $game;
        let owners: Vec<(String, String)> = if mode == "online" {
            sqlx::query_as(
                "SELECT side, account_id FROM seat_owners WHERE game_id = $1 \
                 AND NOT EXISTS (SELECT 1 FROM unrated_games WHERE game_id = $1) ORDER BY player",
            )
            .bind($game_id)
            .fetch_all(&mut *$tx)
            .await?
        } else {
            Vec::new()
        };
        if let [(a_side, a), (_, b)] = owners.as_slice()
            && a != b
        {
            let mut before = [$crate::accounts::RatingRow::initial(); 2];
            for (slot, account) in before.iter_mut().zip([a, b]) {
                let found: Option<$crate::accounts::RatingRow> = sqlx::query_as(
                    "SELECT rating, deviation, volatility, games FROM ratings WHERE account_id = $1 AND variant = $2",
                )
                .bind(account)
                .bind(&variant)
                .fetch_optional(&mut *$tx)
                .await?;
                if let Some(found) = found {
                    *slot = found;
                }
            }
            let (new_a, new_b) =
                $crate::accounts::rate(before[0], before[1], a_side, winner.as_deref());
            for ((account, old), new) in [a, b].into_iter().zip(before).zip([new_a, new_b]) {
                sqlx::query(
                    "INSERT INTO ratings (account_id, variant, rating, deviation, volatility, games) \
                     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (account_id, variant) DO UPDATE SET \
                     rating = excluded.rating, deviation = excluded.deviation, \
                     volatility = excluded.volatility, games = excluded.games",
                )
                .bind(account)
                .bind(&variant)
                .bind(new.rating)
                .bind(new.deviation)
                .bind(new.volatility)
                .bind(new.games)
                .execute(&mut *$tx)
                .await?;
                sqlx::query(
                    "INSERT INTO rating_changes (game_id, account_id, variant, before, after, at) \
                     VALUES ($1, $2, $3, $4, $5, $6)",
                )
                .bind($game_id)
                .bind(account)
                .bind(&variant)
                .bind(old.rating)
                .bind(new.rating)
                .bind($at)
                .execute(&mut *$tx)
                .await?;
            }
        }
    }};
}

/// `SELECT <every AccountRow column> FROM accounts <rest>`.
macro_rules! select_accounts {
    ($rest:literal) => {
        concat!(
            "SELECT accounts.id, username, password_hash, accounts.created_at, deleted FROM accounts ",
            $rest
        )
    };
}

/// How a challenge's status may change: only a pending one, and accepting only in time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeAnswer<'a> {
    pub id: &'a str,
    pub status: &'a str,
    /// Pending challenges created before this are lapsed and cannot change.
    pub created_after: i64,
}

impl Store {
    /// Creates an account; `Conflict` if the name is taken (in any case).
    pub async fn create_account(&self, account: &AccountRow) -> Result<(), StoreError> {
        let result = on_backend!(self, pool => {
            sqlx::query(
                "INSERT INTO accounts (id, username, username_key, password_hash, created_at) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(&account.id)
            .bind(&account.username)
            .bind(account.username.to_lowercase())
            .bind(&account.password_hash)
            .bind(account.created_at)
            .execute(pool)
            .await
            .map(|_| ())
        });
        crate::conflict_if_taken(result)
    }

    /// The account of that name (in any case), deleted ones included.
    pub async fn account_named(&self, username: &str) -> Result<Option<AccountRow>, StoreError> {
        let query = select_accounts!("WHERE username_key = $1");
        Ok(on_backend!(self, pool => {
            sqlx::query_as(query).bind(username.to_lowercase()).fetch_optional(pool).await?
        }))
    }

    /// The live account a session (by its hash) belongs to.
    pub async fn account_of_session(
        &self,
        hash: &SecretHash,
    ) -> Result<Option<AccountRow>, StoreError> {
        let query = select_accounts!(
            "JOIN sessions ON sessions.account_id = accounts.id WHERE sessions.hash = $1 AND NOT deleted"
        );
        Ok(
            on_backend!(self, pool => sqlx::query_as(query).bind(hash.as_str()).fetch_optional(pool).await?),
        )
    }

    /// The live account a personal token (by its hash) belongs to.
    pub async fn account_of_token(
        &self,
        hash: &SecretHash,
    ) -> Result<Option<AccountRow>, StoreError> {
        let query = select_accounts!(
            "JOIN personal_tokens ON personal_tokens.account_id = accounts.id WHERE personal_tokens.hash = $1 AND NOT deleted"
        );
        Ok(
            on_backend!(self, pool => sqlx::query_as(query).bind(hash.as_str()).fetch_optional(pool).await?),
        )
    }

    pub async fn create_session(
        &self,
        hash: &SecretHash,
        account_id: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        on_backend!(self, pool => {
            sqlx::query("INSERT INTO sessions (hash, account_id, created_at) VALUES ($1, $2, $3)")
                .bind(hash.as_str()).bind(account_id).bind(now).execute(pool).await?;
        });
        Ok(())
    }

    pub async fn delete_session(&self, hash: &SecretHash) -> Result<(), StoreError> {
        on_backend!(self, pool => {
            sqlx::query("DELETE FROM sessions WHERE hash = $1").bind(hash.as_str()).execute(pool).await?;
        });
        Ok(())
    }

    pub async fn create_token(
        &self,
        account_id: &str,
        hash: &SecretHash,
        token: &TokenRow,
    ) -> Result<(), StoreError> {
        on_backend!(self, pool => {
            sqlx::query(
                "INSERT INTO personal_tokens (id, account_id, hash, description, created_at) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(&token.id).bind(account_id).bind(hash.as_str()).bind(&token.description).bind(token.created_at)
            .execute(pool).await?;
        });
        Ok(())
    }

    pub async fn tokens_of(&self, account_id: &str) -> Result<Vec<TokenRow>, StoreError> {
        Ok(on_backend!(self, pool => {
            sqlx::query_as("SELECT id, description, created_at FROM personal_tokens WHERE account_id = $1 ORDER BY created_at, id")
                .bind(account_id).fetch_all(pool).await?
        }))
    }

    /// Revokes one of the account's tokens; whether it existed.
    pub async fn revoke_token(&self, account_id: &str, id: &str) -> Result<bool, StoreError> {
        let deleted = on_backend!(self, pool => {
            sqlx::query("DELETE FROM personal_tokens WHERE account_id = $1 AND id = $2")
                .bind(account_id).bind(id).execute(pool).await?.rows_affected()
        });
        Ok(deleted == 1)
    }

    /// Changes a live account's password and ends every session of it (a password changed
    /// because it leaked signs out whoever used it); its personal tokens stay, each revoked on
    /// its own. Whether the account was live.
    pub async fn change_password(
        &self,
        account_id: &str,
        password_hash: &str,
    ) -> Result<bool, StoreError> {
        let changed = on_backend!(self, pool => {
            let mut tx = pool.begin().await?;
            let changed = sqlx::query("UPDATE accounts SET password_hash = $2 WHERE id = $1 AND NOT deleted")
                .bind(account_id).bind(password_hash).execute(&mut *tx).await?.rows_affected();
            sqlx::query("DELETE FROM sessions WHERE account_id = $1")
                .bind(account_id).execute(&mut *tx).await?;
            tx.commit().await?;
            changed
        });
        Ok(changed == 1)
    }

    /// Deletes an account: its sessions, tokens, ratings and pending challenges go; the row stays,
    /// marked deleted (its games keep their seats, shown as "deleted", and the name stays taken).
    pub async fn delete_account(&self, account_id: &str) -> Result<(), StoreError> {
        on_backend!(self, pool => {
            let mut tx = pool.begin().await?;
            for statement in [
                "DELETE FROM sessions WHERE account_id = $1",
                "DELETE FROM personal_tokens WHERE account_id = $1",
                "DELETE FROM ratings WHERE account_id = $1",
                "UPDATE challenges SET status = 'canceled' WHERE status = 'pending' AND (challenger_id = $1 OR challenged_id = $1)",
                "UPDATE accounts SET deleted = TRUE, password_hash = '' WHERE id = $1",
            ] {
                sqlx::query(statement).bind(account_id).execute(&mut *tx).await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// The seat an account holds in a game (one at most: migration 0006), as the hash of its
    /// token (what the game's actions present): a signed-in player acts for its seat without the
    /// token, on any device.
    pub async fn account_seat(
        &self,
        game_id: &GameId,
        account_id: &str,
    ) -> Result<Option<SecretHash>, StoreError> {
        let row: Option<(Option<String>,)> = on_backend!(self, pool => {
            sqlx::query_as(
                "SELECT CASE seat_owners.player WHEN 0 THEN games.seat0_hash ELSE games.seat1_hash END \
                 FROM seat_owners JOIN games ON games.id = seat_owners.game_id \
                 WHERE seat_owners.game_id = $1 AND seat_owners.account_id = $2",
            )
            .bind(game_id.as_str()).bind(account_id).fetch_optional(pool).await?
        });
        Ok(row
            .and_then(|(hash,)| hash)
            .and_then(|hash| hash.parse::<SecretHash>().ok()))
    }

    /// Gives a game's seat to an account, unless it already has a holder or the account holds
    /// the game's other seat (no one plays themselves); whether it did.
    pub async fn own_seat(
        &self,
        game_id: &GameId,
        owner: SeatOwner<'_>,
    ) -> Result<bool, StoreError> {
        let inserted = on_backend!(self, pool => {
            sqlx::query(INSERT_SEAT_OWNER)
                .bind(game_id.as_str()).bind(owner.player).bind(owner.side).bind(owner.account_id)
                .execute(pool).await?.rows_affected()
        });
        Ok(inserted == 1)
    }

    /// The games whose seats these token hashes open.
    pub async fn seats_of_tokens(
        &self,
        hashes: &[SecretHash],
    ) -> Result<Vec<TokenSeat>, StoreError> {
        let mut seats = Vec::new();
        for hash in hashes {
            let found: Vec<TokenSeat> = on_backend!(self, pool => {
                sqlx::query_as(
                    "SELECT id AS game_id, variant, mode, seat0_hash, seat1_hash FROM games WHERE seat0_hash = $1 OR seat1_hash = $1",
                )
                .bind(hash.as_str()).fetch_all(pool).await?
            });
            seats.extend(found);
        }
        Ok(seats)
    }

    /// Who holds the seats of a game, with their rating in its variant.
    pub async fn seat_holders(&self, game_id: &GameId) -> Result<Vec<SeatHolder>, StoreError> {
        Ok(on_backend!(self, pool => {
            sqlx::query_as(
                "SELECT seat_owners.side, accounts.username, accounts.deleted, ratings.rating, \
                 changes.before AS rating_before, changes.after AS rating_after, \
                 (games.mode = 'online' AND NOT EXISTS (SELECT 1 FROM unrated_games WHERE game_id = games.id)) AS rated \
                 FROM seat_owners \
                 JOIN accounts ON accounts.id = seat_owners.account_id \
                 JOIN games ON games.id = seat_owners.game_id \
                 LEFT JOIN ratings ON ratings.account_id = accounts.id AND ratings.variant = games.variant \
                 LEFT JOIN rating_changes changes ON changes.game_id = games.id AND changes.account_id = accounts.id \
                 WHERE seat_owners.game_id = $1 ORDER BY seat_owners.player",
            )
            .bind(game_id.as_str()).fetch_all(pool).await?
        }))
    }

    /// An account's finished games that count (online and computer), newest first (by id within
    /// a millisecond), after `after`.
    pub async fn played_games(
        &self,
        account_id: &str,
        limit: i64,
        after: &PageAfter,
    ) -> Result<Vec<PlayedGame>, StoreError> {
        Ok(on_backend!(self, pool => {
            sqlx::query_as(
                "SELECT games.id AS game_id, games.variant, games.mode, games.settings, mine.side, games.winner, \
                 games.termination, games.finished_at, other_account.username AS opponent, \
                 other_account.deleted AS opponent_deleted, changes.before AS rating_before, changes.after AS rating_after, \
                 games.assisted FROM seat_owners mine JOIN games ON games.id = mine.game_id \
                 LEFT JOIN seat_owners other ON other.game_id = mine.game_id AND other.player <> mine.player \
                 LEFT JOIN accounts other_account ON other_account.id = other.account_id \
                 LEFT JOIN rating_changes changes ON changes.game_id = games.id AND changes.account_id = mine.account_id \
                 WHERE mine.account_id = $1 AND games.status = 'finished' AND games.mode <> 'local' \
                 AND (games.finished_at < $2 OR (games.finished_at = $2 AND games.id < $4)) \
                 ORDER BY games.finished_at DESC, games.id DESC LIMIT $3",
            )
            .bind(account_id).bind(after.at).bind(limit).bind(after.id_bound()).fetch_all(pool).await?
        }))
    }

    /// An account's games in play or waiting, newest first: the ones it may open on any device.
    pub async fn live_seats(&self, account_id: &str) -> Result<Vec<LiveSeat>, StoreError> {
        Ok(on_backend!(self, pool => {
            sqlx::query_as(
                "SELECT games.id AS game_id, games.variant, games.mode, games.status, mine.side, \
                 other_account.username AS opponent, other_account.deleted AS opponent_deleted \
                 FROM seat_owners mine JOIN games ON games.id = mine.game_id \
                 LEFT JOIN seat_owners other ON other.game_id = mine.game_id AND other.player <> mine.player \
                 LEFT JOIN accounts other_account ON other_account.id = other.account_id \
                 WHERE mine.account_id = $1 AND games.status IN ('waiting', 'playing') \
                 ORDER BY games.created_at DESC, games.id DESC LIMIT 200",
            )
            .bind(account_id).fetch_all(pool).await?
        }))
    }

    pub async fn ratings_of(&self, account_id: &str) -> Result<Vec<VariantRating>, StoreError> {
        Ok(on_backend!(self, pool => {
            sqlx::query_as("SELECT variant, rating, deviation, games FROM ratings WHERE account_id = $1 ORDER BY variant")
                .bind(account_id).fetch_all(pool).await?
        }))
    }

    /// An account's ratings after each rated game, oldest first.
    pub async fn rating_history(&self, account_id: &str) -> Result<Vec<RatingPoint>, StoreError> {
        Ok(on_backend!(self, pool => {
            sqlx::query_as("SELECT variant, after AS rating, at FROM rating_changes WHERE account_id = $1 ORDER BY at, game_id")
                .bind(account_id).fetch_all(pool).await?
        }))
    }

    /// The best-rated live players of a variant with at least `min_games` rated games.
    pub async fn leaderboard(
        &self,
        variant: &str,
        min_games: i64,
        limit: i64,
    ) -> Result<Vec<Leader>, StoreError> {
        Ok(on_backend!(self, pool => {
            sqlx::query_as(
                "SELECT accounts.username, ratings.rating, ratings.deviation, ratings.games FROM ratings \
                 JOIN accounts ON accounts.id = ratings.account_id \
                 WHERE ratings.variant = $1 AND ratings.games >= $2 AND NOT accounts.deleted \
                 ORDER BY ratings.rating DESC, accounts.username_key LIMIT $3",
            )
            .bind(variant).bind(min_games).bind(limit).fetch_all(pool).await?
        }))
    }

    pub async fn create_challenge(&self, challenge: &ChallengeRow) -> Result<(), StoreError> {
        on_backend!(self, pool => {
            sqlx::query(
                "INSERT INTO challenges (id, challenger_id, challenged_id, variant, terms, status, created_at, server_seed, entropy) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            )
            .bind(&challenge.id).bind(&challenge.challenger_id).bind(&challenge.challenged_id)
            .bind(&challenge.variant).bind(&challenge.terms).bind(&challenge.status).bind(challenge.created_at)
            .bind(&challenge.server_seed).bind(&challenge.entropy)
            .execute(pool).await?;
        });
        Ok(())
    }

    pub async fn load_challenge(&self, id: &str) -> Result<Option<ChallengeRow>, StoreError> {
        Ok(on_backend!(self, pool => {
            sqlx::query_as(
                "SELECT id, challenger_id, challenged_id, variant, terms, status, created_at, game_id, server_seed, entropy FROM challenges WHERE id = $1",
            )
            .bind(id).fetch_optional(pool).await?
        }))
    }

    /// The pending challenges to and from an account created after `created_after` (not lapsed),
    /// oldest first.
    pub async fn pending_challenges(
        &self,
        account_id: &str,
        created_after: i64,
    ) -> Result<Vec<ChallengeRow>, StoreError> {
        Ok(on_backend!(self, pool => {
            sqlx::query_as(
                "SELECT id, challenger_id, challenged_id, variant, terms, status, created_at, game_id, server_seed, entropy FROM challenges \
                 WHERE (challenged_id = $1 OR challenger_id = $1) AND status = 'pending' AND created_at > $2 \
                 ORDER BY created_at, id",
            )
            .bind(account_id).bind(created_after).fetch_all(pool).await?
        }))
    }

    /// Answers a pending, unlapsed challenge, once: of two racing answers exactly one wins.
    pub async fn answer_challenge(&self, answer: &ChallengeAnswer<'_>) -> Result<bool, StoreError> {
        let updated = on_backend!(self, pool => {
            sqlx::query(
                "UPDATE challenges SET status = $1 WHERE id = $2 AND status = 'pending' AND created_at > $3",
            )
            .bind(answer.status).bind(answer.id).bind(answer.created_after)
            .execute(pool).await?.rows_affected()
        });
        Ok(updated == 1)
    }

    /// Records the game an accepted challenge started.
    pub async fn set_challenge_game(&self, id: &str, game_id: &GameId) -> Result<(), StoreError> {
        on_backend!(self, pool => {
            sqlx::query("UPDATE challenges SET game_id = $1 WHERE id = $2").bind(game_id.as_str()).bind(id).execute(pool).await?;
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_win_raises_the_winner_and_lowers_the_loser_by_glicko2() {
        let start = RatingRow::initial();
        let (a, b) = rate(start, start, "white", Some("white"));
        assert!(a.rating > 1500.0 && b.rating < 1500.0, "{a:?} {b:?}");
        assert!(
            (a.rating - 1500.0 + (b.rating - 1500.0)).abs() < 1e-9,
            "symmetric"
        );
        assert!(a.deviation < 350.0, "a game makes the rating surer");
        assert_eq!((a.games, b.games), (1, 1));
        // Glicko-2's worked example scale: two new players, one game, about ±162.
        assert!((a.rating - 1662.3).abs() < 1.0, "{}", a.rating);
    }

    #[test]
    fn a_draw_between_equals_changes_no_rating() {
        let start = RatingRow::initial();
        let (a, b) = rate(start, start, "white", None);
        assert!((a.rating - 1500.0).abs() < 1e-9 && (b.rating - 1500.0).abs() < 1e-9);
    }
}
