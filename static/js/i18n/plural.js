// @ts-check
// A catalogue entry whose words follow a count `n`: one form for 1, another for every other count.

/**
 * @param {string} one the words for n = 1
 * @param {string} other the words for any other n, with `{n}`
 * @returns {(params: { n?: number }) => string}
 */
export const plural = (one, other) => ({ n }) => (n === 1 ? one : other);
