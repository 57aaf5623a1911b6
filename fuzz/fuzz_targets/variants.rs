//! Arbitrary bytes as a variant: a shape, rules and constraints read from the bytes (cages,
//! thermometers, dots, X and V marks, greater-than signs, whispers lines, palindromes, renban
//! lines, arrows, little killers, between lines, parity cells and givens anywhere, in or out of the
//! grid, disjoint groups, on the boxes or beside a jigsaw that has none, quadruples, sandwiches
//! and X-sums beside any row or column or none, lockout lines, modular and entropic lines, global
//! entropy and global mod, anti-taxicab, and custom relations), checked, then counted under a
//! poll budget. A misfit must be refused, never panic; every solution found must keep the givens
//! and break no rule; a puzzle without solutions is unsolvable or names the conflicts the rules
//! find. Every accepted puzzle is also drawn, with its pencil marks, in each format (a 100-pixel
//! PNG): the drawing must never panic, whatever the cages, thermometers, dots, marks, signs,
//! lines and clues outside the grid.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudokud::puzzle::Puzzle;
use sudokud::render::{self, Figure, ImageFormat, Paper};
use sudokud::sizes::{AnyGrid, Grid, Shape};
use sudokud::solver::{PollBudget, Verdict};
use sudokud::variants::{
    Arrow, Between, Cage, Constraints, CustomRelation, Diagonals, DigitPair, Direction, End, GreaterThan, LittleKiller,
    LockoutLine, Place, Preset, Quadruple, RegionId, Regions, Sandwich, Whispers, XSum,
};

fuzz_target!(|data: &[u8]| {
    let Some((&[shape_choice, polls, flags], mut ops)) = data.split_first_chunk::<3>() else { return };
    let shape = Shape::all().nth(usize::from(shape_choice) % 16).expect("16 shapes");
    let size = shape.size() as u64;
    // Places may fall just outside the grid, to reach the checks.
    let place = |byte: u8, other: u8| Place(u64::from(byte) % (size + 1), u64::from(other) % (size + 1));
    let mut constraints = Constraints {
        diagonals: [None, Some(Diagonals::Main), Some(Diagonals::Anti), Some(Diagonals::Both)][usize::from(flags & 3)],
        anti_knight: flags & 4 != 0,
        anti_king: flags & 8 != 0,
        non_consecutive: flags & 16 != 0,
        ..Constraints::default()
    };
    constraints.kropki.all_given = flags & 32 != 0;
    constraints.xv.all_given = flags & 128 != 0;
    let preset = (flags & 64 != 0).then_some(Preset::Windoku);
    let mut cells = vec![0u8; shape.cells()];
    while let Some((&[op, a, b, c], rest)) = ops.split_first_chunk::<4>() {
        ops = rest;
        let at = place(a, b);
        // The cell beside `at`: below or to the right.
        let beside = Place(at.0 + u64::from(c % 2), at.1 + u64::from(1 - c % 2));
        // For a clue beside a line: `at`'s row or column (or a line just off the grid, or both or
        // neither named), at either end.
        let (row, column) = match c % 4 {
            0 => (Some(at.0), None),
            1 => (None, Some(at.1)),
            2 => (Some(at.0), Some(at.1)),
            _ => (None, None),
        };
        let beside_line = (row, column, if op & 0x80 != 0 { End::End } else { End::Start });
        match op % 35 {
            0 => {
                // A cage of up to 8 cells walking right and down from `at`.
                let cells: Vec<Place> =
                    (0..u64::from(c % 8) + 1).map(|step| Place(at.0 + step / 2, at.1 + step % 2)).collect();
                let sum = (op & 0x80 != 0).then_some(u64::from(c));
                constraints.cages.push(Cage { cells, sum });
            }
            1 => {
                constraints.thermometers.push((0..u64::from(c % 5) + 1).map(|step| Place(at.0, at.1 + step)).collect())
            }
            2 => constraints.kropki.white.push([at, beside]),
            3 => constraints.kropki.black.push([at, beside]),
            4 => constraints.even.push(at),
            5 => constraints.odd.push(at),
            6 => constraints.xv.x.push([at, beside]),
            7 => constraints.xv.v.push([at, beside]),
            8 => {
                // A whispers line of 1 to 4 cells walking down and right from `at`, with any
                // difference up to 15 (most of them too large or 0) or none.
                let line = (0..u64::from(c % 4) + 1).map(|step| Place(at.0 + step, at.1 + step % 2)).collect();
                let difference = (op & 0x80 != 0).then_some(u64::from(c >> 4));
                constraints.whispers.push(Whispers { line, difference });
            }
            9 => {
                // A palindrome of 1 to 4 cells, the same walk: mirrored cells often share a house.
                constraints
                    .palindromes
                    .push((0..u64::from(c % 4) + 1).map(|step| Place(at.0 + step, at.1 + step % 2)).collect())
            }
            10 => {
                // A renban line of 1 to 16 cells, the same walk: long ones are refused on small grids.
                constraints
                    .renbans
                    .push((0..u64::from(c % 16) + 1).map(|step| Place(at.0 + step, at.1 + step % 2)).collect())
            }
            11 => {
                // An arrow: a bulb of 1 to 4 cells along the row, a shaft of 1 to 8 walking down.
                let bulb = (0..u64::from(c % 4) + 1).map(|step| Place(at.0, at.1 + step)).collect();
                let line = (1..u64::from(c >> 4) % 8 + 2).map(|step| Place(at.0 + step, at.1 + step % 2)).collect();
                constraints.arrows.push(Arrow { bulb, line });
            }
            12 => {
                // A greater-than sign between `at` and the cell beside it, either way round.
                let (greater, less) = if op & 0x80 != 0 { (beside, at) } else { (at, beside) };
                constraints.greater_than.push(GreaterThan { greater, less });
            }
            13 => {
                // A little killer from `at` any way, of a sum up to 63: many start off the edge or
                // sum past their cells' reach.
                let ways = [Direction::DownRight, Direction::DownLeft, Direction::UpRight, Direction::UpLeft];
                let direction = ways[usize::from(c % 4)];
                constraints.little_killers.push(LittleKiller { sum: u64::from(c >> 2), start: at, direction });
            }
            14 => {
                // A between line of 1 to 8 cells, the same walk as a whispers line: too short ones
                // are refused, long ones leave their circles far apart.
                constraints
                    .between_lines
                    .push((0..u64::from(c % 8) + 1).map(|step| Place(at.0 + step, at.1 + step % 2)).collect())
            }
            15 => {
                // Disjoint groups; with the high bit, beside a jigsaw whose regions are the rows,
                // which has no boxes to group by.
                constraints.disjoint_groups = true;
                if op & 0x80 != 0 {
                    let rows = (0..size).map(|row| vec![RegionId(row); size as usize]);
                    constraints.regions = Some(Regions::Rows(rows.collect()));
                }
            }
            16 => {
                // A quadruple on the corner below and right of `at`, of up to four digits from
                // `c`'s nibbles and `op`'s top bits (0 and past N included, to reach the checks).
                let digits = [c & 15, c >> 4, op >> 5, (op >> 5) ^ (c & 7)];
                let count = 1 + usize::from(b % 4);
                constraints
                    .quadruples
                    .push(Quadruple { top_left: at, digits: digits[..count].iter().map(|&d| u64::from(d)).collect() });
            }
            18 => {
                // A sandwich of a sum up to 255: many past the digits' reach.
                let (row, column, from) = beside_line;
                constraints.sandwiches.push(Sandwich { sum: u64::from(b), row, column, from });
            }
            19 => {
                // An X-sum of a sum up to 255, 0 and 2 (no first digit's) included.
                let (row, column, from) = beside_line;
                constraints.x_sums.push(XSum { sum: u64::from(b), row, column, from });
            }
            21 => {
                // A lockout line of 1 to 8 cells, the same walk, with any difference up to 15 (0
                // and past N - 1 to reach the checks) or none.
                let line = (0..u64::from(c % 8) + 1).map(|step| Place(at.0 + step, at.1 + step % 2)).collect();
                let difference = (op & 0x80 != 0).then_some(u64::from(c >> 4));
                constraints.lockout_lines.push(LockoutLine { line, difference });
            }
            25 | 26 => {
                // A modular (25) or entropic (26) line of 1 to 8 cells, the same walk as a
                // whispers line: refused on grids whose size 3 does not divide.
                let line = (0..u64::from(c % 8) + 1).map(|step| Place(at.0 + step, at.1 + step % 2)).collect();
                if op % 35 == 25 { constraints.modular_lines.push(line) } else { constraints.entropic_lines.push(line) }
            }
            33 | 34 => {
                // A custom relation (33: each cell and the next, 34: every two) over 1 to 8
                // cells, the same walk: a pair of digits from the bytes (0 and N + 1 to reach the
                // checks), and with the top bit every two digits apart by 1 to 3.
                let cells = (0..u64::from(c % 8) + 1).map(|step| Place(at.0 + step, at.1 + step % 2)).collect();
                let between = if op % 35 == 33 { Between::Neighbours } else { Between::EveryTwo };
                let mut allowed = vec![DigitPair(u64::from(a) % (size + 2), u64::from(b) % (size + 2))];
                if op & 0x80 != 0 {
                    let apart = u64::from(c >> 3) % 3 + 1;
                    let digits = (1..=size).flat_map(|first| (1..=size).map(move |second| (first, second)));
                    allowed.extend(
                        digits
                            .filter(|(first, second)| first.abs_diff(*second) == apart)
                            .map(|(first, second)| DigitPair(first, second)),
                    );
                }
                let name = (c & 0x40 != 0).then(|| "fuzz".to_owned());
                constraints.relations.push(CustomRelation { cells, between, allowed, name });
            }
            // Global entropy (29) and global mod (30): refused on grids whose size 3 does not
            // divide.
            29 => constraints.global_entropy = true,
            30 => constraints.global_mod = true,
            // Anti-taxicab: a related pair for every two cells a digit apart that share no house.
            31 => constraints.anti_taxicab = true,
            _ => {
                if at.0 < size && at.1 < size {
                    cells[(at.0 * size + at.1) as usize] = c % (size as u8 + 1);
                }
            }
        }
    }
    let grid = Grid::new(shape, cells).expect("values 0 to N");
    let Ok(puzzle) = Puzzle::new(AnyGrid::Sized(grid.clone()), preset, &constraints) else { return };
    // No rules at all is the classic puzzle, fuzzed by `sizes`.
    let Some(variant) = puzzle.variant().cloned() else { return };
    let marks = puzzle.candidates();
    let figure = Figure { puzzle: &puzzle, solution: None, marks: Some(&marks), title: Some("Fuzz"), caption: None };
    for (format, magic) in
        [(ImageFormat::Svg, &b"<svg"[..]), (ImageFormat::Png, b"\x89PNG"), (ImageFormat::Pdf, b"%PDF-")]
    {
        let drawn = render::render(&figure, format, 100, Paper::A4);
        assert!(drawn.starts_with(magic), "{format} drawing of {grid}");
    }
    let conflicts = variant.conflicts(&grid);
    let Ok(verdict) = puzzle.classify(&mut PollBudget(u32::from(polls % 8) + 1)) else { return };
    match verdict {
        Verdict::Unique(solution) | Verdict::Multiple(solution) => {
            let solution = Grid::from(solution);
            assert!(conflicts.is_empty(), "a solution despite conflicts {conflicts:?}");
            assert!(solution.is_complete());
            assert_eq!(variant.conflicts(&solution), [], "{solution} breaks the rules");
            for (given, value) in grid.cells().iter().zip(solution.cells()) {
                assert!(*given == 0 || given == value, "{solution} changes a given of {grid}");
            }
        }
        Verdict::Conflicting(found) => assert_eq!(found, conflicts),
        Verdict::Unsolvable => assert!(conflicts.is_empty()),
    }
});
