// @ts-check
// The signed-in account's event stream (GET /api/v1/stream/events), followed on every page, one
// stream a page load: a challenge to the player and the start of a game of theirs are told
// wherever they are (a challenger's clock runs from the accept, and they may be reading the
// rules); on the challenges page, where a challenger waits, the game opens. That page listens to
// the same stream for its lists.
import { accountEvents } from './api.js';
import { saveToken, gameView } from '../api.js';
import { html } from '../svg.js';
import { t } from '../i18n.js';
import { navigate } from '../router.js';

/** @typedef {{ type: string, [field: string]: any }} Notice */
/** @typedef {(notice: Notice) => void} Listener */

/** @type {Set<Listener>} */
const listeners = new Set();
let following = false;

/**
 * Calls `listener` with every notice of the stream until `signal` fires.
 * @param {Listener} listener
 * @param {AbortSignal} signal
 */
export function onNotice(listener, signal) {
  listeners.add(listener);
  signal.addEventListener('abort', () => listeners.delete(listener));
}

/**
 * Follows the account's stream for the rest of the page's life (once; a closed stream, signed
 * out, ends it), telling the site's notices and every listener.
 * @param {string} username the signed-in player
 */
export function followNotices(username) {
  if (following) return;
  following = true;
  accountEvents(new AbortController().signal, (notice) => {
    tell(notice, username);
    for (const listener of listeners) listener(notice);
  }).finally(() => {
    following = false;
  });
}

/**
 * Whether the game a `game_start` names is still to be played: a notice the stream kept for a
 * player who was away may name a game that has ended since.
 * @param {Notice} notice
 */
async function stillPlaying(notice) {
  const view = await gameView(notice.game_id, notice.seat.token).catch(() => null);
  return view !== null && (view.status === 'playing' || view.status === 'waiting');
}

/** The site's notices, between the header and the page, by what they are about. @type {Map<string, HTMLElement>} */
const shown = new Map();

/**
 * A challenge to the player, until answered or withdrawn; a game of theirs started (its seat
 * token kept, so that the link opens it as theirs).
 * @param {Notice} notice
 * @param {string} username
 */
async function tell(notice, username) {
  if (notice.type === 'challenge' && notice.challenger !== username) {
    show(notice.challenge_id, t('notices.challenge', { name: notice.challenger, variant: t(`variant.${notice.variant}`) }), '/challenges', t('notices.answer'));
  }
  if (notice.type === 'challenge_canceled' || notice.type === 'challenge_declined') drop(notice.challenge_id);
  if (notice.type === 'game_start') {
    drop(notice.challenge_id);
    saveToken(notice.game_id, notice.seat.token);
    const href = `/game/${encodeURIComponent(notice.game_id)}`;
    const playing = await stillPlaying(notice);
    if (playing && location.pathname === '/challenges') return navigate(href);
    show(notice.game_id, t(playing ? 'notices.started' : 'notices.ended'), href, t(playing ? 'notices.play' : 'notices.see'));
    if (playing) document.title = t('notices.started_title');
  }
}

/**
 * @param {string} key
 * @param {string} text
 * @param {string} href
 * @param {string} link
 */
function show(key, text, href, link) {
  const region = document.getElementById('site-notices');
  // The page it points to says it already.
  if (!region || location.pathname === href) return;
  drop(key);
  const item = html('p', { class: 'site-notice', 'data-notice': key }, [
    text, ' ',
    html('a', { href, text: link, onclick: () => drop(key) }),
  ]);
  shown.set(key, item);
  region.append(item);
}

/** @param {string} key */
function drop(key) {
  shown.get(key)?.remove();
  shown.delete(key);
}
