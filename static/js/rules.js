// @ts-check
// Rules pages: one per variant (numbered steps, worked examples drawn from positions, the
// notation, habits for beginners, the rule set's label), the "Evidence and limits" page, and the
// printable rules with a blank board. Words come from the i18n catalogues; the server's variants
// endpoint gives only what it alone knows (sides, dice, who starts).
import { variants } from './api.js';
import { html } from './svg.js';
import { t, errorMessage } from './i18n.js';
import { VARIANT_IDS, family, stepsKey } from './learn/variants.js';
import { examplesFor } from './learn/examples.js';
import { exampleFigure, diagramBoard } from './learn/diagram.js';
import { START } from './boards/index.js';
import { showPrint } from './learn/print.js';
import { showEvidence, kindLabel } from './learn/evidence.js';

/**
 * @param {string} tag
 * @param {string | string[]} items
 * @param {import('./svg.js').Attrs} [attrs]
 */
const list = (tag, items, attrs = {}) => html(tag, attrs, /** @type {string[]} */ ([]).concat(items).map((text) => html('li', { text })));

/**
 * @param {HTMLElement} app
 * @param {string} [variantId] absent: the first rule set
 * @param {string} [page] `print` for the printable rules
 */
export async function showRules(app, variantId, page) {
  if (variantId === 'evidence') return showEvidence(app);
  let catalogue;
  try {
    catalogue = await variants();
  } catch (error) {
    app.append(html('p', { class: 'error', role: 'alert', text: errorMessage(error) }));
    return undefined;
  }
  const variant = catalogue.find((v) => v.id === variantId) || catalogue.find((v) => v.id === VARIANT_IDS[0]);
  // The server lists every variant; without any there is no page to draw (as before: it throws).
  if (!variant) throw new Error('the server lists no variants');
  if (page === 'print') return showPrint(app, variant);
  const name = t(`variant.${variant.id}`);
  document.title = `Ludus — ${t('rules.title', { name })}`;
  const fam = family(variant.id);
  const article = html('article', { class: 'rules learn' }, [
    html('nav', { class: 'variant-tabs', 'aria-label': t('rules.rule_sets') },
      VARIANT_IDS.map((id) => html('a', { href: `/rules/${id}`, 'aria-current': id === variant.id ? 'page' : undefined, text: t(`variant.${id}`) }))),
    html('h1', { text: t('rules.title', { name }) }),
    kindLabel(variant.id),
    html('p', { class: 'rules-actions' }, [
      html('a', { href: `/?variant=${variant.id}`, class: 'button-link', id: 'play-it', text: t('rules.play_link') }),
      html('a', { href: `/rules/${variant.id}/print`, id: 'printable', class: 'button-link', text: t('rules.print_link') }),
      html('a', { href: `/analysis?variant=${variant.id}`, class: 'button-link', text: t('rules.analyse_link') }),
    ]),
    html('h2', { text: t('rules.steps') }),
    list('ol', t(stepsKey(variant.id)), { class: 'rule-list' }),
    html('figure', { class: 'rules-board' }, [
      diagramBoard(variant.id, START[variant.id]),
      html('figcaption', { text: t('rules.start_board') }),
    ]),
    html('h2', { text: t('rules.examples') }),
    html('div', { class: 'worked-examples' }, examplesFor(variant.id).map((example) => exampleFigure(example, t))),
    html('h2', { text: t('rules.notation') }),
    html('p', { class: 'notation', text: t(`notation.${fam}`) }),
    html('h2', { text: t('rules.habits') }),
    list('ul', t(`habits.${fam}`), { class: 'habits' }),
    html('p', {}, [html('a', { href: `/rules/evidence#${fam}`, id: 'evidence-link', text: t('rules.evidence_link') })]),
  ]);
  app.append(article);
  return undefined;
}
