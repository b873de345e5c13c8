// What every browser test needs: the real server on a free loopback port with a fresh SQLite
// database, Debian's Chromium through playwright-core (nothing downloads a browser), pages that
// record console errors, and screenshots under target/browser-screenshots/.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const SHOTS = join(ROOT, 'target', 'browser-screenshots');

function freePort() {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => ok(port));
    });
  });
}

/**
 * Starts the server on a free port with a fresh SQLite file; `args` adds command-line options.
 * `restart({ crash })` stops it (SIGTERM, or with `crash` SIGKILL) and starts it again on the same
 * port and database, as a deployment or a crash would.
 */
export async function startServer(args = []) {
  const bin = resolve(ROOT, process.env.LUDUS_BIN || 'target/debug/ludus');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'ludus-browser-'));
  const base = `http://127.0.0.1:${port}`;
  const argv = [
    '--listen', `127.0.0.1:${port}`,
    '--database-url', `sqlite://${join(dir, 'ludus.db')}`,
    '--static-dir', join(ROOT, 'static'),
    '--computer-delay-ms', '50',
    '--create-per-minute', '1000',
    '--join-per-minute', '1000',
    // Every person of the suite comes from 127.0.0.1, and a file's pages stay open to its end:
    // each holds a socket, which counts against its address (the cap is tested in Rust).
    '--connections-per-address', '10000',
    ...args,
  ];
  let running = await spawnServer(bin, argv, base);
  process.on('exit', () => running.child.kill('SIGKILL'));
  const stop = async (signal) => {
    running.child.kill(signal);
    const timer = setTimeout(() => running.child.kill('SIGKILL'), 5000);
    await running.exited;
    clearTimeout(timer);
  };
  return {
    base,
    async restart({ crash = false, whileDown = async () => {} } = {}) {
      await stop(crash ? 'SIGKILL' : 'SIGTERM');
      await whileDown();
      running = await spawnServer(bin, argv, base);
    },
    async stop() {
      await stop('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Runs the server binary and waits until it answers its health check. */
async function spawnServer(bin, argv, base) {
  const child = spawn(bin, argv, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, RUST_LOG: process.env.RUST_LOG || 'warn' } });
  let output = '';
  child.stdout.on('data', (d) => { output += d; });
  child.stderr.on('data', (d) => { output += d; });
  const exited = new Promise((ok) => child.on('exit', ok));
  for (let i = 0; ; i += 1) {
    if (child.exitCode !== null) throw new Error(`the server exited: ${output}`);
    try {
      const response = await fetch(`${base}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (i > 300) throw new Error(`the server did not start within 30 s: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, exited };
}

/** The window sizes people play at: a laptop, a wide laptop, and a 390-px phone. */
export const LAPTOP = { viewport: { width: 1280, height: 800 } };
export const WIDE = { viewport: { width: 1366, height: 768 } };
export const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };

export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/** A new context and page whose console errors and page errors are collected in `page.problems`. */
export async function openPage(browser, base, options = {}) {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 1200, height: 900 }, ...options });
  const page = await context.newPage();
  page.problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') page.problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => page.problems.push(`page error: ${error.message}`));
  return page;
}

/**
 * Forgets the console errors of `page` that `expected` matches (the browser's own report of a
 * request the test meant to be refused, say), so that `assertNoProblems` judges the rest.
 */
export function forgive(page, expected) {
  page.problems = page.problems.filter((problem) => !expected.test(problem));
}

/** Saves the whole page, or with `{ fullPage: false }` only what the window shows. */
export async function shot(page, name, { fullPage = true } = {}) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage });
}

/** How wide the page is in CSS pixels: wider than the window, it scrolls sideways. */
export const pageWidth = (page) => page.evaluate(() => document.documentElement.scrollWidth);

/**
 * What a test file shares: one server, the variant list, one browser, `page()` for a new context
 * and page, `onlineGame()` for two people in two of them, and `assertNoProblems` over pages'
 * console errors. Closes all after the file.
 * `serverArgs` start the file's server with other settings (a shorter claim window, say).
 */
export async function browserSuite({ serverArgs = [] } = {}) {
  const server = await startServer(serverArgs);
  const list = await (await fetch(`${server.base}/api/v1/variants`)).json();
  let browser = null;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    if (browser) await browser.close();
    await server.stop();
  });
  const page = (options) => openPage(browser, server.base, options);
  return {
    server,
    list,
    page,
    onlineGame: (options) => onlineGame(page, options),
    assertNoProblems(...pages) {
      for (const p of pages) assert.deepEqual(p.problems, [], `console errors on ${p.url()}`);
    },
  };
}

/**
 * An online game between two browsers, each a context of its own from `page`: the host creates it
 * from the home page (Light), the guest opens the invite (Dark). `guestSocket` wraps the guest's
 * socket in a relay first (`proxySocket`), returned as `relay`.
 */
async function onlineGame(page, { host: hostWindow, guest: guestWindow, variant = 'petteia-6', clock = '5+3', guestSocket = false }) {
  const host = await page(hostWindow);
  await startFromHome(host, { variant, mode: 'online', clock });
  const guest = await page(guestWindow);
  const relay = guestSocket ? await proxySocket(guest) : null;
  await joinFrom(host, guest);
  return { host, guest, relay };
}

/** A friend opens the invite of the host's waiting game; returns the invite link. */
export async function joinFrom(host, guest) {
  const link = await host.inputValue('#invite-link');
  await guest.goto(link);
  await waitStatus(guest, 'playing');
  await waitStatus(host, 'playing');
  return link;
}

/**
 * Opens game `gameId` against a stand-in for its endpoints: `views` in turn (each move the page
 * sends moves on to the next, answered with an event and an ack), the past `events`, and
 * `actions` recording each POST of an action and answering with the current view. `push` sends
 * the page any socket message; `show` replaces the current view.
 */
export async function mockGame(p, gameId, views, { posted = [], events = [], actions = [] } = {}) {
  let current = 0;
  let socket = null;
  const send = (message) => socket.send(JSON.stringify(message));
  await p.route(`**/api/v1/games/${gameId}`, (route) => route.fulfill({ json: views[current] }));
  await p.route(`**/api/v1/games/${gameId}/events?since=0`, (route) => route.fulfill({ json: events }));
  await p.route(new RegExp(`/api/v1/games/${gameId}/(resign|draw|undo|rematch|claim|abort)`), (route) => {
    actions.push(new URL(route.request().url()).pathname.split(`/${gameId}/`)[1]);
    route.fulfill({ json: views[current] });
  });
  await p.routeWebSocket(`**/api/v1/games/${gameId}/ws`, (ws) => {
    socket = ws;
    ws.onMessage((text) => {
      const message = JSON.parse(text);
      if (message.type === 'hello') send({ type: 'snapshot', game: views[current] });
      if (message.type === 'ping') send({ type: 'pong' });
      if (message.type === 'move') {
        posted.push(message.move);
        const side = views[current].to_move;
        current = Math.min(current + 1, views.length - 1);
        const { version } = views[current];
        send({ type: 'event', version, event: { version, kind: 'move', side, move: message.move }, game: views[current] });
        send({ type: 'ack', id: message.id, version });
      }
    });
  });
  await p.goto('/rules');
  await p.evaluate((id) => localStorage.setItem(`ludus.token.${id}`, 'MockSeatTokenMockSeatTokenMock00'), gameId);
  await p.goto(`/game/${gameId}`);
  await p.waitForSelector('section.game[data-version]');
  return {
    push: send,
    show(view) {
      views[current] = view;
    },
  };
}

/**
 * What the game screen shows, from its data attributes: game id, version, status, seat, to move,
 * number of moves, a pending move, the side at the bottom.
 */
export const shown = (page) => page.evaluate(() => {
  const game = document.querySelector('section.game');
  return game ? { ...game.dataset, version: Number(game.dataset.version), moves: Number(game.dataset.moves) } : null;
});

/** The game view the server gives the page's seat (the token the page saved). */
export const view = (page) => page.evaluate(async () => {
  const id = document.querySelector('section.game').dataset.gameId;
  const token = localStorage.getItem(`ludus.token.${id}`);
  const response = await fetch(`/api/v1/games/${encodeURIComponent(id)}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  return response.json();
});

/** The page's game's events after `since`, as the server logs them. */
export const eventsSince = (page, since) => page.evaluate(async (after) => {
  const id = document.querySelector('section.game').dataset.gameId;
  const response = await fetch(`/api/v1/games/${encodeURIComponent(id)}/events?since=${after}`);
  return response.json();
}, since);

/** Waits until the page's game has reached at least `version`. */
export const waitVersion = (page, version, options) =>
  page.waitForFunction((v) => Number(document.querySelector('section.game')?.dataset.version) >= v, version, options);

/** Waits for the game's status (`playing`, `finished`, …). */
export const waitStatus = (page, status, options) =>
  page.waitForFunction((s) => document.querySelector('section.game')?.dataset.status === s, status, options);

/** Waits until the page plays `side` (after a reload or a rematch). */
export const waitSeat = (page, side, options) =>
  page.waitForFunction((s) => document.querySelector('section.game')?.dataset.seat === s, side, options);

/** Waits until the game has at least `n` moves. */
export const waitMoves = (page, n, options) =>
  page.waitForFunction((count) => Number(document.querySelector('section.game')?.dataset.moves) >= count, n, options);

/**
 * Records every state the page's connection line takes from now on ("Reconnecting…" may last only
 * a fraction of a second); `waitReconnected` then waits until it has been through `reconnecting`
 * and is `connected` again.
 */
export const recordConnectionStates = (page) => page.evaluate(() => {
  const line = document.querySelector('.connection');
  const seen = [];
  document.body.dataset.connectionStates = '';
  // Each record's old value too: two changes in one task reach the callback together.
  new MutationObserver((records) => {
    for (const record of records) seen.push(record.oldValue, line.dataset.state);
    document.body.dataset.connectionStates = seen.join(' ');
  }).observe(line, { attributes: true, attributeFilter: ['data-state'], attributeOldValue: true });
});

/** Waits until the page's connection has been lost and made again (see `recordConnectionStates`). */
export const waitReconnected = (page, options) => page.waitForFunction(
  () => document.body.dataset.connectionStates.split(' ').includes('reconnecting')
    && document.querySelector('.connection').dataset.state === 'connected',
  undefined,
  options,
);

/** Plays `from`→`to` by clicking the piece and then its destination. */
export async function clickMove(page, from, to) {
  const before = (await shown(page)).version;
  await page.click(`.board-holder [data-place="${from}"]`);
  await page.click(`.board-holder [data-place="${to}"].dest`);
  await waitVersion(page, before + 1);
}

/**
 * The box of a place on the board, in the page's pixels, measured in one step inside the page.
 * The board is drawn anew at every update (a presence snapshot may come at any time), and a
 * locator's `boundingBox()` takes the element first and measures it after: null if a redraw
 * came in between.
 */
export const placeBox = (page, place) =>
  page.waitForFunction((p) => {
    const r = document.querySelector(`.board-holder [data-place="${p}"] .hit`)?.getBoundingClientRect();
    return r && r.width > 0 ? { x: r.x, y: r.y, width: r.width, height: r.height } : null;
  }, place).then((found) => found.jsonValue());

/** Plays `from`→`to` by dragging the piece onto its destination with the mouse. */
export async function dragMove(page, from, to) {
  const before = (await shown(page)).version;
  const a = await placeBox(page, from);
  const b = await placeBox(page, to);
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2 + a.width / 2, (a.y + b.y) / 2 + a.height / 2, { steps: 4 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 4 });
  await page.mouse.up();
  await waitVersion(page, before + 1);
}

/** Plays the first legal move the page offers through the UI: a choice button, or a piece and a destination. */
export async function playAnyMove(page) {
  await page.waitForFunction(() => document.querySelector('.choices .move-choice, .board-holder .place.movable')
    || document.querySelector('section.game').dataset.status !== 'playing');
  const v = await shown(page);
  if (v.status !== 'playing') return;
  const choice = page.locator('.choices .move-choice').first();
  if (await choice.count()) {
    await choice.click();
  } else {
    await page.locator('.board-holder .place.movable').first().click();
    const dest = page.locator('.board-holder .place.dest').first();
    await dest.click();
    const again = page.locator('.choices .move-choice').first();
    if ((await shown(page)).version === v.version && (await again.count())) await again.click();
  }
  await waitVersion(page, v.version + 1);
}

/** The board as a screen reader hears it on `p`: what stands on each place, without what this page may do there. */
export const boardHeard = (p) => p.evaluate(() => Object.fromEntries([...document.querySelectorAll('.board-holder [data-place]')]
  .map((place) => [place.dataset.place, place.getAttribute('aria-label').replace(/, (can move|destination)/g, '')])));

/** The dice a page shows: the roll's row, and the bonus row when there is one. */
export const diceShown = (p) => p.evaluate(() => [...document.querySelectorAll('.dice-row')]
  .map((row) => (row.classList.contains('bonus') ? `bonus ${row.dataset.bonus}` : `dice ${row.dataset.dice}`)));

/** The dice the server's view holds, as `diceShown` reads them: Duodecim's position carries its bonus dice too. */
export function diceHeld({ variant, position, dice }) {
  if (variant !== 'duodecim-scripta') return [`dice ${dice.join(',')}`];
  const [, left, bonus] = position.match(/dice:\[([\d,]*)\] bonus:\[([\d,]*)\]/);
  return [`dice ${left}`, ...(bonus ? [`bonus ${bonus}`] : [])];
}

/** The commitment to the server seed that a dice game's page shows (docs/RULES.md §4). */
export async function commitmentShown(p) {
  const text = await p.textContent('.fairness');
  const commitment = text.match(/Commitment to the server seed: ([0-9a-f]{64})/)?.[1];
  assert.ok(commitment, text);
  return commitment;
}

/**
 * Waits for the server seed that an ended dice game's page reveals, and checks that the page still
 * shows `commitment` and that the seed's SHA-256 is that commitment.
 */
export async function assertSeedRevealed(p, commitment) {
  await p.waitForFunction(() => /revealed: [0-9a-f]{64}/.test(document.querySelector('.fairness')?.textContent ?? ''));
  const text = await p.textContent('.fairness');
  const seed = text.match(/revealed: ([0-9a-f]{64})/)[1];
  assert.ok(text.includes(commitment), 'the commitment stays shown');
  assert.equal(createHash('sha256').update(Buffer.from(seed, 'hex')).digest('hex'), commitment, 'SHA-256 of the revealed server seed is the commitment');
}

/** Creates a game from the home page as a player would, and waits for its screen. */
export async function startFromHome(p, { variant, mode, clock = 'none', side = 'first', level, listed = false }) {
  await p.goto('/');
  await p.click(`label[for="variant-${variant}"]`);
  await p.check(`#mode-${mode}`);
  if (level) await p.selectOption('#level', String(level));
  if (listed) await p.check('#listed');
  await p.check(`input[name=clock][value="${clock}"]`);
  await p.check(`#side-${side}`);
  await p.click('#create');
  await p.waitForURL(/\/game\//);
  await p.waitForSelector('section.game[data-version]');
}

/** One JSON request to the server's API, with a seat or personal token when given: its status and body. */
export async function callApi(base, method, path, { body, token } = {}) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(`${base}${path}`, { method, headers, body: body && JSON.stringify(body) });
  return { status: response.status, body: await response.json() };
}

export const createViaApi = (base, body) => callApi(base, 'POST', '/api/v1/games', { body });

/**
 * Routes the page's game sockets through a relay the test controls. `sent` holds every message
 * the page sent (parsed); `rewrite` may change one on its way to the server. `cut()` makes the
 * current connection a link that silently drops packets: nothing reaches the page any more and,
 * unless `pageStillHeard`, nothing reaches the server, yet neither side sees a close.
 * `setDown(true)` does that to the current connection and every new one until `setDown(false)`.
 */
export async function proxySocket(page) {
  const links = [];
  const relay = {
    sent: [],
    connections: 0,
    down: false,
    rewrite: (message) => message,
    cut({ pageStillHeard = false } = {}) {
      const link = links[links.length - 1];
      link.toPage = false;
      link.toServer = pageStillHeard;
    },
    setDown(down) {
      relay.down = down;
      if (down) relay.cut();
    },
  };
  await page.routeWebSocket(/\/api\/v1\/games\/[^/]+\/ws$/, (ws) => {
    const server = ws.connectToServer();
    const link = { toPage: !relay.down, toServer: !relay.down };
    links.push(link);
    relay.connections += 1;
    ws.onMessage((text) => {
      const message = relay.rewrite(JSON.parse(text));
      relay.sent.push(message);
      if (link.toServer) server.send(JSON.stringify(message));
    });
    server.onMessage((text) => {
      if (link.toPage) ws.send(text);
    });
  });
  return relay;
}
