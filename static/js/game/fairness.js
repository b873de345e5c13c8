// @ts-check
// A dice game's record checked in this browser, as `ludus verify` checks it (docs/RULES.md §4):
// the revealed server seed against the commitment shown before the first roll, the game's seed
// from it and both players' entropies, who moved first, and every die thrown. The moves are not
// replayed (the server's engine checked each one); the dice are what a player cannot see being
// dealt fairly. Pure but for the hashing, which is the browser's own (Web Crypto).

/** The largest multiple of 6 that fits in a u32: a die's draw at or above it is drawn again. */
const REJECT_FROM = 4294967292;
const encoder = new TextEncoder();

/**
 * @typedef {{ tags: Map<string, string>, rolls: number[][] }} ParsedRecord
 * @typedef {{ role: 'creator' | 'joiner', entropy: string }} Contribution
 * @typedef {{ ok: true, rolls: number, dice: number, first: string | null, yours: Contribution | null }
 *   | { ok: false, problem: string, params?: Record<string, string | number> }} Checked
 *   `problem` names the failure: an i18n key under `fair.`.
 */

/**
 * The tags and rolls of a record's text (the format of crates/engine/src/record.rs): `[Name
 * "value"]` lines with `\\`, `\"` and `\n` escaped, then whitespace-separated steps, a roll
 * written `{d,d,d}`.
 * @param {string} text
 * @returns {ParsedRecord | null} null when the text is not a record
 */
export function parseRecord(text) {
  const tags = new Map();
  /** @type {number[][]} */
  const rolls = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    if (line.startsWith('[')) {
      const tag = /^\[(\S+) "(.*)"\]$/.exec(line);
      if (!tag) return null;
      tags.set(tag[1], tag[2].replace(/\\(.)/g, (_, c) => (c === 'n' ? '\n' : c)));
      continue;
    }
    for (const token of line.split(/\s+/)) {
      if (!token.startsWith('{')) continue;
      const faces = /^\{([1-6](?:,[1-6])*)\}$/.exec(token);
      if (!faces) return null;
      rolls.push(faces[1].split(',').map(Number));
    }
  }
  return { tags, rolls };
}

/** @param {Uint8Array} bytes */
const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** @param {string} text 64 hex digits @returns {Uint8Array<ArrayBuffer> | null} */
function fromHex(text) {
  if (!/^[0-9a-fA-F]{64}$/.test(text)) return null;
  return Uint8Array.from(text.match(/../g) || [], (pair) => parseInt(pair, 16));
}

/** @param {...Uint8Array} parts @returns {Uint8Array<ArrayBuffer>} */
function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Checks a finished dice game's record.
 * @param {string} text the record, as `GET /api/v1/games/{id}/record` gives it
 * @param {{ subtle: SubtleCrypto, sides: string[], seedDrawsFirst: boolean, mine?: string | null }} how
 *   the browser's hashing; the variant's sides, first-listed first; whether the seed draws who
 *   moves first; the entropy this browser sent for the game, if it kept it
 * @returns {Promise<Checked>}
 */
export async function checkRecord(text, { subtle, sides, seedDrawsFirst, mine = null }) {
  const record = parseRecord(text);
  if (!record) return { ok: false, problem: 'unreadable' };
  const { tags, rolls } = record;
  const sha256 = async (/** @type {Uint8Array<ArrayBuffer>} */ bytes) => new Uint8Array(await subtle.digest('SHA-256', bytes));
  const server = fromHex(tags.get('ServerSeed') || '');
  if (!server) return { ok: false, problem: 'no_seed' };
  if (hex(await sha256(server)) !== (tags.get('Commitment') || '').toLowerCase()) return { ok: false, problem: 'commitment' };
  const creator = tags.get('CreatorEntropy') || '';
  const joiner = tags.get('JoinerEntropy') || '';
  const seed = await sha256(concat(encoder.encode('ludus-dice-v1'), server, await sha256(encoder.encode(creator)), await sha256(encoder.encode(joiner))));
  const stated = tags.get('Seed');
  if (stated !== undefined && stated.toLowerCase() !== hex(seed)) return { ok: false, problem: 'seed' };
  /** @type {Contribution | null} */
  let yours = null;
  if (mine) {
    if (mine === creator) yours = { role: 'creator', entropy: mine };
    else if (mine === joiner) yours = { role: 'joiner', entropy: mine };
    else return { ok: false, problem: 'entropy_missing', params: { entropy: mine } };
  }
  const key = await subtle.importKey('raw', seed, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const hmac = async (/** @type {Uint8Array<ArrayBuffer>} */ message) => new Uint8Array(await subtle.sign('HMAC', key, message));
  let first = null;
  if (seedDrawsFirst) {
    first = sides[(await hmac(encoder.encode('first')))[0] & 1];
    if (tags.has('First') && tags.get('First') !== first) return { ok: false, problem: 'first', params: { stated: tags.get('First') || '', drawn: first } };
  }
  let die = 0;
  for (const [index, roll] of rolls.entries()) {
    for (const written of roll) {
      const derived = await dieOf(hmac, die);
      if (written !== derived) return { ok: false, problem: 'die', params: { roll: index + 1, die, written, derived } };
      die += 1;
    }
  }
  return { ok: true, rolls: rolls.length, dice: die, first, yours };
}

/**
 * Die number `k` of the game: the first four bytes of HMAC-SHA256(seed, "die" ‖ u64_be(k) ‖
 * u32_be(attempt)) read big-endian, drawn again while at or above REJECT_FROM, then mod 6 + 1.
 * @param {(message: Uint8Array<ArrayBuffer>) => Promise<Uint8Array>} hmac
 * @param {number} k
 */
async function dieOf(hmac, k) {
  for (let attempt = 0; ; attempt += 1) {
    const message = new DataView(new ArrayBuffer(15));
    encoder.encodeInto('die', new Uint8Array(message.buffer, 0, 3));
    message.setBigUint64(3, BigInt(k));
    message.setUint32(11, attempt);
    const x = new DataView((await hmac(new Uint8Array(message.buffer))).buffer).getUint32(0);
    if (x < REJECT_FROM) return (x % 6) + 1;
  }
}
