// alldiff Sudoku page. The board, the buttons and the keyboard live here; the
// solver runs in worker.js (WebAssembly), so the page never freezes. Everything is
// served from this folder: no network at run time.
//
// For scripts and tests: <html> carries data-status ("loading", "ready", "busy",
// "error"), data-solution (the solved grid's symbols, once a solve found one) and
// data-solve-status ("unique", "multiple", "none"); window.alldiffPage has
// load(text), run(op, ...args) (a promise of the worker's answer) and
// clickStep(i).

const root = document.documentElement;
const $ = (id) => document.getElementById(id);
const el = (tag, className, text) => {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
};

function reportError(message) {
  const box = $('errors');
  box.hidden = false;
  box.appendChild(el('div', '', message));
  root.dataset.status = 'error';
}
window.addEventListener('error', (e) => reportError('script error: ' + e.message));
window.addEventListener('unhandledrejection', (e) => reportError('script error: ' + e.reason));

// ---- symbols ---------------------------------------------------------------------

// 1-9, then A for 10 up to G for 16 (as the library prints them).
const symbol = (d) => (d >= 1 && d <= 9 ? String(d) : d >= 10 ? d.toString(36).toUpperCase() : '');
function digitOf(key, side) {
  const d = parseInt(key, 36);
  return Number.isInteger(d) && d >= 1 && d <= side && key.length === 1 ? d : null;
}

// ---- state -----------------------------------------------------------------------

const state = {
  box: 3,
  side: 9,
  cells: new Array(81).fill(0), // the board: 0 for a blank
  given: new Array(81).fill(false), // the loaded puzzle's clues
  kind: new Array(81).fill(''), // how a non-clue digit got there: entered, solved, placed
  focus: 0,
  steps: null, // the explanation's steps, once asked
  stepsPuzzle: null, // the grid they explain
};

const line = () => state.cells.map((d) => (d ? symbol(d) : '.')).join('');

// ---- the worker ------------------------------------------------------------------

let worker = null;
let nextId = 1;
const pending = new Map();

function startWorker() {
  worker = new Worker(new URL('worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = (event) => {
    const { id, result, error, ms } = event.data;
    const job = pending.get(id);
    if (!job) return;
    pending.delete(id);
    if (!pending.size) idle();
    if (error !== undefined) job.reject(new Error(error));
    else job.resolve({ text: result, ms });
  };
  worker.onerror = (e) => reportError('worker error: ' + (e.message || e));
}

// Runs an export of the solver in the worker: its text and the time it took.
function call(op, ...args) {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    busy(op);
    worker.postMessage({ id, op, args });
  });
}

// The answer as JSON; an answer with `error` is shown and rejected.
async function ask(op, ...args) {
  const { text, ms } = await call(op, ...args);
  const answer = JSON.parse(text);
  answer.ms = ms;
  return answer;
}

let busyTimer = 0;
function busy(op) {
  root.dataset.status = 'busy';
  $('status').textContent = 'working: ' + op + '...';
  clearTimeout(busyTimer);
  // A button to stop, for work that takes a while.
  busyTimer = setTimeout(() => { $('cancel').hidden = false; }, 300);
}
function idle() {
  clearTimeout(busyTimer);
  $('cancel').hidden = true;
  if (root.dataset.status !== 'error') root.dataset.status = 'ready';
  $('status').textContent = 'ready';
}
function cancel() {
  if (!pending.size) return;
  worker.terminate();
  for (const job of pending.values()) job.reject(new Error('cancelled'));
  pending.clear();
  startWorker();
  idle();
  say('Cancelled.');
}

// ---- the board -------------------------------------------------------------------

const board = $('board');

function buildBoard() {
  board.textContent = '';
  board.style.setProperty('--side', state.side);
  for (let i = 0; i < state.side * state.side; i++) {
    const r = Math.floor(i / state.side);
    const c = i % state.side;
    const cell = el('div', 'cell');
    cell.tabIndex = i === state.focus ? 0 : -1;
    cell.setAttribute('role', 'gridcell');
    cell.dataset.index = i;
    if (c % state.box === state.box - 1 && c < state.side - 1) cell.classList.add('box-right');
    if (r % state.box === state.box - 1 && r < state.side - 1) cell.classList.add('box-bottom');
    board.appendChild(cell);
  }
}

// Draws `cells` (default: the board) with marks: sets of indices per class name.
function draw(cells = state.cells, marks = {}, kinds = state.kind) {
  const n = state.side * state.side;
  for (let i = 0; i < n; i++) {
    const cell = board.children[i];
    cell.className = cell.className.split(' ').filter((c) => c === 'cell' || c.startsWith('box-')).join(' ');
    cell.textContent = cells[i] ? symbol(cells[i]) : '';
    if (cells[i]) cell.classList.add(state.given[i] ? 'given' : kinds[i] || 'entered');
    const r = Math.floor(i / state.side) + 1;
    const c = (i % state.side) + 1;
    cell.setAttribute('aria-label', 'r' + r + 'c' + c + (cells[i] ? ' ' + symbol(cells[i]) : ' blank'));
  }
  for (const [name, set] of Object.entries(marks)) {
    for (const i of set) if (board.children[i]) board.children[i].classList.add(name);
  }
}

// Candidates per cell (arrays of digits), as the tree's node shows them.
function drawCandidates(domains, changed) {
  const n = state.side * state.side;
  const cols = Math.ceil(Math.sqrt(state.side));
  for (let i = 0; i < n; i++) {
    const cell = board.children[i];
    cell.className = cell.className.split(' ').filter((c) => c === 'cell' || c.startsWith('box-')).join(' ');
    cell.textContent = '';
    const d = domains[i] || [];
    if (d.length === 1) {
      cell.textContent = symbol(d[0]);
      cell.classList.add(state.given[i] ? 'given' : 'solved');
    } else if (d.length === 0) {
      cell.textContent = '!';
      cell.classList.add('empty-domain');
    } else {
      const box = el('div', 'cands');
      box.style.gridTemplateColumns = 'repeat(' + cols + ', 1fr)';
      for (let v = 1; v <= state.side; v++) box.appendChild(el('span', '', d.includes(v) ? symbol(v) : ''));
      cell.appendChild(box);
    }
    if (changed.has(i)) cell.classList.add('changed');
  }
}

function focusCell(i, move) {
  const n = state.side * state.side;
  i = ((i % n) + n) % n;
  board.children[state.focus].tabIndex = -1;
  state.focus = i;
  board.children[i].tabIndex = 0;
  if (move) board.children[i].focus();
}

function setSize(box) {
  state.box = box;
  state.side = box * box;
  const n = state.side * state.side;
  state.cells = new Array(n).fill(0);
  state.given = new Array(n).fill(false);
  state.kind = new Array(n).fill('');
  state.focus = 0;
  $('size').value = String(box);
  buildBoard();
}

// Any change of the grid forgets the explanation and the solution shown.
function changed() {
  state.steps = null;
  $('steps').textContent = '';
  delete root.dataset.solution;
  delete root.dataset.solveStatus;
  $('link').href = '#' + line();
  $('text').value = line();
}

function setDigit(i, d) {
  if (state.given[i]) {
    say('r' + (Math.floor(i / state.side) + 1) + 'c' + (i % state.side + 1) + ' is a clue: Reset or Clear to change it.');
    return;
  }
  state.cells[i] = d;
  state.kind[i] = d ? 'entered' : '';
  changed();
  draw();
}

board.addEventListener('click', (e) => {
  const cell = e.target.closest('.cell');
  if (cell) focusCell(Number(cell.dataset.index), true);
});

board.addEventListener('keydown', (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const i = state.focus;
  const s = state.side;
  const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -s, ArrowDown: s };
  if (e.key in moves) {
    focusCell(i + moves[e.key], true);
  } else if (e.key === 'Home') {
    focusCell(i - (i % s), true);
  } else if (e.key === 'End') {
    focusCell(i - (i % s) + s - 1, true);
  } else if (e.key === 'Backspace' || e.key === 'Delete' || e.key === '0' || e.key === '.' || e.key === ' ') {
    setDigit(i, 0);
  } else {
    const d = digitOf(e.key, s);
    if (d === null) return;
    setDigit(i, d);
    focusCell(i + 1, true);
  }
  e.preventDefault();
  e.stopPropagation();
});

// ---- loading a puzzle --------------------------------------------------------------

// Reads `text` (line or grid form) onto the board as the puzzle's clues.
async function load(text, solveAfter) {
  const read = await ask('read', text);
  if (read.error) {
    say('Cannot read the puzzle: ' + read.error, true);
    return false;
  }
  if (read.box > 4) {
    say('This page shows 4x4 to 16x16 grids; this one is ' + read.side + 'x' + read.side + '.', true);
    return false;
  }
  setSize(read.box);
  state.cells = Array.from(read.line, (ch) => (ch === '.' ? 0 : parseInt(ch, 36)));
  state.given = state.cells.map((d) => d !== 0);
  state.kind = state.cells.map(() => '');
  changed();
  draw();
  hideTree();
  say('Loaded a ' + read.side + 'x' + read.side + ' puzzle with ' + read.clues + ' clues.');
  if (solveAfter) await solve();
  return true;
}

function fromHash() {
  const text = decodeURIComponent(location.hash.slice(1)).trim();
  if (text) return load(text, true);
  return Promise.resolve(false);
}

// ---- output ------------------------------------------------------------------------

function say(text, bad) {
  const out = $('output');
  out.textContent = '';
  const p = el('p', bad ? 'bad' : '', text);
  out.appendChild(p);
  return out;
}

// ---- commands ------------------------------------------------------------------------

async function validate() {
  const answer = await ask('validate', line());
  if (answer.error) return say(answer.error, true);
  draw(state.cells, { conflict: answer.conflicts });
  const out = say(answer.conflicts.length ? answer.messages.length + ' broken rule(s):' : 'No digit is repeated in a row, column or box.', answer.conflicts.length > 0);
  if (answer.messages.length) {
    const list = el('ul');
    for (const m of answer.messages) list.appendChild(el('li', '', m));
    out.appendChild(list);
  }
  $('output').dataset.conflicts = answer.conflicts.join(' ');
}

async function solve() {
  const answer = await ask('solve', line());
  if (answer.error) return say(answer.error, true);
  root.dataset.solveStatus = answer.status;
  const search = ' (' + answer.nodes + ' nodes, ' + answer.failures + ' failures, ' + answer.ms.toFixed(1) + ' ms)';
  if (answer.status === 'none') {
    delete root.dataset.solution;
    say('No solution: these clues contradict each other' + search + '.', true).firstChild.classList.add('verdict');
    return;
  }
  root.dataset.solution = answer.solution;
  // When, from the navigation's start, the solved grid was set (web/measure.py).
  root.dataset.solvedAt = performance.now().toFixed(1);
  const solved = Array.from(answer.solution, (ch) => parseInt(ch, 36));
  for (let i = 0; i < solved.length; i++) {
    if (!state.cells[i]) state.kind[i] = 'solved';
  }
  state.cells = solved;
  draw();
  $('text').value = answer.solution;
  const out = say(answer.status === 'unique'
    ? 'Solved: the solution is unique' + search + '.'
    : 'Several solutions: this is one of them, and the puzzle has at least one more' + search + '.', answer.status !== 'unique');
  out.firstChild.classList.add('verdict');
}

function stepMarks(step) {
  const marks = { unit: [], pattern: step.pattern, removed: step.removed.map((r) => r.cell), target: [] };
  for (const u of step.units) marks.unit.push(...u);
  if (step.placed) marks.target.push(step.placed.cell);
  return marks;
}

async function hint() {
  const answer = await ask('hint', line());
  if (answer.error) return say('No hint: ' + answer.error, true);
  const steps = answer.steps;
  const last = steps[steps.length - 1];
  const marks = { unit: [], pattern: [], removed: [], target: [] };
  for (const s of steps) {
    const m = stepMarks(s);
    for (const k of Object.keys(marks)) marks[k].push(...m[k]);
  }
  draw(state.cells, marks);
  const out = say('');
  out.textContent = '';
  if (last.placed) {
    const where = 'r' + (Math.floor(last.placed.cell / state.side) + 1) + 'c' + (last.placed.cell % state.side + 1);
    out.appendChild(el('p', 'verdict', 'Next: ' + where + ' = ' + symbol(last.placed.digit) + ' by ' + last.technique + '.'));
    out.dataset.technique = last.technique;
    out.dataset.cell = last.placed.cell;
    out.dataset.digit = last.placed.digit;
  }
  const list = el('ol');
  for (const s of steps) list.appendChild(el('li', '', s.text));
  out.appendChild(list);
  if (last.placed) {
    const place = el('button', '', 'Place it');
    place.type = 'button';
    place.addEventListener('click', () => {
      state.cells[last.placed.cell] = last.placed.digit;
      state.kind[last.placed.cell] = 'placed';
      changed();
      draw();
      focusCell(last.placed.cell, true);
    });
    out.appendChild(place);
  }
}

// The board after step `k` of the explanation: the puzzle with every placement up
// to it, the step's cells marked.
function showStep(k) {
  const steps = state.steps;
  const cells = state.stepsPuzzle.slice();
  const kinds = cells.map(() => 'placed');
  for (let j = 0; j <= k; j++) if (steps[j].placed) cells[steps[j].placed.cell] = steps[j].placed.digit;
  draw(cells, stepMarks(steps[k]), kinds);
  for (const item of $('steps').children) item.classList.toggle('current', Number(item.dataset.step) === k);
  $('board-note').textContent = 'Step ' + (k + 1) + ' of ' + steps.length + ': ' + steps[k].text;
  board.dataset.step = k;
}

async function explain() {
  const answer = await ask('explain', line());
  if (answer.error) return say('No explanation: ' + answer.error, true);
  state.steps = answer.steps;
  state.stepsPuzzle = state.cells.slice();
  say(answer.steps.length + ' steps; grade ' + answer.difficulty + (answer.guesses ? ', ' + answer.guesses + ' guess(es)' : '') + '. Click a step to see the board then.');
  const list = $('steps');
  list.textContent = '';
  answer.steps.forEach((s, k) => {
    const item = el('li');
    item.dataset.step = k;
    const b = el('button', '', s.text);
    b.type = 'button';
    b.addEventListener('click', () => showStep(k));
    b.addEventListener('keydown', (e) => {
      const next = e.key === 'ArrowDown' ? k + 1 : e.key === 'ArrowUp' ? k - 1 : -1;
      if (next >= 0 && next < answer.steps.length) {
        e.preventDefault();
        list.children[next].firstChild.focus();
        showStep(next);
      }
    });
    item.appendChild(b);
    list.appendChild(item);
  });
}

async function rate() {
  const answer = await ask('rate', line());
  if (answer.error) return say('Cannot rate: ' + answer.error, true);
  const out = say('Grade: ' + answer.difficulty + (answer.difficulty === 'diabolical' ? ' (search: ' + answer.nodes + ' nodes, ' + answer.failures + ' failures)' : '') + '.');
  out.firstChild.classList.add('verdict');
  out.dataset.difficulty = answer.difficulty;
}

function randomSeed() {
  const words = new Uint32Array(2);
  crypto.getRandomValues(words);
  return (words[0] & 0x1fffff) * 2 ** 32 + words[1];
}

async function generate() {
  const box = Number($('size').value);
  const hints = Math.max(0, Math.floor(Number($('hints').value) || 0));
  const seed = randomSeed();
  say('Generating a ' + box * box + 'x' + box * box + ' puzzle...');
  const answer = await ask('generate', box, hints, $('symmetry').value, $('difficulty').value, seed);
  if (answer.error) return say('Cannot generate: ' + answer.error, true);
  await load(answer.puzzle, false);
  const out = say('Generated ' + answer.clues + ' clues, symmetry ' + answer.symmetry + ' (seed ' + seed + ', ' + answer.ms.toFixed(0) + ' ms).');
  out.dataset.puzzle = answer.puzzle;
  history.replaceState(null, '', '#' + answer.puzzle);
}

// ---- the search tree -------------------------------------------------------------------

// The viewer's page is opened from a blob: URL of this page's origin (made here,
// fetched from nowhere), so that this page can follow its clicks and the viewer can
// keep the node in its own address (#node=N), which a srcdoc frame refuses.
let treeUrl = null;
function hideTree() {
  $('tree-pane').hidden = true;
  if (treeUrl) {
    $('tree-frame').removeAttribute('src');
    URL.revokeObjectURL(treeUrl);
    treeUrl = null;
  }
}

async function tree() {
  const { text } = await call('tree_page', line());
  if (text.startsWith('{')) return say('No tree: ' + JSON.parse(text).error, true);
  showTree(text);
  say('The search tree is below. Click a node to see its candidates on the board.');
}

// Opens the viewer's page `text` below.
function showTree(text) {
  const frame = $('tree-frame');
  hideTree();
  $('tree-pane').hidden = false;
  delete root.dataset.tree;
  frame.onload = () => hookTree(frame);
  treeUrl = URL.createObjectURL(new Blob([text], { type: 'text/html' }));
  frame.src = treeUrl;
}

// The viewer shows a node's domains in #domains; each time it shows another node,
// the board shows that node's candidates.
function hookTree(frame) {
  const doc = frame.contentDocument;
  if (!doc) return;
  const nodeId = doc.getElementById('node-id');
  root.dataset.tree = doc.body.dataset.status || '';
  // Only a Sudoku's tree (the viewer draws a candidate grid) of the board's size.
  const show = () => {
    const cells = doc.querySelectorAll('#domains table.grid td.dom');
    if (cells.length !== state.side * state.side) return;
    const domains = [];
    const changedCells = new Set();
    cells.forEach((td, i) => {
      domains.push(td.dataset.values ? td.dataset.values.split(' ').map(Number) : []);
      if (td.classList.contains('changed')) changedCells.add(i);
    });
    drawCandidates(domains, changedCells);
    $('board-note').textContent = 'Candidates at node ' + nodeId.textContent + ' of the search tree.';
    board.dataset.node = nodeId.textContent;
  };
  new MutationObserver(show).observe(nodeId, { childList: true, characterData: true, subtree: true });
}

// ---- FlatZinc ------------------------------------------------------------------------

async function flatzinc() {
  const out = $('fzn-output');
  out.textContent = '';
  delete out.dataset.status;
  const answer = await ask('flatzinc', $('fzn-text').value, $('fzn-all').checked);
  if (answer.error) {
    out.textContent = 'Cannot read the model: ' + answer.error;
    out.dataset.status = 'error';
    return;
  }
  const lines = answer.warnings.map((w) => '% warning: ' + w);
  lines.push(answer.output.trimEnd());
  lines.push('% ' + answer.status + (answer.stopped ? ' (' + answer.stopped + ')' : '') + ': ' +
    answer.solutions + ' solution(s), ' + answer.nodes + ' nodes, ' + answer.failures + ' failures, ' +
    answer.ms.toFixed(1) + ' ms');
  out.textContent = lines.join('\n');
  out.dataset.status = answer.status;
  if (answer.tree) showTree(answer.tree);
}

// ---- wiring ------------------------------------------------------------------------

// Runs a command, reporting a failure (cancelled included) in the output.
const command = (f) => () => {
  $('board-note').textContent = '';
  delete board.dataset.step;
  delete board.dataset.node;
  return f().catch((e) => say(e.message === 'cancelled' ? 'Cancelled.' : 'Failed: ' + e.message, true));
};
const commands = { validate, solve, hint, explain, rate, tree, generate };
for (const [name, f] of Object.entries(commands)) $(name).addEventListener('click', command(f));
$('cancel').addEventListener('click', cancel);
$('fzn-solve').addEventListener('click', command(flatzinc));
$('load').addEventListener('click', command(() => load($('text').value, false)));
$('text').addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
    e.preventDefault();
    command(() => load($('text').value, false))();
  }
});
$('text').addEventListener('paste', () => setTimeout(() => command(() => load($('text').value, false))(), 0));
$('size').addEventListener('change', () => {
  setSize(Number($('size').value));
  changed();
  draw();
  hideTree();
});
$('clear').addEventListener('click', () => {
  setSize(state.box);
  changed();
  draw();
  hideTree();
});
$('reset').addEventListener('click', () => {
  state.cells = state.cells.map((d, i) => (state.given[i] ? d : 0));
  state.kind = state.kind.map(() => '');
  changed();
  draw();
});
// Shortcuts, outside the text fields.
const keys = { v: 'validate', s: 'solve', h: 'hint', e: 'explain', r: 'rate', t: 'tree', g: 'generate' };
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape') return cancel();
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const tag = (e.target.tagName || '').toLowerCase();
  if (tag === 'input' || tag === 'textarea' || tag === 'select' || board.contains(e.target)) return;
  const name = keys[e.key.toLowerCase()];
  if (name) {
    e.preventDefault();
    $(name).click();
  }
});
window.addEventListener('hashchange', () => command(fromHash)());

window.alldiffPage = {
  load: (text) => load(text, false),
  run: (op, ...args) => call(op, ...args),
  clickStep: (k) => $('steps').children[k].firstChild.click(),
  line,
};

startWorker();
setSize(3);
changed();
draw();
command(async () => {
  await call('read', '');
  idle();
  $('status').textContent = 'ready';
  if (!(await fromHash())) say('Type digits on the board, paste a puzzle, or Generate one.');
  root.dataset.loaded = String(Math.round(performance.now()));
})();
