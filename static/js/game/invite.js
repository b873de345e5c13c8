// @ts-check
// The invitation panel of an online game still waiting for the friend: the link, a copy button
// and a QR code.
import { html } from '../svg.js';
import { qrSvg } from '../qr.js';

/**
 * @param {string} url the `/join/<invite>` link to send
 */
export function invitePanel(url) {
  const field = /** @type {HTMLInputElement} */ (html('input', { type: 'text', readonly: true, value: url, id: 'invite-link', 'aria-label': 'Invitation link' }));
  const copied = html('span', { class: 'copied', role: 'status' });
  const copy = html('button', { type: 'button', id: 'copy-invite', text: 'Copy link' });
  copy.addEventListener('click', async () => {
    field.select();
    try {
      await navigator.clipboard.writeText(url);
      copied.textContent = 'Copied.';
    } catch {
      copied.textContent = 'Select the link and copy it.';
    }
  });
  return [
    html('h2', { text: 'Invite a friend' }),
    html('p', { text: 'Send this link to the person you want to play. The game starts when they open it.' }),
    html('div', { class: 'invite-row' }, [field, copy, copied]),
    html('div', { class: 'qr-holder' }, [qrSvg(url, 'QR code of the invitation link')]),
    html('p', { class: 'waiting', text: 'Waiting for your friend to join…' }),
  ];
}
