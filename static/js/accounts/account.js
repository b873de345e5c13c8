// @ts-check
// The account page: personal API tokens (each shown once, when made), signing out, changing the
// password, and deleting the account with its password (its games stay, shown under "deleted").
import { html } from '../svg.js';
import { navigate } from '../router.js';
import { currentAccount, tokens, createToken, revokeToken, signOut, changePassword, deleteAccount } from './api.js';
import { refreshAccountLink } from './header.js';
import { refusal } from './forms.js';
import { t, locale } from '../i18n.js';

/** @param {HTMLElement} app */
export async function showAccount(app) {
  document.title = t('account.page_title', { title: t('account.title') });
  const account = await currentAccount();
  if (!account) {
    navigate('/signin', { replace: true });
    return;
  }
  const list = html('ul', { class: 'token-list', 'aria-label': t('account.tokens'), tabindex: '-1' });
  const made = html('p', { class: 'notice', role: 'status', hidden: true });
  /** The token last made and shown once, by its id: its notice goes if it is revoked. */
  let shownId = '';
  const drawTokens = async () => {
    const items = await tokens();
    list.replaceChildren(...items.map((token) => {
      // Revoking asks again, as resigning does: a bot's token revoked is a bot stopped.
      const revoke = html('button', { type: 'button', text: t('account.revoke') });
      revoke.addEventListener('click', async () => {
        if (revoke.dataset.confirming !== 'yes') {
          revoke.dataset.confirming = 'yes';
          revoke.textContent = t('account.confirm_revoke');
          return;
        }
        await revokeToken(token.id);
        if (token.id === shownId) made.hidden = true;
        await drawTokens();
        /** @type {HTMLElement} */ (list.querySelector('button') || list).focus();
      });
      // Made at a time as well as a day: two tokens of one description made the same day differ.
      const createdAt = new Date(token.created_at);
      const date = createdAt.toLocaleDateString(locale(), { dateStyle: 'short' });
      const time = createdAt.toLocaleTimeString(locale(), { timeStyle: 'short' });
      return html('li', {}, [t('account.token_made', { description: token.description || t('account.no_description'), date, time }), revoke]);
    }));
  };
  const description = html('input', { id: 'token-description', maxlength: '100', placeholder: t('account.description_example') });
  const tokenForm = html('form', { class: 'choice-row' }, [
    html('label', { for: 'token-description', text: t('account.description') }), description,
    html('button', { type: 'submit', text: t('account.make_token') }),
  ]);
  tokenForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const { id, token } = await createToken(/** @type {HTMLInputElement} */ (description).value);
    shownId = id;
    made.hidden = false;
    made.replaceChildren(t('account.new_token'), html('code', { class: 'new-token', text: token }));
    await drawTokens();
  });
  const current = html('input', { id: 'current-password', type: 'password', required: true, autocomplete: 'current-password' });
  const next = html('input', { id: 'new-password', type: 'password', required: true, minlength: '8', maxlength: '128', autocomplete: 'new-password' });
  const passwordNote = html('p', { role: 'status' });
  const passwordForm = html('form', { class: 'account-form' }, [
    html('label', { for: 'current-password', text: t('account.current_password') }), current,
    html('label', { for: 'new-password', text: t('account.new_password') }), next,
    html('p', { class: 'hint', text: t('account.password_hint') }),
    html('button', { type: 'submit', text: t('account.change_password') }), passwordNote,
  ]);
  passwordForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await changePassword(/** @type {HTMLInputElement} */ (current).value, /** @type {HTMLInputElement} */ (next).value);
      /** @type {HTMLFormElement} */ (passwordForm).reset();
      passwordNote.className = 'notice';
      passwordNote.textContent = t('account.password_changed');
    } catch (e) {
      passwordNote.className = 'error';
      passwordNote.textContent = refusal(e, { unauthorized: 'account.wrong_password' });
    }
  });
  const password = html('input', { id: 'delete-password', type: 'password', autocomplete: 'current-password' });
  const deleteError = html('p', { class: 'error', role: 'alert' });
  const deleteForm = html('form', { class: 'choice-row' }, [
    html('label', { for: 'delete-password', text: t('account.password') }), password,
    html('button', { type: 'submit', text: t('account.delete') }), deleteError,
  ]);
  deleteForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await deleteAccount(/** @type {HTMLInputElement} */ (password).value);
      await refreshAccountLink();
      navigate('/');
    } catch (e) {
      deleteError.textContent = refusal(e, { unauthorized: 'account.wrong_password' });
    }
  });
  app.replaceChildren(html('section', { class: 'account-page' }, [
    html('h1', { text: account.username }),
    html('p', {}, [
      html('a', { href: `/@/${encodeURIComponent(account.username)}`, text: t('account.your_profile') }), ' · ',
      html('a', { href: '/challenges', text: t('account.your_challenges') }),
    ]),
    html('button', { type: 'button', text: t('account.sign_out'), onclick: async () => { await signOut(); await refreshAccountLink(); navigate('/'); } }),
    html('h2', { text: t('account.tokens') }),
    html('p', { text: t('account.tokens_text') }),
    tokenForm, made, list,
    html('h2', { text: t('account.password_title') }),
    passwordForm,
    html('h2', { text: t('account.delete_title') }),
    html('p', { text: t('account.delete_text') }),
    deleteForm,
  ]));
  await drawTokens();
}
