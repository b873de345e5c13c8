// @ts-check
// A die drawn in SVG, its pips placed as on a real one.
import { svg } from '../svg.js';
import { t } from '../i18n.js';

/** @type {Record<number, number[][]>} */
const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[28, 28], [50, 50], [72, 72]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 25], [72, 25], [28, 50], [72, 50], [28, 75], [72, 75]],
};

/**
 * The dice of a turn as shown: the whole roll in its order, each die already played marked
 * `used` (as good backgammon sites grey it out, rather than take it away). `left` are the dice
 * still to play; without the roll, or when `left` is not part of it, they alone.
 * @param {number[] | null} rolled
 * @param {number[]} left
 * @returns {{ value: number, used: boolean }[]}
 */
export function diceOfTurn(rolled, left) {
  const unplayed = [...left];
  const shown = (rolled || []).map((value) => {
    const at = unplayed.indexOf(value);
    if (at >= 0) unplayed.splice(at, 1);
    return { value, used: at < 0 };
  });
  return rolled && unplayed.length === 0 ? shown : left.map((value) => ({ value, used: false }));
}

/**
 * @param {number} value
 * @param {string} [extraClass]
 * @param {boolean} [used] already played this turn
 */
export function die(value, extraClass = '', used = false) {
  const label = t(used ? 'game.die_played' : 'game.die', { value });
  return svg('svg', { viewBox: '0 0 100 100', class: `die ${used ? 'used' : extraClass}`, role: 'img', 'aria-label': label }, [
    svg('rect', { x: 4, y: 4, width: 92, height: 92, rx: 16, class: 'die-face' }),
    ...(PIPS[value] || []).map(([cx, cy]) => svg('circle', { cx, cy, r: 9, class: 'pip' })),
  ]);
}
