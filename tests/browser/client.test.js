// The browser client, driven as a player would drive it: an invite game between two browser
// contexts, a game against the computer, a local game with undo, a game of every supported
// variant to its end, the boards drawn from position strings, the rules and printable pages.
// Every page must finish without a console error; every screen is saved for review.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  browserSuite, mockGame, shot, view, shown, waitVersion, waitStatus, waitSeat, waitMoves,
  clickMove, dragMove, placeBox, playAnyMove, callApi, createViaApi, proxySocket, startFromHome,
  recordConnectionStates, PHONE,
} from './support.js';

// One server for the whole file; the variant list is read first so each variant gets its own test.
const { server, list, page, assertNoProblems } = await browserSuite();

test('two players play a whole game by invite link', async () => {
  const host = await page({ permissions: ['clipboard-read', 'clipboard-write'] });
  await host.goto('/');
  await host.waitForSelector('#create');
  await shot(host, '01-home');
  await startFromHome(host, { variant: 'petteia-6', mode: 'online', clock: '5+3', side: 'first' });
  await host.waitForSelector('#invite-link');
  await host.waitForSelector('.invite svg.qr path');
  await host.click('#copy-invite');
  await host.waitForSelector('.copied:has-text("Copied")');
  const link = await host.evaluate(() => navigator.clipboard.readText());
  assert.equal(link, await host.inputValue('#invite-link'));
  assert.match(link, /\/join\/[A-Za-z0-9_-]+$/);
  assert.match(await host.textContent('#status'), /Waiting for your friend/);
  await shot(host, '02-invite-waiting');

  const guest = await page();
  const guestSocket = await proxySocket(guest);
  await guest.goto(link);
  await guest.waitForURL(/\/game\//);
  await waitStatus(guest, 'playing');
  await waitStatus(host, 'playing');
  assert.equal(await host.getAttribute('.board-holder', 'data-bottom'), 'light');
  assert.equal(await guest.getAttribute('.board-holder', 'data-bottom'), 'dark');
  assert.equal(await host.isHidden('.invite'), true);
  // The board turns: Light's first rank is at the bottom for the host and at the top for the guest.
  const [hostA1, hostA6] = [await placeBox(host, 'A1'), await placeBox(host, 'A6')];
  const [guestA1, guestA6, guestF1] = [await placeBox(guest, 'A1'), await placeBox(guest, 'A6'), await placeBox(guest, 'F1')];
  assert.ok(hostA1.y > hostA6.y && guestA1.y < guestA6.y, 'the boards are oriented for each seat');
  assert.ok(guestA1.x > guestA6.x - 1 && guestA1.x > guestF1.x);
  assert.match(await host.textContent('#status'), /Your move/);
  assert.equal(await host.locator('.clock-bottom .clock-time').count(), 1);

  // Light moves by click and click; the guest sees it.
  await clickMove(host, 'A1', 'A3');
  await waitVersion(guest, (await shown(host)).version);
  assert.match(await guest.textContent('.move-list'), /A1-A3/);
  assert.match(await guest.textContent('#status'), /Your move/);
  // Dark moves by dragging; the host sees it.
  await dragMove(guest, 'B6', 'B4');
  await waitVersion(host, (await shown(guest)).version);
  assert.match(await host.textContent('.move-list'), /B6-B4/);

  // A dropped connection resumes with `since` and misses nothing.
  await recordConnectionStates(guest);
  await guestSocket.cut();
  await guest.waitForFunction(() => document.body.dataset.connectionStates.split(' ').includes('reconnecting'));
  await clickMove(host, 'F1', 'F3');
  await guest.waitForSelector('.move-list :text("F1-F3")', { timeout: 15000 });
  await guest.waitForSelector('.connection[data-state="connected"]');
  // A reload keeps the seat: the token is in localStorage under the game id.
  await guest.reload();
  await waitSeat(guest, 'dark');
  await guest.waitForSelector('.connection[data-state="connected"]');
  await shot(host, '03-game-light-seat');
  await shot(guest, '04-game-dark-seat');

  // A draw offer, declined; then Dark resigns.
  await host.click('#draw');
  await guest.waitForSelector('#draw-accept');
  await shot(guest, '05-draw-offered');
  await guest.click('#draw-decline');
  // Declined, the offer is made again only after a move (the server refuses it before).
  await host.waitForSelector('.offer-note:has-text("declined your draw offer")');
  assert.equal(await host.locator('#draw').count(), 0);
  await guest.click('#resign');
  await guest.click('#resign');
  await waitStatus(host, 'finished');
  await waitStatus(guest, 'finished');
  assert.match(await host.textContent('#status'), /Light wins by resignation — you win/);
  assert.match(await guest.textContent('#status'), /Light wins by resignation — you lose/);
  await shot(host, '06-finished-winner');
  await shot(guest, '07-finished-loser');

  // Rematch by consent: the host offers, the guest accepts; the new game, sides swapped, opens for both.
  await host.click('#rematch');
  await guest.click('#rematch-accept');
  await waitSeat(host, 'dark');
  await waitSeat(guest, 'light');
  assert.equal(await guest.getAttribute('.board-holder', 'data-bottom'), 'light');
  await shot(guest, '08-rematch');
  assertNoProblems(host, guest);
});

test('a game against the computer', async () => {
  const p = await page();
  await startFromHome(p, { variant: 'petteia-8', mode: 'computer', side: 'second', level: 2, clock: '10+5' });
  // The computer plays Light first.
  await p.waitForSelector('section.game:not([data-moves="0"]) .board-holder .place.movable');
  assert.equal(await p.getAttribute('.board-holder', 'data-bottom'), 'dark');
  for (let i = 0; i < 3; i += 1) {
    const before = (await shown(p)).moves;
    await playAnyMove(p);
    await p.waitForFunction((n) => Number(document.querySelector('section.game').dataset.moves) >= n + 2
      || document.querySelector('section.game').dataset.status !== 'playing', before);
  }
  await p.check('#threats');
  await p.waitForFunction(() => document.querySelector('.board-holder .threat') || /threatened/.test(document.querySelector('.threat-info').textContent));
  await shot(p, '09-computer-game');
  await p.click('#undo');
  await p.waitForFunction(() => Number(document.querySelector('section.game').dataset.moves) % 2 === 1);
  // A hint names one of the legal moves and selects its piece.
  await p.waitForSelector('#hint');
  await p.click('#hint');
  await p.waitForFunction(() => /Hint: /.test(document.querySelector('.hint-line').textContent));
  const hinted = (await p.textContent('.hint-line')).replace('Hint: ', '').trim();
  // Said as news, once, by the announcer, not as an error: the alert line stays empty.
  await p.waitForFunction((text) => document.querySelector('#announcer').textContent.includes(text), `Hint: ${hinted}`);
  assert.equal(await p.textContent('.refusal'), '');
  assert.ok((await view(p)).legal_moves.includes(hinted), `the hint ${hinted} is legal`);
  await shot(p, '09b-computer-hint');
  await p.click('#resign');
  await p.click('#resign');
  await waitStatus(p, 'finished');
  assert.match(await p.textContent('#status'), /Light wins by resignation/);
  assertNoProblems(p);
});

test('a spectator is shown the threatened pieces of both sides, a player only its own', async () => {
  // After B1-B2 C6-C2 each side has a piece the other can take with its next move.
  const { body: created } = await createViaApi(server.base, { variant: 'petteia-6', mode: 'local' });
  for (const [version, move] of ['B1-B2', 'C6-C2'].entries()) {
    const played = await callApi(server.base, 'POST', `/api/v1/games/${created.game_id}/moves`, { body: { move, version }, token: created.seat.token });
    assert.equal(played.status, 200);
  }
  const { position } = (await callApi(server.base, 'GET', `/api/v1/games/${created.game_id}`)).body;
  const { threatened } = (await callApi(server.base, 'POST', '/api/v1/analysis', { body: { variant: 'petteia-6', position } })).body;
  assert.ok(threatened.light.length && threatened.dark.length, 'both sides have a threatened piece');
  /** Opens `url`, turns the threats on, and reads the switch's label, the ringed places and the line under it. */
  const threatsShown = async (url) => {
    const p = await page();
    await p.goto(url);
    await p.waitForSelector('section.game[data-version="2"]');
    const label = (await p.textContent('label[for="threats"]')).trim();
    await p.check('#threats');
    await p.waitForFunction(() => /threatened/.test(document.querySelector('.threat-info').textContent));
    const places = await p.$$eval('.board-holder .threat', (rings) => rings.map((r) => r.closest('[data-place]').dataset.place).sort());
    return { p, label, places, info: await p.textContent('.threat-info') };
  };

  const watcher = await threatsShown(created.watch_url);
  assert.equal(watcher.label, 'Show the threatened pieces');
  assert.deepEqual(watcher.places, [...threatened.light, ...threatened.dark].sort());
  assert.equal(watcher.info, `${watcher.places.length} pieces are threatened (dashed rings).`);
  await shot(watcher.p, '09c-spectator-threats');
  // The local game's player holds the side to move (Light): only Light's pieces are its own.
  const player = await threatsShown(created.seat_url);
  assert.equal(player.label, 'Show my threatened pieces');
  assert.deepEqual(player.places, [...threatened.light].sort());
  assertNoProblems(watcher.p);
  assertNoProblems(player.p);
});

/** The focused place's ring is drawn, in screen pixels as wide as every focus ring (3 px). */
async function assertFocusRing(p) {
  const ring = await p.evaluate(() => {
    const hit = document.activeElement?.querySelector('.hit');
    if (!(hit instanceof SVGGraphicsElement)) return null;
    const style = getComputedStyle(hit);
    const width = parseFloat(style.strokeWidth);
    return { drawn: style.stroke !== 'none', px: style.vectorEffect === 'non-scaling-stroke' ? width : width * (hit.getScreenCTM()?.a ?? 1) };
  });
  assert.ok(ring?.drawn && ring.px >= 3, `the focus ring is ${JSON.stringify(ring)}`);
}

test('on a phone the focus ring of the smallest board, Duodecim\'s, is as wide as any other', async () => {
  const p = await page(PHONE);
  await startFromHome(p, { variant: 'duodecim-scripta', mode: 'local' });
  await p.keyboard.press('Shift');
  await p.focus('.board-holder .place');
  await assertFocusRing(p);
  assertNoProblems(p);
});

test('a local game with undo, by keyboard and touch', async () => {
  const p = await page(PHONE);
  const socket = await proxySocket(p);
  await startFromHome(p, { variant: 'petteia-6', mode: 'local' });
  await shot(p, '10-local-phone');
  // Touch: tap the piece, then its destination.
  await p.tap('.board-holder [data-place="C1"]');
  await p.tap('.board-holder [data-place="C3"].dest');
  await waitVersion(p, 1);
  // Keyboard: focus a piece, Enter, Tab to a destination, Enter.
  await p.focus('.board-holder [data-place="D6"]');
  await p.keyboard.press('Enter');
  await p.waitForSelector('.board-holder [data-place="D4"].dest');
  assert.ok(await p.evaluate(() => document.activeElement?.matches('.board-holder [data-place].dest')), 'the focus goes on to a destination');
  await assertFocusRing(p);
  assert.equal(await p.getAttribute('.board-holder [data-place="D6"]', 'aria-pressed'), 'true', 'the piece picked up says so');
  await p.focus('.board-holder [data-place="D4"]');
  await p.keyboard.press('Enter');
  await waitMoves(p, 2);
  await p.click('#undo');
  await p.waitForFunction(() => document.querySelector('section.game').dataset.moves === '1');
  assert.match(await p.textContent('#status'), /Dark to move/);
  // A refused move shows the server's reason: the relay turns the next move into an illegal one.
  socket.rewrite = (message) => (message.type === 'move' ? { ...message, move: 'D6-D1' } : message);
  await p.tap('.board-holder [data-place="D6"]');
  await p.tap('.board-holder [data-place="D5"].dest');
  await p.waitForSelector('.refusal:has-text("Refused")');
  console.log(`refusal shown: ${await p.textContent('.refusal')}`);
  assert.match(await p.textContent('.refusal'), /^Refused: Illegal move D6-D1: ./);
  assert.equal((await shown(p)).moves, 1);
  assert.equal((await shown(p)).pending, '');
  await shot(p, '11-local-after-undo');
  assertNoProblems(p);
});

// Short routes to a real end by the rules; the dice games play whatever the page offers, then resign.
const ROUTES = {
  'petteia-6': [['A1', 'A2'], ['A6', 'A5'], ['A2', 'A1'], ['A5', 'A6'], ['A1', 'A2'], ['A6', 'A5'], ['A2', 'A1'], ['A5', 'A6']],
  'petteia-8': [['H1', 'H3'], ['H8', 'H6'], ['H3', 'H1'], ['H6', 'H8'], ['H1', 'H3'], ['H8', 'H6'], ['H3', 'H1'], ['H6', 'H8']],
};

for (const variant of list) {
  test(`one game of ${variant.id} through the UI to its end`, async (t) => {
    const attempt = await createViaApi(server.base, { variant: variant.id, mode: 'local', clock: null, side: 'first' });
    if (attempt.status === 400 && /not supported/.test(attempt.body.error.message)) {
      const reason = `${variant.id}: the server says "${attempt.body.error.message}"`;
      t.diagnostic(reason);
      console.log(`skipped: ${reason}`);
      t.skip(reason);
      return;
    }
    assert.equal(attempt.status, 201, JSON.stringify(attempt.body));
    const p = await page();
    await startFromHome(p, { variant: variant.id, mode: 'local' });
    const places = await p.locator('.board-holder [data-place]').count();
    assert.ok(places >= 10, `the board has its places (${places})`);
    if (ROUTES[variant.id]) {
      for (const [from, to] of ROUTES[variant.id]) await clickMove(p, from, to);
      await waitStatus(p, 'finished');
      assert.match(await p.textContent('#status'), /Draw by threefold repetition/);
    } else {
      for (let i = 0; i < 40 && (await shown(p)).status === 'playing'; i += 1) await playAnyMove(p);
      if ((await shown(p)).status === 'playing') {
        await shot(p, `12-variant-${variant.id}-playing`);
        await p.click('#resign');
        await p.click('#resign');
      }
      await waitStatus(p, 'finished');
      assert.match(await p.textContent('#status'), /wins|Draw/);
    }
    await shot(p, `12-variant-${variant.id}-finished`);
    assertNoProblems(p);
  });
}

test('the boards are drawn from the position strings of docs/RULES.md', async () => {
  const p = await page();
  await p.goto('/rules/petteia-6');
  await p.waitForSelector('.rules-board svg');
  const result = await p.evaluate(async () => {
    const pente = await import('/js/boards/pente.js');
    const duo = await import('/js/boards/duodecim.js');
    const pet = await import('/js/boards/petteia.js');
    const out = {};
    const k = pente.parse('2T1B/-/3T/TB/-/-/B/-/-/- b r:1,2 h:0,2');
    out.kidd = [k.points[0], k.points[2], k.points[3], k.toMove, k.reserve, k.holy];
    const per = pente.parse('T/T/-/TT/-/B/B/B/-/B t x:1,0 th:b@1,t@4');
    out.perimeter = [per.removed, per.threats];
    const d = duo.parse('.,.,.,.,.,.,.,.,.,.,.,./.,.,.,2b,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,1w w r:15,13 o:3,0 dice:[4,1,2] bonus:[5]');
    out.duodecim = [d.cells.M4, d.cells.B12, d.reserve, d.off, d.dice, d.bonus, d.toMove];
    out.petteia = Object.keys(pet.parse('4DD/6/L5/2D3/2L3/6 l').board).sort();
    // Perimeter re-entry: numbered markers on the five setup points.
    const holder = document.createElement('div');
    holder.className = 'board-holder';
    holder.append(pente.render(per, { bottom: 'terracotta', movable: new Set(['X']), selected: 'X', destinations: new Map(['0', '1', '2', '3', '4'].map((x) => [x, []])) }));
    holder.append(duo.render(d, { bottom: 'black', face: 'levate', movable: new Set(['R']), selected: 'R', destinations: new Map([['M1', []], ['M2', []]]), threatened: new Set(['B12']), odds: { B12: { hits: 11, of: 36 } } }));
    document.querySelector('main').replaceChildren(holder);
    out.numbers = [...holder.querySelectorAll('.dest-number')].map((n) => n.textContent);
    // Read as the eye reads the board (this one from Black's side): row by row, left to right.
    out.letters = [...holder.querySelectorAll('.board-duodecim .inscription')]
      .sort((a, b) => Number(a.getAttribute('y')) - Number(b.getAttribute('y')) || Number(a.getAttribute('x')) - Number(b.getAttribute('x')))
      .map((n) => n.textContent).join('');
    out.counts = [...holder.querySelectorAll('.board-duodecim .count')].map((n) => n.textContent);
    // Each cell's letter is painted under the pieces that stand on it, and their count above them.
    const m4 = holder.querySelector('.board-duodecim [data-place="M4"]');
    const letter = m4.querySelector('.inscription');
    const disc = m4.querySelector('.piece .disc');
    const count = [...holder.querySelectorAll('.board-duodecim .count')].find((n) => n.textContent === '2');
    out.letterUnderPieces = Boolean(letter && disc && letter.compareDocumentPosition(disc) & Node.DOCUMENT_POSITION_FOLLOWING);
    out.countOverPieces = Boolean(count && disc && disc.compareDocumentPosition(count) & Node.DOCUMENT_POSITION_FOLLOWING);
    // A face the board does not know (a stale or tampered preference) draws the default one.
    out.unknownFace = duo.render(d, { face: 'toString' }).getAttribute('aria-label');
    return out;
  });
  assert.deepEqual(result.kidd, [{ terracotta: 2, black: 1 }, { terracotta: 3, black: 0 }, { terracotta: 1, black: 1 }, 'black', { terracotta: 1, black: 2 }, { terracotta: 0, black: 2 }]);
  assert.deepEqual(result.perimeter, [{ terracotta: 1, black: 0 }, [{ against: 'black', line: 1 }, { against: 'terracotta', line: 4 }]]);
  assert.deepEqual(result.duodecim, [{ side: 'black', count: 2 }, { side: 'white', count: 1 }, { white: 15, black: 13 }, { white: 3, black: 0 }, [4, 1, 2], [5], 'white']);
  assert.deepEqual(result.petteia, ['A4', 'C2', 'C3', 'E6', 'F6']);
  assert.deepEqual(result.numbers, ['0', '1', '2', '3', '4']);
  assert.equal(result.letters, 'LEVATEDALOCVLVDERENESCISIDIOTARECEDE');
  assert.match(result.unknownFace, /face VIRTVS IMPERI$/);
  assert.ok(result.counts.includes('15') && result.counts.includes('13') && result.counts.includes('2'));
  assert.ok(result.letterUnderPieces, 'a cell\'s letter is under its pieces');
  assert.ok(result.countOverPieces, 'a stack\'s count is over its pieces');
  await shot(p, '13-boards-from-positions');
  assertNoProblems(p);
});

test('rules pages and printable boards for every variant', async () => {
  const p = await page();
  for (const variant of list) {
    await p.goto(`/rules/${variant.id}?lang=en`);
    await p.waitForSelector('.worked-example svg');
    assert.match(await p.textContent('h1'), /^Rules of /);
    assert.match(await p.textContent('.kind-label'), /./);
    // Every position the notation writes is one the server reads, and one of them is this
    // variant's (from a learner's audit: Kidd's and the Perimeter's pages gave Schädler's start,
    // Petteia 8×8's the 6×6 one).
    const written = (await p.textContent('.notation')).match(/[-A-Za-z0-9]+(?:\/[-A-Za-z0-9]+){5,} [a-z](?: [a-z]:\d+,\d+)*/g) || [];
    const family = list.filter((v) => v.game === variant.game);
    const readBy = async (position) => {
      const readers = [];
      for (const v of family) {
        const dice = v.dice ? [3] : undefined;
        const { status } = await callApi(server.base, 'POST', '/api/v1/analysis', { body: { variant: v.id, position, dice } });
        if (status === 200) readers.push(v.id);
      }
      return readers;
    };
    const readers = await Promise.all(written.map(readBy));
    if (variant.game !== 'duodecim-scripta') assert.ok(written.length > 0, `${variant.id}: a position is written`);
    written.forEach((position, i) => assert.ok(readers[i].length > 0, `${variant.id}: ${position} is read by no variant`));
    if (written.length) assert.ok(readers.some((r) => r.includes(variant.id)), `${variant.id}: none of ${written} is its own`);
    // "Play it" starts the home page on this game.
    await p.click('#play-it');
    await p.waitForSelector(`#variant-${variant.id}:checked`);
    await p.goBack();
    await p.waitForSelector('.worked-example svg');
    await shot(p, `14-rules-${variant.id}`);
    await p.click('#printable');
    await p.waitForURL(/\/print$/);
    await p.waitForSelector('.print-sheet .print-board svg');
    await p.emulateMedia({ media: 'print' });
    await shot(p, `15-print-${variant.id}`);
    await p.emulateMedia({ media: 'screen' });
  }
  assertNoProblems(p);
});

// Some dice screens are checked against a stand-in for the game endpoints (the views are shaped as
// the server's, positions as docs/RULES.md writes them), to reach positions a random game rarely does.
function diceView(variant, sides, position, extra) {
  return {
    game_id: 'x', variant, mode: 'local', status: 'playing', version: 5, position, to_move: sides[0], first: sides[0], sides,
    dice: [], moves: [], clocks: null, result: null, draw_offer: null, seat: { side: sides[0], bottom: sides[0], both: true },
    legal_moves: [], opponent_connected: true, commitment: 'ab', ...extra,
  };
}

// From a dice players' audit: the creator's page opened before the join, when no side was drawn to
// move first; the review opened after the game replayed it from the variant's own first side (White
// entering where Black had), until a reload.
test('a review opened after the game starts from the side the dice drew, though the page opened before the join', async () => {
  const p = await page();
  const row = '.,.,.,.,.,.,.,.,.,.,.,.';
  const waiting = diceView('duodecim-scripta', ['white', 'black'], `${row}/${row}/${row} w r:15,15 o:0,0 dice:[] bonus:[]`, {
    game_id: 'MockDrawnFirst', mode: 'online', status: 'waiting', first: null, version: 1, seat: { side: 'black', bottom: 'black' },
  });
  const events = [
    { version: 2, at: 1, kind: 'joined', side: 'white' },
    { version: 3, at: 2, kind: 'roll', side: 'black', dice: [6, 2, 3] },
    { version: 4, at: 3, kind: 'move', side: 'black', move: '6:R-M6' },
    { version: 5, at: 4, kind: 'move', side: 'black', move: '2:R-M2' },
    { version: 6, at: 5, kind: 'finished', winner: 'white', termination: 'resignation' },
  ];
  const game = await mockGame(p, 'MockDrawnFirst', [waiting], { events });
  /** @type {{ position: string }[]} */
  const asked = [];
  p.on('request', (r) => { if (r.url().endsWith('/api/v1/analysis/replay')) asked.push(JSON.parse(r.postData() ?? '{}')); });
  game.push({ type: 'snapshot', game: {
    ...waiting, status: 'finished', first: 'black', version: 6, to_move: 'black', moves: ['6:R-M6', '2:R-M2'], dice: [3],
    result: { winner: 'white', termination: 'resignation' }, position: `${row}/.,1b,.,.,.,1b,.,.,.,.,.,./${row} b r:13,15 o:0,0 dice:[3] bonus:[]`,
  } });
  await waitStatus(p, 'finished');
  await p.click('#review-open');
  await p.click('.review-moves button[data-ply="1"]');
  await p.waitForSelector('.review-moves button[data-ply="1"][aria-current=step]');
  assert.ok(asked.length > 0, 'the review asked the server for the first move\'s position');
  assert.match(asked[0].position, / b r:15,15 /, 'replayed from Black, whom the dice drew');
  assertNoProblems(p);
});

test('the Duodecim Scripta screen: entering from reserve, bonus dice and decline', async () => {
  const p = await page();
  const posted = [];
  const row = '.,.,.,.,.,.,.,.,.,.,.,.';
  const views = [
    diceView('duodecim-scripta', ['white', 'black'], `${row}/.,.,.,2b,.,.,.,.,.,.,.,./${row} w r:15,13 o:0,0 dice:[4,1,2] bonus:[]`, { game_id: 'MockDuodecim1', dice: [4, 1, 2], legal_moves: ['1:R-M1', '2:R-M2'] }),
    diceView('duodecim-scripta', ['white', 'black'], `${row}/.,1w,.,2b,.,.,.,.,.,.,.,./${row} b r:14,13 o:0,0 dice:[] bonus:[4]`, { game_id: 'MockDuodecim1', version: 7, to_move: 'black', moves: ['2:R-M2'], legal_moves: ['4:R-M4', 'decline'] }),
    diceView('duodecim-scripta', ['white', 'black'], `${row}/.,1w,.,2b,.,.,.,.,.,.,.,./${row} b r:14,13 o:0,0 dice:[3,5,6] bonus:[]`, { game_id: 'MockDuodecim1', version: 9, to_move: 'black', moves: ['2:R-M2', 'decline'], dice: [3, 5, 6], legal_moves: ['3:R-M3'] }),
  ];
  const game = await mockGame(p, 'MockDuodecim1', views, { posted, events: [{ version: 4, kind: 'roll', side: 'white', dice: [4, 1, 2] }] });
  assert.equal(await p.locator('.board-holder .board-duodecim [data-place^="M"]').count(), 12);
  // The rules of the game, beside its title, open in a tab of their own.
  assert.deepEqual(await p.$eval('#rules-link', (a) => [a.getAttribute('href'), a.target]), ['/rules/duodecim-scripta', '_blank']);
  // Flipping draws the board and its clocks from the other side, and back.
  assert.equal(await p.getAttribute('.board-holder', 'data-bottom'), 'white');
  await p.check('#flip');
  assert.equal(await p.getAttribute('.board-holder', 'data-bottom'), 'black');
  assert.match(await p.textContent('.clock-bottom'), /^Black/);
  await p.uncheck('#flip');
  assert.equal(await p.getAttribute('.board-holder', 'data-bottom'), 'white');
  assert.equal(await p.getAttribute('.dice-row', 'data-dice'), '4,1,2');
  // Each face is offered by its short name, in the interface's language.
  assert.deepEqual(await p.$$eval('#face option', (os) => os.map((o) => o.textContent)), ['VIRTVS IMPERI', 'LEVATE DALOCV', 'Plain']);
  await p.selectOption('#face', 'levate');
  assert.match(await p.textContent('.board-holder'), /L.*E.*V.*A.*T.*E/s);
  assert.match(await p.getAttribute('.board-holder .board-duodecim', 'aria-label'), /face LEVATE DALOCV$/);
  await p.click('.board-holder [data-place="R"]');
  assert.deepEqual(await p.$$eval('.board-holder .dest', (els) => els.map((e) => e.dataset.place).sort()), ['M1', 'M2']);
  await shot(p, '16-duodecim-selected');
  await p.click('.board-holder [data-place="M2"]');
  await p.waitForSelector('.dice-row.bonus[data-bonus="4"]');
  await shot(p, '17-duodecim-bonus');
  await p.click('.move-choice[data-move="decline"]');
  await p.waitForSelector('.dice-row[data-dice="3,5,6"]');
  assert.deepEqual(posted, ['2:R-M2', 'decline']);
  // One line per turn, with the side and its roll.
  assert.equal(await p.textContent('.move-list li:first-child'), '1.White ⚃⚀⚁ 2:R-M2');
  assert.equal(await p.textContent('.move-list li:nth-child(2)'), '2.Black decline');
  await p.waitForSelector('.dice-label:has-text("Dice (Black)")');
  // Black played its roll; White's roll cannot be played at all: the turn passes with no move, and
  // both the roll and where its dice went are said (RULES.md §3.2).
  const passed = diceView('duodecim-scripta', ['white', 'black'], `${row}/.,1w,1b,2b,.,.,.,.,.,.,.,./${row} b r:14,12 o:0,0 dice:[] bonus:[6,6,5]`, {
    game_id: 'MockDuodecim1', version: 11, to_move: 'black', moves: ['2:R-M2', 'decline', '3:R-M3'], legal_moves: ['5:R-M5', 'decline'],
  });
  game.push({ type: 'event', version: 10, event: { version: 10, kind: 'move', side: 'black', move: '3:R-M3' }, game: { ...passed, version: 10, to_move: 'white' } });
  game.push({ type: 'event', version: 11, event: { version: 11, kind: 'roll', side: 'white', dice: [6, 6, 5] }, game: passed });
  await p.waitForSelector('.dice-note');
  assert.equal(await p.textContent('.dice-note'), 'White rolled 6, 6, 5: no die could be played, so they go to Black as bonus dice.');
  assert.equal(await p.textContent('.dice-row.bonus + .dice-label, .dice-label:has(+ .dice-row.bonus)'), 'Bonus dice of Black, left unplayed by White: play them before the roll, or decline them');
  // Said too: the note is drawn filled at every redraw, which a screen reader does not read (a
  // keyboard audit heard only "White rolled 6, 5, 5.").
  await p.waitForFunction(() => document.querySelector('#announcer').textContent.includes('no die could be played, so they go to Black as bonus dice. Bonus dice of Black'));
  await shot(p, '17b-duodecim-roll-unplayable');
  assertNoProblems(p);
});

test('the Pente Grammai screens: numbered re-entry points (Perimeter) and the holy line (Kidd)', async () => {
  const p = await page();
  const posted = [];
  const sides = ['terracotta', 'black'];
  const views = [
    diceView('pente-grammai-perimeter', sides, 'T/T/-/2T1B/-/B/B/B/-/B t x:1,0 th:b@1', { game_id: 'MockPerimeter1', dice: [6], legal_moves: ['6:X-0', '6:X-1', '6:X-2', '6:X-3', '6:X-4', '6:1-7'] }),
    diceView('pente-grammai-perimeter', sides, 'T/T/-/3T1B/-/B/B/B/-/B b x:0,0', { game_id: 'MockPerimeter1', version: 7, to_move: 'black', moves: ['6:X-3'], dice: [2], legal_moves: ['2:pass'] }),
  ];
  await mockGame(p, 'MockPerimeter1', views, { posted });
  assert.equal(await p.locator('.board-holder .point').count(), 10);
  assert.match(await p.textContent('.board-holder'), /sacred line/);
  await p.click('.board-holder [data-place="X"]');
  assert.deepEqual(await p.$$eval('.board-holder .dest-number', (els) => els.map((e) => e.textContent)), ['0', '1', '2', '3', '4']);
  await shot(p, '18-perimeter-reentry');
  await p.click('.board-holder [data-place="3"]');
  await p.waitForSelector('.move-choice[data-move="2:pass"]');
  await p.click('.move-choice[data-move="2:pass"]');
  assert.deepEqual(posted, ['6:X-3', '2:pass']);

  const kidd = await page();
  const kiddPosted = [];
  await mockGame(kidd, 'MockKidd1', [
    diceView('pente-grammai-kidd', sides, '-/-/-/-/-/2B/-/-/-/1T b r:4,2 h:0,1', { game_id: 'MockKidd1', to_move: 'black', dice: [2], legal_moves: ['2:R-5', '2:5-7', '2:H-4'], seat: { side: 'black', bottom: 'black' } }),
  ], { posted: kiddPosted });
  await kidd.click('.board-holder [data-place="H"]');
  assert.deepEqual(await kidd.$$eval('.board-holder .dest', (els) => els.map((e) => e.dataset.place)), ['4']);
  await shot(kidd, '19-kidd-holy-line');
  await kidd.click('.board-holder [data-place="4"]');
  assert.deepEqual(kiddPosted, ['2:H-4']);
  assertNoProblems(p, kidd);
});
