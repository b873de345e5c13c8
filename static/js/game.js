// The game screen: the board drawn from the server's view, selection by click-click, drag or
// keyboard, dice, clocks, the move list, the status line and the players' actions. Every change
// of the game comes from the server (over the socket or as the answer to an action).
import { gameView, playMove, gameAction, gameHint, joinInvite, savedToken, saveToken, analysis, variants, entropy } from './api.js';
import { GameConnection } from './connection.js';
import { mountReview } from './review.js';
import { html, svg, moveEnds } from './svg.js';
import { boardFor, sideName } from './boards/index.js';
import { FACES } from './boards/duodecim.js';
import { navigate } from './app.js';
import { qrSvg } from './qr.js';

let current = null; // the one game screen on the page

export function leaveGame() {
  if (current) current.destroy();
  current = null;
}

export async function joinAndShow(app, invite) {
  app.append(html('p', { class: 'status-line', role: 'status', text: 'Joining the game…' }));
  try {
    const joined = await joinInvite(invite, entropy());
    saveToken(joined.game_id, joined.seat.token);
    navigate(`/game/${joined.game_id}`, { replace: true });
  } catch (error) {
    app.replaceChildren(
      html('h1', { text: 'Cannot join' }),
      html('p', { class: 'error', role: 'alert', text: error.code === 'seat_taken' ? 'This invitation has already been used: the seat is taken.' : `The server refused: ${error.message}` }),
      html('p', {}, [html('a', { href: '/', text: 'Start a new game' })]),
    );
  }
}

export async function showGame(app, gameId) {
  let tokenFromLink = false;
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get('token')) {
    saveToken(gameId, hash.get('token'));
    tokenFromLink = true;
    history.replaceState(null, '', location.pathname);
  }
  const token = savedToken(gameId);
  let view;
  try {
    view = await gameView(gameId, token);
  } catch (error) {
    app.append(html('h1', { text: 'Game not found' }), html('p', { class: 'error', role: 'alert', text: error.message }));
    return;
  }
  const list = await variants().catch(() => []);
  current = new GameScreen(app, gameId, token, view, list.find((v) => v.id === view.variant), tokenFromLink);
  mountReview(app, { gameId, view, bottom: view.seat ? view.seat.bottom : undefined });
}

const TERMINATIONS = {
  reduction: 'reduction (one piece or none left)',
  blockade: 'blockade (no move left)',
  repetition: 'threefold repetition',
  'no-capture': '100 plies without a capture',
  gathered: 'gathering all five counters',
  exchange: 'exchange of setup points',
  'borne-off': 'bearing off all fifteen',
  'move-limit': 'the move limit (a safety cap, not a historical rule)',
  timeout: 'time',
  resignation: 'resignation',
  agreement: 'agreement',
  abandoned: 'abandonment',
};

function formatClock(ms) {
  const clamped = Math.max(0, ms);
  const minutes = Math.floor(clamped / 60000);
  const seconds = Math.floor((clamped % 60000) / 1000);
  if (clamped < 10000) return `${minutes}:${String(seconds).padStart(2, '0')}.${Math.floor((clamped % 1000) / 100)}`;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}

const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[28, 28], [50, 50], [72, 72]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 25], [72, 25], [28, 50], [72, 50], [28, 75], [72, 75]],
};

function die(value, extraClass = '') {
  return svg('svg', { viewBox: '0 0 100 100', class: `die ${extraClass}`, role: 'img', 'aria-label': `die ${value}` }, [
    svg('rect', { x: 4, y: 4, width: 92, height: 92, rx: 16, class: 'die-face' }),
    ...(PIPS[value] || []).map(([cx, cy]) => svg('circle', { cx, cy, r: 9, class: 'pip' })),
  ]);
}

class GameScreen {
  constructor(app, gameId, token, view, variant, tokenFromLink) {
    this.app = app;
    this.gameId = gameId;
    this.token = token;
    this.variant = variant;
    this.board = boardFor(view.variant);
    this.view = null;
    this.selected = null;
    this.threatsOn = false;
    this.threats = null;
    this.face = localStorage.getItem('ludus.face') || 'virtvs';
    this.message = '';
    this.rolling = false;
    this.build(tokenFromLink);
    this.update(view);
    this.connection = new GameConnection(gameId, token, {
      onView: (v, event) => {
        if (event && event.kind === 'roll') this.roll();
        this.update(v);
      },
      onState: (state) => this.connectionState(state),
      onError: (error) => this.refused(error),
    });
    this.ticker = setInterval(() => this.tick(), 100);
    // For tests and the curious: the view, a dropped socket, a move sent as typed.
    window.ludusDebug = { dropSocket: () => this.connection.drop(), view: () => this.view, play: (move) => this.play(move) };
  }

  destroy() {
    clearInterval(this.ticker);
    this.connection.close();
    window.ludusDebug = undefined;
  }

  build(tokenFromLink) {
    const title = this.variant ? this.variant.name : 'Game';
    document.title = `Ludus — ${title}`;
    this.heading = html('h1', { class: 'game-title', text: title });
    this.notice = html('div', { class: 'notices' });
    if (tokenFromLink) {
      this.notice.append(html('p', { class: 'notice', role: 'note', text: 'You opened your seat link. It is the key to your seat: keep it private, and do not share it with your opponent.' }));
    }
    this.invitePanel = html('section', { class: 'invite', 'aria-label': 'Invitation', hidden: true });
    this.topClock = html('div', { class: 'clock clock-top', 'aria-live': 'off' });
    this.bottomClock = html('div', { class: 'clock clock-bottom', 'aria-live': 'off' });
    this.boardHolder = html('div', { class: 'board-holder' });
    this.choices = html('div', { class: 'choices', 'aria-label': 'Moves without a piece to pick' });
    this.status = html('p', { class: 'status-line', id: 'status', role: 'status', 'aria-live': 'polite' });
    this.errorLine = html('p', { class: 'refusal', role: 'alert' });
    this.diceBox = html('div', { class: 'dice', 'aria-label': 'Dice' });
    this.actions = html('div', { class: 'actions' });
    this.moveList = html('ol', { class: 'move-list', 'aria-label': 'Moves' });
    this.connectionLine = html('p', { class: 'connection' });
    this.threatToggle = html('input', { type: 'checkbox', id: 'threats' });
    this.threatToggle.addEventListener('change', () => {
      this.threatsOn = this.threatToggle.checked;
      this.refreshThreats();
    });
    const options = html('div', { class: 'options' }, [
      html('label', { for: 'threats', class: 'toggle' }, [this.threatToggle, html('span', { text: ' Show my threatened pieces' })]),
    ]);
    this.threatInfo = html('p', { class: 'threat-info', role: 'status' });
    options.append(this.threatInfo);
    if (this.board.FACES) {
      const select = html('select', { id: 'face', 'aria-label': 'Board face' },
        Object.entries(FACES).map(([key, f]) => html('option', { value: key, text: f.name, selected: key === this.face || undefined })));
      select.addEventListener('change', () => {
        this.face = select.value;
        localStorage.setItem('ludus.face', this.face);
        this.draw();
      });
      options.append(html('label', { for: 'face', class: 'face' }, [html('span', { text: 'Board face ' }), select]));
    }
    if (this.token) {
      const seatLink = `${location.origin}/game/${encodeURIComponent(this.gameId)}#token=${this.token}`;
      options.append(html('details', { class: 'seat-link' }, [
        html('summary', { text: 'Your seat link' }),
        html('p', { text: 'This link opens your seat on another device. Keep it private: whoever has it can play for you.' }),
        html('input', { type: 'text', readonly: true, value: seatLink, 'aria-label': 'Your seat link (private)' }),
        html('p', { text: 'Spectators can watch at this link, which holds no seat:' }),
        html('input', { type: 'text', readonly: true, value: `${location.origin}/game/${encodeURIComponent(this.gameId)}`, 'aria-label': 'Link for spectators' }),
      ]));
    }
    this.fairness = html('details', { class: 'fairness', hidden: true });
    const panel = html('aside', { class: 'side-panel' }, [this.status, this.errorLine, this.diceBox, this.choices, this.actions, options, this.fairness,
      html('h2', { text: 'Moves' }), this.moveList, this.connectionLine]);
    const play = html('div', { class: 'play' }, [html('div', { class: 'board-column' }, [this.topClock, this.boardHolder, this.bottomClock]), panel]);
    this.app.append(this.heading, this.notice, this.invitePanel, play);
    this.boardHolder.addEventListener('pointerdown', (e) => this.pointerDown(e));
    this.boardHolder.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      const place = e.target.closest && e.target.closest('[data-place]');
      if (!place) return;
      e.preventDefault();
      this.activate(place.dataset.place);
    });
  }

  mySide() {
    const v = this.view;
    if (!v.seat) return null;
    if (v.seat.both) return v.to_move || v.seat.side;
    return v.seat.side;
  }

  update(view) {
    if (this.view && view.version < this.view.version) return;
    const changed = !this.view || view.version !== this.view.version;
    this.view = view;
    if (changed) {
      this.selected = null;
      this.threats = null;
      this.message = '';
      this.receivedAt = performance.now();
      if (this.threatsOn) this.refreshThreats();
    }
    this.clockBase = { clocks: view.clocks, at: performance.now() };
    this.draw();
  }

  legal() {
    return (this.view.legal_moves || []).map(moveEnds);
  }

  draw() {
    const v = this.view;
    const legal = this.legal();
    const movable = new Set(legal.filter((m) => m.from).map((m) => m.from));
    const destinations = new Map();
    if (this.selected) {
      for (const m of legal) if (m.from === this.selected) destinations.set(m.to, [...(destinations.get(m.to) || []), m.move]);
    }
    const last = v.moves.length ? moveEnds(v.moves[v.moves.length - 1]) : null;
    const ctx = {
      bottom: v.seat ? v.seat.bottom : v.sides[0],
      movable,
      destinations,
      selected: this.selected,
      threatened: this.threats ? new Set(this.threats.places) : null,
      odds: this.threats ? this.threats.odds : null,
      face: this.face,
      lastMove: last && last.from ? new Set([last.from, last.to]) : null,
    };
    const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest('[data-place]');
    const focusPlace = focused && this.boardHolder.contains(focused) ? focused.dataset.place : null;
    let model;
    try {
      model = this.board.parse(v.position);
      this.boardHolder.replaceChildren(this.board.render(model, ctx));
    } catch (error) {
      this.boardHolder.replaceChildren(html('p', { class: 'error', text: `Cannot draw the position ${v.position}: ${error.message}` }));
    }
    this.boardHolder.dataset.bottom = ctx.bottom;
    this.boardHolder.dataset.version = v.version;
    if (focusPlace) {
      const again = this.boardHolder.querySelector(`[data-place="${focusPlace}"][tabindex]`) || this.boardHolder.querySelector('[data-place][tabindex]');
      if (again) again.focus();
    }
    this.drawStatus();
    this.drawInvite();
    this.drawDice(model);
    this.drawChoices(legal, destinations);
    this.drawActions();
    this.drawMoves();
    this.drawFairness();
    this.tick();
  }

  /** Dice games: the server's commitment, and its seed once the game is over (RULES.md §4). */
  drawFairness() {
    const v = this.view;
    this.fairness.hidden = !v.commitment;
    if (!v.commitment) return;
    const lines = [html('p', { text: `Commitment to the server seed: ${v.commitment}` })];
    if (v.server_seed) lines.push(html('p', { text: `Server seed, revealed: ${v.server_seed}. The game record lets anyone re-derive every die.` }));
    else lines.push(html('p', { text: 'The server seed is revealed when the game ends, so every die can be checked.' }));
    this.fairness.replaceChildren(html('summary', { text: 'Fair dice' }), ...lines);
  }

  drawStatus() {
    const v = this.view;
    const me = v.seat && !v.seat.both ? v.seat.side : null;
    let text;
    if (v.status === 'waiting') text = v.mode === 'online' ? 'Waiting for your friend to join…' : 'Waiting to start…';
    else if (v.status === 'aborted') text = 'The game was aborted.';
    else if (v.status === 'finished' && v.result) {
      const how = TERMINATIONS[v.result.termination] || v.result.termination;
      if (v.result.winner) {
        const you = me ? (v.result.winner === me ? ' — you win' : ' — you lose') : '';
        text = `${sideName(v.result.winner)} wins by ${how}${you}.`;
      } else text = `Draw by ${how}.`;
    } else {
      const turn = sideName(v.to_move);
      if (v.seat && v.seat.both) text = `${turn} to move.`;
      else if (me && v.to_move === me) text = `Your move (${turn}).`;
      else if (v.mode === 'computer' && me) text = `The computer is thinking (${turn})…`;
      else text = `${turn} to move.`;
      if (v.draw_offer && v.draw_offer !== me) text += ` ${sideName(v.draw_offer)} offers a draw.`;
      if (v.draw_offer && v.draw_offer === me) text += ' You offered a draw.';
    }
    this.status.textContent = text;
    this.status.dataset.status = v.status;
    this.errorLine.textContent = this.message;
    this.notice.querySelectorAll('.opponent-gone').forEach((n) => n.remove());
    if (v.mode === 'online' && v.status === 'playing' && v.seat && v.opponent_connected === false) {
      this.notice.append(html('p', { class: 'notice opponent-gone', role: 'status', text: 'Your opponent is disconnected. If they stay away, you may claim the game.' }));
    }
    this.heading.dataset.mode = v.mode;
  }

  drawInvite() {
    const v = this.view;
    const invite = localStorage.getItem(`ludus.invite.${v.game_id}`);
    const show = v.status === 'waiting' && v.mode === 'online' && invite;
    this.invitePanel.hidden = !show;
    if (!show || this.invitePanel.childElementCount) return;
    const url = `${location.origin}/join/${invite}`;
    const field = html('input', { type: 'text', readonly: true, value: url, id: 'invite-link', 'aria-label': 'Invitation link' });
    const copied = html('span', { class: 'copied', role: 'status' });
    const copy = html('button', { type: 'button', id: 'copy-invite', text: 'Copy link' });
    copy.addEventListener('click', async () => {
      field.select();
      try {
        await navigator.clipboard.writeText(url);
        copied.textContent = 'Copied.';
      } catch {
        copied.textContent = 'Select the link and copy it.';
      }
    });
    this.invitePanel.append(
      html('h2', { text: 'Invite a friend' }),
      html('p', { text: 'Send this link to the person you want to play. The game starts when they open it.' }),
      html('div', { class: 'invite-row' }, [field, copy, copied]),
      html('div', { class: 'qr-holder' }, [qrSvg(url, 'QR code of the invitation link')]),
      html('p', { class: 'waiting', text: 'Waiting for your friend to join…' }),
    );
  }

  drawDice(model) {
    const v = this.view;
    this.diceBox.replaceChildren();
    if (!('dice' in v) || v.status !== 'playing') return;
    const dice = model && model.dice ? model.dice : v.dice || [];
    const bonus = model && model.bonus ? model.bonus : [];
    const group = html('div', { class: 'dice-row', 'data-dice': dice.join(',') }, dice.map((d) => die(d, this.rolling ? 'rolling' : '')));
    this.diceBox.append(html('span', { class: 'dice-label', text: dice.length ? `Dice (${sideName(v.to_move || v.sides[0])})` : 'Dice: awaiting the roll' }), group);
    if (bonus.length) {
      this.diceBox.append(html('span', { class: 'dice-label', text: 'Bonus dice' }), html('div', { class: 'dice-row bonus', 'data-bonus': bonus.join(',') }, bonus.map((d) => die(d, 'bonus-die'))));
    }
    this.rolling = false;
  }

  drawChoices(legal, destinations) {
    this.choices.replaceChildren();
    const buttons = [];
    for (const m of legal) {
      if (m.special) buttons.push([m.move, m.special === 'decline' ? 'Decline the bonus dice' : m.special === 'pass' ? `Pass (${m.move})` : m.move]);
    }
    for (const [, moves] of destinations) if (moves.length > 1) for (const m of moves) buttons.push([m, `Play ${m}`]);
    for (const [move, label] of buttons) {
      const b = html('button', { type: 'button', class: 'move-choice', 'data-move': move, text: label });
      b.addEventListener('click', () => this.play(move));
      this.choices.append(b);
    }
  }

  drawActions() {
    const v = this.view;
    this.actions.replaceChildren();
    if (!v.seat) {
      this.actions.append(html('p', { text: 'You are watching this game.' }));
      return;
    }
    const add = (id, label, action, extra = {}) => {
      const b = html('button', { type: 'button', id, text: label, ...extra });
      b.addEventListener('click', action);
      this.actions.append(b);
      return b;
    };
    const me = v.seat.both ? null : v.seat.side;
    const playing = v.status === 'playing';
    if (playing || v.status === 'waiting') {
      if (v.moves.length === 0) add('abort', 'Abort', () => this.act('abort'));
    }
    if (playing) {
      // Resigning takes a second click within a few seconds; the state outlives redraws.
      const confirming = this.resignAsked && performance.now() - this.resignAsked < 4000;
      add('resign', confirming ? 'Confirm resign' : 'Resign', () => {
        if (this.resignAsked && performance.now() - this.resignAsked < 4000) {
          this.resignAsked = null;
          this.act('resign');
        } else {
          this.resignAsked = performance.now();
          this.drawActions();
          setTimeout(() => this.drawActions(), 4100);
        }
      }, confirming ? { 'data-confirm': '1' } : {});
      if (v.mode === 'online') {
        if (v.draw_offer && v.draw_offer !== me) {
          add('draw-accept', 'Accept draw', () => this.act('draw'));
          add('draw-decline', 'Decline draw', () => this.act('draw/decline'));
        } else if (!v.draw_offer) add('draw', 'Offer a draw', () => this.act('draw'));
        if (v.opponent_connected === false) add('claim', 'Claim the game', () => this.act('claim'));
      }
      if ((v.mode === 'computer' || v.mode === 'local') && v.moves.length) add('undo', 'Undo', () => this.act('undo'));
      if ((v.mode === 'computer' || v.mode === 'local') && (v.legal_moves || []).length) add('hint', 'Hint', () => this.askHint());
    }
    if (v.status === 'finished' || v.status === 'aborted') {
      if (v.rematch) {
        add('go-rematch', 'Play the rematch', () => {
          saveToken(v.rematch, this.token);
          navigate(`/game/${v.rematch}`);
        });
      } else if (v.status === 'finished') add('rematch', 'Rematch', () => this.act('rematch'));
      this.actions.append(html('a', { href: '/', class: 'button-link', text: 'New game' }));
      this.actions.append(html('a', { href: `/api/v1/games/${v.game_id}/record`, class: 'button-link', download: `${v.game_id}.txt`, text: 'Record' }));
    }
  }

  drawMoves() {
    const v = this.view;
    this.moveList.replaceChildren();
    const petteia = v.variant.startsWith('petteia');
    if (petteia) {
      this.moveList.classList.add('paired');
      for (let i = 0; i < v.moves.length; i += 2) {
        this.moveList.append(html('li', {}, [html('span', { text: v.moves[i] }), html('span', { text: v.moves[i + 1] || '' })]));
      }
    } else {
      v.moves.forEach((m) => this.moveList.append(html('li', { text: m })));
    }
    this.moveList.scrollTop = this.moveList.scrollHeight;
  }

  tick() {
    const v = this.view;
    const base = this.clockBase && this.clockBase.clocks;
    const bottom = v.seat ? v.seat.bottom : v.sides[0];
    const top = v.sides.find((s) => s !== bottom);
    const me = v.seat && !v.seat.both ? v.seat.side : null;
    const show = (el, side) => {
      let label = sideName(side);
      if (me === side) label += ' (you)';
      else if (v.mode === 'computer' && me) label += ' (computer)';
      if (!base) {
        el.replaceChildren(html('span', { class: 'clock-side', text: label }));
        el.classList.toggle('running', v.status === 'playing' && v.to_move === side);
        return;
      }
      let ms = base[side];
      const running = base.running === side && v.status === 'playing';
      if (running) ms -= performance.now() - this.clockBase.at;
      el.replaceChildren(html('span', { class: 'clock-side', text: label }), html('span', { class: 'clock-time', text: formatClock(ms) }));
      el.classList.toggle('running', running);
      el.classList.toggle('low', ms < 10000);
    };
    show(this.topClock, top);
    show(this.bottomClock, bottom);
  }

  connectionState(state) {
    const text = { connecting: 'Connecting…', connected: 'Connected.', reconnecting: 'Connection lost; reconnecting…', disconnected: 'Connection lost; reconnecting…' }[state];
    this.connectionLine.textContent = text;
    this.connectionLine.dataset.state = state;
  }

  refused(error) {
    this.message = `Refused: ${error.message}${error.reason && !String(error.message).includes(error.reason) ? ` (${error.reason})` : ''}`;
    this.errorLine.textContent = this.message;
  }

  roll() {
    this.rolling = true;
  }

  async refreshThreats() {
    if (!this.threatsOn) {
      this.threats = null;
      this.threatInfo.textContent = '';
      this.draw();
      return;
    }
    const v = this.view;
    const side = this.mySide() || v.sides[0];
    try {
      const result = await analysis(v.variant, v.position);
      if (this.view !== v) return;
      this.threats = { places: result.threatened[side] || [], odds: (result.threat_odds || {})[side] || null };
      const n = this.threats.places.length;
      this.threatInfo.textContent = n ? `${n} of your pieces ${n === 1 ? 'is' : 'are'} threatened (dashed rings).` : 'None of your pieces is threatened.';
    } catch (error) {
      this.threatInfo.textContent = `Threats unavailable: ${error.message}`;
    }
    this.draw();
  }

  // Selection: click a movable piece, then a destination; or drag; or Enter/Space by keyboard.
  activate(place) {
    const legal = this.legal();
    if (this.selected) {
      const moves = legal.filter((m) => m.from === this.selected && m.to === place);
      if (moves.length === 1) return this.play(moves[0].move);
      if (moves.length > 1) return undefined; // the choice buttons name each move
      if (place === this.selected) {
        this.selected = null;
        return this.draw();
      }
    }
    this.selected = legal.some((m) => m.from === place) ? place : null;
    return this.draw();
  }

  pointerDown(event) {
    const placeEl = event.target.closest && event.target.closest('[data-place]');
    if (!placeEl || event.button > 0) return;
    const start = placeEl.dataset.place;
    const wasSelected = this.selected;
    const canDrag = this.legal().some((m) => m.from === start) && !(wasSelected && this.legal().some((m) => m.from === wasSelected && m.to === start));
    if (!canDrag) {
      this.activate(start);
      return;
    }
    event.preventDefault();
    if (wasSelected !== start) {
      this.selected = start;
      this.draw();
    }
    const svgRoot = this.boardHolder.querySelector('svg');
    let ghost = null;
    let moved = false;
    const startX = event.clientX;
    const startY = event.clientY;
    const move = (e) => {
      if (!moved && Math.hypot(e.clientX - startX, e.clientY - startY) < 6) return;
      moved = true;
      const matrix = svgRoot.getScreenCTM();
      if (!matrix) return;
      const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(matrix.inverse());
      if (!ghost) {
        ghost = svg('circle', { r: 20, class: 'drag-ghost' });
        svgRoot.append(ghost);
      }
      ghost.setAttribute('cx', p.x);
      ghost.setAttribute('cy', p.y);
    };
    const up = (e) => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', up);
      if (ghost) ghost.remove();
      if (!moved) {
        if (wasSelected === start) {
          this.selected = null;
          this.draw();
        }
        return;
      }
      const target = document.elementFromPoint(e.clientX, e.clientY);
      const targetEl = target && target.closest && target.closest('[data-place]');
      if (targetEl && targetEl.dataset.place !== start) this.activate(targetEl.dataset.place);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', up);
  }

  async play(move) {
    const v = this.view;
    this.selected = null;
    try {
      const after = await playMove(this.gameId, this.token, move, v.version, `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`);
      this.update(after);
    } catch (error) {
      this.refused(error);
      this.draw();
      this.errorLine.textContent = this.message;
    }
  }

  /** Asks the computer for a move and selects its piece, so the board shows where it may go. */
  async askHint() {
    const version = this.view.version;
    try {
      const hint = await gameHint(this.gameId, this.token);
      if (hint.version !== this.view.version || version !== this.view.version) return;
      this.selected = moveEnds(hint.move).from || null;
      this.draw();
      this.message = `Hint: ${hint.move}`;
      this.errorLine.textContent = this.message;
    } catch (error) {
      this.refused(error);
    }
  }

  async act(action) {
    try {
      const after = await gameAction(this.gameId, this.token, action);
      this.update(after);
      if (action === 'rematch' && after.rematch) {
        saveToken(after.rematch, this.token);
        navigate(`/game/${after.rematch}`);
      }
    } catch (error) {
      this.refused(error);
    }
  }
}
