// @ts-check
// The invitation panel of an online game still waiting for the friend: the link, a copy button
// and a QR code.
import { html } from '../svg.js';
import { qrSvg } from '../qr.js';
import { t } from '../i18n.js';

/**
 * @param {string} url the `/join/<invite>` link to send
 */
export function invitePanel(url) {
  const field = /** @type {HTMLInputElement} */ (html('input', { type: 'text', readonly: true, value: url, id: 'invite-link', 'aria-label': t('invite.link') }));
  const copied = html('span', { class: 'copied', role: 'status' });
  const copy = html('button', { type: 'button', id: 'copy-invite', text: t('invite.copy') });
  copy.addEventListener('click', async () => {
    field.select();
    try {
      await navigator.clipboard.writeText(url);
      copied.textContent = t('invite.copied');
    } catch {
      copied.textContent = t('invite.select');
    }
  });
  return [
    html('h2', { text: t('invite.title') }),
    html('p', { text: t('invite.text') }),
    html('div', { class: 'invite-row' }, [field, copy, copied]),
    html('div', { class: 'qr-holder' }, [qrSvg(url, t('invite.qr'))]),
    html('p', { class: 'waiting', text: t('invite.waiting') }),
  ];
}
