// The one page: routes on location.pathname. `/` home, `/join/<invite>`, `/game/<id>`,
// `/rules/<variant>`, `/rules/<variant>/print`, `/rules/evidence` and `/analysis`.
import { showHome } from './home.js';
import { showGame, joinAndShow, leaveGame } from './game.js';
import { showRules } from './rules.js';
import { showAnalysis } from './analysis.js';
import { html } from './svg.js';
import { t, translateStatic, languageSwitch } from './i18n.js';

const app = document.getElementById('app');

export function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  route();
}

function route() {
  leaveGame();
  app.replaceChildren();
  document.body.classList.remove('printable');
  const path = location.pathname.replace(/\/+$/, '') || '/';
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  try {
    if (parts.length === 0) return showHome(app);
    if (parts[0] === 'join' && parts[1]) return joinAndShow(app, parts[1]);
    if (parts[0] === 'game' && parts[1]) return showGame(app, parts[1]);
    if (parts[0] === 'rules') return showRules(app, parts[1], parts[2]);
    if (parts[0] === 'analysis') return showAnalysis(app, new URLSearchParams(location.search));
  } catch (error) {
    app.append(html('p', { class: 'error', role: 'alert', text: String(error.message || error) }));
    return undefined;
  }
  app.append(html('h1', { text: t('page.not_found') }), html('p', {}, [html('a', { href: '/', text: t('page.start') })]));
  return undefined;
}

// Links inside the page route without reloading.
document.addEventListener('click', (event) => {
  const link = event.target.closest && event.target.closest('a[href^="/"]');
  if (!link || link.target || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  if (link.hasAttribute('download')) return;
  event.preventDefault();
  navigate(link.getAttribute('href'));
});
window.addEventListener('popstate', route);
translateStatic();
document.getElementById('language-switch').append(languageSwitch(() => {
  translateStatic();
  route();
}));
route();
