//! Human-style solving: the techniques a person uses, a step at a time, to explain a puzzle, hint
//! the next move and rate its difficulty.
//!
//! Each round takes the first technique, in Sudoku Explainer's order ([`Technique::ALL`]), that
//! changes the candidate grid, and a technique with many patterns its easiest; a step rates by
//! itself (a chain by its length too), so a puzzle's [`Rating`] is the hardest step a solver that
//! always prefers easy steps must take. When nothing applies the step is
//! [`Technique::BruteForce`]: a digit copied from the solution, which marks the puzzle as needing
//! search. The candidate grid lives in `grid.rs`; `step.rs` has the types callers see (their
//! cells, houses and digits are [`crate::position`]'s); the techniques are in `techniques/`, one
//! file per family.
//!
//! Callers check the preconditions first: no conflicting givens, exactly one solution, and
//! `solution` is it (uniqueness rectangles rely on it). On other input the functions still end
//! and never panic, but their answer means nothing.
//!
//! ```
//! use sudokud_core::board::Board;
//! use sudokud_core::logic::{self, Level};
//! use sudokud_core::solver::{self, Never, Outcome};
//!
//! let puzzle: Board = sudokud_core::board::EXAMPLE_PUZZLE.parse()?;
//! let Outcome::Unique(solution) = solver::solve(&puzzle) else { panic!("one solution expected") };
//! let hint = logic::steps_to_next_placement(&puzzle, &solution, &mut Never)?;
//! assert_eq!(hint.len(), 1, "a placement right away, with no elimination before it");
//! assert_eq!(hint[0].explanation, "In box 2, 8 fits only in r1c6, so r1c6 = 8.");
//! let rating = logic::rate(&puzzle, &solution, &mut Never)?;
//! assert_eq!((rating.level, rating.solved_by_logic), (Level::Easy, true));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::ops::ControlFlow;

use serde::Serialize;

use crate::board::Board;
use crate::interrupt::{Interrupt, Interrupted};
use crate::member::{Choice, choice_traits};
use sudokud_model::marks::Marks;

mod cells;
mod geometry;
mod grid;
pub mod sized;
pub(crate) mod step;
mod techniques;

pub use step::{Step, Technique};

use geometry::Geometry;
use grid::Grid;
use step::Deduction;
pub(crate) use techniques::trace_chain;

/// The 9x9 engine's grid and finders, the oracle the grid-size engine's tests check their
/// chains against.
#[cfg(test)]
pub(crate) mod oracle {
    pub(crate) use super::grid::Grid;
    pub(crate) use super::techniques::describe;
    pub(crate) use super::techniques::testing::{run_alone as run, sparse};
}

/// Difficulty levels, each a band of ratings (see [`Level::range`]). By name in JSON, both
/// ways, and on the command line, so a request can name the level it wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Singles only (rating up to 2.3).
    Easy,
    /// Up to locked candidates, naked pairs, X-Wings and hidden pairs (up to 3.4).
    Medium,
    /// Up to triples, swordfish, XY- and XYZ-Wings and UR type 1 (up to 4.6).
    Hard,
    /// Up to quads, jellyfish and chains (up to 7.0).
    Expert,
    /// Harder than 7.0, or not solvable by these techniques (brute force needed).
    Extreme,
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 5] = [Level::Easy, Level::Medium, Level::Hard, Level::Expert, Level::Extreme];

    /// The level of a puzzle with this rating. A puzzle logic cannot finish is extreme
    /// whatever its rating.
    pub fn of(rating: f32, solved_by_logic: bool) -> Level {
        if !solved_by_logic {
            return Level::Extreme;
        }
        Level::ALL.into_iter().find(|level| rating <= level.range().1).unwrap_or(Level::Extreme)
    }

    /// The ratings of the level as `(low, high)`: a rating `r` is in it when `low < r <= high`.
    ///
    /// The boundaries sit on technique ratings: easy ends at the naked single (2.3), medium at
    /// the hidden pair (3.4), hard at 4.6 (just above the 4.5 of UR type 1, so
    /// every technique rated 4.x is hard), expert at the XY-chain (7.0). Extreme is everything
    /// above, up to brute force's 12.0.
    pub fn range(self) -> (f32, f32) {
        match self {
            Level::Easy => (0.0, 2.3),
            Level::Medium => (2.3, 3.4),
            Level::Hard => (3.4, 4.6),
            Level::Expert => (4.6, 7.0),
            Level::Extreme => (7.0, 12.0),
        }
    }
}

impl Choice for Level {
    const KIND: &'static str = "level";
    const ALL: &'static [Level] = &Level::ALL;

    fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
            Level::Extreme => "extreme",
        }
    }
}

choice_traits!(Level);

/// How hard a puzzle is for a person.
///
/// A rating cut short by its deadline ([`Rating::exact`] false) is a lower bound, not an error:
/// the steps taken until then are part of the path, and the step being looked for when time ran
/// out is at least as hard as the easiest technique not yet ruled out for it. A caller that
/// asks again gets the same bound, so it is the answer rather than a reason to retry.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// Sudoku Explainer scale: the rating of the hardest step taken (0.0 for a full board); when
    /// not `exact`, the least the rating can be.
    pub rating: f32,
    /// The level of `rating` (extreme when brute force was needed); when not `exact`, the least
    /// the level can be.
    pub level: Level,
    /// Whether the techniques alone solved it, with no brute-force step (false when not
    /// `exact`: not known).
    pub solved_by_logic: bool,
    /// False when the deadline cut the path short: `rating` and `level` are then lower bounds.
    pub exact: bool,
    /// How often each technique was used, in [`Technique::ALL`] order, only those used (when not
    /// `exact`, on the steps taken before the deadline).
    pub techniques: Vec<TechniqueCount>,
}

impl Rating {
    /// The rating of a path that took `counts[t]` steps of each technique `t` (indexed by
    /// `Technique as usize`): its hardest technique's, extreme whenever brute force was needed
    /// or the path stopped short (`completed` false).
    pub(crate) fn of_path(counts: &[u32; Technique::ALL.len()], completed: bool) -> Rating {
        let hardest = Technique::ALL.iter().filter(|&&technique| counts[technique as usize] > 0);
        Rating::of_steps(counts, hardest.map(|technique| technique.rating()).fold(0.0, f32::max), completed)
    }

    /// [`Rating::of_path`] for a path whose hardest step rated `hardest`: a chain's rating grows
    /// with its length, so a step may rate above its technique's base.
    pub(crate) fn of_steps(counts: &[u32; Technique::ALL.len()], hardest: f32, completed: bool) -> Rating {
        let solved_by_logic = completed && counts[Technique::BruteForce as usize] == 0;
        let techniques: Vec<TechniqueCount> = Technique::ALL
            .into_iter()
            .zip(counts.iter().copied())
            .filter(|&(_, count)| count > 0)
            .map(|(technique, count)| TechniqueCount { technique, count })
            .collect();
        let rating = hardest;
        Rating { rating, level: Level::of(rating, solved_by_logic), solved_by_logic, exact: true, techniques }
    }

    /// The lower bound of a path cut short after `counts` steps (their hardest rated `hardest`)
    /// while looking for a step rated at least `next`.
    pub(crate) fn at_least(counts: &[u32; Technique::ALL.len()], hardest: f32, next: f32) -> Rating {
        let rating = hardest.max(next);
        Rating {
            level: Level::of(rating, true),
            solved_by_logic: false,
            exact: false,
            ..Rating::of_steps(counts, rating, false)
        }
    }
}

/// How many steps of one technique a solving path took.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TechniqueCount {
    /// The technique.
    pub technique: Technique,
    /// Number of steps.
    pub count: u32,
}

/// A full solving path.
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation {
    /// Every step, in order.
    pub steps: Vec<Step>,
    /// The rating of the path.
    pub rating: Rating,
    /// The board after the last step: the solution.
    pub solution: Board,
}

/// A hint: the steps [`explain`] takes from `puzzle` up to and including the next placement,
/// that is the eliminations the placement rests on, in order, then the step that places a digit
/// (the easiest technique each time, brute force when stuck). Empty when the board is complete.
///
/// A board holds digits, not pencil marks, so a hint that stopped at an elimination would be
/// offered again and again to a caller that can only record placements. Ending every hint with
/// a placement means each one fills at least one cell: applying the placements and asking again
/// solves any puzzle [`explain`] solves. `interrupt` is polled as in [`explain`].
pub fn steps_to_next_placement(
    puzzle: &Board,
    solution: &Board,
    interrupt: &mut impl Interrupt,
) -> Result<Vec<Step>, Interrupted> {
    steps_to_next_placement_from(puzzle, None, solution, interrupt)
}

/// [`steps_to_next_placement`] from a player's `marks` of `puzzle` when given: each blank cell
/// starts with the candidates both the basic eliminations and the marks leave. The marks must
/// keep every value of `solution` (see [`Marks::mistakes`]).
pub(crate) fn steps_to_next_placement_from(
    puzzle: &Board,
    marks: Option<&Marks>,
    solution: &Board,
    interrupt: &mut impl Interrupt,
) -> Result<Vec<Step>, Interrupted> {
    let mut steps = Vec::new();
    run(puzzle, marks, solution, Level::Extreme, interrupt, |grid, found| {
        steps.push(to_step(grid, found));
        if found.placements.is_empty() { ControlFlow::Continue(()) } else { ControlFlow::Break(()) }
    })?;
    Ok(steps)
}

/// Solves `puzzle` step by step, easiest technique first each time, brute force when stuck,
/// and explains every step. `interrupt` is polled once per step and during chain searches.
pub fn explain(puzzle: &Board, solution: &Board, interrupt: &mut impl Interrupt) -> Result<Explanation, Interrupted> {
    explain_from(puzzle, None, solution, interrupt)
}

/// [`explain`] from a player's `marks` when given, as [`steps_to_next_placement_from`].
pub(crate) fn explain_from(
    puzzle: &Board,
    marks: Option<&Marks>,
    solution: &Board,
    interrupt: &mut impl Interrupt,
) -> Result<Explanation, Interrupted> {
    let mut steps = Vec::new();
    let path = run(puzzle, marks, solution, Level::Extreme, interrupt, |grid, found| {
        steps.push(to_step(grid, found));
        ControlFlow::Continue(())
    })?;
    Ok(Explanation { steps, rating: path.rating, solution: path.grid.board() })
}

/// The rating of the path [`explain`] takes, without building its steps: the fast path for
/// callers rating many puzzles.
pub fn rate(puzzle: &Board, solution: &Board, interrupt: &mut impl Interrupt) -> Result<Rating, Interrupted> {
    Ok(run(puzzle, None, solution, Level::Extreme, interrupt, |_, _| ControlFlow::Continue(()))?.rating)
}

/// [`rate`] until `interrupt` stops it, from a player's `marks` when given (as
/// [`steps_to_next_placement_from`]: how hard the rest of the puzzle is from where the player
/// stands). Interrupted, the rating is the lower bound reached, not [`Rating::exact`].
pub(crate) fn rate_until(
    puzzle: &Board,
    marks: Option<&Marks>,
    solution: &Board,
    interrupt: &mut impl Interrupt,
) -> Rating {
    match run(puzzle, marks, solution, Level::Extreme, interrupt, |_, _| ControlFlow::Continue(())) {
        Ok(path) => path.rating,
        Err(Cut(bound)) => bound,
    }
}

/// [`rate`] for a caller that only wants puzzles up to `level`: `Some` with the same rating as
/// [`rate`] when the puzzle is at or below `level`, `None` as soon as the path needs a
/// technique rated above it. Techniques above the level are never tried, so turning down a
/// puzzle that is too hard for an easy level costs no wing, fish or chain search.
pub fn rate_within(
    puzzle: &Board,
    solution: &Board,
    level: Level,
    interrupt: &mut impl Interrupt,
) -> Result<Option<Rating>, Interrupted> {
    let path = run(puzzle, None, solution, level, interrupt, |_, _| ControlFlow::Continue(()))?;
    Ok(path.within_ceiling.then_some(path.rating))
}

/// Where a solving path ended.
struct Path<'g, C: cells::CellSet = grid::Cells> {
    /// The grid after the last step.
    grid: Grid<'g, C>,
    /// The rating of the steps taken.
    rating: Rating,
    /// False when the path stopped because the next step needed a technique above its ceiling.
    within_ceiling: bool,
}

/// A solving path cut short by its interrupt, with the lower bound of its rating (both engines'
/// paths end so).
#[derive(Debug)]
pub(crate) struct Cut(pub(crate) Rating);

impl From<Cut> for Interrupted {
    fn from(_: Cut) -> Interrupted {
        Interrupted
    }
}

/// The solving loop behind [`explain`], [`rate`], [`rate_within`] and
/// [`steps_to_next_placement`]: finds and applies steps, with techniques up to `ceiling`, until
/// the grid is full, showing each step to `on_step` before it is applied. `on_step` breaking
/// ends the path there, with the step shown but not applied.
fn run(
    puzzle: &Board,
    marks: Option<&Marks>,
    solution: &Board,
    ceiling: Level,
    interrupt: &mut impl Interrupt,
    on_step: impl FnMut(&Grid<'static>, &Deduction) -> ControlFlow<()>,
) -> Result<Path<'static>, Cut> {
    run_over(Geometry::classic(), puzzle.cells(), marks, solution.cells(), ceiling, interrupt, on_step)
}

/// [`run`] over the houses of `geometry`, of any size: `puzzle` and `solution` are its values,
/// row-major, 0 for a blank.
fn run_over<'g, C: cells::CellSet>(
    geometry: &'g Geometry<C>,
    puzzle: &[u8],
    marks: Option<&Marks>,
    solution: &[u8],
    ceiling: Level,
    interrupt: &mut impl Interrupt,
    mut on_step: impl FnMut(&Grid<'g, C>, &Deduction) -> ControlFlow<()>,
) -> Result<Path<'g, C>, Cut> {
    let mut grid = Grid::of_values(geometry, puzzle);
    if let Some(marks) = marks {
        grid.keep_only(marks);
    }
    let mut found = Deduction::new();
    let mut counts = [0u32; Technique::ALL.len()];
    let mut solved_by_logic = true;
    let mut within_ceiling = true;
    let mut hardest = 0.0f32;
    while !grid.is_solved() {
        if interrupt.should_stop() {
            return Err(Cut(Rating::at_least(&counts, hardest, 0.0)));
        }
        // Below the brute-force ceiling no step means the puzzle needs a harder technique.
        // Otherwise it only happens with a `solution` that has no digit for the blanks, and a
        // step that changes nothing only on a grid no valid input leads to; both end the path.
        let step = find_step(&grid, solution, ceiling, &mut found, interrupt);
        if !step.map_err(|AtLeast(next)| Cut(Rating::at_least(&counts, hardest, next)))? {
            within_ceiling = ceiling.range().1 >= Technique::BruteForce.rating();
            solved_by_logic = false;
            break;
        }
        // A chain rates by its length, so it may land above a ceiling its base is under.
        if found.rating > ceiling.range().1 {
            within_ceiling = false;
            solved_by_logic = false;
            break;
        }
        if on_step(&grid, &found).is_break() {
            break;
        }
        if !apply(&mut grid, &found) {
            solved_by_logic = false;
            break;
        }
        counts[found.technique as usize] += 1;
        hardest = hardest.max(found.rating);
    }
    Ok(Path { grid, rating: Rating::of_steps(&counts, hardest, solved_by_logic), within_ceiling })
}

/// A step search cut short by its interrupt, with the least rating the step can have: that of
/// the easiest technique not yet ruled out (a chain rates at least its technique's base).
struct AtLeast(f32);

/// Finds the easiest step in `grid` among the techniques rated up to `ceiling`'s top, brute
/// force last. False when none applies (always on a full grid).
fn find_step<C: cells::CellSet>(
    grid: &Grid<C>,
    solution: &[u8],
    ceiling: Level,
    found: &mut Deduction,
    interrupt: &mut dyn Interrupt,
) -> Result<bool, AtLeast> {
    let allowed = Technique::ALL.into_iter().take_while(|technique| technique.rating() <= ceiling.range().1);
    for (at, technique) in allowed.enumerate() {
        let applies = match technique {
            Technique::BruteForce => brute_force(grid, solution, found),
            _ => techniques::find(technique, grid, found, interrupt).map_err(|Interrupted| {
                AtLeast(Technique::ALL[at..].iter().map(|untried| untried.rating()).fold(f32::INFINITY, f32::min))
            })?,
        };
        if applies {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Places the solution's digit in the blank cell with the fewest candidates (the first in
/// row-major order among equals), the cell a person would guess at.
fn brute_force<C: cells::CellSet>(grid: &Grid<C>, solution: &[u8], found: &mut Deduction) -> bool {
    found.start(Technique::BruteForce);
    let blanks = (0..grid.geometry().cell_count()).filter(|&cell| grid.value(cell) == 0 && solution[cell] != 0);
    blanks.min_by_key(|&cell| grid.candidates(cell).count_ones()).is_some_and(|cell| {
        let digit = solution[cell];
        found.add_cells([cell]);
        found.add_digits([digit]);
        found.place(cell, digit)
    })
}

/// Applies a step; false if it changed nothing.
fn apply<C: cells::CellSet>(grid: &mut Grid<C>, found: &Deduction) -> bool {
    let mut changed = false;
    for placement in &found.placements {
        changed |= grid.place(placement.cell, placement.digit);
    }
    for elimination in &found.eliminations {
        changed |= grid.eliminate(elimination.cell, elimination.digit);
    }
    changed
}

/// The public form of a deduction found in `grid`.
fn to_step(grid: &Grid, found: &Deduction) -> Step {
    Step {
        technique: found.technique,
        cells: found.cells.iter().map(|&cell| crate::position::Cell::at(cell)).collect(),
        digits: found.digits.iter().map(|&digit| crate::position::Digit::of(digit)).collect(),
        placements: found.placements.iter().map(|placed| placed.candidate()).collect(),
        eliminations: found.eliminations.iter().map(|removed| removed.candidate()).collect(),
        explanation: techniques::describe(grid, found),
    }
}

/// The form the grid-size engine answers other sizes with of a deduction found in `grid` (of
/// any size): what this engine will answer there once it serves them (issue 52).
#[cfg(test)]
fn to_grid_step<C: cells::CellSet>(grid: &Grid<C>, found: &Deduction) -> sized::GridStep {
    use crate::position::{GridCandidate, GridCell};
    let side = grid.geometry().side();
    let candidate =
        |found: &step::CellDigit| GridCandidate { row: found.cell / side, col: found.cell % side, digit: found.digit };
    sized::GridStep {
        technique: found.technique,
        cells: found.cells.iter().map(|&cell| GridCell { row: cell / side, col: cell % side }).collect(),
        digits: found.digits.clone(),
        placements: found.placements.iter().map(candidate).collect(),
        eliminations: found.eliminations.iter().map(candidate).collect(),
        explanation: techniques::describe(grid, found),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interrupt::{Never, PollBudget};
    use crate::solver::Outcome;

    use crate::board::{EXAMPLE_PUZZLE as PUZZLE, EXAMPLE_SOLUTION as SOLUTION};

    #[test]
    fn levels_cover_the_scale_and_parse_their_names() {
        assert_eq!(Level::of(0.0, true), Level::Easy);
        assert_eq!(Level::of(2.3, true), Level::Easy);
        assert_eq!(Level::of(2.6, true), Level::Medium);
        assert_eq!(Level::of(3.6, true), Level::Hard);
        assert_eq!(Level::of(4.5, true), Level::Hard);
        assert_eq!(Level::of(5.0, true), Level::Expert);
        assert_eq!(Level::of(7.0, true), Level::Expert);
        assert_eq!(Level::of(7.5, true), Level::Extreme);
        assert_eq!(Level::of(1.2, false), Level::Extreme);
        for pair in Level::ALL.windows(2) {
            assert_eq!(pair[0].range().1, pair[1].range().0);
        }
        for level in Level::ALL {
            assert_eq!(level.to_string().parse::<Level>(), Ok(level));
            assert_eq!(serde_json::to_string(&level).unwrap(), format!("\"{level}\""));
            assert_eq!(serde_json::from_str::<Level>(&format!("\"{level}\"")).unwrap(), level);
            let (low, high) = level.range();
            assert_eq!(Level::of(high, true), level);
            assert!(low == 0.0 || Level::of(low, true) < level);
        }
        let unknown = "Hard".parse::<Level>().unwrap_err().to_string();
        assert_eq!(unknown, r#"unknown level "Hard": expected one of "easy", "medium", "hard", "expert", "extreme""#);
    }

    #[test]
    fn explains_the_classic_puzzle_with_singles() {
        let (puzzle, solution) = (PUZZLE.parse().unwrap(), SOLUTION.parse().unwrap());
        let explanation = explain(&puzzle, &solution, &mut Never).unwrap();
        assert_eq!(explanation.solution, solution);
        assert_eq!(explanation.steps.len(), 51);
        assert!(explanation.steps.iter().all(|step| step.placements.len() == 1 && step.eliminations.is_empty()));
        assert_eq!(explanation.rating.level, Level::Easy);
        let total: u32 = explanation.rating.techniques.iter().map(|used| used.count).sum();
        assert_eq!(total, 51);
        let hint = steps_to_next_placement(&puzzle, &solution, &mut Never).unwrap();
        assert_eq!(hint, explanation.steps[..1]);
    }

    #[test]
    fn steps_and_ratings_serialize_with_ids_and_zero_based_cells() {
        let (puzzle, solution) = (PUZZLE.parse().unwrap(), SOLUTION.parse().unwrap());
        let step = &steps_to_next_placement(&puzzle, &solution, &mut Never).unwrap()[0];
        let json = serde_json::to_value(step).unwrap();
        assert_eq!(json["technique"], step.technique.id());
        assert_eq!(json["cells"][0]["row"], step.cells[0].row());
        assert_eq!(json["cells"][0]["col"], step.cells[0].col());
        assert_eq!(json["placements"][0]["digit"], step.placements[0].digit.get());
        assert_eq!(json["explanation"], step.explanation.as_str());
        let rating = rate(&puzzle, &solution, &mut Never).unwrap();
        let json = serde_json::to_value(&rating).unwrap();
        assert_eq!(json["level"], "easy");
        assert_eq!(json["solved_by_logic"], true);
        assert!(json["techniques"][0]["technique"].is_string() && json["techniques"][0]["count"].is_u64());
    }

    #[test]
    fn a_hint_carries_the_eliminations_its_placement_rests_on() {
        // Issue 11: on this board the first step is an elimination, which a board cannot record;
        // a hint that stopped there was offered again and again.
        let puzzle: Board =
            "..8......634.95....97.86.5...35......41863..28...7.3..4.6957.38.8.134...3..628..4".parse().unwrap();
        let solution = match crate::solver::solve(&puzzle) {
            crate::solver::Outcome::Unique(solution) => solution,
            other => panic!("one solution expected, got {other:?}"),
        };
        let hint = steps_to_next_placement(&puzzle, &solution, &mut Never).unwrap();
        let (placement, eliminations) = hint.split_last().unwrap();
        assert!(!eliminations.is_empty(), "{hint:?}");
        assert!(eliminations.iter().all(|step| step.placements.is_empty() && !step.eliminations.is_empty()));
        assert!(!placement.placements.is_empty(), "{placement:?}");
        let path = explain(&puzzle, &solution, &mut Never).unwrap();
        assert_eq!(hint, path.steps[..hint.len()], "a hint is the start of the explained path");
    }

    #[test]
    fn a_full_board_has_no_step_and_rates_zero() {
        let solution: Board = SOLUTION.parse().unwrap();
        assert_eq!(steps_to_next_placement(&solution, &solution, &mut Never), Ok(Vec::new()));
        let rating = rate(&solution, &solution, &mut Never).unwrap();
        assert_eq!((rating.rating, rating.level, rating.solved_by_logic), (0.0, Level::Easy, true));
        assert!(rating.techniques.is_empty());
    }

    #[test]
    fn a_rating_cut_short_is_a_lower_bound_on_the_path_to_the_full_one() {
        // SE 8.3: singles, then chains whose searches poll the interrupt many times a step.
        let puzzle: Board =
            "8..7.356.....6...3...5..4...3.4...7.1...9...6.4...7.2...3..8...4...2.....123.4..9".parse().unwrap();
        let Outcome::Unique(solution) = crate::solver::solve(&puzzle) else { panic!("one solution expected") };
        let full = rate(&puzzle, &solution, &mut Never).unwrap();
        assert!(full.exact && full.rating > 7.0, "{full:?}");
        let count = |rating: &Rating, technique: Technique| {
            rating.techniques.iter().find(|used| used.technique == technique).map_or(0, |used| used.count)
        };
        let (mut last, mut budget, mut cuts) = (0.0, 1, 0);
        loop {
            let cut = rate_until(&puzzle, None, &solution, &mut PollBudget(budget));
            if cut.exact {
                assert_eq!(cut, full, "a budget that lasts gives the full rating");
                break;
            }
            cuts += 1;
            assert!(cut.rating <= full.rating && cut.level <= full.level, "{cut:?} above {full:?}");
            assert!(cut.rating >= last, "a longer budget never lowers the bound: {cut:?} after {last}");
            assert!(!cut.solved_by_logic && cut.level == Level::of(cut.rating, true), "{cut:?}");
            assert!(Technique::ALL.into_iter().all(|used| count(&cut, used) <= count(&full, used)), "{cut:?}");
            assert_eq!(
                rate(&puzzle, &solution, &mut PollBudget(budget)),
                Err(Interrupted),
                "`rate` is exact or nothing"
            );
            last = cut.rating;
            budget += budget / 4 + 1;
        }
        assert!(cuts > 5, "{cuts} budgets cut the rating short");
        assert!(last > 2.0, "a bound above the singles was reached before the end: {last}");
    }

    #[test]
    fn brute_force_takes_the_solution_digit_where_candidates_are_fewest() {
        let solution: Board = SOLUTION.parse().unwrap();
        let mut found = Deduction::new();
        let grid = Grid::new(&Board::EMPTY);
        assert!(brute_force(&grid, solution.cells(), &mut found));
        assert_eq!(found.placements, [step::CellDigit { cell: 0, digit: 5 }]);
        assert_eq!(
            techniques::describe(&grid, &found),
            "No technique here applies, so r1c1 = 5 is taken from the solution."
        );
        assert!(!brute_force(&grid, Board::EMPTY.cells(), &mut found));
    }
}
