// @ts-check
// `/verify` (and `/verify?game=<id>`): any dice game's record checked in this browser, as the game
// page checks its own once it is over (static/js/game/fairness.js): a record pasted or opened
// from a file, from this server or another, or this server's game named in the address.
import { variants, gameRecord } from './api.js';
import { html } from './svg.js';
import { t, errorMessage } from './i18n.js';
import { checkRecord, parseRecord } from './game/fairness.js';
import { diceCheckText } from './game/panels.js';

/**
 * @param {HTMLElement} app
 * @param {URLSearchParams} query
 */
export function showVerify(app, query) {
  document.title = `Ludus — ${t('verify.title')}`;
  const record = /** @type {HTMLTextAreaElement} */ (html('textarea', { id: 'verify-record', rows: '12', spellcheck: 'false' }));
  const file = /** @type {HTMLInputElement} */ (html('input', { type: 'file', id: 'verify-file', accept: '.txt,text/plain' }));
  const result = html('p', { class: 'dice-check', role: 'status' });

  async function check() {
    result.classList.remove('refusal');
    result.textContent = t('fair.checking');
    const { text, failed } = await said(record.value);
    result.textContent = text;
    result.classList.toggle('refusal', failed);
  }
  file.addEventListener('change', async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    record.value = await chosen.text();
    await check();
  });
  const form = html('form', { class: 'verify' }, [
    html('label', { for: 'verify-record', text: t('verify.record') }), record,
    html('label', { for: 'verify-file', text: t('verify.file') }), file,
    html('button', { type: 'submit', id: 'verify-check', text: t('verify.check') }),
  ]);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    check();
  });
  app.replaceChildren(html('section', { class: 'verify-page' }, [
    html('h1', { text: t('verify.title') }),
    html('p', { text: t('verify.intro') }),
    form,
    result,
  ]));
  const game = query.get('game');
  if (game) {
    gameRecord(game).then((text) => {
      record.value = text;
      return check();
    }, (error) => {
      result.textContent = errorMessage(error);
    });
  }
}

/**
 * What the check of `text` found, in words, and whether the record failed it.
 * @param {string} text
 * @returns {Promise<{ text: string, failed: boolean }>}
 */
async function said(text) {
  if (!globalThis.crypto?.subtle) return { text: t('fair.unavailable'), failed: false };
  const variant = parseRecord(text)?.tags.get('Variant');
  const known = await variants().then((list) => list.find((v) => v.id === variant), () => undefined);
  if (!known || !known.dice) return { text: t('fair.failed', { why: t('fair.no_dice_variant') }), failed: true };
  const checked = await checkRecord(text, { subtle: crypto.subtle, sides: known.players, seedDrawsFirst: known.first === 'seed' });
  return { text: diceCheckText(checked), failed: !checked.ok };
}
