// @ts-check
// A catalogue entry whose words follow a count `n`: English takes its singular for 1 alone, French
// for 0 and 1 (« 0 pion », « 1 pion », « 2 pions »).

/**
 * @param {string} one the words for n = 1
 * @param {string} other the words for any other n, with `{n}`
 * @returns {(params: { n?: number }) => string}
 */
export const plural = (one, other) => ({ n }) => (n === 1 ? one : other);

/**
 * The French rule: the singular for 0 and 1.
 * @param {string} one the words for n = 0 or 1, with `{n}`
 * @param {string} other the words for any other n, with `{n}`
 * @returns {(params: { n?: number }) => string}
 */
export const pluralFr = (one, other) => ({ n }) => (n === 0 || n === 1 ? one : other);
