// @ts-check
// What the game screen says and offers, as pure functions of the game view (and of the few
// things only the page knows: a move still being sent, offers and refusals seen as events). The
// screen turns these into elements; tests call them directly.
import { sideName } from '../boards/index.js';
import { formatElapsed } from './clock.js';
import { t, terminationLabel, moveLabel } from '../i18n.js';
import { moveEnds } from '../svg.js';

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

/**
 * The side this page plays, or null for a spectator and for a local game's shared seat.
 * @param {GameView} view
 */
export const mySide = (view) => (view.seat && !view.seat.both ? view.seat.side : null);

/**
 * Whether the players may agree a draw: in Petteia, the one game without dice (docs/RULES.md).
 * @param {GameView} view
 */
const drawsByAgreement = (view) => view.dice === undefined;

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
      // On one screen (no side of one's own) a decline is the other person's, at the same screen.
      return { ...offers, declined: byOpponent || me === null ? 'draw' : null };
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
  draw: 'panel.declined_draw',
  undo: 'panel.declined_undo',
  rematch: 'panel.declined_rematch',
};

/**
 * One line of what the opponent asked or answered, or ''.
 * @param {GameView} view
 * @param {Offers} offers
 */
export function offerNote(view, offers) {
  if (!view.seat) return '';
  const me = mySide(view);
  const open = openOffers(view, offers);
  if (me && open.undo && open.undo !== me && view.status === 'playing') return t('panel.undo_asked');
  if (me && open.undo === me && view.status === 'playing') return t('panel.undo_waiting');
  if (me && open.rematch && open.rematch !== me && view.status === 'finished') return t('panel.rematch_offered');
  if (me && open.rematch === me && view.status === 'finished') return t('panel.rematch_waiting');
  if (offers.declined === 'draw' && view.seat.both) return t('panel.declined_draw_here');
  return offers.declined ? t(DECLINED[offers.declined]) : '';
}

/**
 * What a screen reader is told of a new event, or '' for nothing: a move other than this page's
 * own (whose sending it already heard), a roll, a takeback.
 * @param {GameView} view
 * @param {import('../api.js').GameEvent} event
 */
export function announcement(view, event) {
  const me = mySide(view);
  const both = Boolean(view.seat?.both);
  const side = event.side ? sideName(event.side) : '';
  // A pass or a decline the server played for this side is told too (its player made no move).
  if (event.kind === 'move' && event.move && event.automatic) return t('announce.automatic', { side, move: moveLabel(event.move) });
  if (event.kind === 'move' && event.move && (both || event.side !== me)) {
    // Declining is said as a sentence: "White plays decline" was read "Blanc joue refus".
    return event.move === 'decline' ? t('announce.declined', { side }) : t('announce.move', { side, move: moveLabel(event.move) });
  }
  if (event.kind === 'roll' && event.dice?.length) return t('announce.roll', { side, dice: event.dice.join(', ') });
  if (event.kind === 'undo') return t('announce.undo', { side });
  return '';
}

/** The ids of the buttons that answer an offer made to this player: a draw, a takeback, a rematch. */
export const OFFER_ANSWERS = ['draw-accept', 'draw-decline', 'undo-accept', 'undo-decline', 'rematch-accept', 'rematch-decline'];

/**
 * The status line while a move is on its way: a decline and a pass are said as what they are
 * ("Sending your move decline…" read as nonsense).
 * @param {string} move
 */
function sendingText(move) {
  const { special } = moveEnds(move);
  if (special === 'decline') return t('panel.sending_decline');
  if (special === 'pass') return t('panel.sending_pass');
  return t('panel.sending', { move: moveLabel(move) });
}

/**
 * The status line.
 * @param {GameView} view
 * @param {string | null} pendingMove a move sent and not yet acknowledged
 */
export function statusText(view, pendingMove = null) {
  const me = mySide(view);
  if (view.status === 'waiting') {
    if (view.mode !== 'online') return t('panel.waiting_start');
    // A spectator has no friend invited: the game waits for its second player.
    return t(view.seat ? 'invite.waiting' : 'invite.waiting_spectator');
  }
  if (view.status === 'aborted') return t('panel.aborted');
  if (view.status === 'finished') return endSummary(view)?.headline || t('error.game_over');
  if (pendingMove) return sendingText(pendingMove);
  const turn = sideName(view.to_move || '');
  let text;
  if (view.seat?.both) text = t('panel.to_move', { side: turn });
  else if (me && view.to_move === me) text = t('panel.your_move', { side: turn });
  else if (view.mode === 'computer' && me) text = t('panel.computer_thinking', { side: turn });
  else text = t('panel.to_move', { side: turn });
  if (view.draw_offer && view.draw_offer !== me) text += ` ${t('panel.draw_offered', { side: sideName(view.draw_offer) })}`;
  if (view.draw_offer && view.draw_offer === me) text += ` ${t('panel.draw_offered_by_you')}`;
  return text;
}

/**
 * The end of the game: the result in a few words, how it ended, and both in one sentence.
 * @param {GameView} view
 * @returns {{ result: string, how: string, headline: string } | null}
 */
export function endSummary(view) {
  if (view.status === 'aborted') return { result: t('panel.aborted_short'), how: t('panel.aborted_how'), headline: t('panel.aborted') };
  if (view.status !== 'finished' || !view.result) return null;
  const termination = view.result.termination;
  const how = terminationLabel(termination);
  const winner = view.result.winner;
  if (!winner) return { result: t('panel.draw'), how: t('panel.by', { how }), headline: t('panel.draw_by', { how }) };
  const me = mySide(view);
  let result = t('panel.wins', { side: sideName(winner) });
  if (me) result = winner === me ? t('panel.you_win') : t('panel.you_lose');
  const you = me ? ` — ${winner === me ? t('panel.you_win_lower') : t('panel.you_lose_lower')}` : '';
  return { result, how: t('panel.by', { how }), headline: `${t('panel.wins_by', { side: sideName(winner), how })}${you}.` };
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
    text: t('panel.disconnected', { elapsed: formatElapsed(now - since) }),
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
  return n === 1 ? t('panel.one_spectator') : t('panel.spectators', { n });
}

/**
 * The tab title: "Your turn" first when it is.
 * @param {GameView} view
 * @param {string} name the variant's name
 */
export function pageTitle(view, name) {
  return isMyTurn(view) ? t('panel.title_your_turn', { name }) : `Ludus — ${name}`;
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
  // Online, a die thrown is a die both have seen: the game has begun (the server refuses the abort).
  const diceSeen = view.mode === 'online' && view.status === 'playing' && 'dice' in view;
  // Against the computer, until the person's own first move (the computer may have opened): it
  // has a move to take back once it has made one.
  const notStarted = view.moves.length === 0 || (view.mode === 'computer' && view.can_take_back === false);
  if (notStarted && !diceSeen) buttons.push({ id: 'abort', label: t('action.abort'), action: 'abort' });
  if (view.status !== 'playing') return buttons;
  buttons.push(confirmingResign
    ? { id: 'resign', label: t('action.confirm_resign'), action: 'resign', confirm: true }
    : { id: 'resign', label: t('action.resign'), action: 'ask-resign' });
  // Online between the two seats; on one screen the side to move offers and the other person,
  // at the same screen, answers (`me` is nobody there).
  if (view.mode !== 'computer') {
    if (view.draw_offer && view.draw_offer !== me) {
      buttons.push({ id: 'draw-accept', label: t('action.accept_draw'), action: 'draw' }, { id: 'draw-decline', label: t('action.decline_draw'), action: 'draw/decline' });
    } else if (!view.draw_offer && drawsByAgreement(view) && offers.declined !== 'draw') {
      // A declined offer is made again only after a move (the server refuses it before).
      buttons.push({ id: 'draw', label: t('action.offer_draw'), action: 'draw' });
    }
  }
  if (view.mode === 'online') {
    const undo = openOffers(view, offers).undo;
    if (undo && undo !== me) {
      buttons.push({ id: 'undo-accept', label: t('action.accept_undo'), action: 'undo/accept' }, { id: 'undo-decline', label: t('action.decline_undo'), action: 'undo/decline' });
    } else if (!undo && view.can_take_back) buttons.push({ id: 'undo', label: t('action.ask_undo'), action: 'undo' });
    // Before the game has begun for both, the claim aborts it: the button says so.
    if (presence(view, now, awaySeenAt)?.claimAllowed) buttons.push({ id: 'claim', label: t(view.claim_aborts ? 'action.claim_abort' : 'action.claim'), action: 'claim' });
  } else {
    if (view.can_take_back) buttons.push({ id: 'undo', label: t('action.undo'), action: 'undo' });
    if ((view.legal_moves || []).length) buttons.push({ id: 'hint', label: t('action.hint'), action: 'hint' });
  }
  // The answers to an offer first, before the buttons that end the game: first in the Tab order
  // and on a short screen (a sideways phone had Accept below the window).
  const answers = (/** @type {ActionButton} */ b) => OFFER_ANSWERS.includes(b.id);
  return [...buttons.filter(answers), ...buttons.filter((b) => !answers(b))];
}

/**
 * The end panel's rematch buttons: offer, accept or decline, or open the rematch already made.
 * @param {GameView} view
 * @param {Offers} offers
 * @returns {ActionButton[]}
 */
export function rematchButtons(view, offers) {
  if (view.status !== 'finished') return [];
  // A spectator follows the players to their rematch (API.md lists no rematch: this is the way).
  if (!view.seat) return view.rematch ? [{ id: 'go-rematch', label: t('action.watch_rematch'), action: 'open-rematch' }] : [];
  if (view.rematch) return [{ id: 'go-rematch', label: t('action.play_rematch'), action: 'open-rematch' }];
  const me = mySide(view);
  const offer = openOffers(view, offers).rematch;
  if (offer && offer !== me) {
    return [{ id: 'rematch-accept', label: t('action.accept_rematch'), action: 'rematch' }, { id: 'rematch-decline', label: t('action.decline'), action: 'rematch/decline' }];
  }
  if (offer && offer === me) return [];
  return [{ id: 'rematch', label: t('action.rematch'), action: 'rematch' }];
}

/** @typedef {{ side: string, dice: number[] }} Roll */

/**
 * The dice box's words for a roll none of whose dice could be played: whose roll, its dice, and
 * that the opponent has them as bonus dice (docs/RULES.md §3.2). `roll` is the game's latest roll
 * while no move of its side has followed it; a roll whose side is still to move is being played.
 * @param {GameView} view
 * @param {Roll | null} roll
 * @returns {string | null}
 */
export function unplayableRollText(view, roll) {
  if (!roll || view.status !== 'playing' || !view.to_move || roll.side === view.to_move) return null;
  return t('game.roll_unplayable', { side: sideName(roll.side), dice: roll.dice.join(', '), other: sideName(view.to_move) });
}

/**
 * What the check of a finished game's dice found (static/js/game/fairness.js), in words.
 * @param {import('./fairness.js').Checked} checked
 */
export function diceCheckText(checked) {
  if (!checked.ok) {
    const params = { ...checked.params };
    for (const key of ['stated', 'drawn']) if (typeof params[key] === 'string') params[key] = sideName(String(params[key]));
    return t('fair.failed', { why: t(`fair.${checked.problem}`, params) });
  }
  const parts = [t(checked.rolls ? 'fair.checked' : 'fair.checked_none', { dice: checked.dice, n: checked.rolls })];
  if (checked.first) parts.push(t('fair.drawn_first', { side: sideName(checked.first) }));
  if (checked.yours) parts.push(t(`fair.yours_${checked.yours.role}`, { entropy: checked.yours.entropy }));
  return parts.join(' ');
}

/**
 * The label of the bonus dice: they are the side to move's, left by its opponent.
 * @param {GameView} view
 */
export function bonusLabel(view) {
  const side = view.to_move || view.sides[0];
  const other = view.sides.find((s) => s !== side) || side;
  // What to do with them is for the one who plays them; the opponent and a spectator are told
  // whose they are.
  const holder = Boolean(view.seat) && (view.seat?.both || mySide(view) === side);
  return t(holder ? 'game.bonus_of' : 'game.bonus_of_watched', { side: sideName(side), other: sideName(other) });
}

/**
 * The label an opponent's clock adds for the computer: its level when the view gives it.
 * @param {GameView} view
 */
export const computerLabel = (view) => (view.level ? t('game.computer_level', { level: view.level }) : t('game.computer'));

/**
 * The words of a button for one of several moves between the same two places: in the dice games
 * they differ by their die, which the button names first ('Play the 5 (5:B11-O)').
 * @param {string} move
 */
export function choiceLabel(move) {
  const die = /^([1-6]):/.exec(move)?.[1];
  return die ? t('game.play_die', { die, move }) : t('game.play', { move });
}
