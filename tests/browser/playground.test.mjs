// End-to-end tests of the playground page (GET /) in a real browser: Debian's Chromium, headless,
// driven by playwright-core against a running sudokud. scripts/browser-test.sh builds and starts
// the server and runs this file with node's test runner:
//
//   SUDOKUD_URL=http://127.0.0.1:8080 SCREENSHOT=../../docs/playground.png node --test
//
// CHROMIUM overrides the browser's path (default /usr/bin/chromium).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { chromium } from 'playwright-core';

const BASE = process.env.SUDOKUD_URL ?? 'http://127.0.0.1:8080';
const SCREENSHOT = process.env.SCREENSHOT ?? 'playground.png';
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

// The README's puzzle and its one solution.
const PUZZLE = '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79';
const SOLUTION = '534678912672195348198342567859761423426853791713924856961537284287419635345286179';
// The first puzzle of tests/data/17_clue_10k.txt, pasted as nine lines of nine with 0 for blank.
const SEVENTEEN = '................12..3.45........35.6...7..3...1..........28..4...6......5...1....';
// PUZZLE with an 8 in r1c1: it repeats in column 1 (r4c1) and in box 1 (r3c3).
const CONFLICTING = `8${PUZZLE.slice(1)}`;
const CONFLICTS = ['Row 1, column 1', 'Row 3, column 3', 'Row 4, column 1'];
// No two givens conflict, but r2c9 can hold nothing: row 1 leaves it 9 only, and 9 is in its column.
const UNSOLVABLE = `12345678.........9${'.'.repeat(63)}`;
// Issue 11: its next step is an elimination (pointing), which the grid cannot show; Hint used to
// repeat it forever. Now the hint tells it and places the digit it leads to.
const ELIMINATION_FIRST = '..8......634.95....97.86.5...35......41863..28...7.3..4.6957.38.8.134...3..628..4';
// Other sizes, each with its one solution: 4x4, and 6x6 with boxes 3 rows high and 2 wide.
const FOUR = '.14.........2..3';
const FOUR_SOLUTION = '3142423113242413';
const SIX_TALL = '..6....2..543....2452..3...3....4...';
const SIX_TALL_SOLUTION = '546231623154315462452613261345134526';
const SYMBOLS = '123456789ABCDEFGHIJKLMNOP';

const RED = 'rgb(192, 28, 40)'; // --solved in playground.css
const INK = 'rgb(27, 27, 27)'; // --ink: the givens' near-black

let browser;
let page;
/**
 * What must not happen on any page: script errors, console errors, requests to other origins,
 * and failed GETs (a missing file). A POST may fail: problem responses are part of the tests.
 */
const incidents = [];

function watch(target) {
  target.on('pageerror', (error) => incidents.push(`page error: ${error.message}`));
  target.on('console', (message) => {
    // Chromium logs every 4xx as "Failed to load resource"; the response listener judges those.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      incidents.push(`console: ${message.text()}`);
    }
  });
  target.on('request', (request) => {
    if (!request.url().startsWith(`${BASE}/`)) incidents.push(`request to another origin: ${request.url()}`);
  });
  target.on('response', (response) => {
    if (response.request().method() === 'GET' && response.status() >= 400) {
      incidents.push(`GET ${response.url()}: ${response.status()}`);
    }
  });
}

async function open(viewport = { width: 720, height: 960 }) {
  const context = await browser.newContext({ viewport });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE });
  const opened = await context.newPage();
  watch(opened);
  return opened;
}

before(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
  page = await open();
});

after(async () => {
  await browser?.close();
});

const cell = (row, col) => page.getByLabel(`Row ${row}, column ${col}`, { exact: true });
const board = () => page.$$eval('.cell', (cells) => cells.map((input) => input.value || '.').join(''));
const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent);
const colours = () => page.$$eval('.cell', (cells) => cells.map((input) => getComputedStyle(input).color));
const fragment = () => new URL(page.url()).hash.slice(1);

/**
 * Clicks (or with `key`, presses that key on) the button named `name` and returns the message
 * the page shows once the server has answered. The message area is emptied first, so a stale
 * message from an earlier action cannot pass for the answer.
 */
async function act(name, key) {
  await page.evaluate(() => { document.getElementById('message').textContent = ''; });
  const button = page.getByRole('button', { name, exact: true });
  if (key) {
    assert.ok(await button.evaluate((element) => element === document.activeElement), `${name} has the focus`);
    await page.keyboard.press(key);
  } else {
    await button.click();
  }
  await page.waitForFunction(() => document.getElementById('message').textContent !== '');
  return page.locator('#message').textContent();
}

/** `solution` is a complete Sudoku grid with boxes `box` (RxC) that keeps every given of `puzzle`. */
function assertSolves(solution, puzzle, box = '3x3') {
  const [rows, cols] = box.split('x').map(Number);
  const size = rows * cols;
  const across = size / cols; // boxes in a band
  assert.equal(solution.length, size * size);
  assert.ok([...solution].every((symbol) => SYMBOLS.slice(0, size).includes(symbol)), solution);
  [...puzzle].forEach((given, index) => given === '.' || assert.equal(solution[index], given, `given at ${index}`));
  const units = [];
  for (let i = 0; i < size; i++) {
    units.push([...Array(size)].map((_, j) => i * size + j)); // row i
    units.push([...Array(size)].map((_, j) => j * size + i)); // column i
    units.push([...Array(size)].map((_, j) => // box i
      (Math.floor(i / across) * rows + Math.floor(j / cols)) * size + (i % across) * cols + (j % cols)));
  }
  for (const unit of units) assert.equal(new Set(unit.map((index) => solution[index])).size, size, `unit ${unit}`);
}

/** Blank cells of `puzzle` are red in the page, givens are ink. */
async function assertSolvedColours(puzzle) {
  const shown = await colours();
  [...puzzle].forEach((given, index) => {
    assert.equal(shown[index], given === '.' ? RED : INK, `colour of cell ${index} (${given === '.' ? 'filled' : 'given'})`);
  });
}

test('the page has 81 labelled cells and a strict Content-Security-Policy', async () => {
  const response = await page.goto(`${BASE}/`);
  assert.equal(response.status(), 200);
  assert.match(response.headers()['content-security-policy'], /default-src 'none'.*script-src 'self'/);
  const labels = await page.$$eval('.cell', (cells) => cells.map((input) => input.getAttribute('aria-label')));
  const expected = [...Array(81)].map((_, i) => `Row ${Math.floor(i / 9) + 1}, column ${(i % 9) + 1}`);
  assert.deepEqual(labels, expected);
  assert.equal(await board(), '.'.repeat(81));
});

test('keyboard only: Tab, typing a puzzle straight through, arrows, clearing, and Solve', async () => {
  await page.goto(`${BASE}/`);
  // Tab order: the size, the variant, the server buttons and the pencil-mark toggle, the
  // difficulty, Generate, Daily, Example, Clear, Print, then the grid.
  const order = ['Size', 'Variant', 'Solve', 'Validate', 'Hint', 'Pencil marks', 'Difficulty', 'Generate', 'Daily', 'Example', 'Clear', 'Print'];
  for (const name of order) {
    await page.keyboard.press('Tab');
    const active = await page.evaluate(() => document.activeElement.labels?.[0]?.textContent ?? document.activeElement.textContent);
    assert.equal(active.trim(), name);
  }
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'Row 1, column 1');
  const outline = await page.evaluate(() => {
    const style = getComputedStyle(document.activeElement);
    return `${style.outlineStyle} ${style.outlineWidth}`;
  });
  assert.equal(outline, 'solid 3px', 'the focused cell shows a focus ring');

  // Digits type and move on, '.' and '0' clear and move on: the puzzle types straight through
  // (blanks typed as '.' and '0' in turn).
  await page.keyboard.type(PUZZLE.replace(/\./g, (_, at) => (at % 2 ? '.' : '0')));
  assert.equal(await board(), PUZZLE);
  assert.equal(fragment(), PUZZLE, 'the address holds the board');

  // Arrows move; a letter is ignored; Backspace and Delete clear.
  await cell(1, 1).focus();
  for (const [key, label] of [['ArrowRight', 'Row 1, column 2'], ['ArrowDown', 'Row 2, column 2'], ['ArrowLeft', 'Row 2, column 1'], ['ArrowUp', 'Row 1, column 1'], ['ArrowUp', 'Row 1, column 1']]) {
    await page.keyboard.press(key);
    assert.equal(await focused(), label, `after ${key}`);
  }
  await page.keyboard.press('x');
  await page.keyboard.press('Backspace');
  await cell(1, 2).focus();
  await page.keyboard.press('Delete');
  assert.equal((await board()).slice(0, 2), '..');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.type('53');
  assert.equal(await board(), PUZZLE);
  assert.equal(await focused(), 'Row 1, column 3');

  // Back through the grid's first cell and the ten controls to Solve, and Enter.
  for (let presses = 0; presses < 2 + 10; presses++) await page.keyboard.press('Shift+Tab');
  const message = await act('Solve', 'Enter');
  assert.match(message, /^Solved: 51 cells filled in, in red\. The solution is unique\.$/);
  assert.equal(await board(), SOLUTION);
  await assertSolvedColours(PUZZLE);
  assert.equal(fragment(), PUZZLE, 'the solver fills stay out of the address');
  await page.screenshot({ path: SCREENSHOT, fullPage: true });
});

test('a puzzle pasted anywhere fills the grid, and solving fills every blank in red', async () => {
  await page.goto(`${BASE}/`);
  const lines = SEVENTEEN.replace(/\./g, '0').match(/.{9}/g).join('\n');
  await page.evaluate((text) => navigator.clipboard.writeText(text), lines);
  await page.locator('h1').click(); // the focus on no cell: pasting works anywhere
  await page.keyboard.press('Control+V');
  assert.equal(await board(), SEVENTEEN);
  assert.equal(fragment(), SEVENTEEN);
  assert.match(await page.locator('#message').textContent(), /^Pasted a 9x9 puzzle with 17 givens\.$/);

  const message = await act('Solve');
  assert.match(message, /^Solved: 64 cells filled in, in red\./);
  const solution = await board();
  assertSolves(solution, SEVENTEEN);
  await assertSolvedColours(SEVENTEEN);
});

test('validation highlights exactly the conflicting cells', async () => {
  await page.goto(`${BASE}/#${CONFLICTING}`); // a shared link
  assert.equal(await board(), CONFLICTING);
  const message = await act('Validate');
  assert.equal(message, '3 conflicting cells: r1c1 (8), r3c3 (8), r4c1 (8).');
  const marked = await page.$$eval('.cell', (cells) => cells
    .filter((input) => input.classList.contains('conflict') && input.getAttribute('aria-invalid') === 'true')
    .map((input) => input.getAttribute('aria-label')));
  assert.deepEqual(marked, CONFLICTS);
  assert.notEqual(await cell(1, 1).evaluate((input) => getComputedStyle(input).backgroundColor), 'rgb(255, 255, 255)');
  // Editing the board removes the marks: they describe the board as it was.
  await cell(9, 1).focus();
  await page.keyboard.press('1');
  assert.equal(await page.locator('.cell.conflict').count(), 0);
});

test('an unsolvable board shows the problem detail in the message area', async () => {
  await page.goto(`${BASE}/#${UNSOLVABLE}`);
  const message = await act('Solve');
  assert.equal(message, 'Unsolvable puzzle: the givens do not conflict, but the puzzle has no solution');
  assert.ok(await page.locator('#message.error').isVisible());
  assert.equal(await page.locator('.cell.solved').count(), 0);

  // Solving conflicting givens: the problem's conflicts are marked too.
  await page.goto(`${BASE}/#${CONFLICTING}`);
  assert.match(await act('Solve'), /^Conflicting givens: the givens repeat a digit/);
  assert.equal(await page.locator('.cell.conflict').count(), 3);
});

test('Example, Hint, Generate and Clear', async () => {
  await page.goto(`${BASE}/`);
  await page.getByRole('button', { name: 'Example' }).click();
  assert.equal(await board(), PUZZLE);
  assert.equal(await act('Hint'), 'In box 2, 8 fits only in r1c6, so r1c6 = 8.');
  assert.equal(await cell(1, 6).inputValue(), '8');
  const marks = await cell(1, 6).evaluate((input) => [...input.classList].filter((name) => !/^(box|last)-/.test(name)));
  assert.deepEqual(marks.sort(), ['cell', 'hinted', 'step'], 'marks besides the box lines');
  assert.equal(fragment()[5], '8', 'a hint is progress: it goes into the address');

  await page.goto(`${BASE}/#${ELIMINATION_FIRST}`);
  assert.equal(
    await act('Hint'),
    "In box 2, 1 fits only in row 1, so r1c1, r1c2, r1c7, r1c8 and r1c9 can't be 1. In box 1, 1 fits only in r3c1, so r3c1 = 1.",
  );
  assert.equal(await cell(3, 1).inputValue(), '1', 'the placement the elimination leads to is written in');
  // Hint after hint fills the grid: every hint places a digit, none repeats an elimination.
  let blanksLeft = (await board()).split('.').length - 1;
  while (blanksLeft > 0) {
    await act('Hint');
    const left = (await board()).split('.').length - 1;
    assert.ok(left < blanksLeft, `a hint places a digit (${left} blanks left)`);
    blanksLeft = left;
  }
  assertSolves(await board(), ELIMINATION_FIRST);
  assert.match(await act('Hint'), /complete and correct/);

  await page.getByLabel('Difficulty').selectOption('easy');
  assert.match(await act('Generate'), /^A new easy puzzle \(rating \d\.\d, seed \d+\)\.$/);
  const generated = await board();
  assert.match(generated, /^[1-9.]{81}$/);
  assert.ok(generated.replace(/\./g, '').length >= 17, 'a proper puzzle has at least 17 givens');
  assert.equal(fragment(), generated);

  await page.getByRole('button', { name: 'Clear' }).click();
  assert.equal(await board(), '.'.repeat(81));
  assert.equal(fragment(), '');
});

test('Daily, Print, and pencil marks that Hint starts from', async () => {
  await page.goto(`${BASE}/`);
  await page.getByLabel('Difficulty').selectOption('easy');
  assert.match(await act('Daily'), /^The easy puzzle of \d{4}-\d{2}-\d{2} \(rating \d\.\d\), the same for everybody today\.$/);
  const daily = await (await fetch(`${BASE}/v1/daily?difficulty=easy`)).json();
  assert.equal(await board(), daily.puzzle, 'the API\'s puzzle of the day');
  assert.equal(fragment(), daily.puzzle);

  // Print downloads the board as a PDF, with the solution once solved.
  await act('Solve');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Print' }).click()]);
  assert.equal(download.suggestedFilename(), 'sudoku.pdf');
  const pdf = await readFile(await download.path());
  assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
  assert.equal(await page.locator('#message').textContent(), 'The board as a PDF: sudoku.pdf.');

  // Pencil marks: the API's candidates, drawn in the blank cells.
  await page.goto(`${BASE}/#${FOUR}`);
  const pencil = page.getByRole('button', { name: 'Pencil marks' });
  assert.match(await act('Pencil marks'), /^Pencil marks on/);
  assert.equal(await pencil.getAttribute('aria-pressed'), 'true');
  const candidates = await (await fetch(`${BASE}/v1/candidates`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ board: FOUR }),
  })).json();
  const count = () => page.$$eval('.overlay .mark', (marks) => marks.length);
  const total = candidates.candidates.flat().reduce((sum, values) => sum + values.length, 0);
  assert.equal(await count(), total);
  // Typing the solution's value in r1c1 crosses it out rather than entering it; Hint points it out.
  await cell(1, 1).focus();
  await page.keyboard.press(FOUR_SOLUTION[0]);
  assert.equal(await cell(1, 1).inputValue(), '', 'a mark, not an entry');
  assert.equal(await count(), total - 1);
  assert.equal(await act('Hint'), `r1c1: ${FOUR_SOLUTION[0]} was crossed out, but the solution has it there.`);
  assert.ok(await cell(1, 1).evaluate((input) => input.classList.contains('conflict')));
  // Put back, the hint places a digit from the marks.
  await cell(1, 1).focus();
  await page.keyboard.press(FOUR_SOLUTION[0]);
  assert.equal(await count(), total);
  await act('Hint');
  assert.equal((await board()).split('.').length, FOUR.split('.').length - 1, 'one digit placed');
  assert.ok(await count() < total, 'the placed cell shows no marks');
  assert.equal(await act('Pencil marks'), 'Pencil marks off.');
  assert.equal(await count(), 0);
  assert.equal(await pencil.getAttribute('aria-pressed'), 'false');
});

test('usable at phone width: 360 px, no sideways scrolling, cells big enough to tap, typing without key events', async () => {
  const phone = await open({ width: 360, height: 740 });
  await phone.goto(`${BASE}/#${PUZZLE}`);
  assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= 360), 'no horizontal scroll');
  const grid = await phone.locator('#board').boundingBox();
  assert.ok(grid.x >= 0 && grid.x + grid.width <= 360, `the board fits: ${JSON.stringify(grid)}`);
  const first = await phone.getByLabel('Row 1, column 1', { exact: true }).boundingBox();
  assert.ok(first.width >= 32 && first.height >= 32, `a cell is ${first.width}x${first.height}`);
  for (const name of ['Solve', 'Validate', 'Hint', 'Generate', 'Example', 'Clear']) {
    const box = await phone.getByRole('button', { name, exact: true }).boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 360, `${name} is on screen`);
  }
  // An on-screen keyboard sends text without key events: the cell keeps the digit typed.
  const blank = phone.getByLabel('Row 1, column 3', { exact: true });
  await blank.focus();
  await phone.keyboard.insertText('4');
  await phone.keyboard.insertText('x');
  assert.equal(await blank.inputValue(), '4');
  assert.equal(new URL(phone.url()).hash, `#534${PUZZLE.slice(3)}`);
  await phone.context().close();
});

/** Picks a grid size in the page `on` by what its option says, as a person reads it. */
const pickSize = (label, on = page) => on.getByLabel('Size').selectOption({ label });
/** A side's border width of every cell, such as 'borderRightWidth'. */
const borders = (side) => page.$$eval('.cell', (cells, name) => cells.map((input) => getComputedStyle(input)[name]), side);
/** The JSON body of the page's next request to `path`. */
const nextBody = (path) => page.waitForRequest((request) => request.url() === `${BASE}${path}`).then((request) => request.postDataJSON());

test('a 4x4 grid: picked, typed, hinted and solved', async () => {
  await page.goto(`${BASE}/`);
  await pickSize('4x4');
  assert.equal(await board(), '.'.repeat(16));
  assert.equal(await page.locator('#message').textContent(), 'An empty 4x4 grid, its boxes 2 rows by 2 columns.');
  assert.ok(await page.getByRole('button', { name: 'Hint', exact: true }).isEnabled(), 'Hint is enabled');
  assert.ok(await page.getByRole('button', { name: 'Generate', exact: true }).isEnabled(), 'Generate is enabled');
  assert.ok(await page.getByLabel('Difficulty').isEnabled(), 'Difficulty is enabled');

  // 5 is no symbol of a 4x4 grid: ignored.
  await cell(1, 1).focus();
  await page.keyboard.press('5');
  assert.equal(await board(), '.'.repeat(16));
  await page.keyboard.type(FOUR.replace(/\./g, '0'));
  assert.equal(await board(), FOUR);
  assert.equal(fragment(), FOUR, 'the address holds the board');
  assert.equal(await focused(), 'Row 4, column 4', 'typing stops at the last cell');

  // A hint places one value of the solution, with the sentence that finds it.
  const hinted = await act('Hint');
  assert.match(hinted, /so r\dc\d = \d\.$/);
  const afterHint = await board();
  const filled = [...afterHint].filter((symbol, index) => symbol !== FOUR[index]);
  assert.equal(filled.length, 1, 'one cell is placed');
  assert.ok([...afterHint].every((symbol, index) => symbol === '.' || symbol === FOUR_SOLUTION[index]));
  await page.goto(`${BASE}/#${FOUR}`);

  const sent = nextBody('/v1/solve');
  assert.equal(await act('Solve'), 'Solved: 12 cells filled in, in red. The solution is unique.');
  assert.deepEqual(await sent, { board: FOUR }, 'the default box goes without saying');
  assert.equal(await board(), FOUR_SOLUTION);
  await assertSolvedColours(FOUR);

  await pickSize('9x9');
  assert.equal(await board(), '.'.repeat(81));
  assert.equal(fragment(), '');
});

test('Generate at other sizes: an easy 4x4, a level 4x4 does not offer, 6x6 with its box, 16x16 with letters', async () => {
  await page.goto(`${BASE}/`);
  await pickSize('4x4');
  await page.getByLabel('Difficulty').selectOption('easy');
  let sent = nextBody('/v1/generate');
  assert.match(await act('Generate'), /^A new easy puzzle \(rating \d\.\d, seed \d+\)\.$/);
  assert.deepEqual(await sent, { difficulty: 'easy', size: 4 }, 'the default box goes without saying');
  const four = await board();
  assert.match(four, /^[1-4.]{16}$/);
  assert.ok(/[1-4]/.test(four) && four.includes('.'), `a puzzle: givens and blanks (${four})`);
  assert.equal(await page.getByLabel('Size').inputValue(), '2x2');
  assert.equal(fragment(), four);
  assert.equal(await act('Solve'), `Solved: ${four.split('.').length - 1} cells filled in, in red. The solution is unique.`);

  // The levels a size offers are the server's to say: its problem's detail tells them.
  await page.getByRole('button', { name: 'Clear' }).click();
  await page.getByLabel('Difficulty').selectOption('medium');
  assert.equal(
    await act('Generate'),
    'Invalid request: `difficulty`: medium puzzles are not offered at 4x4; its levels are easy',
  );
  assert.ok(await page.locator('#message.error').isVisible());
  assert.equal(await board(), '.'.repeat(16), 'the grid stays as it was');

  await pickSize('6x6, 3x2 boxes');
  await page.getByLabel('Difficulty').selectOption('easy');
  sent = nextBody('/v1/generate');
  assert.match(await act('Generate'), /^A new easy puzzle /);
  assert.deepEqual(await sent, { difficulty: 'easy', size: 6, box: '3x2' });
  assert.equal(await page.getByLabel('Size').inputValue(), '3x2', 'the grid keeps its box');
  const six = await board();
  assert.match(six, /^[1-6.]{36}$/);
  assert.equal(fragment(), `3x2:${six}`);
  assert.match(await act('Solve'), /The solution is unique\.$/);
  assertSolves(await board(), six, '3x2');

  await pickSize('16x16');
  assert.match(await act('Generate'), /^A new easy puzzle /);
  const sixteen = await board();
  assert.match(sixteen, /^[1-9A-G.]{256}$/);
  assert.match(sixteen, /[A-G]/, 'letters for 10 to 16');
  assert.ok(sixteen.includes('.'), 'blanks to fill');
});

test('6x6 with tall boxes: drawn, pasted, solved with its box, shared by its address', async () => {
  // At 9x9, a pasted 4x4 board switches the grid to 4x4.
  await page.goto(`${BASE}/`);
  await page.evaluate((text) => navigator.clipboard.writeText(text), FOUR);
  await page.locator('h1').click();
  await page.keyboard.press('Control+V');
  assert.equal(await page.getByLabel('Size').inputValue(), '2x2');
  assert.equal(await board(), FOUR);
  assert.equal(await page.locator('#message').textContent(), 'Pasted a 4x4 puzzle with 4 givens.');

  // Boxes 3 rows high and 2 wide: thick lines after columns 2 and 4 and after row 3.
  await pickSize('6x6, 3x2 boxes');
  assert.deepEqual((await borders('borderRightWidth')).slice(0, 6), ['1px', '2px', '1px', '2px', '1px', '0px']);
  assert.deepEqual((await borders('borderBottomWidth')).filter((_, index) => index % 6 === 0), ['1px', '1px', '2px', '1px', '1px', '0px']);

  // A board of the grid's size keeps the grid's box.
  await page.evaluate((text) => navigator.clipboard.writeText(text), SIX_TALL.match(/.{6}/g).join('\n'));
  await cell(2, 2).focus();
  await page.keyboard.press('Control+V');
  assert.equal(await page.getByLabel('Size').inputValue(), '3x2');
  assert.equal(await board(), SIX_TALL);
  assert.equal(fragment(), `3x2:${SIX_TALL}`, 'the address names the box that is not the default');

  const sent = nextBody('/v1/solve');
  assert.equal(await act('Solve'), 'Solved: 24 cells filled in, in red. The solution is unique.');
  assert.deepEqual(await sent, { board: SIX_TALL, box: '3x2' });
  assert.equal(await board(), SIX_TALL_SOLUTION);
  await assertSolvedColours(SIX_TALL);

  await page.goto(`${BASE}/`);
  await page.goto(`${BASE}/#3x2:${SIX_TALL}`); // a shared link
  assert.equal(await page.getByLabel('Size').inputValue(), '3x2');
  assert.equal(await board(), SIX_TALL);
});

test('16x16 on a 1280x800 laptop: the whole grid on screen, letters typed, validated and solved', async (t) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  t.after(() => page.setViewportSize({ width: 720, height: 960 }));
  await page.goto(`${BASE}/`);
  await pickSize('16x16');
  const boxes = await page.$$eval('.cell', (cells) => cells.map((input) => input.getBoundingClientRect().toJSON()));
  assert.equal(boxes.length, 256);
  for (const { left, top, right, bottom, width, height } of boxes) {
    assert.ok(left >= 0 && top >= 0 && right <= 1280 && bottom <= 800, `a cell on screen: ${left},${top} to ${right},${bottom}`);
    assert.ok(width >= 20 && height >= 20, `a cell is ${width}x${height}`);
  }

  // Letters up to G (16) in either case, shown upper case; H is past the size.
  await cell(1, 1).focus();
  await page.keyboard.type('gh');
  await cell(2, 2).focus();
  await page.keyboard.type('G');
  assert.equal((await board()).slice(0, 18), 'G................G');
  assert.equal(await act('Validate'), '2 conflicting cells: r1c1 (G), r2c2 (G).');
  assert.equal(await page.locator('.cell.conflict').count(), 2);

  await page.getByRole('button', { name: 'Clear' }).click();
  assert.equal(fragment(), '.'.repeat(256), 'the address keeps an empty grid of another size');
  assert.equal(await act('Solve'), 'Solved: 256 cells filled in, in red. The puzzle has other solutions too.');
  assertSolves(await board(), '.'.repeat(256), '4x4');
});

test('25x25 renders and solves', async () => {
  await page.goto(`${BASE}/`);
  await pickSize('25x25');
  assert.equal(await page.locator('.cell').count(), 625);
  assert.equal(await cell(25, 25).getAttribute('aria-label'), 'Row 25, column 25');
  assert.match(await act('Solve'), /^Solved: 625 cells filled in, in red\./);
  assertSolves(await board(), '.'.repeat(625), '5x5');
});

test('other sizes on a 375 px phone: 6x6 fits the width, 25x25 scrolls inside its frame', async () => {
  const phone = await open({ width: 375, height: 667 });
  await phone.goto(`${BASE}/#3x2:${SIX_TALL}`);
  assert.equal(await phone.getByLabel('Size').inputValue(), '3x2', 'a link opens the grid of its board');
  assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= 375), 'no horizontal scroll');
  const grid = await phone.locator('#board').boundingBox();
  assert.ok(grid.x >= 0 && grid.x + grid.width <= 375, `the board fits: ${JSON.stringify(grid)}`);
  const first = await phone.getByLabel('Row 1, column 1', { exact: true }).boundingBox();
  assert.ok(first.width >= 44 && first.height >= 44, `a cell is ${first.width}x${first.height}`);

  await pickSize('25x25', phone);
  assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= 375), 'the page does not scroll sideways');
  const last = phone.getByLabel('Row 25, column 25', { exact: true });
  await last.focus();
  const { x, width } = await last.boundingBox();
  assert.ok(x >= 0 && x + width <= 375, 'the frame scrolls the focused cell into view');
  await phone.context().close();
});

test('variants: the preset is sent, X draws its diagonals, killer and jigsaw draw what the server made', async () => {
  await page.goto(`${BASE}/`);
  await page.getByLabel('Variant').selectOption('x');
  assert.equal(await page.locator('#board .overlay line.diagonal').count(), 2, 'both diagonals drawn');
  await page.getByLabel('Difficulty').selectOption('easy');
  let sent = nextBody('/v1/generate');
  assert.match(await act('Generate'), /^A new easy puzzle /);
  assert.deepEqual(await sent, { difficulty: 'easy', size: 9, variant: 'x' }, 'the preset alone: the server completes it');
  const x = await board();
  sent = nextBody('/v1/solve');
  assert.match(await act('Solve'), /The solution is unique\.$/);
  const solveBody = await sent;
  assert.equal(solveBody.variant, 'x');
  const solved = await board();
  assertSolves(solved, x);
  for (const diagonal of [[0, 10, 20, 30, 40, 50, 60, 70, 80], [8, 16, 24, 32, 40, 48, 56, 64, 72]]) {
    assert.equal(new Set(diagonal.map((index) => solved[index])).size, 9, 'a diagonal holds 1 to 9');
  }

  await page.getByLabel('Variant').selectOption('killer');
  assert.equal(await page.locator('#board .overlay line.diagonal').count(), 0, 'another variant, no diagonals');
  assert.match(await act('Generate'), /^A new easy puzzle /);
  const sums = await page.locator('#board .overlay text.cage-sum').allTextContents();
  assert.ok(sums.length >= 20, `cage sums drawn: ${sums.length}`);
  const total = sums.reduce((sum, text) => sum + Number(text), 0);
  assert.equal(total, 405, 'the cages cover the grid: their sums add up to 9 x 45');
  assert.ok(await page.locator('#board .overlay line.cage').count() > 0, 'cage borders drawn');
  // The address keeps the variant and the cages: a shared link draws and solves the same puzzle.
  const link = page.url();
  assert.match(new URL(link).hash, /;variant=killer;constraints=%7B/);
  await page.goto(`${BASE}/`);
  await page.goto(link);
  assert.equal(await page.getByLabel('Variant').inputValue(), 'killer');
  const again = await page.locator('#board .overlay text.cage-sum').allTextContents();
  assert.deepEqual(again, sums, 'the same cages from the link');
  sent = nextBody('/v1/solve');
  assert.match(await act('Solve'), /The solution is unique\.$/);
  assert.deepEqual(Object.keys(await sent).sort(), ['board', 'constraints', 'variant']);

  await page.getByLabel('Variant').selectOption('jigsaw');
  assert.equal(await page.locator('#board .overlay text.cage-sum').count(), 0, 'the cages go with their variant');
  await page.getByLabel('Difficulty').selectOption('easy'); // the page was loaded again from the link
  assert.match(await act('Generate'), /^A new easy puzzle /);
  // Region borders replace the boxes': some thick border is not where a box's is.
  const borders = await page.$$eval('.cell', (cells) => cells.map((cell) => cell.classList.contains('box-right')));
  const boxBorders = [...Array(81)].map((_, index) => index % 9 === 2 || index % 9 === 5);
  assert.notDeepEqual(borders, boxBorders, 'the regions are not the boxes');
  assert.match(await act('Solve'), /The solution is unique\.$/);

  // XV: Generate brings every X and V of the solution, drawn, and the puzzle solves with them.
  await page.getByLabel('Variant').selectOption('xv');
  assert.match(await act('Generate'), /^A new easy puzzle /);
  const letters = await page.locator('#board .overlay text.xv').allTextContents();
  assert.ok(letters.length > 0 && letters.every((letter) => letter === 'X' || letter === 'V'), `marks: ${letters}`);
  assert.match(await act('Solve'), /The solution is unique\.$/);

  // Even and odd cells from a link: drawn, and sent with every request.
  const parity = encodeURIComponent(JSON.stringify({ even: [[0, 0], [4, 4]], odd: [[0, 1]] }));
  await page.goto(`${BASE}/#${PUZZLE};constraints=${parity}`);
  assert.equal(await page.locator('#board .overlay rect.parity.even').count(), 2, 'even cells drawn');
  assert.equal(await page.locator('#board .overlay circle.parity.odd').count(), 1, 'odd cell drawn');
  sent = nextBody('/v1/validate');
  await act('Validate');
  assert.deepEqual((await sent).constraints, { even: [[0, 0], [4, 4]], odd: [[0, 1]] });
  // X and V marks from a link: drawn as letters where their cells meet, and sent with every
  // request; a V whose cells break it is a conflict of both. PUZZLE's r1c1 and r1c2 hold 5 and 3.
  const xv = { x: [[[0, 2], [0, 3]]], v: [[[0, 0], [0, 1]]] };
  await page.goto(`${BASE}/#${PUZZLE};constraints=${encodeURIComponent(JSON.stringify({ xv }))}`);
  assert.deepEqual(await page.locator('#board .overlay text.xv').allTextContents(), ['X', 'V'], 'the marks drawn');
  assert.equal(await page.locator('#board .overlay rect.xv-square').count(), 2, 'each on its square');
  sent = nextBody('/v1/validate');
  assert.equal(await act('Validate'), '2 conflicting cells: r1c1 (5), r1c2 (3).');
  assert.deepEqual((await sent).constraints, { xv });
  // Whispers lines from a link: drawn as green lines, a difference a line gives written at its
  // first cell, and sent with every request.
  const whispers = [{ line: [[0, 0], [1, 1], [1, 2]] }, { line: [[8, 0], [8, 1]], difference: 4 }];
  await page.goto(`${BASE}/#${PUZZLE};constraints=${encodeURIComponent(JSON.stringify({ whispers }))}`);
  assert.equal(await page.locator('#board .overlay polyline.whispers').count(), 2, 'the lines drawn');
  assert.deepEqual(await page.locator('#board .overlay text.whispers-difference').allTextContents(), ['4']);
  sent = nextBody('/v1/validate');
  await act('Validate');
  assert.deepEqual((await sent).constraints, { whispers });
  // A palindrome from a link: drawn as a grey line.
  const palindromes = [[[0, 0], [1, 1], [2, 1]]];
  await page.goto(`${BASE}/#${PUZZLE};constraints=${encodeURIComponent(JSON.stringify({ palindromes }))}`);
  assert.equal(await page.locator('#board .overlay polyline.palindrome').count(), 1, 'the palindrome drawn');
  // A renban line from a link: drawn too.
  const renbans = [[[4, 4], [4, 5]]];
  await page.goto(`${BASE}/#${PUZZLE};constraints=${encodeURIComponent(JSON.stringify({ renbans }))}`);
  assert.equal(await page.locator('#board .overlay polyline.renban').count(), 1, 'the renban line drawn');
  // An arrow from a link: its bulb, its shaft and its head.
  const arrows = [{ bulb: [[0, 0]], line: [[1, 1], [2, 2]] }];
  await page.goto(`${BASE}/#${PUZZLE};constraints=${encodeURIComponent(JSON.stringify({ arrows }))}`);
  assert.equal(await page.locator('#board .overlay circle.arrow-bulb').count(), 1, 'the bulb drawn');
  assert.equal(await page.locator('#board .overlay polyline.arrow').count(), 2, 'the shaft and its head drawn');
  // A between line from a link: a grey line, a ringed circle at each end.
  const betweenLines = [[[0, 0], [1, 1], [2, 1], [3, 2]]];
  await page.goto(`${BASE}/#${PUZZLE};constraints=${encodeURIComponent(JSON.stringify({ between_lines: betweenLines }))}`);
  assert.equal(await page.locator('#board .overlay polyline.between').count(), 1, 'the between line drawn');
  assert.equal(await page.locator('#board .overlay circle.line-circle').count(), 2, 'its two circles drawn');
  // A lockout line from a link: a grey line, a ringed diamond at each end.
  const lockoutLines = [{ line: [[0, 0], [1, 1], [2, 1]], difference: 5 }];
  await page.goto(`${BASE}/#${PUZZLE};constraints=${encodeURIComponent(JSON.stringify({ lockout_lines: lockoutLines }))}`);
  assert.equal(await page.locator('#board .overlay polyline.lockout').count(), 1, 'the lockout line drawn');
  assert.equal(await page.locator('#board .overlay polygon.line-diamond').count(), 2, 'its two diamonds drawn');
  // Modular and entropic lines from a link: a teal blue and an orange line.
  const classLines = { modular_lines: [[[0, 0], [0, 1], [0, 2]]], entropic_lines: [[[2, 0], [2, 1]], [[4, 4], [5, 5]]] };
  await page.goto(`${BASE}/#${PUZZLE};constraints=${encodeURIComponent(JSON.stringify(classLines))}`);
  assert.equal(await page.locator('#board .overlay polyline.modular').count(), 1, 'the modular line drawn');
  assert.equal(await page.locator('#board .overlay polyline.entropic').count(), 2, 'the entropic lines drawn');
  // Custom relations from a link: a thin line, a small circle at each cell, hollow between each
  // cell and the next, filled between every two, and the name at the first cell.
  const relations = [
    { cells: [[0, 0], [0, 1], [1, 1]], between: 'neighbours', allowed: [[1, 2]], name: 'up' },
    { cells: [[4, 4], [6, 6]], between: 'every_two', allowed: [[1, 3], [3, 1]] },
  ];
  await page.goto(`${BASE}/#${PUZZLE};constraints=${encodeURIComponent(JSON.stringify({ relations }))}`);
  assert.equal(await page.locator('#board .overlay polyline.relation').count(), 2, 'the relations drawn');
  assert.equal(await page.locator('#board .overlay circle.relation-node').count(), 5, 'a circle at each cell');
  assert.equal(await page.locator('#board .overlay circle.relation-node.filled').count(), 2, 'every two: filled');
  assert.deepEqual(await page.locator('#board .overlay text.relation-name').allTextContents(), ['up']);
  // Little killers from a link: each sum outside the grid with its arrow, the frame making room
  // for them; sent with every request.
  const littleKillers = [{ sum: 12, start: [0, 2], direction: 'down_left' }, { sum: 3, start: [8, 0], direction: 'up_left' }];
  await page.goto(`${BASE}/#${PUZZLE};constraints=${encodeURIComponent(JSON.stringify({ little_killers: littleKillers }))}`);
  assert.deepEqual(await page.locator('#board .overlay text.little-killer').allTextContents(), ['12', '3']);
  assert.equal(await page.locator('#board .overlay .little-killer-arrow').count(), 4, 'each arrow and its head');
  assert.ok(await page.locator('.board-frame').evaluate((frame) => frame.classList.contains('outside')), 'room for the clues');
  const frame = await page.locator('.board-frame').boundingBox();
  const clue = await page.locator('#board .overlay text.little-killer').first().boundingBox();
  const grid = await page.locator('#board').boundingBox();
  assert.ok(clue.y + clue.height <= grid.y && clue.y >= frame.y, `the clue above the grid, inside its frame: ${JSON.stringify({ clue, grid, frame })}`);
  sent = nextBody('/v1/solve');
  assert.match(await act('Solve'), /The solution is unique\.$/);
  assert.deepEqual((await sent).constraints, { little_killers: littleKillers });
  // Lines drawn by hand: Draw line, three cells clicked, Draw line again; a Dutch line, a
  // palindrome, a renban line and a between line; sent with the next request, and gone with
  // Remove lines; a between line of two cells is refused.
  await page.goto(`${BASE}/#${PUZZLE}`);
  const cell = (index) => page.locator('#board input').nth(index);
  const drawn = [
    ['dutch', [60, 70, 80]], ['palindromes', [56, 66, 76]], ['renbans', [2, 12, 22]], ['pill', [36, 37, 46]],
    ['between_lines', [18, 28, 38]], ['lockout_lines', [33, 34]], ['modular_lines', [72, 73, 74]],
    ['entropic_lines', [8, 17]], ['between_lines', [30, 31]],
  ];
  for (const [kind, indices] of drawn) {
    await page.getByLabel('Line', { exact: true }).selectOption(kind);
    await page.getByRole('button', { name: 'Draw line' }).click();
    for (const index of indices) await cell(index).click();
    await page.getByRole('button', { name: 'Draw line' }).click();
  }
  assert.equal(await page.locator('#message').textContent(), 'A between line has a cell between its two circles: none was added.');
  sent = nextBody('/v1/validate');
  await act('Validate');
  assert.deepEqual((await sent).constraints, {
    whispers: [{ line: [[6, 6], [7, 7], [8, 8]], difference: 4 }],
    palindromes: [[[6, 2], [7, 3], [8, 4]]],
    renbans: [[[0, 2], [1, 3], [2, 4]]],
    arrows: [{ bulb: [[4, 0], [4, 1]], line: [[5, 1]] }],
    between_lines: [[[2, 0], [3, 1], [4, 2]]],
    lockout_lines: [{ line: [[3, 6], [3, 7]] }],
    modular_lines: [[[8, 0], [8, 1], [8, 2]]],
    entropic_lines: [[[0, 8], [1, 8]]],
  });
  assert.equal(await page.locator('#board .overlay .arrow-pill').count(), 2, 'the pill drawn');
  assert.equal(await page.locator('#board .overlay polyline.whispers').count(), 1, 'the drawn line shown');
  // A clue by hand: a little killer's diagonal's first two cells from the edge, a sandwich's or an
  // X-sum's row's or column's end beside the clue and the next cell in; and the sum beside.
  const clueBy = async (kind, indices, sum) => {
    await page.getByLabel('Line', { exact: true }).selectOption(kind);
    await page.getByLabel('Sum', { exact: true }).fill(String(sum));
    await page.getByRole('button', { name: 'Draw line' }).click();
    for (const index of indices) await cell(index).click();
    await page.getByRole('button', { name: 'Draw line' }).click();
    return page.locator('#message').textContent();
  };
  assert.equal(await clueBy('little-killer', [2, 10], 12), 'Added a little killer of 12 from r1c3, down and left.');
  assert.equal(await clueBy('little-killer', [40, 50], 12), 'A little killer was not added: its first cell is not on the edge of the grid the clue sits beyond.');
  assert.equal(await clueBy('little-killer', [2, 3], 12), 'A little killer was not added: its first two cells are not diagonal neighbours.');
  sent = nextBody('/v1/validate');
  await act('Validate');
  assert.deepEqual((await sent).constraints.little_killers, [{ sum: 12, start: [0, 2], direction: 'down_left' }]);
  assert.deepEqual(await page.locator('#board .overlay text.little-killer').allTextContents(), ['12']);
  assert.equal(await clueBy('sandwich', [8, 17], 0), 'Added a sandwich of 0 beside column 9, at its start.');
  assert.equal(await clueBy('sandwich', [26, 25], 35), 'Added a sandwich of 35 beside row 3, at its end.');
  assert.equal(await clueBy('sandwich', [40, 41], 5), 'A sandwich was not added: its first cell is not at the end of its row or column the clue sits beyond.');
  assert.equal(await clueBy('sandwich', [0, 10], 5), 'A sandwich was not added: its first two cells are not side by side.');
  sent = nextBody('/v1/validate');
  await act('Validate');
  assert.deepEqual((await sent).constraints.sandwiches, [{ sum: 0, column: 8, from: 'start' }, { sum: 35, row: 2, from: 'end' }]);
  assert.equal(await clueBy('x-sum', [72, 63], 21), 'Added an X-sum of 21 beside column 1, at its end.');
  assert.equal(await clueBy('x-sum', [4, 5], 3), 'An X-sum was not added: its first cell is not at the end of its row or column the clue sits beyond.');
  sent = nextBody('/v1/validate');
  await act('Validate');
  assert.deepEqual((await sent).constraints.x_sums, [{ sum: 21, column: 0, from: 'end' }]);
  assert.deepEqual(await page.locator('#board .overlay text.line-clue').allTextContents(), ['0', '35', '21']);
  const right = await page.locator('#board .overlay text.line-clue').nth(1).boundingBox();
  const drawnGrid = await page.locator('#board').boundingBox();
  assert.ok(right.x >= drawnGrid.x + drawnGrid.width, `the clue right of the grid: ${JSON.stringify({ right, drawnGrid })}`);
  // A custom relation by hand, its table the JSON pairs beside the picker; pairs that are not
  // JSON pairs are refused.
  const relateBy = async (kind, indices, pairs) => {
    await page.getByLabel('Line', { exact: true }).selectOption(kind);
    await page.getByLabel('Pairs', { exact: true }).fill(pairs);
    await page.getByRole('button', { name: 'Draw line' }).click();
    for (const index of indices) await cell(index).click();
    await page.getByRole('button', { name: 'Draw line' }).click();
    return page.locator('#message').textContent();
  };
  assert.equal(await relateBy('relation-every-two', [48, 49], '[[1,3],[3,1]]'), 'Added a relation of 2 pairs between every two of 2 cells.');
  assert.equal(await relateBy('relation-neighbours', [50, 51], '1,2'), 'A relation was not added: its pairs are not JSON pairs of digits, as [[1,2],[2,1]].');
  sent = nextBody('/v1/validate');
  await act('Validate');
  assert.deepEqual((await sent).constraints.relations, [{ cells: [[5, 3], [5, 4]], between: 'every_two', allowed: [[1, 3], [3, 1]] }]);
  assert.equal(await page.locator('#board .overlay circle.relation-node.filled').count(), 2, 'drawn');
  await page.getByRole('button', { name: 'Remove lines' }).click();
  assert.equal(await page.locator('#board .overlay polyline.whispers, #board .overlay polyline.palindrome, #board .overlay polyline.renban, #board .overlay .arrow, #board .overlay .between, #board .overlay .lockout, #board .overlay .modular, #board .overlay .entropic, #board .overlay .little-killer, #board .overlay .line-clue, #board .overlay .relation').count(), 0);
  assert.ok(!(await page.locator('.board-frame').evaluate((frame) => frame.classList.contains('outside'))), 'no room kept');
  await page.goto(`${BASE}/#${PUZZLE};variant=samurai`);
  assert.match(await page.locator('#message.error').textContent(), /no variant the page knows/);
});

test('greater-than signs: drawn from a link, cycled by a click near an edge or Shift and an arrow, sent with requests', async () => {
  // From a link: a chevron per sign; PUZZLE's 5 and 3 in r1c1 and r1c2 break a sign saying 3 is
  // greater, which validation shows.
  const wrong = [{ greater: [0, 1], less: [0, 0] }];
  await page.goto(`${BASE}/#${PUZZLE};constraints=${encodeURIComponent(JSON.stringify({ greater_than: wrong }))}`);
  assert.equal(await page.locator('#board .overlay polyline.sign').count(), 1, 'the sign drawn');
  assert.match(await act('Validate'), /^2 conflicting cells: r1c1 \(5\), r1c2 \(3\)\.$/);
  // By hand: a click near r1c1's right edge cycles the sign there, the left cell greater first.
  await page.goto(`${BASE}/#${PUZZLE}`);
  const signs = page.getByRole('button', { name: 'Greater-than signs' });
  await signs.click();
  assert.equal(await signs.getAttribute('aria-pressed'), 'true');
  const { width, height } = await cell(1, 1).boundingBox();
  const said = async (action) => {
    await action();
    return page.locator('#message').textContent();
  };
  const nearRight = () => cell(1, 1).click({ position: { x: width * 0.92, y: height / 2 } });
  assert.equal(await said(nearRight), 'r1c1 is greater than r1c2.');
  assert.equal(await said(nearRight), 'r1c2 is greater than r1c1.');
  assert.equal(await said(nearRight), 'Removed the sign between r1c1 and r1c2.');
  assert.equal(await page.locator('#board .overlay polyline.sign').count(), 0, 'no sign left');
  // By keyboard: Shift and an arrow key on the focused cell; the border has no neighbour.
  await cell(2, 1).focus();
  assert.equal(await said(() => page.keyboard.press('Shift+ArrowUp')), 'r1c1 is greater than r2c1.');
  // The solution has 5 over 6 there: the other way round.
  assert.equal(await said(() => page.keyboard.press('Shift+ArrowUp')), 'r2c1 is greater than r1c1.');
  assert.match(await said(() => page.keyboard.press('Shift+ArrowLeft')), /the grid's border/);
  assert.equal(await focused(), 'Row 2, column 1', 'the arrows cycle signs rather than move');
  assert.match(fragment(), /;constraints=/, 'the signs kept in the address');
  let sent = nextBody('/v1/solve');
  assert.match(await act('Solve'), /^Solved/);
  assert.deepEqual((await sent).constraints, { greater_than: [{ greater: [1, 0], less: [0, 0] }] });
  // Signs off: the arrows move again, and a click changes no sign.
  await signs.click();
  await cell(2, 1).focus();
  await page.keyboard.press('Shift+ArrowUp');
  assert.equal(await focused(), 'Row 1, column 1');
  await nearRight();
  assert.equal(await page.locator('#board .overlay polyline.sign').count(), 1, 'the sign stays');
});

test('disjoint groups: turned on and off by their button, sent with requests, pressed when a link has them', async () => {
  // Two 5s at the top-left of boxes 1 and 5: in no row, column or box together, but in one group.
  const board = `5${'.'.repeat(29)}5${'.'.repeat(50)}`;
  await page.goto(`${BASE}/#${board}`);
  const groups = page.getByRole('button', { name: 'Disjoint groups' });
  assert.equal(await groups.getAttribute('aria-pressed'), 'false');
  assert.match(await act('Validate'), /^Valid so far/);
  await groups.click();
  assert.equal(await groups.getAttribute('aria-pressed'), 'true');
  assert.match(await page.locator('#message').textContent(), /^Disjoint groups on/);
  assert.match(fragment(), /;constraints=/, 'kept in the address');
  const sent = nextBody('/v1/validate');
  assert.equal(await act('Validate'), '2 conflicting cells: r1c1 (5), r4c4 (5).');
  assert.deepEqual((await sent).constraints, { disjoint_groups: true });
  // From a link, the button says the rule is on; off again, the board is valid.
  await page.goto(`${BASE}/#${board};constraints=${encodeURIComponent(JSON.stringify({ disjoint_groups: true }))}`);
  assert.equal(await groups.getAttribute('aria-pressed'), 'true');
  await groups.click();
  assert.equal(await groups.getAttribute('aria-pressed'), 'false');
  assert.match(await act('Validate'), /^Valid so far/);
  // A jigsaw has no boxes to group by.
  await page.selectOption('#variant', 'jigsaw');
  await groups.click();
  assert.match(await page.locator('#message').textContent(), /need the boxes/);
  assert.equal(await groups.getAttribute('aria-pressed'), 'false');
});

test('global entropy and global mod: turned on and off by their buttons, sent with requests, refused off grids of thirds', async () => {
  // 1, 4 and 7 in the top-left 2x2 square: a low, a middle and a high digit, all 1 mod 3.
  const board = `14${'.'.repeat(7)}7${'.'.repeat(71)}`;
  await page.goto(`${BASE}/#${board}`);
  const entropy = page.getByRole('button', { name: 'Global entropy' });
  const mod = page.getByRole('button', { name: 'Global mod' });
  const drawnWithout = await page.locator('#board .overlay *').count();
  assert.equal(await entropy.getAttribute('aria-pressed'), 'false');
  await entropy.click();
  assert.equal(await entropy.getAttribute('aria-pressed'), 'true');
  assert.match(await page.locator('#message').textContent(), /^Global entropy on/);
  assert.match(await act('Validate'), /^Valid so far/);
  await mod.click();
  assert.equal(await mod.getAttribute('aria-pressed'), 'true');
  assert.match(fragment(), /;constraints=/, 'kept in the address');
  const sent = nextBody('/v1/validate');
  assert.equal(await act('Validate'), '3 conflicting cells: r1c1 (1), r1c2 (4), r2c1 (7).');
  assert.deepEqual((await sent).constraints, { global_entropy: true, global_mod: true });
  // Nothing is drawn in the cells for them.
  assert.equal(await page.locator('#board .overlay *').count(), drawnWithout);
  // From a link, the buttons say the rules are on; off again, the board is valid.
  const both = encodeURIComponent(JSON.stringify({ global_entropy: true, global_mod: true }));
  await page.goto(`${BASE}/#${board};constraints=${both}`);
  assert.equal(await mod.getAttribute('aria-pressed'), 'true');
  await mod.click();
  assert.equal(await mod.getAttribute('aria-pressed'), 'false');
  assert.equal(await entropy.getAttribute('aria-pressed'), 'true');
  assert.match(await act('Validate'), /^Valid so far/);
  // A 4x4 grid's digits do not split into three classes.
  await page.goto(`${BASE}/#${'.'.repeat(16)}`);
  await entropy.click();
  assert.match(await page.locator('#message').textContent(), /multiple of 3/);
  assert.equal(await entropy.getAttribute('aria-pressed'), 'false');
});

test('anti-taxicab: turned on and off by its button, sent with requests, pressed when a link has it', async () => {
  // Two 4s four steps apart (a row and three columns) in no row, column or box together.
  const board = `4${'.'.repeat(11)}4${'.'.repeat(68)}`;
  await page.goto(`${BASE}/#${board}`);
  const taxicab = page.getByRole('button', { name: 'Anti-taxicab' });
  assert.equal(await taxicab.getAttribute('aria-pressed'), 'false');
  assert.match(await act('Validate'), /^Valid so far/);
  await taxicab.click();
  assert.equal(await taxicab.getAttribute('aria-pressed'), 'true');
  assert.match(await page.locator('#message').textContent(), /^Anti-taxicab on/);
  assert.match(fragment(), /;constraints=/, 'kept in the address');
  const sent = nextBody('/v1/validate');
  assert.equal(await act('Validate'), '2 conflicting cells: r1c1 (4), r2c4 (4).');
  assert.deepEqual((await sent).constraints, { anti_taxicab: true });
  // From a link, the button says the rule is on; off again, the board is valid.
  await page.goto(`${BASE}/#${board};constraints=${encodeURIComponent(JSON.stringify({ anti_taxicab: true }))}`);
  assert.equal(await taxicab.getAttribute('aria-pressed'), 'true');
  await taxicab.click();
  assert.equal(await taxicab.getAttribute('aria-pressed'), 'false');
  assert.match(await act('Validate'), /^Valid so far/);
});

test('quadruples: drawn from a link, put on a corner and taken away by a click, sent with requests', async () => {
  const circle = [{ top_left: [0, 0], digits: [5, 7] }];
  await page.goto(`${BASE}/#${PUZZLE};constraints=${encodeURIComponent(JSON.stringify({ quadruples: circle }))}`);
  assert.equal(await page.locator('#board .overlay circle.quadruple').count(), 1, 'the circle drawn');
  assert.equal(await page.locator('#board .overlay text.quadruple-digits').textContent(), '5 7');
  // By hand: the digits in Digits, then a click on the cell whose bottom-right corner it sits on.
  await page.goto(`${BASE}/#${PUZZLE}`);
  const quadruples = page.getByRole('button', { name: 'Quadruples' });
  await quadruples.click();
  assert.equal(await quadruples.getAttribute('aria-pressed'), 'true');
  await page.locator('#quad-digits').fill('5');
  const said = async (row, col) => {
    await cell(row, col).click();
    return page.locator('#message').textContent();
  };
  assert.equal(await said(1, 1), 'A circle with 5 on the corner of r1c1, r1c2, r2c1 and r2c2.');
  assert.match(await said(9, 3), /last row or column/);
  assert.match(fragment(), /;constraints=/, 'kept in the address');
  const sent = nextBody('/v1/solve');
  assert.match(await act('Solve'), /^Solved/);
  assert.deepEqual((await sent).constraints, { quadruples: [{ top_left: [0, 0], digits: [5] }] });
  await quadruples.click();
  await quadruples.click();
  assert.equal(await said(1, 1), 'Removed the circle on the corner of r1c1, r1c2, r2c1 and r2c2.');
  assert.equal(await page.locator('#board .overlay circle.quadruple').count(), 0, 'no circle left');
  await quadruples.click();
});

test('a shared puzzle: loaded from the field or pasted, drawn with its rules, solved, opened in SudokuPad', async () => {
  await page.goto(`${BASE}/`);
  // A 4x4 killer as the Interactive Sudoku Solver shares it, and its one solution.
  const iss = '.Shape~4x4.~R1C1_1~R4C1_3.Cage~5~R1C1~R1C2.Cage~6~R2C3~R3C3';
  await page.getByLabel('Shared puzzle').fill(iss);
  let sent = nextBody('/v1/import');
  assert.equal(await act('Load'), 'Loaded a 4x4 puzzle with 2 givens and its cages.');
  assert.deepEqual(await sent, { puzzle: iss });
  assert.equal(await board(), '1...........3...');
  assert.deepEqual(await page.locator('#board .overlay text.cage-sum').allTextContents(), ['5', '6']);
  sent = nextBody('/v1/solve');
  assert.match(await act('Solve'), /The solution is unique\.$/);
  assert.deepEqual((await sent).constraints.cages.map((cage) => cage.sum), [5, 6], 'the cages go with the board');
  assert.equal(await board(), '1432234141233214');
  assert.match(fragment(), /;constraints=%7B/, 'the address keeps the cages');

  // Open in SudokuPad: a new tab on SudokuPad's link of the puzzle, whose data reads back the
  // same. The tab's page is a stand-in: this machine reaches no other site.
  await page.context().route('https://sudokupad.app/**', (route) => route.fulfill({ contentType: 'text/plain', body: 'SudokuPad' }));
  const popup = page.waitForEvent('popup');
  assert.equal(await act('Open in SudokuPad'), 'Opened the puzzle in SudokuPad, in a new tab.');
  const link = (await popup).url();
  assert.ok(link.startsWith('https://sudokupad.app/fpuzzles'), link);
  await (await popup).close();

  // That link pasted anywhere on the page loads the same puzzle.
  await page.goto(`${BASE}/`);
  await page.evaluate((text) => navigator.clipboard.writeText(text), link);
  await page.locator('h1').click();
  await page.keyboard.press('Control+V');
  await page.waitForFunction(() => document.getElementById('message').textContent.startsWith('Loaded'));
  assert.equal(await board(), '1...........3...');
  assert.deepEqual(await page.locator('#board .overlay text.cage-sum').allTextContents(), ['5', '6']);

  // A rule sudokud lacks is named, and the board shown stays.
  await page.getByLabel('Shared puzzle').fill('.~R1C1_5.Zipper~R1C1~R1C2~R1C3');
  assert.equal(await act('Load'), 'Invalid request: `puzzle`: the ISS rule `Zipper` (zipper lines) is not one sudokud has');
  assert.equal(await board(), '1...........3...');
  // A grid SudokuPad's data cannot hold: the server says why.
  await pickSize('25x25');
  assert.match(await act('Open in SudokuPad'), /^Invalid request: `format`: .* cannot hold a 25x25 grid/);
});

test('no script errors, console errors, failed GETs or requests to other origins on any page', () => {
  assert.deepEqual(incidents, []);
});
