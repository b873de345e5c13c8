// @ts-check
// The page's one router: a table of path patterns (`/game/:id`) to screen functions. Screens get
// the decoded parameters and an AbortSignal that fires when the page navigates away, so a screen
// stops its sockets and timers without the router knowing what it holds. This module imports no
// screen: screens import `navigate` from here, and app.js holds the table.

/**
 * @typedef {Record<string, string>} Params
 * @typedef {(app: HTMLElement, params: Params, signal: AbortSignal) => unknown} Screen
 * @typedef {[pattern: string, screen: Screen]} Route
 */

/** @type {{ app: HTMLElement, routes: Route[], notFound: Screen } | null} */
let table = null;
/** @type {AbortController | null} */
let leaving = null;

/**
 * The parameters of `path` under `pattern`, or null when it does not match or a part cannot be
 * decoded (`%ff` is no UTF-8).
 * @param {string} pattern
 * @param {string} path
 * @returns {Params | null}
 */
export function matchRoute(pattern, path) {
  const want = pattern.split('/').filter(Boolean);
  const got = path.split('/').filter(Boolean);
  if (want.length !== got.length) return null;
  /** @type {Params} */
  const params = {};
  for (let i = 0; i < want.length; i += 1) {
    let part;
    try {
      part = decodeURIComponent(got[i]);
    } catch {
      return null;
    }
    if (want[i].startsWith(':')) params[want[i].slice(1)] = part;
    else if (want[i] !== part) return null;
  }
  return params;
}

function route() {
  if (!table) return;
  leaving?.abort();
  leaving = new AbortController();
  const { app, routes, notFound } = table;
  app.replaceChildren();
  document.body.classList.remove('printable');
  for (const [pattern, screen] of routes) {
    const params = matchRoute(pattern, location.pathname);
    if (params) {
      screen(app, params, leaving.signal);
      return;
    }
  }
  notFound(app, {}, leaving.signal);
}

/**
 * Shows `path` without reloading the page.
 * @param {string} path
 * @param {{ replace?: boolean }} [options]
 */
export function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  route();
}

/**
 * Routes the page now and on every history change and same-site link click.
 * @param {HTMLElement} app
 * @param {Route[]} routes
 * @param {Screen} notFound
 */
export function startRouter(app, routes, notFound) {
  table = { app, routes, notFound };
  document.addEventListener('click', (event) => {
    const target = /** @type {Element | null} */ (event.target);
    const link = target?.closest?.('a[href^="/"]');
    if (!link || link.hasAttribute('target') || link.hasAttribute('download')) return;
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(link.getAttribute('href') || '/');
  });
  window.addEventListener('popstate', route);
  route();
}
