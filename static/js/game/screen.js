// @ts-check
// The game screen: wires the board and its input, the clocks, the panels and the connection. The
// game's state comes only from the server (socket events, or the answer to an action); this
// module decides where things go on the page, the panels module what they say.
import {
  gameView, gameEvents, gameAction, gameHint, joinInvite, savedToken, saveToken, markOpened, analysis,
  variants, entropy, savedInvite, saveInvite, gameOfInvite, preference, setPreference, saveEntropy, savedEntropy,
  gameRecord,
} from '../api.js';
import { GameConnection } from '../connection.js';
import { html, keepInView, moveEnds } from '../svg.js';
import { boardFor, sideName, takenSentence } from '../boards/index.js';
import { seatLabels } from '../accounts/api.js';
import { FACES, pips } from '../boards/duodecim.js';
import { landFocus, navigate } from '../router.js';
import { showNotFound } from '../notfound.js';
import { BoardInput } from './input.js';
import { clockReading, formatClock } from './clock.js';
import { pairedTurns, diceTurns, turnWords } from './moves.js';
import { mountReview } from '../review.js';
import {
  NO_OFFERS, noteEvent, offerNote, statusText, endSummary, presence, spectatorText, pageTitle, unplayableRollText, bonusLabel, computerLabel, choiceLabel,
  playButtons, rematchButtons, mySide, diceCheckText, announcement, OFFER_ANSWERS,
} from './panels.js';
import { checkRecord } from './fairness.js';
import { invitePanel } from './invite.js';
import { die, diceOfTurn } from './dice.js';
import { playMoveSound, soundOn, setSound } from './sound.js';
import { t, errorMessage, moveLabel, decimalMark } from '../i18n.js';

/** @typedef {import('../api.js').GameView} GameView */
/** @typedef {import('../api.js').GameEvent} GameEvent */
/** @typedef {import('./panels.js').ActionButton} ActionButton */

/** The threats switch's texts: a player's are about their own pieces, a spectator's about both sides'. */
const THREAT_TEXTS = {
  player: { label: 'game.show_threats', none: 'game.threatened_none', one: 'game.threatened_one', many: 'game.threatened_n' },
  watching: { label: 'game.show_threats_watching', none: 'game.threatened_none_watching', one: 'game.threatened_one_watching', many: 'game.threatened_n_watching' },
};

/** The buttons that answer an offer made to this player, as a selector. */
const OFFER_ANSWERING = OFFER_ANSWERS.map((id) => `#${id}`).join(', ');

/** @param {GameView} view */
const threatTexts = (view) => (view.seat ? THREAT_TEXTS.player : THREAT_TEXTS.watching);

/** What a join's refusals mean to the person who opened the link (the server's words name no invite). */
const JOIN_REFUSALS = /** @type {Record<string, string>} */ ({
  not_found: 'game.invite_unknown',
  game_over: 'game.invite_called_off',
});

/**
 * `/join/<invite>`: take the seat, or open the one this browser already holds in that game (the
 * creator opening their own link, the friend opening it again).
 * @param {HTMLElement} app
 * @param {string} invite
 */
export async function joinAndShow(app, invite) {
  const known = gameOfInvite(invite);
  if (known) {
    navigate(`/game/${encodeURIComponent(known)}`, { replace: true });
    return;
  }
  app.append(html('p', { class: 'status-line', role: 'status', text: t('game.joining') }));
  try {
    const mine = entropy();
    const joined = await joinInvite(invite, mine);
    saveToken(joined.game_id, joined.seat.token);
    saveEntropy(joined.game_id, mine);
    saveInvite(joined.game_id, invite);
    navigate(`/game/${encodeURIComponent(joined.game_id)}`, { replace: true });
  } catch (error) {
    const refusal = /** @type {import('../api.js').ApiError} */ (error);
    // A taken seat names its game: whoever holds the invite may watch it (and a player who
    // joined on another device learns where their seat link is).
    const taken = refusal.code === 'seat_taken' && typeof refusal.body.game_id === 'string';
    // A signed-in player opening its own game's invite (on another device) goes to its seat.
    const own = taken && await gameView(refusal.body.game_id, null).then((view) => Boolean(view.seat), () => false);
    if (own) {
      navigate(`/game/${encodeURIComponent(refusal.body.game_id)}`, { replace: true });
      return;
    }
    const refused = JOIN_REFUSALS[refusal.code];
    document.title = `Ludus — ${t('game.cannot_join')}`;
    app.replaceChildren(
      html('h1', { text: t('game.cannot_join') }),
      html('p', { class: 'error', role: 'alert', text: refused ? t(refused) : errorMessage(refusal) }),
      ...(taken ? [
        html('p', { text: t('game.seat_taken_elsewhere') }),
        html('p', {}, [html('a', { class: 'button-link', href: `/game/${encodeURIComponent(refusal.body.game_id)}`, text: t('game.watch_instead') })]),
      ] : []),
      html('p', {}, [html('a', { href: '/', text: t('notfound.new') })]),
    );
  }
}

/**
 * The seat token to play with and the view it gives. A token from a `#token=` link is kept only
 * when the server accepts it; otherwise the saved one stays.
 * @param {string} gameId
 * @returns {Promise<{ token: string | null, view: GameView, linkNote: string }>}
 */
async function openSeat(gameId) {
  const linkToken = new URLSearchParams(location.hash.slice(1)).get('token');
  if (linkToken) history.replaceState(null, '', location.pathname + location.search);
  const saved = savedToken(gameId);
  if (linkToken && linkToken !== saved) {
    const view = await gameView(gameId, linkToken).catch(() => null);
    if (view && view.seat) {
      saveToken(gameId, linkToken);
      return { token: linkToken, view, linkNote: t('game.link_note') };
    }
    const view2 = await gameView(gameId, saved);
    return { token: saved, view: view2, linkNote: saved ? t('game.link_invalid_kept') : t('game.link_invalid_watching') };
  }
  const view = await gameView(gameId, saved);
  if (saved) markOpened(gameId);
  return { token: saved, view, linkNote: '' };
}

/**
 * `/game/<id>`.
 * @param {HTMLElement} app
 * @param {string} gameId
 * @param {AbortSignal} signal fires when the page leaves the game
 */
export async function showGame(app, gameId, signal) {
  let seat;
  try {
    seat = await openSeat(gameId);
  } catch (error) {
    const refusal = /** @type {import('../api.js').ApiError} */ (error);
    if (!signal.aborted) showNotFound(app, refusal.status === 404 || refusal.status === 400 ? t('game.no_game') : errorMessage(refusal));
    return;
  }
  const list = await variants().catch(() => []);
  if (signal.aborted) return;
  const screen = new GameScreen(app, gameId, seat.token, seat.view, list.find((v) => v.id === seat.view.variant), seat.linkNote);
  signal.addEventListener('abort', () => screen.destroy());
  const review = mountReview(app, { gameId, view: () => screen.view, bottom: seat.view.seat ? seat.view.seat.bottom : undefined });
  screen.movesChanged = review.movesChanged;
}

/**
 * A turn's words, each kept whole on its line (a move broke at its hyphen: "6:B10-" then "O"),
 * the line breaking only between them; a roll's die faces marked, to be drawn larger than text.
 * @param {string[]} words
 * @returns {(HTMLElement | string)[]}
 */
const unbroken = (words) => words.flatMap((word, i) => [
  ...(i ? [' '] : []),
  html('span', { class: /^[⚀-⚅]+$/u.test(word) ? 'word roll' : 'word', text: word }),
]);

/**
 * Writes `text` into `line` only when it differs: the panels are redrawn at every event, and a
 * live region rewritten with the same words is read out again.
 * @param {HTMLElement} line
 * @param {string} text
 */
function writeIfChanged(line, text) {
  if (line.textContent !== text) line.textContent = text;
}

/**
 * Replaces `container`'s children, keeping the keyboard focus on the control it was on: the one
 * with the same id or move after the redraw (Resign become Confirm resign), else `fallback` (the
 * button pressed went away). The panels are redrawn at every event, and focus dropped to the
 * page's body would lose a keyboard or screen-reader user's place. The fallback is no other
 * control: the first one of the actions is Resign or Abort, and a second Enter after Undo
 * aborted the game (a keyboard audit).
 * @param {HTMLElement} container
 * @param {Node[]} children
 * @param {() => HTMLElement} fallback an element that does nothing when pressed (`GameScreen.resting`)
 */
function replaceKeepingFocus(container, children, fallback) {
  const had = document.activeElement instanceof HTMLElement && container.contains(document.activeElement) ? document.activeElement : null;
  container.replaceChildren(...children);
  if (!had) return;
  const same = had.id ? `#${CSS.escape(had.id)}` : had.dataset.move ? `[data-move="${CSS.escape(had.dataset.move)}"]` : null;
  const again = same && container.querySelector(same);
  (again instanceof HTMLElement ? again : fallback()).focus({ preventScroll: true });
}

class GameScreen {
  /**
   * @param {HTMLElement} app
   * @param {string} gameId
   * @param {string | null} token
   * @param {GameView} view
   * @param {import('../api.js').Variant | undefined} variant
   * @param {string} linkNote
   */
  constructor(app, gameId, token, view, variant, linkNote) {
    this.app = app;
    this.gameId = gameId;
    this.token = token;
    this.name = t(`variant.${view.variant}`);
    this.board = boardFor(view.variant);
    this.view = view;
    /** @type {Map<number, GameEvent>} the events by version: the dice games' move list */
    this.log = new Map();
    this.offers = NO_OFFERS;
    /** Told when moves are played or taken back (the review panel follows the game). */
    this.movesChanged = () => {};
    /** Whether this page saw the server abort the game because its invite expired unused. */
    this.inviteExpired = false;
    /** @type {string | null} the side whose time ran out before they came, if this page saw the server abort the game for it */
    this.absentSide = null;
    this.threatsOn = false;
    /** @type {{ places: string[], odds: any } | null} */
    this.threats = null;
    this.face = preference('face') || 'virtvs';
    this.message = '';
    this.rolling = false;
    /** Whether the board is drawn from the other side than its own (the Flip option). */
    this.flipped = false;
    /** On one screen: the board turns to the side to move (a remembered choice). */
    this.turnsToMover = preference('turn_board') === 'on';
    /** @type {import('./panels.js').Roll | null} the latest roll, until a move of its side */
    this.latestRoll = null;
    /** A missed `clocks_paused` (the server restarted): said once the socket is back. */
    this.clocksWerePaused = false;
    /** @type {number | null} */
    this.resignAsked = null;
    /** @type {import('../connection.js').PendingMove | null} */
    this.pending = null;
    this.receivedAt = performance.now();
    /** When the socket's link was lost, while it is being made again. @type {number | null} */
    this.lostAt = null;
    this.awaySeenAt = Date.now();
    this.claimShown = false;
    /** @type {Record<string, string>} each account-held side's player: "Ann (1662)" */
    this.players = {};
    /** Beside the title: "Rated" or "Unrated" (`loadPlayers`). */
    this.terms = html('span', { class: 'game-terms', id: 'game-terms' });
    this.loadPlayers();
    /** Whether the first view has been drawn. */
    this.shown = false;
    this.announcedAt = 0;
    // The page: the board column with its clocks, and the side panel.
    document.title = `Ludus — ${this.name}`;
    this.heading = html('h1', { class: 'game-title', text: this.name });
    // Beside the title, the rules of the game being played, in a tab of their own (the game stays
    // open); on the title's line, so the board keeps its height.
    const head = html('div', { class: 'game-head' }, [this.heading, html('a', {
      href: `/rules/${encodeURIComponent(view.variant)}`, id: 'rules-link', class: 'rules-link', target: '_blank', rel: 'noopener',
      text: t('nav.rules'), 'aria-label': t('rules.title', { name: this.name }),
    }), this.terms]);
    this.notice = html('div', { class: 'notices' });
    if (linkNote) this.notice.append(html('p', { class: 'notice', role: 'note', text: linkNote }));
    // Not a live region: it counts every second, which a screen reader would read out each time.
    this.awayLine = html('p', { class: 'notice opponent-gone', hidden: true });
    // Not a live region either: its news is said once by the announcer (`sayIfNew`).
    this.offerLine = html('p', { class: 'notice offer-note', hidden: true });
    this.notice.append(this.awayLine, this.offerLine);
    this.invitePanel = html('section', { class: 'invite', 'aria-label': t('game.invitation'), hidden: true });
    this.topClock = html('div', { class: 'clock clock-top' });
    this.bottomClock = html('div', { class: 'clock clock-bottom' });
    this.boardHolder = html('div', { class: 'board-holder' });
    this.choices = html('div', { class: 'choices', 'aria-label': t('game.choices') });
    this.status = html('p', { class: 'status-line', id: 'status', role: 'status', 'aria-live': 'polite', tabindex: '-1' });
    // What happened, for a screen reader: the other side's moves, the rolls, a takeback, a clock
    // running low (the status line says only whose turn it is). Seen by no one else.
    this.announcer = html('p', { class: 'visually-hidden', id: 'announcer', 'aria-live': 'polite' });
    this.boardKeys = html('p', { class: 'visually-hidden', id: 'board-keys', text: t('game.board_keys') });
    /** What each panel line said last (`sayIfNew`). @type {Record<string, string>} */
    this.lastSaid = {};
    /** The sides whose clock was said to run low, once each. @type {Set<string>} */
    this.lowTold = new Set();
    this.errorLine = html('p', { class: 'refusal', role: 'alert' });
    // A hint is no refusal: said politely, and drawn as the status is.
    // No live region: a hint is said once by the announcer (rewritten at each redraw, a live
    // region read it again at every piece picked up).
    this.hintLine = html('p', { class: 'hint-line' });
    this.hint = '';
    this.endPanel = html('section', { class: 'end-panel', 'aria-label': t('game.result'), hidden: true });
    this.diceBox = html('div', { class: 'dice', 'aria-label': t('game.dice') });
    this.actions = html('div', { class: 'actions' });
    /** Against the computer, a signed-in player is told before the help what it costs. */
    this.helpNote = html('p', { class: 'help-note', id: 'help-note', hidden: true });
    // Focusable: a list longer than its box scrolls, and a keyboard scrolls only what it can reach.
    this.moveList = html('ol', { class: 'move-list', 'aria-label': t('game.moves'), tabindex: '0' });
    this.connectionLine = html('p', { class: 'connection' });
    this.spectators = html('p', { class: 'spectators' });
    this.threatInfo = html('p', { class: 'threat-info', role: 'status' });
    this.fairness = /** @type {HTMLDetailsElement} */ (html('details', { class: 'fairness', hidden: true }));
    // The dice check's line: filled when the panel is opened after the end (it fetches the record).
    this.diceCheck = html('p', { class: 'dice-check', role: 'status' });
    this.diceChecked = false;
    this.seedDrawsFirst = variant?.first === 'seed';
    /** The entropy this browser sent for the game, if it kept it (read once: it never changes). */
    this.mine = savedEntropy(gameId);
    this.fairness.addEventListener('toggle', () => this.checkDice());
    this.panel = html('aside', { class: 'side-panel' }, [
      this.notice, this.status, this.announcer, this.boardKeys, this.errorLine, this.hintLine, this.endPanel, this.diceBox, this.choices, this.actions, this.helpNote, this.options(), this.fairness,
      html('h2', { text: t('game.moves') }), this.moveList, this.connectionLine, this.spectators,
    ]);
    const play = html('div', { class: 'play' }, [html('div', { class: 'board-column' }, [this.topClock, this.boardHolder, this.bottomClock]), this.panel]);
    this.root = html('section', { class: 'game', 'data-game-id': this.gameId }, [head, this.invitePanel, play]);
    this.app.append(this.root);
    this.input = new BoardInput(this.boardHolder, {
      legal: () => this.legal(),
      redraw: () => this.draw(),
      play: (move) => this.play(move),
      choose: (moves) => {
        const first = [...this.choices.querySelectorAll('.move-choice')].find((b) => moves.includes(/** @type {HTMLElement} */ (b).dataset.move ?? ''));
        /** @type {HTMLElement | undefined} */ (first)?.focus();
      },
    });
    this.update(view);
    // Arrived by "Start the game", a join or a rematch: the status says where the game stands.
    landFocus(this.status);
    this.connection = new GameConnection(gameId, token, {
      onView: (v) => this.update(v),
      onEvent: (event) => this.noteEvent(event),
      onState: (state) => this.connectionState(state),
      onPending: (pending) => {
        this.pending = pending;
        this.draw();
      },
      onError: (error) => this.refused(error),
    });
    if ('dice' in view) this.loadLog();
    this.ticker = setInterval(() => this.tick(), 100);
  }

  destroy() {
    clearInterval(this.ticker);
    this.connection.close();
  }

  /**
   * Who holds the seats (the clocks show the names at their next tick). A joiner's account is
   * stored with the join itself, so asking once when the `joined` event arrives finds it.
   */
  async loadPlayers() {
    const { labels, rated } = await seatLabels(this.gameId);
    this.players = labels;
    // Whether the game counts for the ratings, once it is played and an account holds a seat
    // (a game between two people without accounts counts for no one, which goes without saying).
    const told = this.view.mode === 'online' && this.view.status !== 'waiting' && Object.keys(labels).length > 0;
    this.terms.textContent = told ? t(rated ? 'game.rated' : 'game.unrated') : '';
  }

  /** The game's past events, for the dice games' move list by turn. */
  async loadLog() {
    try {
      for (const event of await gameEvents(this.gameId, 0)) if (event.version !== undefined) this.log.set(event.version, event);
      this.draw();
    } catch {
      // The list falls back to one line per move.
    }
  }

  /** The side drawn at the bottom: the seat's own (a spectator's, the first side; on one screen
   * turned to the side to move, when the players ask), or the other one once the board is flipped. */
  bottomSide() {
    const v = this.view;
    const own = (v.seat?.both && this.turnsToMover && v.to_move) || (v.seat ? v.seat.bottom : v.sides[0]);
    return this.flipped ? v.sides.find((s) => s !== own) || own : own;
  }

  /** The player's switches: threats, sound, the board's side, the Duodecim board face, the seat link. */
  options() {
    const flip = /** @type {HTMLInputElement} */ (html('input', { type: 'checkbox', id: 'flip' }));
    flip.addEventListener('change', () => {
      this.flipped = flip.checked;
      this.draw();
    });
    const threats = /** @type {HTMLInputElement} */ (html('input', { type: 'checkbox', id: 'threats' }));
    threats.addEventListener('change', () => {
      this.threatsOn = threats.checked;
      this.refreshThreats();
    });
    const sound = /** @type {HTMLInputElement} */ (html('input', { type: 'checkbox', id: 'sound', checked: soundOn() || undefined }));
    sound.addEventListener('change', () => setSound(sound.checked));
    const options = html('div', { class: 'options' }, [
      html('label', { for: 'threats', class: 'toggle' }, [threats, html('span', { text: t(threatTexts(this.view).label) })]),
      this.threatInfo,
      html('label', { for: 'sound', class: 'toggle' }, [sound, html('span', { text: t('game.sound') })]),
      html('label', { for: 'flip', class: 'toggle' }, [flip, html('span', { text: t('game.flip') })]),
    ]);
    // On one screen passed between players, or two facing each other across it.
    if (this.view.seat?.both) {
      const turn = /** @type {HTMLInputElement} */ (html('input', { type: 'checkbox', id: 'turn-board', checked: this.turnsToMover || undefined }));
      turn.addEventListener('change', () => {
        this.turnsToMover = turn.checked;
        setPreference('turn_board', turn.checked ? 'on' : 'off');
        this.draw();
      });
      options.append(html('label', { for: 'turn-board', class: 'toggle' }, [turn, html('span', { text: t('game.turn_board') })]));
    }
    if ('FACES' in this.board) {
      const select = /** @type {HTMLSelectElement} */ (html('select', { id: 'face' },
        Object.keys(FACES).map((key) => html('option', { value: key, text: t(`face.${key}`), selected: key === this.face || undefined }))));
      select.addEventListener('change', () => {
        this.face = select.value;
        setPreference('face', this.face);
        this.draw();
      });
      options.append(html('label', { for: 'face', class: 'face' }, [html('span', { text: t('game.face') }), select]));
    }
    if (this.token) {
      const game = `${location.origin}/game/${encodeURIComponent(this.gameId)}`;
      options.append(html('details', { class: 'seat-link' }, [
        html('summary', { text: t('game.seat_link') }),
        html('p', { text: t('game.seat_link_text') }),
        html('input', { type: 'text', readonly: true, value: `${game}#token=${this.token}`, 'aria-label': t('game.seat_link_private') }),
        html('p', { text: t('game.watch_text') }),
        html('input', { type: 'text', readonly: true, value: game, 'aria-label': t('game.watch_link') }),
      ]));
    }
    return options;
  }

  /** @param {GameView} view */
  update(view) {
    if (view.version < this.view.version) return;
    const changed = !this.shown || view.version !== this.view.version;
    if (view.opponent_connected === false && this.view.opponent_connected !== false) this.awaySeenAt = Date.now();
    if (changed && this.shown) this.sayTaken(this.view, view);
    this.view = view;
    this.shown = true;
    if (changed) {
      this.input.selected = null;
      this.threats = null;
      this.message = '';
      this.hint = '';
      if (this.threatsOn) this.refreshThreats();
    }
    this.receivedAt = performance.now();
    this.draw();
  }

  /**
   * Says what a move took or hit, which its notation does not name ("E3-C3" took C2): read off the
   * boards before and after it.
   * @param {GameView} before
   * @param {GameView} after
   */
  sayTaken(before, after) {
    if (after.moves.length !== before.moves.length + 1) return;
    const sentence = takenSentence(after.variant, before.position, after.position, after.moves[after.moves.length - 1]);
    if (sentence) this.say(sentence);
  }

  /** @param {GameEvent} event */
  noteEvent(event) {
    if (event.version !== undefined && event.version > this.view.version) this.announce(event);
    if (event.version !== undefined) this.log.set(event.version, event);
    this.offers = noteEvent(this.offers, event, mySide(this.view));
    if (event.kind === 'roll') {
      this.rolling = true;
      this.latestRoll = event.side && event.dice ? { side: event.side, dice: event.dice } : null;
    }
    // A move of the roll's side plays it; a takeback leaves the dice as the view says.
    if ((event.kind === 'move' && event.side === this.latestRoll?.side) || event.kind === 'undo') this.latestRoll = null;
    if (event.kind === 'clocks_paused') this.clocksWerePaused = true;
    // The server aborts a game by itself when its invite expired unused, or when the time ran
    // out of a player not seen since the game began (`absent`).
    if (event.kind === 'aborted' && !event.side) {
      if (event.absent) this.absentSide = event.absent;
      else this.inviteExpired = true;
    }
    // The joiner's name comes with the join; an online end's change of rating with the end (only
    // online games are rated).
    if (event.kind === 'joined' || (event.kind === 'finished' && this.view.mode === 'online')) this.loadPlayers();
    if (event.kind === 'move' && event.version !== undefined && event.version > this.view.version) playMoveSound();
    if (event.kind === 'move' || event.kind === 'undo') this.movesChanged();
    // Both players agreed: the new game opens for both, played with the same seat tokens (or the
    // same accounts' seats).
    // Spectators too, as lichess takes its viewers along.
    if (event.kind === 'rematch' && event.game_id) this.openRematch(event.game_id);
  }

  /**
   * Tells a screen reader what a new event did: a move other than this page's own (whose
   * sending it already heard), a roll, a takeback.
   * @param {GameEvent} event
   */
  announce(event) {
    const text = announcement(this.view, event);
    if (text) this.say(text);
  }

  /**
   * Says `text` in the live region. News coming together (the events of one write) is added to
   * what is there, as a sentence of its own, so that only the new sentence is read: rewritten
   * whole, the region was read again from its start ("Black played 2:R-5." twice, a keyboard
   * audit). Later news replaces it.
   * @param {string} text
   */
  say(text) {
    const adding = this.announcer.childNodes.length > 0 && performance.now() - this.announcedAt < 300;
    if (!adding) this.announcer.replaceChildren();
    this.announcer.append(html('span', { text: adding ? ` ${text}` : text }));
    this.announcedAt = performance.now();
  }

  /**
   * Says `text` when it is news: not what the same `source` said last (the panels are redrawn at
   * every event, their lines already filled, which a screen reader does not read).
   * @param {'offer' | 'dice' | 'bonus'} source
   * @param {string} text
   */
  sayIfNew(source, text) {
    if (text && text !== this.lastSaid[source]) this.say(text);
    this.lastSaid[source] = text;
  }

  legal() {
    return (this.view.legal_moves || []).map(moveEnds);
  }

  /** The events this page holds, oldest first. */
  logged() {
    return [...this.log.values()].sort((a, b) => (a.version ?? 0) - (b.version ?? 0));
  }

  draw() {
    const hadFocus = this.root?.contains(document.activeElement) ?? false;
    const wasAsked = Boolean(this.panel?.querySelector(OFFER_ANSWERING));
    this.drawAll();
    // An offer just made to this player: its answers are brought into view where the panel
    // scrolls beside the board (a phone held sideways), Decline and then Accept above it.
    if (!wasAsked && this.panel) {
      for (const answer of [...this.panel.querySelectorAll(OFFER_ANSWERING)].reverse()) keepInView(this.panel, answer);
    }
    // The control that had the keyboard's focus went away with the redraw (Resign at the end,
    // Decline once the bonus dice are gone): the focus goes on from the result, or from the status
    // line, rather than back to the top of the page.
    if (hadFocus && !this.root.contains(document.activeElement)) this.resting().focus({ preventScroll: true });
  }

  /** Where the focus rests when what it was on went away: the result once the game is over, else the status line. */
  resting() {
    const result = /** @type {HTMLElement | null} */ (this.endPanel.hidden ? null : this.endPanel.querySelector('h2.result'));
    return result ?? this.status;
  }

  drawAll() {
    const v = this.view;
    const legal = this.pending ? [] : this.legal();
    // A move being sent shows as its piece selected and its destination marked.
    const pending = this.pending ? moveEnds(this.pending.move) : null;
    const selected = pending ? pending.from || null : this.input.selected;
    /** @type {Map<string, string[]>} */
    const destinations = new Map();
    if (pending && pending.to) destinations.set(pending.to, [pending.move]);
    else if (selected) {
      for (const m of legal) if (m.from === selected && m.to) destinations.set(m.to, [...(destinations.get(m.to) || []), m.move]);
    }
    const last = v.moves.length ? moveEnds(v.moves[v.moves.length - 1]) : null;
    const ctx = {
      bottom: this.bottomSide(),
      movable: new Set(legal.filter((m) => m.from).map((m) => m.from)),
      destinations,
      selected,
      threatened: this.threats ? new Set(this.threats.places) : null,
      odds: this.threats ? this.threats.odds : null,
      face: this.face,
      lastMove: last && last.from ? new Set([last.from, last.to]) : null,
    };
    const focused = this.input.placeOf(document.activeElement);
    let model = null;
    try {
      model = this.board.parse(v.position);
      this.boardHolder.replaceChildren(this.board.render(/** @type {any} */ (model), ctx));
    } catch (error) {
      this.boardHolder.replaceChildren(html('p', { class: 'error', text: t('game.cannot_draw', { position: v.position, detail: /** @type {Error} */ (error).message }) }));
    }
    this.boardHolder.querySelector('svg')?.setAttribute('aria-describedby', 'board-keys');
    const box = /** @type {SVGSVGElement | null} */ (this.boardHolder.querySelector('svg'))?.viewBox.baseVal;
    if (box && box.height) this.root.style.setProperty('--board-ratio', String(box.width / box.height));
    if (focused) {
      // A tray's name (O, R) is the same for both sides, and only the side to move's is a place:
      // the focus goes back to the same side's tray, or on from the status line.
      const side = focused.dataset.side ? `[data-side="${CSS.escape(focused.dataset.side)}"]` : '';
      const again = /** @type {SVGElement | null} */ (this.boardHolder.querySelector(`[data-place="${CSS.escape(focused.dataset.place ?? '')}"]${side}`));
      again?.focus();
    }
    Object.assign(this.root.dataset, {
      version: String(v.version), status: v.status, seat: mySide(v) || '', toMove: v.to_move || '',
      moves: String(v.moves.length), pending: this.pending ? this.pending.move : '', bottom: ctx.bottom,
    });
    this.boardHolder.dataset.bottom = ctx.bottom;
    this.heading.dataset.mode = v.mode;
    document.title = pageTitle(v, this.name);
    // While the link is lost the board is the game as it last was, not as it is: said first.
    const status = this.lostAt === null ? statusText(v, this.pending?.move) : t('game.link_lost');
    writeIfChanged(this.status, status);
    writeIfChanged(this.errorLine, this.message);
    writeIfChanged(this.hintLine, this.hint);
    this.drawInvite();
    this.drawEnd();
    // The dice games' turns from the events, read once for the dice row and the move list.
    const logged = 'dice' in v ? this.logged() : [];
    const turns = diceTurns(logged);
    this.drawDice(model, turns);
    this.drawChoices(legal, destinations);
    this.drawActions();
    this.drawMoves(logged, turns);
    this.drawFairness();
    this.spectators.textContent = spectatorText(v);
    this.tick();
  }

  drawInvite() {
    const v = this.view;
    const invite = savedInvite(v.game_id);
    const show = Boolean(v.status === 'waiting' && v.mode === 'online' && invite);
    // The friend came: the panel goes, and the focus on its link with it goes on from the status.
    if (!show && this.invitePanel.contains(document.activeElement)) this.status.focus({ preventScroll: true });
    this.invitePanel.hidden = !show;
    if (show && !this.invitePanel.childElementCount) this.invitePanel.append(...invitePanel(`${location.origin}/join/${invite}`));
  }

  /** The end of the game: result, how it ended, rematch, a new game, the record. */
  drawEnd() {
    const v = this.view;
    const end = endSummary(v);
    this.endPanel.hidden = !end;
    if (!end) {
      this.endPanel.replaceChildren();
      return;
    }
    if (this.inviteExpired) end.how = t('panel.aborted_expired');
    if (this.absentSide) end.how = t('panel.aborted_absent', { side: sideName(this.absentSide) });
    const row = html('div', { class: 'actions' }, rematchButtons(v, this.offers).map((b) => this.button(b)));
    row.append(
      html('a', { href: '/', class: 'button-link', id: 'new-game', text: t('nav.new') }),
      html('a', { href: `/api/v1/games/${encodeURIComponent(v.game_id)}/record`, class: 'button-link', id: 'record', download: `${v.game_id}.txt`, text: t('game.download') }),
    );
    const result = html('h2', { class: 'result', id: 'result', text: end.result, tabindex: '-1' });
    replaceKeepingFocus(this.endPanel, [result, html('p', { class: 'how', text: end.how }), row], () => result);
  }

  /**
   * @param {any} model the parsed position
   * @param {import('./moves.js').Turn[]} turns the dice games' turns from the events
   */
  drawDice(model, turns) {
    const v = this.view;
    this.diceBox.replaceChildren();
    if (!('dice' in v) || v.status !== 'playing') return;
    const dice = model && model.dice ? model.dice : v.dice || [];
    const bonus = model && model.bonus ? model.bonus : [];
    const rolling = this.rolling ? 'rolling' : '';
    // The roll of the turn in play, from the events (its dice played so far are shown used).
    const turn = turns.at(-1);
    const rolled = turn && turn.side === v.to_move && turn.dice?.length ? turn.dice : null;
    const unplayable = unplayableRollText(v, this.latestRoll);
    this.sayIfNew('dice', unplayable ?? '');
    if (unplayable) this.diceBox.append(html('p', { class: 'dice-note', text: unplayable }));
    this.diceBox.append(
      html('span', { class: 'dice-label', text: dice.length ? t('game.dice_of', { side: sideName(v.to_move || v.sides[0]) }) : t('game.awaiting_roll') }),
      html('div', { class: 'dice-row', 'data-dice': dice.join(',') }, diceOfTurn(rolled, dice).map(({ value, used }) => die(value, rolling, used))),
    );
    this.sayIfNew('bonus', bonus.length ? bonusLabel(v) : '');
    if (bonus.length) {
      this.diceBox.append(
        html('span', { class: 'dice-label', text: bonusLabel(v) }),
        html('div', { class: 'dice-row bonus', 'data-bonus': bonus.join(',') }, bonus.map((/** @type {number} */ d) => die(d, 'bonus-die'))),
      );
    }
    // The race's state in one line (Duodecim): each side's pip count.
    if (model && v.variant === 'duodecim-scripta') {
      const count = pips(model);
      this.diceBox.append(html('p', { class: 'pips', text: t('game.pips', { white: count.white, black: count.black }) }));
    }
    this.rolling = false;
  }

  /**
   * Buttons for the moves a click on the board cannot name: passes, declines, and several moves
   * between the same two places.
   * @param {import('./input.js').Ends[]} legal
   * @param {Map<string, string[]>} destinations
   */
  drawChoices(legal, destinations) {
    /** @type {[string, string][]} */
    const buttons = [];
    for (const m of legal) {
      const special = /** @type {{ special?: string }} */ (m).special;
      if (special) buttons.push([m.move, special === 'decline' ? t('game.decline') : special === 'pass' ? t('game.pass', { move: moveLabel(m.move) }) : m.move]);
    }
    for (const [, moves] of destinations) if (moves.length > 1) for (const m of moves) buttons.push([m, choiceLabel(m)]);
    replaceKeepingFocus(this.choices, buttons.map(([move, label]) => html('button', {
      type: 'button', class: 'move-choice', 'data-move': move, text: label, onclick: () => this.play(move),
    })), () => this.resting());
  }

  drawActions() {
    const v = this.view;
    if (!v.seat) {
      this.actions.replaceChildren(html('p', { text: t('game.watching') }));
      return;
    }
    const confirmingResign = this.resignAsked !== null && performance.now() - this.resignAsked < 4000;
    const buttons = playButtons(v, { offers: this.offers, confirmingResign, now: Date.now(), awaySeenAt: this.awaySeenAt });
    this.claimShown = buttons.some((b) => b.id === 'claim');
    replaceKeepingFocus(this.actions, buttons.map((b) => this.button(b)), () => this.resting());
    // A hint or a takeback keeps the game out of the player's record at the level (docs/API.md):
    // said beside the buttons to a player whose account holds the seat, not found later on the profile.
    const helps = buttons.some((b) => b.id === 'hint' || b.id === 'undo');
    this.helpNote.hidden = !(v.mode === 'computer' && helps && this.players[mySide(v) ?? '']);
    this.helpNote.textContent = this.helpNote.hidden ? '' : t('game.help_note');
    const note = offerNote(v, this.offers);
    this.sayIfNew('offer', note);
    writeIfChanged(this.offerLine, note);
    this.offerLine.hidden = !note;
  }

  /** @param {ActionButton} b */
  button(b) {
    const onclick = () => {
      if (b.action === 'ask-resign') {
        // Resigning takes a second click within a few seconds.
        this.resignAsked = performance.now();
        this.drawActions();
        setTimeout(() => this.drawActions(), 4100);
      } else if (b.action === 'hint') this.askHint();
      else if (b.action === 'open-rematch' && this.view.rematch) this.openRematch(this.view.rematch);
      else this.act(/** @type {import('./panels.js').GameAction} */ (b.action));
    };
    return html('button', { type: 'button', id: b.id, text: b.label, 'data-confirm': b.confirm || undefined, onclick });
  }

  /**
   * @param {GameEvent[]} logged the events held, oldest first (none but in the dice games)
   * @param {import('./moves.js').Turn[]} fromEvents their turns
   */
  drawMoves(logged, fromEvents) {
    const v = this.view;
    const fromLog = 'dice' in v && logged.filter((e) => e.kind === 'move').length >= v.moves.length ? fromEvents : null;
    const turns = fromLog || ('dice' in v ? v.moves.map((m, i) => ({ number: i + 1, plies: [m] })) : pairedTurns(v.moves));
    this.moveList.classList.toggle('paired', !('dice' in v));
    const items = turns.map((turn) => html('li', {}, [
      html('span', { class: 'turn-number', text: `${turn.number}.` }),
      ...('dice' in v ? [html('span', { class: 'turn' }, unbroken(turnWords(turn, sideName, t('game.no_move'), moveLabel)))] : turn.plies.map((ply) => html('span', { class: 'ply', text: ply }))),
    ]));
    if (this.pending) items.push(html('li', { class: 'pending' }, [html('span', { class: 'turn-number', text: '…' }), html('span', { text: t('game.sending', { move: moveLabel(this.pending.move) }) })]));
    this.moveList.replaceChildren(...items);
    this.moveList.scrollTop = this.moveList.scrollHeight;
  }

  /** Dice games: the server's commitment, and its seed once the game is over (docs/RULES.md §4). */
  drawFairness() {
    const v = this.view;
    this.fairness.hidden = !v.commitment;
    if (!v.commitment) return;
    const seed = v.server_seed
      ? t('game.seed_revealed', { seed: v.server_seed })
      : t('game.seed_hidden');
    const mine = v.seat && this.mine;
    this.fairness.replaceChildren(
      html('summary', { text: t('game.fair') }),
      html('p', { text: t('game.commitment', { commitment: v.commitment }) }),
      ...(mine ? [html('p', { text: t('game.entropy_mine', { entropy: mine }) })] : []),
      html('p', { text: seed }),
      ...(v.server_seed ? [this.diceCheck, html('p', {}, [html('a', { href: '/verify', text: t('verify.link') })])] : []),
    );
    this.checkDice();
  }

  /**
   * Once the game is over and the fairness panel open: every die of the record checked against the
   * revealed seed, here in the browser (static/js/game/fairness.js), and the result said.
   */
  async checkDice() {
    const v = this.view;
    if (!v.server_seed || !this.fairness.open || this.diceChecked) return;
    this.diceChecked = true;
    this.diceCheck.classList.remove('refusal');
    if (!globalThis.crypto?.subtle) {
      this.diceCheck.textContent = t('fair.unavailable');
      return;
    }
    this.diceCheck.textContent = t('fair.checking');
    try {
      const record = await gameRecord(this.gameId);
      const checked = await checkRecord(record, { subtle: crypto.subtle, sides: v.sides, seedDrawsFirst: this.seedDrawsFirst, mine: v.seat && this.mine });
      this.diceCheck.textContent = diceCheckText(checked);
      this.diceCheck.classList.toggle('refusal', !checked.ok);
    } catch (error) {
      // Asked again when the panel is next opened.
      this.diceChecked = false;
      this.diceCheck.textContent = errorMessage(error);
    }
  }

  /** Every tenth of a second: the clocks run down, the absence counts up, Claim appears on time. */
  tick() {
    const v = this.view;
    const bottom = this.bottomSide();
    const top = v.sides.find((s) => s !== bottom) || v.sides[1];
    const me = mySide(v);
    // The clocks stand at their last reading while the link is lost: run down further, they showed
    // a side's clock running when the other's was (the move that changed it was not heard).
    const elapsed = (this.lostAt ?? performance.now()) - this.receivedAt;
    const show = (/** @type {HTMLElement} */ el, /** @type {string} */ side) => {
      let label = sideName(side);
      if (this.players[side]) label += ` — ${this.players[side]}`;
      if (me === side) label += t('game.you');
      else if (v.mode === 'computer' && me) label += computerLabel(v);
      const { ms, running } = clockReading(v, side, elapsed);
      el.replaceChildren(html('span', { class: 'clock-side', text: label }), ms === null ? '' : html('span', { class: 'clock-time', text: formatClock(ms, decimalMark()) }));
      el.classList.toggle('running', running);
      el.classList.toggle('low', ms !== null && ms < 10000);
      // Said once, while it runs: a clock is only seen counting down.
      if (running && ms !== null && ms < 10000 && v.status === 'playing' && !this.lowTold.has(side)) {
        this.lowTold.add(side);
        this.say(t('announce.low', { side: sideName(side) }));
      }
    };
    show(this.topClock, top);
    show(this.bottomClock, bottom);
    const away = presence(v, Date.now(), this.awaySeenAt);
    // The away line counts every second and is no live region: its news is said once.
    if (away && this.awayLine.hidden) this.say(t('announce.away'));
    this.awayLine.hidden = !away;
    this.awayLine.textContent = away ? away.text : '';
    if (away && away.claimAllowed !== this.claimShown && v.seat) {
      this.drawActions();
      if (this.claimShown) this.say(t(v.claim_aborts ? 'announce.claim_abort' : 'announce.claim'));
    }
  }

  /** @param {string} state */
  connectionState(state) {
    let text = { connecting: t('game.connecting'), connected: t('game.connected'), reconnecting: t('game.reconnecting') }[state] || state;
    // Back after a restart that paused the clocks: say why they show more time than before.
    if (state === 'connected' && this.clocksWerePaused) {
      text = t('game.connected_after_pause');
      this.clocksWerePaused = false;
    }
    this.connectionLine.textContent = text;
    this.connectionLine.dataset.state = state;
    const lost = state === 'reconnecting';
    if (lost !== (this.lostAt !== null)) {
      this.lostAt = lost ? performance.now() : null;
      if (this.root) {
        this.root.classList.toggle('link-lost', lost);
        this.draw();
      }
    }
  }

  /** @param {{ message: string, reason?: string }} error */
  refused(error) {
    this.message = t('game.refused', { detail: errorMessage(error) });
    this.errorLine.textContent = this.message;
  }

  async refreshThreats() {
    if (!this.threatsOn) {
      this.threats = null;
      this.threatInfo.textContent = '';
      this.draw();
      return;
    }
    const v = this.view;
    // A player sees their own pieces (in a local game, the side to move's); a spectator has no
    // side of its own and sees both sides'.
    const sides = v.seat ? [mySide(v) || v.to_move || v.sides[0]] : v.sides;
    const texts = threatTexts(v);
    try {
      const result = await analysis(v.variant, v.position);
      if (this.view !== v) return;
      const odds = result.threat_odds || {};
      this.threats = {
        places: sides.flatMap((side) => result.threatened[side] || []),
        odds: Object.assign({}, ...sides.map((side) => odds[side])),
      };
      const n = this.threats.places.length;
      this.threatInfo.textContent = t(n === 0 ? texts.none : n === 1 ? texts.one : texts.many, { n });
    } catch (error) {
      this.threatInfo.textContent = t('game.threats_unavailable', { detail: errorMessage(error) });
    }
    this.draw();
  }

  /**
   * Sends a move over the socket; it shows as pending until the server acknowledges it.
   * @param {string} move
   */
  play(move) {
    this.message = '';
    this.hint = '';
    this.connection.sendMove(move, this.view.version);
  }

  /** Asks the computer for a move and selects its piece, so the board shows where it may go. */
  async askHint() {
    const version = this.view.version;
    try {
      const hint = await gameHint(this.gameId, this.token);
      if (hint.version !== this.view.version || version !== this.view.version) return;
      this.input.selectFrom(hint.move);
      this.hint = t('game.hint', { move: moveLabel(hint.move) });
      this.message = '';
      this.draw();
      this.say(this.hint);
    } catch (error) {
      this.refused(/** @type {Error} */ (error));
    }
  }

  /** @param {import('./panels.js').GameAction} action */
  async act(action) {
    this.resignAsked = null;
    try {
      const after = await gameAction(this.gameId, this.token, action);
      // Offers this page made are known at once, before their event comes back.
      const me = mySide(after);
      if (action === 'undo' && after.mode === 'online' && me) this.offers = { ...this.offers, undoOffer: me, declined: null };
      if (action === 'rematch' && !after.rematch && me && !this.offers.rematchOffer) this.offers = { ...this.offers, rematchOffer: me, declined: null };
      if (action.endsWith('/decline') || action === 'undo/accept') this.offers = { ...this.offers, undoOffer: null, rematchOffer: null };
      if (after.version > this.view.version) this.update(after);
      else this.draw();
      if (action === 'rematch' && after.rematch) this.openRematch(after.rematch);
    } catch (error) {
      this.refused(/** @type {Error} */ (error));
    }
  }

  /** @param {string} gameId */
  openRematch(gameId) {
    const path = `/game/${encodeURIComponent(gameId)}`;
    if (location.pathname === path) return;
    if (this.token) saveToken(gameId, this.token);
    navigate(path);
  }
}
