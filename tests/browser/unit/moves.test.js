// The move list by turn (static/js/game/moves.js), as the game screen shows it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pairedTurns, diceTurns, turnWords, dieFace } from '../../../static/js/game/moves.js';
import { sideName } from '../../../static/js/boards/index.js';
import { moveLabel } from '../../../static/js/i18n.js';
import { diceOfTurn } from '../../../static/js/game/dice.js';
import { parse, pips, step } from '../../../static/js/boards/duodecim.js';

/** A turn's line as the list shows it: its words, spaced. */
const turnText = (...args) => turnWords(...args).join(' ');

test('Petteia puts both sides of a turn on one line, numbered by turn past 100', () => {
  const moves = Array.from({ length: 201 }, (_, i) => `m${i + 1}`);
  const turns = pairedTurns(moves);
  assert.equal(turns.length, 101);
  assert.deepEqual(turns[0], { number: 1, plies: ['m1', 'm2'] });
  assert.deepEqual(turns[99], { number: 100, plies: ['m199', 'm200'] });
  assert.deepEqual(turns[100], { number: 101, plies: ['m201'] });
  assert.equal(turnText(turns[99], sideName), 'm199 m200');
});

test('a dice turn is one line: the side, its roll, its moves', () => {
  const turns = diceTurns([
    { version: 2, kind: 'clock_started' },
    { version: 3, kind: 'roll', side: 'black', dice: [3, 5, 6] },
    { version: 4, kind: 'move', side: 'black', move: '3:R-M3' },
    { version: 5, kind: 'move', side: 'black', move: '5:M3-M8' },
    { version: 6, kind: 'roll', side: 'white', dice: [1] },
  ]);
  assert.equal(turns.length, 2);
  assert.equal(turnText(turns[0], sideName), 'Black ⚂⚄⚅ 3:R-M3 5:M3-M8');
  assert.equal(turnText(turns[1], sideName), 'White ⚀');
});

test('bonus dice played or declined before the roll come before it on the line', () => {
  const turns = diceTurns([
    { version: 1, kind: 'roll', side: 'white', dice: [2, 2, 4] },
    { version: 2, kind: 'move', side: 'white', move: '2:R-M2' },
    { version: 3, kind: 'move', side: 'black', move: 'decline' },
    { version: 4, kind: 'roll', side: 'black', dice: [6, 1, 1] },
    { version: 5, kind: 'move', side: 'black', move: '6:R-M6' },
  ]);
  assert.deepEqual(turns.map((t) => turnText(t, sideName)), ['White ⚁⚁⚃ 2:R-M2', 'Black decline ⚅⚀⚀ 6:R-M6']);
  const french = (move) => moveLabel(move, 'fr');
  assert.equal(turnText(turns[1], sideName, '', french), 'Black refus ⚅⚀⚀ 6:R-M6', 'the notation\'s word in the reader\'s language');
  assert.equal(french('5:pass'), '5:passe');
  assert.equal(turnText(turns[1], sideName, '', moveLabel), 'Black decline ⚅⚀⚀ 6:R-M6', 'moveLabel as the screen passes it');
  assert.deepEqual(turns.map((t) => t.number), [1, 2]);
});

test('a roll with no die to play says so once the other side goes on; the roll being played does not', () => {
  const turns = diceTurns([
    { version: 1, kind: 'roll', side: 'white', dice: [6, 6, 5] },
    { version: 2, kind: 'move', side: 'black', move: '6:R-M6' },
    { version: 3, kind: 'roll', side: 'black', dice: [2, 3, 1] },
  ]);
  assert.deepEqual(turns.map((t) => turnText(t, sideName, '(no move)')), ['White ⚅⚅⚄ (no move)', 'Black 6:R-M6 ⚁⚂⚀']);
});

test('an undo keeps only its first rolls and moves', () => {
  const turns = diceTurns([
    { version: 1, kind: 'roll', side: 'terracotta', dice: [3] },
    { version: 2, kind: 'move', side: 'terracotta', move: '3:0-3' },
    { version: 3, kind: 'roll', side: 'black', dice: [2] },
    { version: 4, kind: 'move', side: 'black', move: '2:5-7' },
    { version: 5, kind: 'undo', side: 'black', keep: 3 },
  ]);
  assert.deepEqual(turns.map((t) => turnText(t, sideName)), ['Terracotta ⚂ 3:0-3', 'Black ⚁']);
});

test('die faces are the Unicode dice', () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6].map(dieFace).join(''), '⚀⚁⚂⚃⚄⚅');
});

test('a turn\'s dice are shown whole, those played marked used (a die played is greyed, not taken away)', () => {
  assert.deepEqual(diceOfTurn([6, 2, 3], [2, 3]), [{ value: 6, used: true }, { value: 2, used: false }, { value: 3, used: false }]);
  assert.deepEqual(diceOfTurn([4, 4, 1], [4]), [{ value: 4, used: false }, { value: 4, used: true }, { value: 1, used: true }]);
  assert.deepEqual(diceOfTurn([5, 1, 2], []), [{ value: 5, used: true }, { value: 1, used: true }, { value: 2, used: true }]);
  // Without the roll, or dice that are not part of it (an undo past it), the dice left alone.
  assert.deepEqual(diceOfTurn(null, [3, 5]), [{ value: 3, used: false }, { value: 5, used: false }]);
  assert.deepEqual(diceOfTurn([1, 2, 3], [6]), [{ value: 6, used: false }]);
});

test('Duodecim\'s pip count: the steps each side\'s pieces still have to go, the reserve the whole route', () => {
  const row = '.,.,.,.,.,.,.,.,.,.,.,.';
  assert.deepEqual(pips(parse(`${row}/${row}/${row} w r:15,15 o:0,0 dice:[] bonus:[]`)), { white: 555, black: 555 });
  // White: one on M1 (step 1), one on T1 (step 24); Black: two on B12 (step 36), twelve off.
  const position = `1w,.,.,.,.,.,.,.,.,.,.,./1w,.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,2b b r:13,1 o:0,12 dice:[] bonus:[]`;
  assert.deepEqual(pips(parse(position)), { white: 13 * 37 + 36 + 13, black: 37 + 2 });
  assert.deepEqual(['M1', 'M12', 'T12', 'T1', 'B1', 'B12'].map(step), [1, 12, 13, 24, 25, 36]);
});
