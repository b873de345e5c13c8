// @ts-check
// The sign-up and sign-in pages: one form each, then the offer to attach the games this browser
// holds seats in to the account (seats taken while signed in are the account's already).
import { html } from '../svg.js';
import { savedSeats } from '../api.js';
import { signUp, signIn, attachSeats } from './api.js';
import { refreshAccountLink } from './header.js';
import { t, errorMessage } from '../i18n.js';

/**
 * The message of a refused account request: this page's words for the codes it expects (a wrong
 * password, a taken name), else the general message of the error.
 * @param {any} error
 * @param {Record<string, string>} known error code → catalogue key
 * @returns {string}
 */
export const refusal = (error, known) => (error && known[error.code] ? t(known[error.code]) : errorMessage(error));

/**
 * @param {HTMLElement} app
 * @param {'signup' | 'signin'} kind
 */
export function showCredentialsForm(app, kind) {
  const signingUp = kind === 'signup';
  const title = t(signingUp ? 'account.signup' : 'account.signin');
  document.title = t('account.page_title', { title });
  const error = html('p', { class: 'error', role: 'alert' });
  // Spaces around the name are allowed (a phone's keyboard adds one after a word) and trimmed.
  // Signing up, each field is described by its hint, so a screen reader reads the rule with it.
  const described = (/** @type {string} */ hint) => (signingUp ? { 'aria-describedby': hint } : {});
  const username = html('input', { id: 'username', name: 'username', autocomplete: 'username', required: true, minlength: '2', maxlength: '22', pattern: '\\s*[A-Za-z0-9_\\-]+\\s*', ...described('username-hint') });
  const password = html('input', { id: 'password', name: 'password', type: 'password', required: true, minlength: '8', maxlength: '128', autocomplete: signingUp ? 'new-password' : 'current-password', ...described('password-hint') });
  const form = html('form', { class: 'account-form' }, [
    html('label', { for: 'username', text: t('account.username') }), username,
    signingUp ? html('p', { class: 'hint', id: 'username-hint', text: t('account.username_hint') }) : null,
    html('label', { for: 'password', text: t('account.password') }), password,
    signingUp ? html('p', { class: 'hint', id: 'password-hint', text: t('account.password_hint') }) : null,
    html('button', { type: 'submit', text: t(signingUp ? 'account.create' : 'account.signin') }),
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
      error.textContent = refusal(e, signingUp ? { conflict: 'account.name_taken' } : { unauthorized: 'account.wrong_credentials' });
    }
  });
  const other = signingUp
    ? html('p', {}, [t('account.have_one'), html('a', { href: '/signin', text: t('account.signin') })])
    : html('p', {}, [t('account.no_account'), html('a', { href: '/signup', text: t('account.create_one') }), t('account.just_play')]);
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
      html('p', { text: seats.length === 1 ? t('account.seats_one') : t('account.seats_n', { n: seats.length }) }),
      html('button', {
        type: 'button',
        text: t('account.attach'),
        onclick: async (/** @type {Event} */ event) => {
          /** @type {HTMLButtonElement} */ (event.currentTarget).disabled = true;
          try {
            const { attached } = await attachSeats(seats.map((s) => s.token));
            note.textContent = t('account.attached', { n: attached });
          } catch (e) {
            note.textContent = errorMessage(e);
          }
        },
      }),
      note,
    ])
    : null;
  app.replaceChildren(html('section', { class: 'account-page' }, [
    html('h1', { text: t('account.signed_in', { name: username }) }),
    offer,
    html('ul', {}, [
      html('li', {}, [html('a', { href: '/', text: t('page.start') })]),
      html('li', {}, [html('a', { href: `/@/${encodeURIComponent(username)}`, text: t('account.your_profile') })]),
      html('li', {}, [html('a', { href: '/account', text: t('account.your_account') })]),
    ]),
  ]));
}
