// @ts-check
// Home: the games this browser holds seats in, then choose a game and rule set, a mode, a clock
// and a side, and create the game; below, the games being played that their creators listed for
// anyone to watch.
import { variants, createGame, saveToken, saveInvite, saveEntropy, entropy, savedSeats, gameView, request } from './api.js';
import { html } from './svg.js';
import { sideName } from './boards/index.js';
import { navigate } from './router.js';
import { orderMyGames, gameLine } from './mygames.js';
import { accountGames, seatLabels, currentAccount } from './accounts/api.js';
import { t, errorMessage } from './i18n.js';
import { KIND } from './learn/variants.js';

/** How many saved seats the home page asks the server about. */
const SEATS_LOOKED_UP = 20;

/** @type {[string, string, { initial_ms: number, increment_ms: number } | null | 'custom'][]} */
export const CLOCKS = [
  ['none', 'home.no_clock', null],
  ['3+2', '3+2', { initial_ms: 180000, increment_ms: 2000 }],
  ['5+3', '5+3', { initial_ms: 300000, increment_ms: 3000 }],
  ['10+5', '10+5', { initial_ms: 600000, increment_ms: 5000 }],
  ['30+0', '30+0', { initial_ms: 1800000, increment_ms: 0 }],
  ['custom', 'home.custom', 'custom'],
];

/**
 * @param {string} name
 * @param {string} value
 * @param {string} label
 * @param {boolean} checked
 * @param {Record<string, unknown>} [extra]
 */
function radio(name, value, label, checked, extra = {}) {
  const id = `${name}-${value}`;
  return html('label', { class: 'choice', for: id }, [
    html('input', { type: 'radio', name, value, id, checked: checked || undefined, ...extra }),
    html('span', {}, label),
  ]);
}

/**
 * The list of this browser's games, filled in when their views arrive.
 * @param {import('./api.js').Variant[]} list
 * @param {AbortSignal} signal
 */
function myGames(list, signal) {
  const section = html('section', { class: 'my-games', id: 'my-games', 'aria-label': t('home.your_games'), hidden: true });
  const seats = savedSeats().slice(0, SEATS_LOOKED_UP);
  /** @param {string} gameId @param {string | null} token @param {number} opened */
  const lookUp = (gameId, token, opened) => gameView(gameId, token).then((view) => ({ view, opened }), () => null);
  // The signed-in account's games this browser holds no token of (played on another device, or
  // before its storage was cleared): the account's session opens their seats.
  const accountOnly = accountGames().then((ids) => Promise.all(ids
    .filter((id) => !seats.some((seat) => seat.gameId === id))
    .slice(0, SEATS_LOOKED_UP)
    .map((id) => lookUp(id, null, 0))));
  Promise.all([...seats.map((seat) => lookUp(seat.gameId, seat.token, seat.opened)), accountOnly])
    .then((results) => results.flat())
    .then((found) => {
      if (signal.aborted) return;
      const held = /** @type {import('./mygames.js').SeatGame[]} */ (found.filter((g) => g !== null && g.view.seat !== null));
      const { playing, finished } = orderMyGames(held);
      const item = (/** @type {import('./mygames.js').SeatGame} */ { view }) => html('li', { 'data-game-id': view.game_id, 'data-status': view.status }, [
        html('a', { href: `/game/${encodeURIComponent(view.game_id)}`, text: t(`variant.${view.variant}`) }),
        ' ',
        html('span', { class: gameLine(view) === t('mygames.your_turn') ? 'game-line your-turn' : 'game-line', text: gameLine(view) }),
      ]);
      if (playing.length) section.append(html('h2', { text: t('home.your_games') }), html('ul', { class: 'playing' }, playing.map(item)));
      if (finished.length) {
        section.append(html('details', { class: 'finished' }, [html('summary', { text: t('home.finished', { n: finished.length }) }), html('ul', {}, finished.map(item))]));
      }
      section.hidden = !playing.length && !finished.length;
    });
  return section;
}

/** How many listed games the home page shows to watch. */
const TO_WATCH = 10;

/**
 * The listed games in play, newest first, each with its players' names where accounts hold the
 * seats: where a visitor finds a game to watch (the creator's "Let anyone find the game").
 * @param {AbortSignal} signal
 */
function gamesToWatch(signal) {
  const section = html('section', { class: 'to-watch', id: 'to-watch', 'aria-labelledby': 'to-watch-heading', hidden: true });
  request('GET', `/api/v1/games?status=playing&limit=${TO_WATCH}`)
    .then((/** @type {{ game_id: string, variant: string }[]} */ games) => Promise.all(games.map(async (game) => {
      const names = await seatLabels(game.game_id).then(({ labels }) => labels, () => ({}));
      return html('li', { 'data-game-id': game.game_id }, [
        html('a', { href: `/game/${encodeURIComponent(game.game_id)}`, text: t(`variant.${game.variant}`) }),
        Object.keys(names).length ? ` — ${Object.values(names).join(t('home.versus'))}` : '',
      ]);
    })))
    .then((items) => {
      if (signal.aborted || !items.length) return;
      section.append(html('h2', { id: 'to-watch-heading', text: t('home.to_watch') }), html('ul', {}, items));
      section.hidden = false;
    }, () => {});
  return section;
}

/**
 * @param {HTMLElement} app
 * @param {AbortSignal} signal
 */
export async function showHome(app, signal) {
  document.title = t('home.title');
  app.append(html('h1', { text: t('home.heading') }));
  const status = html('p', { class: 'status-line', role: 'status', 'aria-live': 'polite' });
  let list;
  try {
    list = await variants();
  } catch (error) {
    app.append(html('p', { class: 'error', role: 'alert', text: errorMessage(error) }));
    return;
  }
  app.append(myGames(list, signal));
  const form = /** @type {HTMLFormElement} */ (html('form', { class: 'home', id: 'new-game' }));

  const games = html('fieldset', { class: 'variants' }, [html('legend', { text: t('home.games') })]);
  // `/?variant=…` (a rules page's "Play it") starts on that game; else the first.
  const asked = new URLSearchParams(location.search).get('variant');
  const chosen = list.some((v) => v.id === asked) ? asked : list[0]?.id;
  list.forEach((v) => {
    const id = `variant-${v.id}`;
    games.append(
      // The radio is named by the game's name alone and described by the rest: the whole card
      // as its name was a paragraph read at every arrow key.
      html('label', { class: 'variant-card', for: id }, [
        html('input', { type: 'radio', name: 'variant', value: v.id, id, checked: v.id === chosen || undefined, 'aria-labelledby': `${id}-name`, 'aria-describedby': `${id}-summary ${id}-kind` }),
        html('span', { class: 'variant-text' }, [
          html('strong', { id: `${id}-name`, text: t(`variant.${v.id}`) }),
          html('span', { class: 'summary', id: `${id}-summary`, text: t(`summary.${v.id === 'petteia-8' ? 'petteia-6' : v.id}`) }),
          html('em', { class: 'reconstruction', id: `${id}-kind`, text: t(`label.help.${/** @type {Record<string, string>} */ (KIND)[v.id]}`) }),
          html('a', { href: `/rules/${v.id}`, class: 'rules-link', text: t('home.rules_link') }),
        ]),
      ]),
    );
  });

  // A signed-in player's online game is rated once a signed-in friend joins it: said, and a
  // choice (it was rated without a word).
  const rated = html('label', { class: 'choice', for: 'rated', hidden: true }, [
    html('input', { type: 'checkbox', name: 'rated', id: 'rated', checked: true }),
    html('span', {}, t('home.rated')),
  ]);
  currentAccount().then((account) => {
    rated.hidden = !account;
  });
  const level = html('select', { name: 'level', id: 'level', 'aria-label': t('home.level_label') },
    [1, 2, 3, 4, 5].map((n) => html('option', { value: n, text: t(`home.level_${n}`) })));
  const modes = html('fieldset', { class: 'modes' }, [
    html('legend', { text: t('home.opponent') }),
    radio('mode', 'online', t('home.online'), true),
    html('div', { class: 'choice-row' }, [radio('mode', 'computer', t('home.computer'), false), level]),
    radio('mode', 'local', t('home.local'), false),
    html('label', { class: 'choice', for: 'listed' }, [
      html('input', { type: 'checkbox', name: 'listed', id: 'listed' }),
      html('span', {}, t('home.listed')),
    ]),
    rated,
  ]);

  const customMinutes = html('input', { type: 'number', name: 'minutes', min: 1, max: 180, value: 15, 'aria-label': t('home.minutes'), class: 'short' });
  const customIncrement = html('input', { type: 'number', name: 'increment', min: 0, max: 180, value: 10, 'aria-label': t('home.increment'), class: 'short' });
  const clocks = html('fieldset', { class: 'clocks' }, [
    html('legend', { text: t('home.clock') }),
    html('div', { class: 'choice-grid' }, CLOCKS.map(([value, label], i) => radio('clock', value, label.startsWith('home.') ? t(label) : label, i === 0))),
    html('div', { class: 'custom-clock' }, [customMinutes, html('span', { text: ' min + ' }), customIncrement, html('span', { text: t('home.per_move') })]),
  ]);

  const sides = html('fieldset', { class: 'sides' }, [html('legend', { text: t('home.side') })]);
  const sideLabels = () => {
    const v = list.find((x) => x.id === new FormData(form).get('variant')) || list[0];
    sides.querySelectorAll('.side-first span').forEach((s) => { s.textContent = `${sideName(v.players[0])}${v.first === v.players[0] ? t('home.first') : ''}`; });
    sides.querySelectorAll('.side-second span').forEach((s) => { s.textContent = `${sideName(v.players[1])}${v.first === v.players[1] ? t('home.first') : ''}`; });
  };
  const first = radio('side', 'first', '', true);
  first.classList.add('side-first');
  const second = radio('side', 'second', '', false);
  second.classList.add('side-second');
  sides.append(first, second, radio('side', 'random', t('home.random'), false));

  const submit = /** @type {HTMLButtonElement} */ (html('button', { type: 'submit', class: 'primary', id: 'create', text: t('home.start') }));
  form.append(games, modes, clocks, sides, submit, status);
  app.append(form, gamesToWatch(signal));
  sideLabels();
  form.addEventListener('change', sideLabels);
  level.addEventListener('change', () => {
    /** @type {HTMLInputElement} */ (form.querySelector('#mode-computer')).checked = true;
  });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const mode = data.get('mode');
    let clock = (CLOCKS.find(([value]) => value === data.get('clock')) || CLOCKS[0])[2];
    if (clock === 'custom') {
      clock = {
        initial_ms: Math.round(Number(data.get('minutes')) * 60000),
        increment_ms: Math.round(Number(data.get('increment')) * 1000),
      };
    }
    const level = mode === 'computer' ? Number(data.get('level')) : undefined;
    const listed = data.get('listed') === 'on';
    const body = {
      variant: data.get('variant'), mode, clock, side: data.get('side'), entropy: entropy(), level, listed,
      rated: mode === 'online' && !rated.hidden ? data.get('rated') === 'on' : undefined,
    };
    submit.disabled = true;
    status.textContent = t('home.creating');
    status.classList.remove('error');
    try {
      const created = await createGame(body);
      saveToken(created.game_id, created.seat.token);
      saveEntropy(created.game_id, body.entropy);
      if (created.invite) saveInvite(created.game_id, created.invite);
      navigate(`/game/${created.game_id}`);
    } catch (error) {
      status.textContent = errorMessage(error);
      status.classList.add('error');
      submit.disabled = false;
    }
  });
}
