// The public JSON API of Ludus (API.md), as any third-party client would call it, and the
// seat tokens this browser keeps. Tokens live in localStorage keyed by game id.

export class ApiError extends Error {
  constructor(status, body) {
    const error = (body && body.error) || {};
    super(error.message || `HTTP ${status}`);
    this.status = status;
    this.code = error.code || 'http_error';
    this.reason = error.reason;
    this.body = error;
  }
}

async function request(method, path, { body, token } = {}) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

let variantsPromise = null;

/** The variants endpoint, fetched once per page load. */
export function variants() {
  if (!variantsPromise) {
    variantsPromise = request('GET', '/api/v1/variants').catch((e) => {
      variantsPromise = null;
      throw e;
    });
  }
  return variantsPromise;
}

export const createGame = (settings) => request('POST', '/api/v1/games', { body: settings });
export const joinInvite = (invite, entropy) =>
  request('POST', `/api/v1/invites/${encodeURIComponent(invite)}/join`, { body: entropy ? { entropy } : {} });
export const gameView = (id, token) => request('GET', `/api/v1/games/${encodeURIComponent(id)}`, { token });
export const playMove = (id, token, move, version, moveId) =>
  request('POST', `/api/v1/games/${encodeURIComponent(id)}/moves`, {
    token,
    body: { move, version, id: moveId },
  });

/** A suggested move for the side to move (computer and local games). */
export const gameHint = (id, token) => request('GET', `/api/v1/games/${encodeURIComponent(id)}/hint`, { token });

/** resign, draw, draw/decline, undo, abort, claim, rematch */
export const gameAction = (id, token, action) =>
  request('POST', `/api/v1/games/${encodeURIComponent(id)}/${action}`, { token, body: {} });

const withDice = (body, dice) => (dice && dice.length ? { ...body, dice } : body);

export const analysis = (variant, position, dice) =>
  request('POST', '/api/v1/analysis', { body: withDice({ variant, position }, dice) });

/** The analysis after `moves` from `position` (a 422 names the first illegal move). */
export const analysisPlay = (variant, position, dice, moves) =>
  request('POST', '/api/v1/analysis/play', { body: withDice({ variant, position, moves }, dice) });

/** The computer's move at `level` for a position given alone. */
export const suggestMove = (variant, position, dice, level) =>
  request('POST', '/api/v1/analysis/suggest', { body: withDice({ variant, position, level }, dice) });

const tokenKey = (gameId) => `ludus.token.${gameId}`;

export function savedToken(gameId) {
  try {
    return localStorage.getItem(tokenKey(gameId));
  } catch {
    return null;
  }
}

export function saveToken(gameId, token) {
  try {
    localStorage.setItem(tokenKey(gameId), token);
  } catch {
    // Private browsing without storage: the seat link in the page still works.
  }
}

/** A random string each player may contribute to the dice seed (RULES.md §4). */
export function entropy() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
