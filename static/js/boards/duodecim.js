// @ts-check
// Duodecim Scripta (docs/RULES.md §3): three rows of twelve cells, each half carrying a six-letter word
// of the chosen board face; stacks drawn with their counts; each side's reserve (R) and pieces
// borne off (O) in trays. Cells are named from White's seat; with Black at the bottom the board
// turns half round: every cell keeps its name, and the face is printed to be read from the seat
// (see `render`), so a letter names a place on the screen, not a cell: players name cells by name.
import { svg, placeAttrs, trayAttrs, stack, withPlaceNames } from '../svg.js';
import { t, sideLabel, percent } from '../i18n.js';

// The inscriptions a board may carry, twelve letters to a row of cells; each face is named in the
// interface's language by its message `face.<key>`.
/** @type {Record<string, { rows: string[] | null }>} */
export const FACES = {
  virtvs: { rows: ['VIRTVSIMPERI', 'HOSTESVINCTI', 'LVDANTROMANI'] },
  levate: { rows: ['LEVATEDALOCV', 'LVDERENESCIS', 'IDIOTARECEDE'] },
  plain: { rows: null },
};

const ROWS = ['T', 'M', 'B'];

/** @param {string} text */
function pair(text) {
  const [w, b] = text.split(',').map(Number);
  return { white: w || 0, black: b || 0 };
}

/** @param {string} text */
function list(text) {
  const inner = text.replace(/^\[|\]$/g, '');
  return inner ? inner.split(',').map(Number) : [];
}

/**
 * @typedef {{ white: number, black: number }} Pair
 * @typedef {{ cells: Record<string, { side: string, count: number }>, toMove: string, reserve: Pair,
 *   off: Pair, dice: number[], bonus: number[] }} DuodecimModel
 */

/**
 * The position of docs/RULES.md §3.3 → {cells: {M3: {side, count}}, toMove, reserve, off, dice, bonus}
 * @param {string} position
 * @returns {DuodecimModel}
 */
export function parse(position) {
  const [rowsText, side, ...rest] = position.trim().split(/\s+/);
  /** @type {Record<string, { side: string, count: number }>} */
  const cells = {};
  rowsText.split('/').forEach((row, i) => {
    row.split(',').forEach((cell, c) => {
      const m = /^(\d+)([wb])$/.exec(cell);
      if (m) cells[ROWS[i] + (c + 1)] = { side: m[2] === 'w' ? 'white' : 'black', count: Number(m[1]) };
    });
  });
  /** @type {DuodecimModel} */
  const model = { cells, toMove: side === 'b' ? 'black' : 'white', reserve: { white: 15, black: 15 }, off: { white: 0, black: 0 }, dice: [], bonus: [] };
  for (const field of rest) {
    const [key, value] = field.split(/:(.*)/);
    if (key === 'r') model.reserve = pair(value);
    else if (key === 'o') model.off = pair(value);
    else if (key === 'dice') model.dice = list(value);
    else if (key === 'bonus') model.bonus = list(value);
  }
  return model;
}

/**
 * The cells where `mover`'s move from `before` to `after` hit a piece of the other side.
 * @param {DuodecimModel} before
 * @param {DuodecimModel} after
 * @param {string} mover
 * @returns {string[]}
 */
export function taken(before, after, mover) {
  return Object.entries(before.cells).filter(([cell, held]) => held.side !== mover && after.cells[cell]?.side === mover).map(([cell]) => cell);
}

/**
 * The route's step of a cell (docs/RULES.md §3.1, the same for both sides): M1→M12 are 1–12,
 * T12→T1 13–24, B1→B12 25–36.
 * @param {string} name
 */
export function step(name) {
  const col = Number(name.slice(1));
  return { M: col, T: 25 - col, B: 24 + col }[name[0]] ?? 0;
}

/**
 * Each side's pip count, as race games show it: the steps its pieces still have to go to bear off
 * (a piece on step s needs 37 − s; one in reserve, the whole route, 37).
 * @param {DuodecimModel} model
 * @returns {Pair}
 */
export function pips(model) {
  const count = { white: 37 * model.reserve.white, black: 37 * model.reserve.black };
  for (const [name, { side, count: n }] of Object.entries(model.cells)) {
    count[/** @type {'white' | 'black'} */ (side)] += n * (37 - step(name));
  }
  return count;
}

/**
 * @param {DuodecimModel} model
 * @param {import('../svg.js').BoardContext} ctx
 */
export function render(model, ctx) {
  const cell = 48;
  const gapMid = 24;
  const left = 20;
  const boardTop = 78;
  const width = left * 2 + cell * 12 + gapMid;
  const height = boardTop * 2 + cell * 3 + 8;
  const flip = ctx.bottom === 'black';
  // Own keys only: a stored preference such as 'toString' must not pick up Object's methods.
  const faceKey = ctx.face && Object.hasOwn(FACES, ctx.face) ? ctx.face : 'virtvs';
  const face = FACES[faceKey];
  const root = svg('svg', {
    viewBox: `0 0 ${width} ${height}`,
    class: 'board board-duodecim',
    role: 'group',
    'aria-label': t('board.duodecim', { side: sideLabel(flip ? 'black' : 'white'), face: t(`face.${faceKey}`) }),
  });
  root.append(svg('rect', { x: 0, y: 0, width, height, class: 'frame', rx: 8 }));
  const xOf = (/** @type {number} */ col) => {
    const c = flip ? 13 - col : col;
    return left + (c - 1) * cell + (c > 6 ? gapMid : 0);
  };
  const yOf = (/** @type {number} */ row) => boardTop + (flip ? 2 - row : row) * cell;
  // A cell's name is its row's letter and its column's number (T1 … B12), written at the board's
  // edges as a chess board's coordinates: in each cell's corner they were 4.7 px on a phone.
  for (let col = 1; col <= 12; col += 1) {
    // Below the board: above it the top trays come nearer.
    root.append(svg('text', { x: xOf(col) + cell / 2, y: boardTop + 3 * cell + 17, class: 'cell-coord', 'text-anchor': 'middle', 'aria-hidden': 'true' }, String(col)));
  }
  ROWS.forEach((rowName, r) => {
    for (const x of [left / 2, width - left / 2]) {
      root.append(svg('text', { x, y: yOf(r) + cell / 2 + 6, class: 'cell-coord', 'text-anchor': 'middle', 'aria-hidden': 'true' }, rowName));
    }
  });
  ROWS.forEach((rowName, r) => {
    for (let col = 1; col <= 12; col += 1) {
      const name = rowName + col;
      const x = xOf(col);
      const y = yOf(r);
      const occupant = model.cells[name];
      const g = svg('g', placeAttrs(name, ctx, t(occupant ? `place.${occupant.side}` : 'place.empty', { place: name, n: occupant ? occupant.count : 0 })));
      g.append(svg('rect', { x, y, width: cell, height: cell, class: `cell ${r === 1 ? 'cell-mid' : ''}` }));
      // The face is printed for the one who looks at it: from Black's side too its words read
      // left to right, top to bottom (a cell's letter is the one at its place on the screen).
      const letter = face.rows && face.rows[flip ? 2 - r : r][(flip ? 13 - col : col) - 1];
      if (letter) g.append(svg('text', { x: x + cell / 2, y: y + cell * 0.72, 'text-anchor': 'middle', class: 'inscription under-pieces', 'aria-hidden': 'true' }, letter));
      if (ctx.lastMove && ctx.lastMove.has(name)) g.append(svg('rect', { x: x + 2, y: y + 2, width: cell - 4, height: cell - 4, class: 'last-move' }));
      const pieces = occupant ? stack(x + cell / 2, y + cell / 2, cell * 0.34, occupant.side, occupant.count) : null;
      if (pieces) g.append(pieces);
      if (ctx.threatened && ctx.threatened.has(name)) {
        g.append(svg('circle', { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.44, class: 'threat' }));
        const odds = ctx.odds && ctx.odds[name];
        if (odds) g.append(svg('text', { x: x + cell / 2, y: y + cell - 2, 'text-anchor': 'middle', class: 'odds' }, percent(odds.hits / odds.of)));
      }
      if (ctx.destinations && ctx.destinations.has(name)) g.append(svg('circle', { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.13, class: 'dest-marker' }));
      g.append(svg('rect', { x, y, width: cell, height: cell, class: 'hit' }));
      root.append(g);
    }
  });
  for (const side of /** @type {('white' | 'black')[]} */ (['white', 'black'])) {
    const bottom = side === ctx.bottom;
    const y = bottom ? height - 36 : 36;
    const name = sideLabel(side);
    // Each tray says its side: the name beside them is for the eye.
    root.append(svg('text', { x: left, y: y + 5, class: 'tray-side', 'aria-hidden': 'true' }, name));
    /** @type {[string, string, number][]} */
    const trays = [['R', 'reserve', model.reserve[side]], ['O', 'off', model.off[side]]];
    trays.forEach(([zone, title, count], i) => {
      const x = 250 + i * 210;
      const place = side === model.toMove ? zone : null;
      const g = svg('g', { ...trayAttrs(place, ctx, t('place.tray', { side: name, tray: t(`board.${title}`), n: count })), 'data-tray': zone, 'data-side': side });
      g.append(svg('rect', { x: x - 80, y: y - 22, width: 160, height: 44, rx: 8, class: 'tray-box' }));
      g.append(svg('text', { x: x - 40, y: y + 5, 'text-anchor': 'middle', class: 'tray-label' }, t(`board.${title}`)));
      g.append(stack(x + 45, y, 16, side, count) || svg('text', { x: x + 45, y: y + 5, 'text-anchor': 'middle', class: 'tray-label' }, '0'));
      if (ctx.destinations && ctx.destinations.has(zone) && place) g.append(svg('circle', { cx: x + 45, cy: y, r: 8, class: 'dest-marker' }));
      if (place) g.append(svg('rect', { x: x - 80, y: y - 22, width: 160, height: 44, class: 'hit' }));
      root.append(g);
    });
  }
  return withPlaceNames(root);
}

export const sideNames = { white: 'White', black: 'Black' };
