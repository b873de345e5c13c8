// A screen that fits and that everyone can use (issue 12): at 1280×800 and 1366×768 the board and
// both clocks are in the window without scrolling; on a phone held sideways the board fills the
// height with both clocks in the window; on a 390-px phone no variant scrolls sideways and Start
// is within the first two screens of the home page; axe-core finds no violation on the
// home page, the rules and a game of each variant; no board's words run into its trays, in either
// language, from either side.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { browserSuite, shot, callApi, createViaApi, pageWidth, playAnyMove, shown, LAPTOP, PHONE } from './support.js';

const { server, list, page, onlineGame, assertNoProblems } = await browserSuite();
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * A game of `variant` whose seat the page holds, opened on its screen: a local game, or with
 * `side: 'second'` an online one seen from the second side's seat. Returns the game as created.
 */
async function openGame(p, variant, { side = 'first', lang } = {}) {
  const mode = side === 'first' ? 'local' : 'online';
  const created = await createViaApi(server.base, { variant, mode, clock: { initial_ms: 300000, increment_ms: 0 }, side });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const query = lang ? `?lang=${lang}` : '';
  await p.goto(`/rules${query}`);
  await p.evaluate(([id, token]) => localStorage.setItem(`ludus.token.${id}`, token), [created.body.game_id, created.body.seat.token]);
  await p.goto(`/game/${created.body.game_id}${query}`);
  await p.waitForSelector('section.game[data-version] .board-holder svg');
  await p.waitForSelector('.connection[data-state="connected"]');
  return created.body;
}

/** Where the board and its two clocks are drawn, how far the page scrolled, and how wide it is. */
const boardAndClocks = (p) => p.evaluate(() => {
  const box = (selector) => document.querySelector(selector).getBoundingClientRect().toJSON();
  return {
    board: box('.board-holder svg'), top: box('.clock-top'), bottom: box('.clock-bottom'),
    scrollY: window.scrollY, wide: document.documentElement.scrollWidth,
  };
});

/** The board and both clocks inside a `width`×`height` window, the page neither scrolled nor wider. */
function assertInWindow(variant, boxes, width, height) {
  assert.equal(boxes.scrollY, 0);
  assert.ok(boxes.wide <= width, `${variant} is ${boxes.wide} px wide`);
  for (const [name, box] of Object.entries({ board: boxes.board, 'top clock': boxes.top, 'bottom clock': boxes.bottom })) {
    assert.ok(box.top >= 0 && box.bottom <= height && box.left >= 0 && box.right <= width, `${variant}: the ${name} is in the window (${JSON.stringify(box)})`);
  }
}

for (const [width, height] of [[1280, 800], [1366, 768]]) {
  test(`at ${width}×${height} the board and both clocks of every variant are in the window`, async (t) => {
    const p = await page({ viewport: { width, height } });
    for (const variant of list) {
      await openGame(p, variant.id);
      const boxes = await boardAndClocks(p);
      t.diagnostic(`${variant.id}: top clock at ${Math.round(boxes.top.top)} px, bottom clock ends at ${Math.round(boxes.bottom.bottom)} of ${height} px`);
      assertInWindow(variant.id, boxes, width, height);
      await shot(p, `layout-${width}x${height}-${variant.id}`, { fullPage: false });
    }
    assertNoProblems(p);
  });
}

for (const [width, height] of [[844, 390], [667, 375]]) {
  test(`a phone held sideways (${width}×${height}): the board of every variant fills the height, with both clocks in the window`, async (t) => {
    const p = await page({ ...PHONE, viewport: { width, height } });
    for (const variant of list) {
      await openGame(p, variant.id);
      const boxes = await boardAndClocks(p);
      const { board } = boxes;
      t.diagnostic(`${variant.id}: board ${Math.round(board.width)}×${Math.round(board.height)} px`);
      assertInWindow(variant.id, boxes, width, height);
      // The room is used: a square or tall board takes most of the height, a wide one (Duodecim's)
      // half the width at least. (Before, a 844×390 window drew every board 174 px tall.)
      assert.ok(board.height >= 0.6 * height || board.width >= 0.5 * width, `${variant.id}: the board is only ${Math.round(board.width)}×${Math.round(board.height)}`);
      await shot(p, `layout-sideways-${width}x${height}-${variant.id}`, { fullPage: false });
    }
    assertNoProblems(p);
  });
}

/**
 * Asserts that the buttons `ids` (an offer's answers) are whole in the window of `p` and that
 * the page has not scrolled to show them, after a screenshot `name` of the window.
 * @param {import('playwright-core').Page} p
 * @param {string[]} ids
 * @param {string} name
 */
async function assertAnswersInWindow(p, ids, name) {
  const boxes = await p.evaluate((selectors) => selectors.map((id) => {
    const box = /** @type {Element} */ (document.querySelector(id)).getBoundingClientRect();
    return { id, top: Math.round(box.top), bottom: Math.round(box.bottom), scrolled: window.scrollY, height: window.innerHeight };
  }), ids);
  await shot(p, name, { fullPage: false });
  for (const { id, top, bottom, scrolled, height } of boxes) {
    assert.equal(scrolled, 0, 'the page has not scrolled');
    assert.ok(top >= 0 && bottom <= height, `${id} spans ${top}–${bottom} px of a window of ${height}`);
  }
}

test('a phone held sideways (844×390) answers a takeback request without scrolling the page: Accept and Decline are in the window beside the board', async () => {
  // Duodecim's wide board leaves the narrowest panel (a phone audit: Accept 90 px below the window).
  const { host, guest } = await onlineGame({ host: { ...PHONE, viewport: { width: 844, height: 390 } }, guest: LAPTOP, variant: 'duodecim-scripta', clock: 'none' });
  // Play until the laptop has moved and the phone is to move; then the laptop asks to take back.
  for (let ply = 0; ply < 40; ply += 1) {
    const [mine, theirs] = [await shown(guest), await shown(host)];
    if (mine.moves > 0 && theirs.seat === theirs.toMove && (await guest.locator('#undo').count())) break;
    await playAnyMove(mine.seat === mine.toMove ? guest : host);
  }
  await guest.click('#undo');
  await host.waitForSelector('#undo-accept');
  await assertAnswersInWindow(host, ['#undo-accept', '#undo-decline'], 'layout-sideways-takeback-asked');
  await host.click('#undo-decline');
  assertNoProblems(host, guest);
});

test('a phone held sideways (844×390), in French: a rematch offered after a Duodecim game brings its Accept and Decline into the window', async () => {
  // The end panel's result and the status come first in Duodecim's narrow panel: Décliner was
  // below the window (a keyboard audit in French). The panel scrolls itself to the answers.
  const { host, guest } = await onlineGame({ host: { ...PHONE, viewport: { width: 844, height: 390 }, locale: 'fr-FR' }, guest: LAPTOP, variant: 'duodecim-scripta', clock: 'none' });
  await guest.click('#resign');
  await guest.click('#resign');
  await guest.waitForSelector('#rematch');
  await guest.click('#rematch');
  await host.waitForSelector('#rematch-decline');
  await assertAnswersInWindow(host, ['#rematch-accept', '#rematch-decline'], 'layout-sideways-rematch-offered-fr');
  assert.equal(await host.textContent('#rematch-decline'), 'Refuser');
  await host.click('#rematch-decline');
  assertNoProblems(host, guest);
});

test('on a 390-px phone no variant scrolls sideways, and Start is within two screens of the home page', async (t) => {
  const p = await page(PHONE);
  for (const variant of list) {
    await openGame(p, variant.id);
    const width = await pageWidth(p);
    t.diagnostic(`${variant.id}: ${width} px wide`);
    assert.ok(width <= 390, `${variant.id} is ${width} px wide`);
    if (variant.id === 'duodecim-scripta') {
      // The trays' words, on the board drawn smallest, are drawn at a size one can read.
      const px = await p.$eval('.board-holder .tray-label', (label) => parseFloat(getComputedStyle(label).fontSize) * (label.getScreenCTM()?.a ?? 1));
      t.diagnostic(`Duodecim's tray words: ${px.toFixed(1)} px`);
      assert.ok(px >= 9.5, `Duodecim's tray words are ${px} px`);
    }
    await shot(p, `layout-phone-${variant.id}`);
  }
  const home = await page(PHONE);
  await home.goto('/');
  await home.waitForSelector('#create');
  const start = await home.locator('#create').boundingBox();
  t.diagnostic(`Start ends ${Math.round(start.y + start.height)} px down the home page (two screens: ${2 * 844} px)`);
  assert.ok(start.y + start.height <= 2 * 844, `Start ends ${start.y + start.height} px down`);
  assert.ok(await pageWidth(home) <= 390);
  await shot(home, 'layout-phone-home');
  // The header keeps to two rows in either language, every link in the window: the game's own
  // lines (an offer's Accept and Decline) stay above the fold.
  // Signed in too, when the header names the player and has the challenges page.
  for (const signedIn of [false, true]) {
    if (signedIn) {
      const made = await home.context().request.post(`${server.base}/api/v1/accounts`, { data: { username: 'penthesilea', password: 'a good password' } });
      assert.equal(made.status(), 201);
      await home.evaluate(() => localStorage.setItem('ludus.signed-in', 'penthesilea'));
    }
    for (const lang of ['en', 'fr']) {
      await home.goto(`/?lang=${lang}`);
      await home.waitForSelector('#create');
      if (signedIn) await home.waitForSelector('header.site a[href="/challenges"]:not([hidden])');
      const header = await home.locator('header.site').boundingBox();
      t.diagnostic(`the header is ${Math.round(header.height)} px high (${lang}${signedIn ? ', signed in' : ''})`);
      assert.ok(header.height <= 110, `the header is ${header.height} px high (${lang})`);
      for (const link of await home.locator('header.site a:visible, header.site select').all()) {
        const box = await link.boundingBox();
        assert.ok(box.x >= 0 && box.x + box.width <= 390 && box.y + box.height <= header.height, `${await link.textContent()} is in the header`);
      }
    }
  }
  await shot(home, 'layout-phone-home-fr');
  assertNoProblems(p, home);
});

/** The violations axe-core finds on the page as it is now. */
async function axeViolations(p) {
  await p.addScriptTag({ path: AXE });
  const violations = await p.evaluate(async () => (await window.axe.run(document)).violations);
  return violations.map((v) => `${v.id}: ${v.help} (${v.nodes.length}× e.g. ${v.nodes[0].target.join(' ')} ${v.nodes[0].html} ${v.nodes[0].failureSummary})`);
}

// From a dice players' audit: a Duodecim turn's moves broke at their hyphens on every window
// ("6:B10-" on one line, "O" on the next).
test('on a phone a dice game\'s move list breaks its lines between moves, never inside one', async () => {
  const p = await page(PHONE);
  const { game_id: id, seat: { token } } = await openGame(p, 'duodecim-scripta');
  for (let played = 0; played < 40; played += 1) {
    const { body: game } = await callApi(server.base, 'GET', `/api/v1/games/${id}`, { token });
    if (game.status !== 'playing' || !game.legal_moves.length) break;
    const moved = await callApi(server.base, 'POST', `/api/v1/games/${id}/moves`, { token, body: { move: game.legal_moves[0], version: game.version } });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
  }
  await p.waitForFunction(() => document.querySelectorAll('.move-list .turn').length >= 8);
  const words = await p.$$eval('.move-list .turn .word', (all) => all.map((w) => ({ text: w.textContent, lines: w.getClientRects().length })));
  assert.ok(words.length > 20, `${words.length} words`);
  assert.deepEqual(words.filter((w) => w.lines !== 1), [], 'each word on one line');
  const wrapped = await p.$$eval('.move-list .turn', (all) => all.filter((turn) => turn.getClientRects()[0].height > 30).length);
  assert.ok(wrapped > 0, 'some turn is long enough to wrap on a phone: the check above means something');
  assert.match(await p.textContent('.dice .pips'), /^Pip count: White \d+, Black \d+$/, 'the race\'s state beside the dice');
  await p.locator('.move-list').scrollIntoViewIfNeeded();
  await shot(p, 'layout-duodecim-moves-phone', { fullPage: false });
  assertNoProblems(p);
});

test('axe-core finds no violation on the home page, the rules and a game of each variant', async () => {
  const p = await page();
  await p.goto('/');
  await p.waitForSelector('#create');
  assert.deepEqual(await axeViolations(p), [], 'home');
  await p.goto('/verify');
  await p.waitForSelector('#verify-record');
  assert.deepEqual(await axeViolations(p), [], 'the verify page');
  for (const variant of list) {
    await p.goto(`/rules/${variant.id}`);
    await p.waitForSelector('.rules-board svg');
    assert.deepEqual(await axeViolations(p), [], `rules of ${variant.id}`);
    await openGame(p, variant.id);
    assert.deepEqual(await axeViolations(p), [], `game of ${variant.id}`);
  }
  // A list of moves longer than its box scrolls, and a keyboard must reach it to scroll it.
  const created = await openGame(p, 'petteia-6');
  const { game_id: id, seat: { token } } = created;
  for (let played = 0; played < 40; played += 1) {
    const { body: game } = await callApi(server.base, 'GET', `/api/v1/games/${id}`, { token });
    if (game.status !== 'playing') break;
    const moved = await callApi(server.base, 'POST', `/api/v1/games/${id}/moves`, { token, body: { move: game.legal_moves[0], version: game.version } });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
  }
  await p.waitForFunction(() => {
    const list = document.querySelector('.move-list');
    return list.scrollHeight > list.clientHeight;
  });
  assert.deepEqual(await axeViolations(p), [], 'a game whose moves scroll');
  assertNoProblems(p);
});

test('on a phone every board\'s words are drawn at least 9.5 px high', async () => {
  const p = await page(PHONE);
  // Each variant's start, and a Duodecim board with a hit's odds drawn on it (from a learner's
  // audit: 6 px), whose percentage is written as the language writes it.
  const boards = list.map((variant) => async (lang) => openGame(p, variant.id, { lang }));
  boards.push(async (lang) => {
    const position = '.,.,.,.,.,.,.,.,.,.,.,14b/.,1b,.,.,.,.,1w,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,. b r:0,0 o:14,0 dice:[] bonus:[]';
    await p.goto(`/analysis?variant=duodecim-scripta&position=${encodeURIComponent(position)}&lang=${lang}`);
    await p.waitForSelector('.board-holder svg .odds');
    assert.match(await p.textContent('.board-holder svg .odds'), lang === 'fr' ? /^\d+[\u00a0\u202f]%$/ : /^\d+%$/);
    await p.locator('.board-holder svg').scrollIntoViewIfNeeded();
    await shot(p, `layout-duodecim-odds-phone-${lang}`, { fullPage: false });
  });
  for (const lang of ['en', 'fr']) {
    for (const [n, open] of boards.entries()) {
      await open(lang);
      const small = await p.evaluate(() => {
        const board = document.querySelector('.board-holder svg');
        const scale = board.getBoundingClientRect().width / board.viewBox.baseVal.width;
        return [...board.querySelectorAll('text')]
          .map((text) => ({ text: text.textContent, px: parseFloat(getComputedStyle(text).fontSize) * scale }))
          .filter(({ px }) => px < 9.5)
          .map(({ text, px }) => `"${text}" at ${px.toFixed(1)} px`);
      });
      assert.deepEqual(small, [], `${lang}, board ${n}: ${list[n]?.id ?? 'duodecim-scripta with odds'}`);
    }
  }
  assertNoProblems(p);
});

test('no board\'s words run into a tray they are not inside, in English and French, from either side, on a laptop and a phone', async (t) => {
  for (const size of [LAPTOP, PHONE]) {
    const p = await page(size);
    for (const lang of ['en', 'fr']) {
      for (const variant of list) {
        for (const side of ['first', 'second']) {
          await openGame(p, variant.id, { side, lang });
          const crossings = await p.evaluate(() => {
            const board = document.querySelector('.board-holder svg');
            const box = (el) => el.getBoundingClientRect();
            const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
            const inside = (a, b) => a.left >= b.left && a.right <= b.right && a.top >= b.top && a.bottom <= b.bottom;
            const trays = [...board.querySelectorAll('rect.tray-box, rect.holy')].map(box);
            return [...board.querySelectorAll('text')].flatMap((text) => trays
              .filter((tray) => meet(box(text), tray) && !inside(box(text), tray))
              .map((tray) => `"${text.textContent}" runs into the tray at ${Math.round(tray.left)},${Math.round(tray.top)}`));
          });
          const where = `${size.viewport.width} px, ${lang}, ${variant.id} from the ${side} side`;
          t.diagnostic(`${where}: ${crossings.length} crossings`);
          assert.deepEqual(crossings, [], where);
          if (lang === 'fr' && variant.id === 'pente-grammai-kidd') await shot(p, `layout-fr-kidd-from-${side}-side${size === PHONE ? '-phone' : ''}`, { fullPage: false });
          if (variant.dice > 0 && side === 'first') {
            // The dice are named in the page's language too (the local game plays at once; the
            // online one waits for its guest).
            await p.waitForSelector('.dice-row .die');
            const dice = await p.$$eval('.dice-row .die', (all) => all.map((d) => d.getAttribute('aria-label')));
            assert.ok(dice.length > 0, `${variant.id} shows its roll`);
            for (const label of dice) assert.match(label, lang === 'fr' ? /^dé [1-6]$/ : /^die [1-6]$/);
          }
        }
      }
    }
    assertNoProblems(p);
  }
});
