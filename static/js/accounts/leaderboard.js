// @ts-check
// `/leaderboard`: the top 100 of a variant by rating, among players with at least 5 rated games.
import { html } from '../svg.js';
import { variants } from '../api.js';
import { leaderboard } from './api.js';
import { t } from '../i18n.js';

/** @param {HTMLElement} app */
export async function showLeaderboard(app) {
  document.title = t('account.page_title', { title: t('leaderboard.title') });
  const list = await variants().catch(() => []);
  const table = html('div', { class: 'leaderboard' });
  const choose = html('select', { id: 'leaderboard-variant' }, list.map((v) => html('option', { value: v.id, text: t(`variant.${v.id}`) })));
  const draw = async () => {
    const rows = await leaderboard(/** @type {HTMLSelectElement} */ (choose).value).catch(() => []);
    table.replaceChildren(rows.length
      ? html('table', { class: 'results' }, [
        html('thead', {}, [html('tr', {}, ['#', t('leaderboard.player'), t('leaderboard.rating'), t('leaderboard.games')].map((heading) => html('th', { scope: 'col', text: heading })))]),
        html('tbody', {}, rows.map((r) => html('tr', {}, [
          html('td', { text: String(r.rank) }),
          html('td', {}, [html('a', { href: `/@/${encodeURIComponent(r.username)}`, text: r.username })]),
          html('td', { text: `${r.rating} ±${r.deviation}` }),
          html('td', { text: String(r.games) }),
        ]))),
      ])
      : html('p', { text: t('leaderboard.empty') }));
  };
  choose.addEventListener('change', draw);
  app.replaceChildren(html('section', { class: 'leaderboard-page' }, [
    html('h1', { text: t('leaderboard.heading') }),
    html('label', { for: 'leaderboard-variant', class: 'leaderboard-choice' }, [html('span', { text: t('leaderboard.variant') }), choose]),
    table,
  ]));
  await draw();
}
