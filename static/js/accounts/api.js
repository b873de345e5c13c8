// @ts-check
// The players' part of the API (docs/API.md "Players and bots") as the pages call it. The session
// is an HttpOnly cookie the browser sends by itself: no secret of it is ever in the page.
import { request, preference, setPreference, forgetAllSeats, entropy } from '../api.js';
import { t } from '../i18n.js';

/**
 * @typedef {{ username: string, created_at: number }} Account
 * @typedef {{ games: number, wins: number, draws: number, losses: number, rating: number | null, deviation: number | null }} VariantResults
 * @typedef {{ wins: number, draws: number, losses: number }} Tally
 * @typedef {{ username: string, created_at: number, variants: Record<string, VariantResults>,
 *   computer: Record<string, Record<string, Tally>>, history: Record<string, { at: number, rating: number }[]> }} Profile
 * @typedef {{ game_id: string, variant: string, mode: string, level: number | null, side: string,
 *   opponent: string | null, result: 'win' | 'loss' | 'draw', termination: string, finished_at: number,
 *   rating_before: number | null, rating_after: number | null, rating_change: number | null,
 *   assisted: boolean }} PlayedGame
 */

const name = (/** @type {string} */ username) => encodeURIComponent(username);

// The page cannot read the HttpOnly cookie: it remembers that it signed in, so a visitor's pages
// never ask for an account they do not have.
const SIGNED_IN = 'signed-in';

/**
 * @param {Promise<{ username: string }>} answer
 * @returns {Promise<{ username: string }>}
 */
async function remember(answer) {
  const account = await answer;
  setPreference(SIGNED_IN, account.username);
  return account;
}

/** @param {string} username @param {string} password */
export const signUp = (username, password) => remember(request('POST', '/api/v1/accounts', { body: { username, password } }));

/** @param {string} username @param {string} password */
export const signIn = (username, password) => remember(request('POST', '/api/v1/session', { body: { username, password } }));

/**
 * Signs out, and forgets every seat this browser holds: on a shared computer the next person must
 * find none of the account's games, finished ones included (a rematch from one would be the
 * account's). The account opens its games again when signed in.
 */
export async function signOut() {
  await request('DELETE', '/api/v1/session');
  setPreference(SIGNED_IN, '');
  forgetAllSeats();
}

/**
 * The signed-in account, or null when nobody is signed in here.
 * @returns {Promise<Account | null>}
 */
export async function currentAccount() {
  if (!preference(SIGNED_IN)) return null;
  const account = await request('GET', '/api/v1/account').catch(() => null);
  if (!account) setPreference(SIGNED_IN, '');
  return account;
}

/**
 * The ids of the signed-in account's games in play or waiting (none when nobody is signed in
 * here): the page opens each as the account's seat, without its token.
 * @returns {Promise<string[]>}
 */
export async function accountGames() {
  if (!preference(SIGNED_IN)) return [];
  /** @type {{ game_id: string }[]} */
  const games = await request('GET', '/api/v1/account/games').catch(() => []);
  return games.map((game) => game.game_id);
}

/**
 * Changes the password: every session of the account ends, this one begins anew.
 * @param {string} password
 * @param {string} newPassword
 */
export const changePassword = (password, newPassword) =>
  request('POST', '/api/v1/account/password', { body: { password, new_password: newPassword } });

/** @param {string} password */
export async function deleteAccount(password) {
  await request('DELETE', '/api/v1/account', { body: { password } });
  setPreference(SIGNED_IN, '');
  forgetAllSeats();
}

/** @returns {Promise<{ id: string, description: string, created_at: number }[]>} */
export const tokens = () => request('GET', '/api/v1/account/tokens');

/** @param {string} description @returns {Promise<{ id: string, token: string }>} */
export const createToken = (description) => request('POST', '/api/v1/account/tokens', { body: { description } });

/** @param {string} id */
export const revokeToken = (id) => request('DELETE', `/api/v1/account/tokens/${encodeURIComponent(id)}`);

/**
 * Gives the account the seats these tokens open.
 * @param {string[]} seatTokens
 * @returns {Promise<{ attached: number }>}
 */
export const attachSeats = (seatTokens) => request('POST', '/api/v1/account/seats', { body: { tokens: seatTokens } });

/** @param {string} username @returns {Promise<Profile>} */
export const profile = (username) => request('GET', `/api/v1/players/${name(username)}`);

/** How many of a player's games a page of the profile lists. */
export const GAMES_PAGE = 20;

/**
 * A page of a player's finished games, newest first: the first, or the one after `last`.
 * @param {string} username
 * @param {PlayedGame} [last] the last game of the page before
 * @returns {Promise<PlayedGame[]>}
 */
export const playedGames = (username, last) => request('GET', `/api/v1/players/${name(username)}/games?limit=${GAMES_PAGE}`
  + (last ? `&before=${last.finished_at}&before_id=${encodeURIComponent(last.game_id)}` : ''));

/**
 * @param {string} variant
 * @returns {Promise<{ rank: number, username: string, rating: number, deviation: number, games: number }[]>}
 */
export const leaderboard = (variant) => request('GET', `/api/v1/leaderboard/${encodeURIComponent(variant)}`);

/**
 * A seat holder as the game shows it: "Ann (1662)", and after a rated end "Ann (1662, +12)".
 * @param {{ username: string, rating: number | null, rating_change?: number | null }} holder
 * @returns {string}
 */
export function seatLabel({ username, rating, rating_change: change }) {
  // A deleted account's seats keep the reserved name `deleted`: shown in the page's words.
  const name = username === 'deleted' ? t('profile.opponent.deleted') : username;
  if (rating === null) return name;
  if (change === null || change === undefined) return `${name} (${rating})`;
  return `${name} (${rating}, ${signedChange(change)})`;
}

/**
 * A rating change with its sign, a true minus for a loss: `+12`, `−8`, `±0`.
 * @param {number} change
 */
export const signedChange = (change) => `${change > 0 ? '+' : change < 0 ? '−' : '±'}${Math.abs(change)}`;

/**
 * Who holds each seat of a game, as a label per side (`seatLabel`), and whether the game counts for
 * the ratings: both seats held by accounts, and the server says it is rated.
 * @param {string} gameId
 * @returns {Promise<{ labels: Record<string, string>, rated: boolean }>}
 */
export async function seatLabels(gameId) {
  /** @type {{ side: string, username: string, rating: number | null, rating_change: number | null, rated: boolean }[]} */
  const holders = await request('GET', `/api/v1/games/${encodeURIComponent(gameId)}/players`).catch(() => []);
  return {
    labels: Object.fromEntries(holders.map((h) => [h.side, seatLabel(h)])),
    rated: holders.length === 2 && holders.every((h) => h.rated),
  };
}

/**
 * A pending challenge, as `GET /api/v1/challenges` lists it and the event stream announces it.
 * @typedef {{ challenge_id: string, challenger: string, challenged: string, variant: string,
 *   clock: { initial_ms: number, increment_ms: number } | null, side: string, rated: boolean,
 *   created_at: number }} Challenge
 */

/** @returns {Promise<{ incoming: Challenge[], outgoing: Challenge[] }>} */
export const challenges = () => request('GET', '/api/v1/challenges');

/**
 * Challenges a player, with this browser's entropy for a dice game's seed.
 * @param {{ username: string, variant: string, clock: { initial_ms: number, increment_ms: number } | null, side: string, rated: boolean }} body
 * @returns {Promise<{ challenge_id: string }>}
 */
export const challenge = (body) => request('POST', '/api/v1/challenges', { body: { ...body, entropy: entropy() } });

/**
 * Accepts (the game's id and this player's seat; this browser's entropy is mixed into a dice
 * game's seed after the challenge's commitment), declines or cancels a challenge.
 * @param {string} id
 * @param {'accept' | 'decline' | 'cancel'} answer
 * @returns {Promise<any>}
 */
export const answerChallenge = (id, answer) => request('POST', `/api/v1/challenges/${encodeURIComponent(id)}/${answer}`,
  answer === 'accept' ? { body: { entropy: entropy() } } : {});

/** How long the event stream waits before it opens again after the server closed it. */
const RECONNECT_MS = 3000;

/**
 * Follows the account's event stream (NDJSON) until `signal` aborts or the player is no longer
 * signed in, opening it again when the server closes it or cannot answer (a restart behind a
 * proxy answers 502: the page stopped following for good, and a waiting challenger's game never
 * opened); each notice goes to `onNotice` (empty keep-alive lines do not).
 * @param {AbortSignal} signal
 * @param {(notice: any) => void} onNotice
 */
export async function accountEvents(signal, onNotice) {
  while (!signal.aborted) {
    try {
      const response = await fetch('/api/v1/stream/events', { signal, headers: { Accept: 'application/x-ndjson' } });
      if (response.status === 401 || response.status === 403) return;
      if (!response.ok || !response.body) throw new Error(`the stream answered ${response.status}`);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        const lines = buffer.split('\n');
        buffer = lines.pop() || '';
        for (const line of lines) if (line.trim()) onNotice(JSON.parse(line));
      }
    } catch {
      if (signal.aborted) return;
    }
    await new Promise((r) => setTimeout(r, RECONNECT_MS));
  }
}
