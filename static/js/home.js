// @ts-check
// Home: the games this browser holds seats in, then choose a game and rule set, a mode, a clock
// and a side, and create the game.
import { variants, createGame, saveToken, saveInvite, entropy, savedSeats, gameView } from './api.js';
import { html } from './svg.js';
import { sideName } from './boards/index.js';
import { navigate } from './router.js';
import { orderMyGames, gameLine } from './mygames.js';

/** How many saved seats the home page asks the server about. */
const SEATS_LOOKED_UP = 20;

/** @type {[string, string, { initial_ms: number, increment_ms: number } | null | 'custom'][]} */
const CLOCKS = [
  ['none', 'No clock', null],
  ['3+2', '3+2', { initial_ms: 180000, increment_ms: 2000 }],
  ['5+3', '5+3', { initial_ms: 300000, increment_ms: 3000 }],
  ['10+5', '10+5', { initial_ms: 600000, increment_ms: 5000 }],
  ['30+0', '30+0', { initial_ms: 1800000, increment_ms: 0 }],
  ['custom', 'Custom', 'custom'],
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
  const section = html('section', { class: 'my-games', id: 'my-games', 'aria-label': 'Your games', hidden: true });
  const seats = savedSeats().slice(0, SEATS_LOOKED_UP);
  Promise.all(seats.map((seat) => gameView(seat.gameId, seat.token).then((view) => ({ view, opened: seat.opened }), () => null)))
    .then((found) => {
      if (signal.aborted) return;
      const held = /** @type {import('./mygames.js').SeatGame[]} */ (found.filter((g) => g !== null && g.view.seat !== null));
      const { playing, finished } = orderMyGames(held);
      const item = (/** @type {import('./mygames.js').SeatGame} */ { view }) => html('li', { 'data-game-id': view.game_id, 'data-status': view.status }, [
        html('a', { href: `/game/${encodeURIComponent(view.game_id)}`, text: (list.find((v) => v.id === view.variant) || { name: view.variant }).name }),
        ' ',
        html('span', { class: gameLine(view) === 'your turn' ? 'game-line your-turn' : 'game-line', text: gameLine(view) }),
      ]);
      if (playing.length) section.append(html('h2', { text: 'Your games' }), html('ul', { class: 'playing' }, playing.map(item)));
      if (finished.length) {
        section.append(html('details', { class: 'finished' }, [html('summary', { text: `Recently finished (${finished.length})` }), html('ul', {}, finished.map(item))]));
      }
      section.hidden = !playing.length && !finished.length;
    });
  return section;
}

/**
 * @param {HTMLElement} app
 * @param {AbortSignal} signal
 */
export async function showHome(app, signal) {
  document.title = 'Ludus — new game';
  app.append(html('h1', { text: 'Play an ancient board game' }));
  const status = html('p', { class: 'status-line', role: 'status', 'aria-live': 'polite' });
  let list;
  try {
    list = await variants();
  } catch (error) {
    app.append(html('p', { class: 'error', role: 'alert', text: `The server did not answer: ${/** @type {Error} */ (error).message}` }));
    return;
  }
  app.append(myGames(list, signal));
  const form = /** @type {HTMLFormElement} */ (html('form', { class: 'home', id: 'new-game' }));

  const games = html('fieldset', { class: 'variants' }, [html('legend', { text: 'Game and rule set' })]);
  list.forEach((v, i) => {
    const id = `variant-${v.id}`;
    games.append(
      html('label', { class: 'variant-card', for: id }, [
        html('input', { type: 'radio', name: 'variant', value: v.id, id, checked: i === 0 || undefined }),
        html('span', { class: 'variant-text' }, [
          html('strong', { text: v.name }),
          html('span', { class: 'summary', text: v.summary }),
          html('em', { class: 'reconstruction', text: v.status }),
          html('a', { href: `/rules/${v.id}`, class: 'rules-link', text: 'Rules and sources' }),
        ]),
      ]),
    );
  });

  const level = html('select', { name: 'level', id: 'level', 'aria-label': 'Computer level' },
    [1, 2, 3, 4, 5].map((n) => html('option', { value: n, text: `level ${n}` })));
  const modes = html('fieldset', { class: 'modes' }, [
    html('legend', { text: 'Opponent' }),
    radio('mode', 'online', 'Invite a friend (a link to share)', true),
    html('div', { class: 'choice-row' }, [radio('mode', 'computer', 'Play the computer at', false), level]),
    radio('mode', 'local', 'Two players on this device', false),
  ]);

  const customMinutes = html('input', { type: 'number', name: 'minutes', min: 1, max: 180, value: 15, 'aria-label': 'Minutes each', class: 'short' });
  const customIncrement = html('input', { type: 'number', name: 'increment', min: 0, max: 180, value: 10, 'aria-label': 'Seconds added per move', class: 'short' });
  const clocks = html('fieldset', { class: 'clocks' }, [
    html('legend', { text: 'Clock (minutes + seconds per move)' }),
    html('div', { class: 'choice-grid' }, CLOCKS.map(([value, label], i) => radio('clock', value, label, i === 0))),
    html('div', { class: 'custom-clock' }, [customMinutes, html('span', { text: ' min + ' }), customIncrement, html('span', { text: ' s per move' })]),
  ]);

  const sides = html('fieldset', { class: 'sides' }, [html('legend', { text: 'Your side' })]);
  const sideLabels = () => {
    const v = list.find((x) => x.id === new FormData(form).get('variant')) || list[0];
    sides.querySelectorAll('.side-first span').forEach((s) => { s.textContent = `${sideName(v.players[0])}${v.first === v.players[0] ? ' (moves first)' : ''}`; });
    sides.querySelectorAll('.side-second span').forEach((s) => { s.textContent = `${sideName(v.players[1])}${v.first === v.players[1] ? ' (moves first)' : ''}`; });
  };
  const first = radio('side', 'first', '', true);
  first.classList.add('side-first');
  const second = radio('side', 'second', '', false);
  second.classList.add('side-second');
  sides.append(first, second, radio('side', 'random', 'Random', false));

  const submit = /** @type {HTMLButtonElement} */ (html('button', { type: 'submit', class: 'primary', id: 'create', text: 'Start the game' }));
  form.append(games, modes, clocks, sides, submit, status);
  app.append(form);
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
    const body = { variant: data.get('variant'), mode, clock, side: data.get('side'), entropy: entropy(), level };
    submit.disabled = true;
    status.textContent = 'Creating the game…';
    status.classList.remove('error');
    try {
      const created = await createGame(body);
      saveToken(created.game_id, created.seat.token);
      if (created.invite) saveInvite(created.game_id, created.invite);
      navigate(`/game/${created.game_id}`);
    } catch (error) {
      status.textContent = `The server refused: ${/** @type {Error} */ (error).message}`;
      status.classList.add('error');
      submit.disabled = false;
    }
  });
}
