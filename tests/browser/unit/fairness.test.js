// The dice check of a finished game's record (static/js/game/fairness.js) against the golden
// values of crates/engine/src/dice.rs, which were computed independently of either code: the
// server seed 00 01 … 1f, the entropies "alice" and "bob", and the dice they give.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { checkRecord, parseRecord } from '../../../static/js/game/fairness.js';

const SERVER_SEED = Array.from({ length: 32 }, (_, i) => i.toString(16).padStart(2, '0')).join('');
const COMMITMENT = '630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd';
const SEED = '35c085ab3ce05e73928bf2dd5585aa9f56c9301ef789dd1fe6865b5ebcf3df21';
const DICE = [3, 2, 4, 4, 1, 4, 5, 3, 3, 2, 3, 5, 6, 3, 5, 1, 2, 1];
const how = { subtle: webcrypto.subtle, sides: ['white', 'black'], seedDrawsFirst: true };

/** A Duodecim record as the server writes it, three dice a roll, moves between the rolls. */
function record({ serverSeed = SERVER_SEED, commitment = COMMITMENT, first = 'white', creator = 'alice', dice = DICE } = {}) {
  const rolls = [];
  for (let i = 0; i < dice.length; i += 3) rolls.push(`{${dice.slice(i, i + 3).join(',')}} 1:R-M1 2:R-M2`);
  return [
    '[Variant "duodecim-scripta"]', `[Commitment "${commitment}"]`, `[CreatorEntropy "${creator}"]`,
    '[JoinerEntropy "bob"]', `[ServerSeed "${serverSeed}"]`, `[Seed "${SEED}"]`, `[First "${first}"]`,
    '[Result "0-1"]', '[Termination "resignation"]', '[RulesVersion "1"]', '', ...rolls, '',
  ].join('\n');
}

test('a true record checks: the commitment, the seed from both entropies, who moved first and every die', async () => {
  assert.deepEqual(await checkRecord(record(), how), { ok: true, rolls: 6, dice: 18, first: 'white', yours: null });
  assert.deepEqual((await checkRecord(record(), { ...how, mine: 'bob' })).yours, { role: 'joiner', entropy: 'bob' });
  assert.deepEqual((await checkRecord(record(), { ...how, mine: 'alice' })).yours, { role: 'creator', entropy: 'alice' });
});

test('the first altered die is named, with the face the seed gives', async () => {
  const dice = [...DICE];
  dice[7] = 6;
  assert.deepEqual(await checkRecord(record({ dice }), how), { ok: false, problem: 'die', params: { roll: 3, die: 7, written: 6, derived: 3 } });
});

test('a seed that is not the committed one, a changed entropy, a wrong first player and a missing entropy fail', async () => {
  const other = `ff${SERVER_SEED.slice(2)}`;
  assert.deepEqual(await checkRecord(record({ serverSeed: other }), how), { ok: false, problem: 'commitment' });
  assert.deepEqual(await checkRecord(record({ creator: 'mallory' }), how), { ok: false, problem: 'seed' });
  assert.deepEqual(await checkRecord(record({ first: 'black' }), how), { ok: false, problem: 'first', params: { stated: 'black', drawn: 'white' } });
  assert.deepEqual(await checkRecord(record(), { ...how, mine: 'carol' }), { ok: false, problem: 'entropy_missing', params: { entropy: 'carol' } });
  assert.deepEqual(await checkRecord(record({ serverSeed: '' }), how), { ok: false, problem: 'no_seed' });
});

test('the empty entropies give the golden dice too', async () => {
  const lines = record().split('\n').filter((l) => !/^\[(CreatorEntropy|JoinerEntropy|Seed|First) /.test(l));
  const rolls = [[5, 6, 6], [4, 5, 4], [6, 2, 3]].map((r) => `{${r.join(',')}}`).join(' ');
  const text = lines.filter((l) => !l.startsWith('{')).join('\n') + rolls;
  assert.deepEqual(await checkRecord(text, { ...how, seedDrawsFirst: false }), { ok: true, rolls: 3, dice: 9, first: null, yours: null });
});

test('a record reads its escaped tags and refuses what is not a record', () => {
  const parsed = parseRecord('[CreatorEntropy "a\\"b\\\\c\\nd"]\n\n{1,2,3} 1:R-M1\n{4}');
  assert.equal(parsed?.tags.get('CreatorEntropy'), 'a"b\\c\nd');
  assert.deepEqual(parsed?.rolls, [[1, 2, 3], [4]]);
  assert.equal(parseRecord('[Variant duodecim]'), null);
  assert.equal(parseRecord('{1,7}'), null);
});
