// @ts-check
// `/@/<username>`: a player's results per variant (and against the computer per level), the
// rating history as a chart, and the recent games, each linking to its record.
import { html } from '../svg.js';
import { variants } from '../api.js';
import { profile, playedGames } from './api.js';
import { ratingChart } from './chart.js';
import { showNotFound } from '../notfound.js';

/**
 * @param {HTMLElement} app
 * @param {string} username
 */
export async function showProfile(app, username) {
  let player;
  let games;
  try {
    [player, games] = await Promise.all([profile(username), playedGames(username)]);
  } catch {
    showNotFound(app, `There is no player called “${username}”.`);
    return;
  }
  document.title = `Ludus — ${player.username}`;
  const names = new Map((await variants().catch(() => [])).map((v) => [v.id, v.name]));
  const label = (/** @type {string} */ id) => names.get(id) || id;
  const resultRows = Object.entries(player.variants).map(([variant, r]) => html('tr', { 'data-variant': variant }, [
    html('th', { scope: 'row', text: label(variant) }),
    html('td', { text: String(r.games) }), html('td', { text: String(r.wins) }), html('td', { text: String(r.draws) }), html('td', { text: String(r.losses) }),
    html('td', { class: 'rating', text: r.rating === null ? '—' : `${r.rating} ±${r.deviation}` }),
  ]));
  const computerRows = Object.entries(player.computer).flatMap(([variant, levels]) => Object.entries(levels).map(([level, t]) => html('tr', {}, [
    html('th', { scope: 'row', text: `${label(variant)}, level ${level}` }),
    html('td', { text: String(t.wins) }), html('td', { text: String(t.draws) }), html('td', { text: String(t.losses) }),
  ])));
  const chart = ratingChart(player.history, label);
  const gameRows = games.map((g) => html('li', { class: `played ${g.result}` }, [
    html('a', { href: `/api/v1/games/${encodeURIComponent(g.game_id)}/record`, target: '_blank', text: `${label(g.variant)}` }),
    ` — ${g.result} against ${g.opponent || 'a guest'}${g.level ? ` (level ${g.level})` : ''}, ${g.termination}`,
    g.rating_change === null ? '' : ` (${g.rating_change >= 0 ? '+' : ''}${g.rating_change})`,
    ' · ', html('a', { href: `/game/${encodeURIComponent(g.game_id)}`, text: 'replay' }),
  ]));
  app.replaceChildren(html('section', { class: 'profile' }, [
    html('h1', { text: player.username }),
    html('p', { class: 'muted', text: `Playing since ${new Date(player.created_at).toLocaleDateString()}` }),
    html('h2', { text: 'Results' }),
    resultRows.length
      ? html('table', { class: 'results' }, [
        html('thead', {}, [html('tr', {}, ['Variant', 'Games', 'Won', 'Drawn', 'Lost', 'Rating'].map((t) => html('th', { scope: 'col', text: t })))]),
        html('tbody', {}, resultRows),
      ])
      : html('p', { text: 'No online games yet.' }),
    computerRows.length ? html('h2', { text: 'Against the computer' }) : null,
    computerRows.length
      ? html('table', { class: 'results' }, [
        html('thead', {}, [html('tr', {}, ['', 'Won', 'Drawn', 'Lost'].map((t) => html('th', { scope: 'col', text: t })))]),
        html('tbody', {}, computerRows),
      ])
      : null,
    chart ? html('h2', { text: 'Rating history' }) : null,
    chart,
    html('h2', { text: 'Recent games' }),
    gameRows.length ? html('ol', { class: 'recent-games' }, gameRows) : html('p', { text: 'No finished games yet.' }),
  ]));
}
