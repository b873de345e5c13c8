// Review and analysis in a real browser, in English and French: the review of a finished game
// (stepped by buttons, arrow keys and the move list; the ply link; analyse from here), review
// during a live game, and the analysis board with the computer's suggestion, threats with their
// odds and set-up by clicking. Screens are saved at 1280x800 and 390x844.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, shot, callApi, createViaApi, forgive } from './support.js';

const { server, page: openPage, assertNoProblems } = await browserSuite();
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };
const page = (size = 'desktop', options = {}) => openPage({ viewport: SIZES[size], ...options });

async function api(method, path, body, token) {
  return (await callApi(server.base, method, path, { body, token })).body;
}

/** Waits until the review shows ply `n` (stepping replays positions through the server). */
const atPly = (p, n) => p.waitForSelector(`.review-moves button[data-ply="${n}"][aria-current=step]`);

/** A local Petteia game with `n` moves played (the first legal move each time), then resigned. */
async function finishedGame(n) {
  const { body } = await createViaApi(server.base, { variant: 'petteia-6', mode: 'local', clock: null, side: 'first' });
  const id = body.game_id;
  const token = body.seat.token;
  let view = await api('GET', `/api/v1/games/${id}`, undefined, token);
  for (let i = 0; i < n; i += 1) view = await api('POST', `/api/v1/games/${id}/moves`, { move: view.legal_moves[i % view.legal_moves.length], version: view.version }, token);
  await api('POST', `/api/v1/games/${id}/resign`, {}, token);
  return { id, moves: view.moves };
}

for (const lang of ['en', 'fr']) {
  test(`a finished game reviewed move by move; the ply link opens there (${lang})`, async () => {
    const { id, moves } = await finishedGame(6);
    const p = await page();
    await p.goto(`/game/${id}?lang=${lang}`);
    await p.waitForSelector('.review-moves button[data-ply="6"][aria-current=step]');
    const status = () => p.textContent('.review-status');
    // Named by its turn, as the move list numbers turns (Petteia's pair the two sides' moves).
    assert.match(await status(), lang === 'fr' ? /^Tour 3, Sombre · coup 6 sur 6/ : /^Turn 3, Dark · move 6 of 6/);
    assert.deepEqual(await p.locator('.review-moves .turn').allTextContents(), ['1.', '2.', '3.']);
    assert.ok((await status()).endsWith(` · ${moves[5]}`), 'the step names its move, for a screen reader');
    await p.click('#review-prev');
    await atPly(p, 5);
    await p.click('#review-prev');
    await atPly(p, 4);
    assert.match(await status(), lang === 'fr' ? /^Tour 2, Sombre · coup 4 sur 6/ : /^Turn 2, Dark · move 4 of 6/);
    // The arrow on the review board is the fourth move.
    assert.equal(await p.getAttribute('.review-board .move-arrow', 'data-move'), moves[3]);
    await p.focus('#review');
    await p.keyboard.press('ArrowLeft');
    await atPly(p, 3);
    assert.equal(await p.getAttribute('.review-board .move-arrow', 'data-move'), moves[2]);
    await p.keyboard.press('ArrowRight');
    await atPly(p, 4);
    await p.keyboard.press('ArrowRight');
    await atPly(p, 5);
    assert.equal(await p.getAttribute('.review-board .move-arrow', 'data-move'), moves[4]);
    await p.click('.review-moves button[data-ply="1"]');
    await atPly(p, 1);
    assert.equal(await p.getAttribute('.review-board .move-arrow', 'data-move'), moves[0]);
    await p.click('#review-first');
    await atPly(p, 0);
    assert.equal(await p.locator('.review-board .move-arrow').count(), 0);
    // Light's back rank is full at the start, and a screen reader reads it place by place (the
    // board was one image, its name alone).
    assert.equal(await p.locator('.review-board [data-place="A1"] .piece-light').count(), 1);
    const read = await p.locator('.review-board').ariaSnapshot();
    assert.match(read, lang === 'fr' ? /img "A1, pion clair"/ : /img "A1, light piece"/, read.slice(0, 300));
    await shot(p, `learn-review-${lang}`);
    assert.match(await p.getAttribute('#review-download', 'href'), new RegExp(`/api/v1/games/${id}/record`));

    const q = await page('phone');
    await q.goto(`/game/${id}?ply=2&lang=${lang}`);
    await q.waitForSelector('.review-moves button[data-ply="2"][aria-current=step]');
    assert.equal(await q.getAttribute('.review-board .move-arrow', 'data-move'), moves[1]);
    await shot(q, `learn-review-ply-phone-${lang}`);
    await q.click('#review-analyse');
    await q.waitForURL(/\/analysis\?/);
    await q.waitForSelector('.analysis-moves .move-button');
    const position = await q.inputValue('#analysis-position');
    const analysed = await api('POST', '/api/v1/analysis/play', { variant: 'petteia-6', position: 'DDDDDD/6/6/6/6/LLLLLL l', moves: moves.slice(0, 2) });
    assert.equal(position, analysed.position);
    assertNoProblems(p);
    assertNoProblems(q);
  });
}

test('a game in progress offers review without leaving the live board', async () => {
  const { body } = await createViaApi(server.base, { variant: 'petteia-6', mode: 'local', clock: null, side: 'first' });
  const token = body.seat.token;
  const view = await api('GET', `/api/v1/games/${body.game_id}`, undefined, token);
  await api('POST', `/api/v1/games/${body.game_id}/moves`, { move: view.legal_moves[0], version: view.version }, token);
  const p = await page();
  await p.goto(`/game/${body.game_id}?lang=en#token=${token}`);
  await p.waitForSelector('#review-open');
  assert.equal(await p.locator('#review').count(), 0);
  await p.click('#review-open');
  await p.waitForSelector('.review-moves button[data-ply="1"][aria-current=step]');
  await p.click('#review-first');
  await atPly(p, 0);
  // The live board still shows the move played; only the review board went back.
  assert.equal(await p.locator('.board-holder .piece').count(), 12);
  assert.equal(await p.locator('.review-board .move-arrow').count(), 0);
  await shot(p, 'learn-review-live-en');
  // The address stays the live game's (a reload must bring back the live board, not the review).
  assert.ok(!new URL(p.url()).searchParams.has('ply'), p.url());
  // The game moves on (here from another device of the same seat): the review lists the new
  // move and stays where the reviewer is; at the last move, it follows the game.
  const play = async () => {
    const now = await api('GET', `/api/v1/games/${body.game_id}`, undefined, token);
    await api('POST', `/api/v1/games/${body.game_id}/moves`, { move: now.legal_moves[0], version: now.version }, token);
  };
  await play();
  await p.waitForSelector('.review-moves button[data-ply="2"]');
  await atPly(p, 0);
  await p.click('#review-last');
  await atPly(p, 2);
  await play();
  await atPly(p, 3);
  await p.reload();
  await p.waitForSelector('#review-open');
  assert.equal(await p.locator('#review').count(), 0, 'a reload shows the live game without its review');
  assertNoProblems(p);
});

for (const lang of ['en', 'fr']) {
  test(`the analysis board: legal moves, threats with odds, a suggestion, set-up by clicking (${lang})`, async () => {
    const p = await page();
    const position = '6/3L2/3D2/1LD1DL/6/3L2 l';
    await p.goto(`/analysis?lang=${lang}&variant=petteia-6&position=${encodeURIComponent(position)}`);
    await p.waitForSelector('.analysis-moves .move-button');
    assert.ok(await p.locator('.analysis-moves .move-button[data-move="D1-D3"]').count());
    await p.selectOption('#analysis-level', '5');
    await p.click('#analysis-suggest');
    await p.waitForSelector('#play-suggestion');
    assert.match(await p.textContent('.analysis-suggestion'), /D1-D3/);
    assert.equal(await p.getAttribute('.analysis-board .move-arrow', 'data-move'), 'D1-D3');
    await shot(p, `learn-analysis-${lang}`);
    await p.click('#play-suggestion');
    await p.waitForFunction(() => document.querySelector('.analysis-status').textContent.match(/wins|gagne/));

    // Duodecim: a lone White piece within reach of Black shows its hit odds.
    const duo = '.,.,.,.,.,.,.,.,.,.,.,./.,.,2b,.,.,1w,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,. b r:14,13 o:0,0 dice:[] bonus:[]';
    await p.goto(`/analysis?lang=${lang}&variant=duodecim-scripta&position=${encodeURIComponent(duo)}`);
    await p.waitForSelector('.analysis-threats');
    // Its odds written as the page's language writes a percentage (French: a no-break space before %).
    await p.waitForFunction((fr) => (fr ? /M6 \(\d+[\u00a0\u202f]%\)/ : /M6 \(\d+%\)/).test(document.querySelector('.analysis-threats').textContent), lang === 'fr');
    assert.ok(await p.locator('.analysis-board .threat').count());
    // A die that cannot be is said, in the page's language, not dropped unseen.
    await p.fill('#analysis-dice', '3,7,6');
    await p.click('#analysis-show');
    await p.waitForSelector('.analysis .error:not(:empty)');
    assert.match(await p.textContent('.analysis .error'), lang === 'fr' ? /pas «\u00a03,7,6\u00a0»/ : /not “3,7,6”/);
    await p.fill('#analysis-dice', '3,1,6');
    await p.click('#analysis-show');
    await p.waitForSelector('.analysis-moves .move-button');
    // The dice go into the position, out of the field: the status says which are left to play.
    assert.match(await p.textContent('.analysis-status'), lang === 'fr' ? / · dés à jouer ⚂ ⚀ ⚅$/ : / · dice to play ⚂ ⚀ ⚅$/);
    await p.click('#analysis-suggest');
    await p.waitForSelector('#play-suggestion');
    await shot(p, `learn-analysis-duodecim-${lang}`);

    // Set-up: an empty board, two clicks put a Dark piece on C3.
    await p.selectOption('#analysis-variant', 'petteia-6');
    await p.waitForSelector('.analysis-moves .move-button');
    await p.click('#analysis-empty');
    await p.waitForFunction(() => document.querySelector('#analysis-position').value.startsWith('6/6/6/6/6/6'));
    await p.click('.analysis-board [data-place="C3"]');
    await p.waitForFunction(() => document.querySelector('#analysis-position').value.startsWith('6/6/6/2L3/'));
    await p.click('.analysis-board [data-place="C3"]');
    await p.waitForFunction(() => document.querySelector('#analysis-position').value.startsWith('6/6/6/2D3/'));
    // The field changes at the click; the board is drawn again when the server's analysis comes back.
    await p.waitForSelector('.analysis-board [data-place="C3"] .piece-dark');
    assert.equal(await p.locator('.analysis-board [data-place="C3"] .piece-dark').count(), 1);
    // By keyboard: the arrows move between places, Enter sets one up and the redrawn board keeps
    // the focus there, so the next Enter changes the same place.
    const focused = () => p.evaluate(() => document.activeElement?.getAttribute('data-place'));
    await p.focus('.analysis-board [data-place="C3"]');
    await p.keyboard.press('ArrowRight');
    assert.equal(await focused(), 'D3');
    await p.keyboard.press('ArrowUp');
    assert.equal(await focused(), 'D4');
    await p.keyboard.press('Enter');
    await p.waitForSelector('.analysis-board [data-place="D4"] .piece-light');
    assert.equal(await focused(), 'D4', 'the focus stays on the place set up');
    await p.keyboard.press('Enter');
    await p.waitForSelector('.analysis-board [data-place="D4"] .piece-dark');
    assert.equal(await focused(), 'D4');
    // The dice games' empty boards set up without a refusal at each click (learner's audit): a
    // piece put on the board comes from the reserve, which the server accepts at once.
    for (const [variant, place, tray] of [['duodecim-scripta', 'M3', 'r:14,15'], ['pente-grammai-kidd', '4', 'r:4,5']]) {
      await p.selectOption('#analysis-variant', variant);
      await p.waitForFunction((v) => document.querySelector('#analysis-position').value.length && new URL(location.href).searchParams.get('variant') === v, variant);
      await p.click('#analysis-empty');
      await p.waitForFunction(() => document.querySelector('.analysis-status').textContent !== '');
      const answered = p.waitForResponse((r) => r.url().endsWith('/api/v1/analysis'));
      await p.click(`.analysis-board [data-place="${place}"]`);
      assert.equal((await answered).status(), 200, variant);
      assert.ok((await p.inputValue('#analysis-position')).includes(tray), variant);
      assert.equal(await p.textContent('.analysis .error'), '');
    }
    // Schädler's keeps no counter off the board: until each side has its five, the page says what
    // is on it in its own language, where the server's refusal came in English at every click.
    await p.selectOption('#analysis-variant', 'pente-grammai-schaedler');
    await p.waitForFunction(() => new URL(location.href).searchParams.get('variant') === 'pente-grammai-schaedler');
    await p.click('#analysis-empty');
    await p.click('.analysis-board [data-place="0"]');
    await p.waitForFunction((text) => document.querySelector('.analysis-status').textContent === text, lang === 'fr'
      ? 'Placez cinq pions de chaque camp\u00a0: Terre cuite en a 1 sur le plateau, Noir 0.'
      : 'Place five counters of each side: Terracotta has 1 on the board, Black 0.');
    assert.equal(await p.textContent('.analysis .error'), '');
    // Moving pieces, as in a game (from a learner's audit: a click on a piece set the board up
    // instead). The start: only the pieces that can move are Tab stops (there were 36 places).
    await p.selectOption('#analysis-variant', 'petteia-6');
    await p.click('#analysis-start');
    await p.waitForFunction(() => document.querySelector('#analysis-position').value.startsWith('DDDDDD/6/6/6/6/LLLLLL'));
    await p.click('#analysis-move');
    await p.waitForSelector('.analysis-board [data-place="A1"].movable');
    assert.equal(await p.locator('.analysis-board [data-place][tabindex="0"]').count(), 6, 'the six Light pieces');
    await p.click('.analysis-board [data-place="A1"]');
    await p.waitForSelector('.analysis-board [data-place="A4"].dest');
    await p.click('.analysis-board [data-place="A4"]');
    await p.waitForFunction(() => document.querySelector('#analysis-position').value.startsWith('DDDDDD/6/L5/6/6/1LLLLL d'));
    await p.waitForSelector('.analysis-board [data-place="A4"] .piece-light');
    assert.equal(await p.locator('.analysis-board [data-place="A1"] .piece').count(), 0, 'the piece moved, none was added');
    // A malformed position is refused in the page's language (the server's detail after), and
    // the board stays as it was (the text drew a board of one square).
    const places = await p.locator('.analysis-board [data-place]').count();
    await p.fill('#analysis-position', 'nonsense');
    await p.click('#analysis-show');
    await p.waitForSelector('.analysis .error:not(:empty)');
    assert.match(await p.textContent('.analysis .error'), lang === 'fr'
      ? /^Cette position ne se lit pas dans la notation du jeu \(voyez «\u00a0Lire le plateau\u00a0» dans ses règles\)\. Détail, en anglais\u00a0: /
      : /^This position does not read in the game’s notation/);
    assert.equal(await p.locator('.analysis-board [data-place]').count(), places);
    assert.equal(places, 36);
    // No answer at all (the network gone) is said in the page's language, not the browser's.
    await p.route('**/api/v1/analysis', (route) => route.abort('internetdisconnected'));
    await p.click('#analysis-show');
    await p.waitForFunction((fr) => document.querySelector('.analysis .error').textContent
      === (fr ? 'Le serveur ne répond pas\u00a0: vérifiez votre connexion, ou réessayez dans un instant.' : 'The server did not answer: check your connection, or try again in a moment.'), lang === 'fr');
    await p.unroute('**/api/v1/analysis');
    forgive(p, /ERR_INTERNET_DISCONNECTED/);
    // The browser logs the refused request itself: that one is expected.
    forgive(p, /status of 400/);
    const phone = await page('phone');
    await phone.goto(`/analysis?lang=${lang}&variant=pente-grammai-kidd`);
    await phone.waitForSelector('.analysis-board svg');
    await shot(phone, `learn-analysis-phone-${lang}`);
    assertNoProblems(p);
    assertNoProblems(phone);
  });
}

test('a dice game review shows each turn\'s roll, and a ply link scrolls to the review', async () => {
  const { body } = await createViaApi(server.base, { variant: 'duodecim-scripta', mode: 'local', clock: null, side: 'first' });
  const token = body.seat.token;
  let view = await api('GET', `/api/v1/games/${body.game_id}`, undefined, token);
  for (let i = 0; i < 4 && view.legal_moves && view.legal_moves.length; i += 1) {
    view = await api('POST', `/api/v1/games/${body.game_id}/moves`, { move: view.legal_moves[0], version: view.version }, token);
  }
  const events = await api('GET', `/api/v1/games/${body.game_id}/events?since=0`);
  const { dice: firstRoll, side: roller } = events.find((e) => e.kind === 'roll');
  const p = await page('phone');
  await p.goto(`/game/${body.game_id}?ply=1&lang=en`);
  await atPly(p, 1);
  assert.match(await p.textContent('.review-status'), new RegExp(`^Turn 1, ${roller === 'white' ? 'White' : 'Black'} · move 1 of \\d+ · Roll ${firstRoll.join('·')}`));
  // Each roll in the list names who threw it.
  const rollLine = new RegExp(`^${roller === 'white' ? 'White' : 'Black'}: Roll ${firstRoll.join('·')}$`);
  assert.match(await p.locator('.review-moves .roll').first().textContent(), rollLine);
  // In French, with a French colon and the roll in lower case after it.
  const fr = await page('phone');
  await fr.goto(`/game/${body.game_id}?ply=1&lang=fr`);
  await atPly(fr, 1);
  assert.match(await fr.locator('.review-moves .roll').first().textContent(), new RegExp(`^${roller === 'white' ? 'Blanc' : 'Noir'}\u00a0: lancer ${firstRoll.join('·')}$`));
  assertNoProblems(fr);
  // The review is in the window, not below the live board.
  await p.waitForFunction(() => document.querySelector('#review').getBoundingClientRect().top < window.innerHeight / 2);
  await shot(p, 'learn-review-duodecim-phone-en', { fullPage: false });
  assertNoProblems(p);
});

test('a long game\'s move list scrolls to the move shown', async () => {
  const { body } = await createViaApi(server.base, { variant: 'petteia-6', mode: 'local', clock: null, side: 'first' });
  const token = body.seat.token;
  let view = await api('GET', `/api/v1/games/${body.game_id}`, undefined, token);
  for (let i = 0; i < 160 && view.legal_moves && view.legal_moves.length; i += 1) {
    view = await api('POST', `/api/v1/games/${body.game_id}/moves`, { move: view.legal_moves[i % view.legal_moves.length], version: view.version }, token);
  }
  if (view.status === 'playing') await api('POST', `/api/v1/games/${body.game_id}/resign`, {}, token);
  const total = view.moves.length;
  assert.ok(total >= 60, `a long game: ${total} moves`);
  const p = await page('phone');
  const shown = (n) => p.evaluate((ply) => {
    const list = document.querySelector('.review-moves').getBoundingClientRect();
    const item = document.querySelector(`.review-moves button[data-ply="${ply}"]`).getBoundingClientRect();
    return item.top >= list.top - 1 && item.bottom <= list.bottom + 1;
  }, n);
  await p.goto(`/game/${body.game_id}?ply=${total}&lang=en`);
  await atPly(p, total);
  assert.ok(await p.evaluate(() => { const l = document.querySelector('.review-moves'); return l.scrollHeight > l.clientHeight; }), 'the list scrolls');
  assert.ok(await shown(total), 'the last move is in view');
  await p.click('#review-first');
  await atPly(p, 0);
  await p.click('#review-next');
  await atPly(p, 1);
  assert.ok(await shown(1), 'the first move is in view again');
  assertNoProblems(p);
});

test('a step of the review says what its move captured, in either language', async () => {
  const { body } = await createViaApi(server.base, { variant: 'petteia-6', mode: 'local', clock: null, side: 'first' });
  const token = body.seat.token;
  // The third move, C1-C5, shuts Dark's B5 between A5 and C5.
  for (const move of ['A1-A5', 'B6-B5', 'C1-C5', 'F6-F5']) {
    const now = await api('GET', `/api/v1/games/${body.game_id}`, undefined, token);
    await api('POST', `/api/v1/games/${body.game_id}/moves`, { move, version: now.version }, token);
  }
  for (const [lang, said] of [['en', 'Light captured B5.'], ['fr', 'Clair a pris B5.']]) {
    const p = await page();
    await p.goto(`/game/${body.game_id}?lang=${lang}#token=${token}`);
    await p.click('#review-open');
    await atPly(p, 4);
    await p.click('#review-first');
    await atPly(p, 0);
    for (const ply of [1, 2, 3]) {
      await p.click('#review-next');
      await atPly(p, ply);
    }
    assert.ok((await p.textContent('.review-status')).endsWith(` · ${said}`), await p.textContent('.review-status'));
    await p.click('#review-next');
    await atPly(p, 4);
    assert.ok(!(await p.textContent('.review-status')).includes(said), 'the next move took nothing');
    assertNoProblems(p);
  }
});
