// @ts-check
// A rating history as an SVG line chart: time across, rating up, one line per variant, with its
// legend below it in the page's text (inside the drawing it crossed the lines, and on a phone it
// shrank with it to 7 px). Pure: it takes the points and returns the drawing.
import { svg, html } from '../svg.js';
import { t, locale } from '../i18n.js';

// Its words are 18 of these units: 11 px on a phone's 390-px page, where 12 were 7 px.
const WIDTH = 600;
const HEIGHT = 220;
const PAD = 44;
// Okabe and Ito's colours, told apart by every kind of colour vision (the earlier set had two
// near oranges).
const COLOURS = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9'];
// And a dash of its own: two variants with the same history draw the same line, and one drawn
// solid over the other hid it; dashed differently, both show along it.
const DASHES = ['', '10 5', '3 4', '12 4 3 4', '6 6', '2 8'];

/** The colour and dash of line `n`. @param {number} n */
const stroke = (n) => ({ stroke: COLOURS[n % COLOURS.length], 'stroke-dasharray': DASHES[n % DASHES.length] || undefined });

/**
 * @param {Record<string, { at: number, rating: number }[]>} history points per variant, oldest first
 * @param {(variant: string) => string} label
 * @returns {HTMLElement | null} null without any point
 */
export function ratingChart(history, label) {
  const lines = Object.entries(history).filter(([, points]) => points.length);
  if (!lines.length) return null;
  const all = lines.flatMap(([, points]) => points);
  // The start (1500) is each line's first point, so a single game still draws a segment.
  const ratings = [1500, ...all.map((p) => p.rating)];
  const low = Math.min(...ratings) - 20;
  const high = Math.max(...ratings) + 20;
  // Time across, the same for every line (counted in each variant's own games, a variant played
  // last month lay beside one played today). Each line starts at 1500 a little before its first
  // game: a twentieth of the whole span, at least a minute.
  const times = all.map((p) => p.at);
  const first = Math.min(...times);
  const last = Math.max(...times);
  const lead = Math.max((last - first) / 20, 60_000);
  const x = (/** @type {number} */ at) => PAD + ((at - (first - lead)) / (last - first + lead)) * (WIDTH - 2 * PAD);
  const y = (/** @type {number} */ r) => HEIGHT - PAD - ((r - low) / (high - low)) * (HEIGHT - 2 * PAD);
  const paths = lines.map(([variant, points], n) => {
    const coordinates = [[x(points[0].at - lead), y(1500)], ...points.map((p) => [x(p.at), y(p.rating)])];
    return svg('polyline', { 'data-variant': variant, points: coordinates.map((c) => c.join(',')).join(' '), fill: 'none', ...stroke(n), 'stroke-width': 2.5 });
  });
  // The axis says when: the first game's day at its start, the last's at its end (one day once).
  const day = (/** @type {number} */ at) => new Date(at).toLocaleDateString(locale(), { day: 'numeric', month: 'short', year: 'numeric' });
  const days = day(first) === day(last)
    ? [svg('text', { x: WIDTH / 2, y: HEIGHT - 8, 'text-anchor': 'middle', 'font-size': 18, fill: '#555', class: 'chart-day' }, day(first))]
    : [
      svg('text', { x: PAD, y: HEIGHT - 8, 'text-anchor': 'start', 'font-size': 18, fill: '#555', class: 'chart-day' }, day(first)),
      svg('text', { x: WIDTH - PAD, y: HEIGHT - 8, 'text-anchor': 'end', 'font-size': 18, fill: '#555', class: 'chart-day' }, day(last)),
    ];
  const legend = lines.map(([variant, points], n) => html('li', {}, [
    // The line's own colour and dash, drawn as a sample of it.
    svg('svg', { class: 'swatch', viewBox: '0 0 28 10', 'aria-hidden': 'true' }, [svg('line', { x1: 0, y1: 5, x2: 28, y2: 5, ...stroke(n), 'stroke-width': 2.5 })]),
    t('profile.legend', { variant: label(variant), rating: points[points.length - 1].rating }),
  ]));
  return html('figure', { class: 'rating-figure' }, [
    svg('svg', { class: 'rating-chart', viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-label': t('profile.history') }, [
      svg('line', { x1: PAD, y1: HEIGHT - PAD, x2: WIDTH - PAD, y2: HEIGHT - PAD, stroke: '#bbb' }),
      svg('text', { x: 4, y: y(high - 20) + 4, 'font-size': 18, fill: '#555' }, String(Math.round(high - 20))),
      svg('text', { x: 4, y: y(low + 20) + 4, 'font-size': 18, fill: '#555' }, String(Math.round(low + 20))),
      ...days,
      ...paths,
    ]),
    html('ul', { class: 'chart-legend' }, legend),
  ]);
}
