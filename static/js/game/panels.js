// @ts-check
// What the game screen says and offers, as pure functions of the game view (and of the few
// things only the page knows: a move still being sent, offers and refusals seen as events). The
// screen turns these into elements; tests call them directly.
import { sideName } from '../boards/index.js';
import { formatElapsed } from './clock.js';

/** @typedef {import('../api.js').GameView} GameView */
/** @typedef {import('../api.js').GameEvent} GameEvent */

/**
 * Offers the opponent made and answers they gave, as events tell them (the view's own fields win
 * when the server sends them).
 * @typedef {{ undoOffer: string | null, rematchOffer: string | null,
 *   declined: 'draw' | 'undo' | 'rematch' | null }} Offers
 */

/** @type {Offers} */
export const NO_OFFERS = { undoOffer: null, rematchOffer: null, declined: null };

/**
 * @typedef {'abort' | 'resign' | 'draw' | 'draw/decline' | 'undo' | 'undo/accept' | 'undo/decline'
 *   | 'claim' | 'rematch' | 'rematch/decline'} GameAction
 * @typedef {{ id: string, label: string, action: GameAction | 'ask-resign' | 'hint' | 'open-rematch',
 *   confirm?: boolean }} ActionButton
 */

/** @type {Record<string, string>} */
export const TERMINATIONS = {
  reduction: 'reduction (one piece or none left)',
  blockade: 'blockade (no move left)',
  repetition: 'threefold repetition',
  'no-capture': '100 plies without a capture',
  gathered: 'gathering all five counters',
  exchange: 'exchange of setup points',
  'borne-off': 'bearing off all fifteen',
  'move-limit': 'the move limit (a safety cap, not a historical rule)',
  timeout: 'time',
  resignation: 'resignation',
  agreement: 'agreement',
  abandoned: 'abandonment',
};

/**
 * The side this page plays, or null for a spectator and for a local game's shared seat.
 * @param {GameView} view
 */
export const mySide = (view) => (view.seat && !view.seat.both ? view.seat.side : null);

/**
 * @param {GameView} view
 */
export const isMyTurn = (view) => view.status === 'playing' && mySide(view) !== null && view.to_move === mySide(view);

/**
 * @param {Offers} offers
 * @param {GameEvent} event
 * @param {string | null} me
 * @returns {Offers}
 */
export function noteEvent(offers, event, me) {
  const byOpponent = me !== null && event.side !== undefined && event.side !== me;
  switch (event.kind) {
    case 'undo_offered':
      return { ...offers, undoOffer: event.side || null, declined: null };
    case 'undo_declined':
      return { ...offers, undoOffer: null, declined: byOpponent ? 'undo' : null };
    case 'rematch_offered':
      return { ...offers, rematchOffer: event.side || null, declined: null };
    case 'rematch_declined':
      return { ...offers, rematchOffer: null, declined: byOpponent ? 'rematch' : null };
    case 'draw_declined':
      return { ...offers, declined: byOpponent ? 'draw' : null };
    case 'draw_offered':
      return { ...offers, declined: null };
    case 'move':
    case 'undo':
      return { ...offers, undoOffer: null, declined: null };
    default:
      return offers;
  }
}

/**
 * The open takeback and rematch offers: the view's fields when it has them, else the events'.
 * @param {GameView} view
 * @param {Offers} offers
 */
export function openOffers(view, offers) {
  return {
    undo: view.undo_offer !== undefined ? view.undo_offer : offers.undoOffer,
    rematch: view.rematch_offer !== undefined ? view.rematch_offer : offers.rematchOffer,
  };
}

/** @type {Record<'draw' | 'undo' | 'rematch', string>} */
const DECLINED = {
  draw: 'Your opponent declined your draw offer.',
  undo: 'Your opponent declined your takeback request.',
  rematch: 'Your opponent declined the rematch.',
};

/**
 * One line of what the opponent asked or answered, or ''.
 * @param {GameView} view
 * @param {Offers} offers
 */
export function offerNote(view, offers) {
  const me = mySide(view);
  const open = openOffers(view, offers);
  if (me && open.undo && open.undo !== me && view.status === 'playing') return 'Your opponent asks to take back their last move.';
  if (me && open.undo === me && view.status === 'playing') return 'You asked to take back your last move; waiting for the answer.';
  if (me && open.rematch && open.rematch !== me && view.status === 'finished') return 'Your opponent offers a rematch.';
  if (me && open.rematch === me && view.status === 'finished') return 'You offered a rematch; waiting for the answer.';
  return offers.declined ? DECLINED[offers.declined] : '';
}

/**
 * The status line.
 * @param {GameView} view
 * @param {string | null} pendingMove a move sent and not yet acknowledged
 */
export function statusText(view, pendingMove = null) {
  const me = mySide(view);
  if (view.status === 'waiting') return view.mode === 'online' ? 'Waiting for your friend to join…' : 'Waiting to start…';
  if (view.status === 'aborted') return 'The game was aborted.';
  if (view.status === 'finished') return endSummary(view)?.headline || 'The game is over.';
  if (pendingMove) return `Sending your move ${pendingMove}…`;
  const turn = sideName(view.to_move || '');
  let text;
  if (view.seat?.both) text = `${turn} to move.`;
  else if (me && view.to_move === me) text = `Your move (${turn}).`;
  else if (view.mode === 'computer' && me) text = `The computer is thinking (${turn})…`;
  else text = `${turn} to move.`;
  if (view.draw_offer && view.draw_offer !== me) text += ` ${sideName(view.draw_offer)} offers a draw.`;
  if (view.draw_offer && view.draw_offer === me) text += ' You offered a draw.';
  return text;
}

/**
 * The end of the game: the result in a few words, how it ended, and both in one sentence.
 * @param {GameView} view
 * @returns {{ result: string, how: string, headline: string } | null}
 */
export function endSummary(view) {
  if (view.status === 'aborted') return { result: 'Aborted', how: 'Ended before the first move.', headline: 'The game was aborted.' };
  if (view.status !== 'finished' || !view.result) return null;
  const termination = view.result.termination;
  const how = TERMINATIONS[termination] || termination;
  const winner = view.result.winner;
  if (!winner) return { result: 'Draw', how: `By ${how}.`, headline: `Draw by ${how}.` };
  const me = mySide(view);
  let result = `${sideName(winner)} wins`;
  if (me) result = winner === me ? 'You win' : 'You lose';
  const you = me ? (winner === me ? ' — you win' : ' — you lose') : '';
  return { result, how: `By ${how}.`, headline: `${sideName(winner)} wins by ${how}${you}.` };
}

/**
 * The opponent's absence: how long, and whether a claim is allowed now.
 * @param {GameView} view
 * @param {number} now epoch ms
 * @param {number} awaySeenAt when this page first saw them away (when the server does not say)
 * @returns {{ text: string, claimAllowed: boolean } | null}
 */
export function presence(view, now, awaySeenAt) {
  if (view.mode !== 'online' || view.status !== 'playing' || !mySide(view) || view.opponent_connected !== false) return null;
  const since = view.opponent_away_since ?? awaySeenAt;
  const claimAt = view.claim_allowed_at;
  return {
    text: `Opponent disconnected ${formatElapsed(now - since)}`,
    claimAllowed: claimAt === undefined || claimAt === null || now >= claimAt,
  };
}

/**
 * How many watch, for the players.
 * @param {GameView} view
 */
export function spectatorText(view) {
  const n = view.spectators || 0;
  if (!n) return '';
  return n === 1 ? '1 spectator watching' : `${n} spectators watching`;
}

/**
 * The tab title: "Your turn" first when it is.
 * @param {GameView} view
 * @param {string} name the variant's name
 */
export function pageTitle(view, name) {
  return isMyTurn(view) ? `Your turn — ${name} — Ludus` : `Ludus — ${name}`;
}

/**
 * The buttons under the board while the game runs (the end panel has its own).
 * @param {GameView} view
 * @param {{ offers: Offers, confirmingResign: boolean, now: number, awaySeenAt: number }} state
 * @returns {ActionButton[]}
 */
export function playButtons(view, { offers, confirmingResign, now, awaySeenAt }) {
  if (!view.seat || (view.status !== 'playing' && view.status !== 'waiting')) return [];
  /** @type {ActionButton[]} */
  const buttons = [];
  const me = mySide(view);
  if (view.moves.length === 0) buttons.push({ id: 'abort', label: 'Abort', action: 'abort' });
  if (view.status !== 'playing') return buttons;
  buttons.push(confirmingResign
    ? { id: 'resign', label: 'Confirm resign', action: 'resign', confirm: true }
    : { id: 'resign', label: 'Resign', action: 'ask-resign' });
  if (view.mode === 'online') {
    if (view.draw_offer && view.draw_offer !== me) {
      buttons.push({ id: 'draw-accept', label: 'Accept draw', action: 'draw' }, { id: 'draw-decline', label: 'Decline draw', action: 'draw/decline' });
    } else if (!view.draw_offer) buttons.push({ id: 'draw', label: 'Offer a draw', action: 'draw' });
    const undo = openOffers(view, offers).undo;
    if (undo && undo !== me) {
      buttons.push({ id: 'undo-accept', label: 'Accept takeback', action: 'undo/accept' }, { id: 'undo-decline', label: 'Decline takeback', action: 'undo/decline' });
    } else if (!undo && view.moves.length) buttons.push({ id: 'undo', label: 'Ask to take back', action: 'undo' });
    if (presence(view, now, awaySeenAt)?.claimAllowed) buttons.push({ id: 'claim', label: 'Claim the game', action: 'claim' });
  } else {
    if (view.moves.length) buttons.push({ id: 'undo', label: 'Undo', action: 'undo' });
    if ((view.legal_moves || []).length) buttons.push({ id: 'hint', label: 'Hint', action: 'hint' });
  }
  return buttons;
}

/**
 * The end panel's rematch buttons: offer, accept or decline, or open the rematch already made.
 * @param {GameView} view
 * @param {Offers} offers
 * @returns {ActionButton[]}
 */
export function rematchButtons(view, offers) {
  if (!view.seat || view.status !== 'finished') return [];
  if (view.rematch) return [{ id: 'go-rematch', label: 'Play the rematch', action: 'open-rematch' }];
  const me = mySide(view);
  const offer = openOffers(view, offers).rematch;
  if (offer && offer !== me) {
    return [{ id: 'rematch-accept', label: 'Accept rematch', action: 'rematch' }, { id: 'rematch-decline', label: 'Decline', action: 'rematch/decline' }];
  }
  if (offer === me) return [];
  return [{ id: 'rematch', label: 'Rematch', action: 'rematch' }];
}
