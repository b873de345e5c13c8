// Optional accounts in the browser (issue 13): signing up through the page, two signed-in players'
// rated game in two browser contexts (names and ratings on the game screen), the profile showing
// the result with its rating chart, the leaderboard, the account page's tokens, attaching the
// games a browser played before signing in, and a challenge sent, declined, sent again and accepted
// between two signed-in players, both landing in the game.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, shot, waitStatus, waitVersion, playAnyMove, startFromHome, callApi, createViaApi, pageWidth } from './support.js';

// Every sign-up, sign-in and password change of the file comes from one address: more than the
// default ten password checks a minute.
const { server, page, assertNoProblems } = await browserSuite({ serverArgs: ['--sign-in-per-minute', '100'] });

const SIZES = [['desktop', 1280, 800], ['laptop', 1366, 768], ['phone', 390, 844]];

/** Signs up through the page; the header then names the player. */
async function signUpIn(p, username) {
  await p.goto('/signup');
  await p.fill('#username', username);
  await p.fill('#password', 'a good password');
  await p.click('button[type=submit]');
  await p.waitForSelector(`h1:has-text("Signed in as ${username}")`);
  await p.waitForFunction((name) => document.querySelector('[data-account-link]')?.textContent === name, username);
}

/** Signs in through the page (the name as typed: spaces around it are trimmed). */
async function signInAs(p, typed) {
  await p.goto('/signin');
  await p.fill('#username', typed);
  await p.fill('#password', 'a good password');
  await p.click('button[type=submit]');
  await p.waitForFunction((name) => document.querySelector('[data-account-link]')?.textContent === name, typed.trim());
}

test('a signed-in player finds its game on another device and plays it there; signing out forgets the seat', async () => {
  const host = await page();
  const guest = await page();
  await signUpIn(host, 'leto');
  await startFromHome(host, { variant: 'petteia-6', mode: 'online' });
  const gameId = decodeURIComponent(new URL(host.url()).pathname.split('/').pop());
  await guest.goto(await host.inputValue('#invite-link'));
  await waitStatus(host, 'playing');
  // Another device: signed in, with no seat token of the game.
  const laptop = await page();
  // As a phone's keyboard types it, with a space after the word.
  await signInAs(laptop, 'leto ');
  await laptop.goto('/');
  const listed = laptop.locator(`#my-games li[data-game-id="${gameId}"] a`);
  await listed.waitFor();
  await listed.click();
  await waitStatus(laptop, 'playing');
  assert.equal(await laptop.evaluate((id) => localStorage.getItem(`ludus.token.${id}`), gameId), null, 'no token on this device');
  const version = Number(await host.evaluate(() => document.querySelector('section.game').dataset.version));
  // Whichever side leto has, the page of the side to move plays: leto's from this device.
  await laptop.waitForFunction(() => document.querySelector('.board-holder .place.movable') || document.querySelector('.status-line')?.textContent);
  const mover = await laptop.locator('.board-holder .place.movable').count() ? laptop : guest;
  await playAnyMove(mover);
  await waitVersion(host, version + 1);
  await waitVersion(laptop, version + 1);
  if (mover === guest) {
    await playAnyMove(laptop);
    await waitVersion(host, version + 2);
  }
  await shot(laptop, 'accounts-another-device');
  // On the first device, signing out forgets the seat of the game in play.
  await host.goto('/account');
  await host.click('button:has-text("Sign out")');
  await host.waitForFunction(() => document.querySelector('[data-account-link]')?.textContent === 'Sign in');
  assert.equal(await host.evaluate((id) => localStorage.getItem(`ludus.token.${id}`), gameId), null, 'the seat is forgotten');
  await host.goto('/');
  await host.waitForSelector('#create');
  assert.equal(await host.locator(`#my-games li[data-game-id="${gameId}"]`).count(), 0);
  assertNoProblems(host);
  assertNoProblems(laptop);
});

test('a profile lists a player\'s older games on demand, a page at a time', async () => {
  const signedUp = await fetch(`${server.base}/api/v1/accounts`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'nestor', password: 'a good password' }),
  });
  const cookie = signedUp.headers.get('set-cookie').split(';')[0];
  const made = await fetch(`${server.base}/api/v1/account/tokens`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', cookie, origin: server.base }, body: JSON.stringify({ description: 'test' }),
  });
  const { token } = await made.json();
  for (let i = 0; i < 21; i += 1) {
    const created = await callApi(server.base, 'POST', '/api/v1/games', { token, body: { variant: 'petteia-6', mode: 'computer' } });
    const resigned = await callApi(server.base, 'POST', `/api/v1/games/${created.body.game_id}/resign`, { token: created.body.seat.token });
    assert.equal(resigned.status, 200);
  }
  const p = await page();
  await p.goto('/@/nestor');
  await p.waitForSelector('.recent-games');
  assert.equal(await p.locator('.recent-games li').count(), 20);
  await p.click('button.more-games');
  await p.waitForFunction(() => document.querySelectorAll('.recent-games li').length === 21);
  assert.equal(await p.locator('button.more-games').isHidden(), true, 'nothing more after the last page');
  assertNoProblems(p);
});

test('sign-up through the page signs in; a taken name is refused with the reason', async () => {
  const p = await page();
  await signUpIn(p, 'ada');
  const other = await page();
  await other.goto('/signup');
  // Each field is described by its rule, read with it by a screen reader.
  const descriptions = await other.evaluate(() => ['username', 'password'].map((id) => {
    const ids = document.getElementById(id)?.getAttribute('aria-describedby') || '';
    return ids.split(' ').map((hint) => document.getElementById(hint)?.textContent).join(' ');
  }));
  assert.deepEqual(descriptions, ['2 to 20 letters, digits, _ or -.', await other.textContent('#password-hint')]);
  assert.match(descriptions[1], /8/);
  await other.fill('#username', 'ADA');
  await other.fill('#password', 'another password');
  await other.click('button[type=submit]');
  await other.waitForSelector('.error:has-text("taken")');
  other.problems.length = 0; // the 409 is the point of this step
  for (const [name, width, height] of SIZES) {
    await other.setViewportSize({ width, height });
    await shot(other, `accounts-signup-taken-${name}`);
  }
  assertNoProblems(p);
});

test('a French speaker’s name or password outside the rules is told so in French, signing up and changing the password', async () => {
  const p = await page();
  await p.goto('/signup?lang=fr');
  // 21 characters pass the field (it allows a space each side); four emoji are eight UTF-16 units
  // to the field, four characters to the server. Both were refused in the server's English; the
  // server names the rule, the page says it.
  const nameRule = 'Un nom d’utilisateur compte de 2 à 20 lettres (A–Z, sans accents), chiffres, _ ou -.';
  const passwordRule = 'Un mot de passe compte de 8 à 128 caractères.';
  const emoji = '\u{1F600}\u{1F600}\u{1F600}\u{1F600}';
  for (const [name, password, said] of [['abcdefghijklmnopqrstu', 'a good password', nameRule], ['ariane', emoji, passwordRule]]) {
    await p.fill('#username', name);
    await p.fill('#password', password);
    await p.click('button[type=submit]');
    await p.waitForFunction((text) => document.querySelector('.account-form .error').textContent === text, said);
  }
  // The password-change form, the same rule (it showed the server's English).
  await p.fill('#username', 'ariane');
  await p.fill('#password', 'a good password');
  await p.click('button[type=submit]');
  await p.waitForFunction(() => document.querySelector('[data-account-link]')?.textContent === 'ariane');
  await p.goto('/account?lang=fr');
  await p.fill('#current-password', 'a good password');
  await p.fill('#new-password', emoji);
  await p.click('#new-password ~ button[type=submit]');
  await p.waitForFunction((text) => [...document.querySelectorAll('[role=alert], .error')].some((e) => e.textContent === text), passwordRule);
  assert.deepEqual(p.problems, Array(3).fill('console: Failed to load resource: the server responded with a status of 400 (Bad Request)'), 'the three refusals, and nothing else');
  await shot(p, 'accounts-password-rule-fr', { fullPage: false });
});

test('two signed-in players play a rated game; the game shows names and the profiles the result', async () => {
  const host = await page();
  const guest = await page();
  await signUpIn(host, 'hera');
  await signUpIn(guest, 'zeus');
  await startFromHome(host, { variant: 'petteia-6', mode: 'online' });
  const link = await host.inputValue('#invite-link');
  await guest.goto(link);
  await waitStatus(guest, 'playing');
  await waitStatus(host, 'playing');
  // No reload: the joiner's name reaches the creator's screen with the join.
  await host.waitForSelector('.clock-side:has-text("zeus")');
  await guest.waitForSelector('.clock-side:has-text("hera")');
  // Each is told the game counts for the ratings (the friend opened a link and played at once).
  for (const p of [host, guest]) await p.waitForSelector('#game-terms:text-is("Rated game")');
  for (const [name, width, height] of SIZES) {
    await guest.setViewportSize({ width, height });
    await shot(guest, `accounts-rated-game-${name}`);
  }
  // A move each: a game resigned sooner is not rated.
  await playAnyMove(host);
  await playAnyMove(guest);
  await guest.click('#resign');
  await guest.click('#resign');
  await waitStatus(host, 'finished');
  // The end shows on each screen what it did to both ratings.
  await host.waitForSelector('.clock-side:has-text("hera (1"):has-text(", +")');
  await guest.waitForSelector('.clock-side:has-text("zeus (1"):has-text(", −")');
  await shot(guest, 'accounts-rated-game-end');

  await host.goto('/@/hera');
  const row = host.locator('tr[data-variant="petteia-6"]');
  await row.waitFor();
  const cells = await row.locator('td').allTextContents();
  assert.deepEqual(cells.slice(0, 4), ['1', '1', '0', '0'], 'one game, won');
  assert.match(cells[4], /^1[6-9]\d\d ±\d+$/, `a rating above 1500: ${cells[4]}`);
  assert.equal(await host.locator('svg.rating-chart polyline').count(), 1, 'the rating history is drawn');
  // Its legend is the page's text, beside the chart rather than over its lines.
  assert.match(await host.textContent('.chart-legend li'), /^Petteia 6×6: \d+$/);
  // Two variants with the same history draw the same line: dashed differently, both show, and
  // each legend's sample is drawn as its line.
  const lines = await host.evaluate(async () => {
    const { ratingChart } = await import('/js/accounts/chart.js');
    const same = [{ at: 1, rating: 1530 }, { at: 2, rating: 1510 }];
    const figure = ratingChart({ 'petteia-6': same, 'petteia-8': same }, (v) => v);
    const look = (/** @type {Element} */ el) => `${el.getAttribute('stroke')} ${el.getAttribute('stroke-dasharray') ?? 'solid'}`;
    return {
      lines: [...figure.querySelectorAll('svg.rating-chart polyline')].map(look),
      samples: [...figure.querySelectorAll('.chart-legend .swatch line')].map(look),
    };
  });
  assert.equal(new Set(lines.lines.map((l) => l.split(' ').slice(1).join(' '))).size, 2, `two dashes: ${lines.lines}`);
  assert.deepEqual(lines.samples, lines.lines);
  // Time runs across, the same for every line: a variant played a month later is drawn after the
  // other (counted in each variant's own games, both lines began at the left), and the axis says
  // the first and the last day.
  const timed = await host.evaluate(async () => {
    const { ratingChart } = await import('/js/accounts/chart.js');
    const november = Date.UTC(2026, 10, 2, 12);
    const december = Date.UTC(2026, 11, 2, 12);
    const figure = ratingChart({
      'petteia-6': [{ at: november, rating: 1520 }, { at: november + 3600_000, rating: 1540 }],
      'petteia-8': [{ at: december, rating: 1480 }],
    }, (v) => v);
    const xs = (/** @type {string} */ variant) => figure.querySelector(`polyline[data-variant="${variant}"]`).getAttribute('points').split(' ').map((c) => Number(c.split(',')[0]));
    return { earlier: xs('petteia-6'), later: xs('petteia-8'), days: [...figure.querySelectorAll('.chart-day')].map((d) => d.textContent) };
  });
  assert.ok(Math.min(...timed.later) > Math.max(...timed.earlier), `the later variant's line comes after: ${JSON.stringify(timed)}`);
  assert.deepEqual(timed.days, ['Nov 2, 2026', 'Dec 2, 2026']);
  assert.match(await host.textContent('.recent-games'), /win against zeus/);
  // On a phone, in French (longer headings), the results fit the page without scrolling sideways.
  await host.setViewportSize({ width: 390, height: 844 });
  await host.goto('/@/hera?lang=fr');
  await host.waitForSelector('.results tr[data-variant="petteia-6"]');
  const [scrolled, shown] = await host.$eval('.results', (table) => [table.scrollWidth, table.clientWidth]);
  assert.ok(scrolled <= shown, `the results table is ${scrolled} px wide in ${shown}`);
  // And no heading is cut inside a word ("Victoir/es"): each is one line.
  const cut = await host.$$eval('.results thead th', (cells) => cells.filter((cell) => {
    const range = document.createRange();
    range.selectNodeContents(cell);
    return range.getClientRects().length > 1;
  }).map((cell) => cell.textContent));
  assert.deepEqual(cut, [], 'headings on one line');
  await shot(host, 'accounts-profile-fr-phone');
  // French punctuation and wording: a colon with its space before, "par" before how it ended.
  assert.match(await host.textContent('.chart-legend li'), /^Petteia 6×6\u00a0: \d+$/);
  assert.match(await host.textContent('.recent-games li'), /victoire contre zeus par abandon/);
  await host.setViewportSize({ width: 1200, height: 900 });
  await host.goto('/@/hera?lang=en');
  await host.waitForSelector('.recent-games');
  // Each game with its day, its variant opening its review.
  assert.match(await host.textContent('.recent-games li'), /^\d{1,2}\/\d{1,2}\/\d{4} · /);
  assert.match(await host.getAttribute('.recent-games li a', 'href'), /^\/game\//);
  for (const [name, width, height] of SIZES) {
    await host.setViewportSize({ width, height });
    await shot(host, `accounts-profile-${name}`);
    const wide = await pageWidth(host);
    assert.ok(wide <= width, `the profile fits the ${name}'s ${width} px: ${wide}`);
  }
  await guest.goto('/@/zeus');
  await guest.waitForSelector('.recent-games');
  assert.match(await guest.textContent('.recent-games'), /loss against hera/);
  await guest.goto('/leaderboard');
  await guest.waitForSelector('.leaderboard p, .leaderboard table');
  // The variant's choice has a label a reader sees, not only a name read aloud.
  assert.equal(await guest.getByLabel('Variant').count(), 1);
  assert.equal(await guest.isVisible('label[for="leaderboard-variant"]'), true);
  assertNoProblems(host, guest);
});

test('against the computer a signed-in player is told, beside Hint, that help keeps the game out of the level\'s record; a visitor is not', async () => {
  const visitor = await page();
  await startFromHome(visitor, { variant: 'petteia-6', mode: 'computer', level: 1 });
  await visitor.waitForSelector('#hint');
  assert.equal(await visitor.isVisible('#help-note'), false, 'a visitor has no record to keep');
  const player = await page();
  await signUpIn(player, 'athena');
  await startFromHome(player, { variant: 'petteia-6', mode: 'computer', level: 1 });
  await player.waitForSelector('#hint');
  await player.waitForSelector('#help-note:text-is("A hint or a takeback keeps this game out of your record at this level.")');
  assertNoProblems(visitor, player);
});

test('the account page makes a token shown once and revokes it; games played before signing in can be attached', async () => {
  const p = await page();
  // A game this browser played before it had an account: its seat is in localStorage.
  // Two, one of them played with a hint: it is listed, marked, and not counted at its level.
  await p.goto('/');
  for (const hinted of [false, true]) {
    const created = await createViaApi(server.base, { variant: 'petteia-6', mode: 'computer', level: 2, side: 'first' });
    const { game_id: id, seat } = created.body;
    await p.evaluate(([gameId, token]) => localStorage.setItem(`ludus.token.${gameId}`, token), [id, seat.token]);
    const auth = { headers: { Authorization: `Bearer ${seat.token}` } };
    if (hinted) assert.equal((await fetch(`${server.base}/api/v1/games/${id}/hint`, auth)).status, 200);
    await fetch(`${server.base}/api/v1/games/${id}/resign`, { method: 'POST', ...auth });
  }
  await signUpIn(p, 'iris');
  await p.click('button:has-text("Add them to my account")');
  await p.waitForSelector('[role=status]:has-text("2 seats added")');
  const profile = await (await fetch(`${server.base}/api/v1/players/iris`)).json();
  assert.deepEqual(profile.computer['petteia-6']['2'], { wins: 0, draws: 0, losses: 1 });
  await p.goto('/@/iris');
  await p.waitForSelector('.recent-games');
  const listed = await p.locator('.recent-games li').allTextContents();
  assert.equal(listed.length, 2, listed.join(' | '));
  assert.equal(listed.filter((line) => line.includes('(with help: not counted at the level)')).length, 1, listed.join(' | '));

  await p.goto('/account');
  await p.fill('#token-description', 'my bot');
  await p.click('button:has-text("Make a token")');
  const token = await p.textContent('.new-token');
  assert.match(token, /^lp_/);
  const asBot = await fetch(`${server.base}/api/v1/account`, { headers: { Authorization: `Bearer ${token}` } });
  assert.equal((await asBot.json()).username, 'iris');
  for (const [name, width, height] of SIZES) {
    await p.setViewportSize({ width, height });
    await shot(p, `accounts-account-${name}`);
  }
  // The token's line has the time it was made; revoking asks again, and the notice that showed
  // the token goes with it.
  assert.match(await p.textContent('.token-list li'), /^my bot — made \d{1,2}\/\d{1,2}\/\d{2,4}, \d{1,2}:\d{2}/);
  // In French, "le … à …" (a page of the same browser; the language it remembers is put back).
  const french = await p.context().newPage();
  await french.goto('/account?lang=fr');
  await french.waitForSelector('.token-list li');
  assert.match(await french.textContent('.token-list li'), /^my bot — créé le \d{2}\/\d{2}\/\d{4} à \d{2}:\d{2}/);
  await french.goto('/account?lang=en');
  await french.close();
  await p.click('.token-list button:has-text("Revoke")');
  await p.waitForSelector('.token-list button:has-text("Confirm revoke")');
  assert.equal((await fetch(`${server.base}/api/v1/account`, { headers: { Authorization: `Bearer ${token}` } })).status, 200, 'not revoked yet');
  await p.click('.token-list button:has-text("Confirm revoke")');
  await p.waitForFunction(() => document.querySelectorAll('.token-list li').length === 0);
  assert.equal(await p.isVisible('.new-token'), false, 'the revoked token is no longer shown');
  const revoked = await fetch(`${server.base}/api/v1/account`, { headers: { Authorization: `Bearer ${token}` } });
  assert.equal(revoked.status, 401);

  // The password is changed on the same page: a wrong one is refused, the right one changes it
  // and this browser stays signed in.
  await p.fill('#current-password', 'not my password');
  await p.fill('#new-password', 'a better password');
  await p.click('button:has-text("Change the password")');
  await p.waitForSelector('.account-page .error:has-text("Wrong password.")');
  p.problems.length = 0; // the 401 is the point of this step
  await p.fill('#current-password', 'a good password');
  await p.fill('#new-password', 'a better password');
  await p.click('button:has-text("Change the password")');
  await p.waitForSelector('[role=status]:has-text("Password changed")');
  const signIn = (password) => fetch(`${server.base}/api/v1/session`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'iris', password }),
  });
  assert.equal((await signIn('a good password')).status, 401);
  assert.equal((await signIn('a better password')).status, 200);
  await p.reload();
  await p.waitForSelector('h1:has-text("iris")');
  await p.click('button:has-text("Sign out")');
  await p.waitForFunction(() => document.querySelector('[data-account-link]')?.textContent === 'Sign in');
  // The attached game is over, and still the account's: the next person on this browser finds no
  // seat of it (its rematch would be the account's).
  const seatsLeft = await p.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('ludus.token.')));
  assert.deepEqual(seatsLeft, []);
  assertNoProblems(p);
});

test('a challenge from a profile reaches the other player live; declined, then accepted, it opens the game for both', async () => {
  const challenger = await page();
  const challenged = await page();
  await signUpIn(challenger, 'theseus');
  await signUpIn(challenged, 'ariadne');
  await challenged.goto('/challenges');
  await challenged.waitForSelector('.challenge-list.incoming li:has-text("None")');

  // From the challenged player's profile: the Challenge button fills in the name.
  // Oneself is not a player to challenge: the page says so in its words, and sends nothing.
  await challenger.goto('/challenges');
  await challenger.fill('#challenge-username', 'Theseus ');
  await challenger.click('.challenge-form button[type=submit]');
  await challenger.waitForSelector('.challenge-note:has-text("You cannot challenge yourself")');
  await challenger.goto('/@/ariadne');
  await challenger.click('a.challenge-link');
  await challenger.waitForSelector('#challenge-username');
  assert.equal(await challenger.inputValue('#challenge-username'), 'ariadne');
  await challenger.selectOption('#challenge-variant', 'petteia-6');
  await challenger.selectOption('#challenge-clock', '10+5');
  await challenger.selectOption('#challenge-side', 'first');
  await challenger.click('.challenge-form button[type=submit]');
  await challenger.waitForSelector('.challenge-list.outgoing li:has-text("ariadne")');

  // It arrives without a reload; declined, it leaves the challenger's list with a note.
  const offer = challenged.locator('.challenge-list.incoming li', { hasText: 'theseus' });
  await offer.waitFor();
  assert.match(await offer.textContent(), /10\+5, rated, you play Dark/, 'the challenger took Light');
  assert.match(await challenger.textContent('.challenge-list.outgoing li'), /10\+5, rated, you play Light/);
  for (const [name, width, height] of SIZES) {
    await challenged.setViewportSize({ width, height });
    await shot(challenged, `accounts-challenges-${name}`);
  }
  await offer.locator('button:has-text("Decline")').focus();
  await challenged.keyboard.press('Enter');
  await challenger.waitForSelector('[role=status]:has-text("ariadne declined your challenge")');
  // The keyboard stays in the list it answered from, not at the top of the page.
  await challenged.waitForSelector('.challenge-list.incoming li:has-text("None")');
  assert.ok(await challenged.evaluate(() => document.querySelector('.challenge-list.incoming')?.contains(document.activeElement)), 'the focus stays in the list');
  await challenger.waitForSelector('.challenge-list.outgoing li:has-text("None")');

  // Sent again, unrated, and accepted: both land in the game, each in their own seat.
  await challenger.uncheck('#challenge-rated');
  await challenger.click('.challenge-form button[type=submit]');
  const again = challenged.locator('.challenge-list.incoming li', { hasText: 'theseus' });
  await again.waitFor();
  assert.match(await again.textContent(), /unrated/);
  await again.locator('button:has-text("Accept")').click();
  await challenged.waitForURL(/\/game\//);
  await challenger.waitForURL(/\/game\//);
  assert.equal(new URL(challenger.url()).pathname, new URL(challenged.url()).pathname, 'the same game');
  await waitStatus(challenger, 'playing');
  await waitStatus(challenged, 'playing');
  await challenger.waitForSelector('.clock-bottom .clock-side:has-text("theseus")');
  await challenger.waitForSelector('.clock-top .clock-side:has-text("ariadne")');
  await challenged.waitForSelector('.clock-bottom .clock-side:has-text("ariadne")');
  const sides = await Promise.all([challenger, challenged].map((p) => p.evaluate(() => document.querySelector('.clock-bottom .clock-side')?.textContent)));
  assert.match(sides[0], /^Light/, `the challenger chose the first side: ${sides[0]}`);
  assertNoProblems(challenger, challenged);
});

test('a page whose account stream the server could not answer (a restart behind a proxy) follows it again, and is told of a challenge', async () => {
  const challenger = await page();
  const challenged = await page();
  await signUpIn(challenger, 'daedalus');
  await signUpIn(challenged, 'icarus');
  // The proxy answers 502 while the server restarts: twice, then the server is back.
  let refused = 0;
  await challenged.route('**/api/v1/stream/events', (route) => {
    if (refused >= 2) return route.continue();
    refused += 1;
    return route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>502 Bad Gateway</h1>' });
  });
  await challenged.goto('/rules');
  await challenged.waitForFunction(() => document.querySelector('[data-account-link]')?.textContent === 'icarus');
  await challenger.goto('/challenges?to=icarus');
  await challenger.selectOption('#challenge-variant', 'petteia-6');
  await challenger.click('.challenge-form button[type=submit]');
  await challenger.waitForSelector('.challenge-list.outgoing li:has-text("icarus")');
  await challenged.locator('.site-notice', { hasText: 'daedalus challenges you to Petteia 6×6.' }).waitFor({ timeout: 20000 });
  assert.equal(refused, 2, 'the page asked again after each refusal');
  assertNoProblems(challenger);
});

test('a challenge and its game\'s start are told on any page; a game that ended while the challenger was away does not open by itself', async () => {
  const challenger = await page();
  const challenged = await page();
  await signUpIn(challenger, 'orpheus');
  await signUpIn(challenged, 'eurydice');
  await challenged.goto('/');
  // A signed-in player's header has the challenges page (once the page has asked who is signed in).
  await challenged.waitForSelector('header.site a[href="/challenges"]:not([hidden])');
  const send = async () => {
    await challenger.goto('/challenges?to=eurydice');
    await challenger.selectOption('#challenge-variant', 'petteia-6');
    await challenger.selectOption('#challenge-clock', '10+5');
    await challenger.click('.challenge-form button[type=submit]');
    await challenger.waitForSelector('.challenge-list.outgoing li:has-text("eurydice")');
  };
  await send();
  // The challenged player, on the home page, is told and goes to answer.
  const told = challenged.locator('.site-notice', { hasText: 'orpheus challenges you to Petteia 6×6.' });
  await told.waitFor();
  await shot(challenged, 'accounts-challenge-notice');
  await challenger.goto('/rules');
  await told.locator('a').click();
  await challenged.locator('.challenge-list.incoming li', { hasText: 'orpheus' }).locator('button:has-text("Accept")').click();
  await challenged.waitForURL(/\/game\//);
  // The challenger, reading the rules, is told the game has started and opens it in its seat.
  const started = challenger.locator('.site-notice', { hasText: 'has started' });
  await started.waitFor();
  await started.locator('a').click();
  await challenger.waitForURL(/\/game\//);
  await waitStatus(challenger, 'playing');
  await challenger.waitForSelector('.clock-bottom .clock-side:has-text("orpheus")');
  assert.equal(await challenger.locator('.site-notice').count(), 0, 'the notice goes once followed');

  // A player who challenged through the API, with no page open, and whose game was accepted and
  // resigned meanwhile: the next page they open tells them, and stays where it is.
  const context = await challenged.context().browser().newContext({ baseURL: server.base });
  const asAway = (path, data) => context.request.post(`${server.base}${path}`, { data });
  assert.equal((await asAway('/api/v1/accounts', { username: 'persephone', password: 'a good password' })).status(), 201);
  assert.equal((await asAway('/api/v1/challenges', { username: 'eurydice', variant: 'petteia-6' })).status(), 201);
  await challenged.goto('/challenges');
  await challenged.locator('.challenge-list.incoming li', { hasText: 'persephone' }).locator('button:has-text("Accept")').click();
  await challenged.waitForURL(/\/game\//);
  await waitStatus(challenged, 'playing');
  await challenged.click('#resign');
  await challenged.click('#resign');
  await waitStatus(challenged, 'finished');
  // This browser signed in on another day (the page keeps that it did; the cookie is the API's).
  await context.addInitScript(() => localStorage.setItem('ludus.signed-in', 'persephone'));
  const back = await context.newPage();
  await back.goto('/challenges');
  await back.locator('.site-notice', { hasText: 'ended while you were away' }).waitFor();
  assert.equal(new URL(back.url()).pathname, '/challenges', 'the ended game does not open by itself');
  assertNoProblems(challenger, challenged);
  await context.close();
});

test('the home form says a signed-in player\'s online game is rated, and makes it unrated when asked', async () => {
  const visitor = await page();
  await visitor.goto('/');
  await visitor.waitForSelector('#create');
  assert.equal(await visitor.isVisible('#rated'), false, 'a visitor\'s game is never rated: no choice');
  const host = await page();
  const guest = await page();
  await signUpIn(host, 'castor');
  await signUpIn(guest, 'pollux');
  await host.goto('/');
  await host.waitForSelector('label[for="rated"]:not([hidden])');
  assert.equal(await host.isChecked('#rated'), true, 'rated unless unticked');
  await host.uncheck('#rated');
  await host.click('label[for="variant-petteia-6"]');
  await host.click('#create');
  await host.waitForSelector('#invite-link');
  await guest.goto(await host.inputValue('#invite-link'));
  await waitStatus(guest, 'playing');
  for (const p of [host, guest]) await p.waitForSelector('#game-terms:text-is("Unrated game")');
  for (let ply = 0; ply < 2; ply += 1) await playAnyMove(ply === 0 ? host : guest);
  await waitVersion(host, 2);
  await host.click('#resign');
  await host.click('#resign');
  await waitStatus(host, 'finished');
  const { body: games } = await callApi(server.base, 'GET', '/api/v1/players/castor/games');
  assert.equal(games[0].rating_change, null, 'the game was unrated');
  const { body: profile } = await callApi(server.base, 'GET', '/api/v1/players/castor');
  assert.equal(profile.variants['petteia-6'].rating, null, JSON.stringify(profile));
  assertNoProblems(visitor, host, guest);
});

test('a profile\'s next page of games, asked by keyboard, takes the focus to its first game', async () => {
  const p = await page();
  await signUpIn(p, 'hector');
  // A page and one more: 21 games against the computer, each resigned at once.
  for (let i = 0; i < 21; i += 1) {
    const created = await p.context().request.post(`${server.base}/api/v1/games`, { data: { variant: 'petteia-6', mode: 'computer', side: 'first' } });
    const { game_id: id, seat } = await created.json();
    await callApi(server.base, 'POST', `/api/v1/games/${id}/resign`, { token: seat.token });
  }
  await p.goto('/@/hector');
  await p.waitForSelector('.more-games:not([hidden])');
  assert.equal(await p.locator('.recent-games li').count(), 20);
  await p.focus('.more-games');
  await p.keyboard.press('Enter');
  await p.waitForFunction(() => document.querySelectorAll('.recent-games li').length === 21);
  assert.ok(await p.evaluate(() => document.activeElement === document.querySelector('.recent-games li:nth-child(21) a')), 'the focus is on the first game of the new page');
  assert.equal(await p.isVisible('.more-games'), false, 'nothing more to ask');
  assertNoProblems(p);
});
