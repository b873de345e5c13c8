// @ts-check
// The worked examples of the rules pages: each is a position in the docs/RULES.md notation, the dice
// (Pente Grammai; Duodecim carries them in its position), the moves played, the position after
// them as the server writes it, the places where a piece was taken (marked on the diagram) and,
// where the lesson is a move that is NOT allowed, that move. learn-unit.test.js replays every
// example through POST /api/v1/analysis/play, so an example cannot show a rule the engine breaks.

/**
 * @typedef {{ key: string, variant: string, position: string, dice?: number[], moves: string[],
 *   after: string, taken: string[], refused?: string }} Example
 */

/** @type {Record<string, Example[]>} */
export const EXAMPLES = {
  petteia: [
    { key: 'petteia.trap', variant: 'petteia-6', position: '4DD/6/L5/2D3/2L3/6 l', moves: ['A4-C4'], after: '4DD/6/2L3/6/2L3/6 d 0 1', taken: ['C3'] },
    { key: 'petteia.safe', variant: 'petteia-6', position: 'DDD3/6/6/6/1D1D2/2L2L l', moves: ['C1-C2'], after: 'DDD3/6/6/6/1DLD2/5L d 1 1', taken: [] },
    { key: 'petteia.block', variant: 'petteia-6', position: '5D/6/6/1DDL2/6/L5 l', moves: ['A1-A3'], after: '5D/6/6/LDDL2/6/6 d 1 1', taken: [] },
    { key: 'petteia.edge', variant: 'petteia-6', position: 'DDD3/6/6/1L4/6/D4L l', moves: ['B3-B1'], after: 'DDD3/6/6/6/6/DL3L d 1 1', taken: [] },
  ],
  'pente-grammai-schaedler': [
    { key: 'pente.landing', variant: 'pente-grammai-schaedler', position: 'T/T/T/T/-/B/B/TB/B/B t', dice: [1], moves: ['1:3-4'], after: 'T/T/T/-/T/B/B/TB/B/B b', taken: [] },
    { key: 'pente.blocked', variant: 'pente-grammai-schaedler', position: 'T/T/T/T/-/B/B/TB/B/B t', dice: [2], moves: [], refused: '2:3-5', after: 'T/T/T/T/-/B/B/TB/B/B t', taken: [] },
    { key: 'pente.sacred', variant: 'pente-grammai-schaedler', position: 'T/T/T/T/-/B/B/TB/B/B t', dice: [2], moves: ['2:0-2'], after: '-/T/2T/T/-/B/B/TB/B/B b', taken: [] },
  ],
  'pente-grammai-kidd': [
    { key: 'kidd.hit', variant: 'pente-grammai-kidd', position: 'T/-/-/B/-/-/-/-/-/- t r:4,4 h:0,0', dice: [3], moves: ['3:0-3'], after: '-/-/-/T/-/-/-/-/-/- b r:4,5 h:0,0', taken: ['3'] },
    { key: 'kidd.yoke', variant: 'pente-grammai-kidd', position: 'T/-/-/2B/-/-/-/-/-/- t r:4,3 h:0,0', dice: [3], moves: ['3:R-0'], refused: '3:0-3', after: '2T/-/-/2B/-/-/-/-/-/- b r:3,3 h:0,0', taken: [] },
    { key: 'kidd.holy', variant: 'pente-grammai-kidd', position: '-/-/-/-/T/-/-/-/-/- t r:4,5 h:0,0', dice: [3], moves: ['3:4-7'], after: '-/-/-/-/-/-/-/-/-/- b r:4,5 h:1,0', taken: [] },
  ],
  'pente-grammai-perimeter': [
    { key: 'perimeter.answered', variant: 'pente-grammai-perimeter', position: 'T/T/T/T/T/B/B/B/-/2B t x:0,0 th:t@1', dice: [5], moves: ['5:4-9'], refused: '5:0-5', after: 'T/T/T/T/-/B/B/B/-/1T2B b x:0,0', taken: [] },
    { key: 'perimeter.removed', variant: 'pente-grammai-perimeter', position: 'T/T/T/T/T/B/B/B/-/2B t x:0,0 th:t@1', dice: [1], moves: ['1:1-2'], after: '-/-/2T/T/T/B/B/B/-/2B b x:1,0', taken: ['0'] },
  ],
  'duodecim-scripta': [
    { key: 'duodecim.enter', variant: 'duodecim-scripta', position: '.,.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,. w r:15,15 o:0,0 dice:[1,3,4] bonus:[]', moves: ['1:R-M1'], after: '.,.,.,.,.,.,.,.,.,.,.,./1w,.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,. w r:14,15 o:0,0 dice:[3,4] bonus:[]', taken: [] },
    { key: 'duodecim.hit', variant: 'duodecim-scripta', position: '.,.,.,.,.,.,.,.,.,.,.,./1w,.,1w,1w,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,. b r:12,15 o:0,0 dice:[2,3,5] bonus:[]', moves: ['3:R-M3'], after: '.,.,.,.,.,.,.,.,.,.,.,./1w,.,1b,1w,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,. b r:13,14 o:0,0 dice:[2,5] bonus:[]', taken: ['M3'] },
    { key: 'duodecim.bonus', variant: 'duodecim-scripta', position: '.,.,.,.,.,.,.,.,.,.,.,./.,.,.,2b,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,. w r:15,13 o:0,0 dice:[4,1,2] bonus:[]', moves: ['1:R-M1', '2:R-M2'], refused: '4:R-M4', after: '.,.,.,.,.,.,.,.,.,.,.,./1w,1w,.,2b,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,. b r:13,13 o:0,0 dice:[] bonus:[4]', taken: [] },
    { key: 'duodecim.bearoff', variant: 'duodecim-scripta', position: '.,.,.,.,.,.,.,.,.,.,.,./15b,.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,3w,3w,3w,2w,2w,2w w r:0,0 o:0,0 dice:[6,2,1] bonus:[]', moves: ['6:B10-O'], after: '.,.,.,.,.,.,.,.,.,.,.,./15b,.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,3w,3w,3w,1w,2w,2w w r:0,0 o:1,0 dice:[2,1] bonus:[]', taken: [] },
  ],
};

/**
 * The worked examples of a variant's rules page (the two Petteia boards share theirs).
 * @param {string} variantId
 * @returns {Example[]}
 */
export function examplesFor(variantId) {
  return EXAMPLES[variantId] || EXAMPLES[variantId.split('-')[0]] || [];
}

export const ALL_EXAMPLES = Object.values(EXAMPLES).flat();
