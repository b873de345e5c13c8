// @ts-check
// Choosing a move on the board: click a movable piece then a destination, drag it, or by
// keyboard (Tab reaches the pieces that can move and their destinations, arrow keys move the
// focus across every place, Enter or Space picks). It owns the selection and nothing else: the
// screen draws it and sends the move.
import { moveEnds, svg } from '../svg.js';

/** @typedef {{ from?: string, to?: string, move: string }} Ends */

export class BoardInput {
  /**
   * @param {HTMLElement} holder the element the board is drawn in
   * @param {{ legal: () => Ends[], redraw: () => void, play: (move: string) => void, choose: (moves: string[]) => void }} hooks
   *   `choose`: several moves lead to the place picked (two dice bear the same piece off)
   */
  constructor(holder, hooks) {
    this.holder = holder;
    this.hooks = hooks;
    /** @type {string | null} */
    this.selected = null;
    holder.addEventListener('pointerdown', (e) => this.pointerDown(e));
    holder.addEventListener('keydown', (e) => this.keyDown(e));
  }

  /**
   * Click or Enter on a place: select a piece, or move the selected one there.
   * @param {string} place
   * @returns {'played' | 'choosing' | 'selected' | 'none'} what it did
   */
  activate(place) {
    const legal = this.hooks.legal();
    if (this.selected) {
      const moves = legal.filter((m) => m.from === this.selected && m.to === place);
      if (moves.length === 1) {
        this.selected = null;
        this.hooks.play(moves[0].move);
        return 'played';
      }
      if (moves.length > 1) {
        // The choice buttons name each move: the choosing goes on there.
        this.hooks.choose(moves.map((m) => m.move));
        return 'choosing';
      }
    }
    this.selected = place !== this.selected && legal.some((m) => m.from === place) ? place : null;
    this.hooks.redraw();
    return this.selected ? 'selected' : 'none';
  }

  /**
   * Selects the piece a move starts from (a hint).
   * @param {string} move
   */
  selectFrom(move) {
    this.selected = moveEnds(move).from || null;
    this.hooks.redraw();
  }

  /** @param {Element | null} target */
  placeOf(target) {
    const el = target && target.closest ? /** @type {SVGElement | null} */ (target.closest('[data-place]')) : null;
    return el && this.holder.contains(el) ? el : null;
  }

  /** @param {KeyboardEvent} event */
  keyDown(event) {
    const placeEl = this.placeOf(/** @type {Element} */ (event.target));
    if (!placeEl) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      // A piece picked up: the focus goes to its first destination, which may come before it in
      // the Tab order (a piece entering from Duodecim's reserve, drawn below the board). Two
      // dice to the same place: the focus stays on the choice buttons `choose` went to (it was
      // taken back to the destination, and Enter there did nothing).
      if (this.activate(placeEl.dataset.place || '') === 'selected') /** @type {SVGElement | null} */ (this.holder.querySelector('[data-place].dest'))?.focus();
      return;
    }
    // Escape puts down the piece picked up.
    if (event.key === 'Escape' && this.selected) {
      event.preventDefault();
      const from = this.selected;
      this.selected = null;
      this.hooks.redraw();
      /** @type {SVGElement | null} */ (this.holder.querySelector(`[data-place="${CSS.escape(from)}"]`))?.focus();
      return;
    }
    focusByArrow(event, placeEl, [...this.holder.querySelectorAll('[data-place]')]);
  }

  /** @param {PointerEvent} event */
  pointerDown(event) {
    const placeEl = this.placeOf(/** @type {Element} */ (event.target));
    if (!placeEl || event.button > 0) return;
    const start = placeEl.dataset.place || '';
    const legal = this.hooks.legal();
    const wasSelected = this.selected;
    const canDrag = legal.some((m) => m.from === start) && !(wasSelected && legal.some((m) => m.from === wasSelected && m.to === start));
    if (!canDrag) {
      this.activate(start);
      return;
    }
    event.preventDefault();
    if (wasSelected !== start) {
      this.selected = start;
      this.hooks.redraw();
    }
    const svgRoot = /** @type {SVGSVGElement | null} */ (this.holder.querySelector('svg'));
    if (!svgRoot) return;
    /** @type {SVGCircleElement | null} */
    let ghost = null;
    let moved = false;
    const startX = event.clientX;
    const startY = event.clientY;
    /** @param {PointerEvent} e */
    const move = (e) => {
      if (!moved && Math.hypot(e.clientX - startX, e.clientY - startY) < 6) return;
      moved = true;
      const matrix = svgRoot.getScreenCTM();
      if (!matrix) return;
      const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(matrix.inverse());
      if (!ghost) {
        ghost = /** @type {SVGCircleElement} */ (svg('circle', { r: 20, class: 'drag-ghost' }));
        svgRoot.append(ghost);
      }
      ghost.setAttribute('cx', String(p.x));
      ghost.setAttribute('cy', String(p.y));
    };
    /** @param {PointerEvent} e */
    const up = (e) => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', up);
      ghost?.remove();
      if (!moved) {
        if (wasSelected === start) {
          this.selected = null;
          this.hooks.redraw();
        }
        return;
      }
      const target = this.placeOf(document.elementFromPoint(e.clientX, e.clientY));
      if (target && target.dataset.place !== start) this.activate(target.dataset.place || '');
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', up);
  }
}

/**
 * An arrow key on a place: the focus goes to the nearest place that way (the game's board and the
 * analysis board alike). Whether the key was an arrow.
 * @param {KeyboardEvent} event
 * @param {Element} from
 * @param {Element[]} places
 */
export function focusByArrow(event, from, places) {
  const direction = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[event.key];
  if (!direction) return false;
  event.preventDefault();
  const next = nearestInDirection(from, places, direction);
  if (next) /** @type {SVGElement} */ (next).focus();
  return true;
}

/**
 * The place whose centre lies nearest in `direction` ([dx, dy] on screen) from `from`'s centre,
 * preferring places straight ahead over ones off to the side.
 * @param {Element} from
 * @param {Element[]} places
 * @param {number[]} direction
 */
function nearestInDirection(from, places, direction) {
  const centre = (/** @type {Element} */ el) => {
    const box = (el.querySelector('.hit') || el).getBoundingClientRect();
    return [box.x + box.width / 2, box.y + box.height / 2];
  };
  const [x0, y0] = centre(from);
  const [dx, dy] = direction;
  let best = null;
  let bestScore = Infinity;
  for (const el of places) {
    if (el === from) continue;
    const [x, y] = centre(el);
    const ahead = (x - x0) * dx + (y - y0) * dy;
    if (ahead < 1) continue;
    const aside = Math.abs((x - x0) * dy) + Math.abs((y - y0) * dx);
    const score = ahead + 2 * aside;
    if (score < bestScore) {
      bestScore = score;
      best = el;
    }
  }
  return best;
}
