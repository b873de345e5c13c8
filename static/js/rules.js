// Rules pages: one per variant, built from the variants endpoint (summary, what is evidence and
// what is reconstruction, sources) with the rules of RULES.md in brief, and a printable page with
// the board at a size to play on (A4, see the print CSS).
import { variants } from './api.js';
import { html } from './svg.js';
import { boardFor, START, sideName } from './boards/index.js';

const RULES = {
  petteia: [
    'Each player has a full row of pieces on their own edge. Light moves first.',
    'A move takes one piece any number of empty squares along a row or column, like a rook: no jumping, no diagonals, no passing.',
    'Capture by closing: after your move, an enemy piece between the moved piece and another of yours, in a straight line, is removed. Up to three can be taken at once.',
    'Never a capture: two enemies in a row (no block capture), the board edge or a corner as a flanker, diagonals, or a piece that moves between two enemies by itself.',
    'You win when your opponent has one piece or none, or cannot move. The third repetition of a position, or 100 plies without a capture, is a draw.',
  ],
  'pente-grammai-schaedler': [
    'Five counters each start on the line ends: Terracotta on points 0–4, Black on 5–9. Terracotta moves first; one die per turn.',
    'Move one counter exactly the number thrown along the route 0→1→…→9→0. Ordinary points hold one counter; the two ends of the sacred line (2 and 7) hold any number.',
    'If any move is legal you must make one; otherwise the turn passes.',
    'Gather all five of your counters on your goal — Terracotta 7, Black 2 — to win.',
  ],
  'pente-grammai-kidd': [
    'All counters start in reserve. Terracotta moves first; one die per turn.',
    'A turn either enters one counter on your starting corner (Terracotta 0, Black 5), or moves one counter exactly the number thrown.',
    'Your own counters stack (two or more form a yoke). Landing on a single enemy counter sends it back to its reserve; two or more enemies block the point.',
    'A counter landing exactly on your goal (Terracotta 7, Black 2) goes onto your half of the holy line. Gather all five there to win.',
  ],
  'pente-grammai-perimeter': [
    'Terracotta on points 0–4, Black on 5–9; the game’s seed draws who starts. One die per turn; any counters may share a point.',
    'Move an unpinned counter exactly the number thrown, or re-enter a removed counter on one of your five setup points.',
    'On an ordinary line, two or more of your counters that outnumber the enemy’s threaten them: those enemy counters are pinned. If the enemy is still outnumbered after its next turn, its counters on that line are removed. The sacred line is never threatened.',
    'Win by standing with all five counters on the points that belonged to your opponent at the start.',
  ],
  'duodecim-scripta': [
    'Fifteen pieces each start in reserve. The game’s seed draws who starts. Three dice per turn, each die a separate move.',
    'The route: the middle row left to right (steps 1–12), the top row right to left (13–24), the bottom row left to right (25–36), the same for both players.',
    'While you have pieces in reserve, a die can only enter one, on step d. Land on an empty cell or your own stack; a lone enemy piece is hit and goes back to its reserve; two or more enemies block.',
    'Bear off once every piece of yours is on steps 31–36 and none is in reserve. Use as many dice as you can, then the most pips; dice you cannot play go to your opponent as bonus dice, which they may play or decline before rolling.',
    'Bear off all fifteen to win.',
  ],
};

function rulesFor(id) {
  return RULES[id] || RULES[id.split('-')[0]] || [];
}

export async function showRules(app, variantId, printable) {
  let list;
  try {
    list = await variants();
  } catch (error) {
    app.append(html('p', { class: 'error', role: 'alert', text: error.message }));
    return;
  }
  const variant = list.find((v) => v.id === variantId) || list[0];
  document.title = `Ludus — rules of ${variant.name}`;
  if (printable) document.body.classList.add('printable');
  const article = html('article', { class: printable ? 'rules print-sheet' : 'rules' });
  if (!printable) {
    article.append(html('nav', { class: 'variant-tabs', 'aria-label': 'Rule sets' },
      list.map((v) => html('a', { href: `/rules/${v.id}`, 'aria-current': v.id === variant.id ? 'page' : undefined, text: v.name }))));
  }
  article.append(
    html('h1', { text: variant.name }),
    html('p', { class: 'summary', text: variant.summary }),
    html('p', { class: 'reconstruction' }, [html('strong', { text: 'Evidence and reconstruction: ' }), variant.status]),
    html('h2', { text: 'Rules' }),
    html('ol', { class: 'rule-list' }, rulesFor(variant.id).map((r) => html('li', { text: r }))),
    html('p', { text: `Players: ${variant.players.map(sideName).join(' and ')}. Dice: ${variant.dice || 'none'}. First to move: ${variant.first === 'seed' ? 'drawn from the game’s seed' : sideName(variant.first)}.` }),
  );
  const board = boardFor(variant.id);
  const figure = html('figure', { class: 'rules-board' }, [
    board.render(board.parse(START[variant.id]), { bottom: variant.players[0], face: 'virtvs' }),
    html('figcaption', { text: 'The board at the start.' }),
  ]);
  article.append(figure);
  article.append(html('h2', { text: 'Sources' }), html('ul', { class: 'sources' }, variant.sources.map((s) => html('li', { text: s }))));
  if (printable) {
    article.append(html('p', { class: 'no-print' }, [
      html('button', { type: 'button', id: 'print', text: 'Print', onclick: () => window.print() }),
      ' ',
      html('a', { href: `/rules/${variant.id}`, text: 'Back to the rules' }),
    ]));
  } else {
    article.append(html('p', {}, [
      html('a', { href: `/rules/${variant.id}/print`, id: 'printable', text: 'Printable rules and board (A4)' }),
      ' · ',
      html('a', { href: '/', text: 'Play it' }),
    ]));
  }
  app.append(article);
}
