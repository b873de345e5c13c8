// @ts-check
// Setting up a position by hand on the analysis board: what a click on a place puts there next,
// written back into the docs/RULES.md notation. Pure: text in, text out. Where a variant has a tray
// that holds the pieces off the board (Duodecim's and Kidd's reserve, the Perimeter's removed), a
// piece put on the board comes from it and one taken off goes back, so every click gives a
// position with each side's whole set (an empty board refused at every click, learner's audit).
// The other trays (off, holy) are counts the player types in the position field.

import { parse as parsePente } from '../boards/pente.js';
import { parse as parseDuodecim } from '../boards/duodecim.js';

const FILES = 'ABCDEFGH';

/**
 * @param {string} position
 * @param {string} place
 * @returns {string}
 */
function petteia(position, place) {
  const [ranks, ...rest] = position.trim().split(/\s+/);
  const rows = ranks.split('/').map((row) => [...row].flatMap((ch) => (/\d/.test(ch) ? Array(Number(ch)).fill('.') : [ch])));
  const n = rows.length;
  const file = FILES.indexOf(place[0]);
  const rank = Number(place.slice(1));
  if (file < 0 || file >= n || !(rank >= 1 && rank <= n)) return position;
  const row = rows[n - rank];
  row[file] = /** @type {Record<string, string>} */ ({ '.': 'L', L: 'D', D: '.' })[row[file]];
  const text = rows.map((cells) => cells.join('').replace(/\.+/g, (run) => String(run.length))).join('/');
  return [text, ...rest].join(' ');
}

const PENTE_CYCLE = ['-', 'T', 'B', '2T', '2B'];

/**
 * @param {string} position
 * @param {string} place
 * @returns {string}
 */
function pente(position, place) {
  const [points, ...rest] = position.trim().split(/\s+/);
  const list = points.split('/');
  const p = Number(place);
  if (!(p >= 0 && p < list.length) || place === '') return position;
  const at = PENTE_CYCLE.indexOf(list[p]);
  list[p] = PENTE_CYCLE[(at + 1) % PENTE_CYCLE.length];
  return [list.join('/'), ...rest].join(' ');
}

/** Pente Grammai's counters a side (RULES.md §2); Duodecim's pieces (§3). */
const COUNTERS = 5;
const PIECES = 15;

/**
 * Each side's counters on a Pente Grammai board, Terracotta's then Black's.
 * @param {import('../boards/pente.js').PenteModel} model
 * @returns {[number, number]}
 */
const penteOnBoard = (model) => [
  model.points.reduce((sum, point) => sum + point.terracotta, 0),
  model.points.reduce((sum, point) => sum + point.black, 0),
];

/**
 * Each side's pieces on a Duodecim board, White's then Black's.
 * @param {import('../boards/duodecim.js').DuodecimModel} model
 * @returns {[number, number]}
 */
function duodecimOnBoard(model) {
  /** @type {[number, number]} */
  const onBoard = [0, 0];
  for (const { side, count } of Object.values(model.cells)) onBoard[side === 'white' ? 0 : 1] += count;
  return onBoard;
}

/**
 * A board being set up in Schädler's rules, which keep no counter off the board, while it does not
 * hold each side's five: each side's counters on it (the page says so in its language, where the
 * server would refuse the position at every click). Null in every other case.
 * @param {string} variantId
 * @param {string} position
 * @returns {[number, number] | null}
 */
export function unfinishedSetUp(variantId, position) {
  if (variantId !== 'pente-grammai-schaedler') return null;
  const onBoard = penteOnBoard(parsePente(position));
  return onBoard.every((n) => n === COUNTERS) ? null : onBoard;
}

/**
 * Where a variant keeps the pieces off its board: the tray's field, each side's whole set, and
 * each side's pieces on the board and in the other trays (read by the board's own parser).
 * @type {Record<string, { field: string, total: number, placed: (position: string) => [number, number] }>}
 */
const TRAYS = {
  'duodecim-scripta': {
    field: 'r',
    total: PIECES,
    placed: (position) => {
      const model = parseDuodecim(position);
      const [white, black] = duodecimOnBoard(model);
      return [white + model.off.white, black + model.off.black];
    },
  },
  'pente-grammai-kidd': {
    field: 'r',
    total: COUNTERS,
    placed: (position) => {
      const model = parsePente(position);
      const [terracotta, black] = penteOnBoard(model);
      return [terracotta + (model.holy?.terracotta ?? 0), black + (model.holy?.black ?? 0)];
    },
  },
  'pente-grammai-perimeter': { field: 'x', total: COUNTERS, placed: (position) => penteOnBoard(parsePente(position)) },
};

const DUODECIM_CYCLE = ['.', '1w', '2w', '1b', '2b'];
const ROWS = 'TMB';

/**
 * @param {string} position
 * @param {string} place
 * @returns {string}
 */
function duodecim(position, place) {
  const [board, ...rest] = position.trim().split(/\s+/);
  const rows = board.split('/').map((row) => row.split(','));
  const r = ROWS.indexOf(place[0]);
  const col = Number(place.slice(1));
  if (r < 0 || !(col >= 1 && col <= 12)) return position;
  const at = DUODECIM_CYCLE.indexOf(rows[r][col - 1]);
  rows[r][col - 1] = DUODECIM_CYCLE[(at + 1) % DUODECIM_CYCLE.length];
  return [rows.map((row) => row.join(',')).join('/'), ...rest].join(' ');
}

/**
 * The position after clicking `place` in set-up mode: the next occupant in a short cycle.
 * @param {string} variantId
 * @param {string} position
 * @param {string} place
 * @returns {string}
 */
export function cyclePlace(variantId, position, place) {
  if (variantId.startsWith('petteia')) return petteia(position, place);
  const next = variantId.startsWith('pente-grammai') ? pente(position, place) : duodecim(position, place);
  // A place that is not on the board changes nothing, its trays included.
  return next === position ? position : fillTrays(variantId, next);
}

/**
 * The position with the tray that holds the pieces off the board (Duodecim's and Kidd's reserve,
 * the Perimeter's removed) counting each side's pieces that are nowhere else; unchanged where the
 * variant has no such tray or a side has too many pieces already (the server then says so).
 * @param {string} variantId
 * @param {string} position
 * @returns {string}
 */
export function fillTrays(variantId, position) {
  const tray = TRAYS[variantId];
  if (!tray) return position;
  const left = tray.placed(position).map((n) => tray.total - n);
  if (left.some((n) => !(n >= 0))) return position;
  // The tray's field where it stands (after the board and the side), else added at the end.
  const fields = position.trim().split(/\s+/);
  const written = `${tray.field}:${left.join(',')}`;
  const at = fields.findIndex((f, i) => i > 1 && f.startsWith(`${tray.field}:`));
  if (at < 0) fields.push(written);
  else fields[at] = written;
  return fields.join(' ');
}
