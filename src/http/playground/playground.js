// The playground page (src/http/playground/index.html): a grid of any size from 4x4 to 25x25 in
// front of this server's JSON API. Plain JavaScript without dependencies; the page's
// Content-Security-Policy lets it load only this file and playground.css, and talk only to the
// server it came from.
'use strict';

const EXAMPLE = '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79';
/** The symbols of a cell in order, 1 to 25: a grid of size N uses the first N. */
const SYMBOLS = '123456789ABCDEFGHIJKLMNOP';
/** The sizes the API takes, N in N x N. */
const SIZES = [4, 6, 8, 9, 10, 12, 15, 16, 20, 25];
const BOARD_FORMAT =
  `N x N characters, N one of ${SIZES.join(', ')} (81 for 9x9): 1-9, then A-P up to N, and . or 0 for a blank`;

const boardElement = document.getElementById('board');
const sizeElement = document.getElementById('size');
const variantElement = document.getElementById('variant');
const SVG = 'http://www.w3.org/2000/svg';
/** The drawing of the variant's constraints, laid over the cells; one unit per cell. */
const overlay = document.createElementNS(SVG, 'svg');
overlay.classList.add('overlay');
overlay.setAttribute('aria-hidden', 'true');
const messageElement = document.getElementById('message');
const linkElement = document.getElementById('link');
/** The box of the size the page starts with: an empty grid of it keeps the address bare. */
const STARTING_BOX = [...sizeElement.options].find((option) => option.defaultSelected).value;

/** A box `RxC`, R rows high and C columns wide, with the size of its grid. */
function shapeOf(box) {
  const [rows, cols] = box.split('x').map(Number);
  return { box, rows, cols, size: rows * cols };
}

/** The box the API gives a size when a request names none: square, or the widest no taller than wide. */
function defaultBox(size) {
  let rows = Math.floor(Math.sqrt(size));
  while (size % rows !== 0) rows--;
  return `${rows}x${size / rows}`;
}

/** `box` is one the size picker offers, for a grid of `size`. */
function offersBox(box, size) {
  return shapeOf(box).size === size && [...sizeElement.options].some((option) => option.value === box);
}

/** The grid's shape, and its cell inputs in row-major order, so the DOM order (and Tab) walks the rows. */
let shape;
let cells = [];
/**
 * The variant's constraints as the API writes them, when the server made them (a generated
 * puzzle's); null for a preset alone, which the server completes itself.
 */
let rules = null;

/** The cells of the line being drawn, row-major, while Draw line is on; null when it is off. */
let drawing = null;
const drawLineButton = document.getElementById('draw-line');
const lineKindElement = document.getElementById('line-kind');
const clueSumElement = document.getElementById('clue-sum');
const relationAllowedElement = document.getElementById('relation-allowed');
const boardFrame = document.querySelector('.board-frame');
/** The band outside the grid that little killers' clues sit in, in cells, as the server draws it. */
const OUTSIDE_BAND = 0.75;
/** A little killer's direction as the API names it, for a step of rows down and columns right. */
const DIRECTIONS = { '1,1': 'down_right', '1,-1': 'down_left', '-1,1': 'up_right', '-1,-1': 'up_left' };

/** Whether a click on a cell (or Shift and an arrow key) cycles the greater-than sign on its nearest edge. */
let signing = false;
const signsButton = document.getElementById('signs');
/** Whether a click on a cell puts the quadruple of `quadDigitsElement` on its bottom-right corner. */
let circling = false;
const quadButton = document.getElementById('quadruples');
const quadDigitsElement = document.getElementById('quad-digits');
/**
 * The rules of every cell alike, each turned on and off by its button (pressed while the
 * constraints hold it): the member, what it says on and off, and why the grid cannot take it.
 */
const WHOLE_GRID_RULES = [
  {
    member: 'disjoint_groups',
    button: document.getElementById('disjoint'),
    on: 'Disjoint groups on: the cells at the same place in every box hold different digits.',
    off: 'Disjoint groups off.',
    refused: () => (rules?.regions || variantElement.value === 'jigsaw'
      ? 'Disjoint groups need the boxes: a jigsaw\'s regions have no same place in each.' : null),
  },
  {
    member: 'global_entropy',
    button: document.getElementById('global-entropy'),
    on: 'Global entropy on: every 2x2 square holds a low, a middle and a high digit.',
    off: 'Global entropy off.',
    refused: () => thirdsRefused('Global entropy'),
  },
  {
    member: 'global_mod',
    button: document.getElementById('global-mod'),
    on: 'Global mod on: every 2x2 square holds a digit of each residue mod 3.',
    off: 'Global mod off.',
    refused: () => thirdsRefused('Global mod'),
  },
  {
    member: 'anti_taxicab',
    button: document.getElementById('taxicab'),
    on: 'Anti-taxicab on: no digit d is d steps (rows plus columns apart) from the same digit.',
    off: 'Anti-taxicab off.',
    refused: () => null,
  },
];

/** Why a rule of digit classes (`name`) cannot be on this grid: its digits do not split in three. */
function thirdsRefused(name) {
  const { size } = shape;
  return size % 3 === 0 ? null
    : `${name} needs a grid whose size is a multiple of 3, for its digits to split into three classes.`;
}

/**
 * The player's pencil marks while pencil-mark mode is on, a Set of symbols per cell; null when it
 * is off. Drawn small in the blank cells, over the variant's marks.
 */
let pencil = null;
const pencilButton = document.getElementById('pencil');
const pencilLayer = document.createElementNS(SVG, 'g');

/** Ends pencil-mark mode: its marks were about a board no longer shown. */
function dropPencil() {
  pencil = null;
  pencilButton.setAttribute('aria-pressed', 'false');
  pencilLayer.replaceChildren();
}

/** Draws each blank cell's marks, each symbol in its place of a small box-shaped grid (3x3 for 9x9). */
function drawPencil() {
  pencilLayer.replaceChildren();
  if (!pencil) return;
  const { rows, cols, size } = shape;
  const [across, down] = [Math.max(rows, cols), Math.min(rows, cols)];
  pencil.forEach((marks, index) => {
    if (cells[index].value) return;
    const [row, col] = [Math.floor(index / size), index % size];
    for (const symbol of marks) {
      const place = SYMBOLS.indexOf(symbol);
      const x = col + ((place % across) + 0.5) / across;
      const y = row + (Math.floor(place / across) + 0.5) / down;
      const mark = document.createElementNS(SVG, 'text');
      for (const [name, value] of Object.entries({ x, y, 'font-size': 0.75 / across })) mark.setAttribute(name, value);
      mark.classList.add('mark');
      mark.textContent = symbol;
      pencilLayer.append(mark);
    }
  });
}

/** The marks as the API reads them: N rows of N arrays of values. */
function pencilRows() {
  const { size } = shape;
  const values = pencil.map((marks) => [...marks].map((symbol) => SYMBOLS.indexOf(symbol) + 1).sort((a, b) => a - b));
  return Array.from({ length: size }, (_, row) => values.slice(row * size, (row + 1) * size));
}

/** Replaces the grid with an empty one of `box`'s shape, and enables what works for its size. */
function drawGrid(box) {
  shape = shapeOf(box);
  const { rows, cols, size } = shape;
  sizeElement.value = box;
  // Through the CSSOM, which the CSP allows; it forbids style attributes.
  document.documentElement.style.setProperty('--size', size);
  cells = [];
  for (let index = 0; index < size * size; index++) {
    const [row, col] = [Math.floor(index / size), index % size];
    const cell = document.createElement('input');
    cell.className = 'cell';
    cell.classList.toggle('box-right', col % cols === cols - 1 && col < size - 1);
    cell.classList.toggle('box-bottom', row % rows === rows - 1 && row < size - 1);
    cell.classList.toggle('last-col', col === size - 1);
    cell.classList.toggle('last-row', row === size - 1);
    cell.type = 'text';
    cell.inputMode = size > 9 ? 'text' : 'numeric'; // past 9x9, letters too
    cell.autocomplete = 'off';
    cell.spellcheck = false;
    cell.setAttribute('aria-label', `Row ${row + 1}, column ${col + 1}`);
    cells.push(cell);
  }
  overlay.setAttribute('viewBox', `0 0 ${size} ${size}`);
  boardElement.replaceChildren(...cells, overlay);
  rules = null;
  dropPencil();
  drawRules();
}

/** A windoku's windows, as the server makes them: boxes one cell in from the edges and apart. */
function windows() {
  const { rows, cols, size } = shape;
  const starts = (side) => {
    const found = [];
    for (let start = 1; start + side <= size; start += side + 1) found.push(start);
    return found;
  };
  const found = [];
  for (const top of starts(rows)) {
    for (const left of starts(cols)) {
      const window = [];
      for (let row = top; row < top + rows; row++) for (let col = left; col < left + cols; col++) window.push([row, col]);
      found.push(window);
    }
  }
  return found;
}

/** An SVG element of `kind` with `attributes` and `classes`, added to the overlay. */
function draw(kind, attributes, ...classes) {
  const element = document.createElementNS(SVG, kind);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.classList.add(...classes);
  overlay.append(element);
  return element;
}

/**
 * An arrow as the community draws it: its bulb a grey outline (a circle, or a capsule round a
 * pill), its shaft a thin grey line from the bulb's edge, with a head at its end.
 */
function drawArrow({ bulb, line }) {
  const centre = ([row, col]) => [col + 0.5, row + 0.5];
  const points = (cells) => cells.map((cell) => centre(cell).join(',')).join(' ');
  if (bulb.length === 1) {
    const [cx, cy] = centre(bulb[0]);
    draw('circle', { cx, cy, r: 0.37 }, 'arrow-bulb');
  } else {
    // A wide grey stroke under a narrower white one leaves the outline.
    draw('polyline', { points: points(bulb) }, 'arrow-pill');
    draw('polyline', { points: points(bulb) }, 'arrow-pill', 'inside');
  }
  if (line.length === 0) return;
  // From the bulb's cell nearest the shaft, at its edge.
  const [first] = line;
  const distance = ([row, col]) => Math.max(Math.abs(row - first[0]), Math.abs(col - first[1]));
  const [x0, y0] = centre(bulb.reduce((best, cell) => (distance(cell) < distance(best) ? cell : best)));
  const [x1, y1] = centre(first);
  const length = Math.hypot(x1 - x0, y1 - y0) || 1;
  const start = [x0 + ((x1 - x0) * 0.4) / length, y0 + ((y1 - y0) * 0.4) / length];
  const shaft = [start, ...line.map(centre)];
  draw('polyline', { points: shaft.map((point) => point.join(',')).join(' ') }, 'arrow');
  const [[bx, by], [tx, ty]] = shaft.slice(-2);
  const angle = Math.atan2(ty - by, tx - bx);
  const head = [-1, 1].map((side) => {
    const back = angle + Math.PI - (side * 35 * Math.PI) / 180;
    return `${tx + 0.25 * Math.cos(back)},${ty + 0.25 * Math.sin(back)}`;
  });
  draw('polyline', { points: `${head[0]} ${tx},${ty} ${head[1]}` }, 'arrow');
}

/** A greater-than sign: a chevron on the middle of the edge between its cells, pointing at the smaller. */
function drawSign({ greater: [gr, gc], less: [lr, lc] }) {
  const [down, right] = [lr - gr, lc - gc];
  const [x, y] = [(gc + lc) / 2 + 0.5, (gr + lr) / 2 + 0.5];
  const [depth, half] = [0.07, 0.16];
  const arm = (side) => `${x - right * depth - side * down * half},${y - down * depth + side * right * half}`;
  draw('polyline', { points: `${arm(1)} ${x + right * depth},${y + down * depth} ${arm(-1)}` }, 'sign');
}

/**
 * A little killer as the server draws it: its sum in the band outside the grid beside the cell
 * before its diagonal's first, nudged away from a small arrow that points at that cell's corner.
 */
/**
 * A line with a circle at each end (a between line): a grey line of `kind`'s class through its
 * cells' middles, and over each end a white circle in a grey ring, as an arrow's bulb.
 */
function drawCircledLine(line, kind) {
  draw('polyline', { points: line.map(([row, col]) => `${col + 0.5},${row + 0.5}`).join(' ') }, kind);
  for (const [row, col] of [line[0], line[line.length - 1]]) {
    draw('circle', { cx: col + 0.5, cy: row + 0.5, r: 0.37 }, 'line-circle');
  }
}

/** A lockout line: a grey line through its cells' middles, a ringed white diamond at each end. */
function drawLockoutLine({ line }) {
  draw('polyline', { points: line.map(([row, col]) => `${col + 0.5},${row + 0.5}`).join(' ') }, 'lockout');
  for (const [row, col] of [line[0], line[line.length - 1]]) {
    const [x, y, half] = [col + 0.5, row + 0.5, 0.37];
    draw('polygon', { points: `${x},${y - half} ${x + half},${y} ${x},${y + half} ${x - half},${y}` }, 'line-diamond');
  }
}

/**
 * A custom relation as ISS draws it: a thin line through its cells, a small circle at each, hollow
 * when each cell and the next keep it, filled when every two do, and its name at the first cell.
 */
function drawRelation({ cells, between, name }) {
  draw('polyline', { points: cells.map(([row, col]) => `${col + 0.5},${row + 0.5}`).join(' ') }, 'relation');
  for (const [row, col] of cells) {
    const node = draw('circle', { cx: col + 0.5, cy: row + 0.5, r: 0.1 }, 'relation-node');
    if (between === 'every_two') node.classList.add('filled');
  }
  if (name != null && cells.length > 0) {
    const [row, col] = cells[0];
    draw('text', { x: col + 0.06, y: row + 0.94 }, 'relation-name').textContent = name;
  }
}

function drawLittleKiller({ sum, start, direction }) {
  const { size } = shape;
  const [rows, cols] = Object.keys(DIRECTIONS).find((step) => DIRECTIONS[step] === direction).split(',').map(Number);
  const [row, col] = [start[0] - rows, start[1] - cols];
  const at = (coordinate, step) => {
    if (coordinate >= 0 && coordinate < size) return coordinate + 0.5 - 0.14 * step;
    return (coordinate < 0 ? -OUTSIDE_BAND / 2 : size + OUTSIDE_BAND / 2) - 0.08 * step;
  };
  draw('text', { x: at(col, cols), y: at(row, rows) }, 'little-killer').textContent = String(sum);
  const [cx, cy] = [start[1] + 0.5 - cols / 2, start[0] + 0.5 - rows / 2];
  const [tx, ty] = [cx - 0.05 * cols, cy - 0.05 * rows];
  draw('line', { x1: cx - 0.3 * cols, y1: cy - 0.3 * rows, x2: tx, y2: ty }, 'little-killer-arrow');
  const angle = Math.atan2(rows, cols);
  const head = [-1, 1].map((side) => {
    const back = angle + Math.PI - (side * 35 * Math.PI) / 180;
    return `${tx + 0.1 * Math.cos(back)},${ty + 0.1 * Math.sin(back)}`;
  });
  draw('polyline', { points: `${head[0]} ${tx},${ty} ${head[1]}` }, 'little-killer-arrow');
}

/**
 * A clue beside a row's or column's end (a sandwich, an X-sum) as the server draws it: its number in the band
 * outside the grid, in line with the row or column, beyond the `from` end.
 */
function drawLineClue({ row, column, from }, label) {
  const { size } = shape;
  const beyond = from === 'end' ? size + OUTSIDE_BAND / 2 : -OUTSIDE_BAND / 2;
  const [x, y] = row != null ? [beyond, row + 0.5] : [column + 0.5, beyond];
  draw('text', { x, y }, 'line-clue').textContent = label;
}

/** The region id of each cell, row-major, from the API's `regions` (rows of ids, or one string). */
function regionIds(regions) {
  return typeof regions === 'string' ? [...regions.replace(/\s+/g, '')] : regions.flat();
}

/**
 * Draws the variant: diagonals, shaded extra regions, region borders in place of the boxes', cages
 * with their sums, thermometers, whispers lines (a difference they give at the first cell),
 * palindromes, renban lines, arrows, between lines (a ringed circle at each end), lockout lines
 * (a ringed diamond at each end), modular and entropic lines, custom relations (a thin line, a
 * small circle at each cell, and the name), Kropki dots,
 * X and V marks, greater-than signs, even and odd cells, and little killers' clues in a band outside the grid (made room for only when there
 * are some). From the server's constraints when it made them, else from the picked preset alone.
 */
function drawRules() {
  overlay.replaceChildren();
  const { rows, cols, size } = shape;
  const variant = variantElement.value;
  const constraints = rules ?? {};
  for (const { member, button } of WHOLE_GRID_RULES) button.setAttribute('aria-pressed', String(constraints[member] === true));
  const diagonals = constraints.diagonals ?? (variant === 'x' ? 'both' : null);
  if (diagonals === 'main' || diagonals === 'both') draw('line', { x1: 0, y1: 0, x2: size, y2: size }, 'diagonal');
  if (diagonals === 'anti' || diagonals === 'both') draw('line', { x1: size, y1: 0, x2: 0, y2: size }, 'diagonal');
  const extra = constraints.extra_regions ?? (variant === 'windoku' ? windows() : []);
  const shaded = new Set(extra.flat().map(([row, col]) => row * size + col));
  cells.forEach((cell, index) => cell.classList.toggle('extra', shaded.has(index)));
  // Borders: the regions' when the variant has them, else the boxes'.
  const ids = constraints.regions ? regionIds(constraints.regions) : null;
  cells.forEach((cell, index) => {
    const [row, col] = [Math.floor(index / size), index % size];
    const right = ids ? col < size - 1 && ids[index] !== ids[index + 1] : col % cols === cols - 1 && col < size - 1;
    const below = ids ? row < size - 1 && ids[index] !== ids[index + size] : row % rows === rows - 1 && row < size - 1;
    cell.classList.toggle('box-right', right);
    cell.classList.toggle('box-bottom', below);
  });
  const inset = 0.08;
  for (const cage of constraints.cages ?? []) {
    const inCage = new Set(cage.cells.map(([row, col]) => row * size + col));
    for (const [row, col] of cage.cells) {
      // A dashed side wherever the neighbour is outside the cage.
      const sides = [
        [row - 1, col, [col + inset, row + inset, col + 1 - inset, row + inset]],
        [row + 1, col, [col + inset, row + 1 - inset, col + 1 - inset, row + 1 - inset]],
        [row, col - 1, [col + inset, row + inset, col + inset, row + 1 - inset]],
        [row, col + 1, [col + 1 - inset, row + inset, col + 1 - inset, row + 1 - inset]],
      ];
      for (const [nextRow, nextCol, [x1, y1, x2, y2]] of sides) {
        const outside = nextRow < 0 || nextCol < 0 || nextRow >= size || nextCol >= size;
        if (outside || !inCage.has(nextRow * size + nextCol)) draw('line', { x1, y1, x2, y2 }, 'cage');
      }
    }
    if (cage.sum != null) {
      const [row, col] = [...cage.cells].sort(([r1, c1], [r2, c2]) => r1 - r2 || c1 - c2)[0];
      draw('text', { x: col + inset + 0.02, y: row + inset + 0.22 }, 'cage-sum').textContent = String(cage.sum);
    }
  }
  for (const thermometer of constraints.thermometers ?? []) {
    const points = thermometer.map(([row, col]) => `${col + 0.5},${row + 0.5}`).join(' ');
    draw('polyline', { points }, 'thermometer');
    const [row, col] = thermometer[0];
    draw('circle', { cx: col + 0.5, cy: row + 0.5, r: 0.35 }, 'bulb');
  }
  for (const { line, difference } of constraints.whispers ?? []) {
    draw('polyline', { points: line.map(([row, col]) => `${col + 0.5},${row + 0.5}`).join(' ') }, 'whispers');
    if (difference != null) {
      const [row, col] = line[0];
      draw('text', { x: col + 0.92, y: row + 0.92 }, 'whispers-difference').textContent = String(difference);
    }
  }
  for (const palindrome of constraints.palindromes ?? []) {
    draw('polyline', { points: palindrome.map(([row, col]) => `${col + 0.5},${row + 0.5}`).join(' ') }, 'palindrome');
  }
  for (const renban of constraints.renbans ?? []) {
    draw('polyline', { points: renban.map(([row, col]) => `${col + 0.5},${row + 0.5}`).join(' ') }, 'renban');
  }
  for (const arrow of constraints.arrows ?? []) drawArrow(arrow);
  for (const line of constraints.between_lines ?? []) drawCircledLine(line, 'between');
  for (const lockout of constraints.lockout_lines ?? []) drawLockoutLine(lockout);
  for (const relation of constraints.relations ?? []) drawRelation(relation);
  for (const [key, kind] of [['modular_lines', 'modular'], ['entropic_lines', 'entropic']]) {
    for (const line of constraints[key] ?? []) {
      draw('polyline', { points: line.map(([row, col]) => `${col + 0.5},${row + 0.5}`).join(' ') }, kind);
    }
  }
  const clues = constraints.little_killers ?? [];
  const sandwiches = constraints.sandwiches ?? [];
  const xSums = constraints.x_sums ?? [];
  boardFrame.classList.toggle('outside', clues.length + sandwiches.length + xSums.length > 0);
  for (const clue of clues) drawLittleKiller(clue);
  for (const clue of [...sandwiches, ...xSums]) drawLineClue(clue, String(clue.sum));
  if (drawing?.length) {
    draw('polyline', { points: drawing.map((index) => `${(index % size) + 0.5},${Math.floor(index / size) + 0.5}`).join(' ') }, 'drawing');
  }
  for (const colour of ['white', 'black']) {
    for (const [[r1, c1], [r2, c2]] of constraints.kropki?.[colour] ?? []) {
      draw('circle', { cx: (c1 + c2) / 2 + 0.5, cy: (r1 + r2) / 2 + 0.5, r: 0.12 }, 'dot', colour);
    }
  }
  // An X or V on a white square where its two cells meet, over the line between them.
  for (const letter of ['x', 'v']) {
    for (const [[r1, c1], [r2, c2]] of constraints.xv?.[letter] ?? []) {
      const [x, y] = [(c1 + c2) / 2 + 0.5, (r1 + r2) / 2 + 0.5];
      draw('rect', { x: x - 0.15, y: y - 0.15, width: 0.3, height: 0.3 }, 'xv-square');
      draw('text', { x, y }, 'xv', letter).textContent = letter.toUpperCase();
    }
  }
  for (const sign of constraints.greater_than ?? []) drawSign(sign);
  // A quadruple: a white circle on its corner, its digits inside, two to a line.
  for (const { top_left: [row, col], digits } of constraints.quadruples ?? []) {
    draw('circle', { cx: col + 1, cy: row + 1, r: 0.24 }, 'quadruple');
    const lines = [digits.slice(0, 2), digits.slice(2)].filter((line) => line.length > 0);
    lines.forEach((line, number) => {
      const y = row + 1 + (number - (lines.length - 1) / 2) * 0.16;
      draw('text', { x: col + 1, y }, 'quadruple-digits').textContent = line.join(' ');
    });
  }
  // Even cells as grey squares and odd ones as grey circles, behind the digit.
  for (const [row, col] of constraints.even ?? []) {
    draw('rect', { x: col + 0.15, y: row + 0.15, width: 0.7, height: 0.7 }, 'parity', 'even');
  }
  for (const [row, col] of constraints.odd ?? []) draw('circle', { cx: col + 0.5, cy: row + 0.5, r: 0.36 }, 'parity', 'odd');
  overlay.append(pencilLayer);
}

/** `symbol` (upper case) is a value of a cell of the current grid. */
function isSymbol(symbol) {
  return symbol.length === 1 && SYMBOLS.slice(0, shape.size).includes(symbol);
}

/** The last character of `text` that is a symbol of the current grid, in upper case, or undefined. */
function lastSymbol(text) {
  return [...text.toUpperCase()].filter(isSymbol).at(-1);
}

/** The size of a board of N x N cells. */
function sizeOf(board) {
  return Math.sqrt(board.length);
}

/**
 * `text` as a board of N x N cells of the first N symbols and `.`, for a size N the API takes, or
 * null. Whitespace is ignored, `0` is a blank, and letters are upper-cased.
 */
function parseBoard(text) {
  const board = text.replace(/\s+/g, '').replace(/0/g, '.').toUpperCase();
  const size = sizeOf(board);
  if (!SIZES.includes(size)) return null;
  const symbols = SYMBOLS.slice(0, size);
  return [...board].every((symbol) => symbol === '.' || symbols.includes(symbol)) ? board : null;
}

/** How many cells of a board are blank. */
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

/**
 * A request body about the current grid: `members`, its box when not the size's default, and the
 * variant's rules when one is picked.
 */
function gridRequest(members) {
  const request = shape.box === defaultBox(shape.size) ? { ...members } : { ...members, box: shape.box };
  if (variantElement.value) request.variant = variantElement.value;
  if (rules) request.constraints = rules;
  return request;
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

/** The index in `cells` of a 0-based row and column from an API answer. */
function indexAt({ row, col }) {
  return row * shape.size + col;
}

function cellAt(position) {
  return cells[indexAt(position)];
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
 * Keeps the puzzle in the URL fragment so that the address is a link to it: the board, after its
 * box and a colon (`#3x2:..6...`) when that is not the size's default, then the picked variant and
 * a generated puzzle's constraints as `;variant=killer;constraints=<JSON, URI-encoded>`. Solver
 * fills stay out, so a shared link gives the puzzle, not its answer. replaceState: no history
 * entry per digit.
 */
function saveToFragment() {
  const current = puzzle();
  const variant = variantElement.value;
  if (shape.box === STARTING_BOX && blanks(current) === current.length && !variant) {
    history.replaceState(null, '', location.pathname);
  } else {
    const box = shape.box === defaultBox(shape.size) ? '' : `${shape.box}:`;
    const named = variant ? `;variant=${variant}` : '';
    const made = rules ? `;constraints=${encodeURIComponent(JSON.stringify(rules))}` : '';
    history.replaceState(null, '', `#${box}${current}${named}${made}`);
  }
}

/**
 * Draw line: turned on, each cell clicked joins the line; turned off, a line of two cells or more
 * joins the constraints as the kind picked (whispers, Dutch whispers of difference 4, a
 * palindrome, a renban line, a between line of three cells or more whose ends are its circles, a
 * modular or an entropic line, an
 * arrow whose first cell, or first two for a pill, is its bulb, a little killer of the sum beside the picker whose diagonal's first two cells were clicked,
 * a lockout line of the grid's own difference whose ends are its diamonds, or a custom relation
 * between each cell and the next or every two cells, its table the JSON pairs beside the picker),
 * which are then sent with every request and kept in the address.
 */
function toggleLine() {
  if (drawing === null) {
    if (signing) toggleSigns();
    if (circling) toggleQuadruples();
    drawing = [];
    drawLineButton.setAttribute('aria-pressed', 'true');
    say('Click the line\'s cells in order, each touching the last, then press Draw line again.', 'ok');
    return;
  }
  const line = drawing.map((index) => [Math.floor(index / shape.size), index % shape.size]);
  drawing = null;
  drawLineButton.setAttribute('aria-pressed', 'false');
  if (line.length < 2) {
    drawRules();
    say('A line joins two cells at least: none was added.', 'error');
    return;
  }
  const kind = lineKindElement.value;
  if (kind === 'little-killer') {
    addLittleKiller(line);
    return;
  }
  if (kind === 'between_lines' && line.length < 3) {
    drawRules();
    say('A between line has a cell between its two circles: none was added.', 'error');
    return;
  }
  if (kind in LINE_CLUES) {
    addLineClue(line, kind);
    return;
  }
  rules = rules ?? {};
  const plainLines = ['palindromes', 'renbans', 'between_lines', 'modular_lines', 'entropic_lines'];
  if (plainLines.includes(kind)) rules[kind] = [...(rules[kind] ?? []), line];
  else if (kind === 'arrow' || kind === 'pill') {
    const bulbCells = kind === 'pill' ? 2 : 1;
    if (line.length <= bulbCells) {
      drawRules();
      say('An arrow needs a shaft past its bulb: none was added.', 'error');
      return;
    }
    rules.arrows = [...(rules.arrows ?? []), { bulb: line.slice(0, bulbCells), line: line.slice(bulbCells) }];
  } else if (kind === 'lockout_lines') rules.lockout_lines = [...(rules.lockout_lines ?? []), { line }];
  else if (kind === 'relation-neighbours' || kind === 'relation-every-two') {
    const allowed = allowedPairs();
    if (!allowed) {
      drawRules();
      say('A relation was not added: its pairs are not JSON pairs of digits, as [[1,2],[2,1]].', 'error');
      return;
    }
    const between = kind === 'relation-every-two' ? 'every_two' : 'neighbours';
    rules.relations = [...(rules.relations ?? []), { cells: line, between, allowed }];
    clearMarks();
    drawRules();
    saveToFragment();
    const which = between === 'every_two' ? 'every two' : 'each cell and the next';
    say(`Added a relation of ${allowed.length} pairs between ${which} of ${line.length} cells.`, 'ok');
    return;
  } else rules.whispers = [...(rules.whispers ?? []), kind === 'dutch' ? { line, difference: 4 } : { line }];
  clearMarks();
  drawRules();
  saveToFragment();
  const picked = lineKindElement.selectedOptions[0].textContent;
  say(`Added ${/^[aeiou]/.test(picked) ? 'an' : 'a'} ${picked} line of ${line.length} cells.`, 'ok');
}

/** The relation's table from the box beside the picker: a JSON list of digit pairs, or null. */
function allowedPairs() {
  let allowed;
  try {
    allowed = JSON.parse(relationAllowedElement.value);
  } catch {
    return null;
  }
  const pair = (item) => Array.isArray(item) && item.length === 2 && item.every(Number.isInteger);
  return Array.isArray(allowed) && allowed.length > 0 && allowed.every(pair) ? allowed : null;
}

/**
 * A little killer from the first two cells of `line` (its diagonal's first cell, on the grid's edge
 * the clue sits beyond, and the next along it) and the sum beside the picker; or why none was added.
 */
function addLittleKiller(line) {
  const { size } = shape;
  const [[row, col], [nextRow, nextCol]] = line;
  const direction = DIRECTIONS[`${nextRow - row},${nextCol - col}`];
  const sum = Number(clueSumElement.value);
  const clueRow = row - (nextRow - row);
  const clueCol = col - (nextCol - col);
  const outside = clueRow < 0 || clueRow >= size || clueCol < 0 || clueCol >= size;
  let refused = null;
  if (!direction) refused = 'its first two cells are not diagonal neighbours';
  else if (!outside) refused = 'its first cell is not on the edge of the grid the clue sits beyond';
  else if (!Number.isInteger(sum) || sum < 1) refused = 'its sum is not a whole number from 1';
  if (refused) {
    drawRules();
    say(`A little killer was not added: ${refused}.`, 'error');
    return;
  }
  rules = rules ?? {};
  rules.little_killers = [...(rules.little_killers ?? []), { sum, start: [row, col], direction }];
  clearMarks();
  drawRules();
  saveToFragment();
  say(`Added a little killer of ${sum} from ${cellName({ row, col })}, ${direction.replace('_', ' and ')}.`, 'ok');
}

/**
 * The row or column and end of a clue beside a line from `line`'s first two cells: the line's cell
 * on the grid's edge beside the clue, and the next one in from it; or why they name none.
 */
function lineClueOf(line) {
  const { size } = shape;
  const [[row, col], [nextRow, nextCol]] = line;
  const [down, right] = [nextRow - row, nextCol - col];
  if (Math.abs(down) + Math.abs(right) !== 1) return { refused: 'its first two cells are not side by side' };
  const along = down === 0 ? col : row;
  const step = down + right;
  if (!((step === 1 && along === 0) || (step === -1 && along === size - 1))) {
    return { refused: 'its first cell is not at the end of its row or column the clue sits beyond' };
  }
  const from = step === 1 ? 'start' : 'end';
  return down === 0 ? { row, from } : { column: col, from };
}

/** The clues beside rows and columns the line picker adds: the constraints member, and one of them. */
const LINE_CLUES = {
  sandwich: { member: 'sandwiches', one: 'a sandwich' },
  'x-sum': { member: 'x_sums', one: 'an X-sum' },
};

/**
 * A clue of `kind` (see `LINE_CLUES`) from the first two cells of `line` (the row's or column's end
 * beside the clue, and the next cell in) and the sum beside the picker; or why none was added.
 */
function addLineClue(line, kind) {
  const { member, one } = LINE_CLUES[kind];
  const clue = lineClueOf(line);
  const sum = Number(clueSumElement.value);
  let { refused } = clue;
  if (!refused && (!Number.isInteger(sum) || sum < 0)) refused = 'its sum is not a whole number from 0';
  if (refused) {
    drawRules();
    say(`${one[0].toUpperCase()}${one.slice(1)} was not added: ${refused}.`, 'error');
    return;
  }
  rules = rules ?? {};
  rules[member] = [...(rules[member] ?? []), { sum, ...clue }];
  clearMarks();
  drawRules();
  saveToFragment();
  const where = clue.row != null ? `row ${clue.row + 1}` : `column ${clue.column + 1}`;
  say(`Added ${one} of ${sum} beside ${where}, at its ${clue.from}.`, 'ok');
}

/**
 * Remove lines: the whispers lines, palindromes, renban lines, arrows, between lines, modular and
 * entropic lines, little killers, lockout lines, sandwiches, X-sums and custom relations leave the
 * constraints.
 */
function removeLines() {
  if (rules) {
    delete rules.whispers;
    delete rules.palindromes;
    delete rules.renbans;
    delete rules.arrows;
    delete rules.between_lines;
    delete rules.lockout_lines;
    delete rules.modular_lines;
    delete rules.entropic_lines;
    delete rules.little_killers;
    delete rules.sandwiches;
    delete rules.x_sums;
    delete rules.relations;
    if (Object.keys(rules).length === 0) rules = null;
  }
  clearMarks();
  drawRules();
  saveToFragment();
  say('Removed the lines and clues.', 'ok');
}

/**
 * Signs: turned on, a click on a cell cycles the greater-than sign on the edge nearest the click,
 * and Shift with an arrow key the one on that side of the cell with the focus (see `cycleSign`).
 */
function toggleSigns() {
  if (drawing !== null) toggleLine();
  if (circling) toggleQuadruples();
  signing = !signing;
  signsButton.setAttribute('aria-pressed', String(signing));
  say(signing ? 'Click a cell near an edge, or press Shift and an arrow key, to cycle the greater-than sign there: none, then the left or upper cell greater, then the other.' : 'Signs off.', 'ok');
}

/**
 * Cycles the greater-than sign on the edge between the cell at `row`, `col` and its neighbour a
 * `[down, right]` step away: none, the left or upper cell greater, the other greater, none again.
 * The signs join the constraints, sent with every request and kept in the address.
 */
function cycleSign(row, col, [down, right]) {
  const { size } = shape;
  const [otherRow, otherCol] = [row + down, col + right];
  if (otherRow < 0 || otherCol < 0 || otherRow >= size || otherCol >= size) {
    say('That edge is the grid\'s border: a sign goes between two cells.', 'error');
    return;
  }
  const [first, second] = down + right > 0 ? [[row, col], [otherRow, otherCol]] : [[otherRow, otherCol], [row, col]];
  const same = ([r1, c1], [r2, c2]) => r1 === r2 && c1 === c2;
  const signs = [...(rules?.greater_than ?? [])];
  const at = signs.findIndex(({ greater, less }) => [greater, less].every((end) => same(end, first) || same(end, second)));
  const [one, other] = [first, second].map(([row, col]) => cellName({ row, col }));
  let said = `Removed the sign between ${one} and ${other}.`;
  if (at < 0) {
    signs.push({ greater: first, less: second });
    said = `${one} is greater than ${other}.`;
  } else if (same(signs[at].greater, first)) {
    signs[at] = { greater: second, less: first };
    said = `${other} is greater than ${one}.`;
  } else {
    signs.splice(at, 1);
  }
  rules = { ...(rules ?? {}), greater_than: signs };
  if (signs.length === 0) delete rules.greater_than;
  if (Object.keys(rules).length === 0) rules = null;
  clearMarks();
  drawRules();
  saveToFragment();
  say(said, 'ok');
}

/**
 * Turns a rule of every cell alike (of `WHOLE_GRID_RULES`) on or off: it joins the constraints,
 * sent with every request and kept in the address, unless the grid cannot take it.
 */
function toggleWholeGridRule(rule) {
  const on = rules?.[rule.member] !== true;
  const refused = on ? rule.refused() : null;
  if (refused) {
    say(refused, 'error');
    return;
  }
  rules = { ...(rules ?? {}), [rule.member]: true };
  if (!on) delete rules[rule.member];
  if (Object.keys(rules).length === 0) rules = null;
  clearMarks();
  drawRules();
  saveToFragment();
  say(on ? rule.on : rule.off, 'ok');
}

/** Quadruples: turned on, a click on a cell puts a circle on its bottom-right corner (see `placeQuadruple`). */
function toggleQuadruples() {
  if (drawing !== null) toggleLine();
  if (signing) toggleSigns();
  circling = !circling;
  quadButton.setAttribute('aria-pressed', String(circling));
  say(circling ? 'Put the circle\'s digits in Digits, then click the cell whose bottom-right corner it sits on; a click where a circle is takes it away.' : 'Quadruples off.', 'ok');
}

/**
 * Puts a circle with the digits of the Digits field on the corner below and right of the cell at
 * `row`, `col`, or takes away the one there. The circles join the constraints, sent with every
 * request and kept in the address.
 */
function placeQuadruple(row, col) {
  const { size } = shape;
  if (row >= size - 1 || col >= size - 1) {
    say('That cell is on the last row or column: a circle sits on a corner four cells share.', 'error');
    return;
  }
  const quadruples = [...(rules?.quadruples ?? [])];
  const at = quadruples.findIndex(({ top_left: [r, c] }) => r === row && c === col);
  const corner = `the corner of ${cellName({ row, col })}, ${cellName({ row, col: col + 1 })}, ${cellName({ row: row + 1, col })} and ${cellName({ row: row + 1, col: col + 1 })}`;
  let said;
  if (at >= 0) {
    quadruples.splice(at, 1);
    said = `Removed the circle on ${corner}.`;
  } else {
    const digits = [...quadDigitsElement.value.replace(/[\s,]+/g, '')].map((symbol) => SYMBOLS.indexOf(symbol.toUpperCase()) + 1);
    if (digits.length === 0 || digits.length > 4 || digits.some((digit) => digit < 1 || digit > size)) {
      say(`Put one to four digits of the grid (1 to ${SYMBOLS[size - 1]}) in Digits first.`, 'error');
      return;
    }
    quadruples.push({ top_left: [row, col], digits });
    said = `A circle with ${digits.join(', ')} on ${corner}.`;
  }
  rules = { ...(rules ?? {}), quadruples };
  if (quadruples.length === 0) delete rules.quadruples;
  if (Object.keys(rules).length === 0) rules = null;
  clearMarks();
  drawRules();
  saveToFragment();
  say(said, 'ok');
}

/** A person changed a cell: earlier marks no longer describe the board. */
function edit(index, digit) {
  clearMarks();
  setCell(index, digit);
  drawPencil();
  saveToFragment();
}

/**
 * Shows `board`, on a grid of `box` (by default the current one if the board is of its size,
 * otherwise the default box of the board's size), redrawn if its shape changes.
 */
function loadBoard(board, box = sizeOf(board) === shape.size ? shape.box : defaultBox(sizeOf(board))) {
  if (box !== shape.box) drawGrid(box);
  clearMarks();
  dropPencil();
  [...board].forEach((digit, index) => setCell(index, digit === '.' ? '' : digit));
  saveToFragment();
}

function loadFromFragment() {
  const fragment = location.hash.slice(1);
  if (fragment === '') return;
  const [grid, ...members] = fragment.split(';');
  const [, box, text] = grid.match(/^(?:(\d+x\d+):)?(.*)$/);
  const board = parseBoard(text);
  const named = Object.fromEntries(members.map((member) => member.split('=', 2)));
  const offered = [...variantElement.options].map((option) => option.value);
  const variant = named.variant ?? '';
  let made = null;
  try {
    made = named.constraints === undefined ? null : JSON.parse(decodeURIComponent(named.constraints));
  } catch {
    made = undefined;
  }
  if (!board || (box !== undefined && !offersBox(box, sizeOf(board)))) {
    say(`The address holds no board: expected ${BOARD_FORMAT}, after its box (3x2:) if not the default.`, 'error');
  } else if (!offered.includes(variant) || made === undefined || (made !== null && typeof made !== 'object')) {
    say(`The address holds a board but no variant the page knows: expected ;variant= one of ${offered.filter(Boolean).join(', ')}, and ;constraints= a JSON object.`, 'error');
  } else {
    loadBoard(board, box ?? defaultBox(sizeOf(board)));
    variantElement.value = variant;
    rules = made;
    try {
      drawRules();
    } catch {
      // Constraints of the wrong form: the server would refuse them too.
      rules = null;
      drawRules();
      say('The address holds constraints the page cannot draw; the variant alone was loaded.', 'error');
    }
    saveToFragment();
  }
}

function focusCell(row, col) {
  const last = shape.size - 1;
  cellAt({ row: Math.min(Math.max(row, 0), last), col: Math.min(Math.max(col, 0), last) }).focus();
}

/**
 * Sends a request about the grid shown: `body` POSTed as JSON to `path`, or a GET when there is
 * none. Returns the response when it succeeded, or null after showing what went wrong: for a
 * problem response its title and `detail`, and the conflicts it lists. Null too, silently, when
 * the grid was redrawn meanwhile: the answer is about a board no longer shown.
 */
async function request(path, body = null) {
  const asked = cells;
  const init = body ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {};
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    say(`Could not reach the server: ${error.message}`, 'error');
    return null;
  }
  if (cells !== asked) return null;
  if (response.ok) return response;
  const problem = await response.json().catch(() => null);
  if (cells !== asked) return null;
  clearMarks();
  if (problem?.conflicts) markConflicts(problem.conflicts);
  say(problem?.detail ? `${problem.title}: ${problem.detail}` : `The server answered ${response.status}.`, 'error');
  return null;
}

/** `request`, and its JSON answer; null as for `request`, or when the answer is not JSON. */
async function call(path, body = null) {
  const asked = cells;
  const response = await request(path, body);
  const answer = response && (await response.json().catch(() => null));
  if (response && !answer) say(`The server's answer to ${path} was not JSON.`, 'error');
  return cells === asked ? answer : null;
}

function cellName({ row, col }) {
  return `r${row + 1}c${col + 1}`;
}

async function solve() {
  const given = puzzle();
  const answer = await call('/v1/solve', gridRequest({ board: given }));
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
  const answer = await call('/v1/validate', gridRequest({ board: shownBoard() }));
  if (!answer) return;
  clearMarks();
  markConflicts(answer.conflicts);
  if (!answer.valid) {
    // A conflict's digit is a number, 10-25 included: show it as the grid does.
    const list = answer.conflicts.map(({ digit, ...at }) => `${cellName(at)} (${SYMBOLS[digit - 1]})`).join(', ');
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
  const members = pencil ? { board: shownBoard(), candidates: pencilRows() } : { board: shownBoard() };
  const answer = await call('/v1/hint', gridRequest(members));
  if (!answer) return;
  clearMarks();
  if (answer.mistakes?.length > 0) {
    // Pencil marks that crossed out the solution's value: pointed out, nothing placed.
    for (const mistake of answer.mistakes) cellAt(mistake).classList.add('conflict');
    say(`${answer.mistakes.map((mistake) => mistake.message).join('; ')}.`, 'error');
    return;
  }
  if (answer.solved) {
    say(answer.message, 'ok');
    return;
  }
  const placement = answer.steps[answer.steps.length - 1];
  for (const cell of placement.cells) cellAt(cell).classList.add('step');
  for (const position of placement.placements) setCell(indexAt(position), SYMBOLS[position.digit - 1], 'hinted');
  drawPencil();
  saveToFragment();
  say(answer.steps.map((step) => step.explanation).join(' '), 'ok');
}

/**
 * Pencil-mark mode on: the basic candidates of every blank cell, which typing a symbol in a blank
 * cell then crosses out or puts back, and which Hint starts from. Off: the marks go.
 */
async function togglePencil() {
  if (pencil) {
    dropPencil();
    say('Pencil marks off.', 'ok');
    return;
  }
  const answer = await call('/v1/candidates', gridRequest({ board: shownBoard() }));
  if (!answer) return;
  pencil = answer.candidates.flat().map((values) => new Set(values.map((value) => SYMBOLS[value - 1])));
  pencilButton.setAttribute('aria-pressed', 'true');
  drawPencil();
  say('Pencil marks on: every blank cell\'s candidates. Type a symbol in a blank cell to cross it out or put it back; Hint starts from your marks.', 'ok');
}

/** Crosses `symbol` out of a blank cell's pencil marks, or puts it back. */
function toggleMark(index, symbol) {
  const marks = pencil[index];
  if (!marks.delete(symbol)) marks.add(symbol);
  clearMarks();
  drawPencil();
}

/**
 * The board shown as a one-page PDF, downloaded: its solution in red when the solver filled it in,
 * the pencil marks when they are on.
 */
async function print() {
  const members = { board: puzzle(), format: 'pdf' };
  if (cells.some((cell) => cell.classList.contains('solved'))) members.solution = shownBoard();
  if (pencil) members.candidates = pencilRows();
  const response = await request('/v1/render', gridRequest(members));
  if (!response) return;
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await response.blob());
  link.download = 'sudoku.pdf';
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  say('The board as a PDF: sudoku.pdf.', 'ok');
}

/** The puzzle of the day at the picked difficulty: 9x9, the same for everybody on the date. */
async function daily() {
  const difficulty = document.getElementById('difficulty').value;
  const answer = await call('/v1/daily?difficulty=' + difficulty);
  if (!answer) return;
  variantElement.value = '';
  loadBoard(answer.puzzle, '3x3');
  rules = null;
  drawRules();
  saveToFragment();
  say(`The ${answer.rating.level} puzzle of ${answer.date} (rating ${answer.rating.rating.toFixed(1)}), the same for everybody today.`, 'ok');
}

/**
 * A new puzzle of the picked difficulty for the current grid. Which levels a size offers is the
 * server's to say: a level it does not offer is a problem whose detail lists those it does.
 */
async function generate() {
  const difficulty = document.getElementById('difficulty').value;
  const answer = await call('/v1/generate', gridRequest({ difficulty, size: shape.size }));
  if (!answer) return;
  loadBoard(answer.puzzle);
  rules = answer.constraints ?? null;
  drawRules();
  saveToFragment();
  const { level, rating } = answer.rating;
  say(`A new ${level} puzzle (rating ${rating.toFixed(1)}, seed ${answer.seed}).`, 'ok');
}

/**
 * A puzzle as another tool shares it (an f-puzzles or SudokuPad link, f-puzzles data, an ISS
 * constraint string or link), shown with its rules: the server reads it into a board, its box and
 * its constraints. A rule sudokud lacks is the server's problem, which names it.
 */
async function loadShared(text) {
  const answer = await call('/v1/import', { puzzle: text.trim() });
  if (!answer) return;
  variantElement.value = '';
  loadBoard(answer.board, answer.box);
  rules = answer.constraints ?? null;
  drawRules();
  saveToFragment();
  const { size } = shape;
  const givens = answer.board.length - blanks(answer.board);
  const kinds = Object.keys(rules ?? {}).map((kind) => kind.replace(/_/g, ' '));
  say(`Loaded a ${size}x${size} puzzle with ${givens} givens${kinds.length ? ` and its ${kinds.join(', ')}` : ''}.`, 'ok');
}

/**
 * Opens the puzzle shown in SudokuPad, in a new tab: the server writes it as f-puzzles data with
 * its rules, or says why SudokuPad cannot hold it.
 */
async function openInSudokuPad() {
  const answer = await call('/v1/export', gridRequest({ board: puzzle(), format: 'sudokupad' }));
  if (!answer) return;
  window.open(answer.link, '_blank', 'noopener');
  say('Opened the puzzle in SudokuPad, in a new tab.', 'ok');
}

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

// Keyboard: digits and letters of the grid type and move on (so a puzzle can be typed straight
// through), 0 and . clear and move on, Backspace and Delete clear, arrows move; Tab keeps its
// usual meaning.
boardElement.addEventListener('keydown', (event) => {
  const index = cells.indexOf(event.target);
  if (index < 0 || event.ctrlKey || event.metaKey || event.altKey) return;
  const [row, col] = [Math.floor(index / shape.size), index % shape.size];
  const next = () => (index < cells.length - 1 ? cells[index + 1].focus() : undefined);
  const { key } = event;
  if (isSymbol(key.toUpperCase()) && pencil && !cells[index].value) {
    toggleMark(index, key.toUpperCase());
  } else if (isSymbol(key.toUpperCase())) {
    edit(index, key.toUpperCase());
    next();
  } else if (key === '0' || key === '.') {
    edit(index, '');
    next();
  } else if (key === 'Backspace' || key === 'Delete') {
    edit(index, '');
  } else if (key in ARROWS && signing && event.shiftKey) {
    cycleSign(row, col, ARROWS[key]);
  } else if (key in ARROWS) {
    focusCell(row + ARROWS[key][0], col + ARROWS[key][1]);
  } else if (key.length !== 1) {
    return; // Tab, Home, Escape...: the browser's default
  }
  event.preventDefault(); // including any other printable key: a cell holds one symbol
});

// What keydown did not handle, such as a phone's on-screen keyboard (whose key events often
// carry no key): keep the symbol just typed, or nothing.
boardElement.addEventListener('input', (event) => {
  const index = cells.indexOf(event.target);
  if (index < 0) return;
  edit(index, lastSymbol(event.data ?? '') ?? lastSymbol(event.target.value) ?? '');
});

// A pasted board fills the grid, wherever the focus is; one of another size switches the grid to
// that size (with its default box). Other text of more than a symbol, unless it is made of
// board symbols alone (a board mistyped), is a puzzle another tool shares, which the server
// tells apart and reads. The link field takes what is pasted into it as it is.
document.addEventListener('paste', (event) => {
  if (event.target === linkElement) return;
  const text = event.clipboardData?.getData('text') ?? '';
  const board = parseBoard(text);
  const index = cells.indexOf(event.target);
  const symbolsOnly = /^[\s.0-9A-Pa-p]*$/.test(text);
  if (!board && text.trim().length > 1 && !symbolsOnly) {
    event.preventDefault();
    loadShared(text);
  } else if (board) {
    event.preventDefault();
    loadBoard(board);
    say(`Pasted a ${shape.size}x${shape.size} puzzle with ${board.length - blanks(board)} givens.`, 'ok');
  } else if (index >= 0) {
    event.preventDefault();
    const symbol = text.trim().toUpperCase();
    if (isSymbol(symbol)) edit(index, symbol);
    else say(`To paste a board, copy ${BOARD_FORMAT}.`, 'error');
  }
});

sizeElement.addEventListener('change', () => {
  drawGrid(sizeElement.value);
  saveToFragment();
  const { rows, cols, size } = shape;
  say(`An empty ${size}x${size} grid, its boxes ${rows} rows by ${cols} columns.`, 'ok');
});
document.getElementById('solve').addEventListener('click', solve);
document.getElementById('validate').addEventListener('click', validate);
document.getElementById('hint').addEventListener('click', hint);
document.getElementById('generate').addEventListener('click', generate);
document.getElementById('daily').addEventListener('click', daily);
document.getElementById('print').addEventListener('click', print);
document.getElementById('load').addEventListener('click', () => {
  if (linkElement.value.trim()) loadShared(linkElement.value);
  else say('Paste a link from f-puzzles, SudokuPad or the Interactive Sudoku Solver into the field first.', 'error');
});
linkElement.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && linkElement.value.trim()) loadShared(linkElement.value);
});
document.getElementById('sudokupad').addEventListener('click', openInSudokuPad);
pencilButton.addEventListener('click', togglePencil);
drawLineButton.addEventListener('click', toggleLine);
signsButton.addEventListener('click', toggleSigns);
for (const rule of WHOLE_GRID_RULES) rule.button.addEventListener('click', () => toggleWholeGridRule(rule));
quadButton.addEventListener('click', toggleQuadruples);
document.getElementById('remove-lines').addEventListener('click', removeLines);
// While a line is drawn, a cell clicked joins it (once); while signs are on, a click cycles the
// sign on the cell's edge nearest to it.
boardElement.addEventListener('click', (event) => {
  const index = cells.indexOf(event.target);
  if (circling && index >= 0) {
    placeQuadruple(Math.floor(index / shape.size), index % shape.size);
    return;
  }
  if (signing && index >= 0) {
    const [x, y] = [event.offsetX / event.target.clientWidth, event.offsetY / event.target.clientHeight];
    const [, step] = [[x, [0, -1]], [1 - x, [0, 1]], [y, [-1, 0]], [1 - y, [1, 0]]].reduce((a, b) => (b[0] < a[0] ? b : a));
    cycleSign(Math.floor(index / shape.size), index % shape.size, step);
    return;
  }
  if (drawing === null || index < 0 || drawing.includes(index)) return;
  drawing.push(index);
  drawRules();
});
variantElement.addEventListener('change', () => {
  rules = null;
  clearMarks();
  drawRules();
  saveToFragment();
  const made = ['jigsaw', 'killer'].includes(variantElement.value);
  say(made ? 'Generate a puzzle: its regions or cages come with it.' : '', made ? 'ok' : '');
});
document.getElementById('example').addEventListener('click', () => {
  variantElement.value = '';
  rules = null;
  drawRules();
  loadBoard(EXAMPLE);
  say('Loaded the example puzzle.', 'ok');
});
document.getElementById('clear').addEventListener('click', () => {
  loadBoard('.'.repeat(cells.length));
  say('');
});
window.addEventListener('hashchange', loadFromFragment);

drawGrid(STARTING_BOX);
loadFromFragment();
