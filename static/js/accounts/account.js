// @ts-check
// The account page: personal API tokens (each shown once, when made), signing out, and deleting
// the account with its password (its games stay, shown under "deleted").
import { html } from '../svg.js';
import { navigate } from '../router.js';
import { currentAccount, tokens, createToken, revokeToken, signOut, deleteAccount } from './api.js';
import { refreshAccountLink } from './header.js';

/** @param {HTMLElement} app */
export async function showAccount(app) {
  document.title = 'Ludus — account';
  const account = await currentAccount();
  if (!account) {
    navigate('/signin', { replace: true });
    return;
  }
  const list = html('ul', { class: 'token-list', 'aria-label': 'Personal API tokens' });
  const made = html('p', { class: 'notice', role: 'status', hidden: true });
  const drawTokens = async () => {
    const items = await tokens();
    list.replaceChildren(...items.map((t) => html('li', {}, [
      `${t.description || '(no description)'} — made ${new Date(t.created_at).toLocaleDateString()} `,
      html('button', { type: 'button', text: 'Revoke', onclick: async () => { await revokeToken(t.id); await drawTokens(); } }),
    ])));
  };
  const description = html('input', { id: 'token-description', maxlength: '100', placeholder: 'e.g. my bot' });
  const tokenForm = html('form', { class: 'choice-row' }, [
    html('label', { for: 'token-description', text: 'Description' }), description,
    html('button', { type: 'submit', text: 'Make a token' }),
  ]);
  tokenForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const { token } = await createToken(/** @type {HTMLInputElement} */ (description).value);
    made.hidden = false;
    made.replaceChildren('Your new token, shown this once: ', html('code', { class: 'new-token', text: token }));
    await drawTokens();
  });
  const password = html('input', { id: 'delete-password', type: 'password', autocomplete: 'current-password' });
  const deleteError = html('p', { class: 'error', role: 'alert' });
  const deleteForm = html('form', { class: 'choice-row' }, [
    html('label', { for: 'delete-password', text: 'Password' }), password,
    html('button', { type: 'submit', text: 'Delete my account' }), deleteError,
  ]);
  deleteForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await deleteAccount(/** @type {HTMLInputElement} */ (password).value);
      await refreshAccountLink();
      navigate('/');
    } catch (e) {
      deleteError.textContent = /** @type {Error} */ (e).message;
    }
  });
  app.replaceChildren(html('section', { class: 'account-page' }, [
    html('h1', { text: account.username }),
    html('p', {}, [html('a', { href: `/@/${encodeURIComponent(account.username)}`, text: 'Your profile' })]),
    html('button', { type: 'button', text: 'Sign out', onclick: async () => { await signOut(); await refreshAccountLink(); navigate('/'); } }),
    html('h2', { text: 'Personal API tokens' }),
    html('p', { text: 'A token lets a program (a bot) act as you: send it as "Authorization: Bearer <token>".' }),
    tokenForm, made, list,
    html('h2', { text: 'Delete the account' }),
    html('p', { text: 'Your tokens go; your games stay, shown under “deleted”.' }),
    deleteForm,
  ]));
  await drawTokens();
}
