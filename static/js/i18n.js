// @ts-check
// The client's words in English and French: `t(key, params)` looks a key up in the chosen
// catalogue (falling back to English, then to the key, so a missing word shows rather than breaks).
// The language comes from `?lang=` (a choice, remembered as the switch's is), else the remembered
// choice, else the browser. This module never touches the page beyond <html lang> and the switch
// it builds.
import en from './i18n/en.js';
import fr from './i18n/fr.js';

/** @type {Record<string, Record<string, any>>} */
export const CATALOGUES = { en, fr };
export const LANGUAGES = Object.keys(CATALOGUES);
const STORAGE_KEY = 'ludus.lang';

/**
 * The language to use: the query's, else the stored one, else the first supported browser language.
 * @param {{ query?: string | null, stored?: string | null, browser?: readonly string[] }} [choices]
 * @returns {string}
 */
export function chooseLanguage({ query = null, stored = null, browser = [] } = {}) {
  return supported(query) || supported(stored) || browser.map(supported).find(Boolean) || 'en';
}

/**
 * The language a code names (`fr-CA`: `fr`), if the client has it.
 * @param {string | null | undefined} code
 */
function supported(code) {
  const base = String(code || '').toLowerCase().split('-')[0];
  return LANGUAGES.includes(base) ? base : null;
}

function storedLanguage() {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

let current = typeof window === 'undefined'
  ? 'en'
  : chooseLanguage({
    query: new URLSearchParams(location.search).get('lang'),
    stored: storedLanguage(),
    browser: navigator.languages || [navigator.language],
  });

// A link that names its language is a choice: the pages reached from it, and the site opened
// again without it, stay in that language (they went back to the browser's).
if (typeof window !== 'undefined') {
  const asked = supported(new URLSearchParams(location.search).get('lang'));
  if (asked) remember(asked);
}

export const language = () => current;

/**
 * The locale for dates and numbers: the reader's own variant of the page's language when the
 * browser names one (`en-GB` writes 7/12/2026 where `en` writes 12/7/2026), else the language.
 */
export function locale() {
  if (typeof navigator === 'undefined') return current;
  return (navigator.languages || [navigator.language]).find((tag) => tag.split('-')[0] === current) || current;
}

/**
 * A fraction as the reader's language writes a percentage, whole (French: 67 %).
 * @param {number} fraction 0 to 1
 * @returns {string}
 */
export const percent = (fraction) => new Intl.NumberFormat(locale(), { style: 'percent', maximumFractionDigits: 0 }).format(fraction);

/** @type {Map<string, string>} */
const decimalMarks = new Map();

/**
 * The reader's decimal mark (French: a comma), for the clocks' tenths ("0:07,9").
 * @returns {string}
 */
export function decimalMark() {
  const tag = locale();
  let mark = decimalMarks.get(tag);
  if (mark === undefined) {
    mark = new Intl.NumberFormat(tag).formatToParts(0.5).find((part) => part.type === 'decimal')?.value ?? '.';
    decimalMarks.set(tag, mark);
  }
  return mark;
}

/**
 * Switches the language and remembers it; the caller re-renders.
 * @param {string} lang
 */
export function setLanguage(lang) {
  current = chooseLanguage({ query: lang });
  remember(current);
  // Outside a page (the unit tests) there is no document to mark.
  if (typeof document !== 'undefined') document.documentElement.lang = current;
}

/** @param {string} lang */
function remember(lang) {
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    // Private browsing without storage: the choice lasts for this page.
  }
}

/**
 * `t('key', {n: 3})`: the text of `key` in the current language, `{n}` replaced by the parameter.
 * Most entries are strings; some are lists (the rules' steps) or functions of the parameters.
 * @param {string} key
 * @param {Record<string, any>} [params]
 * @param {string} [lang]
 * @returns {any}
 */
export function t(key, params = {}, lang = current) {
  const entry = CATALOGUES[lang][key] ?? CATALOGUES.en[key];
  if (entry === undefined) return key;
  const text = typeof entry === 'function' ? entry(params) : entry;
  return typeof text === 'string'
    ? text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole))
    : text;
}

/**
 * The person-facing message of an API error (ApiError or any thrown error), in the current language.
 * @param {any} error
 * @returns {string}
 */
export function errorMessage(error) {
  const code = error && error.code;
  // An HTTP error keeps its object as `body`; a socket's error message is the object itself.
  const body = (error && (error.body || error)) || {};
  if (body.refusal && t(`refusal.${body.refusal}`) !== `refusal.${body.refusal}`) return t(`refusal.${body.refusal}`);
  if (code && t(`error.${code}`) !== `error.${code}`) {
    const detail = body.reason || body.message;
    const params = { ...body, detail: detail || '' };
    return t(`error.${code}`, params);
  }
  return t('error.network', { detail: String((error && error.message) || error) });
}

/** A label for a side (`light`, `terracotta`, …). @param {string} side @returns {string} */
export const sideLabel = (side) => t(`side.${side}`);

/**
 * A move as the move lists show it: its notation (docs/RULES.md §3), whose two words, `decline`
 * (the bonus dice) and `pass` (Pente Grammai's `5:pass`), are in the reader's language.
 * @param {string} move
 * @param {string} [lang]
 * @returns {string}
 */
export function moveLabel(move, lang = current) {
  if (move === 'decline') return t('notation.decline', {}, lang);
  const pass = /^(\d):pass$/.exec(move);
  return pass ? `${pass[1]}:${t('notation.pass', {}, lang)}` : move;
}

/**
 * How a game ended, in words (`termination.<id>` in the catalogues); an ending the catalogue does
 * not know shows as the server names it.
 * @param {string} id
 * @returns {string}
 */
export function terminationLabel(id) {
  const words = t(`termination.${id}`);
  return words === `termination.${id}` ? id : words;
}

/**
 * The header's language switch: a select that remembers the choice and reloads the page's words.
 * @param {() => void} onChange
 */
export function languageSwitch(onChange) {
  const select = document.createElement('select');
  select.id = 'language';
  select.setAttribute('aria-label', t('lang.choose'));
  for (const lang of LANGUAGES) {
    const option = document.createElement('option');
    option.value = lang;
    option.textContent = t('lang.name', {}, lang);
    option.selected = lang === current;
    select.append(option);
  }
  select.addEventListener('change', () => {
    setLanguage(select.value);
    select.setAttribute('aria-label', t('lang.choose'));
    onChange();
  });
  return select;
}

/**
 * Fills every `[data-i18n]` element under `root` with its key's text (the static page header).
 * @param {ParentNode} [root]
 */
export function translateStatic(root = document) {
  document.documentElement.lang = current;
  // The selectors guarantee the data attribute each loop reads.
  for (const node of root.querySelectorAll('[data-i18n]')) {
    node.textContent = t(/** @type {string} */ (/** @type {HTMLElement} */ (node).dataset.i18n));
  }
  for (const node of root.querySelectorAll('[data-i18n-label]')) {
    node.setAttribute('aria-label', t(/** @type {string} */ (/** @type {HTMLElement} */ (node).dataset.i18nLabel)));
  }
}
