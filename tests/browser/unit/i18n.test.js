// The client's words for what the server answers: every error code and every refusal that
// docs/API.md lists has its words in each catalogue, so no answer shows as "the server did not
// answer" or in English on a French page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CATALOGUES, t } from '../../../static/js/i18n.js';

const API = readFileSync(new URL('../../../docs/API.md', import.meta.url), 'utf8');
const conventions = API.slice(API.indexOf('## Conventions'), API.indexOf('## Routes the server serves'));

/** The codes of the error table's rows: `| 409 | \`stale\`, \`conflict\` …`. */
const codes = [...conventions.matchAll(/^ {2}\| \d{3} \| ([^|]+)\|/gm)]
  .flatMap(([, cell]) => [...cell.replace(/\(.*?\)/g, '').matchAll(/`([a-z_]+)`/g)].map(([, code]) => code));
/** The refusals' names, listed after "A rule of play that refuses a request names itself". */
const refusals = [...conventions.slice(conventions.indexOf('names itself in `refusal`')).split('A client that does not know')[0]
  .matchAll(/`([a-z_]+)`/g)].map(([, name]) => name).filter((name) => name !== 'refusal');

test('docs/API.md lists the codes and refusals this test reads', () => {
  assert.ok(codes.includes('conflict') && codes.includes('unavailable') && codes.length >= 12, codes.join());
  assert.ok(refusals.includes('nothing_to_take_back') && refusals.length >= 17, refusals.join());
});

for (const [language, words] of Object.entries(CATALOGUES)) {
  test(`every documented error code and refusal has its words in ${language}`, () => {
    assert.deepEqual(codes.filter((code) => !(`error.${code}` in words)), []);
    assert.deepEqual(refusals.filter((name) => !(`refusal.${name}` in words)), []);
  });
}

test('words that follow a count agree with it', () => {
  const tray = { side: 'Noir', tray: 'réserve' };
  assert.equal(t('place.tray', { ...tray, n: 1 }, 'fr'), 'Noir, réserve\u00a0: 1 pion');
  assert.equal(t('place.tray', { ...tray, n: 12 }, 'fr'), 'Noir, réserve\u00a0: 12 pions');
  assert.equal(t('place.white', { place: 'M3', n: 2 }, 'fr'), 'M3, 2 blancs');
  assert.equal(t('place.tray', { side: 'Black', tray: 'reserve', n: 1 }, 'en'), 'Black reserve, 1 piece');
});

test('a challenge\'s clock reads as its players name it, in the page\'s numbers', async () => {
  const { clockTerms } = await import('../../../static/js/accounts/challenges.js');
  assert.equal(clockTerms({ initial_ms: 600000, increment_ms: 5000 }), '10+5');
  // Not whole minutes: as the clock shows it (it read 0.3333333333333333+1.5).
  assert.equal(clockTerms({ initial_ms: 20000, increment_ms: 1500 }), '0:20+1.5');
});
