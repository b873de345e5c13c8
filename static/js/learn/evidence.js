// @ts-check
// "Evidence and limits": per game, what the ancient record attests, what the modern
// reconstructions infer, where this implementation chose, and the sources; each rule set with
// its label (suggestion, reconstruction, modern design).
import { html } from '../svg.js';
import { t } from '../i18n.js';
import { VARIANT_IDS, KIND, family } from './variants.js';

/**
 * The label of a rule set: suggestion, reconstruction or modern design, with what that means.
 * @param {string} variantId
 */
export function kindLabel(variantId) {
  const kind = KIND[variantId];
  return html('p', { class: `kind-label kind-${kind}` }, [
    html('strong', { text: t(`label.${kind}`) }),
    ` — ${t(`label.help.${kind}`)}`,
  ]);
}

const GAMES = [
  ['petteia', 'petteia', 'Petteia'],
  ['pente-grammai', 'pente', 'Pente Grammai'],
  ['duodecim-scripta', 'duodecim', 'Duodecim Scripta'],
];

/** @param {string | string[]} items */
const list = (items) => html('ul', {}, /** @type {string[]} */ ([]).concat(items).map((text) => html('li', { text })));

/** @param {HTMLElement} app */
export function showEvidence(app) {
  document.title = `Ludus — ${t('evidence.title')}`;
  const article = html('article', { class: 'evidence learn' }, [
    html('h1', { text: t('evidence.title') }),
    html('p', { class: 'summary', text: t('evidence.intro') }),
  ]);
  for (const [fam, key, name] of GAMES) {
    const sets = VARIANT_IDS.filter((id) => family(id) === fam && id !== 'petteia-8');
    article.append(html('section', { id: fam, class: 'evidence-game' }, [
      html('h2', { text: name }),
      ...sets.map((id) => html('div', { class: 'evidence-set' }, [
        html('a', { href: `/rules/${id}`, text: t(`variant.${id}`) }),
        kindLabel(id),
      ])),
      html('h3', { text: t('evidence.attested') }),
      list(t(`evidence.${key}.attested`)),
      html('h3', { text: t('evidence.inferred') }),
      list(t(`evidence.${key}.inferred`)),
      html('h3', { text: t('evidence.chosen') }),
      list(t(`evidence.${key}.chosen`)),
      html('h3', { text: t('evidence.sources') }),
      html('ul', { class: 'sources' }, /** @type {string[]} */ ([]).concat(t(`evidence.${key}.sources`)).map((text) => html('li', { text }))),
    ]));
  }
  app.append(article);
}
