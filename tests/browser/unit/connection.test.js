// The game socket's health (static/js/connection.js) with a stand-in WebSocket and mocked timers:
// a ping every 10 s, a missing pong means a dead link, the move not yet acknowledged is resent
// with the same id after the reconnect's snapshot (at the version now when only the version
// changed under it), and an ack settles it. And the views: a delta
// joined with the last whole view and the moves of the events is the next whole view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GameConnection, PING_EVERY_MS, PONG_WITHIN_MS } from '../../../static/js/connection.js';

class FakeSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSING = 2;
  static CLOSED = 3;
  static all = [];

  constructor(url) {
    this.url = url;
    this.readyState = FakeSocket.CONNECTING;
    this.sent = [];
    this.listeners = {};
    FakeSocket.all.push(this);
  }

  addEventListener(type, listener) {
    (this.listeners[type] ||= []).push(listener);
  }

  emit(type, event = {}) {
    for (const listener of this.listeners[type] || []) listener(event);
  }

  send(text) {
    this.sent.push(JSON.parse(text));
  }

  close() {
    this.readyState = FakeSocket.CLOSED;
  }

  /** The server side: accept, then answer the hello with a snapshot. */
  /** Opens, and greets with a snapshot at `version` (of `view`'s other fields, if given). */
  accept(version, view = {}) {
    this.readyState = FakeSocket.OPEN;
    this.emit('open');
    this.serverSays({ type: 'snapshot', game: { moves: [], ...view, version } });
  }

  serverSays(message) {
    this.emit('message', { data: JSON.stringify(message) });
  }
}

function connect(views = []) {
  FakeSocket.all = [];
  globalThis.WebSocket = FakeSocket;
  globalThis.location = { protocol: 'http:', host: 'ludus.test' };
  const seen = { states: [], pending: [], errors: [] };
  const connection = new GameConnection('g1', 'token1', {
    onView: (view) => views.push(view),
    onEvent: () => {},
    onState: (state) => seen.states.push(state),
    onPending: (pending) => seen.pending.push(pending),
    onError: (error) => seen.errors.push(error),
  });
  return { connection, seen };
}

test('a ping every ten seconds; a pong keeps the link', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  const { connection, seen } = connect();
  const socket = FakeSocket.all[0];
  socket.accept(3);
  assert.deepEqual(socket.sent[0], { type: 'hello', heartbeat: true, token: 'token1' });
  t.mock.timers.tick(PING_EVERY_MS);
  assert.deepEqual(socket.sent.at(-1), { type: 'ping' });
  socket.serverSays({ type: 'pong' });
  t.mock.timers.tick(PONG_WITHIN_MS + 1);
  assert.equal(FakeSocket.all.length, 1, 'no reconnect while pongs come');
  assert.deepEqual(seen.states, ['connecting', 'connected']);
  connection.close();
});

test('a missing pong is a lost link: reconnect, resume with since, resend the pending move with its id', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  const { connection, seen } = connect();
  const first = FakeSocket.all[0];
  first.accept(7);
  connection.sendMove('A1-A3', 7);
  const move = first.sent.find((m) => m.type === 'move');
  assert.equal(move.move, 'A1-A3');
  assert.equal(move.version, 7);
  assert.deepEqual(first.sent.at(-1), { type: 'ping' }, 'a move is followed by a ping');
  // Nothing comes back.
  t.mock.timers.tick(PONG_WITHIN_MS);
  assert.equal(seen.states.at(-1), 'reconnecting');
  assert.equal(first.readyState, FakeSocket.CLOSED);
  t.mock.timers.tick(10000);
  const second = FakeSocket.all[1];
  assert.ok(second, 'a new socket');
  second.accept(7);
  assert.deepEqual(second.sent[0], { type: 'hello', heartbeat: true, token: 'token1', since: 7 });
  const resent = second.sent.find((m) => m.type === 'move');
  assert.deepEqual(resent, move, 'the same move, version and id');
  assert.equal(seen.states.at(-1), 'connected');
  second.serverSays({ type: 'ack', id: move.id, version: 8 });
  // The ack comes before the move's event: the move stays shown as sent until the view has it
  // (else the page said it was still this side's turn in between).
  assert.notEqual(connection.pending, null, 'pending until the view reaches the acked version');
  second.serverSays({ type: 'event', version: 8, event: { version: 8, kind: 'move', move: 'A1-A3' }, game: { version: 8, moves: ['A1-A3'] } });
  assert.equal(seen.pending.at(-1), null);
  assert.equal(connection.pending, null);
  connection.close();
});

test('a refused move is settled and its refusal told', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  const { connection, seen } = connect();
  const socket = FakeSocket.all[0];
  socket.accept(2);
  connection.sendMove('D6-D1', 2);
  const { id } = socket.sent.find((m) => m.type === 'move');
  socket.serverSays({ type: 'error', id, code: 'illegal_move', message: 'D6-D1: D1 is occupied' });
  assert.equal(connection.pending, null);
  assert.equal(seen.errors[0].code, 'illegal_move');
  connection.close();
});

test('a move made while the socket is down waits and goes out after the snapshot', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  const { connection } = connect();
  const socket = FakeSocket.all[0];
  connection.sendMove('A1-A2', 0);
  assert.equal(socket.sent.length, 0, 'nothing sent before the socket opens');
  socket.accept(0);
  assert.equal(socket.sent.filter((m) => m.type === 'move').length, 1);
  connection.close();
});

/** The view a move is chosen on, but its version. */
const BOARD = {
  game_id: 'g1', variant: 'petteia-6', mode: 'online', sides: ['light', 'dark'], status: 'playing',
  position: 'DDDDDD/6/6/6/6/LLLLLL l 0 1', to_move: 'light', moves: [], legal_moves: ['A1-A3', 'B1-B3'],
};

test('a move sent while the server restarted goes again, as it was, once the link is back', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  const { connection, seen } = connect();
  const first = FakeSocket.all[0];
  first.accept(7, BOARD);
  // The server is stopping: the move goes out on a socket it closes without an answer.
  connection.sendMove('A1-A3', 7);
  const move = first.sent.find((m) => m.type === 'move');
  first.emit('close');
  t.mock.timers.tick(10000);
  const second = FakeSocket.all[1];
  // The restart wrote `clocks_paused` and `clock_started`, which leave the board: the server
  // takes the move at the version it was chosen at (docs/PROTOCOL.md §2).
  second.accept(9, BOARD);
  const resent = second.sent.find((m) => m.type === 'move');
  assert.deepEqual(resent, move, 'the same move, version and id');
  assert.deepEqual(seen.errors, []);
  connection.close();
});

test('a move refused as stale is dropped with its refusal', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  const { connection, seen } = connect();
  const socket = FakeSocket.all[0];
  socket.accept(4, BOARD);
  connection.sendMove('B1-B3', 4);
  const { id } = socket.sent.find((m) => m.type === 'move');
  // A takeback put another position on the board.
  socket.serverSays({ type: 'error', id, code: 'stale', message: 'the game has moved on to version 5', version: 5 });
  assert.equal(socket.sent.filter((m) => m.type === 'move').length, 1, 'not sent again');
  assert.equal(connection.pending, null);
  assert.equal(seen.errors[0].code, 'stale');
  connection.close();
});

test('the network back, the socket is made again at once, not at the end of the pause', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  const window = new EventTarget();
  globalThis.addEventListener = window.addEventListener.bind(window);
  globalThis.removeEventListener = window.removeEventListener.bind(window);
  try {
    const { connection } = connect();
    FakeSocket.all[0].accept(3);
    // Five failed attempts: the pause before the next has grown to 9.6 s.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      FakeSocket.all.at(-1).emit('close');
      t.mock.timers.tick(300 * 2 ** attempt);
    }
    FakeSocket.all.at(-1).emit('close');
    const sockets = FakeSocket.all.length;
    t.mock.timers.tick(1000);
    assert.equal(FakeSocket.all.length, sockets, 'still waiting');
    window.dispatchEvent(new Event('online'));
    assert.equal(FakeSocket.all.length, sockets + 1, 'a socket at once');
    // The pause's timer is gone: no second socket when it would have ended.
    t.mock.timers.tick(10000);
    assert.equal(FakeSocket.all.length, sockets + 1);
    connection.close();
  } finally {
    delete globalThis.addEventListener;
    delete globalThis.removeEventListener;
  }
});

test('a delta is joined with the fixed fields of the last whole view and the moves of the events', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  const views = [];
  const { connection } = connect(views);
  const socket = FakeSocket.all[0];
  socket.readyState = FakeSocket.OPEN;
  socket.emit('open');
  const fixed = { game_id: 'g1', variant: 'petteia-6', mode: 'online', sides: ['light', 'dark'] };
  socket.serverSays({ type: 'snapshot', game: { ...fixed, version: 4, status: 'playing', moves: ['A1-A2'], to_move: 'dark', opponent_away_since: 5 } });
  const delta = { version: 5, status: 'playing', to_move: 'light', move_count: 2, legal_moves: ['A2-A3'] };
  socket.serverSays({ type: 'event', version: 5, event: { kind: 'move', side: 'dark', move: 'F6-F5' }, delta });
  assert.deepEqual(views.at(-1), { ...fixed, version: 5, status: 'playing', to_move: 'light', legal_moves: ['A2-A3'], moves: ['A1-A2', 'F6-F5'] },
    'the fixed fields kept, the changed ones replaced, a field absent from the delta gone, the move appended');
  assert.equal(connection.lastVersion, 5);
  // A batch: a move without a view, then the end with the delta of both.
  socket.serverSays({ type: 'event', version: 6, event: { kind: 'move', side: 'light', move: 'A2-A3' } });
  socket.serverSays({ type: 'event', version: 7, event: { kind: 'finished', winner: 'light' }, delta: { version: 7, status: 'finished', move_count: 3 } });
  assert.deepEqual(views.at(-1).moves, ['A1-A2', 'F6-F5', 'A2-A3']);
  assert.equal(views.at(-1).status, 'finished');
  assert.equal(views.length, 3, 'one view per batch');
  // An undo comes with the whole view, which replaces the moves held.
  socket.serverSays({ type: 'event', version: 8, event: { kind: 'undo', keep: 1 }, game: { ...fixed, version: 8, status: 'playing', moves: ['A1-A2'] } });
  assert.deepEqual(views.at(-1).moves, ['A1-A2']);
  connection.close();
});

test('moves that do not add up to the delta count make the socket start again', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
  const views = [];
  const { connection, seen } = connect(views);
  const socket = FakeSocket.all[0];
  socket.accept(3);
  socket.serverSays({ type: 'event', version: 4, event: { kind: 'draw_offered', side: 'dark' }, delta: { version: 4, move_count: 1 } });
  assert.equal(views.length, 1, 'the wrong view is not shown');
  assert.equal(seen.states.at(-1), 'reconnecting');
  t.mock.timers.tick(10000);
  FakeSocket.all[1].accept(4);
  assert.deepEqual(FakeSocket.all[1].sent[0], { type: 'hello', heartbeat: true, token: 'token1', since: 4 });
  connection.close();
});
