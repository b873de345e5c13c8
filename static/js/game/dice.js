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
 * @param {number} value
 * @param {string} [extraClass]
 */
export function die(value, extraClass = '') {
  return svg('svg', { viewBox: '0 0 100 100', class: `die ${extraClass}`, role: 'img', 'aria-label': t('game.die', { value }) }, [
    svg('rect', { x: 4, y: 4, width: 92, height: 92, rx: 16, class: 'die-face' }),
    ...(PIPS[value] || []).map(([cx, cy]) => svg('circle', { cx, cy, r: 9, class: 'pip' })),
  ]);
}
