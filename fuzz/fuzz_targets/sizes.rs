//! Arbitrary text as a grid of any size: read as `sudokud solve` reads a line, then classified
//! under a poll budget; every verdict is checked by the rules, and classic grids by the 9x9 solver.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudokud::search::classify_grid;
use sudokud::sizes::{Grid, Shape, rules};
use sudokud::solver::{PollBudget, Verdict};

fuzz_target!(|data: &[u8]| {
    let Some((&[shape_choice, polls], text)) = data.split_first_chunk::<2>() else { return };
    // 0 for the size's default box, else one of the 16 shapes.
    let shape = Shape::all().nth(usize::from(shape_choice % 17).wrapping_sub(1));
    let text = String::from_utf8_lossy(text);
    let Ok(puzzle) = Grid::parse(&text, shape) else { return };
    assert_eq!(Grid::parse(&puzzle.to_string(), Some(puzzle.shape())).as_ref(), Ok(&puzzle), "text round trip");

    let conflicts = rules::conflicts(&puzzle);
    let Ok(verdict) = classify_grid(&puzzle, &mut PollBudget(u32::from(polls % 8) + 1)) else { return };
    match &verdict {
        Verdict::Unique(solution) | Verdict::Multiple(solution) => {
            assert!(conflicts.is_empty(), "a solution despite conflicting givens");
            assert_solution(&puzzle, solution);
        }
        Verdict::Conflicting(found) => assert_eq!(found, &conflicts),
        Verdict::Unsolvable => assert!(conflicts.is_empty()),
    }
    if let Some(board) = puzzle.to_board() {
        let classic = sudokud::solver::classify(&board, &mut sudokud::solver::Never).unwrap();
        let same = match (&classic, &verdict) {
            (Verdict::Unique(a), Verdict::Unique(b)) => Grid::from(a) == *b,
            (Verdict::Multiple(_), Verdict::Multiple(_)) => true,
            (Verdict::Unsolvable, Verdict::Unsolvable) => true,
            (Verdict::Conflicting(a), Verdict::Conflicting(b)) => a.len() == b.len(),
            _ => false,
        };
        assert!(same, "the 9x9 solver says {classic:?}, the sizes solver {verdict:?}");
    }
});

/// `solution` is complete, keeps every given and repeats no value in any house.
fn assert_solution(puzzle: &Grid, solution: &Grid) {
    assert_eq!(solution.shape(), puzzle.shape());
    assert!(solution.is_complete());
    assert!(rules::conflicts(solution).is_empty(), "{solution:?} breaks the rules");
    for (given, value) in puzzle.cells().iter().zip(solution.cells()) {
        assert!(*given == 0 || given == value, "{solution:?} changes a given of {puzzle:?}");
    }
}
