//! The pencil marks (`sudokud_model::marks`) as the engines fill and check them: the candidates
//! of puzzles of every shape and variant, and a player's mistakes against a solution.

use super::*;
use crate::board::{EXAMPLE_PUZZLE, EXAMPLE_SOLUTION};
use crate::position::GridCell;
use crate::puzzle::Puzzle;
use crate::variants::{Constraints, Preset};

fn classic(line: &str) -> Puzzle {
    Puzzle::new(AnyGrid::parse(line, None).unwrap(), None, &Constraints::default()).unwrap()
}

/// The naive oracle: a blank cell's candidates are the values 1-9 missing from its row,
/// column and box, by index arithmetic alone.
fn naive_candidates(line: &str, cell: usize) -> Vec<u8> {
    let cells = line.as_bytes();
    let (row, col) = (cell / 9, cell % 9);
    let seen = |value: u8| {
        (0..81).any(|other: usize| {
            let (r, c) = (other / 9, other % 9);
            let peer = r == row || c == col || (r / 3 == row / 3 && c / 3 == col / 3);
            peer && cells[other] == b'0' + value
        })
    };
    (1..=9).filter(|&value| !seen(value)).collect()
}

#[test]
fn basic_candidates_are_the_values_no_peer_holds() {
    let puzzle = classic(EXAMPLE_PUZZLE);
    let marks = puzzle.candidates();
    for cell in 0..81 {
        let listed: Vec<u8> = marks.values(cell).collect();
        if EXAMPLE_PUZZLE.as_bytes()[cell] == b'.' {
            assert_eq!(listed, naive_candidates(EXAMPLE_PUZZLE, cell), "cell {cell}");
        } else {
            assert!(listed.is_empty(), "cell {cell} is filled");
        }
    }
    // r1c3 (row 0, col 2) of the LeetCode example: 1, 2 and 4 are left.
    assert_eq!(marks.values(2).collect::<Vec<_>>(), [1, 2, 4]);
}

#[test]
fn the_line_form_is_729_characters_with_filled_cells_as_their_value() {
    let grid = AnyGrid::parse(EXAMPLE_PUZZLE, None).unwrap();
    let line = classic(EXAMPLE_PUZZLE).candidates().to_line(&grid);
    assert_eq!(line.len(), 729);
    // r1c1 holds 5; r1c3 may be 1, 2 or 4.
    assert_eq!(&line[..9], "....5....");
    assert_eq!(&line[18..27], "12.4.....");
    // Read back, a filled cell is one mark: its value.
    let read = Marks::parse_line(&line, Shape::CLASSIC).unwrap();
    assert_eq!(read.values(0).collect::<Vec<_>>(), [5]);
    assert_eq!(read.values(2).collect::<Vec<_>>(), [1, 2, 4]);
}

#[test]
fn a_solved_grid_reads_back_as_its_values() {
    let grid = AnyGrid::parse(EXAMPLE_SOLUTION, None).unwrap();
    let line = classic(EXAMPLE_SOLUTION).candidates().to_line(&grid);
    let read = Marks::parse_line(&line, Shape::CLASSIC).unwrap();
    let values: String =
        (0..81).map(|cell| read.values(cell).map(|v| (b'0' + v) as char).collect::<String>()).collect();
    assert_eq!(values, EXAMPLE_SOLUTION);
}

#[test]
fn other_sizes_and_variants_use_their_own_symbols_and_peers() {
    // 16x16: each cell has 16 places, 'A' to 'G' past 9.
    let empty = Puzzle::new(AnyGrid::parse(&".".repeat(256), None).unwrap(), None, &Constraints::default()).unwrap();
    let line = empty.candidates().to_line(&empty.grid());
    assert_eq!(line.len(), 4096);
    assert_eq!(&line[..16], "123456789ABCDEFG");
    // The X variant: the centre's 5 leaves every cell of both diagonals without 5.
    let centre = format!("{}5{}", ".".repeat(40), ".".repeat(40));
    let x = Puzzle::new(AnyGrid::parse(&centre, None).unwrap(), Some(Preset::X), &Constraints::default()).unwrap();
    let marks = x.candidates();
    assert!(!marks.values(0).any(|value| value == 5), "r1c1 is on the centre's diagonal");
    assert!(marks.values(1).any(|value| value == 5), "r1c2 is not");
    assert!(classic(&centre).candidates().values(0).any(|value| value == 5));
}

#[test]
fn lines_that_are_not_pencil_marks_are_refused_with_the_place() {
    assert_eq!(Marks::parse_line("123", Shape::CLASSIC), Err(MarksError::Length { found: 3, size: 9 }));
    let mut line = ".".repeat(729);
    line.replace_range(10..11, "5");
    let error = Marks::parse_line(&line, Shape::CLASSIC).unwrap_err();
    assert_eq!(error, MarksError::Character { index: 10, found: '5', row: 0, col: 1, value: 2 });
    assert_eq!(error.to_string(), "character 10 ('5', row 0, col 1): expected '2' or '.'");
    // Whitespace is skipped and 0 is a blank place.
    let spaced = format!("{} 0{}", "1".to_owned() + &".".repeat(8), &".".repeat(719));
    assert_eq!(Marks::parse_line(&spaced, Shape::CLASSIC).unwrap().values(0).collect::<Vec<_>>(), [1]);
}

#[test]
fn a_line_s_length_tells_the_shape_of_its_marks() {
    assert_eq!(Marks::line_shape(729, None), Some(Shape::CLASSIC));
    assert_eq!(Marks::line_shape(216, None), Shape::new(2, 3));
    assert_eq!(Marks::line_shape(4096, None), Shape::new(4, 4));
    assert_eq!(Marks::line_shape(729, Some(Shape::CLASSIC)), Some(Shape::CLASSIC));
    assert_eq!(Marks::line_shape(216, Shape::new(3, 2)), Shape::new(3, 2));
    assert_eq!(Marks::line_shape(729, Shape::new(2, 3)), None);
    // Boards' cell counts are no marks; 64 is an 8x8 board unless the box is 2x2.
    assert_eq!(Marks::line_shape(81, None), None);
    assert_eq!(Marks::line_shape(728, None), None);
    assert_eq!(Marks::line_shape(64, None), None);
    assert_eq!(Marks::line_shape(64, Shape::new(2, 4)), None);
    assert_eq!(Marks::line_shape(64, Shape::new(2, 2)), Shape::new(2, 2));
}

#[test]
fn placed_values_are_the_cells_with_one_candidate() {
    // r1c1 holds 1; r1c2 may be 2 or 3; r1c3 has no candidate left; the rest are open.
    let line = format!("1....23.....{}", "1234".repeat(13));
    let marks = Marks::parse_line(&line, Shape::new(2, 2).unwrap()).unwrap();
    let placed = marks.placed();
    assert_eq!(placed.to_string(), "1...............");
    assert_eq!(placed.shape(), Shape::new(2, 2).unwrap());
    // A 9x9 position becomes the classic board: the givens, and the cells whose basic
    // candidates are one value (naked singles), as the line POST /v1/candidates writes.
    let grid = AnyGrid::parse(EXAMPLE_PUZZLE, None).unwrap();
    let basic = classic(EXAMPLE_PUZZLE).candidates();
    let placed = Marks::parse_line(&basic.to_line(&grid), Shape::CLASSIC).unwrap().placed();
    assert!(matches!(placed, AnyGrid::Classic(_)));
    for (cell, (&value, &given)) in placed.cells().iter().zip(grid.cells()).enumerate() {
        let single = basic.values(cell).collect::<Vec<_>>();
        let expected = if given != 0 {
            given
        } else if let [only] = single[..] {
            only
        } else {
            0
        };
        assert_eq!(value, expected, "cell {cell}");
    }
    assert!(
        placed.cells().iter().filter(|&&value| value != 0).count()
            > grid.cells().iter().filter(|&&value| value != 0).count()
    );
}

#[test]
fn keep_only_leaves_the_values_both_marks_keep() {
    let shape = Shape::new(2, 2).unwrap();
    let mut basic = Marks::parse_line(&"1234".repeat(16), shape).unwrap();
    let player = Marks::parse_line(&format!(".2.4{}", "12..".repeat(15)), shape).unwrap();
    basic.keep_only(&player);
    assert_eq!(basic, player);
    let mut none = Marks::parse_line(&".".repeat(64), shape).unwrap();
    none.keep_only(&player);
    assert_eq!(none.values(0).count(), 0);
}

#[test]
fn mistakes_are_the_blank_cells_whose_marks_lost_the_solutions_value() {
    let puzzle = classic(EXAMPLE_PUZZLE);
    let solution = AnyGrid::parse(EXAMPLE_SOLUTION, None).unwrap();
    let candidates = puzzle.candidates();
    assert!(candidates.mistakes(&puzzle.grid(), &solution).is_empty());
    // r1c3 (index 2) is 4 in the solution; r1c1 (index 0) is a given, whose marks are not read.
    let mut cells: Vec<u32> = (0..81).map(|cell| candidates.set(cell)).collect();
    cells[2] &= !(1 << 3);
    cells[0] = 0;
    let marks = Marks::new(Shape::CLASSIC, cells);
    let mistakes = marks.mistakes(&puzzle.grid(), &solution);
    assert_eq!(mistakes.len(), 1);
    assert_eq!((mistakes[0].cell, mistakes[0].value), (GridCell { row: 0, col: 2 }, 4));
    assert_eq!(mistakes[0].message, "r1c3: 4 was crossed out, but the solution has it there");
}

#[test]
fn json_marks_read_both_forms_against_the_board() {
    let grid = AnyGrid::parse(&".".repeat(16), None).unwrap();
    let read = |json: &str| serde_json::from_str::<JsonMarks>(json).unwrap().for_grid(&grid);
    let rows = r#"[[[1,2],[],[3],[4]],[[],[],[],[]],[[],[],[],[]],[[],[],[],[]]]"#;
    let marks = read(rows).unwrap();
    assert_eq!(marks.values(0).collect::<Vec<_>>(), [1, 2]);
    assert_eq!(marks.values(3).collect::<Vec<_>>(), [4]);
    assert_eq!(read(&format!("\"12..{}\"", ".".repeat(60))).unwrap().values(0).collect::<Vec<_>>(), [1, 2]);
    assert_eq!(read("[[[1]]]"), Err(MarksError::Rows { found: 1, size: 4 }));
    assert_eq!(read("[[],[],[],[]]"), Err(MarksError::RowLength { row: 0, found: 0, size: 4 }));
    let five = r#"[[[5],[],[],[]],[[],[],[],[]],[[],[],[],[]],[[],[],[],[]]]"#;
    assert_eq!(read(five), Err(MarksError::Value { row: 0, col: 0, found: 5, size: 4 }));
    assert!(serde_json::from_str::<JsonMarks>("5").unwrap_err().to_string().contains("expected pencil marks"));
}
