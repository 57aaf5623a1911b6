//! Arbitrary grids through the logic engine: on proper puzzles the path is sound and the other
//! entry points (rate, rate_within, steps_to_next_placement) agree with explain; on anything
//! else, with any made-up solution, it ends without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudokud::board::{Board, CELLS};
use sudokud::logic::{self, Level, Rating};
use sudokud::rules;
use sudokud::solver::{self, Never, PollBudget};

/// Far more steps and chain polls than a puzzle up to plain dynamic forcing chains needs, so a
/// path that never ends shows up as a fuzzer timeout only when it also stops polling. The
/// forcing-chain searches poll once per candidate they follow, several searches a step: such
/// puzzles take up to about 115,000 polls. The hardest, whose chains nest other searches inside
/// (seconds each, millions of polls), run past it: those are held to ending cheaply below their
/// level instead, so one of them costs the fuzzer about a second, not a minute: the steps of the
/// nested levels are checked against the solution by the tests, not here.
const BUDGET: u32 = 1_000_000;

fuzz_target!(|data: &[u8]| {
    let Some(puzzle) = data.get(..CELLS).and_then(|bytes| grid(bytes, |byte| if byte <= 9 { byte } else { 0 })) else {
        return;
    };
    let count = solver::count_solutions(&puzzle, 2, &mut Never).unwrap();
    match count.first {
        Some(solution) if count.solutions == 1 && rules::conflicts(&puzzle).is_empty() => proper(&puzzle, &solution),
        _ => {
            // Any digits at all as the solution, blanks included.
            let made_up = data.get(CELLS..2 * CELLS).and_then(|bytes| grid(bytes, |byte| byte % 10));
            improper(&puzzle, &made_up.or(count.first).unwrap_or(puzzle));
        }
    }
});

fn proper(puzzle: &Board, solution: &Board) {
    let Ok(explanation) = logic::explain(puzzle, solution, &mut PollBudget(BUDGET)) else {
        let below = logic::rate_within(puzzle, solution, Level::Expert, &mut PollBudget(BUDGET));
        assert_eq!(below, Ok(None), "explaining took more than {BUDGET} polls, yet the puzzle is expert or easier");
        return;
    };
    assert_eq!(explanation.solution, *solution, "the path ends elsewhere");
    assert_eq!(explanation.steps.is_empty(), puzzle.is_complete());
    let mut cells = *puzzle.cells();
    for step in &explanation.steps {
        for placement in &step.placements {
            let index = placement.cell.index();
            assert_eq!(placement.digit.get(), solution.cells()[index], "{step:?} places a wrong digit");
            assert_eq!(cells[index], 0, "{step:?} places on a filled cell");
            cells[index] = placement.digit.get();
        }
        for elimination in &step.eliminations {
            let index = elimination.cell.index();
            assert_ne!(elimination.digit.get(), solution.cells()[index], "{step:?} eliminates the solution digit");
        }
    }
    assert_eq!(cells, *solution.cells(), "the placements do not fill the grid");
    let hint = logic::steps_to_next_placement(puzzle, solution, &mut Never).unwrap();
    let first_placement = explanation.steps.iter().position(|step| !step.placements.is_empty());
    let hinted = first_placement.map_or(explanation.steps.len(), |at| at + 1);
    assert_eq!(hint, explanation.steps[..hinted], "a hint is not the path up to its first placement");

    let rating = logic::rate(puzzle, solution, &mut Never).unwrap();
    assert_eq!(rating, explanation.rating, "rate and explain disagree");
    for level in Level::ALL {
        let within = logic::rate_within(puzzle, solution, level, &mut Never).unwrap();
        let expected: Option<&Rating> = (level >= rating.level).then_some(&rating);
        assert_eq!(within.as_ref(), expected, "rate_within({level}) disagrees with rate");
    }
}

/// Outside the preconditions the answers mean nothing, but each call must end: within a tenth of
/// [`BUDGET`] or by its polls, since garbage can send the chains nesting too.
fn improper(puzzle: &Board, solution: &Board) {
    let budget = || PollBudget(BUDGET / 10);
    let _ = logic::explain(puzzle, solution, &mut budget());
    let _ = logic::rate(puzzle, solution, &mut budget());
    let _ = logic::rate_within(puzzle, solution, Level::Medium, &mut budget());
    let _ = logic::steps_to_next_placement(puzzle, solution, &mut budget());
}

fn grid(bytes: &[u8], cell: impl Fn(u8) -> u8) -> Option<Board> {
    let bytes: &[u8; CELLS] = bytes.try_into().ok()?;
    Board::from_cells(bytes.map(cell)).ok()
}
