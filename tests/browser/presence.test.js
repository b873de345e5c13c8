// Presence between real browsers on a real server (issue 12): the players see how many watch; when
// the opponent's last connection closes the page says so at once and counts, the Claim button comes
// the moment the server allows a claim, without a reload, and the claim ends the game for both.
// The server's claim window is two seconds here (`--claim-after-timed-secs`), so the test sees
// the whole story in a few seconds; play.test.js covers the wording at a set time. Invites expire
// after ten seconds here (`--invite-expiry-secs`): the waiting creator is told why the game ended.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, shot, view, waitStatus, waitVersion, shown, clickMove, startFromHome, joinFrom, createViaApi, LAPTOP, PHONE } from './support.js';

const CLAIM_AFTER_SECS = 2;
const INVITE_EXPIRY_SECS = 10;
// A page's socket silent this long no longer keeps its player present (the default is 120 s).
const HEARTBEAT_SECS = 15;
const { server, page, onlineGame, assertNoProblems } = await browserSuite({
  serverArgs: [
    '--claim-after-timed-secs', String(CLAIM_AFTER_SECS), '--invite-expiry-secs', String(INVITE_EXPIRY_SECS),
    '--socket-heartbeat-secs', String(HEARTBEAT_SECS),
  ],
});

test('an invite nobody used expires, and the creator waiting on the page is told so', async () => {
  const creator = await page({ ...LAPTOP, locale: 'fr-FR' });
  await startFromHome(creator, { variant: 'petteia-6', mode: 'online' });
  await waitStatus(creator, 'waiting');
  await waitStatus(creator, 'aborted', { timeout: (INVITE_EXPIRY_SECS + 20) * 1000 });
  await creator.waitForSelector('.end-panel:not([hidden])');
  assert.equal(await creator.textContent('.end-panel .how'), 'Personne n’a utilisé l’invitation à temps\u00a0: elle a expiré.');
  await shot(creator, 'presence-00-invite-expired-fr-laptop', { fullPage: false });
  assertNoProblems(creator);
});

test('a creator who never came after the join does not lose on time: the game is aborted, and the friend is told why', async () => {
  // Made through the API by a creator (Light, to move) who then went away: no page of theirs is
  // open when the friend joins, and their three seconds run out.
  const created = await createViaApi(server.base, { variant: 'petteia-6', mode: 'online', clock: { initial_ms: 3000, increment_ms: 0 }, side: 'first' });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const friend = await page(PHONE);
  await friend.goto(new URL(created.body.invite_url).pathname);
  await friend.waitForSelector('.clock-top.running', { timeout: 9000 });
  await waitStatus(friend, 'aborted', { timeout: 20000 });
  await friend.waitForSelector('.end-panel:not([hidden])');
  assert.equal(await friend.textContent('.end-panel .how'), 'Light’s time ran out before they came to the game: it counts for no one.');
  const ended = await view(friend);
  assert.deepEqual([ended.result, ended.clocks?.light], [null, 0]);
  await shot(friend, 'presence-00b-absent-creator-aborted-phone', { fullPage: false });
  assertNoProblems(friend);
});

test('a spectator is counted; the opponent gone is counted and claimable without a reload; the claim wins (three browsers)', async () => {
  const { host, guest } = await onlineGame({ host: LAPTOP, guest: PHONE, variant: 'petteia-6', clock: '5+3' });

  const spectator = await page(LAPTOP);
  await spectator.goto(await host.inputValue('input[aria-label="Link for spectators"]'));
  await spectator.waitForSelector('section.game[data-version]');
  assert.equal((await spectator.locator('section.game').getAttribute('data-seat')) || '', '', 'the plain link only watches');
  await host.waitForFunction(() => document.querySelector('.spectators').textContent === '1 spectator watching');
  await guest.waitForFunction(() => document.querySelector('.spectators').textContent === '1 spectator watching');
  await spectator.close();
  await host.waitForFunction(() => document.querySelector('.spectators').textContent === '');

  // A move each: a game that a side never moved in has no winner to claim (it would be aborted).
  await clickMove(host, 'A1', 'A2');
  await waitVersion(guest, (await shown(host)).version);
  await clickMove(guest, 'A6', 'A5');
  await waitVersion(host, (await shown(guest)).version);
  // The guest leaves once its socket is counted (see play.test.js on a guest gone before its hello).
  await guest.waitForSelector('.connection[data-state="connected"]');
  await guest.goto('/rules');
  await host.waitForSelector('.opponent-gone:not([hidden])', { timeout: 10000 });
  assert.match(await host.textContent('.opponent-gone'), /^Opponent disconnected 0:0\d$/);
  assert.equal(await host.locator('#claim').count(), 0, 'no claim before the window has passed');
  await host.waitForSelector('#claim', { timeout: (CLAIM_AFTER_SECS + 8) * 1000 });
  assert.equal(await host.textContent('#claim'), 'Claim the game');
  await shot(host, 'presence-01-claim-offered-laptop', { fullPage: false });
  await host.click('#claim');
  await waitStatus(host, 'finished');
  const finished = await view(host);
  assert.equal(finished.result.winner, 'light');
  assert.equal(finished.result.termination, 'abandoned');
  await host.waitForSelector('.end-panel');
  assertNoProblems(host, guest);
});

test('an opponent gone before moving: the button says the claim aborts the game, and it does', async () => {
  const { host, guest } = await onlineGame({ host: LAPTOP, guest: PHONE, variant: 'petteia-6', clock: '5+3' });
  // Light moves; Dark leaves without a move of its own: there is no game to win yet (lichess's
  // rule), and the button said "Claim the game" (a spectators' audit).
  await clickMove(host, 'A1', 'A2');
  await waitVersion(guest, (await shown(host)).version);
  await guest.waitForSelector('.connection[data-state="connected"]');
  await guest.goto('/rules');
  await host.waitForSelector('#claim', { timeout: (CLAIM_AFTER_SECS + 18) * 1000 });
  assert.equal(await host.textContent('#claim'), 'Abort the game');
  await host.waitForFunction(() => document.querySelector('#announcer').textContent.endsWith('you may abort the game, which has not begun for both (no one wins).'));
  await host.click('#claim');
  await waitStatus(host, 'aborted');
  assert.equal((await view(host)).result, null, 'no one won');
  assertNoProblems(host, guest);
});

test('a page frozen in the background, whose browser still answers the pings, keeps no one present: the opponent may claim', async () => {
  const host = await page(LAPTOP);
  await startFromHome(host, { variant: 'petteia-6', mode: 'online', clock: '5+3' });
  const guest = await page(PHONE);
  /** @type {string[]} */
  const closed = [];
  guest.on('websocket', (socket) => socket.on('close', () => closed.push(socket.url())));
  await joinFrom(host, guest);
  await clickMove(host, 'A1', 'A2');
  await waitVersion(guest, (await shown(host)).version);
  await clickMove(guest, 'A6', 'A5');
  await waitVersion(host, (await shown(guest)).version);
  await guest.waitForSelector('.connection[data-state="connected"]');
  // The page's scripts stop, as in a tab Chrome froze in the background, while the browser's
  // network stack still answers the server's pings: the socket stays open and says nothing.
  // (Headless Chrome does not freeze a page it shows, `Page.setWebLifecycleState` left its
  // timers running; the debugger stops them.)
  const cdp = await guest.context().newCDPSession(guest);
  await cdp.send('Debugger.enable');
  await cdp.send('Debugger.pause');
  // Found at the server's first ping (every 20 s) past the heartbeat's silence.
  await host.waitForSelector('.opponent-gone:not([hidden])', { timeout: (HEARTBEAT_SECS + 30) * 1000 });
  await host.waitForSelector('#claim', { timeout: (CLAIM_AFTER_SECS + 8) * 1000 });
  assert.equal(await host.textContent('#claim'), 'Claim the game');
  assert.deepEqual(closed, [], 'the stopped page kept its socket open');
  await host.click('#claim');
  await waitStatus(host, 'finished');
  const { winner, termination } = (await view(host)).result;
  assert.deepEqual([winner, termination], ['light', 'abandoned']);
  // Woken, the page hears how its game ended.
  await cdp.send('Debugger.resume');
  await waitStatus(guest, 'finished');
  assertNoProblems(host, guest);
});
