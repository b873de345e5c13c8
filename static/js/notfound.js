// @ts-check
// The page for an address that names nothing: an unknown route, variant or game.
import { html } from './svg.js';

/**
 * @param {HTMLElement} app
 * @param {string} [what] what was not found, for people
 */
export function showNotFound(app, what = 'There is no page at this address.') {
  document.title = 'Ludus — not found';
  app.replaceChildren(
    html('section', { class: 'not-found' }, [
      html('h1', { text: 'Not found' }),
      html('p', { class: 'error', role: 'alert', text: what }),
      html('ul', {}, [
        html('li', {}, [html('a', { href: '/', text: 'Start a new game' })]),
        html('li', {}, [html('a', { href: '/rules', text: 'Read the rules' })]),
      ]),
    ]),
  );
}
