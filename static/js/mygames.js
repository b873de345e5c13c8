// @ts-check
// The games this browser holds seats in, for the home page: the ones being played first (those
// where it is your turn marked and on top), then the most recently opened finished ones.
import { mySide, isMyTurn, endSummary } from './game/panels.js';
import { t } from './i18n.js';

/** @typedef {{ view: import('./api.js').GameView, opened: number }} SeatGame */

export const RECENT_FINISHED = 5;

/**
 * @param {SeatGame[]} games
 * @returns {{ playing: SeatGame[], finished: SeatGame[] }}
 */
export function orderMyGames(games) {
  const byOpened = [...games].sort((a, b) => b.opened - a.opened);
  const live = byOpened.filter((g) => g.view.status === 'playing' || g.view.status === 'waiting');
  return {
    playing: [...live.filter((g) => isMyTurn(g.view)), ...live.filter((g) => !isMyTurn(g.view))],
    finished: byOpened.filter((g) => g.view.status === 'finished' || g.view.status === 'aborted').slice(0, RECENT_FINISHED),
  };
}

/**
 * One line about a game's state, as the list shows it.
 * @param {import('./api.js').GameView} view
 */
export function gameLine(view) {
  if (view.status === 'waiting') return t('mygames.waiting');
  if (view.status === 'playing') {
    if (isMyTurn(view)) return t('mygames.your_turn');
    if (view.seat?.both) return t('mygames.local');
    return mySide(view) ? t('mygames.their_turn') : t('mygames.playing');
  }
  return endSummary(view)?.result || view.status;
}
