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
/** Whether the last navigation took the keyboard's focus away with the page it left. */
let focusLeftWithPage = false;

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

/** @param {boolean} [byThePage] whether the page itself navigated (`navigate`), not the history or a load */
function route(byThePage = false) {
  if (!table) return;
  leaving?.abort();
  leaving = new AbortController();
  const { app, routes, notFound } = table;
  // The focus was in the page left, or nowhere (a button pressed disables itself while it works).
  const active = document.activeElement;
  focusLeftWithPage = byThePage && (!active || active === document.body || app.contains(active));
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
 * Gives the new page's `element` the keyboard's focus if the navigation took it away with the page
 * it left (a button pressed that opened this one: "Start the game", a rematch), so that a keyboard
 * or screen-reader user goes on from the new page's news, not from the top of the document. On a
 * page loaded fresh, or reached from the header, the focus is left where it is.
 * @param {HTMLElement} element
 */
export function landFocus(element) {
  if (focusLeftWithPage && (document.activeElement === document.body || !document.activeElement)) element.focus({ preventScroll: true });
  focusLeftWithPage = false;
}

/**
 * Shows `path` without reloading the page.
 * @param {string} path
 * @param {{ replace?: boolean }} [options]
 */
export function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  route(true);
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
  window.addEventListener('popstate', () => route());
  route();
}
