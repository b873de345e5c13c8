// @ts-check
// `/leaderboard`: the top 100 of a variant by rating, among players with at least 5 rated games.
import { html } from '../svg.js';
import { variants } from '../api.js';
import { leaderboard } from './api.js';

/** @param {HTMLElement} app */
export async function showLeaderboard(app) {
  document.title = 'Ludus — leaderboard';
  const list = await variants().catch(() => []);
  const table = html('div', { class: 'leaderboard' });
  const choose = html('select', { id: 'leaderboard-variant', 'aria-label': 'Variant' }, list.map((v) => html('option', { value: v.id, text: v.name })));
  const draw = async () => {
    const rows = await leaderboard(/** @type {HTMLSelectElement} */ (choose).value).catch(() => []);
    table.replaceChildren(rows.length
      ? html('table', { class: 'results' }, [
        html('thead', {}, [html('tr', {}, ['#', 'Player', 'Rating', 'Games'].map((t) => html('th', { scope: 'col', text: t })))]),
        html('tbody', {}, rows.map((r) => html('tr', {}, [
          html('td', { text: String(r.rank) }),
          html('td', {}, [html('a', { href: `/@/${encodeURIComponent(r.username)}`, text: r.username })]),
          html('td', { text: `${r.rating} ±${r.deviation}` }),
          html('td', { text: String(r.games) }),
        ]))),
      ])
      : html('p', { text: 'Nobody has played 5 rated games of this variant yet.' }));
  };
  choose.addEventListener('change', draw);
  app.replaceChildren(html('section', { class: 'leaderboard-page' }, [html('h1', { text: 'Leaderboard' }), choose, table]));
  await draw();
}
