// @ts-check
// The page for an address that names nothing: an unknown route, variant or game.
import { html } from './svg.js';
import { t } from './i18n.js';

/**
 * @param {HTMLElement} app
 * @param {string} [what] what was not found, for people
 */
export function showNotFound(app, what = t('notfound.default')) {
  document.title = `Ludus — ${t('notfound.title')}`;
  app.replaceChildren(
    html('section', { class: 'not-found' }, [
      html('h1', { text: t('notfound.title') }),
      html('p', { class: 'error', role: 'alert', text: what }),
      html('ul', {}, [
        html('li', {}, [html('a', { href: '/', text: t('notfound.new') })]),
        html('li', {}, [html('a', { href: '/rules', text: t('notfound.rules') })]),
      ]),
    ]),
  );
}
