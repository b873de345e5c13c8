// @ts-check
// "Print rules and boards": the numbered rules and a blank board at a size to play on. The paper
// (A4 or US Letter) sets the page's @page size; Duodecim's board faces are offered as choices.
import { html } from '../svg.js';
import { t } from '../i18n.js';
import { EMPTY, stepsKey } from './variants.js';
import { diagramBoard } from './diagram.js';
import { FACES } from '../boards/duodecim.js';

/** @type {Record<string, string>} */
const PAPERS = { a4: 'A4', letter: 'letter' };

/**
 * @param {string} name
 * @param {string} value
 * @param {string} label
 * @param {boolean} checked
 * @param {() => void} onChange
 */
function choice(name, value, label, checked, onChange) {
  const id = `${name}-${value}`;
  return html('label', { class: 'choice', for: id }, [
    html('input', { type: 'radio', name, value, id, checked: checked || undefined, onchange: onChange }),
    html('span', { text: label }),
  ]);
}

/**
 * The @page rule for a paper, in its own style element so the choice replaces the last one.
 * @param {string} paper
 */
function setPaper(paper) {
  let style = document.getElementById('paper-size');
  if (!style) {
    style = html('style', { id: 'paper-size' });
    document.head.append(style);
  }
  style.textContent = `@page { size: ${PAPERS[paper]} portrait; margin: 12mm; }`;
  document.body.dataset.paper = paper;
}

/**
 * @param {HTMLElement} app
 * @param {import('../api.js').Variant} variant
 */
export function showPrint(app, variant) {
  const name = t(`variant.${variant.id}`);
  document.title = `Ludus — ${t('print.title', { name })}`;
  document.body.classList.add('printable');
  const holder = html('figure', { class: 'print-board' });
  let face = 'virtvs';
  const drawBoard = () => {
    holder.replaceChildren(diagramBoard(variant.id, EMPTY[variant.id], { face }), html('figcaption', { text: t('print.blank') }));
  };
  const controls = html('form', { class: 'print-controls no-print' }, [
    html('fieldset', {}, [
      html('legend', { text: t('print.paper') }),
      choice('paper', 'a4', t('print.a4'), true, () => setPaper('a4')),
      choice('paper', 'letter', t('print.letter'), false, () => setPaper('letter')),
    ]),
  ]);
  if (variant.id === 'duodecim-scripta') {
    controls.append(html('fieldset', {}, [
      html('legend', { text: t('print.face') }),
      ...Object.keys(FACES).map((f) => choice('face', f, t(`face.${f}`), f === face, () => { face = f; drawBoard(); })),
    ]));
  }
  controls.append(html('p', {}, [
    html('button', { type: 'button', id: 'print', class: 'primary', text: t('print.print'), onclick: () => window.print() }),
    ' ',
    html('a', { href: `/rules/${variant.id}`, text: t('print.back') }),
  ]));
  drawBoard();
  setPaper('a4');
  app.append(html('article', { class: 'rules print-sheet learn' }, [
    html('h1', { text: t('print.title', { name }) }),
    controls,
    html('ol', { class: 'rule-list' }, /** @type {string[]} */ ([]).concat(t(stepsKey(variant.id))).map((text) => html('li', { text }))),
    holder,
  ]));
}
