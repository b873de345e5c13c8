// @ts-check
// Setting up a position by hand on the analysis board: what a click on a place puts there next,
// written back into the docs/RULES.md notation. Pure: text in, text out. Where a variant has a tray
// that holds the pieces off the board (Duodecim's and Kidd's reserve, the Perimeter's removed), a
// piece put on the board comes from it and one taken off goes back, so every click gives a
// position with each side's whole set (an empty board refused at every click, learner's audit).
// The other trays (off, holy) are counts the player types in the position field.

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

/** Pente Grammai's counters a side (RULES.md §2); Duodecim's pieces. */
const COUNTERS = 5;
const PIECES = 15;

/**
 * Sets the field `key` (`key:a,b`) to the pieces of each side that are neither on the board nor in
 * the other counted fields, when none is short; otherwise leaves the text for the server to refuse.
 * @param {string[]} rest the fields after the board
 * @param {[number, number]} onBoard
 * @param {string} key
 * @param {string[]} others the other fields counted with the board
 * @param {number} total
 * @returns {string[]}
 */
function refill(rest, onBoard, key, others, total) {
  /** @param {string} name */
  const pair = (name) => {
    const field = rest.find((f) => f.startsWith(`${name}:`));
    return field ? field.slice(name.length + 1).split(',').map(Number) : [0, 0];
  };
  const left = [0, 1].map((i) => total - onBoard[i] - others.reduce((sum, name) => sum + (pair(name)[i] || 0), 0));
  if (left.some((n) => !(n >= 0))) return rest;
  const field = `${key}:${left.join(',')}`;
  return rest.some((f) => f.startsWith(`${key}:`)) ? rest.map((f) => (f.startsWith(`${key}:`) ? field : f)) : [...rest, field];
}

/**
 * Each side's counters on a Pente Grammai board, Terracotta's then Black's.
 * @param {string} points the board's field
 * @returns {[number, number]}
 */
function penteOnBoard(points) {
  /** @type {[number, number]} */
  const onBoard = [0, 0];
  for (const point of points.split('/')) {
    for (const [, n, side] of point.matchAll(/(\d*)([TB])/g)) onBoard[side === 'T' ? 0 : 1] += Number(n || 1);
  }
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
  const onBoard = penteOnBoard(position.trim().split(/\s+/)[0]);
  return onBoard.every((n) => n === COUNTERS) ? null : onBoard;
}

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
 * variant has no such tray or a side has too many pieces already.
 * @param {string} variantId
 * @param {string} position
 * @returns {string}
 */
export function fillTrays(variantId, position) {
  const [board, side, ...fields] = position.trim().split(/\s+/);
  /** @type {[number, number]} */
  let onBoard = [0, 0];
  let tray = null;
  if (variantId === 'duodecim-scripta') {
    for (const cell of board.split(/[/,]/)) {
      const stack = /^(\d+)([wb])$/.exec(cell);
      if (stack) onBoard[stack[2] === 'w' ? 0 : 1] += Number(stack[1]);
    }
    tray = refill(fields, onBoard, 'r', ['o'], PIECES);
  } else if (variantId === 'pente-grammai-kidd' || variantId === 'pente-grammai-perimeter') {
    onBoard = penteOnBoard(board);
    tray = variantId === 'pente-grammai-kidd' ? refill(fields, onBoard, 'r', ['h'], COUNTERS) : refill(fields, onBoard, 'x', [], COUNTERS);
  }
  return tray ? [board, side, ...tray].join(' ') : position;
}
