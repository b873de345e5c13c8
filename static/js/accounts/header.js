// @ts-check
// The header's account link: "Sign in" for a visitor, the player's name (to the account page)
// once signed in, with the links only a player has (Challenges) and their notices followed on
// every page. Pages that sign in or out call `refreshAccountLink`.
import { currentAccount } from './api.js';
import { followNotices } from './notices.js';
import { t } from '../i18n.js';

export async function refreshAccountLink() {
  const link = document.querySelector('[data-account-link]');
  if (!link) return;
  const account = await currentAccount();
  link.textContent = account ? account.username : t('nav.signin');
  link.setAttribute('href', account ? '/account' : '/signin');
  for (const signedIn of document.querySelectorAll('[data-signed-in]')) /** @type {HTMLElement} */ (signedIn).hidden = !account;
  if (account) followNotices(account.username);
}
