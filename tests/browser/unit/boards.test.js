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
