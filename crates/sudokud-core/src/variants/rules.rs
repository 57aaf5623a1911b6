//! The rules of a variant grid: which filled cells break which constraint.

use super::variant::Variant;
use crate::rules::Conflict;
use crate::sizes::Grid;

/// Every filled cell that breaks a rule, in row-major order, each with the rules it breaks: a
/// digit repeated in a house (a row, a column, a box or region, a diagonal, an extra region), a
/// cage, or a knight's or king's move away; a cage over its sum, or full and short of it; a
/// thermometer that does not rise; a Kropki pair or non-consecutive neighbours that break their
/// rule; a digit of the wrong parity. Empty exactly when no filled cell breaks a rule.
pub fn conflicts(grid: &Grid, variant: &Variant) -> Vec<Conflict> {
    let (cells, size) = (grid.cells(), grid.size());
    let broken = variant.broken(cells);
    let conflicts = broken.iter().enumerate().filter(|&(cell, units)| cells[cell] != 0 && !units.is_empty());
    conflicts.map(|(cell, &units)| Conflict { row: cell / size, col: cell % size, value: cells[cell], units }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Constraints;

    /// The conflicts of a 4x4 `grid` under `constraints`, as JSON.
    fn found(grid: &str, constraints: &str) -> String {
        let grid = Grid::parse(grid, None).unwrap();
        let constraints: Constraints = serde_json::from_str(constraints).unwrap();
        let variant = Variant::new(grid.shape(), None, &constraints).unwrap();
        serde_json::to_string(&conflicts(&grid, &variant)).unwrap()
    }

    #[test]
    fn each_conflict_names_the_rules_it_breaks() {
        let cell = |row: usize, col: usize, digit: u8, units: &str| {
            format!(r#"{{"row":{row},"col":{col},"digit":{digit},"units":[{units}]}}"#)
        };
        for (grid, constraints, expected) in [
            (
                "1... .1.. .... ....",
                r#"{"diagonals":"main"}"#,
                vec![cell(0, 0, 1, r#""box","diagonal""#), cell(1, 1, 1, r#""box","diagonal""#)],
            ),
            (
                "...1 .... .... 1...",
                r#"{"diagonals":"anti"}"#,
                vec![cell(0, 3, 1, r#""anti_diagonal""#), cell(3, 0, 1, r#""anti_diagonal""#)],
            ),
            (
                "1... .... .1.. ....",
                r#"{"anti_knight":true}"#,
                vec![cell(0, 0, 1, r#""anti_knight""#), cell(2, 1, 1, r#""anti_knight""#)],
            ),
            (
                ".... .2.. ..2. ....",
                r#"{"anti_king":true}"#,
                vec![cell(1, 1, 2, r#""anti_king""#), cell(2, 2, 2, r#""anti_king""#)],
            ),
            (
                "12.. .... .... ....",
                r#"{"non_consecutive":true}"#,
                vec![cell(0, 0, 1, r#""non_consecutive""#), cell(0, 1, 2, r#""non_consecutive""#)],
            ),
            (
                "3.2. .... .... ....",
                r#"{"thermometers":[[[0,0],[0,1],[0,2]]]}"#,
                vec![cell(0, 0, 3, r#""thermometer""#), cell(0, 2, 2, r#""thermometer""#)],
            ),
            (
                "13.. .... .... ....",
                r#"{"kropki":{"white":[[[0,0],[0,1]]]}}"#,
                vec![cell(0, 0, 1, r#""kropki""#), cell(0, 1, 3, r#""kropki""#)],
            ),
            ("13.. .... .... ....", r#"{"kropki":{"all_given":true}}"#, vec![]),
            (
                "12.. .... .... ....",
                r#"{"kropki":{"all_given":true}}"#,
                vec![cell(0, 0, 1, r#""kropki""#), cell(0, 1, 2, r#""kropki""#)],
            ),
            (
                "1... 1... .... ....",
                r#"{"cages":[{"cells":[[0,0],[1,0]]}]}"#,
                vec![cell(0, 0, 1, r#""column","box","cage""#), cell(1, 0, 1, r#""column","box","cage""#)],
            ),
            (
                "34.. .... .... ....",
                r#"{"cages":[{"cells":[[0,0],[0,1],[0,2]],"sum":7}]}"#,
                vec![cell(0, 0, 3, r#""cage_sum""#), cell(0, 1, 4, r#""cage_sum""#)],
            ),
            (
                "12.. .... .... ....",
                r#"{"cages":[{"cells":[[0,0],[0,1]],"sum":4}]}"#,
                vec![cell(0, 0, 1, r#""cage_sum""#), cell(0, 1, 2, r#""cage_sum""#)],
            ),
            (
                "1.2. .... .... ....",
                r#"{"even":[[0,0]],"odd":[[0,2]]}"#,
                vec![cell(0, 0, 1, r#""even""#), cell(0, 2, 2, r#""odd""#)],
            ),
            (
                "1..1 .... .... ....",
                r#"{"regions":"0011001122332233"}"#,
                vec![cell(0, 0, 1, r#""row""#), cell(0, 3, 1, r#""row""#)],
            ),
            (
                ".... .1.. ..1. ....",
                r#"{"extra_regions":[[[1,1],[1,2],[2,1],[2,2]]]}"#,
                vec![cell(1, 1, 1, r#""extra_region""#), cell(2, 2, 1, r#""extra_region""#)],
            ),
        ] {
            assert_eq!(found(grid, constraints), format!("[{}]", expected.join(",")), "{grid} {constraints}");
        }
    }
}
