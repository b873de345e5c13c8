// @ts-check
// The public JSON API of Ludus (docs/API.md), as any third-party client would call it, and the
// seat tokens this browser keeps. Tokens live in localStorage keyed by game id, beside the time
// the game was last opened here (for the home page's list of this browser's games).

/**
 * @typedef {'waiting' | 'playing' | 'finished' | 'aborted'} Status
 * @typedef {{ side: string, bottom: string, both?: boolean }} Seat
 * @typedef {{ [side: string]: any, running: string | null }} Clocks
 * @typedef {{ winner: string | null, termination: string }} Result
 * @typedef {{
 *   game_id: string, variant: string, mode: 'online' | 'computer' | 'local', status: Status,
 *   version: number, position: string, to_move: string | null, first: string | null, sides: string[],
 *   dice?: number[], moves: string[], clocks: Clocks | null, result: Result | null,
 *   draw_offer: string | null, undo_offer?: string | null, rematch_offer?: string | null,
 *   rematch?: string, seat: Seat | null, legal_moves?: string[], opponent_connected?: boolean,
 *   opponent_away_since?: number | null, claim_allowed_at?: number | null, claim_aborts?: boolean, can_take_back?: boolean,
 *   spectators?: number,
 *   commitment?: string, server_seed?: string, level?: number,
 * }} GameView
 * @typedef {{ version?: number, at?: number, kind: string, side?: string, move?: string,
 *   dice?: number[], keep?: number, game_id?: string, winner?: string | null,
 *   termination?: string, automatic?: boolean, absent?: string }} GameEvent
 * @typedef {{ id: string, name: string, players: string[], dice: number, first: string,
 *   summary: string, status: string, sources: string[] }} Variant
 */

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {any} body
   */
  constructor(status, body) {
    const error = (body && body.error) || {};
    super(error.message || `HTTP ${status}`);
    this.status = status;
    /** @type {string} */
    this.code = error.code || 'http_error';
    /** @type {string | undefined} */
    this.reason = error.reason;
    /** The error object as sent (`message`, `reason`, `version`, `retry_after_ms`…), for the translated message's details. */
    this.body = error;
  }
}

/**
 * @param {string} method
 * @param {string} path
 * @param {{ body?: unknown, token?: string | null }} [options]
 * @returns {Promise<any>}
 */
export async function request(method, path, { body, token } = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    // No answer at all (the server down, the network gone): told in the page's language, where the
    // browser's own words ("Failed to fetch") were shown.
    throw new ApiError(0, { error: { code: 'unreachable', message: String(error) } });
  }
  const text = await response.text();
  let data;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

/** @type {Promise<Variant[]> | null} */
let variantsPromise = null;

/**
 * The variants endpoint, fetched once per page load.
 * @returns {Promise<Variant[]>}
 */
export function variants() {
  if (!variantsPromise) {
    variantsPromise = request('GET', '/api/v1/variants').catch((e) => {
      variantsPromise = null;
      throw e;
    });
  }
  return variantsPromise;
}

const gamePath = (/** @type {string} */ id) => `/api/v1/games/${encodeURIComponent(id)}`;

/** @param {object} settings */
export const createGame = (settings) => request('POST', '/api/v1/games', { body: settings });

/**
 * Takes the invite's free seat.
 * @param {string} invite
 * @param {string} entropy
 * @returns {Promise<{ game_id: string, seat: { side: string, token: string } }>}
 */
export const joinInvite = (invite, entropy) =>
  request('POST', `/api/v1/invites/${encodeURIComponent(invite)}/join`, { body: { entropy } });

/**
 * @param {string} id
 * @param {string | null} token
 * @returns {Promise<GameView>}
 */
export const gameView = (id, token) => request('GET', gamePath(id), { token });

/**
 * The game's events after `since` (rolls and moves name their side: the dice games' move list).
 * @param {string} id
 * @param {number} since
 * @returns {Promise<GameEvent[]>}
 */
export const gameEvents = (id, since) => request('GET', `${gamePath(id)}/events?since=${since}`);

/**
 * The game's record as text (docs/RULES.md §4), as its download link gives it.
 * @param {string} id
 * @returns {Promise<string>}
 */
export async function gameRecord(id) {
  const response = await fetch(`${gamePath(id)}/record`);
  if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => null));
  return response.text();
}

/** The most events one answer of `gameEvents` holds (docs/API.md): a full page may have more. */
export const EVENTS_PAGE = 1000;

/**
 * A suggested move for the side to move (computer and local games).
 * @param {string} id
 * @param {string | null} token
 * @returns {Promise<{ move: string, version: number }>}
 */
export const gameHint = (id, token) => request('GET', `${gamePath(id)}/hint`, { token });

/**
 * resign, draw, draw/decline, undo, undo/accept, undo/decline, abort, claim, rematch,
 * rematch/decline: each answers with the game view. A rematch carries this player's entropy
 * (docs/RULES.md §4): a dice rematch's seed mixes in the offerer's and the accepter's.
 * @param {string} id
 * @param {string | null} token
 * @param {string} action
 * @returns {Promise<GameView>}
 */
export const gameAction = (id, token, action) =>
  request('POST', `${gamePath(id)}/${action}`, { token, body: action === 'rematch' ? { entropy: entropy() } : {} });

/**
 * A body with the dice added when there are any.
 * @param {Record<string, unknown>} body
 * @param {number[] | null | undefined} dice
 */
const withDice = (body, dice) => (dice && dice.length ? { ...body, dice } : body);

/**
 * @param {string} variant
 * @param {string} position
 * @param {number[]} [dice]
 */
export const analysis = (variant, position, dice) =>
  request('POST', '/api/v1/analysis', { body: withDice({ variant, position }, dice) });

/**
 * The analysis after `moves` from `position` (a 422 names the first illegal move).
 * @param {string} variant
 * @param {string} position
 * @param {number[] | null | undefined} dice
 * @param {string[]} moves
 * @returns {Promise<{ position: string, legal_moves: string[] }>}
 */
export const analysisPlay = (variant, position, dice, moves) =>
  request('POST', '/api/v1/analysis/play', { body: withDice({ variant, position, moves }, dice) });

/**
 * The position after each ply of a game, played from `position` (docs/API.md): a review's steps.
 * @param {string} variant
 * @param {string} position
 * @param {{ move: string, dice: number[] | null }[]} plies
 * @returns {Promise<{ positions: string[] }>}
 */
export const analysisReplay = (variant, position, plies) =>
  request('POST', '/api/v1/analysis/replay', { body: { variant, position, plies: plies.map(({ move, dice }) => (dice ? { move, dice } : { move })) } });

/**
 * The computer's move at `level` for a position given alone.
 * @param {string} variant
 * @param {string} position
 * @param {number[] | undefined} dice
 * @param {number} level 1..5
 * @returns {Promise<{ move: string, level: number }>}
 */
export const suggestMove = (variant, position, dice, level) =>
  request('POST', '/api/v1/analysis/suggest', { body: withDice({ variant, position, level }, dice) });

const TOKEN_PREFIX = 'ludus.token.';
const OPENED_PREFIX = 'ludus.opened.';

/**
 * @param {string} key
 * @returns {string | null}
 */
function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/**
 * @param {string} key
 * @param {string} value
 */
function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Private browsing without storage: the seat link in the page still works.
  }
}

/** @param {string} gameId */
export const savedToken = (gameId) => stored(TOKEN_PREFIX + gameId);

/**
 * Keeps a seat token the server has accepted for this game.
 * @param {string} gameId
 * @param {string} token
 */
export function saveToken(gameId, token) {
  store(TOKEN_PREFIX + gameId, token);
  markOpened(gameId);
}

/**
 * Forgets every seat this browser holds: signing out or deleting the account leaves nothing of
 * its games to whoever uses the browser next (a finished game's seat would still offer its
 * rematch, as the account). The account opens its games again when signed in.
 */
export function forgetAllSeats() {
  try {
    const prefixes = [TOKEN_PREFIX, OPENED_PREFIX, INVITE_PREFIX, ENTROPY_PREFIX];
    const keys = [];
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (key && prefixes.some((prefix) => key.startsWith(prefix))) keys.push(key);
    }
    keys.forEach((key) => localStorage.removeItem(key));
  } catch {
    // No storage: nothing was kept.
  }
}

/** @param {string} gameId */
export const markOpened = (gameId) => store(OPENED_PREFIX + gameId, String(Date.now()));

/**
 * The games this browser holds a seat in, most recently opened first.
 * @returns {{ gameId: string, token: string, opened: number }[]}
 */
export function savedSeats() {
  /** @type {{ gameId: string, token: string, opened: number }[]} */
  const seats = [];
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (!key || !key.startsWith(TOKEN_PREFIX)) continue;
      const gameId = key.slice(TOKEN_PREFIX.length);
      seats.push({ gameId, token: stored(key) || '', opened: Number(stored(OPENED_PREFIX + gameId)) || 0 });
    }
  } catch {
    return [];
  }
  return seats.sort((a, b) => b.opened - a.opened);
}

const INVITE_PREFIX = 'ludus.invite.';
const ENTROPY_PREFIX = 'ludus.entropy.';

/**
 * The entropy this browser sent for a dice game's seed, kept so that the game's record can show
 * it went in (static/js/game/fairness.js).
 * @param {string} gameId
 * @param {string} entropy
 */
export const saveEntropy = (gameId, entropy) => store(ENTROPY_PREFIX + gameId, entropy);

/** @param {string} gameId */
export const savedEntropy = (gameId) => stored(ENTROPY_PREFIX + gameId);

/** @param {string} gameId */
export const savedInvite = (gameId) => stored(INVITE_PREFIX + gameId);

/**
 * The game of an invite this browser created or joined, if it holds a seat there: opening the
 * link again opens that seat instead of redeeming the invite.
 * @param {string} invite
 * @returns {string | null}
 */
export function gameOfInvite(invite) {
  try {
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (!key || !key.startsWith(INVITE_PREFIX) || localStorage.getItem(key) !== invite) continue;
      const gameId = key.slice(INVITE_PREFIX.length);
      if (savedToken(gameId)) return gameId;
    }
  } catch {
    return null;
  }
  return null;
}

/**
 * @param {string} gameId
 * @param {string} invite
 */
export const saveInvite = (gameId, invite) => store(INVITE_PREFIX + gameId, invite);

/**
 * A remembered choice of this browser (board face, sound).
 * @param {string} name
 * @returns {string | null}
 */
export const preference = (name) => stored(`ludus.${name}`);

/**
 * @param {string} name
 * @param {string} value
 */
export const setPreference = (name, value) => store(`ludus.${name}`, value);

/**
 * A random string each player may contribute to the dice seed (docs/RULES.md §4).
 * @returns {string}
 */
export function entropy() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
