// @ts-check
// A small helper to build SVG (and HTML) elements without string concatenation, and what every
// board shares: places, stacks of pieces, the ends of a move.
import { t } from './i18n.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * @typedef {Node | string | null | undefined | false} Child
 * @typedef {Record<string, unknown>} Attrs
 */

/**
 * @param {string} tag
 * @param {Attrs} [attrs]
 * @param {Child | Child[]} [children]
 * @returns {SVGElement}
 */
export function svg(tag, attrs = {}, children = []) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value !== undefined && value !== null && value !== false) node.setAttribute(key, String(value));
  }
  appendChildren(node, children);
  return node;
}

/**
 * @param {Element} node
 * @param {Child | Child[]} children
 */
function appendChildren(node, children) {
  for (const child of Array.isArray(children) ? children : [children]) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
}

/**
 * @param {string} tag
 * @param {Attrs} [attrs] `class`, `text`, `on<event>` handlers, and attributes
 * @param {Child | Child[]} [children]
 * @returns {HTMLElement}
 */
export function html(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = String(value);
    else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), /** @type {EventListener} */ (value));
    else if (key === 'text') node.textContent = String(value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  appendChildren(node, children);
  return node;
}

/**
 * What a board is drawn with: whose side is at the bottom, and what the player may do.
 * @typedef {{ bottom: string, movable?: Set<string | undefined>, destinations?: Map<string, string[]>,
 *   selected?: string | null, threatened?: Set<string> | null,
 *   odds?: Record<string, { hits: number, of: number }> | null, face?: string,
 *   lastMove?: Set<string | undefined> | null }} BoardContext
 */

/**
 * A place a piece can stand on or move to: an invisible hit area carrying `data-place`, with the
 * classes and keyboard access the game screen relies on. Every place is focusable (the arrow
 * keys move across all of them); Tab stops only where there is something to do.
 * @param {string} place
 * @param {BoardContext} ctx
 * @param {string} label what stands there, for screen readers ("D4, light piece")
 */
export function placeAttrs(place, ctx, label) {
  const movable = ctx.movable && ctx.movable.has(place);
  const dest = ctx.destinations && ctx.destinations.has(place);
  const classes = ['place'];
  if (movable) classes.push('movable');
  if (dest) classes.push('dest');
  if (ctx.selected === place) classes.push('selected');
  const interactive = movable || dest;
  // What the eye reads off the board, said too: the piece picked up, a piece under threat.
  const threatened = ctx.threatened && ctx.threatened.has(place);
  return {
    'data-place': place,
    class: classes.join(' '),
    tabindex: interactive ? 0 : -1,
    role: 'button',
    'aria-disabled': interactive ? undefined : 'true',
    'aria-pressed': movable ? String(ctx.selected === place) : undefined,
    'aria-label': label + (threatened ? t('place.threatened') : '') + (movable ? t('place.can_move') : '') + (dest ? t('place.destination') : ''),
  };
}

/**
 * A tray's attributes: a place to play from when `place` is given (its side is to move), else a
 * picture that says whose tray it is and what it holds (its loose words read "Black reserve 0").
 * @param {string | null} place
 * @param {BoardContext} ctx
 * @param {string} label
 */
export function trayAttrs(place, ctx, label) {
  return place ? placeAttrs(place, ctx, label) : { class: 'tray', role: 'img', 'aria-label': label };
}

/**
 * A counter or stack of pieces with its count when more than one.
 * @param {number} x
 * @param {number} y
 * @param {number} r
 * @param {string} side
 * @param {number} count
 * @param {Attrs} [extra]
 */
export function stack(x, y, r, side, count, extra = {}) {
  if (!count) return null;
  const group = svg('g', { class: `piece piece-${side}`, ...extra });
  group.append(svg('circle', { cx: x, cy: y, r, class: 'disc' }));
  if (count === 1) group.append(svg('circle', { cx: x, cy: y, r: r * 0.62, class: 'ring' }));
  if (count > 1) {
    group.append(svg('text', { x, y: y + r * 0.36, 'text-anchor': 'middle', class: `count count-${side}`, 'font-size': r }, String(count)));
  }
  return group;
}

/**
 * Strips `<die>:` from a move: `3:4-7` → {die: 3, from: '4', to: '7'}; pass/decline → {special}.
 * @param {string} move
 * @returns {{ die: number | null, from?: string, to?: string, special?: string, move: string }}
 */
export function moveEnds(move) {
  let die = null;
  let rest = move;
  const m = /^(\d):(.*)$/.exec(move);
  if (m) {
    die = Number(m[1]);
    rest = m[2];
  }
  const parts = rest.split('-');
  if (parts.length !== 2) return { die, special: rest, move };
  return { die, from: parts[0].replace(/\*$/, ''), to: parts[1].replace(/\*$/, ''), move };
}

/**
 * Each place is named by its label ("D4, light piece"); the numbers and letters drawn on it are for
 * the eye and move to a layer above the board, so that a place's name and its content agree (as
 * axe's label-content-name-mismatch rule checks). Places are drawn without transforms, so every
 * text keeps its position. A text of the board itself (`under-pieces`, aria-hidden: Duodecim's
 * inscriptions) stays where it is drawn, under the pieces that stand on it.
 * @param {SVGElement} board
 */
export function withPlaceNames(board) {
  const layer = svg('g', { class: 'place-texts', 'aria-hidden': 'true' });
  for (const text of board.querySelectorAll('[data-place] text:not(.under-pieces)')) layer.append(text);
  board.append(layer);
  return board;
}

/**
 * Scrolls `list` (and nothing around it) just enough to show `item`: the move shown in a long
 * game's list, an offer's answers in a panel that scrolls on its own. Nothing moves when `list`
 * does not scroll.
 * @param {HTMLElement} list
 * @param {Element} item
 */
export function keepInView(list, item) {
  const [outer, inner] = [list.getBoundingClientRect(), item.getBoundingClientRect()];
  if (inner.top < outer.top) list.scrollTop -= outer.top - inner.top;
  else if (inner.bottom > outer.bottom) list.scrollTop += inner.bottom - outer.bottom;
}
