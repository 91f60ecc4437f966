// tansaku's web app: talks to the JSON API of `tansaku serve` (docs/serve.md). No library,
// nothing fetched but the API.
'use strict';
const $ = (id) => document.getElementById(id);
const state = { list: [], info: null, job: null, poll: null, player: null, selected: null, drawSeq: 0 };
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

function choose(name) {
  $('name').value = name;
  $('pick').value = name;
  const p = state.list.find((q) => q.name === name);
  $('summary').textContent = p ? p.summary : '';
  $('start').value = '';
  clearResult();
  drawStart();
}

function request() {
  const body = { puzzle: $('name').value.trim() };
  const start = $('start').value.trim();
  if (start) body.start = start;
  if ($('algorithm').value.trim()) body.algorithm = $('algorithm').value.trim();
  if ($('timeout').value) body.timeout = Number($('timeout').value);
  const extra = $('extra').value.trim();
  if (extra) {
    let more;
    try { more = JSON.parse(extra); } catch (e) { throw new Error('More options: not JSON (' + e.message + ')'); }
    Object.assign(body, more);
  }
  return body;
}

// --- the start position, drawn by the family (or as a grid of tokens), edited by clicks
async function drawStart() {
  const seq = ++state.drawSeq;
  showError('');
  const body = { puzzle: $('name').value.trim() };
  if (!body.puzzle) { $('board').innerHTML = ''; return; }
  if ($('start').value.trim()) body.start = $('start').value.trim();
  const r = await api('POST', '/api/draw', body);
  if (seq !== state.drawSeq) return;
  if (r.status !== 200) { showError(r.body.error); return; }
  state.info = r.body.info;
  if (!$('start').value.trim() && typeof state.info.start === 'string') $('start').placeholder = state.info.start;
  renderBoard($('board'), r.body.board, currentStart());
  state.selected = null;
  const toks = tokens(currentStart());
  $('edit-hint').textContent = !toks.length ? '' : binary(toks) ? 'click a cell to toggle it' : 'click two cells to swap them';
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

function onBoardClick(ev) {
  const cell = ev.target.closest('[data-cell]');
  if (!cell) return;
  const i = Number(cell.dataset.cell);
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
  $('start').value = withTokens(s, toks);
  drawStart();
}

// --- jobs: queued, polled for progress, cancelled
async function run(command) {
  let body;
  try { body = request(); } catch (e) { showError(e.message); return; }
  showError('');
  clearResult();
  const r = await api('POST', `/api/${command}?async=1&draw=1`, body);
  if (r.status !== 202) { showError(r.body.error); return; }
  state.job = r.body.job;
  setBusy(true);
  $('status').textContent = `${command}: queued`;
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
$('name').addEventListener('change', () => {
  const name = $('name').value.trim();
  $('pick').value = state.list.some((p) => p.name === name) ? name : '';
  const p = state.list.find((q) => q.name === name);
  $('summary').textContent = p ? p.summary : '';
  $('start').value = '';
  clearResult();
  drawStart();
});
$('start').addEventListener('change', drawStart);
$('reset').addEventListener('click', () => { $('start').value = ''; drawStart(); });
$('board').addEventListener('click', onBoardClick);
$('solve').addEventListener('click', () => run('solve'));
$('explore').addEventListener('click', () => run('explore'));
$('cancel').addEventListener('click', cancel);
loadList().catch((e) => showError('cannot reach the server: ' + e.message));
