// @ts-check
// Petteia (docs/RULES.md §1): the N×N grid from the position string. File letters and rank numbers
// are drawn beside their own column and row, so they turn with the board.
import { svg, placeAttrs, stack, withPlaceNames } from '../svg.js';
import { t, sideLabel } from '../i18n.js';

const FILES = 'ABCDEFGH';

/**
 * @typedef {{ n: number, board: Record<string, string>, toMove: string }} PetteiaModel
 */

/**
 * `DDDDDD/6/6/6/6/LLLLLL l 0 1` → {n, board: {A1: 'light', …}, toMove}
 * @param {string} position
 * @returns {PetteiaModel}
 */
export function parse(position) {
  const [ranks, side] = position.trim().split(/\s+/);
  const rows = ranks.split('/');
  const n = rows.length;
  /** @type {Record<string, string>} */
  const board = {};
  rows.forEach((row, i) => {
    const rank = n - i;
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else {
        board[FILES[file] + rank] = ch === 'L' ? 'light' : 'dark';
        file += 1;
      }
    }
  });
  return { n, board, toMove: side === 'd' ? 'dark' : 'light' };
}

/**
 * The places whose pieces `mover`'s move from `before` to `after` took off the board.
 * @param {PetteiaModel} before
 * @param {PetteiaModel} after
 * @param {string} mover
 * @returns {string[]}
 */
export function taken(before, after, mover) {
  return Object.keys(before.board).filter((place) => before.board[place] !== mover && after.board[place] !== before.board[place]);
}

/**
 * @param {PetteiaModel} model
 * @param {import('../svg.js').BoardContext} ctx
 */
export function render(model, ctx) {
  const { n } = model;
  const cell = 60;
  const margin = 26;
  const size = n * cell + 2 * margin;
  const flip = ctx.bottom === 'dark';
  const root = svg('svg', {
    viewBox: `0 0 ${size} ${size}`,
    class: 'board board-petteia',
    role: 'group',
    'aria-label': t('board.petteia', { n, side: sideLabel(flip ? 'dark' : 'light') }),
  });
  root.append(svg('rect', { x: 0, y: 0, width: size, height: size, class: 'frame', rx: 8 }));
  const xOf = (/** @type {number} */ f) => margin + (flip ? n - 1 - f : f) * cell;
  const yOf = (/** @type {number} */ r) => margin + (flip ? r - 1 : n - r) * cell;
  for (let f = 0; f < n; f += 1) {
    root.append(svg('text', { x: xOf(f) + cell / 2, y: size - 8, class: 'coord', 'text-anchor': 'middle', 'aria-hidden': 'true' }, FILES[f]));
    root.append(svg('text', { x: xOf(f) + cell / 2, y: 18, class: 'coord', 'text-anchor': 'middle', 'aria-hidden': 'true' }, FILES[f]));
  }
  for (let r = 1; r <= n; r += 1) {
    root.append(svg('text', { x: 13, y: yOf(r) + cell / 2 + 5, class: 'coord', 'text-anchor': 'middle', 'aria-hidden': 'true' }, String(r)));
    root.append(svg('text', { x: size - 13, y: yOf(r) + cell / 2 + 5, class: 'coord', 'text-anchor': 'middle', 'aria-hidden': 'true' }, String(r)));
  }
  for (let r = 1; r <= n; r += 1) {
    for (let f = 0; f < n; f += 1) {
      const name = FILES[f] + r;
      const x = xOf(f);
      const y = yOf(r);
      const occupant = model.board[name];
      const g = svg('g', placeAttrs(name, ctx, t(occupant ? `place.${occupant}` : 'place.empty', { place: name })));
      g.append(svg('rect', { x, y, width: cell, height: cell, class: `square ${(r + f) % 2 ? 'square-a' : 'square-b'}` }));
      if (ctx.lastMove && ctx.lastMove.has(name)) g.append(svg('rect', { x: x + 2, y: y + 2, width: cell - 4, height: cell - 4, class: 'last-move' }));
      const piece = occupant ? stack(x + cell / 2, y + cell / 2, cell * 0.36, occupant, 1) : null;
      if (piece) g.append(piece);
      if (ctx.threatened && ctx.threatened.has(name)) g.append(svg('circle', { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.45, class: 'threat' }));
      if (ctx.destinations && ctx.destinations.has(name)) g.append(svg('circle', { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.14, class: 'dest-marker' }));
      g.append(svg('rect', { x, y, width: cell, height: cell, class: 'hit' }));
      root.append(g);
    }
  }
  return withPlaceNames(root);
}

export const sideNames = { light: 'Light', dark: 'Dark' };
