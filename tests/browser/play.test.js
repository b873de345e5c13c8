// Real play that people can trust (issue 12), as two people on two browsers see it: opening your
// own invite link (and a used one, from a third browser: watch instead; one that leads nowhere, or
// to a game called off, in French or English), seat links that do not lock you out, this browser's
// games on the home page, a move made over a link that silently drops packets, presence, one seat
// on two devices, takeback and rematch by consent, a draw declined, a draw agreed, an abort, the
// end-of-game panel, a game lost on time, both dice games' boards, rolls and fairness, the tab
// title, the move sound and the arrow keys. A stand-in for the game endpoints adds what a real game
// reaches only slowly: a claim allowed at a set time, a move list past move 100.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  browserSuite, mockGame, shot, shown, view, waitVersion, waitStatus, waitSeat, clickMove, playAnyMove,
  startFromHome, createViaApi, callApi, boardHeard, diceShown, diceHeld, commitmentShown, assertSeedRevealed,
  joinFrom, forgive, LAPTOP, WIDE, PHONE,
} from './support.js';

// The two people use the window sizes the issue names: a laptop each, or a laptop and a phone.
const { server, page, onlineGame, assertNoProblems } = await browserSuite();

/** A game made through the API whose seat the page keeps, as if this browser had created it. */
async function seatInPage(p, body) {
  const created = await createViaApi(server.base, body);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const { game_id: id, seat } = created.body;
  await p.evaluate(([gameId, token]) => localStorage.setItem(`ludus.token.${gameId}`, token), [id, seat.token]);
  return { id, token: seat.token };
}

/** A Petteia 6×6 game view as the server shapes it, Light's seat, for the stand-in endpoints. */
function petteiaView(gameId, extra) {
  return {
    game_id: gameId, variant: 'petteia-6', mode: 'online', status: 'playing', version: 4,
    position: 'DDDDDD/6/6/6/L5/1LLLLL d 0 1', to_move: 'dark', first: 'light', sides: ['light', 'dark'], moves: ['A1-A2'],
    clocks: null, result: null, draw_offer: null, seat: { side: 'light', bottom: 'light' }, legal_moves: [], opponent_connected: true,
    can_take_back: true,
    ...extra,
  };
}

test('opening your own invite link shows your waiting game; the friend opening it again lands in the game', async () => {
  const host = await page(WIDE);
  await startFromHome(host, { variant: 'petteia-6', mode: 'online' });
  const gamePath = new URL(host.url()).pathname;
  const link = await host.inputValue('#invite-link');
  await host.goto(link);
  await host.waitForURL((url) => url.pathname === gamePath);
  await waitStatus(host, 'waiting');
  assert.equal((await shown(host)).seat, 'light');
  assert.equal(await host.inputValue('#invite-link'), link);
  await shot(host, 'play-01-own-invite-still-waiting');

  const guest = await page(PHONE);
  await joinFrom(host, guest);
  assert.equal((await shown(guest)).seat, 'dark');
  await guest.goto(link);
  await guest.waitForURL((url) => url.pathname === gamePath);
  await waitSeat(guest, 'dark');
  assert.equal(await guest.locator('text=Cannot join').count(), 0);
  await shot(guest, 'play-01b-friend-reopens-invite-phone');
  assert.equal((await shown(host)).seat, 'light');

  // A third browser (a stranger, or the friend's laptop without its seat) opening the used link
  // is told the seat is taken and offered to watch: the game as a spectator, at its version.
  await playAnyMove(host);
  await waitVersion(guest, 2);
  const third = await page(LAPTOP);
  await third.goto(link);
  await third.waitForSelector('h1:has-text("Cannot join")');
  assert.match(await third.textContent('[role=alert]'), /That seat is taken/);
  assert.match(await third.textContent('main'), /Your seat link/);
  await shot(third, 'play-01c-used-invite-offers-watching');
  await third.click('a:has-text("Watch the game")');
  await third.waitForURL((url) => url.pathname === gamePath);
  await waitVersion(third, 2);
  assert.equal((await shown(third)).seat, '', 'the third browser watches, with no seat');
  assert.match(await third.textContent('.game'), /You are watching this game/);
  assert.equal((await shown(host)).seat, 'light');
  assert.equal((await shown(guest)).seat, 'dark');
  // The refused join is the one error the third page logs (the browser reports the 409).
  forgive(third, /status of 409/);
  assertNoProblems(host, guest, third);
});

test('a link that names its language keeps the site in it: the next page, and the site opened again', async () => {
  const p = await page(LAPTOP);
  await p.goto('/rules?lang=fr');
  await p.waitForSelector('header.site a[href="/leaderboard"]:has-text("Classement")');
  await p.click('header.site a[href="/leaderboard"]');
  await p.waitForURL(/\/leaderboard$/);
  assert.equal(await p.textContent('header.site a[href="/"]:not(.brand)'), 'Nouvelle partie');
  await p.goto('/');
  await p.waitForSelector('#create');
  assert.equal(await p.getAttribute('html', 'lang'), 'fr');
  assert.equal(await p.textContent('#create'), 'Commencer la partie');
  assertNoProblems(p);
});

test('an invite that leads nowhere, or to a game called off, says which, in the reader\'s language', async () => {
  const lost = await page(PHONE);
  await lost.goto('/join/0123456789abcdefghijABCDEFGHIJ01?lang=fr');
  await lost.waitForSelector('h1:has-text("Impossible de rejoindre")');
  const unknown = await lost.textContent('[role=alert]');
  assert.match(unknown, /ne mène à aucune partie/);
  assert.doesNotMatch(unknown, /not found|invite\b/, 'no English words of the server');
  assert.equal(await lost.title(), 'Ludus — Impossible de rejoindre', 'the tab says it too');
  await shot(lost, 'play-01d-unknown-invite-fr-phone');

  const created = await createViaApi(server.base, { variant: 'petteia-6', mode: 'online' });
  const { game_id: id, seat, invite } = created.body;
  assert.equal((await callApi(server.base, 'POST', `/api/v1/games/${id}/abort`, { token: seat.token })).status, 200);
  const late = await page(LAPTOP);
  await late.goto(`/join/${invite}`);
  await late.waitForSelector('h1:has-text("Cannot join")');
  assert.match(await late.textContent('[role=alert]'), /called off before anyone joined/);
  assert.equal(await late.locator('a:has-text("Watch the game")').count(), 0, 'nothing to watch');
  // The refused joins are the errors the pages log (the browser reports the 404 and the 409).
  for (const p of [lost, late]) forgive(p, /status of 40[49]/);
  assertNoProblems(lost, late);
});

test('a token from a #token= link is kept only once the server accepts it', async () => {
  const p = await page();
  await startFromHome(p, { variant: 'petteia-6', mode: 'local' });
  const { gameId } = await shown(p);
  const token = await p.evaluate((id) => localStorage.getItem(`ludus.token.${id}`), gameId);
  await p.goto(`/game/${gameId}#token=WrongTokenWrongTokenWrongToken00`);
  await p.waitForSelector('.notice:has-text("not valid")');
  assert.equal(await p.evaluate((id) => localStorage.getItem(`ludus.token.${id}`), gameId), token);
  assert.ok((await view(p)).seat, 'the saved seat still plays');
  assert.equal(new URL(p.url()).hash, '', 'the token leaves the address bar');
  await p.goto(`/game/${gameId}`);
  await p.waitForSelector('.board-holder .place.movable');

  // Another browser opening the real seat link keeps it.
  const other = await page();
  await other.goto(`/game/${gameId}#token=${token}`);
  await other.waitForSelector('.notice:has-text("seat link")');
  await other.waitForSelector('.board-holder .place.movable');
  assert.equal(await other.evaluate((id) => localStorage.getItem(`ludus.token.${id}`), gameId), token);
  forgive(p, /status of 401/);
  assertNoProblems(p, other);
});

test('the home page lists the games this browser holds seats in: playing first, your turn marked, then finished', async () => {
  const p = await page();
  await p.goto('/');
  const waiting = await seatInPage(p, { variant: 'petteia-6', mode: 'online', clock: null, side: 'first' });
  const myTurn = await seatInPage(p, { variant: 'petteia-8', mode: 'computer', level: 1, clock: null, side: 'first' });
  const finished = await seatInPage(p, { variant: 'petteia-6', mode: 'local', clock: null, side: 'first' });
  await fetch(`${server.base}/api/v1/games/${finished.id}/resign`, { method: 'POST', headers: { Authorization: `Bearer ${finished.token}`, 'Content-Type': 'application/json' }, body: '{}' });
  await p.goto('/');
  await p.waitForSelector('#my-games:not([hidden]) .playing li');
  const playing = await p.$$eval('#my-games .playing li', (items) => items.map((li) => [li.dataset.gameId, li.textContent]));
  assert.deepEqual(playing.map(([id]) => id), [myTurn.id, waiting.id]);
  assert.match(playing[0][1], /Petteia 8×8 your turn/);
  assert.match(playing[1][1], /waiting for your friend/);
  assert.equal(await p.locator('#my-games .playing li .your-turn').count(), 1);
  assert.deepEqual(await p.$$eval('#my-games details.finished li', (items) => items.map((li) => li.dataset.gameId)), [finished.id]);
  await shot(p, 'play-02-home-my-games');
  await p.click(`#my-games a[href="/game/${myTurn.id}"]`);
  await p.waitForSelector('.board-holder .place.movable');
  assertNoProblems(p);
});

// From a keyboard and screen-reader audit: the other side's move was never said, the mover's page
// said "Your move" again between sending and the opponent's turn (the ack comes before the move's
// event), and Resign confirmed left the keyboard's focus at the top of the page.
test('for a screen reader: the opponent\'s move is said, one\'s own turn is not said twice, and the focus lands on the result', async () => {
  const { host, guest } = await onlineGame({ host: LAPTOP, guest: WIDE });
  await host.evaluate(() => {
    const status = document.querySelector('#status');
    window.statusesSaid = [];
    new MutationObserver(() => window.statusesSaid.push(status.textContent)).observe(status, { childList: true, characterData: true, subtree: true });
  });
  await clickMove(host, 'A1', 'A3');
  await guest.waitForFunction(() => document.querySelector('#announcer')?.textContent === 'Light played A1-A3.');
  await host.waitForFunction(() => document.querySelector('#status').textContent === 'Dark to move.');
  const said = await host.evaluate(() => window.statusesSaid);
  const sent = said.findIndex((text) => text.startsWith('Sending'));
  assert.ok(sent >= 0, said.join(' | '));
  assert.deepEqual(said.slice(sent).filter((text) => text.startsWith('Your move')), [], said.join(' | '));
  // Resign by the keyboard: Enter asks, Enter confirms; the focus goes to the result.
  await guest.focus('#resign');
  await guest.keyboard.press('Enter');
  await guest.waitForSelector('#resign[data-confirm], #resign:has-text("Confirm")');
  await guest.keyboard.press('Enter');
  await waitStatus(guest, 'finished');
  await guest.waitForFunction(() => document.activeElement?.matches('.end-panel h2.result'));
  assertNoProblems(host, guest);
});

test('a move made while the link silently drops packets shows as pending and is resent with the same id', async () => {
  const { host, guest, relay: link } = await onlineGame({ host: LAPTOP, guest: PHONE, guestSocket: true });
  await clickMove(host, 'A1', 'A3');
  await waitVersion(guest, (await shown(host)).version);

  // The server still hears the page, but its answers are lost: the move is played, the ack never comes.
  link.cut({ pageStillHeard: true });
  await guest.click('.board-holder [data-place="B6"]');
  await guest.click('.board-holder [data-place="B4"].dest');
  await guest.waitForSelector('.move-list .pending');
  assert.equal((await shown(guest)).pending, 'B6-B4');
  assert.match(await guest.textContent('#status'), /Sending your move B6-B4/);
  await shot(guest, 'play-03a-move-pending-phone');
  await guest.waitForSelector('section.game[data-pending=""]', { timeout: 15000 });
  await guest.waitForSelector('.connection[data-state="connected"]');
  const sent = link.sent.filter((m) => m.type === 'move');
  assert.equal(sent.length, 2, 'sent once, resent once after the reconnect');
  assert.equal(sent[0].id, sent[1].id);
  assert.ok(link.connections >= 2);

  // Now nothing gets through at all, on this connection or the next ones, until the link heals:
  // the page says it is reconnecting, and the move reaches the server only afterwards.
  await clickMove(host, 'F1', 'F3');
  await waitVersion(guest, (await shown(host)).version);
  link.setDown(true);
  await guest.click('.board-holder [data-place="C6"]');
  await guest.click('.board-holder [data-place="C4"].dest');
  await guest.waitForSelector('.move-list .pending');
  await guest.waitForSelector('.connection[data-state="reconnecting"]', { timeout: 10000 });
  assert.equal(await guest.textContent('.connection'), 'Reconnecting…');
  // The board and the clocks are the game as it last was: said first, dimmed, the clocks still
  // (they ran on, the side to move's as the page last knew it; a spectators' audit).
  assert.match(await guest.textContent('#status'), /^The connection is lost: the board shows the game as it last was/);
  assert.equal(await guest.locator('section.game.link-lost').count(), 1);
  const clocks = await guest.locator('.clock-time').allTextContents();
  await guest.waitForTimeout(1500);
  assert.deepEqual(await guest.locator('.clock-time').allTextContents(), clocks, 'the clocks stand still');
  await shot(guest, 'play-03-move-pending-phone');
  assert.equal(await host.locator('.move-list :text("C6-C4")').count(), 0);
  link.setDown(false);
  await host.waitForSelector('.move-list :text("C6-C4")', { timeout: 20000 });
  await guest.waitForSelector('section.game[data-pending=""]');
  assert.equal(await guest.locator('section.game.link-lost').count(), 0, 'back: no longer dimmed');
  assert.deepEqual((await view(host)).moves, ['A1-A3', 'B6-B4', 'F1-F3', 'C6-C4']);
  assert.equal(await host.locator('.move-list :text("B6-B4")').count(), 1);
  await shot(host, 'play-03b-after-resend-laptop', { fullPage: false });
  assertNoProblems(host, guest);
});

test('a declined draw offer is told to the one who offered it', async () => {
  const { host, guest } = await onlineGame({ host: WIDE, guest: LAPTOP, variant: 'petteia-8', clock: '10+5' });
  await host.click('#draw');
  await guest.click('#draw-decline');
  await host.waitForSelector('.offer-note:has-text("declined your draw offer")');
  assert.equal(await guest.locator('.offer-note:has-text("declined")').count(), 0);
  // The server refuses a second offer before a move: the button waits for one.
  assert.equal(await host.locator('#draw').count(), 0, 'no second offer before a move');
  await shot(host, 'play-04a-draw-declined-wide', { fullPage: false });
  await clickMove(host, 'A1', 'A2');
  await host.waitForSelector('#draw');
  assertNoProblems(host, guest);
});

test('a refusal is told in the player\'s language: the rule it breaks, in French', async () => {
  const { host, guest, relay } = await onlineGame({ host: LAPTOP, guest: { ...PHONE, locale: 'fr-FR' }, guestSocket: true });
  await clickMove(host, 'A1', 'A3');
  await waitVersion(guest, (await shown(host)).version);
  // An outdated or hostile client asks to take back a move Dark never made: the relay turns the
  // page's move into that request, and the server refuses it by the rule's name.
  relay.rewrite = (message) => (message.type === 'move' ? { type: 'undo', id: message.id } : message);
  await guest.click('.board-holder [data-place="B6"]');
  await guest.click('.board-holder [data-place="B4"].dest');
  await guest.waitForSelector('.refusal:has-text("Refusé")');
  assert.equal(await guest.textContent('.refusal'), 'Refusé. Vous n’avez pas de coup à reprendre.');
  assert.equal((await shown(guest)).moves, 1, 'nothing was played');
  await shot(guest, 'play-04f-refusal-in-french-phone', { fullPage: false });
  assertNoProblems(host, guest);
});

test('a game on one screen offers a rematch at its end', async () => {
  const p = await page(LAPTOP);
  await startFromHome(p, { variant: 'petteia-6', mode: 'local' });
  const first = (await shown(p)).gameId;
  await p.click('#resign');
  await p.click('#resign');
  await waitStatus(p, 'finished');
  await p.click('.end-panel #rematch');
  await p.waitForFunction((id) => {
    const game = document.querySelector('section.game');
    return game && game.dataset.gameId !== id && game.dataset.status === 'playing';
  }, first);
  assert.deepEqual((await view(p)).moves, []);
  assertNoProblems(p);
});

test('on one screen the board turns to the side to move when asked, and a draw is offered and answered there', async () => {
  const p = await page(PHONE);
  await startFromHome(p, { variant: 'petteia-6', mode: 'local' });
  assert.equal((await shown(p)).bottom, 'light');
  await p.check('#turn-board');
  assert.equal((await shown(p)).bottom, 'light', 'Light to move: Light at the bottom');
  await p.click('.board-holder [data-place="C1"]');
  await p.click('.board-holder [data-place="C3"].dest');
  await waitVersion(p, 1);
  await p.waitForFunction(() => document.querySelector('section.game')?.dataset.bottom === 'dark');
  // The choice is remembered: the page opened again turns to the side to move at once.
  await p.reload();
  await waitVersion(p, 1);
  assert.equal((await shown(p)).bottom, 'dark');
  assert.ok(await p.isChecked('#turn-board'));

  // Dark offers; the person playing Light declines at the same screen; no new offer before a move.
  await p.click('#draw');
  await p.waitForSelector('#draw-accept');
  assert.match(await p.textContent('#status'), /Dark to move\. Dark offers a draw\./);
  await p.click('#draw-decline');
  await p.waitForFunction(() => /The draw was declined\./.test(document.body.textContent ?? ''));
  assert.equal(await p.locator('#draw').count(), 0, 'Dark offers again only after a move');
  await p.click('.board-holder [data-place="D6"]');
  await p.click('.board-holder [data-place="D4"].dest');
  await waitVersion(p, 3);
  await p.waitForFunction(() => document.querySelector('section.game')?.dataset.bottom === 'light');
  // Light offers; Dark accepts.
  await p.click('#draw');
  await p.click('#draw-accept');
  await waitStatus(p, 'finished');
  const { result } = await view(p);
  assert.deepEqual([result.winner, result.termination], [null, 'agreement']);
  assertNoProblems(p);
});

test('the keyboard focus stays on its button when the panel is redrawn: an opponent\'s move, Resign asking to confirm', async () => {
  const { host, guest } = await onlineGame({ host: LAPTOP, guest: LAPTOP });
  await clickMove(host, 'A1', 'A2');
  await waitVersion(guest, (await shown(host)).version);
  const focused = (p) => p.evaluate(() => document.activeElement?.id || document.activeElement?.tagName);
  await host.focus('#draw');
  await clickMove(guest, 'B6', 'B5');
  await waitVersion(host, (await shown(guest)).version);
  assert.equal(await focused(host), 'draw', 'the opponent\'s move keeps the focus on Offer a draw');
  await host.focus('#resign');
  await host.keyboard.press('Enter');
  await host.waitForSelector('#resign[data-confirm]');
  assert.equal(await focused(host), 'resign', 'Confirm resign has the focus');
  await host.keyboard.press('Enter');
  await waitStatus(host, 'finished');
  assertNoProblems(host, guest);
});

test('the tab title, the move sound switch and the arrow keys', async () => {
  const p = await page();
  // Counts the tones the page makes (Web Audio oscillators).
  await p.addInitScript(() => {
    window.tones = 0;
    const create = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function countedOscillator() {
      window.tones += 1;
      return create.call(this);
    };
  });
  await startFromHome(p, { variant: 'petteia-6', mode: 'computer', level: 1, side: 'first' });
  await p.waitForFunction(() => document.title.startsWith('Your turn'));
  // Arrow keys walk the board as it is drawn (Light at the bottom).
  await p.focus('.board-holder [data-place="C1"]');
  await p.keyboard.press('ArrowUp');
  assert.equal(await p.evaluate(() => document.activeElement.dataset.place), 'C2');
  await p.keyboard.press('ArrowRight');
  assert.equal(await p.evaluate(() => document.activeElement.dataset.place), 'D2');
  await p.keyboard.press('ArrowDown');
  await p.keyboard.press('ArrowLeft');
  assert.equal(await p.evaluate(() => document.activeElement.dataset.place), 'C1');
  assert.equal(await p.getAttribute('.board-holder [data-place="C1"]', 'aria-label'), 'C1, light piece, can move');
  await p.keyboard.press('Enter');
  await p.waitForSelector('.board-holder [data-place="C1"].selected');
  await p.waitForSelector('.board-holder [data-place="C2"].dest');

  assert.equal(await p.isChecked('#sound'), false);
  await clickMove(p, 'A1', 'A2');
  await p.waitForFunction(() => document.title.startsWith('Your turn') && document.querySelector('section.game').dataset.moves === '2');
  assert.equal(await p.evaluate(() => window.tones), 0, 'silent until switched on');
  await p.check('#sound');
  await p.reload();
  await p.waitForSelector('section.game[data-version]');
  assert.equal(await p.isChecked('#sound'), true, 'the switch is remembered');
  // A legal move of the position the computer's random reply left (it may have landed on B2).
  const [from, to] = (await view(p)).legal_moves[0].split('-');
  await clickMove(p, from, to);
  await p.waitForFunction(() => document.querySelector('section.game').dataset.moves === '4');
  assert.ok(await p.evaluate(() => window.tones) >= 1, 'a move sounds');

  assertNoProblems(p);
});

/**
 * What a page shows once its game has ended: the end panel's result and how the game ended, the
 * status line, no clock running and no action of a running game left.
 */
async function assertEndShown(p, { result, how, headline }) {
  await p.waitForSelector('.end-panel:not([hidden])');
  assert.deepEqual([await p.textContent('.end-panel .result'), await p.textContent('.end-panel .how'), await p.textContent('#status')], [result, how, headline]);
  assert.equal(await p.locator('.clock.running').count(), 0, 'no clock runs once the game is over');
  assert.equal(await p.locator('#resign, #draw, #abort').count(), 0, 'no action of a running game is offered');
}

test('a draw by agreement, and an abort before the first move, end the game on both browsers', async () => {
  const ended = async (pages, { status, ...end }) => {
    await Promise.all(pages.map((p) => waitStatus(p, status)));
    for (const p of pages) await assertEndShown(p, end);
  };
  // Dark offers a draw after Light's first move; Light accepts.
  const drawn = await onlineGame({ host: WIDE, guest: PHONE, variant: 'petteia-8', clock: '10+5' });
  await clickMove(drawn.host, 'A1', 'A2');
  await waitVersion(drawn.guest, (await shown(drawn.host)).version);
  await drawn.guest.click('#draw');
  await drawn.host.click('#draw-accept');
  await ended([drawn.host, drawn.guest], { status: 'finished', result: 'Draw', how: 'By agreement.', headline: 'Draw by agreement.' });
  const result = (await view(drawn.guest)).result;
  assert.deepEqual([result?.winner, result?.termination], [null, 'agreement']);
  await shot(drawn.guest, 'play-04d-draw-agreed-phone', { fullPage: false });

  // Before anyone moves, the host aborts: nothing is scored, and both pages say so.
  const aborted = await onlineGame({ host: LAPTOP, guest: LAPTOP, variant: 'petteia-6', clock: '5+3' });
  await aborted.host.click('#abort');
  await ended([aborted.host, aborted.guest], { status: 'aborted', result: 'Aborted', how: 'Ended before each side had moved: it counts for no one.', headline: 'The game was aborted.' });
  assertNoProblems(drawn.host, drawn.guest, aborted.host, aborted.guest);
});

test('the end of a game: result, how it ended, Rematch, New game and the record', async () => {
  const p = await page();
  await startFromHome(p, { variant: 'petteia-6', mode: 'computer', level: 1, side: 'first' });
  await p.click('#resign');
  await p.click('#resign');
  await waitStatus(p, 'finished');
  await p.waitForSelector('.end-panel:not([hidden])');
  assert.equal(await p.textContent('.end-panel .result'), 'You lose');
  assert.equal(await p.textContent('.end-panel .how'), 'By resignation.');
  assert.equal(await p.locator('.end-panel #rematch').count(), 1);
  assert.equal(await p.getAttribute('.end-panel #new-game', 'href'), '/');
  const record = await p.evaluate(async () => {
    const response = await fetch(document.querySelector('.end-panel #record').getAttribute('href'));
    return [response.status, await response.text()];
  });
  assert.equal(record[0], 200);
  assert.match(record[1], /petteia-6/i);
  assert.ok(!(await p.title()).startsWith('Your turn'));
  await shot(p, 'play-04-end-panel');
  assertNoProblems(p);
});

test('a clock that runs out ends the game on both browsers at once, without a move or a reload, each in its language', async () => {
  // Ten seconds for each side: Light's clock starts when the guest joins, and nobody moves.
  const created = await createViaApi(server.base, { variant: 'petteia-6', mode: 'online', clock: { initial_ms: 10000, increment_ms: 0 }, side: 'first' });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  // The host's browser asks for French, the guest's for English.
  const host = await page({ ...LAPTOP, locale: 'fr-FR' });
  const seatLink = new URL(created.body.seat_url);
  await host.goto(seatLink.pathname + seatLink.hash);
  await waitStatus(host, 'waiting');
  const guest = await page(PHONE);
  await guest.goto(new URL(created.body.invite_url).pathname);
  // Each page runs Light's clock: the host's at the bottom, the guest's (Dark below) at the top.
  await host.waitForSelector('.clock-bottom.running', { timeout: 9000 });
  await guest.waitForSelector('.clock-top.running', { timeout: 9000 });
  assert.equal(await host.locator('.clock-top.running').count(), 0, "Dark's clock stands on the host's page");

  await Promise.all([host, guest].map((p) => waitStatus(p, 'finished', { timeout: 20000 })));
  await assertEndShown(host, { result: 'Vous perdez', how: 'Par dépassement du temps.', headline: 'Sombre gagne par dépassement du temps — vous perdez.' });
  await assertEndShown(guest, { result: 'You win', how: 'By timeout.', headline: 'Dark wins by timeout — you win.' });
  // The tenths after each language's decimal mark.
  for (const [p, lightClock, shown] of [[host, '.clock-bottom', '0:00,0'], [guest, '.clock-top', '0:00.0']]) assert.equal(await p.textContent(`${lightClock} .clock-time`), shown);
  const final = await view(host);
  assert.deepEqual([final.result?.winner, final.result?.termination, final.clocks?.light, final.moves], ['dark', 'timeout', 0, []]);
  assert.deepEqual(final.legal_moves, []);
  await shot(guest, 'play-04b-won-on-time-phone', { fullPage: false });
  await shot(host, 'play-04b-lost-on-time-fr', { fullPage: false });
  assertNoProblems(host, guest);
});

// Both dice games, each between a laptop and a phone: the seed draws who moves first, the server
// throws every die, and each player sees the same board and roll, each from its own side.
for (const { variant, host: hostWindow, shotName } of [
  { variant: 'duodecim-scripta', host: LAPTOP, shotName: 'play-04c-dice-seed-revealed-phone' },
  { variant: 'pente-grammai-perimeter', host: WIDE, shotName: 'play-04e-perimeter-seed-revealed-phone' },
]) {
  test(`a dice game on two browsers (${variant}): the same board, roll and turn on both, and the seed revealed at the end hashes to the commitment both were shown`, async () => {
    const { host, guest } = await onlineGame({ host: hostWindow, guest: PHONE, variant, clock: 'none' });
    const pages = [host, guest];
    const commitment = await commitmentShown(host);
    assert.equal(await commitmentShown(guest), commitment);
    assert.match(await host.textContent('.fairness'), /revealed when the game ends/);
    const [hostSeat, guestSeat] = await Promise.all(pages.map(async (p) => (await shown(p)).seat));
    assert.notEqual(hostSeat, guestSeat, 'the two players hold the two seats');

    // Whoever the seed made first moves; each page shows the board, roll and turn the other shows.
    const seats = new Set();
    for (let ply = 0; ply < 6; ply += 1) {
      const held = await view(host);
      await Promise.all(pages.map((p) => waitVersion(p, held.version)));
      const [a, b] = await Promise.all(pages.map(shown));
      assert.deepEqual([a.version, a.toMove], [b.version, b.toMove], 'both pages at the same turn');
      assert.deepEqual([a.bottom, b.bottom], [hostSeat, guestSeat], 'each page draws the board from its own side');
      for (const p of pages) assert.deepEqual(await diceShown(p), diceHeld(held), `the dice on each page at version ${held.version}`);
      const [hostBoard, guestBoard] = await Promise.all(pages.map(boardHeard));
      assert.ok(Object.keys(hostBoard).length >= 10, 'the board has its places');
      assert.deepEqual(guestBoard, hostBoard, `the same pieces on the same places at version ${held.version}`);
      const mover = a.seat === a.toMove ? host : guest;
      seats.add(mover === host ? 'host' : 'guest');
      await playAnyMove(mover);
    }
    assert.equal(seats.size, 2, 'each player moved');
    // Draws by agreement are Petteia's: neither page offers one.
    for (const p of pages) assert.equal(await p.locator('#draw').count(), 0, 'no draw offer');
    const { version } = await view(host);
    await Promise.all(pages.map((p) => waitVersion(p, version)));
    const [hostMoves, guestMoves] = await Promise.all(pages.map((p) => p.textContent('.move-list')));
    assert.equal(guestMoves, hostMoves, 'the same turns, with their rolls, on both pages');

    await host.click('#resign');
    await host.click('#resign');
    await Promise.all(pages.map((p) => waitStatus(p, 'finished')));
    for (const p of pages) await assertSeedRevealed(p, commitment);

    // Each page checks every die of the record in the browser once its panel is opened, and finds
    // the entropy it sent in the record: the host's as the creator's, the guest's as the joiner's.
    const { game_id: gameId, first } = await view(host);
    const record = await (await host.request.get(`/api/v1/games/${gameId}/record`)).text();
    const rolls = record.match(/\{[1-6,]+\}/g);
    const dice = rolls.join(',').match(/[1-6]/g).length;
    for (const [p, role] of [[host, 'creator'], [guest, 'joiner']]) {
      await p.click('.fairness summary');
      const said = await diceCheckSaid(p);
      assert.ok(said.includes(`every die of the game (${dice} in ${rolls.length} rolls)`), said);
      assert.ok(said.includes(`The seed drew ${first[0].toUpperCase()}${first.slice(1)} to move first`), said);
      assert.match(said, new RegExp(`Your entropy \\([0-9a-f]{32}\\) is in the record, as the ${role}’s\\.`));
    }
    await shot(guest, shotName);

    // A record whose first die was changed on its way fails the check, naming that die.
    await guest.route('**/record', async (route) => {
      const response = await route.fetch();
      const altered = (await response.text()).replace(/\{([1-6])/, (_, face) => `{${(Number(face) % 6) + 1}`);
      await route.fulfill({ response, body: altered });
    });
    await guest.reload();
    await waitStatus(guest, 'finished');
    await guest.click('.fairness summary');
    const faces = rolls[0].match(/[1-6]/g).map(Number);
    assert.equal(await diceCheckSaid(guest), `The dice do not check: roll 1: die 0 of the game is a ${(faces[0] % 6) + 1} in the record, but the seed gives a ${faces[0]}.`);
    assert.ok(await guest.locator('.dice-check.refusal').isVisible(), 'the failure is marked as one');
    assertNoProblems(host, guest);
  });
}

test('the verify page checks any dice record: a game of this server by its address, pasted, or from a file', async () => {
  const created = await createViaApi(server.base, { variant: 'duodecim-scripta', mode: 'local', clock: null, side: 'first' });
  const { game_id: id, seat } = created.body;
  assert.equal((await callApi(server.base, 'POST', `/api/v1/games/${id}/resign`, { token: seat.token })).status, 200);
  const record = await (await fetch(`${server.base}/api/v1/games/${id}/record`)).text();
  const rolls = record.match(/\{[1-6,]+\}/g);
  const p = await page(PHONE);
  await p.goto(`/verify?game=${id}`);
  assert.match(await diceCheckSaid(p), new RegExp(`every die of the game \\(${3 * rolls.length} in ${rolls.length} rolls?\\)`));
  assert.equal(await p.inputValue('#verify-record'), record, 'the record shown is the one checked');
  await shot(p, 'verify-phone');

  // Pasted with its first die changed: the die is named.
  const first = Number(rolls[0][1]);
  const altered = record.replace(/\{([1-6])/, `{${(first % 6) + 1}`);
  await p.fill('#verify-record', altered);
  await p.click('#verify-check');
  await p.waitForFunction(() => /^The dice do not check/.test(document.querySelector('.dice-check')?.textContent ?? ''));
  assert.equal(await p.textContent('.dice-check'), `The dice do not check: roll 1: die 0 of the game is a ${(first % 6) + 1} in the record, but the seed gives a ${first}.`);
  // Opened from a file: checked at once.
  await p.setInputFiles('#verify-file', { name: 'record.txt', mimeType: 'text/plain', buffer: Buffer.from(record) });
  await p.waitForFunction(() => /^Checked in this browser/.test(document.querySelector('.dice-check')?.textContent ?? ''));
  // A record of a game without dice has nothing to check.
  await p.fill('#verify-record', '[Variant "petteia-6"]\n\nA1-A2');
  await p.click('#verify-check');
  await p.waitForFunction(() => /no dice game/.test(document.querySelector('.dice-check')?.textContent ?? ''));
  assertNoProblems(p);
});

/** What the fairness panel says of its dice check, once it has said it. */
async function diceCheckSaid(p) {
  await p.waitForFunction(() => /^(Checked in this browser|The dice do not check)/.test(document.querySelector('.dice-check')?.textContent ?? ''));
  return p.textContent('.dice-check');
}

test('the move list numbers turns, keeps every digit past move 100 and scrolls to the latest', async () => {
  const p = await page();
  const moves = Array.from({ length: 211 }, (_, i) => (i % 2 ? 'B6-B5' : 'A1-A2'));
  const long = petteiaView('MockLongGame1', {
    mode: 'local', version: 300, position: 'DDDDDD/6/6/6/6/LLLLLL d 0 1', moves, seat: { side: 'light', bottom: 'light', both: true },
  });
  await mockGame(p, 'MockLongGame1', [long]);
  const last = p.locator('.move-list li').last();
  assert.equal(await last.locator('.turn-number').textContent(), '106.');
  assert.deepEqual(await last.locator('.ply').allTextContents(), ['A1-A2']);
  assert.deepEqual(await p.locator('.move-list li').nth(99).locator('.ply').allTextContents(), ['A1-A2', 'B6-B5']);
  assert.equal(await p.locator('.move-list li').count(), 106);
  const fits = await p.$eval('.move-list', (list) => {
    const number = list.querySelector('li:last-child .turn-number');
    const box = number.getBoundingClientRect();
    return {
      whole: number.scrollWidth <= number.clientWidth && box.left >= list.getBoundingClientRect().left,
      atEnd: list.scrollTop + list.clientHeight >= list.scrollHeight - 2,
    };
  });
  assert.deepEqual(fits, { whole: true, atEnd: true });
  await shot(p, 'play-05-long-move-list', { fullPage: false });
  assertNoProblems(p);
});

test('the opponent leaving is shown at once and counted, and clears when they come back (two browsers)', async () => {
  const { host, guest } = await onlineGame({ host: LAPTOP, guest: PHONE });
  const gamePath = new URL(guest.url()).pathname;
  // The guest leaves once its socket is counted (the hello answered): a guest who left before
  // would be present by its join request alone, for the whole claim window.
  await guest.waitForSelector('.connection[data-state="connected"]');
  await guest.goto('/rules');
  await host.waitForSelector('.opponent-gone:not([hidden])', { timeout: 10000 });
  assert.match(await host.textContent('.opponent-gone'), /^Opponent disconnected 0:0\d$/);
  await host.waitForFunction(() => /0:0[2-9]|0:[1-5]\d/.test(document.querySelector('.opponent-gone').textContent), null, { timeout: 10000 });
  await shot(host, 'play-05b-opponent-left-laptop', { fullPage: false });
  await guest.goto(gamePath);
  await waitSeat(guest, 'dark');
  await host.waitForSelector('.opponent-gone', { state: 'hidden' });
  assert.equal(await host.locator('#claim').count(), 0);
  assertNoProblems(host, guest);
});

test('one seat on two devices: a move from either shows on the other and on the opponent\'s page, and the opponent counts the player present while one device is', async () => {
  const { host, guest } = await onlineGame({ host: LAPTOP, guest: WIDE });
  // The host opens its own seat link on its phone: the same seat, Light, on a second device.
  const seatLink = await host.inputValue('.seat-link input');
  const phone = await page(PHONE);
  await phone.goto(seatLink);
  await waitSeat(phone, 'light');
  await phone.waitForSelector('.connection[data-state="connected"]');
  const pages = [host, phone, guest];
  const sameEverywhere = async (notation) => {
    const { version } = await view(guest);
    await Promise.all(pages.map((p) => waitVersion(p, version)));
    for (const p of pages) assert.match(await p.textContent('.move-list'), new RegExp(notation), `${notation} on every page`);
    const [a, b, c] = await Promise.all(pages.map(shown));
    assert.deepEqual([b.version, b.toMove, c.version, c.toMove], [a.version, a.toMove, a.version, a.toMove]);
  };
  await clickMove(phone, 'A1', 'A3');
  await sameEverywhere('A1-A3');
  await clickMove(guest, 'B6', 'B4');
  await sameEverywhere('B6-B4');
  await clickMove(host, 'C1', 'C3');
  await sameEverywhere('C1-C3');
  await shot(phone, 'play-05c-same-seat-second-device-phone', { fullPage: false });

  // The laptop leaves; the phone still holds the seat, so the opponent is not told of an absence.
  await host.goto('/rules');
  await guest.waitForTimeout(1500);
  assert.equal(await guest.locator('.opponent-gone:not([hidden])').count(), 0, 'the opponent is present through the phone');
  await clickMove(guest, 'D6', 'D4');
  await waitVersion(phone, (await shown(guest)).version);
  assert.equal(await guest.locator('.opponent-gone:not([hidden])').count(), 0, 'still present after a move');
  // The phone leaves too: now the opponent is told at once.
  await phone.goto('/rules');
  await guest.waitForSelector('.opponent-gone:not([hidden])', { timeout: 10000 });
  assertNoProblems(host, phone, guest);
});

test('takeback by consent between two browsers: declined, then accepted', async () => {
  const { host, guest } = await onlineGame({ host: WIDE, guest: PHONE });
  await clickMove(host, 'A1', 'A3');
  await waitVersion(guest, (await shown(host)).version);
  // Only a player with a move of its own may ask to take it back.
  await host.waitForSelector('#undo');
  assert.equal(await guest.locator('#undo').count(), 0, 'dark has no move to take back yet');
  await clickMove(guest, 'B6', 'B4');
  await waitVersion(host, (await shown(guest)).version);
  await guest.click('#undo');
  await host.waitForSelector('.offer-note:has-text("asks to take back")', { timeout: 10000 });
  // Said as well as shown: the note is drawn filled, which a screen reader does not read.
  await host.waitForFunction(() => document.querySelector('#announcer').textContent.includes('asks to take back'));
  await shot(host, 'play-07b-takeback-asked-wide', { fullPage: false });
  await host.click('#undo-decline');
  await guest.waitForSelector('.offer-note:has-text("declined your takeback request")');
  await guest.waitForFunction(() => document.querySelector('#announcer').textContent.includes('declined your takeback request'));
  await guest.click('#undo');
  await host.waitForSelector('#undo-accept');
  await host.click('#undo-accept');
  await guest.waitForFunction(() => document.querySelector('section.game').dataset.moves === '1');
  await host.waitForFunction(() => document.querySelector('section.game').dataset.moves === '1');
  assert.deepEqual((await view(guest)).moves, ['A1-A3']);
  assert.match(await guest.textContent('#status'), /Your move/);
  assertNoProblems(host, guest);
});

test('rematch by consent between two browsers: declined is told, accepted opens the new game for both, and its spectator follows', async () => {
  const { host, guest } = await onlineGame({ host: LAPTOP, guest: WIDE });
  const firstGame = (await shown(host)).gameId;
  // Someone watching by the game's link (a spectators' audit: left on the finished game).
  const watcher = await page(PHONE);
  await watcher.goto(`/game/${firstGame}`);
  await watcher.waitForSelector('.board-holder svg');
  await guest.click('#resign');
  await guest.click('#resign');
  await waitStatus(host, 'finished');
  await host.click('#rematch');
  await guest.waitForSelector('.end-panel #rematch-accept', { timeout: 10000 });
  assert.equal((await shown(host)).gameId, firstGame, 'an offer opens no game');
  await host.waitForSelector('.offer-note:has-text("You offered a rematch")');
  await shot(guest, 'play-08b-rematch-offered-wide', { fullPage: false });
  await guest.click('#rematch-decline');
  await host.waitForSelector('.offer-note:has-text("declined the rematch")');
  await guest.click('#rematch');
  await host.waitForSelector('.end-panel #rematch-accept');
  await host.click('#rematch-accept');
  await waitSeat(host, 'dark');
  await waitSeat(guest, 'light');
  assert.notEqual((await shown(host)).gameId, firstGame);
  assert.equal((await shown(host)).gameId, (await shown(guest)).gameId);
  await waitStatus(guest, 'playing');
  await watcher.waitForFunction((id) => location.pathname === `/game/${id}`, (await shown(host)).gameId);
  await waitStatus(watcher, 'playing');
  assert.equal((await view(watcher)).seat, null, 'still a spectator');
  assertNoProblems(host, guest, watcher);
});

test('presence: the absence counts, Claim appears when allowed without a reload, and clears on return', async () => {
  const p = await page();
  const away = petteiaView('MockPresence1', {
    opponent_connected: false, opponent_away_since: Date.now() - 12000, claim_allowed_at: Date.now(), spectators: 2,
  });
  const game = await mockGame(p, 'MockPresence1', [away]);
  // Times from now on the page's clock: away 12 s, a claim allowed 3 s from now.
  game.push({ type: 'snapshot', game: { ...away, version: 5, opponent_away_since: Date.now() - 12000, claim_allowed_at: Date.now() + 3000 } });
  await p.waitForSelector('.opponent-gone:has-text("Opponent disconnected 0:1")');
  assert.equal(await p.locator('#claim').count(), 0, 'no claim before it is allowed');
  assert.equal(await p.textContent('.spectators'), '2 spectators watching');
  await p.waitForSelector('#claim', { timeout: 5000 });
  assert.match(await p.textContent('.opponent-gone'), /Opponent disconnected 0:1[4-9]/);
  // Said to a screen reader too, once each (the away line counts and is no live region).
  await p.waitForFunction(() => document.querySelector('#announcer').textContent.endsWith('you may claim the win.'));
  await shot(p, 'play-06-opponent-away-claim');
  game.push({ type: 'snapshot', game: { ...away, version: 6, opponent_connected: true, opponent_away_since: null, claim_allowed_at: null } });
  await p.waitForSelector('.opponent-gone', { state: 'hidden' });
  assert.equal(await p.locator('#claim').count(), 0);
  assertNoProblems(p);
});

// A dice game's rematch is dealt as fairly as an invite's game: the offer commits to the rematch's
// seed, and the page adds its player's entropy to the offer and to the accept (docs/RULES.md §4).
test('a dice rematch between two browsers: the offer commits to its seed, each player adds entropy', async () => {
  const { host, guest } = await onlineGame({ host: LAPTOP, guest: PHONE, variant: 'duodecim-scripta', clock: 'none' });
  const firstGame = (await shown(host)).gameId;
  await guest.click('#resign');
  await guest.click('#resign');
  await waitStatus(host, 'finished');
  await host.click('#rematch');
  await guest.click('.end-panel #rematch-accept', { timeout: 10000 });
  await guest.waitForFunction((id) => document.querySelector('section.game')?.dataset.gameId !== id, firstGame);
  await waitStatus(guest, 'playing');
  const rematch = (await shown(guest)).gameId;
  const events = await (await fetch(`${server.base}/api/v1/games/${firstGame}/events?since=0`)).json();
  const offer = events.find((e) => e.kind === 'rematch_offered');
  assert.match(offer.commitment ?? '', /^[0-9a-f]{64}$/, JSON.stringify(offer));
  assert.equal(await commitmentShown(guest), offer.commitment, 'the rematch shows the seed its offer committed to');
  const record = await (await fetch(`${server.base}/api/v1/games/${rematch}/record`)).text();
  for (const tag of ['CreatorEntropy', 'JoinerEntropy']) {
    assert.match(record, new RegExp(`\\[${tag} "[0-9a-f]{32}"\\]`), record);
  }
  assertNoProblems(host, guest);
});

test('takeback and rematch by consent: offers shown with Accept and Decline, answers told to the asker', async () => {
  const p = await page();
  const actions = [];
  const base = petteiaView('MockConsent1', {
    version: 6, position: 'DDDDDD/6/6/6/L5/1LLLLL l 0 1', to_move: 'light', moves: ['A1-A2', 'A6-A5'], legal_moves: ['A2-A3'],
  });
  const game = await mockGame(p, 'MockConsent1', [base], { actions });
  // The opponent asks to take back.
  game.push({ type: 'event', version: 7, event: { version: 7, kind: 'undo_offered', side: 'dark' }, game: { ...base, version: 7 } });
  await p.waitForSelector('.offer-note:has-text("asks to take back")');
  await shot(p, 'play-07-takeback-offered');
  await p.click('#undo-decline');
  // This side asks; the opponent declines.
  await p.click('#undo');
  await p.waitForSelector('.offer-note:has-text("You asked to take back")');
  game.push({ type: 'event', version: 8, event: { version: 8, kind: 'undo_declined', side: 'dark' }, game: { ...base, version: 8 } });
  await p.waitForSelector('.offer-note:has-text("declined your takeback request")');
  // The game ends; the opponent offers a rematch; accepting opens the new game.
  const over = { ...base, version: 9, status: 'finished', to_move: null, legal_moves: [], result: { winner: 'light', termination: 'resignation' } };
  game.show(over);
  game.push({ type: 'event', version: 9, event: { version: 9, kind: 'finished', winner: 'light', termination: 'resignation' }, game: over });
  game.push({ type: 'event', version: 10, event: { version: 10, kind: 'rematch_offered', side: 'dark' }, game: { ...over, version: 10 } });
  await p.waitForSelector('.end-panel #rematch-accept');
  await p.waitForSelector('.offer-note:has-text("offers a rematch")');
  await shot(p, 'play-08-rematch-offered');
  await p.click('#rematch-accept');
  // The click's request reaches the mocked route a moment later.
  for (let i = 0; i < 200 && actions.length < 3; i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
  assert.deepEqual(actions, ['undo/decline', 'undo', 'rematch']);
  const rematch = { ...base, game_id: 'MockConsent2', version: 1, moves: [], legal_moves: [], seat: { side: 'dark', bottom: 'dark' } };
  await p.route('**/api/v1/games/MockConsent2', (route) => route.fulfill({ json: rematch }));
  await p.routeWebSocket('**/api/v1/games/MockConsent2/ws', (ws) => ws.onMessage(() => ws.send(JSON.stringify({ type: 'snapshot', game: rematch }))));
  game.push({ type: 'event', version: 11, event: { version: 11, kind: 'rematch', game_id: 'MockConsent2' }, game: { ...over, version: 11, rematch: 'MockConsent2' } });
  await p.waitForURL(/\/game\/MockConsent2$/);
  await p.waitForSelector('section.game[data-seat="dark"]');
  assert.equal(await p.evaluate(() => localStorage.getItem('ludus.token.MockConsent2')), 'MockSeatTokenMockSeatTokenMock00');
  assertNoProblems(p);
});

test('the rematch offerer is told when it is declined', async () => {
  const p = await page();
  const actions = [];
  const over = petteiaView('MockConsent3', {
    status: 'finished', version: 9, to_move: null, result: { winner: 'dark', termination: 'resignation' },
  });
  const game = await mockGame(p, 'MockConsent3', [over], { actions });
  await p.click('#rematch');
  await p.waitForSelector('.offer-note:has-text("You offered a rematch")');
  game.push({ type: 'event', version: 10, event: { version: 10, kind: 'rematch_declined', side: 'dark' }, game: { ...over, version: 10 } });
  await p.waitForSelector('.offer-note:has-text("declined the rematch")');
  assert.deepEqual(actions, ['rematch']);
  assertNoProblems(p);
});

test('the home form lets the creator list a live game for anyone to watch; it is off by default', async () => {
  const host = await page(LAPTOP);
  await host.goto('/');
  assert.equal(await host.isChecked('#listed'), false, 'not listed unless chosen');
  await shot(host, 'home-listed-option');
  await startFromHome(host, { variant: 'petteia-6', mode: 'online', listed: true });
  const watched = new URL(host.url()).pathname.split('/').pop();
  await startFromHome(host, { variant: 'petteia-6', mode: 'online' });
  const unlisted = new URL(host.url()).pathname.split('/').pop();
  const response = await fetch(`${server.base}/api/v1/games?status=waiting`);
  const waiting = (await response.json()).map((/** @type {{ game_id: string }} */ g) => g.game_id);
  assert.ok(waiting.includes(watched), 'the game created as listed is listed');
  assert.ok(!waiting.includes(unlisted), 'the other is not');

  // Once both are played, a visitor finds the listed one under "Games to watch", and watches it.
  for (const id of [watched, unlisted]) {
    const { body: view } = await callApi(server.base, 'GET', `/api/v1/games/${id}`);
    const invite = await host.evaluate((gameId) => localStorage.getItem(`ludus.invite.${gameId}`), id);
    assert.equal(view.status, 'waiting');
    assert.equal((await callApi(server.base, 'POST', `/api/v1/invites/${encodeURIComponent(invite)}/join`, { body: {} })).status, 200);
  }
  const visitor = await page(PHONE);
  await visitor.goto('/');
  const listed = visitor.locator(`#to-watch li[data-game-id="${watched}"] a`);
  await listed.waitFor();
  assert.equal(await visitor.locator(`#to-watch li[data-game-id="${unlisted}"]`).count(), 0, 'the unlisted game is not offered');
  assert.equal(await visitor.textContent('#to-watch h2'), 'Games to watch');
  await listed.click();
  await visitor.waitForURL(new RegExp(`/game/${watched}$`));
  await visitor.waitForFunction(() => document.querySelector('section.game')?.dataset.status === 'playing');
  assert.equal(await visitor.locator('#resign').count(), 0, 'a visitor watches: no seat, no buttons');
  assertNoProblems(host, visitor);
});

test('each game on the home page is a radio named by the game alone and described by its summary', async () => {
  const p = await page(LAPTOP);
  await p.goto('/');
  const radio = p.getByRole('radio', { name: 'Petteia 6×6', exact: true });
  assert.equal(await radio.count(), 1, 'named by the game, not the whole card');
  const description = await radio.evaluate((input) => (input.getAttribute('aria-describedby') || '')
    .split(' ').map((id) => document.getElementById(id)?.textContent).join(' '));
  assert.ok(description.startsWith(await p.textContent('label[for="variant-petteia-6"] .summary')), description);
  assert.ok(description.endsWith(await p.textContent('label[for="variant-petteia-6"] .reconstruction')), description);
  // Choosing it by its name still chooses it.
  await p.getByRole('radio', { name: 'Duodecim Scripta', exact: true }).check();
  assert.equal(await p.isChecked('#variant-duodecim-scripta'), true);
  assertNoProblems(p);
});

test('an address that names nothing gets a not-found page with links to the rules and a new game', async () => {
  const p = await page();
  for (const path of ['/rules/no-such-game', '/game/%00%ff', '/game/NoSuchGame12', '/nowhere']) {
    await p.goto(path);
    await p.waitForSelector('.not-found h1');
    assert.equal(await p.textContent('.not-found h1'), 'Not found', path);
    assert.equal(await p.locator('.not-found a[href="/rules"]').count(), 1);
    assert.equal(await p.locator('.not-found a[href="/"]').count(), 1);
  }
  await shot(p, 'play-09-not-found');
  await p.click('.not-found a[href="/rules"]');
  await p.waitForSelector('.rules-board svg');
  forgive(p, /status of 404/);
  assertNoProblems(p);
});
