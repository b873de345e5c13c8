// @ts-check
// The game's WebSocket (docs/PROTOCOL.md): hello with the seat token, then snapshots and events.
// A snapshot brings the whole view; an event brings what changed (`delta`), which this module
// joins with the view it holds into the next whole view: the fields that never change come from
// the last whole view, the moves from the `move` events.
// It checks its own health: a ping every PING_EVERY_MS, and right after a move is sent; no answer
// within PONG_WITHIN_MS means the link is dead even if the browser still calls it open (a link
// that silently drops packets). It then reconnects, with growing pauses, resumes with `since` =
// the last version seen, and resends the move not yet acknowledged with the same id, which the
// server plays at most once (and plays even if a restart's `clocks_paused` and `clock_started`
// came between: a move is stale only when the board changed, docs/PROTOCOL.md §3).

export const PING_EVERY_MS = 10000;
export const PONG_WITHIN_MS = 4000;

/** @typedef {'connecting' | 'connected' | 'reconnecting'} ConnectionState */
/** @typedef {{ move: string, version: number, id: string }} PendingMove */
/**
 * @typedef {{
 *   onView: (view: import('./api.js').GameView) => void,
 *   onEvent: (event: import('./api.js').GameEvent) => void,
 *   onState: (state: ConnectionState) => void,
 *   onPending: (pending: PendingMove | null) => void,
 *   onError: (error: { code: string, message: string, reason?: string }) => void,
 * }} Handlers
 */

/** The fields of a view that a delta leaves out because they never change (docs/PROTOCOL.md §3). */
const FIXED_FIELDS = /** @type {const} */ (['game_id', 'variant', 'mode', 'sides', 'level', 'commitment']);

const moveId = () => `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

export class GameConnection {
  /**
   * @param {string} gameId
   * @param {string | null} token
   * @param {Handlers} handlers
   */
  constructor(gameId, token, handlers) {
    this.gameId = gameId;
    this.token = token;
    this.handlers = handlers;
    /** @type {number | null} */
    this.lastVersion = null;
    this.retries = 0;
    /** Whether this socket has had its snapshot since the hello. */
    this.greeted = false;
    this.closed = false;
    /** @type {WebSocket | null} */
    this.socket = null;
    /** @type {PendingMove | null} */
    this.pending = null;
    /** @type {number | null} the version the pending move was acknowledged with, until the view reaches it */
    this.ackedAt = null;
    /** The last whole view, and its moves with those played since. @type {import('./api.js').GameView | null} */
    this.view = null;
    /** @type {string[]} */
    this.moves = [];
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.pingTimer = undefined;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.pongTimer = undefined;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.retryTimer = undefined;
    // The network back (or a laptop woken): try again now, not at the end of the pause, which
    // grows to 10 s (a spectators' audit: up to 10 s more after the Wi-Fi came back).
    this.retryNow = () => {
      if (this.closed || this.socket || this.retryTimer === undefined) return;
      clearTimeout(this.retryTimer);
      this.retryTimer = undefined;
      this.open();
    };
    globalThis.addEventListener?.('online', this.retryNow);
    this.open();
  }

  open() {
    if (this.closed) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const socket = new WebSocket(`${scheme}://${location.host}/api/v1/games/${encodeURIComponent(this.gameId)}/ws`);
    this.socket = socket;
    this.greeted = false;
    this.handlers.onState(this.retries ? 'reconnecting' : 'connecting');
    socket.addEventListener('open', () => {
      if (this.socket !== socket) return;
      // The pings below are its heartbeat: a page that stops (a frozen tab, whose browser still
      // answers the server's pings) stops counting its player present (docs/PROTOCOL.md §4).
      /** @type {{ type: 'hello', heartbeat: true, token?: string, since?: number }} */
      const hello = { type: 'hello', heartbeat: true };
      if (this.token) hello.token = this.token;
      if (this.lastVersion !== null) hello.since = this.lastVersion;
      socket.send(JSON.stringify(hello));
      this.pingTimer = setInterval(() => this.checkHealth(), PING_EVERY_MS);
    });
    socket.addEventListener('message', (message) => {
      if (this.socket === socket) this.receive(message.data);
    });
    socket.addEventListener('close', () => {
      if (this.socket === socket) this.lost();
    });
  }

  /** The link is dead or closed: forget this socket and open another after a pause. */
  lost() {
    const socket = this.socket;
    this.socket = null;
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    this.pongTimer = undefined;
    if (socket && socket.readyState <= WebSocket.OPEN) socket.close();
    if (this.closed) return;
    this.handlers.onState('reconnecting');
    const pause = Math.min(10000, 300 * 2 ** this.retries);
    this.retries += 1;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.open();
    }, pause);
  }

  /** Sends a ping unless one is already waiting for its pong. */
  checkHealth() {
    if (this.pongTimer !== undefined) return;
    if (!this.send({ type: 'ping' })) return;
    this.pongTimer = setTimeout(() => this.lost(), PONG_WITHIN_MS);
  }

  /** @param {string} data */
  receive(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    // Anything from the server shows the link is alive.
    clearTimeout(this.pongTimer);
    this.pongTimer = undefined;
    if (message.type === 'snapshot' || message.type === 'event') {
      if (typeof message.version === 'number') this.lastVersion = Math.max(this.lastVersion ?? 0, message.version);
      if (message.type === 'event' && message.event) {
        if (message.event.kind === 'move' && typeof message.event.move === 'string') this.moves.push(message.event.move);
        this.handlers.onEvent(message.event);
      }
      if (message.game && typeof message.game === 'object') this.show(message.game);
      else if (message.delta && typeof message.delta === 'object') this.applyDelta(message.delta);
      if (message.type === 'snapshot' && !this.greeted) this.resynced();
    } else if (message.type === 'ack') {
      if (this.pending && message.id === this.pending.id) {
        // The ack comes before the move's events: settled once the view has reached it, so that
        // the page never shows the position before the move as still its turn (a screen reader
        // said "Your move" between "Sending" and the opponent's turn).
        if (typeof message.version === 'number' && message.version > (this.lastVersion ?? 0)) this.ackedAt = message.version;
        else this.settle();
      }
    } else if (message.type === 'error') {
      if (this.pending && message.id === this.pending.id) this.settle();
      this.handlers.onError(message);
    }
  }

  /** @param {import('./api.js').GameView} view a whole view */
  show(view) {
    this.view = view;
    this.moves = [...view.moves];
    this.lastVersion = Math.max(this.lastVersion ?? 0, view.version);
    this.handlers.onView(view);
    this.settleIfShown();
  }

  /** A move acknowledged is settled once the view shows it. */
  settleIfShown() {
    if (this.pending && this.ackedAt !== null && (this.lastVersion ?? 0) >= this.ackedAt) this.settle();
  }

  /**
   * Joins what changed with the view held. Moves that do not add up (which the protocol rules
   * out) mean this view is wrong: the socket starts again and resumes with a snapshot.
   * @param {{ move_count: number } & Partial<import('./api.js').GameView>} delta
   */
  applyDelta(delta) {
    const held = this.view;
    if (!held || this.moves.length !== delta.move_count) {
      this.lost();
      return;
    }
    /** @type {Record<string, unknown>} */
    const changed = { ...delta };
    delete changed.move_count;
    /** @type {Record<string, unknown>} */
    const fixed = {};
    for (const field of FIXED_FIELDS) if (field in held) fixed[field] = held[field];
    const view = /** @type {import('./api.js').GameView} */ ({ ...fixed, ...changed, moves: [...this.moves] });
    this.view = view;
    this.lastVersion = Math.max(this.lastVersion ?? 0, view.version);
    this.handlers.onView(view);
    this.settleIfShown();
  }

  /** After the hello's snapshot: the link works; a move sent before it broke goes again. */
  resynced() {
    this.greeted = true;
    this.retries = 0;
    this.handlers.onState('connected');
    this.sendPending();
  }

  settle() {
    this.pending = null;
    this.ackedAt = null;
    this.handlers.onPending(null);
  }

  sendPending() {
    if (!this.pending) return;
    if (this.send({ type: 'move', ...this.pending })) this.checkHealth();
  }

  /**
   * Plays a move: it stays pending until the server acknowledges or refuses it.
   * @param {string} move
   * @param {number} version the version the move was chosen at
   */
  sendMove(move, version) {
    this.pending = { move, version, id: moveId() };
    this.handlers.onPending(this.pending);
    this.sendPending();
  }

  /**
   * @param {object} message
   * @returns {boolean} whether it went out
   */
  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    globalThis.removeEventListener?.('online', this.retryNow);
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    clearTimeout(this.retryTimer);
    const socket = this.socket;
    this.socket = null;
    if (!socket) return;
    // Closing a socket that is still connecting makes the browser log an error; close it once open.
    if (socket.readyState === WebSocket.CONNECTING) socket.addEventListener('open', () => socket.close());
    else socket.close();
  }
}
