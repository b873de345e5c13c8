// @ts-check
// Small board diagrams drawn from positions in the docs/RULES.md notation: the board of the variant
// (boards/*.js) with each move drawn as an arrow from its start to its end, and an × on every
// place where a piece was taken. Pure: it reads nothing but its arguments and builds elements.
import { svg, html, moveEnds } from '../svg.js';
import { boardFor } from '../boards/index.js';

/** @typedef {import('../svg.js').BoardContext} BoardContext */

/**
 * The centre of a place on a drawn board: its hit area is a rect (cell, square, tray) or a circle (point).
 * A tray (reserve, off, holy line, removed) is `mover`'s when a mover is named: a board names as
 * places only the trays of the side to move, which after a move is the other side.
 * @param {Element} root
 * @param {string} place
 * @param {string} [mover]
 * @returns {{ x: number, y: number } | null}
 */
export function centreOf(root, place, mover) {
  const trayOfMover = (/** @type {Element} */ group) => group.getAttribute('data-tray') === place && group.getAttribute('data-side') === mover;
  const children = [...root.children];
  const group = (mover && children.find(trayOfMover)) || children.find((g) => g.getAttribute('data-place') === place);
  if (!group) return null;
  const shape = group.children[0];
  /** @param {string} name */
  const n = (name) => Number(shape.getAttribute(name));
  if (shape.getAttribute('cx') !== null) return { x: n('cx'), y: n('cy') };
  return { x: n('x') + n('width') / 2, y: n('y') + n('height') / 2 };
}

/**
 * An arrow for `move` (e.g. `3:4-7`, `A4-C4`) on a drawn board, or null if an end is not drawn;
 * a tray at either end is `mover`'s (`centreOf`).
 * @param {Element} root
 * @param {string} move
 * @param {string} [mover]
 * @returns {SVGElement | null}
 */
export function moveArrow(root, move, mover) {
  const { from, to } = moveEnds(move);
  const a = from && centreOf(root, from, mover);
  const b = to && centreOf(root, to, mover);
  if (!a || !b) return null;
  // Stop short of the centres so the pieces stay readable.
  const length = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  const ux = (b.x - a.x) / length;
  const uy = (b.y - a.y) / length;
  const tip = { x: b.x - ux * 14, y: b.y - uy * 14 };
  const head = [
    [tip.x + ux * 10, tip.y + uy * 10],
    [tip.x - uy * 8, tip.y + ux * 8],
    [tip.x + uy * 8, tip.y - ux * 8],
  ].map((p) => p.join(',')).join(' ');
  return svg('g', { class: 'move-arrow', 'data-move': move }, [
    svg('line', { x1: a.x + ux * 14, y1: a.y + uy * 14, x2: tip.x, y2: tip.y }),
    svg('polygon', { points: head }),
  ]);
}

/**
 * An × over a place where a piece was taken.
 * @param {Element} root
 * @param {string} place
 * @returns {SVGElement | null}
 */
export function takenMark(root, place) {
  const c = centreOf(root, place);
  if (!c) return null;
  const r = 16;
  return svg('g', { class: 'taken-mark', 'data-taken': place }, [
    svg('line', { x1: c.x - r, y1: c.y - r, x2: c.x + r, y2: c.y + r }),
    svg('line', { x1: c.x - r, y1: c.y + r, x2: c.x + r, y2: c.y - r }),
  ]);
}

/**
 * A board for `variant` at `position`, with arrows for `moves` and × for `taken`.
 * `bottom` is the side drawn nearest; `face` the Duodecim board face; `mover` the side that plays
 * `moves` (their trays are its own); `selection`, on a board one acts on (moves pieces on, or sets
 * up), the pieces that can move and where the one picked up can go; without it the board is a
 * picture, whose places a screen reader reads one by one if it is `readable`.
 * @param {string} variant
 * @param {string} position
 * @param {{ moves?: string[], taken?: string[], bottom?: string, face?: string,
 *   threatened?: BoardContext['threatened'], odds?: BoardContext['odds'], mover?: string,
 *   selection?: Pick<BoardContext, 'movable' | 'destinations' | 'selected'>, readable?: boolean }} [options]
 * @returns {SVGElement}
 */
export function diagramBoard(variant, position, { moves = [], taken = [], bottom, face = 'virtvs', threatened, odds, mover, selection, readable = false } = {}) {
  const board = boardFor(variant);
  const model = board.parse(position);
  /** @type {Set<string>} */
  const ends = new Set();
  for (const move of moves) {
    const { from, to } = moveEnds(move);
    if (from) ends.add(from);
    if (to) ends.add(to);
  }
  const root = board.render(model, { bottom: bottom || defaultBottom(variant), face, lastMove: ends, threatened, odds, ...selection });
  root.setAttribute('class', `${root.getAttribute('class')} diagram`);
  if (!selection) {
    // A picture, not a board to play on: read as one image by its name (the board and its side),
    // where every place was a disabled button (a rules page held some 350 of them). A `readable`
    // one (the review's single board) keeps each place's words, as images inside the board's
    // group, so that a screen reader reads the position at each step (a keyboard audit heard only
    // "Petteia 6×6 board").
    if (!readable) root.setAttribute('role', 'img');
    for (const place of root.querySelectorAll('[data-place]')) {
      for (const name of ['role', 'tabindex', 'aria-disabled', 'aria-pressed', ...(readable ? [] : ['aria-label'])]) place.removeAttribute(name);
      if (readable && place.hasAttribute('aria-label')) place.setAttribute('role', 'img');
    }
  }
  for (const move of moves) {
    const arrow = moveArrow(root, move, mover);
    if (arrow) root.append(arrow);
  }
  for (const place of taken) {
    const mark = takenMark(root, place);
    if (mark) root.append(mark);
  }
  return root;
}

/** @param {string} variant */
function defaultBottom(variant) {
  if (variant.startsWith('petteia')) return 'light';
  if (variant.startsWith('pente')) return 'terracotta';
  return 'white';
}

/**
 * A worked example: the position with its move drawn, and the position after, with what was taken.
 * @param {import('./examples.js').Example} example
 * @param {(key: string, params?: Record<string, any>) => any} t
 */
export function exampleFigure(example, t) {
  const movesText = example.moves.join(', ');
  // The side to move before is the one that plays the moves: after them, the other may be.
  const mover = /** @type {{ toMove?: string }} */ (boardFor(example.variant).parse(example.position)).toMove;
  const before = diagramBoard(example.variant, example.position, { moves: example.moves, mover });
  const after = diagramBoard(example.variant, example.after, { moves: example.moves, taken: example.taken, mover });
  const captionBefore = [t('rules.before', { move: movesText || '—' })];
  if (example.dice) captionBefore.push(` · ${t('rules.dice', { dice: example.dice.join(', ') })}`);
  if (example.refused) captionBefore.push(` · ${t('rules.not_legal', { move: example.refused })}`);
  return html('figure', { class: 'worked-example', id: `example-${example.key}`, 'data-example': example.key }, [
    html('h3', { text: t(`example.${example.key}`) }),
    html('div', { class: 'diagram-pair' }, [
      html('div', { class: 'diagram-panel before' }, [before, html('p', { class: 'diagram-caption', text: captionBefore.join('') })]),
      html('div', { class: 'diagram-panel after' }, [after, html('p', { class: 'diagram-caption', text: t('rules.after') })]),
    ]),
    html('figcaption', { text: t(`example.${example.key}.text`) }),
  ]);
}
