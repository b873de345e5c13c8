// A self-hoster restarts the server in the middle of people's games (an upgrade), or it crashes:
// two people on two browsers keep their game. Each page notices, reconnects by itself with `since`,
// shows the game as the server stored it, and play goes on; a move acknowledged just before the
// crash is still there, and a dice game keeps its dice and its commitment. This file has a server
// of its own, which it restarts on the same port and database.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  browserSuite, shot, shown, view, eventsSince, waitVersion, waitStatus, clickMove, playAnyMove,
  recordConnectionStates, waitReconnected, boardHeard, diceShown, diceHeld, commitmentShown, assertSeedRevealed,
  forgive, LAPTOP, PHONE,
} from './support.js';

const { server, onlineGame, assertNoProblems } = await browserSuite();

/**
 * Asserts that `pages` logged no console error but the browser's own report of each reconnection
 * attempt that found the server down (the page itself logs nothing then).
 */
function assertNoProblemsBesideServerDown(pages) {
  for (const p of pages) forgive(p, /WebSocket connection to '.*' failed/);
  assertNoProblems(...pages);
}

/** Restarts the server (`crash`: SIGKILL) and waits until both pages have reconnected by themselves. */
async function restartUnder(pages, { crash }) {
  await Promise.all(pages.map(recordConnectionStates));
  await server.restart({ crash });
  await Promise.all(pages.map((p) => waitReconnected(p, { timeout: 20000 })));
}

test('a server restarted mid-game, then crashed right after a move: both pages reconnect by themselves, lose no acknowledged move, and play on', async () => {
  const { host, guest } = await onlineGame({ host: LAPTOP, guest: PHONE, variant: 'petteia-6', clock: '5+3' });
  const pages = [host, guest];
  await clickMove(host, 'A1', 'A3');
  await waitVersion(guest, (await shown(host)).version);
  await clickMove(guest, 'B6', 'B4');
  await waitVersion(host, (await shown(guest)).version);

  // A move, and as soon as the mover's page has it acknowledged the server goes down: after
  // Light's an orderly restart (SIGTERM, as an upgrade does), after Dark's a crash (SIGKILL).
  for (const [mover, from, to, crash] of [[host, 'C1', 'C3', false], [guest, 'C6', 'C4', true]]) {
    await clickMove(mover, from, to);
    const acknowledged = await shown(mover);
    const { clocks } = await view(mover);
    await restartUnder(pages, { crash });
    const stored = await view(host);
    const when = crash ? 'crash' : 'restart';
    // The clocks were paused (by the orderly shutdown; after the crash, by the restarted server
    // from when the crashed one was last known alive) and resumed: the downtime is charged to no one.
    const since = await eventsSince(host, acknowledged.version);
    assert.deepEqual(since.map((e) => e.kind), ['clocks_paused', 'clock_started'], `the events after the ${when}`);
    assert.deepEqual(since[1].clocks, since[0].clocks, `the clocks resume where they were paused after the ${when}`);
    assert.deepEqual([stored.version, stored.moves.at(-1), stored.status], [acknowledged.version + since.length, `${from}-${to}`, 'playing'], `the move acknowledged before the ${when} is stored`);
    // The clocks come back as stored: the mover's stands where the move left it; the other's ran on.
    assert.equal(stored.clocks[acknowledged.seat], clocks[acknowledged.seat], `the mover's clock after the ${when}`);
    assert.ok(stored.clocks[stored.to_move] <= clocks[stored.to_move] && stored.clocks.running === stored.to_move);
    for (const p of pages) {
      await waitVersion(p, stored.version);
      const now = await shown(p);
      assert.deepEqual([now.version, now.moves, now.toMove, now.status], [stored.version, stored.moves.length, stored.to_move, 'playing'], `each page after the ${when}`);
      assert.equal(await p.locator('.clock.running').count(), 1, 'the clock of the side to move runs again');
      assert.match(await p.textContent('p.connection'), /neither clock ran while it was down/, `each page says why its clocks jumped after the ${when}`);
    }
    if (!crash) await shot(host, 'restart-00-back-after-an-orderly-restart-laptop');
  }
  const [hostMoves, guestMoves] = await Promise.all(pages.map((p) => p.textContent('.move-list')));
  assert.equal(guestMoves, hostMoves);

  // And the game goes on between the two pages as before.
  await clickMove(host, 'E1', 'E2');
  await waitVersion(guest, (await shown(host)).version);
  assert.match(await guest.textContent('.move-list'), /E1-E2/);
  await shot(guest, 'restart-01-played-on-after-a-crash-phone', { fullPage: false });
  assertNoProblemsBesideServerDown(pages);
});

test('a move played while the server was down is played once it is back, on the board it was chosen on', async () => {
  const { host, guest } = await onlineGame({ host: LAPTOP, guest: PHONE, variant: 'petteia-6', clock: '5+3' });
  const pages = [host, guest];
  await clickMove(host, 'A1', 'A3');
  await waitVersion(guest, (await shown(host)).version);
  await Promise.all(pages.map(recordConnectionStates));
  // An upgrade: while the server is down, Dark plays; the page shows the move as being sent.
  await server.restart({
    whileDown: async () => {
      await guest.click('.board-holder [data-place="B6"]');
      await guest.click('.board-holder [data-place="B4"].dest');
      await guest.waitForSelector('.move-list .pending');
    },
  });
  await Promise.all(pages.map((p) => waitReconnected(p, { timeout: 20000 })));
  // The restart wrote two events (the clocks paused and started again), which left the board as
  // it was: the move chosen before them is played, where it was refused as stale and dropped (a
  // French player's audit: "Refusé : la partie a avancé", on the same board).
  await guest.waitForFunction(() => !document.querySelector('.move-list .pending'));
  const stored = await view(host);
  assert.deepEqual(stored.moves, ['A1-A3', 'B6-B4'], 'the move is stored');
  for (const p of pages) await waitVersion(p, stored.version);
  assert.match(await host.textContent('.move-list'), /B6-B4/);
  assert.equal(await guest.textContent('p.refusal'), '', 'no refusal told');
  assertNoProblemsBesideServerDown(pages);
});

test('a dice game crashed mid-game comes back with the same board, dice and commitment, and its seed still hashes to it', async () => {
  const { host, guest } = await onlineGame({ host: LAPTOP, guest: PHONE, variant: 'duodecim-scripta', clock: 'none' });
  const pages = [host, guest];
  const commitment = await commitmentShown(host);
  const play = async (plies) => {
    for (let ply = 0; ply < plies; ply += 1) {
      const { seat, toMove } = await shown(host);
      await playAnyMove(seat === toMove ? host : guest);
    }
  };
  await play(3);
  const before = await view(host);
  await restartUnder(pages, { crash: true });
  const after = await view(host);
  assert.deepEqual([after.version, after.position, after.moves, after.commitment], [before.version, before.position, before.moves, commitment], 'the game as it was, the dice left of the roll included');
  for (const p of pages) {
    await waitVersion(p, after.version);
    assert.deepEqual(await diceShown(p), diceHeld(after), 'the dice shown after the crash are the dice stored');
    assert.equal(await commitmentShown(p), commitment);
  }
  assert.deepEqual(await boardHeard(guest), await boardHeard(host));
  await play(3);
  await host.click('#resign');
  await host.click('#resign');
  await Promise.all(pages.map((p) => waitStatus(p, 'finished')));
  for (const p of pages) await assertSeedRevealed(p, commitment);
  assertNoProblemsBesideServerDown(pages);
});
