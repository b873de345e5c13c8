// @ts-check
// What the learning pages need to know about each rule set beyond the server's catalogue: the
// family whose notation and habits it shares, and whether it is a suggestion, a reconstruction
// or a modern design (docs/RULES.md, "Each game page states plainly what the seeds state").

export const VARIANT_IDS = [
  'petteia-6', 'petteia-8',
  'pente-grammai-schaedler', 'pente-grammai-kidd', 'pente-grammai-perimeter',
  'duodecim-scripta',
];

/**
 * `petteia`, `pente-grammai` or `duodecim-scripta`.
 * @param {string} variantId
 * @returns {string}
 */
export function family(variantId) {
  if (variantId.startsWith('petteia')) return 'petteia';
  if (variantId.startsWith('pente-grammai')) return 'pente-grammai';
  return 'duodecim-scripta';
}

/**
 * The label each rule set carries: `suggestion`, `reconstruction` or `modern`.
 * @type {Record<string, 'suggestion' | 'reconstruction' | 'modern'>}
 */
export const KIND = {
  'petteia-6': 'reconstruction',
  'petteia-8': 'reconstruction',
  'pente-grammai-schaedler': 'suggestion',
  'pente-grammai-kidd': 'reconstruction',
  'pente-grammai-perimeter': 'modern',
  'duodecim-scripta': 'reconstruction',
};

/** The key of a variant's numbered rules: the two Petteia boards share theirs. @param {string} variantId */
export const stepsKey = (variantId) => `steps.${family(variantId) === 'petteia' ? 'petteia' : variantId}`;

/**
 * An empty board of each variant, for printing and for setting up on the analysis board.
 * @type {Record<string, string>}
 */
export const EMPTY = {
  'petteia-6': '6/6/6/6/6/6 l',
  'petteia-8': '8/8/8/8/8/8/8/8 l',
  'pente-grammai-schaedler': '-/-/-/-/-/-/-/-/-/- t',
  'pente-grammai-kidd': '-/-/-/-/-/-/-/-/-/- t r:0,0 h:0,0',
  'pente-grammai-perimeter': '-/-/-/-/-/-/-/-/-/- t x:0,0',
  'duodecim-scripta': '.,.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,. w r:0,0 o:0,0 dice:[] bonus:[]',
};
