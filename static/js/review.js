// @ts-check
// Review of a game, move by move, beside (never instead of) the live board. The model is pure:
// the game's events give the moves and each turn's dice, and the position at ply N is the start
// with the first N moves played by the server's analysis (the client knows no rules). The view
// steps with buttons, arrow keys or a click on a move; `?ply=N` opens at that move.
import { analysisReplay, gameEvents, EVENTS_PAGE } from './api.js';
import { html, keepInView } from './svg.js';
import { t, errorMessage, moveLabel, sideLabel } from './i18n.js';
import { START, takenSentence } from './boards/index.js';
import { diagramBoard } from './learn/diagram.js';
import { pairedTurns, diceTurns } from './game/moves.js';

/**
 * @typedef {import('./api.js').GameEvent} GameEvent
 * @typedef {import('./api.js').GameView} GameView
 * @typedef {{ move: string, dice: number[] | null, side?: string, rolledBy?: string }} Ply
 */

/**
 * The start position of a game whose first player is `first` (drawn by the seed in some variants).
 * @param {string} variant
 * @param {string | null} [first] null or absent: the variant's own first side
 * @returns {string}
 */
export function startPosition(variant, first) {
  const [board, , ...rest] = START[variant].split(' ');
  const side = first ? first[0] : START[variant].split(' ')[1];
  return [board, side, ...rest].join(' ');
}

/**
 * The moves of a game from its events, each with the roll that came just before it; an `undo`
 * keeps only its first `keep` rolls and moves (as the game screen's move list reads them).
 * @param {GameEvent[]} events
 * @returns {Ply[]}
 */
export function pliesFromEvents(events) {
  /** @type {GameEvent[]} */
  let actions = [];
  for (const event of events) {
    if (event.kind === 'roll' || event.kind === 'move') actions.push(event);
    else if (event.kind === 'undo') actions = actions.slice(0, event.keep ?? actions.length);
  }
  /** @type {Ply[]} */
  const plies = [];
  /** @type {number[] | null} */
  let dice = null;
  let rolledBy;
  // Roll events carry their dice and move events their move (docs/API.md). A roll none of whose
  // dice can be played passes the turn with them as the other side's bonus dice (RULES.md §3.2):
  // the next move is then not its roller's.
  for (const action of actions) {
    if (action.kind === 'roll') {
      dice = /** @type {number[]} */ (action.dice);
      rolledBy = action.side;
    } else {
      plies.push({ move: /** @type {string} */ (action.move), dice, side: action.side, ...(dice ? { rolledBy } : {}) });
      dice = null;
    }
  }
  return plies;
}

/** The plies replayed in one request: within the server's 16 KiB body. */
export const REPLAY_BATCH = 200;

/**
 * The positions of a game, replayed only as far as asked: `at(n)` is the position after the
 * first n moves. `replay(variant, position, plies)` answers the positions after each of the plies
 * (the server's), a batch at a time. Requests are served in order, so each position is asked for
 * once.
 */
export class Replay {
  /**
   * @param {string} variant
   * @param {string} start
   * @param {Ply[]} plies
   * @param {typeof analysisReplay} [replay]
   */
  constructor(variant, start, plies, replay = analysisReplay) {
    this.variant = variant;
    this.plies = plies;
    this.replay = replay;
    this.known = [start];
    /** @type {string | null} */
    this.last = null;
    /** @type {Promise<unknown>} */
    this.queue = Promise.resolve();
  }

  /**
   * The final position when it is known already (the game view's), so opening costs nothing.
   * @param {string} position
   */
  knowLast(position) {
    this.last = position;
  }

  /**
   * The game moved on, or back: its moves are `plies` now. The positions already computed after
   * the moves the two lists share are kept, so following a game costs one position a move.
   * Queued behind the positions being computed, which read the moves; resolves once done.
   * @param {Ply[]} plies
   * @returns {Promise<void>}
   */
  follow(plies) {
    const sameRoll = (/** @type {Ply} */ a, /** @type {Ply} */ b) => String(a.dice) === String(b.dice);
    const followed = this.queue.then(() => {
      let same = 0;
      while (same < Math.min(this.plies.length, plies.length)
        && this.plies[same].move === plies[same].move && sameRoll(this.plies[same], plies[same])) same += 1;
      this.plies = plies;
      this.known.length = Math.min(this.known.length, same + 1);
      this.last = null;
    });
    this.queue = followed;
    return followed;
  }

  /**
   * The position after `n` moves if it was computed already, without asking the server.
   * @param {number} n
   * @returns {string | undefined}
   */
  computed(n) {
    return this.known[n];
  }

  /**
   * @param {number} n
   * @returns {Promise<string>}
   */
  at(n) {
    if (n === this.plies.length && this.last) return Promise.resolve(this.last);
    this.queue = this.queue.then(async () => {
      while (this.known.length <= n) {
        const from = this.known.length - 1;
        const batch = this.plies.slice(from, Math.min(n, from + REPLAY_BATCH));
        this.known.push(...(await this.replay(this.variant, this.known[from], batch)).positions);
      }
      return this.known[n];
    });
    return /** @type {Promise<string>} */ (this.queue);
  }
}

/**
 * The roll that move `ply` (1-based) was played on, and who threw it (the other side when the
 * move plays bonus dice), or null (no dice, or the start).
 * @param {Ply[]} plies
 * @param {number} ply
 * @returns {{ dice: number[], rolledBy?: string } | null}
 */
export function rollOf(plies, ply) {
  for (let i = ply - 1; i >= 0; i -= 1) {
    const { dice, rolledBy } = plies[i];
    if (dice) return { dice, rolledBy };
  }
  return null;
}

/**
 * The turn of each move, numbered by the move list's own functions: Petteia's turns pair the two
 * sides' moves, a dice game's turn is one side's go (docs/RULES.md §3), its roll and moves.
 * @param {string} variant
 * @param {GameEvent[]} events
 * @returns {number[]} the turn of move i + 1 at i
 */
export function turnsOfPlies(variant, events) {
  const turns = variant.startsWith('petteia') ? pairedTurns(pliesFromEvents(events).map((p) => p.move)) : diceTurns(events);
  return turns.flatMap((turn) => turn.plies.map(() => turn.number));
}

/** The ply a `?ply=N` asks for, kept within the game. @param {number} value @param {number} total */
export const clampPly = (value, total) => Math.max(0, Math.min(total, Number.isFinite(value) ? Math.trunc(value) : total));

/**
 * The review panel of game `gameId` (its view `view`), opened at `ply` (or the last move).
 * Returns the element, and `refresh` to read the moves again (a game in progress moved on);
 * `bottom` is the side drawn nearest.
 * @param {{ gameId: string, view: GameView, bottom?: string, ply?: number | null, face?: string }} options
 * @returns {{ element: HTMLElement, refresh: () => Promise<void> }}
 */
export function reviewPanel({ gameId, view, bottom, ply = null, face = 'virtvs' }) {
  const variant = view.variant;
  // The address names the step of a finished game only: reloading a game in progress must bring
  // back the live board, not the review.
  const over = view.status === 'finished' || view.status === 'aborted';
  const section = html('section', { class: 'review', id: 'review', 'aria-label': t('review.title'), tabindex: '-1' });
  const status = html('p', { class: 'review-status', role: 'status', 'aria-live': 'polite', text: t('review.loading') });
  section.append(html('h2', { text: t('review.title') }), status);
  /** @type {Replay | null} */
  let replay = null;
  let current = 0;
  /** The turn of each move (`turnsOfPlies`), read with the moves. @type {number[]} */
  let turns = [];

  const boardHolder = html('div', { class: 'review-board' });
  const moves = html('ol', { class: 'review-moves', 'aria-label': t('review.moves') });
  const links = html('p', { class: 'review-links' });
  /**
   * @param {string} id
   * @param {string} label
   * @param {string} text
   * @param {() => number} target
   */
  const button = (id, label, text, target) => html('button', { type: 'button', id, 'aria-label': label, title: label, text, onclick: () => go(target()) });
  const controls = html('p', { class: 'review-controls' }, [
    button('review-first', t('review.first'), '«', () => 0),
    button('review-prev', t('review.previous'), '◀', () => current - 1),
    button('review-next', t('review.next'), '▶', () => current + 1),
    button('review-last', t('review.last'), '»', () => Infinity),
  ]);

  /** @param {number} n */
  async function go(n) {
    if (!replay) return;
    const total = replay.plies.length;
    current = clampPly(n, total);
    const wanted = current;
    let position;
    try {
      position = await replay.at(wanted);
    } catch (error) {
      status.textContent = errorMessage(error);
      return;
    }
    // A later step was asked for meanwhile: it draws, not this one.
    if (wanted !== current) return;
    const roll = rollOf(replay.plies, current);
    const ply = current > 0 ? replay.plies[current - 1] : null;
    const played = ply ? [ply.move] : [];
    // Bonus dice are named as the other side's roll, which the mover plays (an unplayable roll
    // read as the mover's own: White seemed to roll twice).
    const bonus = roll && ply && roll.rolledBy && ply.side && roll.rolledBy !== ply.side;
    const dice = roll && (bonus
      ? t('review.bonus', { dice: roll.dice.join('·'), side: sideLabel(/** @type {string} */ (roll.rolledBy)) })
      : t('review.dice', { dice: roll.dice.join('·') }));
    // What the move took, when the step before is at hand (a review opened at the last move has
    // not replayed the game, and does not for this).
    const before = current > 0 ? replay.computed(current - 1) : null;
    const took = ply && before ? takenSentence(variant, before, position, ply.move) : '';
    // The move itself too: a screen reader hears the step, not the arrow on the board.
    // Named by its turn, as the move list numbers it, and by its place among the moves.
    // Each move kept whole on its line (a phone broke "4:R-M4" at its hyphen).
    status.replaceChildren((ply
      ? t('review.ply', { turn: turns[current - 1], side: sideLabel(/** @type {string} */ (ply.side)), ply: current, total })
      : t('review.ply0', { n: total }))
      + (dice ? ` · ${dice}` : ''), ...played.flatMap((move) => [' · ', html('span', { class: 'word', text: moveLabel(move) })]),
    ...(took ? [` · ${took}`] : []));
    const board = diagramBoard(variant, position, { moves: played, bottom, face, mover: replay.plies[current - 1]?.side, readable: true });
    boardHolder.replaceChildren(board);
    for (const item of /** @type {NodeListOf<HTMLElement>} */ (moves.querySelectorAll('button[data-ply]'))) {
      if (Number(item.dataset.ply) === current) {
        item.setAttribute('aria-current', 'step');
        // After the frame: the first step is drawn before the review is in the page.
        requestAnimationFrame(() => keepInView(moves, item));
      } else item.removeAttribute('aria-current');
    }
    const url = `/game/${encodeURIComponent(gameId)}?ply=${current}`;
    links.replaceChildren(
      html('a', { href: url, id: 'review-link', text: t('review.link') }),
      html('a', { href: `/analysis?variant=${encodeURIComponent(variant)}&position=${encodeURIComponent(position)}`, id: 'review-analyse', text: t('review.analyse') }),
      html('a', { href: `/api/v1/games/${encodeURIComponent(gameId)}/record`, id: 'review-download', download: `ludus-${gameId}.txt`, text: t('review.download') }),
    );
    // The address follows the step, without a new history entry per move.
    if (over && location.pathname.startsWith('/game/')) history.replaceState(null, '', url);
  }

  section.addEventListener('keydown', (event) => {
    const step = /** @type {Record<string, number | undefined>} */ ({ ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: Infinity })[event.key];
    if (step === undefined || /** @type {Element} */ (event.target).closest('input, select, textarea')) return;
    event.preventDefault();
    go(step);
  });

  /** The game's events read so far, oldest first: each load asks only for the ones after them. */
  /** @type {GameEvent[]} */
  const events = [];
  async function readNewEvents() {
    for (;;) {
      // The log's events all carry their version (only a socket's may come without).
      const since = events.length ? Number(events[events.length - 1].version) : 0;
      const page = await gameEvents(gameId, since);
      events.push(...page);
      // A full page may have more after it (the server answers at most EVENTS_PAGE at once).
      if (page.length < EVENTS_PAGE) return;
    }
  }

  /**
   * Reads the game's moves, lists them and draws step `at(total)`. Opening, `view`'s position is
   * the last step's; later the replay follows the game (which may have moved on, or back).
   * @param {(total: number) => number} at
   * @returns {Promise<boolean>} whether the moves could be read
   */
  async function load(at) {
    /** @type {Ply[]} */
    let plies;
    try {
      await readNewEvents();
      plies = pliesFromEvents(events);
      turns = turnsOfPlies(variant, events);
    } catch (error) {
      status.textContent = errorMessage(error);
      return false;
    }
    if (replay) await replay.follow(plies);
    else {
      replay = new Replay(variant, startPosition(variant, view.first), plies);
      if (view.moves.length === plies.length) replay.knowLast(view.position);
    }
    moves.replaceChildren(html('li', {}, [html('button', { type: 'button', 'data-ply': 0, text: t('review.start'), onclick: () => go(0) })]));
    replay.plies.forEach((p, i) => {
      // Each turn opens with its number, as in the move list.
      if (turns[i] !== turns[i - 1]) moves.append(html('li', { class: 'turn', 'aria-hidden': 'true', text: `${turns[i]}.` }));
      // Who threw each roll: turns of several moves, and bonus dice played by the other side.
      if (p.dice) {
        const dice = p.dice.join('·');
        moves.append(html('li', { class: 'roll', text: p.rolledBy ? t('review.rolled', { side: sideLabel(p.rolledBy), dice }) : t('review.dice', { dice }) }));
      }
      moves.append(html('li', {}, [html('button', { type: 'button', 'data-ply': i + 1, text: moveLabel(p.move), onclick: () => go(i + 1) })]));
    });
    await go(at(replay.plies.length));
    return true;
  }

  (async () => {
    if (!(await load((total) => (ply === null ? total : ply)))) return;
    section.append(html('div', { class: 'review-layout' }, [
      html('div', {}, [boardHolder, controls]),
      html('div', {}, [moves, links]),
    ]));
    // A link to a move brings its review into view, ready for the arrow keys.
    if (ply !== null) {
      section.scrollIntoView({ block: 'start' });
      section.focus({ preventScroll: true });
    }
  })();

  // A reviewer at the last move follows the game; one further back stays where they are.
  const refresh = async () => {
    if (!replay) return;
    const atEnd = current === replay.plies.length;
    await load((total) => (atEnd ? total : Math.min(current, total)));
  };
  return { element: section, refresh };
}

/**
 * Adds review to the game screen: open at once for a finished game or a `?ply=` link, behind a
 * button for a game in progress (so the live board stays what the player sees). Returns
 * `movesChanged`, for the screen to call when moves are played or taken back. `view` gives the
 * game's view as the screen holds it now: a review opened later starts from what is known then
 * (a dice game's first side is drawn when the second player joins, after a creator's page opened).
 * @param {HTMLElement} app
 * @param {{ gameId: string, view: () => GameView, bottom?: string }} game
 * @returns {{ movesChanged: () => void }}
 */
export function mountReview(app, { gameId, view, bottom }) {
  const query = new URLSearchParams(location.search);
  const ply = query.has('ply') ? Number(query.get('ply')) : null;
  const holder = html('div', { class: 'review-holder' });
  /** @type {ReturnType<typeof reviewPanel> | null} */
  let panel = null;
  /** @param {boolean} [asked] by the button, whose focus then goes to the review */
  const open = (asked = false) => {
    panel = reviewPanel({ gameId, view: view(), bottom, ply });
    holder.replaceChildren(panel.element);
    if (asked) panel.element.focus();
  };
  const { status } = view();
  if (status === 'finished' || status === 'aborted' || ply !== null) open();
  else {
    holder.append(html('button', { type: 'button', id: 'review-open', text: t('review.open'), onclick: () => open(true) }));
  }
  app.append(holder);
  return { movesChanged: () => void panel?.refresh() };
}
