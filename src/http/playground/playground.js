// The playground page (src/http/playground/index.html): a 9x9 grid in front of this server's
// JSON API. Plain JavaScript without dependencies; the page's Content-Security-Policy lets it
// load only this file and playground.css, and talk only to the server it came from.
'use strict';

const EXAMPLE = '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79';
const EMPTY = '.'.repeat(81);

const boardElement = document.getElementById('board');
const messageElement = document.getElementById('message');

/** The 81 cell inputs in row-major order, so the DOM order (and Tab) walks the rows. */
const cells = [];
for (let index = 0; index < 81; index++) {
  const cell = document.createElement('input');
  cell.className = 'cell';
  cell.type = 'text';
  cell.inputMode = 'numeric';
  cell.autocomplete = 'off';
  cell.spellcheck = false;
  cell.setAttribute('aria-label', `Row ${Math.floor(index / 9) + 1}, column ${(index % 9) + 1}`);
  cells.push(cell);
}
boardElement.append(...cells);

/** `text` as 81 cells of `1`-`9` and `.`, or null. Whitespace is ignored, `0` is a blank. */
function parseBoard(text) {
  const board = text.replace(/\s+/g, '').replace(/0/g, '.');
  return /^[1-9.]{81}$/.test(board) ? board : null;
}

/** How many cells of an 81-character board are blank. */
function blanks(board) {
  return board.split('.').length - 1;
}

/** The board as shown, `.` for a blank. */
function shownBoard() {
  return cells.map((cell) => cell.value || '.').join('');
}

/** The puzzle: the board without the digits the solver filled in. */
function puzzle() {
  return cells.map((cell) => (cell.value && !cell.classList.contains('solved') ? cell.value : '.')).join('');
}

/** Writes one cell; `kind` says who filled it: the solver (red), a hint, or the person. */
function setCell(index, digit, kind = 'entered') {
  const cell = cells[index];
  cell.value = digit;
  cell.classList.toggle('solved', kind === 'solved' && digit !== '');
  cell.classList.toggle('hinted', kind === 'hinted' && digit !== '');
}

/** Removes the marks of the last validation or hint. */
function clearMarks() {
  for (const cell of cells) {
    cell.classList.remove('conflict', 'step');
    cell.removeAttribute('aria-invalid');
  }
}

/** The cell of a 0-based row and column from an API answer. */
function cellAt({ row, col }) {
  return cells[row * 9 + col];
}

function markConflicts(conflicts) {
  for (const conflict of conflicts) {
    cellAt(conflict).classList.add('conflict');
    cellAt(conflict).setAttribute('aria-invalid', 'true');
  }
}

/** Shows `text` in the message area; `tone` is 'ok', 'error' or ''. */
function say(text, tone = '') {
  messageElement.textContent = text;
  messageElement.className = `message ${tone}`;
}

/**
 * Keeps the puzzle in the URL fragment so that the address is a link to it. Solver fills stay
 * out, so a shared link gives the puzzle, not its answer. replaceState: no history entry per digit.
 */
function saveToFragment() {
  const current = puzzle();
  history.replaceState(null, '', current === EMPTY ? location.pathname : `#${current}`);
}

/** A person changed a cell: earlier marks no longer describe the board. */
function edit(index, digit) {
  clearMarks();
  setCell(index, digit);
  saveToFragment();
}

function loadBoard(board) {
  clearMarks();
  [...board].forEach((digit, index) => setCell(index, digit === '.' ? '' : digit));
  saveToFragment();
}

function loadFromFragment() {
  const fragment = location.hash.slice(1);
  if (fragment === '') return;
  const board = parseBoard(fragment);
  if (board) loadBoard(board);
  else say('The address holds no board: expected 81 characters, 1-9 and . or 0 for a blank.', 'error');
}

function focusCell(row, col) {
  cells[Math.min(Math.max(row, 0), 8) * 9 + Math.min(Math.max(col, 0), 8)].focus();
}

/**
 * POSTs `body` to `path`. Returns the JSON answer, or null after showing what went wrong: for a
 * problem response its title and `detail`, and the conflicts it lists.
 */
async function call(path, body) {
  let response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (error) {
    say(`Could not reach the server: ${error.message}`, 'error');
    return null;
  }
  const answer = await response.json().catch(() => null);
  if (response.ok && answer) return answer;
  clearMarks();
  if (answer?.conflicts) markConflicts(answer.conflicts);
  say(answer?.detail ? `${answer.title}: ${answer.detail}` : `The server answered ${response.status}.`, 'error');
  return null;
}

function cellName({ row, col }) {
  return `r${row + 1}c${col + 1}`;
}

async function solve() {
  const given = puzzle();
  const answer = await call('/v1/solve', { board: given });
  if (!answer) return;
  clearMarks();
  let filled = 0;
  [...answer.solution].forEach((digit, index) => {
    if (given[index] === '.') {
      setCell(index, digit, 'solved');
      filled++;
    }
  });
  if (filled === 0) say('The board is already complete and correct.', 'ok');
  else if (answer.unique) say(`Solved: ${filled} cells filled in, in red. The solution is unique.`, 'ok');
  else say(`Solved: ${filled} cells filled in, in red. The puzzle has other solutions too.`, 'ok');
}

async function validate() {
  const answer = await call('/v1/validate', { board: shownBoard() });
  if (!answer) return;
  clearMarks();
  markConflicts(answer.conflicts);
  if (!answer.valid) {
    const list = answer.conflicts.map((conflict) => `${cellName(conflict)} (${conflict.digit})`).join(', ');
    say(`${answer.conflicts.length} conflicting cells: ${list}.`, 'error');
  } else if (answer.complete) {
    say('Valid and complete.', 'ok');
  } else {
    say(`Valid so far: no digit repeats in a row, column or box; ${blanks(shownBoard())} cells are blank.`, 'ok');
  }
}

/**
 * Places the next digit. The hint's last step is the placement; the steps before it only remove
 * candidates, pencil marks the grid does not keep, so they are told before the placement they
 * lead to rather than shown.
 */
async function hint() {
  const answer = await call('/v1/hint', { board: shownBoard() });
  if (!answer) return;
  clearMarks();
  if (answer.solved) {
    say(answer.message, 'ok');
    return;
  }
  const placement = answer.steps[answer.steps.length - 1];
  for (const cell of placement.cells) cellAt(cell).classList.add('step');
  for (const { row, col, digit } of placement.placements) setCell(row * 9 + col, String(digit), 'hinted');
  saveToFragment();
  say(answer.steps.map((step) => step.explanation).join(' '), 'ok');
}

async function generate() {
  const difficulty = document.getElementById('difficulty').value;
  const answer = await call('/v1/generate', { difficulty });
  if (!answer) return;
  loadBoard(answer.puzzle);
  const { level, rating } = answer.rating;
  say(`A new ${level} puzzle (rating ${rating.toFixed(1)}, seed ${answer.seed}).`, 'ok');
}

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

// Keyboard: digits type and move on (so a puzzle can be typed straight through), 0 and . clear
// and move on, Backspace and Delete clear, arrows move; Tab keeps its usual meaning.
boardElement.addEventListener('keydown', (event) => {
  const index = cells.indexOf(event.target);
  if (index < 0 || event.ctrlKey || event.metaKey || event.altKey) return;
  const [row, col] = [Math.floor(index / 9), index % 9];
  const next = () => (index < 80 ? cells[index + 1].focus() : undefined);
  const { key } = event;
  if (/^[1-9]$/.test(key)) {
    edit(index, key);
    next();
  } else if (key === '0' || key === '.') {
    edit(index, '');
    next();
  } else if (key === 'Backspace' || key === 'Delete') {
    edit(index, '');
  } else if (key in ARROWS) {
    focusCell(row + ARROWS[key][0], col + ARROWS[key][1]);
  } else if (key.length !== 1) {
    return; // Tab, Home, Escape...: the browser's default
  }
  event.preventDefault(); // including any other printable key: a cell holds one digit
});

// What keydown did not handle, such as a phone's on-screen keyboard (whose key events often
// carry no key): keep the digit just typed, or nothing.
boardElement.addEventListener('input', (event) => {
  const index = cells.indexOf(event.target);
  if (index < 0) return;
  const typed = /^[1-9]$/.test(event.data ?? '') ? event.data : event.target.value.replace(/[^1-9]/g, '').slice(-1);
  edit(index, typed);
});

// A pasted board fills the grid, wherever the focus is.
document.addEventListener('paste', (event) => {
  const text = event.clipboardData?.getData('text') ?? '';
  const board = parseBoard(text);
  const index = cells.indexOf(event.target);
  if (board) {
    event.preventDefault();
    loadBoard(board);
    say(`Pasted a puzzle with ${81 - blanks(board)} givens.`, 'ok');
  } else if (index >= 0) {
    event.preventDefault();
    if (/^\s*[1-9]\s*$/.test(text)) edit(index, text.trim());
    else say('To paste a board, copy 81 characters: 1-9, and . or 0 for a blank.', 'error');
  }
});

document.getElementById('solve').addEventListener('click', solve);
document.getElementById('validate').addEventListener('click', validate);
document.getElementById('hint').addEventListener('click', hint);
document.getElementById('generate').addEventListener('click', generate);
document.getElementById('example').addEventListener('click', () => {
  loadBoard(EXAMPLE);
  say('Loaded the example puzzle.', 'ok');
});
document.getElementById('clear').addEventListener('click', () => {
  loadBoard(EMPTY);
  say('');
});
window.addEventListener('hashchange', loadFromFragment);

loadFromFragment();
