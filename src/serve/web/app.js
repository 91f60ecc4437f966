// tansaku's web app: talks to the JSON API of `tansaku serve` (docs/serve.md). No library,
// nothing fetched but the API.
'use strict';
const $ = (id) => document.getElementById(id);
const state = { list: [], info: null, job: null, poll: null, player: null, selected: null, drawSeq: 0,
                family: null, families: [], play: null, drawn: 0, clicked: [], history: [], paste: null };
const MAX_MOVE_BUTTONS = 120;  // more legal moves than this: the board's clicks only
const BIG_SVG = 4 << 20;  // drawings larger than this are summarised, not put in the page

// Every POST says it is JSON, even without a body (a cancel): the server refuses any other
// (415), so that another site's page cannot post to it (docs/serve.md, Security).
async function api(method, path, body) {
  const r = await fetch(path, { method, headers: method === 'POST' ? { 'Content-Type': 'application/json' } : {},
                                body: body ? JSON.stringify(body) : undefined });
  let j = null;
  try { j = await r.json(); } catch (e) { j = { error: `HTTP ${r.status}` }; }
  return { status: r.status, body: j };
}

function showError(msg) { const e = $('error'); e.textContent = msg || ''; e.hidden = !msg; }
function escapeText(s) { return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]); }

// --- the state notation: tokens separated by spaces, or one character each ('/' ends a row)
function tokens(s) {
  s = (s || '').trim();
  if (/\s/.test(s)) return s.split(/[\s/]+/).filter((t) => t !== '');
  return [...s].filter((c) => c !== '/' && c !== ',');
}
function withTokens(s, toks) {
  s = (s || '').trim();
  if (/\s/.test(s)) return toks.join(' ');
  let i = 0;
  return [...s].map((c) => (c === '/' || c === ',') ? c : toks[i++]).join('');
}
function binary(toks) {
  const set = new Set(toks);
  return set.size <= 2 && [...set].every((t) => t === '0' || t === '1');
}

// --- the list of puzzles
async function loadList() {
  const r = await api('GET', '/api/list');
  state.list = r.body.puzzles;
  const pick = $('pick');
  const groups = {};
  for (const p of state.list) {
    if (!groups[p.family]) {
      groups[p.family] = document.createElement('optgroup');
      groups[p.family].label = p.family;
      pick.appendChild(groups[p.family]);
    }
    const o = document.createElement('option');
    o.value = p.name;
    o.textContent = p.name.replace(/^[^:]*:/, '') === p.name ? p.name : p.name;
    o.title = p.summary;
    groups[p.family].appendChild(o);
  }
  const first = state.list[0];  // the registry's first builtin
  pick.value = first.name;
  choose(first.name);
}

// A listed name with capitals in its variant (sliding:RxC, peg:triangleN, perm:FILE.tws) names
// many puzzles: a file's text goes in "Your own puzzle", a size is typed in the Name box.
function placeholder(name) {
  const variant = name.includes(':') ? name.slice(name.indexOf(':') + 1) : '';
  if (!/[A-Z]/.test(variant)) return false;
  $('name').value = name;
  const p = state.list.find((q) => q.name === name);
  $('summary').textContent = p ? p.summary : '';
  state.family = null;
  state.play = null;
  for (const id of ['board', 'moves', 'edit-hint']) $(id).innerHTML = '';
  $('start').value = '';
  $('start').placeholder = "the puzzle's default";
  clearResult();
  const family = name.slice(0, name.indexOf(':'));
  if (variant.startsWith('FILE') && state.families.some((f) => f.family === family)) {
    $('paste-kind').value = family;
    pasteHint();
    $('own').open = true;
    $('paste').focus();
    $('status').textContent = 'paste the text of your file in "Your own puzzle", then press "Use this puzzle"';
  } else {
    const input = $('name');
    input.focus();
    input.setSelectionRange(name.indexOf(':') + 1, name.length);
    const letters = variant.replace(/[^A-Z]+/g, ' ').trim().split(' ').join(', ');
    $('status').textContent = `${name} names many puzzles: put numbers for ${letters} in the Name box, then press Enter`;
  }
  return true;
}

function choose(name, keepPaste) {
  if (!keepPaste && placeholder(name)) return Promise.resolve();
  $('name').value = name;
  $('pick').value = state.list.some((p) => p.name === name) ? name : '';
  const p = state.list.find((q) => q.name === name);
  $('summary').textContent = p ? p.summary : '';
  if (!keepPaste) state.paste = null;
  if (!name) { state.family = null; $('board').innerHTML = ''; $('moves').innerHTML = ''; return Promise.resolve(); }
  $('start').value = '';
  $('start').placeholder = "the puzzle's default";
  state.info = null;
  state.history = [];
  $('mode').value = 'play';
  $('status').textContent = '';
  clearResult();
  loadFamily(name).then(drawStart);
}

// --- the family's declarations (GET /api/family): its commands, options and solvers
async function loadFamily(name) {
  const r = await api('GET', '/api/family?puzzle=' + encodeURIComponent(name));
  state.family = r.status === 200 ? r.body : null;
  const f = state.family;
  const commands = f ? f.commands : ['show', 'solve', 'explore'];
  $('solve').hidden = !commands.includes('solve');
  $('explore').hidden = !commands.includes('explore');  // Explore only where the family explores
  const alg = $('algorithm');
  alg.innerHTML = '<option value="">automatic</option>';
  for (const s of (f ? f.solvers : [])) {
    const o = document.createElement('option');
    o.value = s.name;
    o.textContent = `${s.name} (${s.commands.join(', ')})`;
    o.title = s.summary;
    alg.appendChild(o);
  }
  buildFields(f ? f.options : []);
}

// One form field per declared option (the state options have the Start box; options that
// name files on the server are left out unless the server allows them).
const STATE_OPTIONS = new Set(['start', 'from']);
function buildFields(options) {
  const box = $('fields');
  box.innerHTML = '';
  for (const o of options) {
    if (STATE_OPTIONS.has(o.name) || o.refused || o.batch) continue;
    const label = document.createElement('label');
    const input = document.createElement('input');
    input.dataset.option = o.name;
    input.dataset.type = o.type;
    input.title = `--${o.name}: ${o.help} (${o.commands.join(', ')})`;
    if (o.type === 'flag') {
      input.type = 'checkbox';
      label.className = 'check';
      label.append(input, ` ${o.name}`);
      const help = document.createElement('span');
      help.className = 'note';
      help.textContent = o.help;
      label.append(help);
    } else {
      if (o.type === 'integer') {
        input.type = 'number';
        input.step = '1';
        if (o.min !== undefined) input.min = o.min;
        if (o.max !== undefined) input.max = o.max;
      }
      input.spellcheck = false;
      input.placeholder = o.default !== undefined ? o.default : (o.value_name || '');
      label.append(`${o.name} `);
      const help = document.createElement('span');
      help.className = 'note';
      help.textContent = `— ${o.help}`;
      label.append(help, input);
    }
    box.appendChild(label);
  }
}

function fieldValues(command) {
  const out = {};
  const declared = new Map(((state.family && state.family.options) || []).map((o) => [o.name, o]));
  for (const input of $('fields').querySelectorAll('[data-option]')) {
    const o = declared.get(input.dataset.option);
    if (command && o && !o.commands.includes(command)) continue;  // not taken by this command
    if (input.dataset.type === 'flag') { if (input.checked) out[input.dataset.option] = true; }
    else if (input.value.trim() !== '') out[input.dataset.option] = input.dataset.type === 'integer' ? Number(input.value) : input.value.trim();
  }
  return out;
}

// "More options": JSON ({"all": true}) or the command line's own words (--scramble "R U" --all).
function parseMore(text, command) {
  if (text.startsWith('{')) {
    try { return JSON.parse(text); } catch (e) { throw new Error('More options: not JSON (' + e.message + ')'); }
  }
  const words = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  let m;
  while ((m = re.exec(text)) !== null) words.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2] !== undefined ? m[2] : m[3]);
  const flags = new Set(['all', 'count', 'quiet', 'json']);
  for (const o of ((state.family && state.family.options) || [])) if (o.type === 'flag') flags.add(o.name);
  const out = {};
  for (let i = 0; i < words.length; ++i) {
    const w = words[i];
    if (!w.startsWith('--') || w.length < 3) throw new Error(`More options: '${w}' is not an option (write --name value)`);
    let name = w.slice(2), value;
    const eq = name.indexOf('=');
    if (eq >= 0) { value = name.slice(eq + 1); name = name.slice(0, eq); }
    else if (flags.has(name)) value = true;
    else if (i + 1 < words.length) value = words[++i];
    else throw new Error(`More options: --${name} needs a value`);
    out[name] = value;
  }
  return out;
}

// The request's own fields (puzzle, the pasted text) with the options the form gives.
function baseBody() {
  const body = { puzzle: $('name').value.trim() };
  if (state.paste && state.paste.name === body.puzzle) body.paste = state.paste.text;
  return body;
}

function request(command) {
  const body = baseBody();
  const start = $('start').value.trim();
  if (start) body[command === 'explore' && !takes('start', 'explore') ? 'from' : 'start'] = start;
  if ($('algorithm').value) body.algorithm = $('algorithm').value;
  if ($('timeout').value) body.timeout = Number($('timeout').value);
  Object.assign(body, fieldValues(command));
  const extra = $('extra').value.trim();
  if (extra) Object.assign(body, parseMore(extra, command));
  return body;
}

// Whether the family declares `name` for `command`.
function takes(name, command) {
  const o = ((state.family && state.family.options) || []).find((x) => x.name === name);
  return !!o && o.commands.includes(command);
}

// The options that define the instance (those show takes), for drawing and playing.
function showBody() {
  const body = baseBody();
  Object.assign(body, fieldValues('show'));
  const extra = $('extra').value.trim();
  if (extra) {
    let more = {};
    try { more = parseMore(extra, 'show'); } catch (e) { more = {}; }
    for (const [k, v] of Object.entries(more)) if (takes(k, 'show')) body[k] = v;
  }
  return body;
}

// --- the start position, drawn by the family (or as a grid of tokens), edited by clicks
async function drawStart() {
  const seq = ++state.drawSeq;
  showError('');
  const body = showBody();
  if (!body.puzzle) { $('board').innerHTML = ''; state.drawn = seq; return; }
  if ($('start').value.trim()) body.start = $('start').value.trim();
  // the position drawn with show's facts (POST /api/draw), and its legal moves (POST /api/play)
  const pb = showBody();
  pb.state = $('start').value.trim();
  // (show's facts of the puzzle's default, beside the play; the start itself drawn by the
  // play, else by /api/draw, which also says what is wrong with it)
  const plain = { ...body };
  delete plain.start;
  let [r, p] = await Promise.all([api('POST', '/api/draw', plain), api('POST', '/api/play', pb)]);
  if (seq !== state.drawSeq) return;
  const play = p.status === 200 && p.body.playable ? p.body : null;
  if (!play && body.start) {
    r = await api('POST', '/api/draw', body);
    if (seq !== state.drawSeq) return;
  }
  if (r.status !== 200 && !play) { showError(r.body.error); $('board').innerHTML = ''; setPlay(null); state.drawn = seq; return; }
  if (r.status === 200) state.info = r.body.info;
  // the placeholder always says this puzzle's default (not the previous puzzle's)
  if (!$('start').value.trim()) $('start').placeholder = state.info && typeof state.info.start === 'string' ? state.info.start : "the puzzle's default";
  // a position played to (a knight's path so far) may be one only the play mode draws
  renderBoard($('board'), play && play.board ? play.board : r.body.board, currentStart());
  state.selected = null;
  state.clicked = [];
  setPlay(play);
  state.drawn = seq;  // this drawing is complete (the tests wait for it)
}

function setPlay(play) {
  state.play = play;
  const playing = !!play && $('mode').value === 'play';
  $('mode').disabled = !play;
  if (!play) $('mode').value = 'edit';
  $('undo').disabled = !state.history.length;
  const toks = tokens(currentStart());
  const hint = $('edit-hint');
  hint.classList.toggle('goal', playing && play.goal);
  if (playing) {
    const clickable = play.moves.some((m) => m.cells.length);
    hint.textContent = play.goal ? 'solved: this is the goal' :
      !play.moves.length ? 'no legal move from here' :
      clickable ? `${play.moves.length} legal moves: click a piece or a cell (then where it goes) to play one` : `${play.moves.length} legal moves: press one`;
  } else {
    hint.textContent = !toks.length ? '' : binary(toks) ? 'click a cell to toggle it' : 'click two cells to swap them';
  }
  const box = $('moves');
  box.innerHTML = '';
  if (playing && play.moves.length <= MAX_MOVE_BUTTONS) {
    play.moves.forEach((m, i) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = m.move;
      b.dataset.move = i;
      b.title = m.state;
      box.appendChild(b);
    });
  }
}

// Plays a legal move: the position it leads to becomes the start; Undo goes back.
function playMove(m) {
  state.history.push($('start').value);
  $('start').value = m.state;
  clearResult();
  drawStart();
}

function undo() {
  if (!state.history.length) return;
  $('start').value = state.history.pop();
  clearResult();
  drawStart();
}

function currentStart() {
  return $('start').value.trim() || (state.info && typeof state.info.start === 'string' ? state.info.start : '');
}

// A family's SVG, or when it draws nothing, the state's tokens on a grid (rows x cols).
function renderBoard(el, svg, text) {
  if (svg && svg.length > BIG_SVG) { el.textContent = `(board too large to draw here: ${svg.length} bytes of SVG)`; return; }
  if (svg) { el.innerHTML = svg; return; }
  const toks = tokens(text);
  el.innerHTML = '';
  if (!toks.length) return;
  const info = state.info || {};
  let cols = info.cols || 0;
  if (!cols && text.includes('/')) cols = text.split('/')[0].trim().length;
  if (!cols || toks.length % cols) cols = Math.ceil(Math.sqrt(toks.length));
  const g = document.createElement('div');
  g.className = 'grid';
  g.style.gridTemplateColumns = `repeat(${cols}, auto)`;
  toks.forEach((t, i) => {
    const d = document.createElement('div');
    d.dataset.cell = i;
    d.textContent = t === '0' && !binary(toks) ? '' : t;
    d.title = `cell ${i}`;
    g.appendChild(d);
  });
  el.appendChild(g);
}

// Play mode: the cells clicked so far narrow the legal moves; when one move alone has them
// all, it is played. A cell of no move starts again.
function playClick(i) {
  const moves = state.play.moves;
  const matching = (cells) => moves.filter((m) => cells.every((c) => m.cells.includes(c)));
  let clicked = [...state.clicked, i];
  let cand = matching(clicked);
  if (!cand.length) { clicked = [i]; cand = matching(clicked); }
  if (cand.length === 1) { state.clicked = []; playMove(cand[0]); return; }
  // several moves share these cells: the one whose cells are exactly those clicked wins,
  // and among moves of the same cells, the one clicked in its order (a turn either way)
  const same = (m) => m.cells.length === clicked.length;
  const exact = cand.filter(same);
  const ordered = exact.filter((m) => m.cells.every((c, k) => c === clicked[k]));
  const pick = clicked.length > 1 ? (exact.length === 1 ? exact : ordered) : [];
  if (pick.length === 1) { state.clicked = []; playMove(pick[0]); return; }
  state.clicked = cand.length ? clicked : [];
  for (const el of $('board').querySelectorAll('.selected, .candidate')) el.classList.remove('selected', 'candidate');
  const marked = new Set(cand.flatMap((m) => m.cells));
  for (const el of $('board').querySelectorAll('[data-cell]')) {
    const c = Number(el.dataset.cell);
    if (state.clicked.includes(c)) el.classList.add('selected');
    else if (state.clicked.length && marked.has(c)) el.classList.add('candidate');
  }
}

function onBoardClick(ev) {
  const cell = ev.target.closest('[data-cell]');
  if (!cell) return;
  const i = Number(cell.dataset.cell);
  if (state.play && $('mode').value === 'play') { playClick(i); return; }
  const s = currentStart();
  const toks = tokens(s);
  if (!(i >= 0 && i < toks.length)) return;
  if (binary(toks)) {
    toks[i] = toks[i] === '1' ? '0' : '1';
  } else if (state.selected === null) {
    state.selected = i;
    cell.classList.add('selected');
    return;
  } else {
    const j = state.selected;
    state.selected = null;
    if (j === i) { cell.classList.remove('selected'); return; }
    [toks[i], toks[j]] = [toks[j], toks[i]];
  }
  state.history.push($('start').value);
  $('start').value = withTokens(s, toks);
  drawStart();
}

// --- jobs: queued, polled for progress, cancelled
async function run(command) {
  // A played position a solve does not take (a tour's path): the solve starts from what the
  // family names (the path's first square), and the board shows that start again.
  let reset = '';
  if (command === 'solve' && state.play && state.play.solve_start !== undefined &&
      $('start').value.trim() === state.play.state) {
    reset = `the played moves were reset: the solve starts from ${state.play.solve_start}`;
    state.history.push($('start').value);  // Undo brings the played moves back
    $('start').value = state.play.solve_start;
    drawStart();
  }
  let body;
  try { body = request(command); } catch (e) { showError(e.message); return; }
  showError('');
  clearResult();
  const r = await api('POST', `/api/${command}?async=1&draw=1`, body);
  if (r.status !== 202) { showError(r.body.error); return; }
  state.job = r.body.job;
  setBusy(true);
  $('status').textContent = `${command}: queued${reset ? ' (' + reset + ')' : ''}`;
  poll(command);
}

async function poll(command) {
  const id = state.job;
  if (!id) return;
  const r = await api('GET', `/api/job/${id}`);
  if (id !== state.job) return;
  if (r.status !== 200) { setBusy(false); showError(r.body.error); return; }
  const j = r.body;
  if (j.state !== 'done') {
    $('status').textContent = `${command}: ${j.state}, ${j.seconds.toFixed(1)} s${j.progress ? ' — ' + j.progress : ''}`;
    state.poll = setTimeout(() => poll(command), 150);
    return;
  }
  state.job = null;
  setBusy(false);
  if (j.cancelled && j.status !== 200) {  // stopped by Cancel: no "done", no error
    $('status').textContent = `${command}: cancelled after ${j.seconds.toFixed(3)} s`;
    return;
  }
  if (j.result && j.result.complete === false) {  // a limit stopped the solve: what it proved
    $('status').textContent = `${command}: stopped after ${j.seconds.toFixed(3)} s`;
    showStopped(j.result, j.drawing || {});
    return;
  }
  $('status').textContent = `${command}: done in ${j.seconds.toFixed(3)} s`;
  if (j.status !== 200) { showError(j.error); return; }
  if (command === 'solve') showSolve(j.result, j.drawing || {});
  else showExplore(j.result, j.drawing || {});
}

async function cancel() {
  if (!state.job) return;
  await api('POST', `/api/cancel/${state.job}`);
}

function setBusy(b) {
  $('solve').disabled = b;
  $('explore').disabled = b;
  $('cancel').disabled = !b;
}

// --- results
function clearResult() {
  if (state.player) state.player.stop();
  state.player = null;
  $('result').hidden = true;
  $('player').hidden = true;
  for (const id of ['facts', 'chart', 'farthest', 'player']) $(id).innerHTML = '';
}

function facts(pairs) {
  $('facts').innerHTML = pairs.filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => `<dt>${escapeText(k)}</dt><dd>${escapeText(typeof v === 'object' ? JSON.stringify(v) : v)}</dd>`).join('');
}

function moveText(m) { return typeof m === 'string' ? m : JSON.stringify(m); }

// The solution player of the --html pages (render/player.js, served as /player.js): frames
// drawn by the family, or when it draws nothing, the moves stepped through as text.
function showSolve(r, drawing) {
  $('result').hidden = false;
  facts([['puzzle', r.puzzle], ['start', r.start], ['goal', r.goal],
         ['result', r.solvable ? `${r.length} ${r.optimal ? '(optimal)' : '(not proved optimal)'}` : 'no solution: ' + (r.reason || 'proved unsolvable')],
         ['count', r.count], ['algorithm', r.algorithm], ['nodes', r.nodes], ['time', `${r.seconds.toFixed(3)} s`]]);
  const moves = (r.moves || []).map(moveText);
  let data = drawing;
  if (!data.frames || !data.frames.length)
    data = { frames: Array(moves.length + 1).fill(''), labels: moves, steps: moves.length, sampled: false };
  $('player').hidden = false;
  state.player = window.tansakuPlayer($('player'), data);
}

// A solve a limit stopped (docs/cli.md, the stopped object): the limit, the least length
// proved, the best solution found so far (played like a solution) and the hint.
function showStopped(r, drawing) {
  $('result').hidden = false;
  const best = r.best_solution;
  facts([['puzzle', r.puzzle], ['stopped', r.message],
         ['lower bound', r.lower_bound !== undefined ? `no solution is shorter than ${r.lower_bound}` : 'none proved'],
         ['best so far', best ? `${best.length} (${best.algorithm}${best.optimal ? ', as short as the bound: optimal' : ', not proved optimal'})` : 'none found'],
         ['hint', r.hint], ['time', `${r.seconds.toFixed(3)} s`]]);
  if (!best) return;
  const moves = (best.moves || []).map(moveText);
  let data = drawing;
  if (!data.frames || !data.frames.length)
    data = { frames: Array(moves.length + 1).fill(''), labels: moves, steps: moves.length, sampled: false };
  $('player').hidden = false;
  state.player = window.tansakuPlayer($('player'), data);
}

function showExplore(r, drawing) {
  $('result').hidden = false;
  facts([['puzzle', r.puzzle], ['from', r.from], ['states', r.states], ['depth', r.depth],
         ['farthest', `${r.farthest_count} at depth ${r.depth}`], ['time', `${r.seconds.toFixed(3)} s`]]);
  $('chart').innerHTML = drawing.chart || '';  // render/page.h's chart, its log toggle from player.js
  const chart = $('chart').querySelector('.chart');
  if (chart && window.tansakuChart) window.tansakuChart(chart);
  const pics = drawing.farthest || [];
  $('farthest').innerHTML = (r.farthest || []).map((s, i) =>
    `<figure><div class="board">${pics[i] && pics[i].length < BIG_SVG ? pics[i] : ''}</div><figcaption>${escapeText(s)}</figcaption></figure>`).join('');
}

// --- wiring
$('pick').addEventListener('change', (e) => choose(e.target.value));
$('name').addEventListener('change', () => choose($('name').value.trim()));
$('start').addEventListener('change', () => { state.history = []; drawStart(); });
$('reset').addEventListener('click', () => { $('start').value = ''; state.history = []; clearResult(); drawStart(); });
$('mode').addEventListener('change', () => { state.clicked = []; drawStart(); });
$('undo').addEventListener('click', undo);
$('moves').addEventListener('click', (ev) => {
  const b = ev.target.closest('[data-move]');
  if (b && state.play) playMove(state.play.moves[Number(b.dataset.move)]);
});
$('fields').addEventListener('change', () => drawStart());
$('extra').addEventListener('change', () => drawStart());
$('paste-kind').addEventListener('change', pasteHint);
$('use-paste').addEventListener('click', usePaste);
$('board').addEventListener('click', onBoardClick);
$('solve').addEventListener('click', () => run('solve'));
$('explore').addEventListener('click', () => run('explore'));
$('cancel').addEventListener('click', cancel);
// --- your own puzzle: the text of a board, graph or definition file, read by the family's
// own parser under the limits of a file (the server opens no file for it)
function pasteHint() {
  const f = state.families.find((x) => x.family === $('paste-kind').value);
  $('paste-hint').textContent = f ? f.paste.kind : '';
}

function usePaste() {
  const f = state.families.find((x) => x.family === $('paste-kind').value);
  const text = $('paste').value;
  if (!f || !text.trim()) { showError('paste the text of a puzzle first'); return; }
  const name = `${f.family}:pasted${f.paste.extension}`;
  state.paste = { name, text };
  choose(name, true);
}

async function loadFamilies() {
  const r = await api('GET', '/api/family');
  state.families = r.status === 200 ? r.body.families.filter((f) => f.paste) : [];
  const kind = $('paste-kind');
  for (const f of state.families) {
    const o = document.createElement('option');
    o.value = f.family;
    o.textContent = `${f.family} (${f.paste.extension})`;
    kind.appendChild(o);
  }
  pasteHint();
}

loadFamilies().then(loadList).catch((e) => showError('cannot reach the server: ' + e.message));
