//! Property tests of the solver, the text board format and the JSON board formats.
//!
//! Solved grids come from a known solution, or from the solver run on a few random givens, and
//! are then moved around by the Sudoku symmetries (digit relabelling, row and column swaps within
//! bands and stacks, band and stack swaps, transposition), which keep a grid valid. Puzzles blank
//! a random subset of a grid's cells and sometimes overwrite one given, so they cover unique,
//! multiple, unsolvable and invalid boards.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::subsequence;
use sudokud::board::{Board, BoardError, CELLS, Format, FormattedGrid, JsonBoard, Location, Shuffle};
use sudokud::position::Cell;
use sudokud::rules;
use sudokud::sizes::AnyGrid;
use sudokud::solver::{self, Never, Outcome};

use crate::common::oracle;

const KNOWN_SOLUTION: &str = "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

fn board(cells: [u8; CELLS]) -> Board {
    Board::from_cells(cells).expect("cells hold 0-9")
}

/// A permutation of `0..n`.
fn permutation(n: usize) -> impl Strategy<Value = Vec<usize>> {
    Just((0..n).collect::<Vec<_>>()).prop_shuffle()
}

/// A permutation of the nine rows (or columns) that keeps bands (stacks) together: bands are
/// permuted, and rows within each band.
fn line_permutation() -> impl Strategy<Value = Vec<usize>> {
    (permutation(3), [permutation(3), permutation(3), permutation(3)])
        .prop_map(|(bands, within)| (0..9).map(|line| bands[line / 3] * 3 + within[line / 3][line % 3]).collect())
}

/// A validity-preserving transformation of a grid.
#[derive(Clone, Debug)]
struct Symmetry {
    /// `digits[d - 1]` replaces digit `d`.
    digits: Vec<usize>,
    rows: Vec<usize>,
    cols: Vec<usize>,
    transpose: bool,
}

impl Symmetry {
    fn apply(&self, grid: &Board) -> Board {
        let mut cells = [0u8; CELLS];
        for (index, cell) in cells.iter_mut().enumerate() {
            let (row, col) = (self.rows[index / 9], self.cols[index % 9]);
            let value = if self.transpose { grid.get(col, row) } else { grid.get(row, col) };
            *cell = if value == 0 { 0 } else { self.digits[usize::from(value) - 1] as u8 + 1 };
        }
        board(cells)
    }
}

fn symmetry() -> impl Strategy<Value = Symmetry> {
    (permutation(9), line_permutation(), line_permutation(), any::<bool>())
        .prop_map(|(digits, rows, cols, transpose)| Symmetry { digits, rows, cols, transpose })
}

/// A grid the solver completes from up to a dozen random non-conflicting givens, for grids that
/// are not all in the known solution's symmetry class. Seeds without a solution are rejected.
fn seeded_solution() -> impl Strategy<Value = Board> {
    vec((0..CELLS, 1..=9u8), 0..12).prop_filter_map("the random seed has no solution", |placements| {
        let mut cells = [0u8; CELLS];
        for (index, digit) in placements {
            let mut trial = cells;
            trial[index] = digit;
            if rules::conflicts(&board(trial)).is_empty() {
                cells = trial;
            }
        }
        solver::count_solutions(&board(cells), 1, &mut Never).expect("Never does not interrupt").first
    })
}

/// A complete valid grid.
fn solved_grid() -> impl Strategy<Value = Board> {
    let base = prop_oneof![Just(KNOWN_SOLUTION.parse::<Board>().unwrap()), seeded_solution()];
    (base, symmetry()).prop_map(|(grid, symmetry)| symmetry.apply(&grid))
}

/// A puzzle and whether it still has its grid as a solution (false once a given was changed).
#[derive(Clone, Debug)]
struct Puzzle {
    board: Board,
    from_grid: bool,
}

/// A grid with all but `givens` cells blanked; one time in four a given is then overwritten
/// with a random digit, which may break the rules or leave no solution.
fn puzzle(givens: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = Puzzle> {
    let kept = givens.prop_flat_map(|count| subsequence((0..CELLS).collect::<Vec<_>>(), count));
    let corruption = prop_oneof![3 => Just(None), 1 => (any::<prop::sample::Index>(), 1..=9u8).prop_map(Some)];
    (solved_grid(), kept, corruption).prop_map(|(grid, kept, corruption)| {
        let mut cells = [0u8; CELLS];
        for &index in &kept {
            cells[index] = grid.cells()[index];
        }
        let mut from_grid = true;
        if let Some((which, digit)) = corruption.filter(|_| !kept.is_empty()) {
            let index = kept[which.index(kept.len())];
            from_grid = cells[index] == digit;
            cells[index] = digit;
        }
        Puzzle { board: board(cells), from_grid }
    })
}

/// Fails unless `solution` is complete, valid, and agrees with every given of `puzzle`.
fn assert_completes(puzzle: &Board, solution: &Board) -> Result<(), TestCaseError> {
    prop_assert!(solution.is_complete(), "blanks left in {solution}");
    prop_assert!(rules::conflicts(solution).is_empty(), "{solution} breaks the rules");
    for (index, (&given, &value)) in puzzle.cells().iter().zip(solution.cells()).enumerate() {
        prop_assert!(given == 0 || given == value, "cell {index} changed in {solution}");
    }
    Ok(())
}

/// A text cell as `Board::parse_line` reads it: its digit, or `None` for any other character.
fn cell_value(ch: char) -> Option<u8> {
    match ch {
        '1'..='9' => Some(ch as u8 - b'0'),
        '.' | '0' => Some(0),
        _ => None,
    }
}

/// What `Board::parse_line` must return, worked out directly: the first character that is not
/// a cell is the error, unless it or a cell before it is the 82nd; then the error is the count
/// of non-whitespace characters.
fn expected_parse(text: &str) -> Result<Board, BoardError> {
    let mut cells = Vec::with_capacity(CELLS);
    for (offset, ch) in text.char_indices().filter(|(_, ch)| !ch.is_ascii_whitespace()) {
        // Past the 81st cell any character is one too many, a bad one too: there is no cell for
        // it to be bad in.
        if cells.len() == CELLS {
            return Err(BoardError::CellCount { found: text.chars().filter(|ch| !ch.is_ascii_whitespace()).count() });
        }
        let Some(value) = cell_value(ch) else {
            let cell = Cell::from_index(cells.len()).expect("fewer than 81 cells so far");
            let (row, col) = (cell.row().into(), cell.col().into());
            let at = Location::Offset { offset, index: cell.index(), row, col };
            return Err(BoardError::BadCharacter { at, found: ch, size: 9 });
        };
        cells.push(value);
    }
    match <[u8; CELLS]>::try_from(cells) {
        Ok(cells) => Ok(board(cells)),
        Err(cells) => Err(BoardError::CellCount { found: cells.len() }),
    }
}

/// Any board, valid or not: each cell blank or a digit, blanks about half the time.
fn any_board() -> impl Strategy<Value = Board> {
    vec(prop_oneof![Just(0u8), 1..=9u8], CELLS).prop_map(|cells| board(cells.try_into().unwrap()))
}

/// Mostly characters that matter to the parser, so lengths near 81 cells are common.
fn board_like_text() -> impl Strategy<Value = String> {
    "[0-9. \t\r\n\u{b}x]{70,95}"
}

proptest! {
    #[test]
    fn solutions_complete_the_puzzle(puzzle in puzzle(0..=81)) {
        match solver::solve(&puzzle.board) {
            Outcome::Unique(solution) | Outcome::Multiple(solution) => assert_completes(&puzzle.board, &solution)?,
            Outcome::Unsolvable => prop_assert!(!puzzle.from_grid, "{} comes from a grid", puzzle.board),
        }
    }

    /// The oracle is plain backtracking, quick only with many givens, hence 30 or more.
    #[test]
    fn solver_agrees_with_the_oracle(puzzle in puzzle(30..=81)) {
        let expected = oracle::count(&puzzle.board, 2);
        let count = solver::count_solutions(&puzzle.board, 2, &mut Never).unwrap();
        prop_assert_eq!(count.solutions, expected.solutions, "{}", puzzle.board);
        if expected.solutions == 1 {
            prop_assert_eq!(count.first, expected.first);
            prop_assert_eq!(solver::solve(&puzzle.board), Outcome::Unique(expected.first.unwrap()));
        }
    }

    /// A relabeling (what the solver restarts on) keeps a board's rule breaks and its solutions,
    /// mapped one to one, and can be undone.
    #[test]
    fn relabeled_boards_keep_their_solutions(puzzle in puzzle(17..=81), seed in any::<u64>()) {
        let shuffle = Shuffle::from_seed(seed);
        let image = shuffle.apply(&puzzle.board);
        prop_assert_eq!(shuffle.undo(&image), puzzle.board);
        prop_assert_eq!(rules::conflicts(&image).is_empty(), rules::conflicts(&puzzle.board).is_empty());
        let count = solver::count_solutions(&puzzle.board, 3, &mut Never).unwrap();
        let image_count = solver::count_solutions(&image, 3, &mut Never).unwrap();
        prop_assert_eq!(image_count.solutions, count.solutions);
        if count.solutions == 1 {
            prop_assert_eq!(image_count.first, count.first.map(|solution| shuffle.apply(&solution)));
        }
    }

    /// Counting to `limit` gives min(true count, limit): a smaller limit truncates a larger
    /// one's count and never goes past itself.
    #[test]
    fn count_never_exceeds_its_limit(puzzle in puzzle(20..=81), limit in 0..12usize, extra in 1..8usize) {
        let count = solver::count_solutions(&puzzle.board, limit, &mut Never).unwrap();
        let more = solver::count_solutions(&puzzle.board, limit + extra, &mut Never).unwrap();
        prop_assert!(count.solutions <= limit);
        prop_assert!(more.solutions <= limit + extra);
        prop_assert_eq!(count.solutions, more.solutions.min(limit));
        prop_assert_eq!(count.first.is_some(), count.solutions > 0);
        if limit > 0 {
            prop_assert_eq!(count.first, more.first, "the first solution depends on the limit");
        }
        if let Some(first) = count.first {
            assert_completes(&puzzle.board, &first)?;
        }
        if puzzle.from_grid && limit > 0 {
            prop_assert!(count.solutions >= 1);
        }
    }

    #[test]
    fn text_round_trips(board in any_board()) {
        let line = board.to_string();
        prop_assert_eq!(line.len(), CELLS);
        prop_assert_eq!(Board::parse_line(&line), Ok(board));
        prop_assert_eq!(line.parse::<Board>(), Ok(board));
        prop_assert_eq!(Board::parse_line(&line.replace('.', "0")), Ok(board));
    }

    #[test]
    fn text_round_trips_with_whitespace(
        board in any_board(),
        gaps in vec((0..=CELLS, "[ \t\r\n]{1,3}"), 0..20),
        zeros in any::<bool>(),
    ) {
        let mut text: Vec<String> = board.to_string().chars().map(String::from).collect();
        if zeros {
            text.iter_mut().filter(|cell| *cell == ".").for_each(|cell| *cell = "0".into());
        }
        // Insert from the back so earlier positions stay where they were.
        let mut gaps = gaps;
        gaps.sort_by_key(|&(at, _)| std::cmp::Reverse(at));
        for (at, space) in gaps {
            text.insert(at, space);
        }
        prop_assert_eq!(Board::parse_line(&text.concat()), Ok(board));
    }

    #[test]
    fn parsing_any_text_matches_the_rules(text in prop_oneof![any::<String>(), board_like_text()]) {
        let parsed = Board::parse_line(&text);
        let cells = text.chars().filter(|ch| !ch.is_ascii_whitespace()).count();
        if cells != CELLS {
            prop_assert!(parsed.is_err(), "{} cells accepted", cells);
        }
        prop_assert_eq!(parsed, expected_parse(&text));
    }

    #[test]
    fn json_round_trips_in_every_format(board in any_board(), pretty in any::<bool>()) {
        for format in [Format::Strings, Format::Text, Format::Numbers] {
            let written = FormattedGrid { grid: AnyGrid::Classic(board), format };
            let json = if pretty { serde_json::to_string_pretty(&written) } else { serde_json::to_string(&written) };
            let json = json.unwrap();
            let read: JsonBoard = serde_json::from_str(&json).unwrap();
            prop_assert_eq!(read.with_box(None), Ok((AnyGrid::Classic(board), format)), "{}", json);
        }
    }
}

/// The strategies themselves: a broken grid generator would make the properties vacuous.
#[test]
fn generated_grids_are_solved_and_valid() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    let mut runner = TestRunner::deterministic();
    for _ in 0..64 {
        let grid = solved_grid().new_tree(&mut runner).unwrap().current();
        assert!(grid.is_complete(), "{grid}");
        assert!(rules::conflicts(&grid).is_empty(), "{grid}");
    }
}
