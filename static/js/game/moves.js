// @ts-check
// The move list, numbered by turn: Petteia has both sides of a turn on one line; the dice games
// one line per turn with the side and its roll ("Black ⚂⚄⚅ 3:R-M3 5:M3-M8"), built from the
// game's events because only they say which side rolled what. Pure functions.

const DIE_FACES = ['⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];

/**
 * A turn: its number, and in the dice games its side, its roll and how many of its plies came
 * before the roll (bonus dice are played or declined before rolling); `passed` when the roll had no
 * die to play and the turn went on to the other side without a move.
 * @typedef {{ number: number, side?: string, dice?: number[], beforeRoll?: number, plies: string[], passed?: boolean }} Turn
 */

/**
 * @param {number} value 1..6
 */
export const dieFace = (value) => DIE_FACES[value - 1] || String(value);

/**
 * Two plies a turn, the first side's first (Petteia).
 * @param {string[]} moves
 * @returns {Turn[]}
 */
export function pairedTurns(moves) {
  /** @type {Turn[]} */
  const turns = [];
  for (let i = 0; i < moves.length; i += 2) turns.push({ number: turns.length + 1, plies: moves.slice(i, i + 2) });
  return turns;
}

/**
 * One turn per side's go: a roll opens it (or a move of the other side, such as playing or
 * declining bonus dice before the roll), and its moves follow. An `undo` keeps only its first
 * `keep` rolls and moves.
 * @param {import('../api.js').GameEvent[]} events in version order
 * @returns {Turn[]}
 */
export function diceTurns(events) {
  /** @type {import('../api.js').GameEvent[]} */
  let actions = [];
  for (const event of events) {
    if (event.kind === 'roll' || event.kind === 'move') actions.push(event);
    else if (event.kind === 'undo') actions = actions.slice(0, event.keep ?? actions.length);
  }
  /** @type {Turn[]} */
  const turns = [];
  for (const action of actions) {
    const current = turns[turns.length - 1];
    const sameSide = current && current.side === action.side;
    if (action.kind === 'roll') {
      if (sameSide && current.dice?.length === 0) {
        current.dice = action.dice || [];
        current.beforeRoll = current.plies.length;
      } else turns.push({ number: turns.length + 1, side: action.side, dice: action.dice || [], beforeRoll: 0, plies: [] });
    } else if (sameSide) {
      current.plies.push(action.move || '');
    } else {
      turns.push({ number: turns.length + 1, side: action.side, dice: [], plies: [action.move || ''] });
    }
  }
  // A roll followed by nothing of its side, and then by the other side's go, had no die to play.
  turns.slice(0, -1).forEach((turn) => {
    if (turn.dice?.length && turn.plies.length === turn.beforeRoll) turn.passed = true;
  });
  return turns;
}

/**
 * The words after the turn number: side and roll (dice games), then the plies, or `noMove` when
 * the roll had none.
 * @param {Turn} turn
 * @param {(side: string) => string} sideName
 * @param {string} [noMove]
 * @param {(move: string) => string} [moveLabel] a ply as shown (its notation's words translated)
 */
export function turnWords(turn, sideName, noMove = '', moveLabel = (move) => move) {
  const plies = turn.plies.map((ply) => moveLabel(ply));
  if (!turn.side) return plies;
  const before = plies.slice(0, turn.beforeRoll ?? 0);
  const roll = turn.dice?.length ? [turn.dice.map(dieFace).join('')] : [];
  const after = turn.passed && noMove ? [noMove] : plies.slice(turn.beforeRoll ?? 0);
  return [sideName(turn.side), ...before, ...roll, ...after];
}
