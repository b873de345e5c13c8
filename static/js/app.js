// @ts-check
// The one page: which screen each address shows. Adding a page is one line in ROUTES.
import { startRouter, navigate } from './router.js';
import { showHome } from './home.js';
import { showGame, joinAndShow } from './game/screen.js';
import { showRules } from './rules.js';
import { showAnalysis } from './analysis.js';
import { showVerify } from './verify.js';
import { t, translateStatic, languageSwitch } from './i18n.js';
import { showNotFound } from './notfound.js';
import { variants } from './api.js';
import { showCredentialsForm } from './accounts/forms.js';
import { showAccount } from './accounts/account.js';
import { showProfile } from './accounts/profile.js';
import { showLeaderboard } from './accounts/leaderboard.js';
import { showChallenges } from './accounts/challenges.js';
import { refreshAccountLink } from './accounts/header.js';

/**
 * The rules page of a variant the server knows, or the not-found page.
 * @param {boolean} printable
 * @returns {import('./router.js').Screen}
 */
const rulesPage = (printable) => async (app, { variant }) => {
  const known = await variants().then((list) => list.some((v) => v.id === variant), () => true);
  if (!known) return showNotFound(app, t('notfound.no_rules', { variant }));
  return showRules(app, variant, printable ? 'print' : undefined);
};

/** @type {import('./router.js').Route[]} */
const ROUTES = [
  ['/', (app, _, signal) => showHome(app, signal)],
  ['/join/:invite', (app, { invite }) => joinAndShow(app, invite)],
  ['/game/:id', (app, { id }, signal) => showGame(app, id, signal)],
  ['/rules', (app) => showRules(app, undefined)],
  ['/rules/evidence', (app) => showRules(app, 'evidence')],
  ['/analysis', (app) => showAnalysis(app, new URLSearchParams(location.search))],
  ['/verify', (app) => showVerify(app, new URLSearchParams(location.search))],
  ['/rules/:variant', rulesPage(false)],
  ['/rules/:variant/print', rulesPage(true)],
  ['/signup', (app) => showCredentialsForm(app, 'signup')],
  ['/signin', (app) => showCredentialsForm(app, 'signin')],
  ['/account', (app) => showAccount(app)],
  ['/@/:username', (app, { username }) => showProfile(app, username)],
  ['/leaderboard', (app) => showLeaderboard(app)],
  ['/challenges', (app, _, signal) => showChallenges(app, new URLSearchParams(location.search), signal)],
];

const app = document.getElementById('app');
translateStatic();
// The header's language switch re-draws the page in the chosen language.
document.getElementById('language-switch')?.append(languageSwitch(() => {
  translateStatic();
  navigate(location.pathname + location.search, { replace: true });
}));
if (app) startRouter(app, ROUTES, (page) => showNotFound(page));
refreshAccountLink();
