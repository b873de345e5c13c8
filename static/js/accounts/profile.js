// @ts-check
// `/@/<username>`: a player's results per variant (and against the computer per level), the
// rating history as a chart, and the recent games, each linking to its record.
import { html } from '../svg.js';
import { profile, playedGames, currentAccount, GAMES_PAGE, signedChange } from './api.js';
import { ratingChart } from './chart.js';
import { showNotFound } from '../notfound.js';
import { t, locale, terminationLabel } from '../i18n.js';

/**
 * Who a game was against: a player's name, or the words for the computer, a deleted account or a guest.
 * @param {string | null} opponent
 * @returns {string}
 */
function opponentName(opponent) {
  if (opponent === 'computer' || opponent === 'deleted') return t(`profile.opponent.${opponent}`);
  return opponent || t('profile.guest');
}

/**
 * @param {HTMLElement} app
 * @param {string} username
 */
export async function showProfile(app, username) {
  let player;
  let games;
  let viewer;
  try {
    [player, games, viewer] = await Promise.all([profile(username), playedGames(username), currentAccount()]);
  } catch {
    showNotFound(app, t('profile.no_player', { name: username }));
    return;
  }
  document.title = t('account.page_title', { title: player.username });
  const label = (/** @type {string} */ id) => t(`variant.${id}`);
  const resultRows = Object.entries(player.variants).map(([variant, r]) => html('tr', { 'data-variant': variant }, [
    html('th', { scope: 'row', text: label(variant) }),
    html('td', { text: String(r.games) }), html('td', { text: String(r.wins) }), html('td', { text: String(r.draws) }), html('td', { text: String(r.losses) }),
    html('td', { class: 'rating', text: r.rating === null ? '—' : `${r.rating} ±${r.deviation}` }),
  ]));
  const computerRows = Object.entries(player.computer).flatMap(([variant, levels]) => Object.entries(levels).map(([level, tally]) => html('tr', {}, [
    html('th', { scope: 'row', text: t('profile.computer_level', { variant: label(variant), level }) }),
    html('td', { text: String(tally.wins) }), html('td', { text: String(tally.draws) }), html('td', { text: String(tally.losses) }),
  ])));
  const chart = ratingChart(player.history, label);
  /** @param {import('./api.js').PlayedGame} g */
  // Each game with its day, and whether it was rated (a game between two accounts that was not
  // says so; the computer's and guests' games never are).
  const gameRow = (g) => html('li', { class: `played ${g.result}` }, [
    `${new Date(g.finished_at).toLocaleDateString(locale())} · `,
    html('a', { href: `/game/${encodeURIComponent(g.game_id)}`, text: `${label(g.variant)}` }),
    t('profile.played', { result: t(`profile.result.${g.result}`), opponent: opponentName(g.opponent) }),
    g.level ? t('profile.level', { level: g.level }) : '',
    t('profile.ended_by', { termination: terminationLabel(g.termination) }),
    g.assisted ? ` (${t('profile.assisted')})` : '',
    g.rating_change !== null ? ` (${signedChange(g.rating_change)})`
      : g.mode === 'online' && g.opponent && g.opponent !== 'deleted' ? ` (${t('profile.unrated')})` : '',
  ]);
  const list = html('ol', { class: 'recent-games' }, games.map(gameRow));
  // A full page may have more after it: the next page starts after its last game.
  const more = /** @type {HTMLButtonElement} */ (html('button', { type: 'button', class: 'more-games', text: t('profile.more'), hidden: games.length < GAMES_PAGE }));
  more.addEventListener('click', async () => {
    more.disabled = true;
    const next = await playedGames(player.username, games[games.length - 1]).catch(() => null);
    more.disabled = false;
    if (!next) return;
    games.push(...next);
    const rows = next.map(gameRow);
    list.append(...rows);
    more.hidden = next.length < GAMES_PAGE;
    // A keyboard goes on reading where the new games begin (the button, disabled while they
    // came, had dropped the focus to the top of the page).
    rows[0]?.querySelector('a')?.focus();
  });
  app.replaceChildren(html('section', { class: 'profile' }, [
    html('h1', { text: player.username }),
    viewer && viewer.username !== player.username
      ? html('p', {}, [html('a', { class: 'button-link challenge-link', href: `/challenges?to=${encodeURIComponent(player.username)}`, text: t('profile.challenge') })])
      : null,
    viewer && viewer.username === player.username
      ? html('p', {}, [html('a', { href: '/challenges', text: t('account.your_challenges') })])
      : null,
    html('p', { class: 'muted', text: t('profile.since', { date: new Date(player.created_at).toLocaleDateString(locale()) }) }),
    html('h2', { text: t('profile.results') }),
    resultRows.length
      ? html('table', { class: 'results', tabindex: '0' }, [
        html('thead', {}, [html('tr', {}, ['variant', 'games', 'won', 'drawn', 'lost', 'rating'].map((key) => html('th', { scope: 'col', text: t(`profile.${key}`) })))]),
        html('tbody', {}, resultRows),
      ])
      : html('p', { text: t('profile.no_online') }),
    computerRows.length ? html('h2', { text: t('profile.computer') }) : null,
    computerRows.length
      ? html('table', { class: 'results', tabindex: '0' }, [
        html('thead', {}, [html('tr', {}, [t('profile.variant'), t('profile.won'), t('profile.drawn'), t('profile.lost')].map((heading) => html('th', { scope: 'col', text: heading })))]),
        html('tbody', {}, computerRows),
      ])
      : null,
    chart ? html('h2', { text: t('profile.history') }) : null,
    chart,
    html('h2', { text: t('profile.recent') }),
    games.length ? list : html('p', { text: t('profile.no_recent') }),
    more,
  ]));
}
