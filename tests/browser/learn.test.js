// The learning pages in a real browser, in English and French: the header's language switch,
// rules pages with their worked-example diagrams, the evidence page and print media (review and
// the analysis board are in learn-review.test.js). Screens are saved at 1280x800 and 390x844.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, shot, createViaApi, forgive } from './support.js';
import en from '../../static/js/i18n/en.js';
import fr from '../../static/js/i18n/fr.js';

const { server, page: openPage, assertNoProblems } = await browserSuite();
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };
const page = (size = 'desktop', options = {}) => openPage({ viewport: SIZES[size], ...options });

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
  assert.match(await p.textContent('h1'), /^Règles\u00a0: Petteia/);
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
      // Printed, the rules fill one sheet and the board the next, on the paper chosen.
      for (const [paper, box] of [['a4', /MediaBox \[0 0 594\.\d+ 841\.\d+\]/], ['letter', /MediaBox \[0 0 612 792\]/]]) {
        await p.check(`#paper-${paper}`);
        const pdf = (await p.pdf({ preferCSSPageSize: true })).toString('latin1');
        assert.match(pdf, box, `${id} on ${paper}`);
        assert.equal((pdf.match(/\/Type\s*\/Page[^s]/g) || []).length, 2, `${id} on ${paper}: two pages`);
      }
      await p.emulateMedia({ media: 'print' });
      assert.equal(await p.isVisible('.print-controls'), false);
      await shot(p, `learn-print-${id}-${lang}`);
      await p.emulateMedia({ media: 'screen' });
    }
    assertNoProblems(p);
    assertNoProblems(phone);
  });
}

test('every screen in French: no sentence of the English catalogue is left', async () => {
  const p = await page('desktop', { locale: 'fr-FR' });
  const local = await createViaApi(server.base, { variant: 'duodecim-scripta', mode: 'local', clock: { initial_ms: 300000, increment_ms: 0 }, side: 'first' });
  const online = await createViaApi(server.base, { variant: 'pente-grammai-kidd', mode: 'online', clock: null, side: 'first' });
  const screens = [
    ['/', '#create'],
    ['/rules/pente-grammai-kidd', '.worked-example svg'],
    ['/rules/evidence', '.evidence-game'],
    ['/rules/duodecim-scripta/print', '.print-board svg'],
    ['/analysis?variant=pente-grammai-perimeter', '.analysis-moves li'],
    [`/game/${local.body.game_id}#token=${local.body.seat.token}`, '#review-open'],
    [`/game/${online.body.game_id}#token=${online.body.seat.token}`, 'section.game[data-version]'],
    ['/nowhere', '.not-found'],
    ['/signup', '.account-form .hint'],
    ['/signin', '.account-page a[href="/signup"]'],
    ['/leaderboard', '.leaderboard p, .leaderboard table'],
  ];
  for (const [path, ready] of screens) {
    await p.goto(path);
    await p.waitForSelector(ready);
    if (path.startsWith('/game/') && (await p.locator('#review-open').count())) {
      await p.click('#review-open');
      await p.waitForSelector('.review-moves button[aria-current=step]');
    }
    assert.equal(await p.getAttribute('html', 'lang'), 'fr');
    assert.deepEqual(await englishLeft(p), [], path);
    await shot(p, `learn-fr-${path.split(/[/?#]/)[1] || 'home'}`);
  }
  // The unknown address itself answers 404, which the browser logs: that one is expected.
  forgive(p, /status of 404/);
  // Signed up through the French form: the greeting, the account page with a token made, the profile.
  await p.goto('/signup');
  await p.fill('#username', 'sappho');
  await p.fill('#password', 'a good password');
  await p.click('.account-form button[type=submit]');
  await p.waitForSelector('h1:has-text("Session de sappho")');
  assert.deepEqual(await englishLeft(p), [], 'signed in');
  await p.goto('/account');
  await p.fill('#token-description', 'mon bot');
  await p.click('form:has(#token-description) button[type=submit]');
  await p.waitForSelector('.token-list li');
  assert.match(await p.textContent('.notice'), /^Votre nouveau jeton/);
  assert.deepEqual(await englishLeft(p), [], '/account');
  await shot(p, 'learn-fr-account');
  // A computer game the account lost (created with its cookie, so the seat is its) fills the
  // profile's computer table and recent games.
  const created = await p.request.post('/api/v1/games', { data: { variant: 'petteia-6', mode: 'computer', level: 2 } });
  const { game_id: gameId, seat } = await created.json();
  await p.request.post(`/api/v1/games/${gameId}/resign`, { headers: { Authorization: `Bearer ${seat.token}` } });
  await p.goto('/@/sappho');
  await p.waitForSelector('.recent-games');
  assert.equal(await p.textContent('.profile h2'), 'Résultats');
  assert.match(await p.textContent('.recent-games'), /défaite contre l’ordinateur \(niveau 2\) par abandon/);
  assert.deepEqual(await englishLeft(p), [], '/@/sappho');
  await shot(p, 'learn-fr-profile');
  const phone = await page('phone', { locale: 'fr-FR' });
  await phone.goto(`/game/${local.body.game_id}`);
  await phone.waitForSelector('#review-open');
  await shot(phone, 'learn-fr-game-phone');
  assertNoProblems(p);
  assertNoProblems(phone);
});
