// @ts-check
// `/challenges`: challenge a player (variant, clock, side, rated), and the challenges to and from
// the signed-in account, kept live by the account's event stream (GET /api/v1/stream/events,
// NDJSON, followed by notices.js). Accepting opens the game; the challenger's page opens it on the
// stream's `game_start` (notices.js, for every page).
import { html } from '../svg.js';
import { variants, saveToken } from '../api.js';
import { sideName } from '../boards/index.js';
import { navigate } from '../router.js';
import { CLOCKS } from '../home.js';
import { currentAccount, challenges, challenge, answerChallenge } from './api.js';
import { onNotice } from './notices.js';
import { t, locale } from '../i18n.js';
import { formatElapsed } from '../game/clock.js';
import { refusal } from './forms.js';

/** A challenge unanswered this long lapses (the server's rule, docs/API.md). */
const LAPSES_AFTER_MS = 10 * 60 * 1000;

/** @typedef {import('./api.js').Challenge} Challenge */

/**
 * A clock as its players name it, minutes and seconds added a move (`10+5`); a time that is not
 * whole minutes as the clock shows it (`0:20+1.5`), in the page's numbers.
 * @param {{ initial_ms: number, increment_ms: number }} clock
 */
export function clockTerms({ initial_ms: initial, increment_ms: increment }) {
  const number = (/** @type {number} */ n) => n.toLocaleString(locale(), { maximumFractionDigits: 3 });
  const time = initial % 60000 === 0 ? number(initial / 60000) : formatElapsed(initial);
  return `${time}+${number(increment / 1000)}`;
}

/**
 * A challenge's terms as the one reading them will play them: the game, the clock, the side.
 * @param {Challenge} c
 * @param {boolean} challenger whether the reader made the challenge
 * @param {import('../api.js').Variant[]} list the variants, for the sides' names
 */
function terms(c, challenger, list) {
  const clock = c.clock ? clockTerms(c.clock) : t('challenges.no_clock');
  const players = list.find((v) => v.id === c.variant)?.players;
  // `side` is the challenger's; the challenged player takes the other.
  const index = c.side === 'first' ? 0 : c.side === 'second' ? 1 : null;
  const mine = index === null || !players ? null : players[challenger ? index : 1 - index];
  return t('challenges.terms', {
    variant: t(`variant.${c.variant}`),
    clock,
    rated: t(c.rated ? 'challenges.rated' : 'challenges.unrated'),
    side: mine ? t('challenges.you_play', { side: sideName(mine) }) : t('challenges.side_random'),
  });
}

/**
 * @param {HTMLElement} app
 * @param {URLSearchParams} query `to`: the player to challenge
 * @param {AbortSignal} signal
 */
export async function showChallenges(app, query, signal) {
  document.title = t('account.page_title', { title: t('challenges.title') });
  const account = await currentAccount();
  if (!account) {
    app.replaceChildren(html('section', { class: 'account-page' }, [
      html('h1', { text: t('challenges.heading') }),
      html('p', {}, [html('a', { href: '/signin', text: t('account.signin') }), t('challenges.sign_in')]),
    ]));
    return;
  }
  const list = await variants().catch(() => []);
  /** @type {Map<string, Challenge>} */
  const incoming = new Map();
  /** @type {Map<string, Challenge>} */
  const outgoing = new Map();
  const note = html('p', { class: 'challenge-note', role: 'status', 'aria-live': 'polite' });
  const incomingList = html('ul', { class: 'challenge-list incoming', 'aria-label': t('challenges.incoming'), tabindex: '-1' });
  const outgoingList = html('ul', { class: 'challenge-list outgoing', 'aria-label': t('challenges.outgoing'), tabindex: '-1' });

  /** Runs an answer; a refusal (answered elsewhere, lapsed) shows and the lists are read again. @param {() => Promise<void>} act */
  const attempt = async (act) => {
    try {
      await act();
    } catch (e) {
      note.textContent = refusal(e, { conflict: 'challenges.gone', not_found: 'challenges.gone' });
      await reload();
    }
  };
  /** @param {string} key @param {() => Promise<void>} act */
  const button = (key, act) => html('button', { type: 'button', text: t(key), onclick: () => attempt(act) });
  /** Declines or cancels `c`, which then leaves `pending`. @param {Map<string, Challenge>} pending @param {Challenge} c @param {'decline' | 'cancel'} answer */
  const drop = (pending, c, answer) => async () => {
    await answerChallenge(c.challenge_id, answer);
    pending.delete(c.challenge_id);
    draw();
  };
  /** @param {HTMLElement} list @param {Map<string, Challenge>} pending @param {(c: Challenge) => (string | HTMLElement)[]} line */
  const drawList = (list, pending, line) => {
    const shown = [...pending.values()].filter((c) => Date.now() - c.created_at < LAPSES_AFTER_MS);
    const focused = list.contains(document.activeElement);
    list.replaceChildren(...(shown.length
      ? shown.map((c) => html('li', { 'data-challenge-id': c.challenge_id }, line(c)))
      : [html('li', { class: 'muted', text: t('challenges.none') })]));
    // A keyboard that answered a challenge stays in its list (its button went with the redraw,
    // and the focus fell to the top of the page): on the next challenge's first button, or the
    // list itself.
    if (focused) /** @type {HTMLElement} */ (list.querySelector('button') || list).focus();
  };
  const draw = () => {
    drawList(incomingList, incoming, (c) => [
      t('challenges.from', { name: c.challenger }), terms(c, false, list), ' ',
      button('challenges.accept', async () => {
        const started = await answerChallenge(c.challenge_id, 'accept');
        saveToken(started.game_id, started.seat.token);
        navigate(`/game/${encodeURIComponent(started.game_id)}`);
      }),
      button('challenges.decline', drop(incoming, c, 'decline')),
    ]);
    drawList(outgoingList, outgoing, (c) => [
      t('challenges.to', { name: c.challenged }), terms(c, true, list), ' ',
      button('challenges.cancel', drop(outgoing, c, 'cancel')),
    ]);
  };
  const reload = async () => {
    const pending = await challenges();
    incoming.clear();
    outgoing.clear();
    for (const c of pending.incoming) incoming.set(c.challenge_id, c);
    for (const c of pending.outgoing) outgoing.set(c.challenge_id, c);
    draw();
  };

  // The form: whom, which game, which clock, which side, rated or not.
  const opponent = html('input', { id: 'challenge-username', name: 'username', type: 'text', required: true, minlength: '2', maxlength: '20', value: query.get('to') || '' });
  const variant = /** @type {HTMLSelectElement} */ (html('select', { id: 'challenge-variant', name: 'variant' },
    list.map((v) => html('option', { value: v.id, text: t(`variant.${v.id}`) }))));
  const clock = html('select', { id: 'challenge-clock', name: 'clock' },
    CLOCKS.filter(([value]) => value !== 'custom').map(([value, label]) => html('option', { value, text: label.startsWith('home.') ? t(label) : label })));
  const side = html('select', { id: 'challenge-side', name: 'side' });
  const sideOptions = () => {
    const chosen = list.find((v) => v.id === variant.value);
    side.replaceChildren(
      html('option', { value: 'random', text: t('home.random') }),
      ...(chosen ? chosen.players.map((s, i) => html('option', { value: i === 0 ? 'first' : 'second', text: sideName(s) })) : []),
    );
  };
  variant.addEventListener('change', sideOptions);
  sideOptions();
  const rated = html('input', { id: 'challenge-rated', name: 'rated', type: 'checkbox', checked: true });
  const form = html('form', { class: 'account-form challenge-form' }, [
    html('label', { for: 'challenge-username', text: t('challenges.player') }), opponent,
    html('label', { for: 'challenge-variant', text: t('home.games') }), variant,
    html('label', { for: 'challenge-clock', text: t('home.clock') }), clock,
    html('label', { for: 'challenge-side', text: t('home.side') }), side,
    html('label', { for: 'challenge-rated', class: 'toggle' }, [rated, html('span', { text: t('challenges.rated_label') })]),
    html('button', { type: 'submit', text: t('challenges.send') }),
  ]);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(/** @type {HTMLFormElement} */ (form));
    const chosenClock = (CLOCKS.find(([value]) => value === data.get('clock')) || CLOCKS[0])[2];
    // Refused by the server too; said here in the page's words.
    if (String(data.get('username')).trim().toLowerCase() === account.username.toLowerCase()) {
      note.textContent = t('challenges.yourself');
      return;
    }
    try {
      const made = await challenge({
        username: String(data.get('username')).trim(),
        variant: String(data.get('variant')),
        clock: chosenClock === 'custom' ? null : chosenClock,
        side: String(data.get('side')),
        rated: data.get('rated') === 'on',
      });
      note.textContent = t('challenges.sent', { name: String(data.get('username')).trim() });
      await reload();
      if (!outgoing.has(made.challenge_id)) note.textContent = t('challenges.gone');
    } catch (e) {
      note.textContent = refusal(e, { not_found: 'challenges.no_player' });
    }
  });

  app.replaceChildren(html('section', { class: 'account-page challenges-page' }, [
    html('h1', { text: t('challenges.heading') }),
    html('p', { class: 'muted', text: t('challenges.text') }),
    form, note,
    html('h2', { text: t('challenges.incoming') }), incomingList,
    html('h2', { text: t('challenges.outgoing') }), outgoingList,
  ]));
  await reload();

  // Live: new and withdrawn challenges, answers to ours (an accepted one starts a game, which
  // notices.js opens).
  onNotice((notice) => {
    if (notice.type === 'challenge' && notice.challenger !== account.username) incoming.set(notice.challenge_id, /** @type {Challenge} */ (/** @type {unknown} */ (notice)));
    if (notice.type === 'challenge_canceled') incoming.delete(notice.challenge_id);
    if (notice.type === 'challenge_declined') {
      const declined = outgoing.get(notice.challenge_id);
      outgoing.delete(notice.challenge_id);
      if (declined) note.textContent = t('challenges.declined', { name: declined.challenged });
    }
    if (notice.type === 'game_start') outgoing.delete(notice.challenge_id);
    draw();
  }, signal);
  // Lapsed challenges leave the lists without a notice.
  const lapses = setInterval(draw, 30000);
  signal.addEventListener('abort', () => clearInterval(lapses));
}
