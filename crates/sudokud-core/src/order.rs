//! Puzzles made to order: a rating range, techniques the solving path must use or must not, a
//! range of givens, beside the shape, symmetry and variant a level's generation already takes.
//!
//! The generator makes a puzzle of a level ([`AnyGrid::generate`], or
//! [`variants::generate::generate`] for a variant); an order is met by making
//! puzzles of its level, one seed after another, and keeping the first that fits every wish. Each attempt's seed comes from the order's seed, so the same order and
//! seed give the same puzzle. Orders that no puzzle can meet (a required technique rated above
//! the range, one the shape's logic does not have, a range outside the level) are refused before
//! any work; an order that is possible but rare runs until the caller's deadline,
//! and then says what the puzzles made lacked, so the caller knows which wish to loosen.

use std::fmt;

use crate::generate::Symmetry;
use crate::logic::{Level, Technique};
use crate::puzzle_id::PuzzleId;
use crate::random::SplitMix64;
use crate::sizes::logic::{Book, rate_in};
use crate::sizes::{AnyGrid, GeneratedGrid, Grid, Shape, logic as sized_logic};
use crate::solver::{Interrupt, Interrupted};
use crate::variants::{self, Constraints, Preset, Variant};

/// What the caller wants of a puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct Order {
    /// The grid's box.
    pub shape: Shape,
    /// The pattern of the givens.
    pub symmetry: Symmetry,
    /// The level, offered for the shape ([`AnyGrid::offers`]).
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
    /// level ([`variants::generate::offers`]); a jigsaw's regions or a killer's cages are made
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
}

/// A puzzle that meets an order.
#[derive(Clone, Debug, PartialEq)]
pub struct Made {
    /// The puzzle, its solution and rating.
    pub generated: GeneratedGrid,
    /// For a variant, the constraints it is played by, regions or cages made for it included.
    pub constraints: Option<Constraints>,
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
        for &technique in &self.require {
            // A chain's rating only grows with its length.
            if technique.rating() > max {
                let (technique, rating) = (technique.id(), text(technique.rating()));
                return Err(Impossible::AboveRange { technique, rating, max: text(max) });
            }
            // Other shapes and variants are rated by the logic over houses and peers.
            let general = self.shape != Shape::CLASSIC || self.variant.is_some();
            if general && !sized_logic::TECHNIQUES.contains(&technique) {
                let grids =
                    if self.variant.is_some() { "variant grids".to_owned() } else { format!("{size}x{size} grids") };
                return Err(Impossible::NotApplied { technique: technique.id(), grids });
            }
        }
        let cells = self.shape.cells();
        let (fewest, most) = self.givens;
        if fewest > most || fewest > cells {
            return Err(Impossible::Givens { min: fewest, max: most, cells });
        }
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
            let Ok((generated, constraints)) = self.generate(id, interrupt) else { return Err(missed) };
            missed.attempts += 1;
            let as_made = generated.puzzle.cells().iter().filter(|&&value| value != 0).count() >= self.givens.0;
            let generated = match self.with_givens_back(generated, constraints.as_ref(), &mut seeds, interrupt) {
                Ok(generated) => generated,
                Err(Interrupted) => return Err(missed),
            };
            if self.judge(&generated, &mut missed) {
                let id = (as_made && constraints.is_none()).then_some(id);
                return Ok(Made { generated, constraints, id, attempts: missed.attempts });
            }
        }
    }

    /// The puzzle of `id`'s level, symmetry and seed, under the order's variant if any (then
    /// with the constraints it is played by).
    fn generate(
        &self,
        id: PuzzleId,
        interrupt: &mut impl Interrupt,
    ) -> Result<(GeneratedGrid, Option<Constraints>), Interrupted> {
        let Some((preset, constraints)) = &self.variant else {
            return Ok((AnyGrid::generate(id.shape, id.level, id.symmetry, id.seed, interrupt)?, None));
        };
        let made =
            variants::generate::generate(id.shape, *preset, constraints, id.level, id.symmetry, id.seed, interrupt)?;
        // The caller checked that the rules have grids (`offers`); a short search that finds
        // none after all ends the order as a deadline would.
        let made = made.map_err(|_| Interrupted)?;
        let (puzzle, solution) = (AnyGrid::from(made.puzzle), AnyGrid::from(made.solution));
        Ok((GeneratedGrid { puzzle, solution, rating: made.rating }, Some(made.constraints)))
    }

    /// `generated` with solution values given back in blank cells (symmetric partners together,
    /// in an order drawn from `random`) until it has the fewest givens the order asks, and rated
    /// again. The generator blanks as many cells as its level allows, so an order for more givens
    /// than that would otherwise never be met; a given more leaves one solution, and may make
    /// the puzzle easier, which the new rating says (and [`Order::judge`] then weighs).
    fn with_givens_back(
        &self,
        generated: GeneratedGrid,
        constraints: Option<&Constraints>,
        random: &mut SplitMix64,
        interrupt: &mut impl Interrupt,
    ) -> Result<GeneratedGrid, Interrupted> {
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
        let rating = match constraints {
            None => AnyGrid::from(grid.clone()).rate_with(None, &generated.solution, interrupt)?,
            Some(constraints) => {
                // The made constraints hold the preset's already.
                let variant = Variant::new(self.shape, None, constraints).expect("made constraints fit the grid");
                let solution = variants::sized(&generated.solution);
                rate_in(Book::Variant(&variant), &grid, None, &solution, interrupt)?
            }
        };
        Ok(GeneratedGrid { puzzle: AnyGrid::from(grid), rating, ..generated })
    }

    /// Whether `generated` meets the order; if not, counts the first wish it missed.
    fn judge(&self, generated: &GeneratedGrid, missed: &mut Missed) -> bool {
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
    use crate::solver::{Deadline, Never};
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
        let again = AnyGrid::generate(id.shape, id.level, id.symmetry, id.seed, &mut Never).unwrap();
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
            assert_eq!(made.generated.rating, puzzle.rate(&mut Never).unwrap().unwrap());
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
    fn a_variant_order_is_met_under_the_variants_rules() {
        let x = Some((Some(Preset::X), Constraints::default()));
        let wanted = Order { level: Level::Medium, rating: (2.0, 3.4), givens: (30, 36), variant: x, ..order() };
        wanted.check().unwrap();
        let made = wanted.make(5, &mut Never).unwrap();
        let constraints = made.constraints.clone().expect("a variant's constraints");
        assert_eq!(constraints.diagonals, Some(crate::variants::Diagonals::Both));
        assert_eq!(made.id, None, "a variant puzzle has no id");
        let givens = made.generated.puzzle.cells().iter().filter(|&&value| value != 0).count();
        assert!((30..=36).contains(&givens), "{givens}");
        // One solution under the diagonals, the one answered, and the rating the variant's logic gives.
        let puzzle = crate::variants::Puzzle::new(made.generated.puzzle.clone(), None, &constraints).unwrap();
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
