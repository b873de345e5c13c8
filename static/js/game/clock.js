// @ts-check
// The clocks as the page shows them: the server's reading at the last view, run down locally
// between views. Pure functions; the screen calls them on every tick.

/**
 * `m:ss`, with tenths under ten seconds after the reader's decimal mark (`0:07.9`, `0:07,9`).
 * @param {number} ms
 * @param {string} [decimal]
 */
export function formatClock(ms, decimal = '.') {
  const clamped = Math.max(0, ms);
  const minutes = Math.floor(clamped / 60000);
  const seconds = String(Math.floor((clamped % 60000) / 1000)).padStart(2, '0');
  if (clamped < 10000) return `${minutes}:${seconds}${decimal}${Math.floor((clamped % 1000) / 100)}`;
  return `${minutes}:${seconds}`;
}

/**
 * A duration counted up from zero, `m:ss` (how long the opponent has been away).
 * @param {number} ms
 */
export function formatElapsed(ms) {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * What one side's clock shows `elapsedMs` after the view arrived.
 * @param {import('../api.js').GameView} view
 * @param {string} side
 * @param {number} elapsedMs
 * @returns {{ ms: number | null, running: boolean }}
 */
export function clockReading(view, side, elapsedMs) {
  const playing = view.status === 'playing';
  if (!view.clocks) return { ms: null, running: playing && view.to_move === side };
  const running = playing && view.clocks.running === side;
  return { ms: view.clocks[side] - (running ? elapsedMs : 0), running };
}
