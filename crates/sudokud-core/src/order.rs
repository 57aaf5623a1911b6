//! Puzzles made to order: a rating range, techniques the solving path must use or must not, a
//! range of givens, beside the shape, symmetry and variant a level's generation already takes.
//!
//! The generator makes a puzzle of a level ([`Puzzle::generate`], or
//! [`Puzzle::generate_variant`] for a variant); an order is met by making
//! puzzles of its level, one seed after another, and keeping the first that fits every wish. Each attempt's seed comes from the order's seed, so the same order and
//! seed give the same puzzle. Orders that no puzzle can meet are refused before any work, in
//! microseconds ([`Order::check`]): a required technique rated above the range, one the shape's
//! logic does not have or one whose rule the variant lacks (a cage sum without cages), a range
//! outside the level or in which no technique the path may take rates, full houses excluded (every
//! path ends with one), givens beyond what a puzzle can have. An order that is possible but rare
//! runs until the caller's deadline, and then says what the puzzles made lacked, so the caller
//! knows which wish to loosen.

use std::fmt;

use crate::generate::Symmetry;
use crate::generate::variants as variant_generate;
use crate::interrupt::{Interrupt, Interrupted};
use crate::logic::sized as sized_logic;
use crate::logic::sized::{Book, rate_in};
use crate::logic::{Level, Technique};
use crate::puzzle::{Generated, Puzzle};
use crate::puzzle_id::PuzzleId;
use crate::random::SplitMix64;
use crate::sizes::{AnyGrid, Grid, Shape};
use crate::variants::{self, Constraints, Diagonals, Preset, Variant};

/// What the caller wants of a puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct Order {
    /// The grid's box.
    pub shape: Shape,
    /// The pattern of the givens.
    pub symmetry: Symmetry,
    /// The level, offered for the shape ([`Puzzle::offers`]).
    pub level: Level,
    /// The lowest and highest rating accepted, both included, within the level's.
    pub rating: (f32, f32),
    /// Techniques the easiest-first path must use.
    pub require: Vec<Technique>,
    /// Techniques it must not use.
    pub exclude: Vec<Technique>,
    /// The fewest and most givens accepted, both included.
    pub givens: (usize, usize),
    /// The variant the puzzle is made for, its preset and constraints, offered at the shape and
    /// level ([`Puzzle::variant_offers`]); a jigsaw's regions or a killer's cages are made
    /// with each puzzle when absent.
    pub variant: Option<(Option<Preset>, Constraints)>,
}

/// Why no puzzle can meet an order, whatever the time.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Impossible {
    /// The lowest rating is above the highest.
    #[error("the rating range {min}-{max} is empty")]
    EmptyRating {
        /// The lowest rating asked.
        min: String,
        /// The highest.
        max: String,
    },
    /// The range and the level's have no rating in common.
    #[error("the rating range {min}-{max} is outside {level}'s, above {low} up to {high}")]
    OutsideLevel {
        /// The level.
        level: Level,
        /// The lowest rating asked.
        min: String,
        /// The highest.
        max: String,
        /// The level's lowest rating, not included.
        low: String,
        /// The level's highest.
        high: String,
    },
    /// A technique both required and excluded.
    #[error("{0} is both required and excluded")]
    Both(&'static str),
    /// A required technique rated above the range.
    #[error("{technique} rates {rating}, above the highest rating asked, {max}")]
    AboveRange {
        /// The technique.
        technique: &'static str,
        /// Its rating.
        rating: String,
        /// The highest rating asked.
        max: String,
    },
    /// Fewer givens than any puzzle of the size with one solution has.
    #[error("no {size}x{size} puzzle with one solution has fewer than {fewest} givens")]
    TooFewGivens {
        /// The grid's size.
        size: usize,
        /// The fewest givens a proper puzzle of the size has.
        fewest: usize,
    },
    /// A required technique the logic of the shape, or of a variant, does not apply.
    #[error("{technique} is not applied to {grids}")]
    NotApplied {
        /// The technique.
        technique: &'static str,
        /// The grids: `16x16 grids`, `variant grids`.
        grids: String,
    },
    /// The givens range is empty or outside the grid.
    #[error("the givens range {min}-{max} is empty or beyond the grid's {cells} cells")]
    Givens {
        /// The fewest asked.
        min: usize,
        /// The most.
        max: usize,
        /// The grid's cells.
        cells: usize,
    },
    /// As many givens as cells: a full grid, not a puzzle.
    #[error("{min} givens fill the grid's {cells} cells; a puzzle has a blank, so at most {most} givens")]
    NoBlank {
        /// The fewest asked.
        min: usize,
        /// The grid's cells.
        cells: usize,
        /// The most givens a puzzle has.
        most: usize,
    },
    /// A required technique that rests on a rule the puzzle's rules do not have.
    #[error("{technique} needs {rule}, which {grids} do not have")]
    MissingRule {
        /// The technique.
        technique: &'static str,
        /// The rule it rests on: `killer cages with sums`.
        rule: &'static str,
        /// The puzzles: `classic puzzles`, `these rules`.
        grids: &'static str,
    },
    /// Full houses excluded: every solving path ends with one.
    #[error(
        "full-house cannot be excluded: a path places one digit at a time, so its last placement fills the last \
         blank of a row, a full house, which it takes first"
    )]
    FullHouseExcluded,
    /// No technique the path may take rates within the range and the level.
    #[error(
        "no puzzle rates {min}-{max} at {level}: a puzzle rates its hardest step, and the techniques its path may \
         take there rate {ratings}"
    )]
    NoRating {
        /// The level.
        level: Level,
        /// The lowest rating asked.
        min: String,
        /// The highest.
        max: String,
        /// The ratings the techniques left rate, listed.
        ratings: String,
    },
    /// A range only full houses rate in, which only puzzles fuller than any made at a level have.
    #[error(
        "only full houses rate below {next}, and puzzles made as sparse as their level allows never take them alone \
         (a puzzle they alone solve has a blank per house at most, {houses} houses): ask for at least {fewest} givens, \
         or a higher rating"
    )]
    FullHousesOnly {
        /// The rating of the next easiest technique.
        next: String,
        /// The grid's houses under its rules.
        houses: usize,
        /// The fewest givens a puzzle full houses alone solve has.
        fewest: usize,
    },
}

/// Steps of techniques rated from here up may rate above their technique's figure (a chain by its
/// length) or a little below it (an ALS wing by its set's shape, from 5.3); below, every step
/// rates its technique's figure.
const FIGURES_FIXED_BELOW: f32 = 5.0;

/// A puzzle that meets an order.
#[derive(Clone, Debug, PartialEq)]
pub struct Made {
    /// The puzzle, its solution and rating, and for a variant the constraints it is played by.
    pub generated: Generated,
    /// What makes it again: none when givens were given back for the fewest asked, since the
    /// id makes the puzzle as generated, before that; none for a variant, whose constraints
    /// are part of it.
    pub id: Option<PuzzleId>,
    /// Puzzles made before it, it included.
    pub attempts: u32,
}

/// What the puzzles made before the deadline lacked: each attempt counts once, under the first
/// wish it missed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Missed {
    /// Puzzles made in all.
    pub attempts: u32,
    /// Rated outside the range.
    pub rating: u32,
    /// Without a required technique, per technique.
    pub lacking: Vec<(Technique, u32)>,
    /// Using an excluded technique, per technique.
    pub using: Vec<(Technique, u32)>,
    /// With too few or too many givens.
    pub givens: u32,
}

impl fmt::Display for Missed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} puzzles made", self.attempts)?;
        if self.rating > 0 {
            write!(f, "; {} rated outside the range", self.rating)?;
        }
        for (technique, count) in &self.lacking {
            write!(f, "; {count} did not use {}", technique.id())?;
        }
        for (technique, count) in &self.using {
            write!(f, "; {count} used {}", technique.id())?;
        }
        if self.givens > 0 {
            write!(f, "; {} had a number of givens outside the range", self.givens)?;
        }
        Ok(())
    }
}

impl Order {
    /// Whether some puzzle could meet the order, or why none can.
    pub fn check(&self) -> Result<(), Impossible> {
        let (min, max) = self.rating;
        let size = self.shape.size();
        let text = |rating: f32| format!("{rating:.1}");
        if min > max {
            return Err(Impossible::EmptyRating { min: text(min), max: text(max) });
        }
        // A level holds the ratings `low < r <= high`.
        let (low, high) = self.level.range();
        if low >= max || min > high {
            let level = self.level;
            return Err(Impossible::OutsideLevel {
                level,
                min: text(min),
                max: text(max),
                low: text(low),
                high: text(high),
            });
        }
        if let Some(&both) = self.require.iter().find(|technique| self.exclude.contains(technique)) {
            return Err(Impossible::Both(both.id()));
        }
        if self.exclude.contains(&Technique::FullHouse) {
            return Err(Impossible::FullHouseExcluded);
        }
        for &technique in &self.require {
            // A chain's rating only grows with its length.
            if technique.rating() > max {
                let (technique, rating) = (technique.id(), text(technique.rating()));
                return Err(Impossible::AboveRange { technique, rating, max: text(max) });
            }
            self.applied(technique)?;
        }
        let cells = self.shape.cells();
        let (fewest, most) = self.givens;
        if fewest > most || fewest > cells {
            return Err(Impossible::Givens { min: fewest, max: most, cells });
        }
        if fewest >= cells {
            return Err(Impossible::NoBlank { min: fewest, cells, most: cells - 1 });
        }
        self.check_ratings()?;
        // Proven minimums: 17 for 9x9 (McGuire, Tugemann and Civario, 2012), 4 for 4x4. A
        // variant's rules need fewer (a killer none).
        let proven = match size {
            _ if self.variant.is_some() => 0,
            4 => 4,
            9 => 17,
            _ => 0,
        };
        if most < proven {
            return Err(Impossible::TooFewGivens { size, fewest: proven });
        }
        Ok(())
    }

    /// Whether the logic of the order's shape and rules applies `technique`: the 9x9 engine's
    /// for classic 9x9 puzzles, the logic over houses and peers for the others; a variant's own
    /// techniques only where its rules have what they rest on.
    fn applied(&self, technique: Technique) -> Result<(), Impossible> {
        let (preset, constraints) = match &self.variant {
            Some((preset, constraints)) => (*preset, Some(constraints)),
            None => (None, None),
        };
        let sums = || match constraints {
            Some(constraints) if !constraints.cages.is_empty() => {
                constraints.cages.iter().any(|cage| cage.sum.is_some())
            }
            // A killer's cages are made with their sums.
            _ => preset == Some(Preset::Killer),
        };
        // Asked of the rule set's related pairs, whichever rule makes them.
        let neighbours = || {
            self.variant.as_ref().is_some_and(|(preset, constraints)| {
                variant_generate::played_variant(self.shape, *preset, constraints)
                    .is_ok_and(|variant| !variant.pairs.is_empty())
            })
        };
        let renbans = || constraints.is_some_and(|constraints| !constraints.renbans.is_empty());
        let arrows = || constraints.is_some_and(|constraints| !constraints.arrows.is_empty());
        let little_killers = || constraints.is_some_and(|constraints| !constraints.little_killers.is_empty());
        let between_lines = || constraints.is_some_and(|constraints| !constraints.between_lines.is_empty());
        let quadruples = || constraints.is_some_and(|constraints| !constraints.quadruples.is_empty());
        let lockout_lines = || constraints.is_some_and(|constraints| !constraints.lockout_lines.is_empty());
        let windows = || {
            self.variant.as_ref().is_some_and(|(preset, constraints)| {
                variant_generate::played_variant(self.shape, *preset, constraints)
                    .is_ok_and(|variant| !variant.windows.is_empty())
            })
        };
        let sandwiches = || constraints.is_some_and(|constraints| !constraints.sandwiches.is_empty());
        let x_sums = || constraints.is_some_and(|constraints| !constraints.x_sums.is_empty());
        let grids = if self.variant.is_some() { "these rules" } else { "classic puzzles" };
        let missing = |rule| Impossible::MissingRule { technique: technique.id(), rule, grids };
        match technique {
            Technique::CageSum | Technique::InniesOuties | Technique::CageCombination if !sums() => {
                return Err(missing("killer cages with sums"));
            }
            Technique::NeighbourRule if !neighbours() => {
                return Err(missing(
                    "a rule between two cells, such as a thermometer, a Kropki dot or non-consecutive",
                ));
            }
            Technique::Renban if !renbans() => return Err(missing("renban lines")),
            Technique::Arrow if !arrows() => return Err(missing("arrows")),
            Technique::LittleKiller if !little_killers() => return Err(missing("little killers")),
            Technique::BetweenLine if !between_lines() => return Err(missing("between lines")),
            Technique::Quadruple if !quadruples() => return Err(missing("quadruples")),
            Technique::LockoutLine if !lockout_lines() => return Err(missing("lockout lines")),
            Technique::DigitClasses if !windows() => {
                return Err(missing("modular or entropic lines or global entropy or mod"));
            }
            Technique::Sandwich if !sandwiches() => return Err(missing("sandwiches")),
            Technique::XSum if !x_sums() => return Err(missing("X-sums")),
            _ => {}
        }
        // Other shapes and variants are rated by the logic over houses and peers.
        let general = self.shape != Shape::CLASSIC || self.variant.is_some();
        if general && !sized_logic::TECHNIQUES.contains(&technique) {
            let size = self.shape.size();
            let grids =
                if self.variant.is_some() { "variant grids".to_owned() } else { format!("{size}x{size} grids") };
            return Err(Impossible::NotApplied { technique: technique.id(), grids });
        }
        Ok(())
    }

    /// Whether a puzzle of the order's level can rate within its range with the techniques its
    /// path may take (applied to its rules, not excluded): a puzzle rates its hardest step, and
    /// below [`FIGURES_FIXED_BELOW`] a step rates its technique's figure. A range only full
    /// houses rate in needs a puzzle fuller than any the generator makes ([`Order::check`]'s
    /// caller is told how full).
    fn check_ratings(&self) -> Result<(), Impossible> {
        let (min, max) = self.rating;
        let (low, high) = self.level.range();
        if self.level == Level::Extreme || max.min(high) >= FIGURES_FIXED_BELOW {
            return Ok(());
        }
        let taken: Vec<Technique> = Technique::ALL
            .into_iter()
            .filter(|&technique| technique.rating() <= max && technique != Technique::BruteForce)
            .filter(|technique| !self.exclude.contains(technique) && self.applied(*technique).is_ok())
            .collect();
        let fits = |rating: f32| rating >= min && rating > low && rating <= high;
        if !taken.iter().any(|technique| fits(technique.rating())) {
            let mut ratings: Vec<String> = taken.iter().map(|technique| format!("{:.1}", technique.rating())).collect();
            ratings.dedup();
            let text = |rating: f32| format!("{rating:.1}");
            let ratings = if ratings.is_empty() { "nothing".to_owned() } else { ratings.join(", ") };
            return Err(Impossible::NoRating { level: self.level, min: text(min), max: text(max), ratings });
        }
        if taken == [Technique::FullHouse] {
            let houses = self.houses();
            let fewest = self.shape.cells().saturating_sub(houses);
            if self.givens.0 < fewest {
                // The next easiest technique, which the range leaves out.
                let next =
                    Technique::ALL.into_iter().find(|technique| technique.rating() > Technique::FullHouse.rating());
                let next = format!("{:.1}", next.map_or(max, Technique::rating));
                return Err(Impossible::FullHousesOnly { next, houses, fewest });
            }
        }
        Ok(())
    }

    /// The houses of the order's grid under its rules, at most: rows, columns, boxes (or
    /// regions), diagonals and extra regions (a windoku's windows).
    ///
    /// A path of full houses alone fills each house's last blank once, so a puzzle it solves has
    /// at most this many blanks. The generator blanks every cell it can while the level's logic
    /// still solves the puzzle, and its easy puzzles never needed full houses alone: none of 800
    /// at 9x9 (22-34 givens, against the 54 full houses need), nor of 400 each at 4x4, 6x6 and
    /// 8x8, nor of 100 each of X, windoku and anti-king there; of 300 9x9 grids blanked while
    /// full houses alone solved them, every one had a given more that could go with singles still
    /// solving it. Givens given back up to this many may make such a puzzle.
    fn houses(&self) -> usize {
        let size = self.shape.size();
        let Some((preset, constraints)) = &self.variant else { return 3 * size };
        let diagonals = match (preset, constraints.diagonals) {
            (Some(Preset::X), _) | (_, Some(Diagonals::Both)) => 2,
            (_, Some(_)) => 1,
            _ => 0,
        };
        let windows = if *preset == Some(Preset::Windoku) { variants::windows(self.shape).len() } else { 0 };
        3 * size + diagonals + constraints.extra_regions.len() + windows
    }

    /// Makes puzzles from `seed` until one meets the order, or `interrupt` stops the search
    /// (then what the puzzles made lacked). The order must pass [`Order::check`].
    pub fn make(&self, seed: u64, interrupt: &mut impl Interrupt) -> Result<Made, Missed> {
        let mut seeds = SplitMix64(seed);
        let mut missed = Missed::default();
        loop {
            // Seeds below 2^53, as every seed the service answers.
            let id = PuzzleId {
                shape: self.shape,
                level: self.level,
                symmetry: self.symmetry,
                seed: seeds.next_u64() >> 11,
            };
            let Ok(generated) = self.generate(id, interrupt) else { return Err(missed) };
            missed.attempts += 1;
            let as_made = generated.puzzle.cells().iter().filter(|&&value| value != 0).count() >= self.givens.0;
            let generated = match self.with_givens_back(generated, &mut seeds, interrupt) {
                Ok(generated) => generated,
                Err(Interrupted) => return Err(missed),
            };
            if self.judge(&generated, &mut missed) {
                let id = (as_made && generated.constraints.is_none()).then_some(id);
                return Ok(Made { generated, id, attempts: missed.attempts });
            }
        }
    }

    /// The puzzle of `id`'s level, symmetry and seed, under the order's variant if any (then
    /// with the constraints it is played by).
    fn generate(&self, id: PuzzleId, interrupt: &mut impl Interrupt) -> Result<Generated, Interrupted> {
        let Some((preset, constraints)) = &self.variant else {
            return Puzzle::generate(id.shape, id.level, id.symmetry, id.seed, interrupt);
        };
        let made = Puzzle::generate_variant(id.shape, *preset, constraints, id.level, id.symmetry, id.seed, interrupt)?;
        // The caller checked that the rules have grids (`offers`); a short search that finds
        // none after all ends the order as a deadline would.
        made.map_err(|_| Interrupted)
    }

    /// `generated` with solution values given back in blank cells (symmetric partners together,
    /// in an order drawn from `random`) until it has the fewest givens the order asks, and rated
    /// again. The generator blanks as many cells as its level allows, so an order for more givens
    /// than that would otherwise never be met; a given more leaves one solution, and may make
    /// the puzzle easier, which the new rating says (and [`Order::judge`] then weighs).
    fn with_givens_back(
        &self,
        generated: Generated,
        random: &mut SplitMix64,
        interrupt: &mut impl Interrupt,
    ) -> Result<Generated, Interrupted> {
        let (size, fewest) = (self.shape.size(), self.givens.0);
        let mut cells = generated.puzzle.cells().to_vec();
        let mut givens = cells.iter().filter(|&&value| value != 0).count();
        if givens >= fewest {
            return Ok(generated);
        }
        let mut blanks: Vec<usize> = (0..cells.len()).filter(|&cell| cells[cell] == 0).collect();
        random.shuffle(&mut blanks);
        for cell in blanks {
            if givens >= fewest {
                break;
            }
            for cell in [cell, self.symmetry.partner(size, cell)] {
                if cells[cell] == 0 {
                    cells[cell] = generated.solution.cells()[cell];
                    givens += 1;
                }
            }
        }
        let grid = Grid::new(self.shape, cells).expect("solution values fit the shape");
        let rating = match &generated.constraints {
            None => Puzzle::Classic(AnyGrid::from(grid.clone())).rate_with(None, &generated.solution, interrupt)?,
            Some(constraints) => {
                // The made constraints hold the preset's already.
                let variant = Variant::new(self.shape, None, constraints).expect("made constraints fit the grid");
                let solution = Grid::from(generated.solution.clone());
                rate_in(Book::Variant(&variant), &grid, None, &solution, interrupt)?
            }
        };
        Ok(Generated { puzzle: AnyGrid::from(grid), rating, ..generated })
    }

    /// Whether `generated` meets the order; if not, counts the first wish it missed.
    fn judge(&self, generated: &Generated, missed: &mut Missed) -> bool {
        let rating = generated.rating.rating;
        let used = |wanted: Technique| generated.rating.techniques.iter().any(|used| used.technique == wanted);
        let count = |tally: &mut Vec<(Technique, u32)>, technique: Technique| match tally
            .iter_mut()
            .find(|(each, _)| *each == technique)
        {
            Some((_, count)) => *count += 1,
            None => tally.push((technique, 1)),
        };
        let givens = generated.puzzle.cells().iter().filter(|&&value| value != 0).count();
        let level = Level::of(rating, generated.rating.solved_by_logic);
        if level != self.level || rating < self.rating.0 || rating > self.rating.1 {
            missed.rating += 1;
        } else if let Some(&lacking) = self.require.iter().find(|&&technique| !used(technique)) {
            count(&mut missed.lacking, lacking);
        } else if let Some(&using) = self.exclude.iter().find(|&&technique| used(technique)) {
            count(&mut missed.using, using);
        } else if givens < self.givens.0 || givens > self.givens.1 {
            missed.givens += 1;
        } else {
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interrupt::{Deadline, Never};
    use std::time::{Duration, Instant};

    fn order() -> Order {
        Order {
            shape: Shape::CLASSIC,
            symmetry: Symmetry::None,
            level: Level::Hard,
            rating: (3.4, 4.6),
            require: Vec::new(),
            exclude: Vec::new(),
            givens: (0, 81),
            variant: None,
        }
    }

    #[test]
    fn a_made_puzzle_meets_every_wish_and_its_id_makes_it_again() {
        let wanted = Order { rating: (3.5, 4.2), require: vec![Technique::XWing], givens: (20, 30), ..order() };
        wanted.check().unwrap();
        let made = wanted.make(11, &mut Never).unwrap();
        let rating = &made.generated.rating;
        assert!((3.5..=4.2).contains(&rating.rating), "{rating:?}");
        assert!(rating.techniques.iter().any(|used| used.technique == Technique::XWing), "{rating:?}");
        let givens = made.generated.puzzle.cells().iter().filter(|&&value| value != 0).count();
        assert!((20..=30).contains(&givens));
        let id = made.id.expect("no givens were given back");
        let again = Puzzle::generate(id.shape, id.level, id.symmetry, id.seed, &mut Never).unwrap();
        assert_eq!(again, made.generated);
        // The same order and seed, the same puzzle.
        assert_eq!(wanted.make(11, &mut Never).unwrap(), made);
        // Excluding the technique gives puzzles without it.
        let without = Order { exclude: vec![Technique::XWing], require: Vec::new(), ..wanted };
        let made = without.make(11, &mut Never).unwrap();
        assert!(made.generated.rating.techniques.iter().all(|used| used.technique != Technique::XWing));
    }

    #[test]
    fn givens_are_given_back_up_to_the_fewest_asked() {
        let generous = Order {
            level: Level::Easy,
            rating: Level::Easy.range(),
            givens: (40, 44),
            symmetry: Symmetry::Rotational,
            ..order()
        };
        generous.check().unwrap();
        for seed in 0..5 {
            let made = generous.make(seed, &mut Never).unwrap();
            let puzzle = &made.generated.puzzle;
            let givens = puzzle.cells().iter().filter(|&&value| value != 0).count();
            assert!((40..=44).contains(&givens), "{givens}");
            assert!((0..81).all(|cell| (puzzle.cells()[cell] == 0) == (puzzle.cells()[80 - cell] == 0)), "symmetric");
            // Still one solution, the one answered, and rated anew.
            let solution = crate::solver::classify(&puzzle.to_string().parse().unwrap(), &mut Never).unwrap();
            assert_eq!(solution.unique().map(AnyGrid::Classic).ok(), Some(made.generated.solution.clone()));
            assert_eq!(made.generated.rating, Puzzle::Classic(puzzle.clone()).rate(&mut Never).unwrap().unwrap());
            assert_eq!(made.generated.rating.level, Level::Easy);
            assert_eq!(made.id, None, "the id would make the sparser puzzle");
        }
    }

    #[test]
    fn impossible_orders_are_refused_before_any_work() {
        let refused = |wanted: Order| wanted.check().unwrap_err().to_string();
        assert_eq!(refused(Order { rating: (5.0, 4.0), ..order() }), "the rating range 5.0-4.0 is empty");
        let both = Order { require: vec![Technique::XWing], exclude: vec![Technique::XWing], ..order() };
        assert_eq!(refused(both), "x-wing is both required and excluded");
        let above = Order { level: Level::Medium, rating: (2.4, 3.0), require: vec![Technique::XWing], ..order() };
        assert_eq!(refused(above), "x-wing rates 3.2, above the highest rating asked, 3.0");
        let outside = Order { rating: (5.0, 6.0), ..order() };
        assert_eq!(refused(outside), "the rating range 5.0-6.0 is outside hard's, above 3.4 up to 4.6");
        assert!(Order { rating: (1.0, 3.4), ..order() }.check().is_err(), "3.4 is medium's");
        let six = Shape::new(2, 3).unwrap();
        let chain = Order {
            shape: six,
            level: Level::Extreme,
            rating: (7.0, 10.0),
            require: vec![Technique::ForcingChain],
            givens: (0, 36),
            ..order()
        };
        assert_eq!(refused(chain), "forcing-chain is not applied to 6x6 grids");
        assert_eq!(
            refused(Order { givens: (30, 20), ..order() }),
            "the givens range 30-20 is empty or beyond the grid's 81 cells"
        );
        let sixteen = Order { givens: (0, 16), ..order() };
        assert_eq!(refused(sixteen), "no 9x9 puzzle with one solution has fewer than 17 givens");
    }

    #[test]
    fn orders_the_rules_or_the_level_make_impossible_are_refused() {
        let refused = |wanted: Order| wanted.check().unwrap_err().to_string();
        let easy = Order { level: Level::Easy, rating: Level::Easy.range(), ..order() };
        let medium = Order { level: Level::Medium, rating: Level::Medium.range(), ..order() };
        let x = Some((Some(Preset::X), Constraints::default()));
        // A variant's own techniques need its rules.
        for (technique, rule) in [
            (Technique::CageSum, "killer cages with sums"),
            (Technique::InniesOuties, "killer cages with sums"),
            (
                Technique::NeighbourRule,
                "a rule between two cells, such as a thermometer, a Kropki dot or non-consecutive",
            ),
            (Technique::Renban, "renban lines"),
            (Technique::Arrow, "arrows"),
            (Technique::LittleKiller, "little killers"),
            (Technique::BetweenLine, "between lines"),
            (Technique::Quadruple, "quadruples"),
            (Technique::LockoutLine, "lockout lines"),
            (Technique::DigitClasses, "modular or entropic lines or global entropy or mod"),
            (Technique::Sandwich, "sandwiches"),
            (Technique::XSum, "X-sums"),
        ] {
            let classic = Order { require: vec![technique], ..medium.clone() };
            let id = technique.id();
            assert_eq!(refused(classic.clone()), format!("{id} needs {rule}, which classic puzzles do not have"));
            let on_x = Order { variant: x.clone(), ..classic };
            assert_eq!(refused(on_x), format!("{id} needs {rule}, which these rules do not have"));
        }
        let killer = Some((Some(Preset::Killer), Constraints::default()));
        assert!(Order { require: vec![Technique::InniesOuties], variant: killer, ..medium.clone() }.check().is_ok());
        let cages = Constraints {
            cages: vec![crate::variants::Cage { cells: vec![crate::variants::Place(0, 0)], sum: None }],
            ..Constraints::default()
        };
        let unsummed = Order { require: vec![Technique::CageSum], variant: Some((None, cages)), ..easy.clone() };
        assert!(refused(unsummed).starts_with("cage-sum needs killer cages with sums"));
        // The neighbour rule needs related pairs, whichever rule makes them: a thermometer of
        // one cell makes none.
        let place = crate::variants::Place;
        let thermo = Constraints { thermometers: vec![vec![place(0, 0), place(0, 1)]], ..Constraints::default() };
        let bulb = Constraints { thermometers: vec![vec![place(0, 0)]], ..Constraints::default() };
        let xv = Constraints {
            xv: crate::variants::Xv { v: vec![[place(0, 0), place(1, 0)]], ..Default::default() },
            ..Constraints::default()
        };
        let neighbours =
            |rules| Order { require: vec![Technique::NeighbourRule], variant: Some(rules), ..easy.clone() };
        assert!(neighbours((None, thermo)).check().is_ok());
        assert!(neighbours((None, xv)).check().is_ok());
        assert!(neighbours((Some(Preset::NonConsecutive), Constraints::default())).check().is_ok());
        assert!(refused(neighbours((None, bulb))).starts_with("neighbour-rule needs a rule between two cells"));
        // Every path ends with a full house.
        for level in [Level::Easy, Level::Medium, Level::Extreme] {
            let without = Order { level, rating: level.range(), exclude: vec![Technique::FullHouse], ..order() };
            assert!(refused(without).starts_with("full-house cannot be excluded"), "{level}");
        }
        // Ratings no technique the path may take has.
        assert_eq!(
            refused(Order { rating: (2.0, 2.2), ..easy.clone() }),
            "no puzzle rates 2.0-2.2 at easy: a puzzle rates its hardest step, and the techniques its path may take \
             there rate 1.0, 1.2, 1.5"
        );
        assert!(refused(Order { rating: (0.0, 0.5), ..easy.clone() }).starts_with("no puzzle rates 0.0-0.5 at easy"));
        let medium_techniques =
            Technique::ALL.into_iter().filter(|technique| (2.4..=3.4).contains(&technique.rating()));
        let plain = Order { exclude: medium_techniques.collect(), ..medium.clone() };
        assert!(refused(plain).starts_with("no puzzle rates 2.3-3.4 at medium"));
        // Full houses alone: a puzzle full enough, which the generator never makes.
        assert_eq!(
            refused(Order { rating: (1.0, 1.0), ..easy.clone() }),
            "only full houses rate below 1.2, and puzzles made as sparse as their level allows never take them alone \
             (a puzzle they alone solve has a blank per house at most, 27 houses): ask for at least 54 givens, or a \
             higher rating"
        );
        let singles = vec![Technique::HiddenSingleBox, Technique::HiddenSingleLine, Technique::NakedSingle];
        assert!(refused(Order { exclude: singles, ..easy.clone() }).starts_with("only full houses"));
        let on_x =
            Order { rating: (1.0, 1.0), variant: x, shape: Shape::new(2, 2).unwrap(), givens: (0, 16), ..easy.clone() };
        assert!(refused(on_x).contains("14 houses): ask for at least 2 givens"));
        assert!(Order { rating: (1.0, 1.0), givens: (54, 81), ..easy.clone() }.check().is_ok(), "given back to 54");
        assert!(Order { rating: (1.2, 1.2), ..easy.clone() }.check().is_ok());
        // A puzzle has a blank.
        assert_eq!(
            refused(Order { givens: (81, 81), ..easy }),
            "81 givens fill the grid's 81 cells; a puzzle has a blank, so at most 80 givens"
        );
    }

    #[test]
    fn a_variant_order_is_met_under_the_variants_rules() {
        let x = Some((Some(Preset::X), Constraints::default()));
        let wanted = Order { level: Level::Medium, rating: (2.0, 3.4), givens: (30, 36), variant: x, ..order() };
        wanted.check().unwrap();
        let made = wanted.make(5, &mut Never).unwrap();
        let constraints = made.generated.constraints.clone().expect("a variant's constraints");
        assert_eq!(constraints.diagonals, Some(crate::variants::Diagonals::Both));
        assert_eq!(made.id, None, "a variant puzzle has no id");
        let givens = made.generated.puzzle.cells().iter().filter(|&&value| value != 0).count();
        assert!((30..=36).contains(&givens), "{givens}");
        // One solution under the diagonals, the one answered, and the rating the variant's logic gives.
        let puzzle = Puzzle::new(made.generated.puzzle.clone(), None, &constraints).unwrap();
        let verdict = puzzle.classify(&mut Never).unwrap();
        assert_eq!(verdict.unique().ok(), Some(made.generated.solution.clone()));
        let rating = puzzle.rate(&mut Never).unwrap().unwrap();
        assert_eq!(made.generated.rating, rating);
        assert!((2.0..=3.4).contains(&rating.rating) && rating.level == Level::Medium, "{rating:?}");
        assert_eq!(wanted.make(5, &mut Never).unwrap(), made, "the same order and seed, the same puzzle");
        // A variant needs no proven minimum of givens, and is rated by the general logic.
        let killer = Some((Some(Preset::Killer), Constraints::default()));
        assert!(Order { givens: (0, 5), variant: killer.clone(), ..order() }.check().is_ok());
        let chain = Order {
            level: Level::Extreme,
            rating: (7.0, 10.0),
            require: vec![Technique::ForcingChain],
            variant: killer,
            ..order()
        };
        assert_eq!(chain.check().unwrap_err().to_string(), "forcing-chain is not applied to variant grids");
    }

    #[test]
    fn a_rare_order_ends_at_the_deadline_saying_what_was_missing() {
        // Hard puzzles with at most 20 givens are rare; a short deadline ends the search.
        let rare = Order { givens: (0, 19), ..order() };
        rare.check().unwrap();
        let mut deadline = Deadline(Instant::now() + Duration::from_millis(150));
        let missed = rare.make(3, &mut deadline).unwrap_err();
        assert!(missed.attempts > 0);
        assert_eq!(missed.attempts, missed.rating + missed.givens, "{missed:?}");
        assert!(missed.givens > 0, "{missed:?}");
        assert!(missed.to_string().contains("had a number of givens outside the range"), "{missed}");
    }
}
