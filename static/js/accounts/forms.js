// @ts-check
// The sign-up and sign-in pages: one form each, then the offer to attach the games this browser
// holds seats in to the account (seats taken while signed in are the account's already).
import { html } from '../svg.js';
import { savedSeats } from '../api.js';
import { signUp, signIn, attachSeats } from './api.js';
import { refreshAccountLink } from './header.js';

/**
 * @param {HTMLElement} app
 * @param {'signup' | 'signin'} kind
 */
export function showCredentialsForm(app, kind) {
  const signingUp = kind === 'signup';
  const title = signingUp ? 'Create an account' : 'Sign in';
  document.title = `Ludus — ${title}`;
  const error = html('p', { class: 'error', role: 'alert' });
  const username = html('input', { id: 'username', name: 'username', autocomplete: 'username', required: true, minlength: '2', maxlength: '20', pattern: '[A-Za-z0-9_\\-]+' });
  const password = html('input', { id: 'password', name: 'password', type: 'password', required: true, minlength: '8', maxlength: '128', autocomplete: signingUp ? 'new-password' : 'current-password' });
  const form = html('form', { class: 'account-form' }, [
    html('label', { for: 'username', text: 'Username' }), username,
    signingUp ? html('p', { class: 'hint', text: '2 to 20 letters, digits, _ or -.' }) : null,
    html('label', { for: 'password', text: 'Password' }), password,
    signingUp ? html('p', { class: 'hint', text: 'At least 8 characters.' }) : null,
    html('button', { type: 'submit', text: signingUp ? 'Create account' : 'Sign in' }),
    error,
  ]);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    const name = /** @type {HTMLInputElement} */ (username).value.trim();
    const secret = /** @type {HTMLInputElement} */ (password).value;
    try {
      const account = await (signingUp ? signUp(name, secret) : signIn(name, secret));
      await refreshAccountLink();
      showSignedIn(app, account.username);
    } catch (e) {
      error.textContent = /** @type {Error} */ (e).message;
    }
  });
  const other = signingUp
    ? html('p', {}, ['Have an account? ', html('a', { href: '/signin', text: 'Sign in' })])
    : html('p', {}, ['No account? ', html('a', { href: '/signup', text: 'Create one' }), ' — or just play: no account is needed.']);
  app.replaceChildren(html('section', { class: 'account-page' }, [html('h1', { text: title }), form, other]));
}

/**
 * After signing in: where to go, and the offer to attach this browser's games.
 * @param {HTMLElement} app
 * @param {string} username
 */
function showSignedIn(app, username) {
  const seats = savedSeats();
  const note = html('p', { role: 'status' });
  const offer = seats.length
    ? html('div', { class: 'attach' }, [
      html('p', { text: `This browser holds seats in ${seats.length} game${seats.length === 1 ? '' : 's'}. Their results can count on your profile.` }),
      html('button', {
        type: 'button',
        text: 'Add them to my account',
        onclick: async (/** @type {Event} */ event) => {
          /** @type {HTMLButtonElement} */ (event.currentTarget).disabled = true;
          try {
            const { attached } = await attachSeats(seats.map((s) => s.token));
            note.textContent = `${attached} seat${attached === 1 ? '' : 's'} added to your account.`;
          } catch (e) {
            note.textContent = /** @type {Error} */ (e).message;
          }
        },
      }),
      note,
    ])
    : null;
  app.replaceChildren(html('section', { class: 'account-page' }, [
    html('h1', { text: `Signed in as ${username}` }),
    offer,
    html('ul', {}, [
      html('li', {}, [html('a', { href: '/', text: 'Start a game' })]),
      html('li', {}, [html('a', { href: `/@/${encodeURIComponent(username)}`, text: 'Your profile' })]),
      html('li', {}, [html('a', { href: '/account', text: 'Your account' })]),
    ]),
  ]));
}
