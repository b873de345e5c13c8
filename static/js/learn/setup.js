// @ts-check
// Setting up a position by hand on the analysis board: what a click on a place puts there next,
// written back into the docs/RULES.md notation. Pure: text in, text out. Trays (reserve, off, holy,
// removed) are counts the player types in the position field.

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
  if (variantId.startsWith('pente-grammai')) return pente(position, place);
  return duodecim(position, place);
}
