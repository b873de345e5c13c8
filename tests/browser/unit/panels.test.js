// What the game screen says and offers (static/js/game/panels.js), from the view alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  NO_OFFERS, noteEvent, offerNote, statusText, endSummary, presence, pageTitle, playButtons, rematchButtons,
  unplayableRollText, bonusLabel, computerLabel, choiceLabel, diceCheckText, announcement,
} from '../../../static/js/game/panels.js';
import { setLanguage } from '../../../static/js/i18n.js';

const playing = {
  game_id: 'g', variant: 'petteia-6', mode: 'online', status: 'playing', version: 5, position: '', to_move: 'light',
  first: 'light', sides: ['light', 'dark'], moves: ['A1-A2', 'A6-A5'], clocks: null, result: null, draw_offer: null,
  seat: { side: 'light', bottom: 'light' }, legal_moves: ['A2-A3'], opponent_connected: true, can_take_back: true,
};
const ids = (buttons) => buttons.map((b) => b.id);
const state = { offers: NO_OFFERS, confirmingResign: false, now: 100000, awaySeenAt: 100000 };

test('the status line says whose move it is, and a pending move', () => {
  assert.equal(statusText(playing), 'Your move (Light).');
  assert.equal(statusText({ ...playing, to_move: 'dark' }), 'Dark to move.');
  assert.equal(statusText(playing, 'A2-A4'), 'Sending your move A2-A4…');
  // A decline and a pass are not moves to name: they are said as what they do.
  assert.equal(statusText(playing, 'decline'), 'Declining the bonus dice…');
  assert.equal(statusText(playing, '5:pass'), 'Passing your turn…');
  assert.equal(statusText({ ...playing, draw_offer: 'dark' }), 'Your move (Light). Dark offers a draw.');
});

test('a spectator of a game not yet joined is told it waits for its second player, not for their friend', () => {
  const waiting = { ...playing, status: 'waiting', moves: [], to_move: null };
  assert.equal(statusText(waiting), 'Waiting for your friend to join…');
  assert.equal(statusText({ ...waiting, seat: null }), 'Waiting for the second player to join…');
  setLanguage('fr');
  try {
    assert.equal(statusText({ ...waiting, seat: null }), 'En attente du second joueur…');
  } finally {
    setLanguage('en');
  }
});

test('a screen reader hears the opponent’s moves, and a decline of the bonus dice as a sentence', () => {
  const duodecim = { ...playing, variant: 'duodecim-scripta', sides: ['white', 'black'], seat: { side: 'white', bottom: 'white' } };
  assert.equal(announcement(duodecim, { kind: 'move', side: 'black', move: '3:R-M3' }), 'Black played 3:R-M3.');
  assert.equal(announcement(duodecim, { kind: 'move', side: 'white', move: '3:R-M3' }), '', 'its own move it heard being sent');
  assert.equal(announcement(duodecim, { kind: 'move', side: 'black', move: 'decline' }), 'Black declined the bonus dice.');
  setLanguage('fr');
  try {
    // It said "Noir joue refus."
    assert.equal(announcement(duodecim, { kind: 'move', side: 'black', move: 'decline' }), 'Noir refuse les dés bonus.');
    assert.equal(announcement(duodecim, { kind: 'roll', side: 'black', dice: [3, 1, 6] }), 'Noir lance 3, 1, 6.');
  } finally {
    setLanguage('en');
  }
});

test('the end summary gives the result, how it ended, and the sentence', () => {
  const won = { ...playing, status: 'finished', result: { winner: 'light', termination: 'resignation' } };
  assert.deepEqual(endSummary(won), { result: 'You win', how: 'By resignation.', headline: 'Light wins by resignation — you win.' });
  assert.equal(endSummary({ ...won, seat: null }).result, 'Light wins');
  assert.deepEqual(endSummary({ ...won, result: { winner: null, termination: 'repetition' } }), { result: 'Draw', how: 'By threefold repetition.', headline: 'Draw by threefold repetition.' });
  assert.equal(endSummary(playing), null);
});

test('presence counts the absence and allows a claim only from its time', () => {
  const away = { ...playing, opponent_connected: false, opponent_away_since: 88000, claim_allowed_at: 130000 };
  assert.deepEqual(presence(away, 100000, 0), { text: 'Opponent disconnected 0:12', claimAllowed: false });
  assert.equal(presence(away, 130000, 0).claimAllowed, true);
  assert.equal(presence(playing, 100000, 0), null);
  assert.ok(!ids(playButtons(away, state)).includes('claim'));
  assert.ok(ids(playButtons(away, { ...state, now: 130000 })).includes('claim'));
  // A server that does not say when: counted from when the page saw it, Claim offered at once.
  assert.deepEqual(presence({ ...playing, opponent_connected: false }, 100000, 95000), { text: 'Opponent disconnected 0:05', claimAllowed: true });
});

test('a takeback asked by the opponent is answered with Accept or Decline; a move withdraws it', () => {
  const asked = noteEvent(NO_OFFERS, { kind: 'undo_offered', side: 'dark' }, 'light');
  assert.deepEqual(ids(playButtons(playing, { ...state, offers: asked })).filter((id) => id.startsWith('undo')), ['undo-accept', 'undo-decline']);
  assert.equal(offerNote(playing, asked), 'Your opponent asks to take back their last move.');
  const moved = noteEvent(asked, { kind: 'move', side: 'dark', move: 'A5-A4' }, 'light');
  assert.deepEqual(ids(playButtons(playing, { ...state, offers: moved })).filter((id) => id.startsWith('undo')), ['undo']);
  // The view's own field wins over the events.
  assert.equal(offerNote({ ...playing, undo_offer: null }, asked), '');
});

test('a declined offer is told to the one who made it, not to the one who declined', () => {
  assert.equal(offerNote(playing, noteEvent(NO_OFFERS, { kind: 'draw_declined', side: 'dark' }, 'light')), 'Your opponent declined your draw offer.');
  assert.equal(offerNote(playing, noteEvent(NO_OFFERS, { kind: 'draw_declined', side: 'light' }, 'light')), '');
  assert.equal(offerNote(playing, noteEvent(NO_OFFERS, { kind: 'undo_declined', side: 'dark' }, 'light')), 'Your opponent declined your takeback request.');
});

test('rematch: offer, then the opponent accepts or declines; a made rematch opens', () => {
  const over = { ...playing, status: 'finished', to_move: null, result: { winner: 'dark', termination: 'timeout' } };
  assert.deepEqual(ids(rematchButtons(over, NO_OFFERS)), ['rematch']);
  const offered = noteEvent(NO_OFFERS, { kind: 'rematch_offered', side: 'dark' }, 'light');
  assert.deepEqual(ids(rematchButtons(over, offered)), ['rematch-accept', 'rematch-decline']);
  assert.deepEqual(ids(rematchButtons(over, noteEvent(NO_OFFERS, { kind: 'rematch_offered', side: 'light' }, 'light'))), []);
  assert.deepEqual(ids(rematchButtons({ ...over, rematch: 'g2' }, NO_OFFERS)), ['go-rematch']);
  // A spectator offers nothing, and follows the players to a rematch made.
  assert.deepEqual(ids(rematchButtons({ ...over, seat: null }, NO_OFFERS)), []);
  assert.deepEqual(rematchButtons({ ...over, seat: null, rematch: 'g2' }, NO_OFFERS).map((b) => [b.id, b.label]), [['go-rematch', 'Watch the rematch']]);
  assert.equal(offerNote(over, noteEvent(offered, { kind: 'rematch_declined', side: 'dark' }, 'light')), 'Your opponent declined the rematch.');
});

test('a player is offered what the server would allow: a draw in Petteia, once per move; a takeback of its own move', () => {
  assert.deepEqual(ids(playButtons(playing, state)), ['resign', 'draw', 'undo']);
  const declined = noteEvent(NO_OFFERS, { kind: 'draw_declined', side: 'dark' }, 'light');
  assert.deepEqual(ids(playButtons(playing, { ...state, offers: declined })), ['resign', 'undo']);
  const movedSince = noteEvent(declined, { kind: 'move', side: 'dark', move: 'A5-A4' }, 'light');
  assert.ok(ids(playButtons(playing, { ...state, offers: movedSince })).includes('draw'));
  const dice = { ...playing, variant: 'duodecim-scripta', dice: [3, 5, 6] };
  assert.deepEqual(ids(playButtons(dice, state)), ['resign', 'undo']);
  assert.deepEqual(ids(playButtons({ ...playing, can_take_back: false }, state)), ['resign', 'draw']);
  const local = { ...playing, mode: 'local', seat: { side: 'light', bottom: 'light', both: true } };
  assert.deepEqual(ids(playButtons({ ...local, can_take_back: false }, state)), ['resign', 'draw', 'hint']);
  assert.deepEqual(ids(playButtons({ ...local, variant: 'duodecim-scripta', dice: [3, 5, 6], can_take_back: false }, state)), ['resign', 'hint']);
  assert.deepEqual(ids(playButtons({ ...playing, mode: 'computer' }, state)), ['resign', 'undo', 'hint']);
});

test('on one screen the side to move offers a draw and the other person answers it there', () => {
  const local = { ...playing, mode: 'local', seat: { side: 'light', bottom: 'light', both: true }, can_take_back: false };
  const offered = { ...local, draw_offer: 'light' };
  // The answers first, before Resign (first in the Tab order, and on a sideways phone's window).
  assert.deepEqual(ids(playButtons(offered, state)), ['draw-accept', 'draw-decline', 'resign', 'hint']);
  assert.equal(statusText(offered), 'Light to move. Light offers a draw.');
  const declined = noteEvent(NO_OFFERS, { kind: 'draw_declined', side: 'dark' }, null);
  assert.deepEqual(ids(playButtons(local, { ...state, offers: declined })), ['resign', 'hint']);
  assert.equal(offerNote(local, declined), 'The draw was declined.');
  assert.ok(ids(playButtons(local, { ...state, offers: noteEvent(declined, { kind: 'move', side: 'light', move: 'A1-A2' }, null) })).includes('draw'));
  // A spectator is told nothing of offers: they are the players'.
  assert.equal(offerNote({ ...playing, seat: null }, declined), '');
});

test('a game on one screen, or against the computer, offers its rematch at the end', () => {
  const over = { status: 'finished', to_move: null, result: { winner: 'dark', termination: 'resignation' } };
  const local = { ...playing, ...over, mode: 'local', seat: { side: 'light', bottom: 'light', both: true } };
  assert.deepEqual(ids(rematchButtons(local, NO_OFFERS)), ['rematch']);
  assert.deepEqual(ids(rematchButtons({ ...playing, ...over, mode: 'computer' }, NO_OFFERS)), ['rematch']);
});

test('computer and local games keep Undo and Hint; resigning asks to confirm', () => {
  const local = { ...playing, mode: 'local', seat: { side: 'light', bottom: 'light', both: true } };
  assert.deepEqual(ids(playButtons(local, state)), ['resign', 'draw', 'undo', 'hint']);
  assert.equal(playButtons(local, state)[0].action, 'ask-resign');
  assert.equal(playButtons(local, { ...state, confirmingResign: true })[0].action, 'resign');
  assert.deepEqual(ids(playButtons({ ...playing, seat: null }, state)), []);
});

test('the tab title says Your turn when it is', () => {
  assert.equal(pageTitle(playing, 'Petteia 6×6'), 'Your turn — Petteia 6×6 — Ludus');
  assert.equal(pageTitle({ ...playing, to_move: 'dark' }, 'Petteia 6×6'), 'Ludus — Petteia 6×6');
});

test('Duodecim: a roll with no die to play is told, and bonus dice say whose they are', () => {
  const duodecim = { ...playing, variant: 'duodecim-scripta', sides: ['white', 'black'], first: 'white', to_move: 'black', dice: [] };
  const roll = { side: 'white', dice: [6, 6, 5] };
  // White's roll passed the turn to Black at once: said, with the dice.
  assert.equal(unplayableRollText(duodecim, roll), 'White rolled 6, 6, 5: no die could be played, so they go to Black as bonus dice.');
  // A roll still being played by its side, no roll, or a game over: nothing to say.
  assert.equal(unplayableRollText({ ...duodecim, to_move: 'white' }, roll), null);
  assert.equal(unplayableRollText(duodecim, null), null);
  assert.equal(unplayableRollText({ ...duodecim, status: 'finished', to_move: null }, roll), null);
  // Their holder is told what to do with them; the opponent and a spectator whose they are.
  assert.equal(bonusLabel({ ...duodecim, seat: { side: 'black', bottom: 'black' } }), 'Bonus dice of Black, left unplayed by White: play them before the roll, or decline them');
  assert.equal(bonusLabel({ ...duodecim, seat: { side: 'white', bottom: 'white', both: true } }), 'Bonus dice of Black, left unplayed by White: play them before the roll, or decline them');
  assert.equal(bonusLabel({ ...duodecim, seat: { side: 'white', bottom: 'white' } }), 'Bonus dice of Black, left unplayed by White');
  assert.equal(bonusLabel({ ...duodecim, seat: null }), 'Bonus dice of Black, left unplayed by White');
});

test('the computer opponent is named with its level', () => {
  assert.equal(computerLabel({ ...playing, mode: 'computer', level: 3 }), ' (computer, level 3)');
  assert.equal(computerLabel({ ...playing, mode: 'computer' }), ' (computer)');
});

test('a choice between moves of the same two places names its die first', () => {
  assert.equal(choiceLabel('5:B11-O'), 'Play the 5 (5:B11-O)');
  assert.equal(choiceLabel('A1-A2'), 'Play A1-A2');
});

test('Abort is offered before the first move, but not in an online dice game once its dice are thrown', () => {
  const fresh = { ...playing, moves: [] };
  assert.ok(ids(playButtons(fresh, state)).includes('abort'));
  const dice = { ...fresh, variant: 'duodecim-scripta', sides: ['white', 'black'], to_move: 'white', seat: { side: 'white', bottom: 'white' }, dice: [6, 2, 3] };
  assert.ok(!ids(playButtons(dice, state)).includes('abort'), 'online, the roll was seen');
  assert.ok(ids(playButtons({ ...dice, mode: 'computer' }, state)).includes('abort'), 'against the computer it may be thrown again');
  assert.ok(ids(playButtons({ ...dice, status: 'waiting', dice: [] }, state)).includes('abort'), 'an invite not taken is called off');
  // Against the computer, which opened: until the person's own first move (from an audit).
  const computerOpened = { ...playing, mode: 'computer', moves: ['A6-A5'], to_move: 'light', can_take_back: false };
  assert.ok(ids(playButtons(computerOpened, state)).includes('abort'));
  assert.ok(!ids(playButtons({ ...computerOpened, moves: ['A6-A5', 'A1-A2', 'B6-B5'], can_take_back: true }, state)).includes('abort'));
});

test('the dice check is said in words: what was checked, or the first thing that failed', () => {
  assert.equal(
    diceCheckText({ ok: true, rolls: 6, dice: 18, first: 'white', yours: { role: 'joiner', entropy: 'bob' } }),
    'Checked in this browser: the server seed hashes to the commitment shown before the first roll, and every die of the game (18 in 6 rolls) comes from it and both players’ entropies. The seed drew White to move first, as played. Your entropy (bob) is in the record, as the joiner’s.',
  );
  assert.match(diceCheckText({ ok: true, rolls: 1, dice: 1, first: null, yours: null }), /\(1 in 1 roll\) comes/);
  assert.match(diceCheckText({ ok: true, rolls: 0, dice: 0, first: null, yours: null }), /no die was thrown/);
  // The die numbered as docs/RULES.md §4 and `ludus verify` number them, from 0.
  assert.equal(diceCheckText({ ok: false, problem: 'die', params: { roll: 3, die: 7, written: 6, derived: 3 } }),
    'The dice do not check: roll 3: die 7 of the game is a 6 in the record, but the seed gives a 3.');
  assert.equal(diceCheckText({ ok: false, problem: 'first', params: { stated: 'black', drawn: 'white' } }),
    'The dice do not check: the record says Black moved first, but the seed draws White.');
});
