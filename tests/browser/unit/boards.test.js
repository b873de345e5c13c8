// What a move took off the board, read from the positions before and after it, for the screen
// reader's announcement (a move's notation does not name the pieces it captures or hits).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boardFor } from '../../../static/js/boards/index.js';

/**
 * @param {string} variant
 * @param {string} before
 * @param {string} after
 */
function taken(variant, before, after) {
  const board = boardFor(variant);
  const was = /** @type {{ toMove: string }} */ (board.parse(before));
  return board.taken(was, board.parse(after), was.toMove);
}

test('Petteia: the pieces a move captured, not the piece that moved', () => {
  // Light C1-C5 shuts Dark's B5 between A5 and C5.
  assert.deepEqual(taken('petteia-6', 'D1DDDD/LD4/6/6/6/1LLLLL l 0 1', 'D1DDDD/L1L3/6/6/6/1L1LLL d 0 2'), ['B5']);
  assert.deepEqual(taken('petteia-6', 'DDDDDD/6/6/6/6/LLLLLL l 0 1', 'DDDDDD/6/6/6/L5/1LLLLL d 0 1'), []);
});

test('Pente Grammai: the points where a counter of the other side was hit', () => {
  assert.deepEqual(taken('pente-grammai-kidd', 'T/-/-/-/-/B/-/-/-/- b r:4,4 h:0,0', 'T/-/-/-/-/-/-/-/-/B t r:4,4 h:0,0'), []);
  assert.deepEqual(taken('pente-grammai-kidd', 'T/-/-/-/-/B/-/-/-/- b r:4,4 h:0,0', 'B/-/-/-/-/-/-/-/-/- t r:5,4 h:0,0'), ['0']);
});

test('Duodecim Scripta: the cells where a piece of the other side was hit', () => {
  const empty = '.,.,.,.,.,.,.,.,.,.,.,.';
  const before = `${empty}/${empty.replace(/^\./, '1b')}/${empty} w r:14,14 o:0,0 dice:[] bonus:[]`;
  const hit = `${empty}/${empty.replace(/^\./, '1w')}/${empty} w r:13,15 o:0,0 dice:[] bonus:[]`;
  assert.deepEqual(taken('duodecim-scripta', before, hit), ['M1']);
  const joined = `${empty}/${empty.replace(/^\./, '1b').replace(/,\.$/, ',1w')}/${empty} w r:13,14 o:0,0 dice:[] bonus:[]`;
  assert.deepEqual(taken('duodecim-scripta', before, joined), []);
});

test('Perimeter Line Battle: the mover’s own counters removed after its turn, said with what a move hit', async () => {
  const { takenSentence } = await import('../../../static/js/boards/index.js');
  const { setLanguage } = await import('../../../static/js/i18n.js');
  // Line 2 (points 1 and 8) is threatened against Terracotta: its one counter on point 1 against
  // Black's two on 8. Terracotta moves elsewhere and stays outnumbered there: point 1 is removed.
  const before = 'T/T/T/T/T/B/-/B/2B/B t x:0,0 th:t@2';
  const board = boardFor('pente-grammai-perimeter');
  const removed = (/** @type {string} */ after, /** @type {string} */ move) => /** @type {NonNullable<typeof board.removed>} */ (board.removed)(board.parse(before), board.parse(after), 'terracotta', move);
  assert.deepEqual(removed('T/-/-/T/2T/B/-/B/2B/B b x:1,0', '2:2-4'), ['1']);
  // The counter that moved left its point and arrived at another: neither is a removal.
  assert.deepEqual(removed('T/T/-/T/2T/B/-/B/2B/B b x:0,0', '2:2-4'), []);
  // A re-entry comes from the tray: only the points matter.
  assert.deepEqual(board.removed?.(board.parse('-/T/T/T/T/B/-/B/2B/B t x:1,0'), board.parse('T/T/T/T/T/B/-/B/2B/B b x:0,0'), 'terracotta', '2:X-0'), []);
  setLanguage('en');
  assert.equal(takenSentence('pente-grammai-perimeter', before, 'T/-/-/T/2T/B/-/B/2B/B b x:1,0', '2:2-4'), 'Terracotta’s counters removed, still outnumbered: point 1.');
  setLanguage('fr');
  assert.equal(takenSentence('pente-grammai-perimeter', before, 'T/-/-/T/2T/B/-/B/2B/B b x:1,0', '2:2-4'), 'Pions de Terre cuite retirés, toujours en infériorité\u00a0: point 1.');
  // Kidd's counter reaching its goal leaves the route for the holy line: no removal there.
  setLanguage('en');
  assert.equal(takenSentence('pente-grammai-kidd', 'T/-/-/-/-/B/-/-/-/- b r:4,4 h:0,0', 'B/-/-/-/-/-/-/-/-/- t r:5,4 h:0,0', '5:5-0'), 'Black hit point 0.');
  assert.equal(takenSentence('petteia-6', 'D1DDDD/LD4/6/6/6/1LLLLL l 0 1', 'D1DDDD/L1L3/6/6/6/1L1LLL d 0 2', 'C1-C5'), 'Light captured B5.');
  assert.equal(takenSentence('petteia-6', 'DDDDDD/6/6/6/6/LLLLLL l 0 1', 'DDDDDD/6/6/6/L5/1LLLLL d 0 1', 'A1-A2'), '');
});
