//! Variant Sudoku: diagonals, extra regions, jigsaw regions, killer cages, anti-knight,
//! anti-king, non-consecutive, thermometers, Kropki dots, X and V marks, greater-than signs and
//! even/odd cells, as data next to a board of any size, alone or combined.
//!
//! [`Constraints`] is what a request gives, [`Preset`] a variant by name; [`Variant::new`] checks
//! them against the grid's shape once and builds the houses, peers, pair relations and cage sums
//! that [`solver`] reads and [`Variant::conflicts`] checks. A board under them is a [`Puzzle`](crate::puzzle::Puzzle).

pub mod solver;

pub(crate) use sudokud_model::{constraints, variant};

pub use constraints::{
    Arrow, Between, Cage, Constraints, CustomRelation, Diagonals, DigitPair, Direction, End, GreaterThan, Kropki,
    LittleKiller, LockoutLine, Place, Preset, Quadruple, RegionId, Regions, Sandwich, Whispers, XSum, Xv,
};
pub use variant::{ConstraintError, Variant, windows};

/// The killer's innie and outie groups (`sudokud_model::family::cages::sum_groups`) on generated puzzles and
/// in the logic's steps, which the model's own tests cannot reach.
#[cfg(test)]
pub(crate) mod sum_group_tests {
    use super::{Constraints, Preset, Variant};
    use crate::interrupt::Never;
    use crate::logic::Level;
    use crate::rules::Unit;
    use crate::sizes::Shape;

    /// Every group's cells, read off a solved grid, add up to its sum: the solution is the
    /// oracle, and the groups were found from the cages alone.
    #[test]
    fn every_group_adds_up_on_the_solution() {
        let shape = Shape::new(3, 3).unwrap();
        let (mut innies, mut outies) = (0, 0);
        for seed in 0..6 {
            let generated = crate::generate::variants::made(shape, Preset::Killer, Level::Easy, seed);
            let variant = Variant::new(shape, Some(Preset::Killer), &generated.constraints).unwrap();
            for group in &variant.sum_groups {
                let digits = group.cells.iter().map(|&cell| u32::from(generated.solution.cells()[usize::from(cell)]));
                assert_eq!(digits.sum::<u32>(), group.sum, "{group:?}");
                assert!(group.cells.len() <= 9);
                if group.outies {
                    outies += 1;
                } else {
                    innies += 1;
                }
            }
        }
        assert!(innies > 50 && outies > 50, "{innies} innie and {outies} outie groups");
    }

    /// Every sum difference and hidden cage found from the cages alone holds on the solution:
    /// added digits less taken ones make the difference, a hidden cage's digits differ and make
    /// its sum.
    #[test]
    fn every_difference_and_hidden_cage_holds_on_the_solution() {
        let shape = Shape::new(3, 3).unwrap();
        let (mut mixed, mut hidden) = (0, 0);
        for seed in 0..6 {
            let generated = crate::generate::variants::made(shape, Preset::Killer, Level::Hard, seed);
            let variant = Variant::new(shape, Some(Preset::Killer), &generated.constraints).unwrap();
            let digit = |cell: &u16| i32::from(generated.solution.cells()[usize::from(*cell)]);
            for difference in &variant.sum_differences {
                let (added, taken) = difference.cells.split_at(difference.added);
                let made = added.iter().map(digit).sum::<i32>() - taken.iter().map(digit).sum::<i32>();
                assert_eq!(made, difference.difference, "{difference:?}");
                mixed += usize::from(!added.is_empty() && !taken.is_empty());
            }
            for cage in &variant.hidden_cages {
                let digits: Vec<i32> = cage.cells.iter().map(digit).collect();
                assert_eq!(digits.iter().sum::<i32>() as u32, cage.sum.unwrap(), "{cage:?}");
                let set = digits.iter().fold(0u32, |set, &digit| set | 1 << (digit - 1));
                assert_eq!(set.count_ones() as usize, digits.len(), "{cage:?}");
                assert!(cage.combinations.contains(&set), "{cage:?}");
                hidden += 1;
            }
        }
        assert!(mixed > 10 && hidden > 10, "{mixed} mixed differences, {hidden} hidden cages");
    }

    /// Hard and extreme killers explained step by step: every placement and elimination agrees
    /// with the solution, and the innies-and-outies and cage-combination sentences say which
    /// area, cage and cells.
    #[test]
    fn killer_steps_keep_the_solution() {
        use crate::logic::Technique;
        let shape = Shape::new(3, 3).unwrap();
        let (mut innies, mut combinations) = (Vec::new(), Vec::new());
        for (level, seed) in
            [(Level::Hard, 0), (Level::Hard, 1), (Level::Hard, 2), (Level::Extreme, 0), (Level::Extreme, 1)]
        {
            let generated = crate::generate::variants::made(shape, Preset::Killer, level, seed);
            let puzzle = crate::puzzle::Puzzle::new(
                generated.puzzle.clone().into(),
                Some(Preset::Killer),
                &generated.constraints,
            )
            .unwrap();
            let explained = puzzle.explain(&mut Never).unwrap().unwrap();
            let solution = generated.solution.cells();
            let digit = |row: usize, col: usize| solution[row * 9 + col];
            for step in &explained.steps {
                assert!(step.placements.iter().all(|placed| placed.digit == digit(placed.row, placed.col)), "{step:?}");
                assert!(step.eliminations.iter().all(|lost| lost.digit != digit(lost.row, lost.col)), "{step:?}");
                match step.technique {
                    Technique::InniesOuties => innies.push(step.explanation.clone()),
                    Technique::CageCombination => combinations.push(step.explanation.clone()),
                    _ => {}
                }
            }
        }
        assert!(innies.len() >= 6, "{innies:?}");
        let adds_up = |text: &String| text.contains(" add up to ") || text.contains(" adds up to ");
        assert!(innies.iter().all(adds_up), "{innies:?}");
        assert!(innies.iter().any(|text| text.starts_with("The cages that cover ")), "no outies in {innies:?}");
        assert!(innies.iter().any(|text| text.contains("wholly inside")), "no innies in {innies:?}");
        assert!(combinations.len() >= 3, "{combinations:?}");
        let said = |text: &String| {
            text.starts_with("Trying every way the cage of ") || text.starts_with("Every way the cage of ")
        };
        assert!(combinations.iter().all(said), "{combinations:?}");
    }

    /// Boxes 1 and 2 of a 9x9 grid: a cage across their border (r1c3, r1c4: 3), the rest of box
    /// 1 (44) and of box 2 but r3c6 (38) lie wholly inside the pair, so r3c6 adds up to
    /// 90 - 85 = 5, which neither box alone shows (each has a cage sticking out).
    pub(crate) fn cages_across_two_boxes() -> Constraints {
        let box_1 = (0..3).flat_map(|row| (0..3).map(move |col| [row, col]));
        let box_2 = (0..3).flat_map(|row| (3..6).map(move |col| [row, col]));
        let rest_1: Vec<_> = box_1.filter(|&cell| cell != [0, 2]).collect();
        let rest_2: Vec<_> = box_2.filter(|&cell| cell != [0, 3] && cell != [2, 5]).collect();
        serde_json::from_value(serde_json::json!({
            "cages": [{"cells": [[0, 2], [0, 3]], "sum": 3}, {"cells": rest_1, "sum": 44}, {"cells": rest_2, "sum": 38}]
        }))
        .unwrap()
    }

    #[test]
    fn a_cage_across_two_boxes_gives_an_innie_of_the_pair() {
        let variant = Variant::new(Shape::CLASSIC, None, &cages_across_two_boxes()).unwrap();
        let pair = variant.sum_groups.iter().find(|group| group.cells == [23]).expect("an innie r3c6");
        assert_eq!((pair.sum, pair.outies, pair.houses.len()), (5, false, 2));
        let boxes: Vec<Unit> = pair.houses.iter().map(|&house| variant.house_units[usize::from(house)]).collect();
        assert_eq!(boxes, [Unit::Box, Unit::Box]);
    }
}
