//! Unique variant puzzles of a level, the same for the same seed.
//!
//! The variant's rules come from the request; a jigsaw without regions gets random connected
//! ones, a killer without cages gets cages cut from the solution, and an XV puzzle without marks
//! every X and V of its solution. A solved grid is drawn by
//! the variant's solver on an empty grid with random tie-breaks ([`random_solution`]); then cells
//! are blanked in a random order, with their symmetric partner, as long as the logic engine
//! solves the puzzle with the techniques up to the level (for extreme: as long as it keeps one
//! solution). The puzzle is kept when its rating is of the level; otherwise another solved grid
//! (and other regions or cages) is tried, until the interrupt says stop.

use crate::generate::Symmetry;
use crate::generate::sizes::levels as levels_of;
use crate::generate::{Attempts, make};
use crate::interrupt::{Interrupt, Interrupted};
use crate::logic::sized::{Book, rate_in, solves_within_in};
use crate::logic::{Level, Rating};
use crate::random::SplitMix64;
use crate::sizes::{Grid, Shape};
use crate::variants::solver::{count_solutions, random_solution};
use sudokud_model::constraints::{Cage, Constraints, Preset, Regions, Xv};
use sudokud_model::unit::Unit;
use sudokud_model::variant::{ConstraintError, Variant};

/// A generated variant puzzle.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GeneratedVariant {
    /// The givens, one solution under the constraints.
    pub puzzle: Grid,
    /// The solution.
    pub solution: Grid,
    /// The constraints it is played by: the request's, the preset's, and any regions or cages
    /// made for it.
    pub constraints: Constraints,
    /// Its rating, of the level asked for.
    pub rating: Rating,
    /// Solved grids (and made regions) tried, this one included.
    pub attempts: u32,
}

/// The levels generated for a variant at `shape`: those the shape offers ([`levels_of`])
/// that every try reached within the default one-second solve timeout (docs/variants.md; seeds 0-9
/// at 9x9 and above, 0-4 at 6x6). Expert rests on the chains (XY-Wing, X- and XY-chains) and is
/// offered for lines and regions, not for killer cages (5 of 10 tries missed 3 s at 9x9) nor for
/// thermometers, Kropki dots or even and odd cells, which were not measured at it. A killer's
/// level comes from its cages: easy or medium (innies and outies) from cages of two to four cells,
/// hard (cage combinations) or a guess from cages of three to six. Non-consecutive grids are few:
/// their puzzles are easy or need a guess, made at 6x6 and 8x8, and at 9x9 easy only (drawing a
/// solved 9x9 grid takes up to 0.7 s, seeds 0-149; the blanking for extreme up to seconds). XV
/// puzzles with every mark of their solution are easy or need a guess, made at 6x6 to 9x9 (seeds
/// 0-4: easy and extreme in at most 54 ms; medium and hard none within 5 s). Above 9x9, the
/// levels every kind of rule present allows, each kind measured alone.
pub(crate) fn levels(shape: Shape, preset: Option<Preset>, constraints: &Constraints) -> Vec<Level> {
    let non_consecutive = constraints.non_consecutive || preset == Some(Preset::NonConsecutive);
    if shape.size() > 9 {
        return levels_above_9x9(shape, preset, constraints, non_consecutive);
    }
    // No 4x4 grid is non-consecutive.
    let offered: &[Level] = if non_consecutive {
        match shape.size() {
            6 | 8 => &[Level::Easy, Level::Extreme],
            9 => &[Level::Easy],
            _ => &[],
        }
    } else if Made::of(preset, constraints).marks {
        &[Level::Easy, Level::Extreme]
    } else if has_cages(preset, constraints) || has_unmeasured(shape, preset, constraints) {
        &[Level::Easy, Level::Medium, Level::Hard, Level::Extreme]
    } else {
        &Level::ALL
    };
    levels_of(shape).iter().copied().filter(|level| offered.contains(level)).collect()
}

/// Whether the variant has killer cages.
fn has_cages(preset: Option<Preset>, constraints: &Constraints) -> bool {
    !constraints.cages.is_empty() || preset == Some(Preset::Killer)
}

/// Whether the variant has rules whose puzzles were measured only at some levels and sizes:
/// related pairs other than non-consecutive neighbours (thermometers, Kropki dots, X and V marks)
/// or cells kept to some digits (even or odd cells); given ones are kept, never made. Asked of
/// the rule set's pairs and digits, so that a new rule of the kind is unmeasured until measured.
/// Rules that do not fit the shape are refused before any level is offered.
fn has_unmeasured(shape: Shape, preset: Option<Preset>, constraints: &Constraints) -> bool {
    let Ok(variant) = played_variant(shape, preset, constraints) else { return true };
    let every_digit = (1u32 << shape.size()) - 1;
    variant.pairs.iter().any(|pair| variant.relation(pair).unit() != Unit::NonConsecutive)
        || variant.allowed.iter().any(|&digits| digits != every_digit)
}

/// [`levels`] above 9x9: the levels every kind of rule present allows, each measured alone (seeds
/// 0-9, the slowest under 0.8 s; docs/variants.md). Lines of cells (diagonals, anti-knight,
/// anti-king) every level at 10x10 and 12x12, up to expert at 15x15 and 16x16 and easy beyond;
/// regions (jigsaw, windoku) every level at 10x10, up to expert at 12x12, easy at 15x15 and none
/// beyond (a 16x16 windoku misses the timeout 2 times in 10); killer cages easy, and medium, hard
/// and extreme at 10x10; non-consecutive easy. Thermometers, Kropki dots and even or odd cells are not
/// offered there.
fn levels_above_9x9(
    shape: Shape,
    preset: Option<Preset>,
    constraints: &Constraints,
    non_consecutive: bool,
) -> Vec<Level> {
    const EASY: &[Level] = &[Level::Easy];
    const TO_EXPERT: &[Level] = &[Level::Easy, Level::Medium, Level::Hard, Level::Expert];
    let size = shape.size();
    let lines = match size {
        10 | 12 => &Level::ALL,
        15 | 16 => TO_EXPERT,
        _ => EASY,
    };
    let mut kinds = vec![lines];
    let regions = constraints.regions.is_some() || !constraints.extra_regions.is_empty();
    if regions || matches!(preset, Some(Preset::Jigsaw | Preset::Windoku)) {
        kinds.push(match size {
            10 => &Level::ALL,
            12 => TO_EXPERT,
            15 => EASY,
            _ => &[],
        });
    }
    if has_cages(preset, constraints) {
        kinds.push(if size == 10 { &[Level::Easy, Level::Medium, Level::Hard, Level::Extreme] } else { EASY });
    }
    if non_consecutive {
        kinds.push(EASY);
    }
    if has_unmeasured(shape, preset, constraints) {
        kinds.push(&[]);
    }
    levels_of(shape).iter().copied().filter(|level| kinds.iter().all(|kind| kind.contains(level))).collect()
}

/// Why [`Puzzle::generate_variant`](crate::puzzle::Puzzle::generate_variant) does not take a
/// request.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// The constraints do not fit the grid.
    #[error(transparent)]
    Constraints(#[from] ConstraintError),
    /// The variant is not generated at the size (see
    /// [`Puzzle::variant_levels`](crate::puzzle::Puzzle::variant_levels)).
    #[error(
        "{variant} puzzles are not generated at {size}x{size} (regions up to 15x15; thermometers, Kropki dots, X and V marks, greater-than signs and even or odd cells up to 9x9; non-consecutive not at 4x4)"
    )]
    Size {
        /// The variant's name, or `these constraints`.
        variant: String,
        /// The grid's size.
        size: usize,
    },
    /// The level is not offered for the variant (see
    /// [`Puzzle::variant_levels`](crate::puzzle::Puzzle::variant_levels)).
    #[error("{level} puzzles are not offered for {variant} at {size}x{size}; its levels are {levels}")]
    Level {
        /// The level asked for.
        level: Level,
        /// The variant's name, or `these constraints`.
        variant: String,
        /// The grid's size.
        size: usize,
        /// The levels offered, listed.
        levels: String,
    },
}

/// Whether [`generate`] takes these rules ([`check`]) and this level ([`levels`]).
pub(crate) fn offers(
    shape: Shape,
    preset: Option<Preset>,
    constraints: &Constraints,
    level: Level,
) -> Result<(), Refused> {
    check(shape, preset, constraints)?;
    let levels = levels(shape, preset, constraints);
    let variant = preset.map_or_else(|| "these constraints".to_owned(), |preset| preset.to_string());
    let size = shape.size();
    match levels.contains(&level) {
        true => Ok(()),
        false if levels.is_empty() => Err(Refused::Size { variant, size }),
        false => {
            let levels = levels.iter().map(Level::to_string).collect::<Vec<_>>().join(", ");
            Err(Refused::Level { level, variant, size, levels })
        }
    }
}

/// A puzzle of `shape` and `level` under `preset`'s and `constraints`' rules, from `seed`, as the
/// module says; `interrupt` stops the search (a level the rules cannot reach is searched until
/// it does). The constraints are checked first, as [`Variant::new`] checks them, except that a
/// jigsaw may come without regions and a killer without cages.
pub(crate) fn generate(
    shape: Shape,
    preset: Option<Preset>,
    constraints: &Constraints,
    level: Level,
    symmetry: Symmetry,
    seed: u64,
    interrupt: &mut impl Interrupt,
) -> Result<Result<GeneratedVariant, ConstraintError>, Interrupted> {
    if let Err(error) = has_grid(shape, preset, constraints) {
        return Ok(Err(error));
    }
    let made_here = Made::of(preset, constraints);
    let (make_regions, make_cages) = (made_here.regions, made_here.cages);
    let base_preset = if made_here.any() { None } else { preset };
    let draw = |random: &mut SplitMix64, interrupt: &mut _| {
        let mut rules = constraints.clone();
        if make_regions {
            rules.regions = Some(Regions::random(shape, random));
        }
        let variant = Variant::new(shape, base_preset, &rules).expect("made regions fit the grid");
        let drawn = if make_regions {
            // Some random regions leave no solved grid, or one the search takes long to find:
            // after a while, other regions are tried instead.
            let mut bounded = Bounded::new(&mut *interrupt, REGION_GUESSES);
            match random_solution(&variant, random.next_u64(), &mut bounded) {
                Err(Interrupted) if bounded.exhausted => return Ok(None),
                drawn => drawn?,
            }
        } else {
            random_solution(&variant, random.next_u64(), interrupt)?
        };
        let Some(solution) = drawn else {
            return if make_regions { Ok(None) } else { Err(Failed::NoGrid) };
        };
        if make_cages {
            // Small cages tell so much that innies and outies solve most puzzles; an extreme one
            // comes sooner from cages that tell less (seeds 0-9 at 9x9: median 82 -> 27 ms,
            // slowest 697 -> 80 ms).
            let sizes = if level >= Level::Hard { 3..=6 } else { 2..=4 };
            rules.cages = Cage::cut_from(solution.size(), solution.cells(), sizes, random);
        }
        if made_here.marks {
            rules.xv = Xv::of_solution(solution.size(), solution.cells());
        }
        let variant = Variant::new(shape, preset, &rules).expect("made cages and marks fit the grid");
        Ok(Some((solution, variant)))
    };
    let made = make(
        Attempts { seed, symmetry, level, min_givens: 0 },
        interrupt,
        draw,
        |variant, puzzle, _, blanked, interrupt| match level {
            Level::Extreme => Ok(count_solutions(puzzle, variant, 2, interrupt)?.solutions == 1),
            _ => solves_within_in(Book::Variant(variant), puzzle, level, blanked, interrupt),
        },
        |variant, puzzle, solution, interrupt| rate_in(Book::Variant(variant), puzzle, None, solution, interrupt),
    );
    Ok(match made {
        Ok(made) => {
            let constraints = made.rules.constraints().clone();
            let (puzzle, solution, rating, attempts) = (made.puzzle, made.solution, made.rating, made.attempts);
            Ok(GeneratedVariant { puzzle, solution, constraints, rating, attempts })
        }
        Err(Failed::NoGrid) => Err(no_grid(shape)),
        Err(Failed::Interrupted) => return Err(Interrupted),
    })
}

/// Why a variant's generation loop ended without a puzzle.
enum Failed {
    Interrupted,
    /// The rules (none made here) leave no solved grid.
    NoGrid,
}

impl From<Interrupted> for Failed {
    fn from(Interrupted: Interrupted) -> Failed {
        Failed::Interrupted
    }
}

/// Guesses a solved grid for made regions (or the check that one exists) may take before other
/// regions are tried (or the check assumes one does) (at 9x9,
/// seeds 0-49 of extreme jigsaws: 1 << 16 let two take half a second; 1 << 13 keeps all under
/// a tenth).
const REGION_GUESSES: u32 = 1 << 13;

/// An interrupt that also stops once a budget of guesses is spent, and says which stopped it.
struct Bounded<'a, I> {
    inner: &'a mut I,
    /// Polls left before the budget is spent.
    polls: u32,
    /// The budget, not the inner interrupt, stopped the search.
    exhausted: bool,
}

impl<'a, I: Interrupt> Bounded<'a, I> {
    fn new(inner: &'a mut I, guesses: u32) -> Self {
        let polls = guesses / inner.poll_interval();
        Bounded { inner, polls, exhausted: false }
    }
}

impl<I: Interrupt> Interrupt for Bounded<'_, I> {
    fn poll_interval(&self) -> u32 {
        self.inner.poll_interval()
    }

    fn should_stop(&mut self) -> bool {
        if self.inner.should_stop() {
            return true;
        }
        self.polls = self.polls.saturating_sub(1);
        self.exhausted = self.polls == 0;
        self.exhausted
    }
}

/// What is made here rather than given: a jigsaw's regions, a killer's cages, XV's marks (each
/// when its preset comes without them).
#[derive(Clone, Copy)]
struct Made {
    regions: bool,
    cages: bool,
    /// Every X and V of the solution.
    marks: bool,
}

impl Made {
    fn of(preset: Option<Preset>, constraints: &Constraints) -> Made {
        Made {
            regions: preset == Some(Preset::Jigsaw) && constraints.regions.is_none(),
            cages: preset == Some(Preset::Killer) && constraints.cages.is_empty(),
            marks: preset == Some(Preset::Xv) && constraints.xv.has_no_marks(),
        }
    }

    /// Whether anything is made: then the solved grid is drawn without the preset's rules.
    fn any(self) -> bool {
        self.regions || self.cages || self.marks
    }
}

/// Whether `generate` takes these rules: they fit the shape as [`Variant::new`] checks them
/// (a jigsaw may come without regions and a killer without cages). Cheap: no search.
pub(crate) fn check(shape: Shape, preset: Option<Preset>, constraints: &Constraints) -> Result<(), ConstraintError> {
    base_variant(shape, preset, constraints).map(drop)
}

/// The variant a solved grid is drawn under: the preset's rules, except the parts made here.
fn base_variant(shape: Shape, preset: Option<Preset>, constraints: &Constraints) -> Result<Variant, ConstraintError> {
    let base_preset = if Made::of(preset, constraints).any() { None } else { preset };
    Variant::new(shape, base_preset, constraints)
}

/// The rules the puzzles are played by, as far as they are known before one is made: the
/// preset's and the request's, without a jigsaw's regions or a killer's cages made with each
/// puzzle (XV's preset, its marks made, keeps the rule that every mark is given).
pub(crate) fn played_variant(
    shape: Shape,
    preset: Option<Preset>,
    constraints: &Constraints,
) -> Result<Variant, ConstraintError> {
    Variant::new(shape, preset, constraints).or_else(|_| base_variant(shape, preset, constraints))
}

/// Whether some solved grid keeps these rules, as far as a short search can tell (a few
/// milliseconds; combinations such as a 4x4 anti-king X grid have none): [`generate`] asks it
/// first, and the command line before it starts.
pub(crate) fn has_grid(shape: Shape, preset: Option<Preset>, constraints: &Constraints) -> Result<(), ConstraintError> {
    let variant = base_variant(shape, preset, constraints)?;
    if Made::of(preset, constraints).regions {
        return Ok(());
    }
    let mut never = crate::interrupt::Never;
    let mut bounded = Bounded::new(&mut never, REGION_GUESSES);
    match random_solution(&variant, 0, &mut bounded) {
        Ok(None) => Err(no_grid(shape)),
        _ => Ok(()),
    }
}

/// The error of rules no solved grid keeps.
fn no_grid(shape: Shape) -> ConstraintError {
    let message = format!("no {0}x{0} grid keeps these rules", shape.size());
    ConstraintError { member: "constraints".to_owned(), message }
}

/// A preset's puzzle of `level` without symmetry or other constraints, for the tests of the
/// modules that read generated puzzles.
#[cfg(test)]
pub(crate) fn made(shape: Shape, preset: Preset, level: Level, seed: u64) -> GeneratedVariant {
    let made = generate(
        shape,
        Some(preset),
        &Constraints::default(),
        level,
        Symmetry::None,
        seed,
        &mut crate::interrupt::Never,
    );
    made.expect("Never interrupts").expect("the preset fits the shape")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interrupt::{Never, PollBudget};
    use crate::member::Choice;
    use crate::variants::Place;

    fn check(generated: &GeneratedVariant, level: Level) {
        let shape = generated.puzzle.shape();
        let variant = Variant::new(shape, None, &generated.constraints).unwrap();
        assert!(generated.solution.is_complete() && variant.conflicts(&generated.solution).is_empty());
        let count = count_solutions(&generated.puzzle, &variant, 2, &mut Never).unwrap();
        assert_eq!((count.solutions, count.first.as_ref()), (1, Some(&generated.solution)));
        assert_eq!(generated.rating.level, level);
        let rating =
            rate_in(Book::Variant(&variant), &generated.puzzle, None, &generated.solution, &mut Never).unwrap();
        assert_eq!(rating, generated.rating);
    }

    #[test]
    fn every_preset_gets_a_unique_puzzle_of_its_level() {
        let nine = Shape::CLASSIC;
        for preset in Preset::ALL.iter().copied() {
            let generated =
                generate(nine, Some(preset), &Constraints::default(), Level::Easy, Symmetry::None, 3, &mut Never)
                    .unwrap()
                    .unwrap();
            check(&generated, Level::Easy);
            // Expert rests on the chains, offered where every preset's tries were quick.
            let offered = levels(nine, Some(preset), &Constraints::default());
            let unmeasured = matches!(preset, Preset::Killer | Preset::NonConsecutive | Preset::Xv);
            assert_eq!(offered.contains(&Level::Expert), !unmeasured);
            if offered.contains(&Level::Expert) {
                let made =
                    generate(nine, Some(preset), &Constraints::default(), Level::Expert, Symmetry::None, 3, &mut Never);
                check(&made.unwrap().unwrap(), Level::Expert);
            }
            match preset {
                Preset::Jigsaw => assert!(generated.constraints.regions.is_some()),
                Preset::Killer => assert!(!generated.constraints.cages.is_empty()),
                Preset::Xv => assert!(generated.constraints.xv.all_given),
                _ => {}
            }
        }
    }

    /// An XV puzzle's marks are every pair of neighbours of its solution summing to 10 (an X)
    /// or 5 (a V), read off the solution here; given marks are kept, never made.
    #[test]
    fn xv_marks_are_every_x_and_v_of_the_solution() {
        for (shape, level) in [(Shape::new(2, 3).unwrap(), Level::Easy), (Shape::CLASSIC, Level::Extreme)] {
            let made = generate(shape, Some(Preset::Xv), &Constraints::default(), level, Symmetry::None, 4, &mut Never);
            let made = made.unwrap().unwrap();
            check(&made, level);
            let (size, cells) = (shape.size(), made.solution.cells());
            let (mut x, mut v) = (Vec::new(), Vec::new());
            for (row, col) in (0..size).flat_map(|row| (0..size).map(move |col| (row, col))) {
                for (next_row, next_col) in [(row, col + 1), (row + 1, col)] {
                    if next_row == size || next_col == size {
                        continue;
                    }
                    let pair = [Place(row as u64, col as u64), Place(next_row as u64, next_col as u64)];
                    match cells[row * size + col] + cells[next_row * size + next_col] {
                        10 => x.push(pair),
                        5 => v.push(pair),
                        _ => {}
                    }
                }
            }
            let marks = &made.constraints.xv;
            let sorted = |mut pairs: Vec<[Place; 2]>| {
                pairs.sort_by_key(|pair| pair.map(|place| (place.0, place.1)));
                pairs
            };
            assert_eq!((sorted(marks.x.clone()), sorted(marks.v.clone())), (sorted(x), sorted(v)), "{shape}");
            assert!(marks.all_given);
        }
        let given =
            Constraints { xv: Xv { v: vec![[Place(0, 0), Place(0, 1)]], ..Xv::default() }, ..Constraints::default() };
        let shape = Shape::new(2, 3).unwrap();
        let made = generate(shape, Some(Preset::Xv), &given, Level::Easy, Symmetry::None, 1, &mut Never);
        let made = made.unwrap().unwrap();
        assert_eq!(made.constraints.xv, Xv { all_given: true, ..given.xv });
        check(&made, Level::Easy);
    }

    #[test]
    fn every_level_offered_for_killer_non_consecutive_and_xv_is_made() {
        for (shape, preset) in [
            (Shape::CLASSIC, Preset::Killer),
            (Shape::new(2, 3).unwrap(), Preset::NonConsecutive),
            (Shape::new(2, 4).unwrap(), Preset::NonConsecutive),
            (Shape::new(2, 4).unwrap(), Preset::Xv),
        ] {
            let offered = levels(shape, Some(preset), &Constraints::default());
            assert!(offered.len() >= 2, "{preset} at {shape}: {offered:?}");
            for level in offered {
                let made = generate(shape, Some(preset), &Constraints::default(), level, Symmetry::None, 1, &mut Never);
                check(&made.unwrap().unwrap(), level);
            }
        }
        let nine = levels(Shape::CLASSIC, Some(Preset::NonConsecutive), &Constraints::default());
        assert_eq!(nine, [Level::Easy]);
    }

    #[test]
    fn above_9x9_each_preset_is_made_at_its_hardest_offered_level_and_unmeasured_rules_are_refused() {
        for (shape, preset) in [
            (Shape::new(2, 5).unwrap(), Preset::Killer),
            (Shape::new(3, 4).unwrap(), Preset::Jigsaw),
            (Shape::new(3, 4).unwrap(), Preset::Windoku),
            (Shape::new(3, 5).unwrap(), Preset::NonConsecutive),
            (Shape::new(4, 4).unwrap(), Preset::AntiKing),
            (Shape::new(4, 5).unwrap(), Preset::X),
        ] {
            let offered = levels(shape, Some(preset), &Constraints::default());
            let hardest = *offered.last().unwrap_or_else(|| panic!("{preset} at {shape}: none offered"));
            let made = generate(shape, Some(preset), &Constraints::default(), hardest, Symmetry::None, 2, &mut Never);
            check(&made.unwrap().unwrap(), hardest);
        }
        let sixteen = Shape::new(4, 4).unwrap();
        assert_eq!(
            levels(sixteen, Some(Preset::X), &Constraints::default()),
            [Level::Easy, Level::Medium, Level::Hard, Level::Expert]
        );
        assert_eq!(
            levels(Shape::new(2, 5).unwrap(), Some(Preset::Killer), &Constraints::default()),
            [Level::Easy, Level::Medium, Level::Hard, Level::Extreme]
        );
        assert!(levels(sixteen, Some(Preset::Jigsaw), &Constraints::default()).is_empty());
        let even = Constraints { even: vec![Place(0, 0)], ..Constraints::default() };
        assert!(levels(Shape::new(3, 4).unwrap(), None, &even).is_empty());
        assert_eq!(levels(Shape::CLASSIC, None, &even).len(), 4, "9x9 is not limited here");
    }

    #[test]
    fn the_same_seed_gives_the_same_puzzle() {
        let six = Shape::new(2, 3).unwrap();
        let make = |seed| {
            generate(six, Some(Preset::Jigsaw), &Constraints::default(), Level::Easy, Symmetry::None, seed, &mut Never)
                .unwrap()
                .unwrap()
        };
        assert_eq!(make(5), make(5));
        assert_ne!(make(5).constraints, make(6).constraints);
    }

    #[test]
    fn rules_no_grid_keeps_are_refused_not_searched_forever() {
        let four = Shape::new(2, 2).unwrap();
        for preset in [Preset::NonConsecutive, Preset::AntiKing] {
            let constraints =
                Constraints { diagonals: Some(crate::variants::Diagonals::Both), ..Constraints::default() };
            let refused =
                generate(four, Some(preset), &constraints, Level::Easy, Symmetry::None, 1, &mut Never).unwrap();
            assert_eq!(refused.unwrap_err().to_string(), "`constraints`: no 4x4 grid keeps these rules", "{preset}");
        }
        assert!(levels(four, Some(Preset::NonConsecutive), &Constraints::default()).is_empty());
        let refused = offers(Shape::new(4, 4).unwrap(), Some(Preset::Windoku), &Constraints::default(), Level::Easy);
        assert_eq!(
            refused.unwrap_err().to_string(),
            "windoku puzzles are not generated at 16x16 (regions up to 15x15; thermometers, Kropki dots, X and V marks, greater-than signs and even or odd cells up to 9x9; non-consecutive not at 4x4)"
        );
    }

    #[test]
    fn a_harder_level_and_the_interrupt() {
        let generated = generate(
            Shape::CLASSIC,
            Some(Preset::X),
            &Constraints::default(),
            Level::Medium,
            Symmetry::Rotational,
            1,
            &mut Never,
        )
        .unwrap()
        .unwrap();
        check(&generated, Level::Medium);
        let refused = generate(
            Shape::CLASSIC,
            Some(Preset::Jigsaw),
            &Constraints { even: vec![Place(9, 9)], ..Constraints::default() },
            Level::Easy,
            Symmetry::None,
            1,
            &mut Never,
        );
        assert!(matches!(refused, Ok(Err(_))));
        let stopped = generate(
            Shape::CLASSIC,
            Some(Preset::X),
            &Constraints::default(),
            Level::Easy,
            Symmetry::None,
            1,
            &mut PollBudget(1),
        );
        assert_eq!(stopped, Err(Interrupted));
    }
}
