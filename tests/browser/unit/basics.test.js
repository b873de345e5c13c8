// The small pure pieces of the client: clocks, routes, the home page's list of games.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatClock, formatElapsed, clockReading } from '../../../static/js/game/clock.js';
import { matchRoute } from '../../../static/js/router.js';
import { orderMyGames, gameLine } from '../../../static/js/mygames.js';
import { decimalMark, setLanguage } from '../../../static/js/i18n.js';

test('clocks show m:ss, and tenths under ten seconds', () => {
  assert.equal(formatClock(185000), '3:05');
  assert.equal(formatClock(9450), '0:09.4');
  assert.equal(formatClock(-20), '0:00.0');
  assert.equal(formatElapsed(72500), '1:12');
});

test('the tenths follow the reader’s decimal mark: a comma in French', () => {
  setLanguage('fr');
  assert.equal(formatClock(7950, decimalMark()), '0:07,9');
  setLanguage('en');
  assert.equal(formatClock(7950, decimalMark()), '0:07.9');
});

test('only the running clock runs down', () => {
  const view = { status: 'playing', to_move: 'light', clocks: { light: 60000, dark: 50000, running: 'light' } };
  assert.deepEqual(clockReading(view, 'light', 1500), { ms: 58500, running: true });
  assert.deepEqual(clockReading(view, 'dark', 1500), { ms: 50000, running: false });
  assert.deepEqual(clockReading({ ...view, clocks: null }, 'light', 1500), { ms: null, running: true });
});

test('routes match their pattern and decode their parts; undecodable parts match nothing', () => {
  assert.deepEqual(matchRoute('/game/:id', '/game/abc%20d'), { id: 'abc d' });
  assert.deepEqual(matchRoute('/rules/:variant/print', '/rules/petteia-6/print/'), { variant: 'petteia-6' });
  assert.deepEqual(matchRoute('/', '/'), {});
  assert.equal(matchRoute('/game/:id', '/game/%00%ff'), null);
  assert.equal(matchRoute('/game/:id', '/rules/x'), null);
  assert.equal(matchRoute('/rules/:variant', '/rules/a/print'), null);
});

const game = (id, status, extra = {}) => ({
  view: { game_id: id, status, mode: 'online', to_move: 'dark', seat: { side: 'light', bottom: 'light' }, result: null, ...extra },
  opened: extra.opened ?? 0,
});

test('my games: playing first with my turn on top, then the most recent finished ones', () => {
  const { playing, finished } = orderMyGames([
    game('theirs', 'playing', { opened: 5 }),
    game('old-end', 'finished', { opened: 1, result: { winner: 'light', termination: 'timeout' } }),
    game('mine', 'playing', { opened: 2, to_move: 'light' }),
    game('new-end', 'aborted', { opened: 4 }),
    game('waiting', 'waiting', { opened: 3 }),
  ]);
  assert.deepEqual(playing.map((g) => g.view.game_id), ['mine', 'theirs', 'waiting']);
  assert.deepEqual(finished.map((g) => g.view.game_id), ['new-end', 'old-end']);
  assert.deepEqual(playing.map((g) => gameLine(g.view)), ['your turn', 'their turn', 'waiting for your friend']);
  assert.equal(gameLine(finished[1].view), 'You win');
});

test('a seat holder shows its rating, and after a rated end what the game did to it', async () => {
  const { seatLabel } = await import('../../../static/js/accounts/api.js');
  assert.equal(seatLabel({ username: 'ann', rating: null }), 'ann');
  assert.equal(seatLabel({ username: 'ann', rating: 1662, rating_change: null }), 'ann (1662)');
  assert.equal(seatLabel({ username: 'ann', rating: 1662, rating_change: 162 }), 'ann (1662, +162)');
  assert.equal(seatLabel({ username: 'bob', rating: 1338, rating_change: -162 }), 'bob (1338, −162)');
});
