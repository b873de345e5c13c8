// Unit tests of the learning pages' pure modules (static/js/learn/*, review.js, i18n.js) under
// node --test, with a minimal DOM; and every worked example replayed through the real server's
// POST /api/v1/analysis/play, so no diagram can show a move the engine refuses or an effect it
// does not have.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { callApi, startServer } from './support.js';

// The few DOM calls svg.js makes: elements with attributes, children and text.
class FakeNode {
  constructor(tag) {
    this.tagName = tag;
    this.attributes = new Map();
    this.children = [];
    this.textContent = '';
  }
  setAttribute(name, value) { this.attributes.set(name, String(value)); }
  getAttribute(name) { return this.attributes.has(name) ? this.attributes.get(name) : null; }
  removeAttribute(name) { this.attributes.delete(name); }
  set className(value) { this.setAttribute('class', value); }
  append(...nodes) {
    for (const n of nodes) {
      if (n instanceof FakeNode) {
        if (n.parentNode) n.parentNode.children = n.parentNode.children.filter((c) => c !== n);
        n.parentNode = this;
        this.children.push(n);
      }
      else if (n && n.text !== undefined) this.textContent += n.text;
      else if (typeof n === 'string') this.textContent += n;
    }
  }
  addEventListener() {}
  /** Only the selectors the boards use: the places, and the texts inside places but those under the pieces. */
  querySelectorAll(selector) {
    if (selector === '[data-place]') return [...this.all()].filter((n) => n.getAttribute('data-place') !== null);
    assert.equal(selector, '[data-place] text:not(.under-pieces)');
    const found = [];
    const under = (c) => (c.getAttribute('class') || '').split(' ').includes('under-pieces');
    const visit = (node, inPlace) => {
      for (const c of node.children) {
        const here = inPlace || c.getAttribute('data-place') !== null;
        if (here && c.tagName === 'text' && !under(c)) found.push(c);
        visit(c, here);
      }
    };
    visit(this, false);
    return found;
  }
  /** Every descendant, depth first. */
  *all() { for (const c of this.children) { yield c; yield* c.all(); } }
}
globalThis.document = {
  createElementNS: (ns, tag) => new FakeNode(tag),
  createElement: (tag) => new FakeNode(tag),
  createTextNode: (text) => ({ text }),
};

const { ALL_EXAMPLES, examplesFor } = await import('../../static/js/learn/examples.js');
const { diagramBoard, exampleFigure, centreOf } = await import('../../static/js/learn/diagram.js');
const { cyclePlace, fillTrays, unfinishedSetUp } = await import('../../static/js/learn/setup.js');
const { VARIANT_IDS, EMPTY } = await import('../../static/js/learn/variants.js');
const { pliesFromEvents, turnsOfPlies, startPosition, Replay, REPLAY_BATCH, clampPly, rollOf } = await import('../../static/js/review.js');
const { chooseLanguage, t, CATALOGUES } = await import('../../static/js/i18n.js');
const { boardFor } = await import('../../static/js/boards/index.js');
const { moveEnds } = await import('../../static/js/svg.js');

const pieceCount = (variant, position) => {
  const model = boardFor(variant).parse(position);
  if (model.board) return Object.keys(model.board).length;
  if (model.points) return model.points.reduce((s, p) => s + p.terracotta + p.black, 0);
  return Object.values(model.cells).reduce((s, c) => s + c.count, 0);
};

test('every rules page has worked examples, and every key rule of the issue is drawn', () => {
  for (const id of VARIANT_IDS) assert.ok(examplesFor(id).length >= 2, id);
  const keys = ALL_EXAMPLES.map((e) => e.key);
  for (const k of ['petteia.trap', 'pente.landing', 'pente.blocked', 'pente.sacred', 'kidd.hit', 'kidd.yoke',
    'perimeter.answered', 'perimeter.removed', 'duodecim.enter', 'duodecim.hit', 'duodecim.bonus', 'duodecim.bearoff']) {
    assert.ok(keys.includes(k), k);
  }
});

test('a diagram draws an arrow from the start to the end of each move, and an × on each taken piece', () => {
  const trap = ALL_EXAMPLES.find((e) => e.key === 'petteia.trap');
  const board = diagramBoard(trap.variant, trap.position, { moves: trap.moves, taken: trap.taken });
  const arrows = [...board.all()].filter((n) => n.getAttribute('class') === 'move-arrow');
  assert.equal(arrows.length, 1);
  const line = arrows[0].children[0];
  const a = centreOf(board, 'A4');
  const c = centreOf(board, 'C4');
  // The arrow runs along rank 4 from A4 towards C4.
  assert.equal(Number(line.getAttribute('y1')), a.y);
  assert.equal(Number(line.getAttribute('y2')), c.y);
  assert.ok(Number(line.getAttribute('x1')) > a.x && Number(line.getAttribute('x2')) < c.x);
  const marks = [...board.all()].filter((n) => n.getAttribute('data-taken'));
  assert.deepEqual(marks.map((m) => m.getAttribute('data-taken')), ['C3']);
});

test('an arrow from or to a tray starts or ends at the tray of the side that moved, before and after the move', () => {
  // From a learner's audit: after the move the tray named as a place is the side to move's, the
  // other one: Terracotta's entry was drawn from Black's reserve.
  const distance = (p, q) => Math.hypot(p.x - q.x, p.y - q.y);
  let checked = 0;
  for (const example of ALL_EXAMPLES) {
    const mover = boardFor(example.variant).parse(example.position).toMove;
    const sides = example.variant.startsWith('pente') ? ['terracotta', 'black'] : ['white', 'black'];
    const other = sides.find((side) => side !== mover);
    const figure = exampleFigure(example, (key, params) => t(key, params, 'en'));
    const boards = [...figure.all()].filter((n) => n.tagName === 'svg' && / diagram$/.test(n.getAttribute('class') || ''));
    assert.equal(boards.length, 2, example.key);
    for (const board of boards) {
      for (const arrow of [...board.all()].filter((n) => n.getAttribute('class') === 'move-arrow')) {
        const { from, to } = moveEnds(arrow.getAttribute('data-move'));
        const line = arrow.children[0];
        for (const [end, x, y] of [[from, 'x1', 'y1'], [to, 'x2', 'y2']]) {
          const own = centreOf(board, end, mover);
          const theirs = centreOf(board, end, other);
          if (!own || !theirs || !/^[RXHO]$/.test(end)) continue;
          const drawn = { x: Number(line.getAttribute(x)), y: Number(line.getAttribute(y)) };
          assert.ok(distance(drawn, own) < distance(drawn, theirs), `${example.key}: ${arrow.getAttribute('data-move')} at ${end} is ${mover}'s`);
          checked += 1;
        }
      }
    }
  }
  assert.ok(checked >= 4, `arrows at trays checked: ${checked}`);
});

test('a diagram is one picture to a screen reader; a board to act on keeps its places', () => {
  // From a learner's audit: a rules page held some 350 disabled buttons, one a place of a diagram.
  const example = ALL_EXAMPLES.find((e) => e.key === 'petteia.trap');
  const picture = diagramBoard(example.variant, example.position, { moves: example.moves });
  const places = (board) => [...board.all()].filter((n) => n.getAttribute('data-place') !== null);
  assert.equal(picture.getAttribute('role'), 'img');
  assert.match(picture.getAttribute('aria-label'), /board/i);
  assert.deepEqual(places(picture).filter((n) => n.getAttribute('role') || n.getAttribute('tabindex')), []);
  const board = diagramBoard(example.variant, example.position, { selection: { movable: new Set(['A4']), destinations: new Map(), selected: null } });
  assert.notEqual(board.getAttribute('role'), 'img');
  assert.equal(places(board).find((n) => n.getAttribute('data-place') === 'A4').getAttribute('tabindex'), '0');
});

test('the pieces drawn are the pieces of the position: the after board has one piece fewer per capture', () => {
  for (const example of ALL_EXAMPLES.filter((e) => e.variant.startsWith('petteia'))) {
    const drawn = (position) => [...diagramBoard(example.variant, position).all()].filter((n) => /^piece /.test(n.getAttribute('class') || '')).length;
    assert.equal(drawn(example.position), pieceCount(example.variant, example.position), example.key);
    assert.equal(drawn(example.after), drawn(example.position) - example.taken.length, example.key);
  }
});

/** The pieces of each side on a place: {side: count}. */
function occupants(variant, position, place) {
  const model = boardFor(variant).parse(position);
  if (model.board) return model.board[place] ? { [model.board[place]]: 1 } : {};
  if (model.cells) return model.cells[place] ? { [model.cells[place].side]: model.cells[place].count } : {};
  return model.points[Number(place)];
}

/** Whether some side has fewer pieces on `place` after than before (taken, hit or removed). */
const lostAPiece = (variant, from, to, place) => Object.entries(occupants(variant, from, place))
  .some(([side, n]) => n > 0 && (occupants(variant, to, place)[side] || 0) < n);

test('a place marked as taken holds a piece in the before diagram that is gone after', () => {
  for (const example of ALL_EXAMPLES.filter((e) => e.taken.length)) {
    for (const place of example.taken) {
      assert.ok(lostAPiece(example.variant, example.position, example.after, place), `${example.key}: ${place}`);
    }
  }
});

test('every example figure has a title and a text in both languages', () => {
  for (const lang of ['en', 'fr']) {
    for (const example of ALL_EXAMPLES) {
      const figure = exampleFigure(example, (key, params) => t(key, params, lang));
      const title = [...figure.all()].find((n) => n.tagName === 'h3').textContent;
      assert.notEqual(title, `example.${example.key}`, `${lang} ${example.key}`);
      assert.notEqual(t(`example.${example.key}.text`, {}, lang), `example.${example.key}.text`);
    }
  }
});

test('setting up cycles what stands on a place and writes the notation back', () => {
  assert.equal(cyclePlace('petteia-6', EMPTY['petteia-6'], 'A1'), '6/6/6/6/6/L5 l');
  assert.equal(cyclePlace('petteia-6', '6/6/6/6/6/L5 l', 'A1'), '6/6/6/6/6/D5 l');
  assert.equal(cyclePlace('petteia-6', '6/6/6/6/6/D5 l', 'A1'), '6/6/6/6/6/6 l');
  assert.equal(cyclePlace('petteia-8', EMPTY['petteia-8'], 'H8'), '7L/8/8/8/8/8/8/8 l');
  // A piece put on the board comes from the tray that holds the pieces off it, and goes back.
  const kidd = fillTrays('pente-grammai-kidd', EMPTY['pente-grammai-kidd']);
  assert.equal(kidd, '-/-/-/-/-/-/-/-/-/- t r:5,5 h:0,0');
  assert.equal(cyclePlace('pente-grammai-kidd', kidd, '3'), '-/-/-/T/-/-/-/-/-/- t r:4,5 h:0,0');
  assert.equal(cyclePlace('pente-grammai-kidd', '-/-/-/2B/-/-/-/-/-/- t r:3,3 h:0,2', '3'), '-/-/-/-/-/-/-/-/-/- t r:5,3 h:0,2');
  assert.equal(fillTrays('pente-grammai-perimeter', EMPTY['pente-grammai-perimeter']), '-/-/-/-/-/-/-/-/-/- t x:5,5');
  assert.equal(fillTrays('duodecim-scripta', '.,.,2b,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,3w/.,.,.,.,.,.,.,.,.,.,.,. w o:1,0'),
    '.,.,2b,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,3w/.,.,.,.,.,.,.,.,.,.,.,. w o:1,0 r:11,13');
  // Too many already: left for the server to refuse, with its count.
  assert.equal(fillTrays('pente-grammai-perimeter', '2T/2T/2T/-/-/-/-/-/-/- t x:0,0'), '2T/2T/2T/-/-/-/-/-/-/- t x:0,0');
  assert.equal(fillTrays('pente-grammai-schaedler', EMPTY['pente-grammai-schaedler']), EMPTY['pente-grammai-schaedler']);
  assert.deepEqual(unfinishedSetUp('pente-grammai-schaedler', 'T/-/2B/-/-/-/-/-/-/- t'), [1, 2]);
  assert.equal(unfinishedSetUp('pente-grammai-schaedler', 'T/T/T/T/T/B/B/B/B/B t'), null);
  assert.equal(unfinishedSetUp('pente-grammai-kidd', EMPTY['pente-grammai-kidd']), null);
  assert.equal(cyclePlace('duodecim-scripta', EMPTY['duodecim-scripta'], 'B12'), '.,.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,./.,.,.,.,.,.,.,.,.,.,.,1w w r:14,15 o:0,0 dice:[] bonus:[]');
  // A tray is not a board place: nothing changes.
  assert.equal(cyclePlace('duodecim-scripta', EMPTY['duodecim-scripta'], 'R'), EMPTY['duodecim-scripta']);
});

test('the language comes from the query, then the stored choice, then the browser, else English', () => {
  assert.equal(chooseLanguage({ query: 'fr', stored: 'en', browser: ['en-GB'] }), 'fr');
  assert.equal(chooseLanguage({ query: 'de', stored: 'fr', browser: ['en-GB'] }), 'fr');
  assert.equal(chooseLanguage({ browser: ['de-DE', 'fr-CA'] }), 'fr');
  assert.equal(chooseLanguage({ browser: ['de-DE'] }), 'en');
});

test('both catalogues have the same keys, each error code included, and French words differ from English', () => {
  assert.deepEqual(Object.keys(CATALOGUES.fr).sort(), Object.keys(CATALOGUES.en).sort());
  for (const code of ['bad_request', 'unauthorized', 'forbidden', 'not_your_turn', 'not_found', 'stale', 'seat_taken',
    'game_over', 'too_large', 'illegal_move', 'rate_limited', 'unavailable']) {
    assert.ok(CATALOGUES.en[`error.${code}`] && CATALOGUES.fr[`error.${code}`], code);
    assert.notEqual(CATALOGUES.fr[`error.${code}`], CATALOGUES.en[`error.${code}`], code);
  }
  assert.equal(t('rules.title', { name: 'Petteia' }, 'fr'), 'Règles\u00a0: Petteia');
});

test('French keeps its signs with their words and its singular for 0 and 1', () => {
  // A space before : ; ? ! » or after « is a non-breaking one: the sign never starts a line.
  for (const [key, entry] of Object.entries(CATALOGUES.fr)) {
    const texts = typeof entry === 'function' ? [0, 1, 2].map((n) => entry({ n })) : [entry];
    for (const text of texts) assert.doesNotMatch(String(text), / [:;?!»]|« /, key);
  }
  assert.equal(t('review.ply0', { n: 0 }, 'fr'), 'Début de la partie (0 coup)');
  assert.equal(t('review.ply0', { n: 1 }, 'fr'), 'Début de la partie (1 coup)');
  assert.equal(t('review.ply0', { n: 2 }, 'fr'), 'Début de la partie (2 coups)');
  assert.equal(t('account.attached', { n: 0 }, 'fr'), '0 place ajoutée à votre compte.');
  assert.equal(t('review.ply0', { n: 1 }, 'en'), 'Start of the game (1 move)');
  assert.equal(t('review.ply0', { n: 0 }, 'en'), 'Start of the game (0 moves)');
});

test('the events read into moves, each with the roll that came before it, undone moves dropped', () => {
  const events = [
    { kind: 'roll', side: 'black', dice: [5, 4, 5] }, { kind: 'move', side: 'black', move: '4:R-M4' }, { kind: 'move', side: 'black', move: '5:R-M5' },
    { kind: 'joined' }, { kind: 'roll', side: 'white', dice: [2, 4, 2] }, { kind: 'move', side: 'white', move: '4:R-M4' },
    { kind: 'undo', keep: 4 }, { kind: 'move', side: 'white', move: '2:R-M2' }, { kind: 'move', side: 'black', move: 'decline' },
  ];
  assert.deepEqual(pliesFromEvents(events), [
    { move: '4:R-M4', dice: [5, 4, 5], side: 'black', rolledBy: 'black' }, { move: '5:R-M5', dice: null, side: 'black' },
    { move: '2:R-M2', dice: [2, 4, 2], side: 'white', rolledBy: 'white' }, { move: 'decline', dice: null, side: 'black' },
  ]);
  // Each move is shown with the roll of its turn, bonus moves before a roll with the previous one.
  const plies = pliesFromEvents(events);
  assert.deepEqual([0, 1, 2, 3, 4].map((n) => rollOf(plies, n)?.dice ?? null), [null, [5, 4, 5], [5, 4, 5], [2, 4, 2], [2, 4, 2]]);
  // The review names each move's turn as the move list numbers it: a dice game's turn is one
  // side's go (Black's bonus decline opens its next), Petteia's pairs the sides' moves.
  assert.deepEqual(turnsOfPlies('duodecim-scripta', events), [1, 1, 2, 3]);
  const petteia = ['A1-A2', 'F6-F5', 'B1-B2'].map((move, i) => ({ kind: 'move', side: i % 2 ? 'dark' : 'light', move }));
  assert.deepEqual(turnsOfPlies('petteia-6', petteia), [1, 1, 2]);
  assert.equal(rollOf([{ move: 'A1-A2', dice: null }], 1), null);
  // A roll none of whose dice can be played: the other side plays them as bonus dice, and the
  // move is told as played on the roller's dice, not as the mover's own roll.
  const unplayable = pliesFromEvents([
    { kind: 'roll', side: 'black', dice: [2, 2, 2] }, { kind: 'move', side: 'white', move: '2:B5-B7' },
    { kind: 'roll', side: 'white', dice: [6, 1, 3] }, { kind: 'move', side: 'white', move: '6:R-M6' },
  ]);
  assert.deepEqual([1, 2].map((n) => rollOf(unplayable, n)), [{ dice: [2, 2, 2], rolledBy: 'black' }, { dice: [6, 1, 3], rolledBy: 'white' }]);
  assert.equal(startPosition('duodecim-scripta', 'black').split(' ')[1], 'b');
  assert.equal(startPosition('petteia-6', 'light'), 'DDDDDD/6/6/6/6/LLLLLL l 0 1');
  assert.equal(clampPly(99, 10), 10);
  assert.equal(clampPly(-3, 10), 0);
  assert.equal(clampPly(Number('x'), 10), 10);
});

let server;
before(async () => { server = await startServer(); });
after(async () => { await server.stop(); });

const post = (path, body) => callApi(server.base, 'POST', path, { body });

test('every worked example is legal on the server and has exactly the effect drawn', async () => {
  for (const example of ALL_EXAMPLES) {
    const body = { variant: example.variant, position: example.position, moves: example.moves };
    if (example.dice) body.dice = example.dice;
    const played = await post('/api/v1/analysis/play', body);
    assert.equal(played.status, 200, `${example.key}: ${JSON.stringify(played.body)}`);
    assert.equal(played.body.position, example.after, example.key);
    if (example.refused) {
      const { dice } = example;
      const legal = (await post('/api/v1/analysis', dice ? { variant: example.variant, position: example.position, dice } : { variant: example.variant, position: example.position })).body.legal_moves;
      assert.ok(!legal.includes(example.refused), `${example.key}: ${example.refused} is refused`);
      assert.ok(legal.length > 0, example.key);
    }
    // What the diagram marks as taken is gone from that place in the server's position after the moves,
    // and nothing else was taken: the total of pieces on the board drops by the marks, or by none.
    for (const place of example.taken) assert.ok(lostAPiece(example.variant, example.position, played.body.position, place), example.key);
    const onBoard = (position) => pieceCount(example.variant, position);
    const entered = example.moves.filter((m) => /R-|X-/.test(m)).length;
    const left = example.moves.filter((m) => /-O$|-7$|-2$/.test(m) && example.variant === 'pente-grammai-kidd').length
      + example.moves.filter((m) => /-O$/.test(m)).length;
    assert.equal(onBoard(played.body.position), onBoard(example.position) + entered - left - example.taken.length, example.key);
  }
});

test('a replayed game reaches the position the server holds', async () => {
  const created = await post('/api/v1/games', { variant: 'duodecim-scripta', mode: 'local', clock: null, side: 'first' });
  const { game_id: id, seat } = created.body;
  const call = async (method, path, body) => (await callApi(server.base, method, path, { body, token: seat.token })).body;
  let view = await call('GET', `/api/v1/games/${id}`);
  for (let i = 0; i < 12 && view.legal_moves && view.legal_moves.length; i += 1) {
    view = await call('POST', `/api/v1/games/${id}/moves`, { move: view.legal_moves[view.legal_moves.length - 1], version: view.version });
  }
  const events = (await callApi(server.base, 'GET', `/api/v1/games/${id}/events?since=0`)).body;
  const plies = pliesFromEvents(events);
  assert.deepEqual(plies.map((p) => p.move), view.moves);
  const play = async (variant, position, dice, moves) => (await post('/api/v1/analysis/play', dice ? { variant, position, dice, moves } : { variant, position, moves })).body;
  const start = startPosition('duodecim-scripta', view.first);
  // The positions one move a request gives (how the review asked before): the replay's must agree.
  const oneByOne = [start];
  for (const ply of plies) oneByOne.push((await play('duodecim-scripta', oneByOne.at(-1), ply.dice, [ply.move])).position);
  let calls = 0;
  const counted = async (variant, position, batch) => {
    calls += 1;
    const answer = await post('/api/v1/analysis/replay', { variant, position, plies: batch.map(({ move, dice }) => (dice ? { move, dice } : { move })) });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body;
  };
  const replay = new Replay('duodecim-scripta', start, plies, counted);
  // Asked in any order, each position is computed once, in order: here in two requests (up to
  // the third move, then the rest), where one a move was asked before.
  const [third, last, again] = await Promise.all([replay.at(3), replay.at(plies.length), replay.at(3)]);
  assert.equal(calls, 2);
  assert.equal(third, again);
  assert.deepEqual(await Promise.all(oneByOne.map((_, n) => replay.at(n))), oneByOne);
  // The server's position also holds the roll after the last move, which no ply carries: the dice of
  // the turn that has not started, or, when none of them can be played, the turn already passed to
  // the other side with them as bonus dice (docs/RULES.md §3.2). With that roll played on the
  // replayed position, the two agree whole.
  const trailing = events.at(-1).kind === 'roll' ? events.at(-1).dice : null;
  assert.equal(trailing ? (await play('duodecim-scripta', last, trailing, [])).position : last, view.position);
  // With the final position known from the game view, opening at the end asks the server nothing.
  const opened = new Replay('duodecim-scripta', start, plies, counted);
  opened.knowLast(view.position);
  assert.equal(await opened.at(plies.length), view.position);
  assert.equal(calls, 2);
  // Following a game taken back to its third move and then played on again, the positions after
  // the moves kept are not asked again: only those after the moves replayed, in one request.
  await replay.follow(plies.slice(0, 3));
  assert.equal(await replay.at(3), third);
  assert.equal(calls, 2);
  await replay.follow(plies);
  assert.equal(await replay.at(plies.length), last);
  assert.equal(calls, 3);
  // A game longer than a batch is asked a batch at a time.
  const long = new Replay('petteia-6', 'x', Array.from({ length: 2 * REPLAY_BATCH + 1 }, () => ({ move: 'A1-A2', dice: null })),
    async (variant, position, batch) => ({ positions: batch.map(() => position) }));
  let asked = 0;
  const countedLong = long.replay;
  long.replay = (...args) => { asked += 1; return countedLong(...args); };
  await long.at(2 * REPLAY_BATCH + 1);
  assert.equal(asked, 3);
});
