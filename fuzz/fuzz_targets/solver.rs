//! Arbitrary grids through the solver: counts, solutions and every search path agree.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudokud::board::{Board, CELLS};
use sudokud::rules;
use sudokud::solver::{self, Count, EveryNthPoll, Never, Outcome, PollBudget, Progress, SearchPath};

fuzz_target!(|data: &[u8]| {
    let Some((&[setting, polls], cells)) = data.split_first_chunk::<2>() else { return };
    let Some(puzzle) = grid(cells) else { return };
    let limit = usize::from(setting % 3) + 1;

    // Polled at every guess (and never stopped), to count them.
    let mut straight = EveryNthPoll::new(u32::MAX);
    let count = solver::count_solutions(&puzzle, limit, &mut straight).unwrap();
    assert!(count.solutions <= limit);
    assert_eq!(count.solutions > 0, count.first.is_some());
    if let Some(solution) = count.first {
        assert_solution(&puzzle, &solution);
    }
    if !rules::conflicts(&puzzle).is_empty() {
        assert_eq!(count.solutions, 0, "conflicting givens have no solution");
    }
    for path in SearchPath::ALL {
        if let Some(other) = solver::count_solutions_on(path, &puzzle, limit, &mut Progress::default(), &mut Never) {
            assert_eq!(other, Ok(count), "the {path:?} path disagrees");
        }
    }

    // `solve` is a count to 2; smaller limits must agree with it on what they can see.
    let outcome = solver::solve(&puzzle);
    let up_to_two = match outcome {
        Outcome::Unsolvable => Count { solutions: 0, first: None },
        Outcome::Unique(solution) => Count { solutions: 1, first: Some(solution) },
        Outcome::Multiple(solution) => Count { solutions: 2, first: Some(solution) },
    };
    if let Some(solution) = up_to_two.first {
        assert_solution(&puzzle, &solution);
    }
    assert_eq!(count.first, up_to_two.first, "the first solution depends on the limit");
    assert_eq!(count.solutions.min(2), up_to_two.solutions.min(limit), "solve and count disagree");

    // An interrupted search either stops or gives the uninterrupted answer.
    let interrupted = SearchPath::ALL.into_iter().filter_map(|path| {
        solver::count_solutions_on(path, &puzzle, limit, &mut Progress::default(), &mut PollBudget(u32::from(polls)))
    });
    for finished in interrupted.flatten() {
        assert_eq!(finished, count, "an interrupted search gave another answer");
    }

    // A search paused again and again, and each time called again with its progress, ends with
    // the uninterrupted answer on every path: paused up to 64 times (a pause costs a few
    // allocations, and some of these grids take many thousands of guesses).
    let every = 3 + straight.polls() / (1 + u32::from(setting >> 2));
    for path in SearchPath::ALL.into_iter().filter(|path| path.is_supported()) {
        let mut progress = Progress::default();
        let mut pauses = EveryNthPoll::new(every);
        let resumed = loop {
            match solver::count_solutions_on(path, &puzzle, limit, &mut progress, &mut pauses) {
                Some(Ok(count)) => break count,
                Some(Err(_)) => {}
                None => unreachable!("a supported path"),
            }
        };
        assert_eq!(resumed, count, "the {path:?} path, paused and resumed, gave another answer");
    }
});

/// 81 cells from the bytes: a byte 1-9 is that digit, anything else a blank, so most inputs are
/// sparse enough to be solvable.
fn grid(bytes: &[u8]) -> Option<Board> {
    let bytes: &[u8; CELLS] = bytes.get(..CELLS)?.try_into().ok()?;
    Board::from_cells(bytes.map(|byte| if byte <= 9 { byte } else { 0 })).ok()
}

fn assert_solution(puzzle: &Board, solution: &Board) {
    assert!(solution.is_complete());
    assert!(rules::conflicts(solution).is_empty(), "a solution with conflicts");
    let kept = puzzle.cells().iter().zip(solution.cells()).all(|(&given, &cell)| given == 0 || given == cell);
    assert!(kept, "a solution that changes a given");
}
