// @ts-check
// Pente Grammai (docs/RULES.md §2): five lines, the sacred line 3 marked, the ten line ends numbered
// along the route. Terracotta sits at the bottom unless the seat says otherwise; then the board
// turns half round. Reserve (Kidd), holy line (Kidd) and removed counters (Perimeter) sit in trays.
import { svg, placeAttrs, trayAttrs, stack, withPlaceNames, moveEnds } from '../svg.js';
import { t, sideLabel } from '../i18n.js';

/** @typedef {'terracotta' | 'black'} Side */
/** @typedef {{ terracotta: number, black: number }} Counts */
/**
 * @typedef {{ points: Counts[], toMove: Side, reserve: Counts | null, holy: Counts | null,
 *   removed: Counts | null, threats: { against: Side, line: number }[] }} PenteModel
 */

/** @type {Record<string, Side>} */
const LETTER = { T: 'terracotta', B: 'black' };

/**
 * @param {string} text
 * @returns {Counts}
 */
function pair(text) {
  const [terracotta, black] = text.split(',').map(Number);
  return { terracotta: terracotta || 0, black: black || 0 };
}

/**
 * `T/T/T/T/T/B/B/B/B/B t x:0,0 th:b@1` → {points: [{terracotta, black}], toMove, reserve, holy, removed, threats}
 * @param {string} position
 * @returns {PenteModel}
 */
export function parse(position) {
  const [pointsText, side, ...rest] = position.trim().split(/\s+/);
  const points = pointsText.split('/').map((token) => {
    const counts = { terracotta: 0, black: 0 };
    if (token === '-') return counts;
    for (const m of token.matchAll(/(\d*)([TB])/g)) counts[LETTER[m[2]]] += m[1] ? Number(m[1]) : 1;
    return counts;
  });
  /** @type {PenteModel} */
  const model = { points, toMove: side === 'b' ? 'black' : 'terracotta', reserve: null, holy: null, removed: null, threats: [] };
  for (const field of rest) {
    const [key, value] = field.split(/:(.*)/);
    if (key === 'r') model.reserve = pair(value);
    else if (key === 'h') model.holy = pair(value);
    else if (key === 'x') model.removed = pair(value);
    else if (key === 'th') {
      model.threats = value.split(',').filter(Boolean).map((threat) => {
        const [s, line] = threat.split('@');
        return { against: s === 'b' ? 'black' : 'terracotta', line: Number(line) };
      });
    }
  }
  return model;
}

/**
 * The points where `mover`'s move from `before` to `after` hit a counter of the other side.
 * @param {PenteModel} before
 * @param {PenteModel} after
 * @param {string} mover
 * @returns {string[]}
 */
export function taken(before, after, mover) {
  const other = mover === 'black' ? 'terracotta' : 'black';
  return before.points.flatMap((counts, point) => ((after.points[point]?.[other] ?? 0) < counts[other] ? [String(point)] : []));
}

/**
 * The points where `mover`'s own counters were removed after its turn (Perimeter Line Battle,
 * docs/RULES.md §2.4: still outnumbered on a line threatened against it). The move itself
 * (`5:2-7`, `6:X-3`, `4:pass`) accounts for one counter leaving its point and one arriving.
 * @param {PenteModel} before
 * @param {PenteModel} after
 * @param {string} mover
 * @param {string} move
 * @returns {string[]}
 */
export function removed(before, after, mover, move) {
  const side = mover === 'black' ? 'black' : 'terracotta';
  const { from, to } = moveEnds(move);
  return before.points.flatMap((counts, point) => {
    const moved = (String(point) === from ? 1 : 0) - (String(point) === to ? 1 : 0);
    return counts[side] - moved > (after.points[point]?.[side] ?? 0) ? [String(point)] : [];
  });
}

/**
 * Line n joins points n−1 (Terracotta's right-hand end) and 10−n.
 * @param {number} p
 */
const lineOf = (p) => (p < 5 ? p + 1 : 10 - p);

/**
 * @param {PenteModel} model
 * @param {import('../svg.js').BoardContext} ctx
 */
export function render(model, ctx) {
  const width = 640;
  const height = 470;
  const flip = ctx.bottom === 'black';
  const top = 110;
  const gap = 62;
  const left = 110;
  const right = width - 110;
  const lineY = (/** @type {number} */ line) => (flip ? top + (line - 1) * gap : top + (5 - line) * gap);
  const pointXY = (/** @type {number} */ p) => {
    const rightEnd = p < 5;
    return { x: rightEnd !== flip ? right : left, y: lineY(lineOf(p)) };
  };
  const root = svg('svg', {
    viewBox: `0 0 ${width} ${height}`,
    class: 'board board-pente',
    role: 'group',
    'aria-label': t('board.pente', { side: sideLabel(flip ? 'black' : 'terracotta') }),
  });
  root.append(svg('rect', { x: 0, y: 0, width, height, class: 'frame', rx: 8 }));
  // Kidd's holy line: a tray for each side's half of the sacred line, near its own goal, the top
  // side's above the line's right half and the bottom side's below its left half (in either
  // orientation). The sacred line's caption is centred in the room left of the top tray, where
  // the longer French caption fits too.
  const holy = model.holy;
  const holyInset = 82;
  const holyHalfWidth = 42;
  const captionX = (/** @type {number} */ line) => (holy && line === 3 ? (left + 30 + right - holyInset - holyHalfWidth) / 2 : width / 2);
  for (let line = 1; line <= 5; line += 1) {
    const y = lineY(line);
    const sacred = line === 3;
    root.append(svg('line', { x1: left, y1: y, x2: right, y2: y, class: sacred ? 'line sacred' : 'line' }));
    const threat = model.threats.find((th) => th.line === line);
    if (threat) {
      root.append(svg('line', { x1: left + 30, y1: y, x2: right - 30, y2: y, class: 'line-threat' }));
      root.append(svg('text', { x: captionX(line), y: y - 8, 'text-anchor': 'middle', class: 'threat-label' }, t('board.threat', { line, side: sideLabel(threat.against) })));
    } else {
      root.append(svg('text', { x: captionX(line), y: y - 8, 'text-anchor': 'middle', class: sacred ? 'line-label sacred-label' : 'line-label' }, sacred ? t('board.sacred') : t('board.line', { line })));
    }
  }
  if (holy) {
    for (const side of /** @type {Side[]} */ (['terracotta', 'black'])) {
      const goal = pointXY(side === 'terracotta' ? 7 : 2);
      const x = goal.x + (goal.x < width / 2 ? holyInset : -holyInset);
      const y = lineY(3) + (side === ctx.bottom ? 22 : -22);
      const place = side === model.toMove ? 'H' : null;
      const g = svg('g', { ...trayAttrs(place, ctx, t('place.holy', { side: sideLabel(side), n: holy[side] })), 'data-tray': 'H', 'data-side': side });
      const box = { x: x - holyHalfWidth, y: y - 17, width: 2 * holyHalfWidth, height: 34 };
      g.append(svg('rect', { ...box, rx: 17, class: 'holy' }));
      // The word has some 38 units left of the count: a longer one than "holy" (French "sainte")
      // is narrowed to them rather than run out of its box.
      const label = t('board.holy');
      const fit = label.length > 4 ? { textLength: 38, lengthAdjust: 'spacingAndGlyphs' } : {};
      g.append(svg('text', { x: x - 18, y: y + 5, class: 'tray-label', 'text-anchor': 'middle', ...fit }, label));
      g.append(stack(x + 22, y, 14, side, holy[side]) || svg('text', { x: x + 22, y: y + 5, 'text-anchor': 'middle', class: 'tray-label' }, '0'));
      if (place) g.append(svg('rect', { ...box, class: 'hit' }));
      root.append(g);
    }
  }
  for (let p = 0; p < 10; p += 1) {
    const { x, y } = pointXY(p);
    const counts = model.points[p];
    const sacred = p === 2 || p === 7;
    const label = t('place.point', { p })
      + (counts.terracotta ? t('place.counters_terracotta', { n: counts.terracotta }) : '')
      + (counts.black ? t('place.counters_black', { n: counts.black }) : '')
      + (counts.terracotta || counts.black ? '' : t('place.point_empty'));
    const g = svg('g', placeAttrs(String(p), ctx, label));
    g.append(svg('circle', { cx: x, cy: y, r: 26, class: sacred ? 'point sacred-point' : 'point' }));
    const outward = x < width / 2 ? -1 : 1;
    g.append(svg('text', { x: x + outward * 48, y: y + 6, 'text-anchor': 'middle', class: 'point-number' }, String(p)));
    if (ctx.lastMove && ctx.lastMove.has(String(p))) g.append(svg('circle', { cx: x, cy: y, r: 29, class: 'last-move' }));
    const both = counts.terracotta && counts.black;
    for (const [side, dx] of /** @type {[Side, number][]} */ ([['terracotta', -11], ['black', 11]])) {
      const pieces = stack(both ? x + dx : x, y, both ? 15 : 20, side, counts[side]);
      if (pieces) g.append(pieces);
    }
    if (ctx.threatened && ctx.threatened.has(String(p))) g.append(svg('circle', { cx: x, cy: y, r: 31, class: 'threat' }));
    if (ctx.destinations && ctx.destinations.has(String(p))) {
      // A numbered marker on the line, inward of the point (Perimeter re-entry offers five at once).
      g.append(svg('circle', { cx: x, cy: y, r: 31, class: 'dest-ring' }));
      g.append(svg('circle', { cx: x - outward * 46, cy: y, r: 13, class: 'dest-marker numbered' }));
      g.append(svg('text', { x: x - outward * 46, y: y + 5, 'text-anchor': 'middle', class: 'dest-number' }, String(p)));
    }
    g.append(svg('circle', { cx: x, cy: y, r: 30, class: 'hit' }));
    root.append(g);
  }
  // Trays: reserve (Kidd) and removed (Perimeter), the bottom side's below the lines.
  /** @type {[string, string, Counts][]} */
  const trays = [];
  if (model.reserve) trays.push(['R', 'reserve', model.reserve]);
  if (model.removed) trays.push(['X', 'removed', model.removed]);
  for (const side of /** @type {Side[]} */ (['terracotta', 'black'])) {
    const y = side === ctx.bottom ? height - 40 : 40;
    const name = sideLabel(side);
    // Each tray says its side: the name beside them is for the eye.
    root.append(svg('text', { x: 20, y: y + 5, class: 'tray-side', 'aria-hidden': 'true' }, name));
    trays.forEach(([zone, title, counts], i) => {
      const x = 220 + i * 200;
      const place = side === model.toMove ? zone : null;
      const g = svg('g', { ...trayAttrs(place, ctx, t('place.tray', { side: name, tray: t(`board.${title}`), n: counts[side] })), 'data-tray': zone, 'data-side': side });
      g.append(svg('rect', { x: x - 70, y: y - 20, width: 140, height: 40, rx: 8, class: 'tray-box' }));
      g.append(svg('text', { x: x - 30, y: y + 5, 'text-anchor': 'middle', class: 'tray-label' }, t(`board.${title}`)));
      g.append(stack(x + 40, y, 15, side, counts[side]) || svg('text', { x: x + 40, y: y + 5, 'text-anchor': 'middle', class: 'tray-label' }, '0'));
      if (place) g.append(svg('rect', { x: x - 70, y: y - 20, width: 140, height: 40, class: 'hit' }));
      root.append(g);
    });
  }
  return withPlaceNames(root);
}

export const sideNames = { terracotta: 'Terracotta', black: 'Black' };
