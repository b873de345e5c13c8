// The learning screens in a real browser, in English and French: the header's language switch,
// rules pages with their worked-example diagrams, the evidence page, print media, the review of
// a finished game (stepped by buttons, arrow keys and the move list; the ply link), and the
// analysis board with the computer's suggestion. Screens are saved at 1280x800 and 390x844.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openPage, shot, createViaApi } from './support.js';
import en from '../../static/js/i18n/en.js';
import fr from '../../static/js/i18n/fr.js';

const server = await startServer();
let browser;
const pages = [];
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

async function page(size = 'desktop', options = {}) {
  const p = await openPage(browser, server.base, { viewport: SIZES[size], ...options });
  pages.push(p);
  return p;
}

function assertNoProblems(p) {
  assert.deepEqual(p.problems, [], `console errors on ${p.url()}`);
}

before(async () => { browser = await launchBrowser(); });
after(async () => {
  await browser.close();
  await server.stop();
});

async function api(method, path, body, token) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${server.base}${path}`, { method, headers, body: body && JSON.stringify(body) });
  return response.json();
}

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

/** English catalogue sentences (not names, which French keeps) found in the page's visible text. */
async function englishLeft(p) {
  const text = await p.evaluate(() => document.body.innerText);
  const phrases = Object.entries(en).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(fr[key]))
    .flatMap(([, value]) => value).filter((s) => typeof s === 'string' && s.split(' ').length >= 3)
    .map((s) => s.split('{')[0].trim()).filter((s) => s.length > 12);
  return phrases.filter((s) => text.includes(s));
}

test('the header switch chooses French, is remembered, and sets <html lang>', async () => {
  const p = await page();
  await p.goto('/rules/petteia-6?lang=en');
  await p.waitForSelector('.worked-example svg');
  assert.equal(await p.getAttribute('html', 'lang'), 'en');
  await p.selectOption('#language', 'fr');
  await p.waitForFunction(() => document.querySelector('h1').textContent.startsWith('Règles'));
  assert.equal(await p.getAttribute('html', 'lang'), 'fr');
  await p.goto('/rules/petteia-6');
  await p.waitForSelector('.worked-example svg');
  assert.match(await p.textContent('h1'), /^Règles : Petteia/);
  assert.equal(await p.textContent('header nav a[href="/"]'), 'Nouvelle partie');
  // A French browser gets French without asking.
  const q = await page('desktop', { locale: 'fr-FR' });
  await q.goto('/rules/evidence');
  await q.waitForSelector('.evidence-game');
  assert.equal(await q.getAttribute('html', 'lang'), 'fr');
  assertNoProblems(p);
  assertNoProblems(q);
});

for (const lang of ['en', 'fr']) {
  test(`rules pages with worked examples, the evidence page and print media (${lang})`, async () => {
    const p = await page();
    const phone = await page('phone');
    const ids = ['petteia-6', 'pente-grammai-schaedler', 'pente-grammai-kidd', 'pente-grammai-perimeter', 'duodecim-scripta'];
    for (const id of ids) {
      await p.goto(`/rules/${id}?lang=${lang}`);
      await p.waitForSelector('.worked-example svg');
      const examples = await p.locator('.worked-example').count();
      assert.ok(examples >= 2, `${id}: ${examples} examples`);
      // Every example draws its move as an arrow on both boards.
      assert.equal(await p.locator('.worked-example .move-arrow').count() >= examples, true, id);
      assert.ok((await p.locator('.rule-list li').count()) >= 4, id);
      assert.ok((await p.locator('.habits li').count()) >= 3, id);
      await shot(p, `learn-rules-${id}-${lang}`);
      if (lang === 'fr') assert.deepEqual(await englishLeft(p), [], id);
    }
    await p.goto(`/rules/petteia-6?lang=${lang}`);
    await p.waitForSelector('#example-petteia\\.trap .taken-mark');
    assert.equal(await p.getAttribute('#example-petteia\\.trap .taken-mark', 'data-taken'), 'C3');
    await phone.goto(`/rules/duodecim-scripta?lang=${lang}`);
    await phone.waitForSelector('.worked-example svg');
    await shot(phone, `learn-rules-duodecim-phone-${lang}`);

    await p.click('#evidence-link');
    await p.waitForSelector('.evidence-game');
    assert.equal(await p.locator('.evidence-game').count(), 3);
    assert.equal(await p.locator('.evidence-game .kind-label').count(), 5);
    assert.ok((await p.locator('.evidence-game .sources li').count()) >= 6);
    const text = await p.textContent('article');
    for (const name of ['Schädler', 'Kidd', 'Ludii', 'CIL XIV 4125']) assert.ok(text.includes(name), name);
    await shot(p, `learn-evidence-${lang}`);
    if (lang === 'fr') assert.deepEqual(await englishLeft(p), []);
    await phone.goto(`/rules/evidence?lang=${lang}`);
    await phone.waitForSelector('.evidence-game');
    await shot(phone, `learn-evidence-phone-${lang}`);

    for (const id of ['petteia-8', 'pente-grammai-kidd', 'duodecim-scripta']) {
      await p.goto(`/rules/${id}/print?lang=${lang}`);
      await p.waitForSelector('.print-board svg');
      // A blank board: no piece on it.
      assert.equal(await p.locator('.print-board .piece').count(), 0, id);
      if (id === 'duodecim-scripta') {
        await p.check('#face-levate');
        assert.ok((await p.textContent('.print-board svg')).includes('L'), 'the LEVATE face is drawn');
        assert.match(await p.getAttribute('.print-board svg', 'aria-label'), /LEVATE/);
      }
      await p.check('#paper-letter');
      assert.match(await p.textContent('#paper-size'), /letter/);
      await p.emulateMedia({ media: 'print' });
      assert.equal(await p.isVisible('.print-controls'), false);
      await shot(p, `learn-print-${id}-${lang}`);
      await p.emulateMedia({ media: 'screen' });
    }
    assertNoProblems(p);
    assertNoProblems(phone);
  });
}

for (const lang of ['en', 'fr']) {
  test(`a finished game reviewed move by move; the ply link opens there (${lang})`, async () => {
    const { id, moves } = await finishedGame(6);
    const p = await page();
    await p.goto(`/game/${id}?lang=${lang}`);
    await p.waitForSelector('.review-moves button[data-ply="6"][aria-current=step]');
    const status = () => p.textContent('.review-status');
    assert.match(await status(), lang === 'fr' ? /Coup 6 sur 6/ : /Move 6 of 6/);
    await p.click('#review-prev');
    await p.click('#review-prev');
    assert.match(await status(), /4/);
    // The arrow on the review board is the fourth move.
    assert.equal(await p.getAttribute('.review-board .move-arrow', 'data-move'), moves[3]);
    await p.focus('#review');
    await p.keyboard.press('ArrowLeft');
    assert.equal(await p.getAttribute('.review-board .move-arrow', 'data-move'), moves[2]);
    await p.keyboard.press('ArrowRight');
    await p.keyboard.press('ArrowRight');
    assert.equal(await p.getAttribute('.review-board .move-arrow', 'data-move'), moves[4]);
    await p.click('.review-moves button[data-ply="1"]');
    assert.equal(await p.getAttribute('.review-board .move-arrow', 'data-move'), moves[0]);
    await p.click('#review-first');
    assert.equal(await p.locator('.review-board .move-arrow').count(), 0);
    // Light's back rank is full at the start.
    assert.equal(await p.locator('.review-board [data-place="A1"] .piece-light').count(), 1);
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
  let view = await api('GET', `/api/v1/games/${body.game_id}`, undefined, token);
  view = await api('POST', `/api/v1/games/${body.game_id}/moves`, { move: view.legal_moves[0], version: view.version }, token);
  const p = await page();
  await p.goto(`/game/${body.game_id}?lang=en#token=${token}`);
  await p.waitForSelector('#review-open');
  assert.equal(await p.locator('#review').count(), 0);
  await p.click('#review-open');
  await p.waitForSelector('.review-moves button[data-ply="1"][aria-current=step]');
  await p.click('#review-first');
  // The live board still shows the move played; only the review board went back.
  assert.equal(await p.locator('.board-holder .piece').count(), 12);
  assert.equal(await p.locator('.review-board .move-arrow').count(), 0);
  await shot(p, 'learn-review-live-en');
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
    await p.waitForFunction(() => /M6 \(\d+%\)/.test(document.querySelector('.analysis-threats').textContent));
    assert.ok(await p.locator('.analysis-board .threat').count());
    await p.fill('#analysis-dice', '3,1,6');
    await p.click('#analysis-show');
    await p.waitForSelector('.analysis-moves .move-button');
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
    assert.equal(await p.locator('.analysis-board [data-place="C3"] .piece-dark').count(), 1);
    // A malformed position is refused in the page's language.
    await p.fill('#analysis-position', 'nonsense');
    await p.click('#analysis-show');
    await p.waitForSelector('.analysis .error:not(:empty)');
    assert.match(await p.textContent('.analysis .error'), lang === 'fr' ? /Requête incomprise/ : /not understood/);
    // The browser logs the refused request itself: that one is expected.
    p.problems = p.problems.filter((problem) => !/status of 400/.test(problem));
    const phone = await page('phone');
    await phone.goto(`/analysis?lang=${lang}&variant=pente-grammai-kidd`);
    await phone.waitForSelector('.analysis-board svg');
    await shot(phone, `learn-analysis-phone-${lang}`);
    assertNoProblems(p);
    assertNoProblems(phone);
  });
}
