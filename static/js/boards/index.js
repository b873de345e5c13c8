// @ts-check
// Which board draws which variant.
import * as petteia from './petteia.js';
import * as pente from './pente.js';
import * as duodecim from './duodecim.js';
import { sideLabel, t } from '../i18n.js';

/**
 * A board module: `parse` reads a position string into a model, `render` draws that model,
 * `taken` names the places where a move took (Petteia) or hit (the dice games) the other side;
 * `removed`, Pente Grammai's, where the mover's own counters were removed after its turn.
 * @typedef {{ parse: (position: string) => object, render: (model: any, ctx: import('../svg.js').BoardContext) => SVGElement,
 *   taken: (before: any, after: any, mover: string) => string[],
 *   removed?: (before: any, after: any, mover: string, move: string) => string[], FACES?: object }} Board
 */

/**
 * @param {string} variantId
 * @returns {Board}
 */
export function boardFor(variantId) {
  if (variantId.startsWith('petteia')) return petteia;
  if (variantId.startsWith('pente-grammai')) return pente;
  if (variantId.startsWith('duodecim')) return duodecim;
  throw new Error(`no board for ${variantId}`);
}

/**
 * The start position of each variant (docs/RULES.md), for the rules and printable pages.
 * @type {Record<string, string>}
 */
export const START = {
  'petteia-6': 'DDDDDD/6/6/6/6/LLLLLL l 0 1',
  'petteia-8': 'DDDDDDDD/8/8/8/8/8/8/LLLLLLLL l 0 1',
  'pente-grammai-schaedler': 'T/T/T/T/T/B/B/B/B/B t',
  'pente-grammai-kidd': '-/-/-/-/-/-/-/-/-/- t r:5,5 h:0,0',
  'pente-grammai-perimeter': 'T/T/T/T/T/B/B/B/B/B t x:0,0',
  'duodecim-scripta': '.,.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,. w r:15,15 o:0,0 dice:[] bonus:[]',
};

/** A side's name in the page's language (`light` → Light / Clair). */
export const sideName = sideLabel;

/**
 * What `move` took off the board, in a sentence for the screen reader (its notation does not say
 * that "E3-C3" took C2): read off the positions before and after it. Empty when it took nothing,
 * or when a position does not read.
 * @param {string} variant
 * @param {string} beforePosition
 * @param {string} afterPosition
 * @param {string} move
 * @returns {string}
 */
export function takenSentence(variant, beforePosition, afterPosition, move) {
  const board = boardFor(variant);
  let before;
  let after;
  try {
    before = /** @type {{ toMove: string }} */ (board.parse(beforePosition));
    after = /** @type {{ removed?: object | null }} */ (board.parse(afterPosition));
  } catch {
    // A position the board cannot read: nothing to add to the move, which was said.
    return '';
  }
  const mover = before.toMove;
  // Pente Grammai's places are numbers: named as its board names them ("point 6").
  const named = (/** @type {string[]} */ places) => (variant.startsWith('pente') ? places.map((p) => t('place.point', { p })) : places).join(', ');
  const took = board.taken(before, after, mover);
  // Only Perimeter Line Battle removes counters (its position keeps them in a tray, `x:`).
  const lost = board.removed && after.removed ? board.removed(before, after, mover, move) : [];
  return [
    took.length ? t(variant.startsWith('petteia') ? 'announce.captured' : 'announce.hit', { side: sideName(mover), places: named(took) }) : '',
    lost.length ? t('announce.removed', { side: sideName(mover), places: named(lost) }) : '',
  ].filter(Boolean).join(' ');
}
