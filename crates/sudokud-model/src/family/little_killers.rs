//! Little killers: a clue outside the grid with an arrow along a diagonal, the digits on the
//! diagonal from its first cell to the grid's edge adding up to the clue. Digits may repeat on it
//! unless a house forbids (a diagonal is a house only under Sudoku X's rule).
//!
//! A clue is its diagonal's first cell (`start`, on the grid's edge) and the way the arrow points
//! (`direction`): the clue sits outside, one step back from `start`. f-puzzles writes the same
//! clue as that outside cell and the direction; the Interactive Sudoku Solver names a diagonal by
//! one of its end cells ([`crate::exchange::iss`]).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Builder, Family};
use crate::constraints::{Constraints, Place};
use crate::member::{self, Choice, Object, choice_traits, object_traits};
use crate::unit::{Unit, Units};
use crate::variant::{ConstraintError, Variant};

/// Most little killers a variant may have: the solver keeps one bit per clue.
pub const MAX_LITTLE_KILLERS: usize = 640;

/// The way a little killer's arrow points along its diagonal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Down and to the right: rows and columns grow.
    DownRight,
    /// Down and to the left.
    DownLeft,
    /// Up and to the right.
    UpRight,
    /// Up and to the left.
    UpLeft,
}

impl Direction {
    /// One step along the diagonal: rows down and columns right, each 1 or -1.
    pub fn step(self) -> (i64, i64) {
        match self {
            Direction::DownRight => (1, 1),
            Direction::DownLeft => (1, -1),
            Direction::UpRight => (-1, 1),
            Direction::UpLeft => (-1, -1),
        }
    }

    /// The direction of a step of `rows` down and `cols` right, each 1 or -1.
    pub fn of_step(rows: i64, cols: i64) -> Option<Direction> {
        Direction::ALL.iter().copied().find(|direction| direction.step() == (rows, cols))
    }

    /// The other way along the same diagonal.
    pub fn reversed(self) -> Direction {
        let (rows, cols) = self.step();
        Direction::of_step(-rows, -cols).expect("every step reversed is a step")
    }
}

impl Choice for Direction {
    const KIND: &'static str = "direction";
    const ALL: &'static [Direction] =
        &[Direction::DownRight, Direction::DownLeft, Direction::UpRight, Direction::UpLeft];

    fn name(self) -> &'static str {
        match self {
            Direction::DownRight => "down_right",
            Direction::DownLeft => "down_left",
            Direction::UpRight => "up_right",
            Direction::UpLeft => "up_left",
        }
    }
}

choice_traits!(Direction);

/// One little killer clue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(remote = "Self")]
pub struct LittleKiller {
    /// What the digits on the diagonal add up to.
    #[serde(deserialize_with = "member::integer")]
    pub sum: u64,
    /// The diagonal's first cell, on the grid's edge beside the clue.
    pub start: Place,
    /// The way the arrow points, from `start` to the grid's far edge.
    pub direction: Direction,
}

impl LittleKiller {
    /// Where the clue sits, outside the grid: one step back from `start`, as `(row, col)`, each
    /// -1 to N (the grid's edge beyond).
    pub fn clue(&self) -> (i64, i64) {
        let (rows, cols) = self.direction.step();
        (self.start.0 as i64 - rows, self.start.1 as i64 - cols)
    }

    /// The diagonal's cells on a grid of `size`, from `start` to the edge; none when `start` is
    /// outside the grid.
    pub fn cells(&self, size: usize) -> Vec<Place> {
        let (rows, cols) = self.direction.step();
        let inside = |coordinate: i64| (0..size as i64).contains(&coordinate);
        let (mut row, mut col) = (self.start.0.min(i64::MAX as u64) as i64, self.start.1.min(i64::MAX as u64) as i64);
        let mut cells = Vec::new();
        while inside(row) && inside(col) {
            cells.push(Place(row as u64, col as u64));
            (row, col) = (row + rows, col + cols);
        }
        cells
    }
}

impl Object for LittleKiller {
    fn read_members<'de, D: Deserializer<'de>>(deserializer: D) -> Result<LittleKiller, D::Error> {
        LittleKiller::deserialize(deserializer)
    }
}

object_traits!(LittleKiller);

impl Serialize for LittleKiller {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        LittleKiller::serialize(self, serializer)
    }
}

/// A little killer, checked: the cells of its diagonal, whose digits add up to its sum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LittleKillerRule {
    /// The diagonal's cells, from the clue's end.
    pub cells: Vec<u16>,
    /// What their digits add up to.
    pub sum: u32,
}

/// The little killers.
pub(crate) struct LittleKillers;

impl Family for LittleKillers {
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        let size = rules.shape.size();
        let count = constraints.little_killers.len();
        if count > MAX_LITTLE_KILLERS {
            let message = format!("has {count} clues; at most {MAX_LITTLE_KILLERS} are taken");
            return Err(ConstraintError::new("constraints.little_killers", message));
        }
        for (number, clue) in constraints.little_killers.iter().enumerate() {
            let member = format!("constraints.little_killers[{number}]");
            let start = rules.cell(clue.start, &format!("{member}.start"))?;
            let (row, col) = clue.clue();
            let outside = |coordinate: i64| !(0..size as i64).contains(&coordinate);
            if !outside(row) && !outside(col) {
                let message = format!(
                    "{} is not on the grid's edge {}: the clue before it would be r{}c{}, inside the grid",
                    rules.name(start),
                    facing(clue.direction),
                    row + 1,
                    col + 1
                );
                return Err(ConstraintError::new(format!("{member}.start"), message));
            }
            let cells: Vec<u16> =
                clue.cells(size).into_iter().map(|place| (place.0 * size as u64 + place.1) as u16).collect();
            let (least, most) = (cells.len() as u64, (cells.len() * size) as u64);
            if !(least..=most).contains(&clue.sum) {
                let cells = match cells.len() {
                    1 => "1 cell holds".to_owned(),
                    count => format!("{count} cells add up to"),
                };
                let message = format!("its diagonal's {cells} {least} to {most}, not {}", clue.sum);
                return Err(ConstraintError::new(format!("{member}.sum"), message));
            }
            rules.little_killers.push(LittleKillerRule { cells, sum: clue.sum as u32 });
        }
        Ok(())
    }

    /// A diagonal whose filled digits already keep it from its sum: more than the sum, or too
    /// little for the empty cells to make up (each counted as 1 to N).
    fn conflicts(variant: &Variant, cells: &[u8], broken: &mut [Units]) {
        let size = variant.shape().size() as u32;
        for rule in &variant.little_killers {
            let (filled, empty) =
                rule.cells.iter().fold((0u32, 0u32), |(filled, empty), &cell| match cells[usize::from(cell)] {
                    0 => (filled, empty + 1),
                    digit => (filled + u32::from(digit), empty),
                });
            if filled + empty > rule.sum || filled + empty * size < rule.sum {
                for &cell in &rule.cells {
                    if cells[usize::from(cell)] != 0 {
                        broken[usize::from(cell)].insert(Unit::LittleKiller.into());
                    }
                }
            }
        }
    }
}

/// `facing up and to the left`: where a clue pointing `direction` must sit, for people.
fn facing(direction: Direction) -> &'static str {
    match direction {
        Direction::DownRight => "for an arrow down and to the right (the top row or the left column)",
        Direction::DownLeft => "for an arrow down and to the left (the top row or the right column)",
        Direction::UpRight => "for an arrow up and to the right (the bottom row or the left column)",
        Direction::UpLeft => "for an arrow up and to the left (the bottom row or the right column)",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::tests;
    use crate::grid::Grid;
    use crate::shape::Shape;

    #[test]
    fn a_clue_follows_its_diagonal_to_the_edge() {
        let clue = |start: (u64, u64), direction| LittleKiller { sum: 10, start: Place(start.0, start.1), direction };
        let places = |list: &[(u64, u64)]| list.iter().map(|&(row, col)| Place(row, col)).collect::<Vec<_>>();
        assert_eq!(clue((0, 2), Direction::DownLeft).cells(4), places(&[(0, 2), (1, 1), (2, 0)]));
        assert_eq!(clue((0, 0), Direction::DownRight).clue(), (-1, -1));
        assert_eq!(clue((3, 0), Direction::UpRight).cells(4), places(&[(3, 0), (2, 1), (1, 2), (0, 3)]));
        assert_eq!(clue((3, 0), Direction::UpRight).clue(), (4, -1));
        assert_eq!(clue((3, 3), Direction::DownRight).cells(4), places(&[(3, 3)]));
        assert_eq!(clue((4, 0), Direction::UpRight).cells(4), []);
        for direction in Direction::ALL.iter().copied() {
            assert_eq!(direction.reversed().reversed(), direction);
            assert_ne!(direction.reversed(), direction);
        }
    }

    #[test]
    fn a_clue_that_cannot_fit_is_refused_naming_it() {
        for (json, expected) in [
            (
                r#"{"little_killers":[{"sum":10,"start":[9,0],"direction":"down_right"}]}"#,
                "`constraints.little_killers[0].start`: cell [9, 0] is outside the 9x9 grid (rows and columns 0 to 8)",
            ),
            (
                r#"{"little_killers":[{"sum":10,"start":[0,2],"direction":"up_left"}]}"#,
                "`constraints.little_killers[0].start`: r1c3 is not on the grid's edge for an arrow up and to the left (the bottom row or the right column): the clue before it would be r2c4, inside the grid",
            ),
            (
                r#"{"little_killers":[{"sum":2,"start":[0,6],"direction":"down_right"}]}"#,
                "`constraints.little_killers[0].sum`: its diagonal's 3 cells add up to 3 to 27, not 2",
            ),
            (
                r#"{"little_killers":[{"sum":10,"start":[8,0],"direction":"up_left"}]}"#,
                "`constraints.little_killers[0].sum`: its diagonal's 1 cell holds 1 to 9, not 10",
            ),
        ] {
            assert_eq!(tests::refused(Shape::CLASSIC, json).as_deref(), Some(expected), "{json}");
        }
        let many: Vec<String> = (0..=MAX_LITTLE_KILLERS)
            .map(|_| r#"{"sum":10,"start":[0,0],"direction":"down_right"}"#.to_owned())
            .collect();
        let json = format!(r#"{{"little_killers":[{}]}}"#, many.join(","));
        assert_eq!(
            tests::refused(Shape::CLASSIC, &json).as_deref(),
            Some("`constraints.little_killers`: has 641 clues; at most 640 are taken")
        );
        // Every edge cell takes the arrows that point into the grid from it, on every size.
        for size in [4usize, 6, 9, 16, 25] {
            let shape = Shape::default_for(size).unwrap();
            let last = size as u64 - 1;
            for (start, direction) in [
                ((0, 1), "down_left"),
                ((last, 1), "up_right"),
                ((1, 0), "down_right"),
                ((1, last), "up_left"),
                ((0, 0), "down_right"),
            ] {
                let json = format!(
                    r#"{{"little_killers":[{{"sum":{size},"start":[{},{}],"direction":"{direction}"}}]}}"#,
                    start.0, start.1
                );
                assert_eq!(tests::refused(shape, &json), None, "{json}");
            }
        }
    }

    #[test]
    fn a_clue_is_an_object_of_its_three_members() {
        let refused = |json: &str| serde_json::from_str::<LittleKiller>(json).unwrap_err().to_string();
        assert!(
            refused(r#"{"sum":3,"start":[0,0],"direction":"down"}"#)
                .contains(r#"found "down"; expected one of "down_right", "down_left", "up_right", "up_left""#)
        );
        assert!(refused(r#"{"sum":3,"start":[0,0]}"#).contains("missing field `direction`"));
        assert!(refused(r#"{"sum":-3,"start":[0,0],"direction":"up_left"}"#).contains("an integer from 0"));
        let json = r#"{"sum":3,"start":[0,1],"direction":"up_left"}"#;
        let clue: LittleKiller = serde_json::from_str(json).unwrap();
        assert_eq!(serde_json::to_string(&clue).unwrap(), json);
    }

    /// Conflicts against the rule read plainly: the filled digits over the sum, or short of it
    /// with every empty cell a 9.
    #[test]
    fn conflicts_are_a_diagonal_kept_from_its_sum() {
        // r1c2, r2c1 down and to the left, adding up to 5, on a 4x4 grid.
        let json = r#"{"little_killers":[{"sum":5,"start":[0,1],"direction":"down_left"}]}"#;
        let constraints: Constraints = serde_json::from_str(json).unwrap();
        for (board, broken) in [
            ("4... .... .... ....", vec![]),
            (".3.. .... .... ....", vec![]),
            (".4.. .... .... ....", vec![]),
            (".4.. 2... .... ....", vec![(0, 1), (1, 0)]),
            (".1.. 3... .... ....", vec![(0, 1), (1, 0)]),
            (".2.. 3... .... ....", vec![]),
        ] {
            let grid = Grid::parse(board, None).unwrap();
            let variant = Variant::new(grid.shape(), None, &constraints).unwrap();
            let found: Vec<(usize, usize)> = variant
                .conflicts(&grid)
                .iter()
                .filter(|conflict| conflict.units.contains(Unit::LittleKiller.into()))
                .map(|conflict| (conflict.row, conflict.col))
                .collect();
            assert_eq!(found, broken, "{board}");
        }
        let long = r#"{"little_killers":[{"sum":12,"start":[0,0],"direction":"down_right"}]}"#;
        let constraints: Constraints = serde_json::from_str(long).unwrap();
        let grid = Grid::parse("1... .... .... ....", None).unwrap();
        // 1 and three empty cells make 4 to 13: 12 is within reach.
        assert!(Variant::new(grid.shape(), None, &constraints).unwrap().conflicts(&grid).is_empty());
        let grid = Grid::parse("1... .2.. ..1. ....", None).unwrap();
        // 4 and one empty cell make 5 to 8.
        let found = Variant::new(grid.shape(), None, &constraints).unwrap().conflicts(&grid);
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(found.iter().all(|conflict| conflict.units.contains(Unit::LittleKiller.into())), "{found:?}");
    }
}
