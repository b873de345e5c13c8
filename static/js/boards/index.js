// @ts-check
// Which board draws which variant.
import * as petteia from './petteia.js';
import * as pente from './pente.js';
import * as duodecim from './duodecim.js';
import { sideLabel } from '../i18n.js';

/**
 * A board module: `parse` reads a position string into a model, `render` draws that model,
 * `taken` names the places where a move took (Petteia) or hit (the dice games) the other side.
 * @typedef {{ parse: (position: string) => object, render: (model: any, ctx: import('../svg.js').BoardContext) => SVGElement,
 *   taken: (before: any, after: any, mover: string) => string[], FACES?: object }} Board
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
