// A player with the keyboard and a screen reader (from a keyboard audit): where the focus goes
// after each thing they do, and what the live region tells them that the eye reads off the board.
// The screen reader itself is not run: what it would be given is read (the focused element, the
// announcer's text).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, shot, clickMove, startFromHome, LAPTOP, PHONE } from './support.js';

const { page, assertNoProblems } = await browserSuite();

/** @param {import('playwright-core').Page} p */
const focused = (p) => p.evaluate(() => {
  const el = document.activeElement;
  return el ? { id: el.id, place: el.getAttribute('data-place'), move: el.getAttribute('data-move'), tag: el.tagName } : null;
});

test('a game started from the home page gives the focus to its status line, which says whose move it is', async () => {
  const p = await page(LAPTOP);
  await startFromHome(p, { variant: 'petteia-6', mode: 'local' });
  await p.waitForFunction(() => document.activeElement?.id === 'status');
  assert.match(await p.textContent('#status'), /Light/);
  assertNoProblems(p);
});

test('Undo from the keyboard leaves the focus on the status line, not on Abort: a second Enter aborts nothing', async () => {
  const p = await page(LAPTOP);
  await startFromHome(p, { variant: 'petteia-6', mode: 'computer', level: 1 });
  await clickMove(p, 'A1', 'A3');
  await p.waitForSelector('section.game[data-moves="2"][data-to-move="light"]');
  await p.focus('#undo');
  await p.keyboard.press('Enter');
  await p.waitForSelector('section.game[data-moves="0"]');
  assert.equal((await focused(p)).id, 'status', 'the undo button went away: the focus is on the status line');
  await p.keyboard.press('Enter');
  await p.waitForTimeout(500);
  assert.equal(await p.getAttribute('section.game', 'data-status'), 'playing', 'the game is not aborted');
  assertNoProblems(p);
});

test('a capture is said: the notation does not name the piece taken', async () => {
  const p = await page(PHONE);
  await startFromHome(p, { variant: 'petteia-6', mode: 'local' });
  await clickMove(p, 'A1', 'A5');
  await clickMove(p, 'B6', 'B5');
  // C1-C5 shuts Dark's B5 between A5 and C5.
  await clickMove(p, 'C1', 'C5');
  await p.waitForFunction(() => document.querySelector('#announcer').textContent.includes('Light captured B5.'));
  assert.equal(await p.locator('[data-place="B5"] .piece').count(), 0, 'B5 is empty');
  await shot(p, 'keyboard-capture-said-phone', { fullPage: false });
  assertNoProblems(p);
});

test('two dice that take a piece to the same place: Enter goes on to the buttons naming each, and the move keeps the focus on the board', async () => {
  // White's two pieces on B11 with a 6 and a 4: both bear off (the audit: Enter on the tray did
  // nothing, the focus taken back to it).
  const empty = '.,.,.,.,.,.,.,.,.,.,.,.';
  const position = `${empty}/${empty}/.,.,.,.,.,.,.,.,.,.,2w,. w r:0,15 o:13,0 dice:[6,4] bonus:[]`;
  const p = await page(LAPTOP);
  await p.goto(`/analysis?variant=duodecim-scripta&position=${encodeURIComponent(position)}`);
  await p.waitForSelector('[data-place="B11"].movable');
  // The board says its keys, as a game's does.
  assert.match(await p.$eval('.analysis-board svg', (board) => document.getElementById(board.getAttribute('aria-describedby')).textContent), /^Arrow keys move between places/);
  await p.focus('[data-place="B11"]');
  await p.keyboard.press('Enter');
  await p.waitForFunction(() => document.activeElement?.matches('[data-place].dest'));
  await p.keyboard.press('Enter');
  await p.waitForFunction(() => document.activeElement?.matches('button.move-button'));
  const choice = (await focused(p)).move;
  assert.match(choice, /^[46]:B11-O$/, 'a button naming one of the two moves');
  await p.keyboard.press('Enter');
  await p.waitForFunction((before) => document.querySelector('#analysis-position').value !== before, position);
  await p.waitForFunction(() => document.activeElement?.closest('.analysis-board') && document.activeElement.hasAttribute('data-place'));
  assert.equal((await focused(p)).place, 'O', 'the focus is where the piece went');
  assertNoProblems(p);
});

test('Escape puts down the piece picked up, and the focus stays on it', async () => {
  const p = await page(LAPTOP);
  await startFromHome(p, { variant: 'petteia-6', mode: 'local' });
  await p.focus('[data-place="A1"]');
  await p.keyboard.press('Enter');
  await p.waitForSelector('[data-place="A1"].selected');
  await p.keyboard.press('Escape');
  await p.waitForSelector('[data-place="A1"]:not(.selected)');
  assert.equal((await focused(p)).place, 'A1');
  assert.equal(await p.locator('[data-place].dest').count(), 0);
  assertNoProblems(p);
});

test('Perimeter Line Battle: counters removed after their own side’s turn are said, and each tray says whose it is', async () => {
  // Line 2 (points 1 and 8) is threatened against Terracotta, one counter against two: a move
  // elsewhere leaves it outnumbered, and its counter on point 1 is removed.
  const position = 'T/T/T/T/T/B/-/B/2B/B t x:0,0 th:t@2';
  const p = await page(LAPTOP);
  await p.goto(`/analysis?variant=pente-grammai-perimeter&position=${encodeURIComponent(position)}&dice=2`);
  await p.waitForSelector('button.move-button[data-move="2:2-4"]');
  // The tray of the side not to move is a picture with its side in its name (its loose words
  // read "Black removed 0"); the side to move's is a place, named the same way.
  const tray = (/** @type {string} */ side) => p.locator(`.analysis-board [data-tray="X"][data-side="${side}"]`);
  assert.equal(await tray('black').getAttribute('role'), 'img');
  assert.equal(await tray('black').getAttribute('aria-label'), 'Black removed, 0 pieces');
  assert.equal(await tray('terracotta').getAttribute('aria-label'), 'Terracotta removed, 0 pieces');
  assert.equal(await p.locator('.analysis-board .tray-side[aria-hidden="true"]').count(), 2);
  await p.click('button.move-button[data-move="2:2-4"]');
  await p.waitForFunction(() => document.querySelector('.analysis-status').textContent.endsWith(' · Terracotta’s counters removed, still outnumbered: point 1.'));
  assert.equal(await tray('terracotta').getAttribute('aria-label'), 'Terracotta removed, 1 piece');
  assertNoProblems(p);
});
