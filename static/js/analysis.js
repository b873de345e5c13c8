// @ts-check
// The analysis board (`/analysis?variant=&position=&dice=`): a position typed in the notation or
// set up on the board; the server's analysis shows its legal moves and threatened pieces (with hit
// odds in Duodecim), and the computer's suggestion at a chosen level. The board has two uses,
// chosen beside it: moving pieces as in a game (click a piece, then where it goes), and setting up
// (a click changes what stands on a place); a newcomer's click on a piece set it up where a move
// was meant (learner's audit). Playing a move replaces the position. Nothing here knows a game's
// rules: the server judges.
import { analysis, analysisPlay, suggestMove, ApiError } from './api.js';
import { html, moveEnds } from './svg.js';
import { t, sideLabel, errorMessage, moveLabel, percent } from './i18n.js';
import { VARIANT_IDS, EMPTY } from './learn/variants.js';
import { START, boardFor, takenSentence } from './boards/index.js';
import { dieFace } from './game/moves.js';
import { diagramBoard } from './learn/diagram.js';
import { cyclePlace, fillTrays, unfinishedSetUp } from './learn/setup.js';
import { BoardInput, focusByArrow } from './game/input.js';

/**
 * The server's analysis of a position (docs/API.md, POST /api/v1/analysis).
 * @typedef {{ variant: string, position: string, to_move: string, legal_moves?: string[],
 *   outcome?: { winner: string | null, termination: string } | null,
 *   threatened?: Record<string, string[]>,
 *   threat_odds?: Record<string, Record<string, { hits: number, of: number }>> }} AnalysisResult
 */

/** @param {string | null | undefined} text */
const parseDice = (text) => String(text || '').split(/[^1-6]+/).filter(Boolean).map(Number);

/**
 * @param {HTMLElement} app
 * @param {URLSearchParams} query
 */
export function showAnalysis(app, query) {
  document.title = `Ludus — ${t('analysis.title')}`;
  /** @type {{ variant: string, position: string, dice: string, result: AnalysisResult | null, suggestion: string | null, setUp: boolean, drawn: string | null }} */
  const state = {
    variant: VARIANT_IDS.includes(/** @type {string} */ (query.get('variant'))) ? /** @type {string} */ (query.get('variant')) : VARIANT_IDS[0],
    // Set just below, once the variant is known.
    position: /** @type {any} */ (null),
    dice: query.get('dice') || '',
    result: null,
    suggestion: null,
    // Moving pieces, unless setting up was chosen.
    setUp: false,
    // The position the board shows: the last one the server read, or the one being set up. A
    // position refused keeps the board as it was (text that does not read drew a board of one square).
    drawn: null,
  };
  state.position = query.get('position') || START[state.variant];

  const variantSelect = /** @type {HTMLSelectElement} */ (html('select', { id: 'analysis-variant', 'aria-label': t('analysis.variant') },
    VARIANT_IDS.map((id) => html('option', { value: id, text: t(`variant.${id}`), selected: id === state.variant || undefined }))));
  const positionInput = /** @type {HTMLInputElement} */ (html('input', { type: 'text', id: 'analysis-position', 'aria-label': t('analysis.position'), spellcheck: 'false' }));
  const diceInput = /** @type {HTMLInputElement} */ (html('input', { type: 'text', id: 'analysis-dice', 'aria-label': t('analysis.dice'), placeholder: t('analysis.dice'), inputmode: 'numeric' }));
  const level = /** @type {HTMLSelectElement} */ (html('select', { id: 'analysis-level', 'aria-label': t('analysis.level') },
    [1, 2, 3, 4, 5].map((n) => html('option', { value: n, text: String(n), selected: n === 3 || undefined }))));
  const boardHolder = html('div', { class: 'board-holder analysis-board' });
  // The board's use: its own holder each, so that moving's pointer handling never meets set-up.
  const moveHolder = html('div');
  const setUpHolder = html('div');
  // The keys of the board, said with it as on a game's board.
  const boardKeys = html('p', { class: 'visually-hidden', id: 'board-keys', text: t('game.board_keys') });
  boardHolder.append(moveHolder, setUpHolder, boardKeys);
  const boardHint = html('p', { class: 'hint', id: 'analysis-board-hint' });
  /** @param {boolean} setUp */
  const useRadio = (setUp) => html('label', { class: 'choice' }, [
    html('input', { type: 'radio', name: 'analysis-use', id: setUp ? 'analysis-set-up' : 'analysis-move', checked: setUp === state.setUp || undefined,
      onchange: () => { state.setUp = setUp; input.selected = null; drawBoard(); } }),
    ` ${t(setUp ? 'analysis.use_set_up' : 'analysis.use_move')}`,
  ]);
  const uses = html('fieldset', { class: 'analysis-use' }, [html('legend', { text: t('analysis.use') }), useRadio(false), useRadio(true)]);
  /** @param {boolean} setUp */
  const choose = (setUp) => {
    state.setUp = setUp;
    /** @type {HTMLInputElement} */ (uses.querySelector(setUp ? '#analysis-set-up' : '#analysis-move')).checked = true;
  };
  const legalEnds = () => (state.setUp || !state.result ? [] : (state.result.legal_moves || []).map(moveEnds));
  const input = new BoardInput(moveHolder, {
    legal: legalEnds,
    redraw: () => drawBoard(),
    play: (move) => play(move),
    // Two dice take the piece to the same place: the list beside names each move.
    choose: (moves) => /** @type {HTMLElement | null} */ (movesList.querySelector(`[data-move="${CSS.escape(moves[0])}"]`))?.focus(),
  });
  const status = html('p', { class: 'analysis-status', role: 'status', 'aria-live': 'polite' });
  const threats = html('p', { class: 'analysis-threats' });
  const movesList = html('ul', { class: 'analysis-moves' });
  const suggestion = html('p', { class: 'analysis-suggestion', 'aria-live': 'polite' });
  const error = html('p', { class: 'error', role: 'alert' });

  const diceGame = () => !state.variant.startsWith('petteia');

  function syncInputs() {
    variantSelect.value = state.variant;
    positionInput.value = state.position;
    diceInput.value = state.dice;
    // The dice field sits in its label from the start (the form is built before the first sync).
    /** @type {HTMLLabelElement} */ (diceInput.closest('label')).hidden = !diceGame();
    const url = new URL(location.href);
    url.searchParams.set('variant', state.variant);
    url.searchParams.set('position', state.position);
    if (state.dice && diceGame()) url.searchParams.set('dice', state.dice);
    else url.searchParams.delete('dice');
    history.replaceState(null, '', url.pathname + url.search);
  }

  /** @param {string | null} focused the place to give the focus back to once redrawn */
  function drawBoard(focused = null) {
    const result = state.result;
    /** @type {Set<string>} */
    const threatened = new Set();
    /** @type {Record<string, { hits: number, of: number }>} */
    const odds = {};
    if (result) {
      for (const places of Object.values(result.threatened || {})) places.forEach((p) => threatened.add(p));
      for (const bySide of Object.values(result.threat_odds || {})) Object.assign(odds, bySide);
    }
    // Moving: the pieces that can move, and the places the one picked up can go, as in a game.
    const legal = legalEnds();
    const selected = state.setUp ? null : input.selected;
    /** @type {Map<string, string[]>} */
    const destinations = new Map();
    for (const m of legal) if (selected && m.from === selected && m.to) destinations.set(m.to, [...(destinations.get(m.to) || []), m.move]);
    const board = diagramBoard(state.variant, state.drawn ?? state.position, {
      moves: state.suggestion ? [state.suggestion] : [],
      threatened,
      odds,
      face: 'virtvs',
      // A board to act on, in set-up too (its places are made buttons below).
      selection: { movable: new Set(legal.filter((m) => m.from).map((m) => /** @type {string} */ (m.from))), destinations, selected },
    });
    boardHint.textContent = t(state.setUp ? 'analysis.setup_hint' : 'analysis.move_hint');
    moveHolder.hidden = state.setUp;
    setUpHolder.hidden = !state.setUp;
    if (!state.setUp) {
      board.setAttribute('aria-describedby', 'board-keys');
      moveHolder.replaceChildren(board);
      setUpHolder.replaceChildren();
      if (focused) /** @type {SVGElement | null} */ (board.querySelector(`[data-place="${CSS.escape(focused)}"]`))?.focus();
      return;
    }
    // In set-up every place is a button: a click (or Enter) changes what stands there.
    for (const place of board.querySelectorAll('[data-place]')) {
      place.removeAttribute('aria-disabled');
      place.setAttribute('tabindex', '0');
    }
    /** @param {Event} event */
    const setUp = (event) => {
      const target = /** @type {Element} */ (event.target);
      const place = target.closest && target.closest('[data-place]');
      if (!place) return;
      event.preventDefault();
      const name = /** @type {string} */ (place.getAttribute('data-place'));
      state.position = cyclePlace(state.variant, state.position, name);
      // From the keyboard the redrawn board takes the focus back where it was.
      refresh(event instanceof KeyboardEvent ? name : null);
    };
    board.addEventListener('click', setUp);
    board.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') return setUp(event);
      // The arrows move between places as on the game's board.
      const place = /** @type {Element} */ (event.target).closest?.('[data-place]');
      if (place) focusByArrow(event, place, [...board.querySelectorAll('[data-place]')]);
    });
    setUpHolder.replaceChildren(board);
    moveHolder.replaceChildren();
    if (focused) /** @type {SVGElement | null} */ (board.querySelector(`[data-place="${CSS.escape(focused)}"]`))?.focus();
  }

  function describe() {
    const result = state.result;
    movesList.replaceChildren();
    if (!result) {
      status.textContent = '';
      threats.textContent = '';
      return;
    }
    if (result.outcome) {
      const text = result.outcome.winner ? t('analysis.wins', { side: sideLabel(result.outcome.winner) }) : t('analysis.draw');
      status.textContent = t('analysis.outcome', { result: text });
    } else {
      status.textContent = t('analysis.to_move', { side: sideLabel(result.to_move) });
      // Duodecim keeps the dice left to play in its position, out of the dice field: said here.
      const model = state.variant === 'duodecim-scripta'
        ? /** @type {import('./boards/duodecim.js').DuodecimModel} */ (boardFor(state.variant).parse(result.position))
        : null;
      const faces = (/** @type {number[]} */ dice) => dice.map(dieFace).join(' ');
      if (model?.dice.length) status.textContent += ` · ${t('analysis.dice_left', { dice: faces(model.dice) })}`;
      if (model?.bonus.length) status.textContent += ` · ${t('analysis.bonus_left', { dice: faces(model.bonus) })}`;
    }
    const places = Object.entries(result.threatened || {}).flatMap(([side, list]) => list.map((p) => {
      const o = result.threat_odds && result.threat_odds[side] && result.threat_odds[side][p];
      return o ? `${p} (${percent(o.hits / o.of)})` : p;
    }));
    threats.textContent = places.length ? t('analysis.threatened', { list: places.join(', ') }) : t('analysis.no_threat');
    const legal = result.legal_moves || [];
    movesList.append(html('li', { class: 'legal-count', text: legal.length ? t('analysis.legal', { n: legal.length }) : (diceGame() && !result.outcome ? t('analysis.awaits_dice') : t('analysis.none')) }));
    for (const move of legal) {
      movesList.append(html('li', {}, [html('button', { type: 'button', class: 'move-button', 'data-move': move, text: moveLabel(move), title: t('analysis.play', { move: moveLabel(move) }), onclick: () => play(move) })]));
    }
  }

  /** @param {string | null} focused see drawBoard */
  async function refresh(focused = null) {
    state.suggestion = null;
    input.selected = null;
    suggestion.textContent = '';
    error.textContent = '';
    syncInputs();
    // A Schädler board being set up is said to be unfinished in the page's words, not refused.
    const unfinished = state.setUp ? unfinishedSetUp(state.variant, state.position) : null;
    if (unfinished) {
      state.result = null;
      describe();
      status.textContent = t('analysis.setup_unfinished', { terracotta: unfinished[0], black: unfinished[1] });
      state.drawn = state.position;
      drawBoard(focused);
      return;
    }
    try {
      state.result = /** @type {AnalysisResult} */ (await analysis(state.variant, state.position, parseDice(state.dice)));
      state.position = state.result.position;
      state.drawn = state.position;
      // Duodecim writes the dice into its position: from now on they are part of it.
      if (/dice:\[\d/.test(state.position)) state.dice = '';
      syncInputs();
    } catch (e) {
      state.result = null;
      // A position that does not read is said in the page's language, the server's detail after.
      const unreadable = e instanceof ApiError && e.code === 'bad_request';
      error.textContent = unreadable ? t('analysis.unreadable', { detail: e.message }) : errorMessage(e);
      // Set-up's clicks stay on the board; a typed text the server refused does not replace it.
      if (state.setUp) state.drawn = state.position;
    }
    describe();
    drawBoard(focused);
  }

  /**
   * Plays `move` on the position; the keyboard's focus, which was on the board's destination or a
   * move's button that the redraw removes, goes on from the piece where it landed.
   * @param {string} move
   */
  async function play(move) {
    let took;
    try {
      const after = await analysisPlay(state.variant, state.position, parseDice(state.dice), [move]);
      took = takenSentence(state.variant, state.position, after.position, move);
      state.position = after.position;
      // The dice were used by that move; what remains is in the position (Duodecim) or awaits a roll.
      state.dice = '';
    } catch (e) {
      error.textContent = errorMessage(e);
      return;
    }
    const focusWasHere = app.contains(document.activeElement);
    await refresh();
    // What the move took, which the board shows and its notation does not name.
    if (took) status.append(` · ${took}`);
    const landed = moveEnds(move).to;
    if (focusWasHere && !app.contains(document.activeElement)) {
      const place = landed && /** @type {SVGElement | null} */ (moveHolder.querySelector(`[data-place="${CSS.escape(landed)}"]`));
      (place || /** @type {HTMLElement | null} */ (movesList.querySelector('button')) || variantSelect).focus();
    }
  }

  async function suggest() {
    suggestion.textContent = t('analysis.thinking');
    try {
      const answer = await suggestMove(state.variant, state.position, parseDice(state.dice), Number(level.value));
      state.suggestion = answer.move;
      suggestion.replaceChildren(
        t('analysis.suggestion', { level: answer.level, move: answer.move }), ' ',
        html('button', { type: 'button', id: 'play-suggestion', text: t('analysis.play', { move: moveLabel(answer.move) }), onclick: () => play(answer.move) }),
      );
      drawBoard();
    } catch (e) {
      suggestion.textContent = '';
      error.textContent = errorMessage(e);
    }
  }

  variantSelect.addEventListener('change', () => {
    state.variant = variantSelect.value;
    state.drawn = null;
    state.position = START[state.variant];
    state.dice = '';
    refresh();
  });
  const form = html('form', { class: 'analysis-form', onsubmit: (/** @type {Event} */ event) => {
    event.preventDefault();
    // Dice are faces 1 to 6, apart or separated: anything else is said, not dropped unseen.
    if (!/^[\s,]*([1-6][\s,]*)*$/.test(diceInput.value)) {
      error.textContent = t('analysis.bad_dice', { dice: diceInput.value });
      return;
    }
    state.position = positionInput.value.trim();
    state.dice = diceInput.value;
    refresh();
  } }, [
    html('label', { class: 'field' }, [html('span', { text: t('analysis.variant') }), variantSelect]),
    html('label', { class: 'field wide' }, [html('span', { text: t('analysis.position') }), positionInput]),
    html('label', { class: 'field' }, [html('span', { text: t('analysis.dice') }), diceInput]),
    html('p', { class: 'analysis-buttons' }, [
      html('button', { type: 'submit', class: 'primary', id: 'analysis-show', text: t('analysis.load') }),
      html('button', { type: 'button', id: 'analysis-start', text: t('analysis.start'), onclick: () => { state.position = START[state.variant]; refresh(); } }),
      // An empty board is one to set up.
      html('button', { type: 'button', id: 'analysis-empty', text: t('analysis.empty'), onclick: () => { state.position = fillTrays(state.variant, EMPTY[state.variant]); choose(true); refresh(); } }),
    ]),
  ]);
  app.append(html('article', { class: 'analysis learn' }, [
    html('h1', { text: t('analysis.title') }),
    html('p', { class: 'summary', text: t('analysis.intro') }),
    form,
    error,
    html('div', { class: 'analysis-layout' }, [
      html('div', {}, [uses, boardHolder, boardHint]),
      html('div', { class: 'analysis-side' }, [
        status,
        threats,
        html('p', { class: 'analysis-suggest' }, [
          html('label', { class: 'field' }, [html('span', { text: t('analysis.level') }), level]),
          ' ',
          html('button', { type: 'button', id: 'analysis-suggest', text: t('analysis.suggest'), onclick: suggest }),
        ]),
        suggestion,
        movesList,
      ]),
    ]),
  ]));
  refresh();
}
