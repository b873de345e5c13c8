// The game's WebSocket: hello with the seat token, then snapshots and events. When the socket
// drops it reconnects by itself, with growing pauses, and resumes with `since` = the last version
// seen, so nothing is missed and nothing is shown twice.

export class GameConnection {
  /**
   * @param {string} gameId
   * @param {string|null} token
   * @param {{onView: (view) => void, onState: (state: string) => void, onError: (msg) => void}} handlers
   */
  constructor(gameId, token, handlers) {
    this.gameId = gameId;
    this.token = token;
    this.handlers = handlers;
    this.lastVersion = null;
    this.retries = 0;
    this.closed = false;
    this.socket = null;
    this.pingTimer = null;
    this.open();
  }

  open() {
    if (this.closed) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const url = `${scheme}://${location.host}/api/v1/games/${encodeURIComponent(this.gameId)}/ws`;
    const socket = new WebSocket(url);
    this.socket = socket;
    this.handlers.onState(this.retries ? 'reconnecting' : 'connecting');
    socket.addEventListener('open', () => {
      if (this.closed) return;
      const hello = { type: 'hello' };
      if (this.token) hello.token = this.token;
      if (this.lastVersion !== null) hello.since = this.lastVersion;
      socket.send(JSON.stringify(hello));
      this.retries = 0;
      this.handlers.onState('connected');
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: 'ping' }), 25000);
    });
    socket.addEventListener('message', (message) => this.receive(message.data));
    socket.addEventListener('close', () => {
      clearInterval(this.pingTimer);
      if (this.socket !== socket || this.closed) return;
      this.handlers.onState('disconnected');
      const pause = Math.min(10000, 500 * 2 ** this.retries);
      this.retries += 1;
      this.retryTimer = setTimeout(() => this.open(), pause);
    });
    socket.addEventListener('error', () => {
      // A close event follows; reconnection happens there.
    });
  }

  receive(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    if (message.type === 'snapshot' || message.type === 'event') {
      if (message.version !== undefined) this.lastVersion = Math.max(this.lastVersion ?? 0, message.version);
      if (message.game && typeof message.game === 'object') {
        this.lastVersion = Math.max(this.lastVersion ?? 0, message.game.version);
        this.handlers.onView(message.game, message.type === 'event' ? message.event : null);
      }
    } else if (message.type === 'error') {
      this.handlers.onError(message);
    }
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  /** Drops the socket as a network failure would (used to resume with `since`). */
  drop() {
    if (this.socket) this.socket.close();
  }

  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    const socket = this.socket;
    if (!socket) return;
    // Closing a socket that is still connecting makes the browser log an error; close it once open.
    if (socket.readyState === WebSocket.CONNECTING) socket.addEventListener('open', () => socket.close());
    else socket.close();
  }
}
