//! Palindromes: a line reads the same both ways, so the cells mirrored about its middle hold the
//! same digit. Two cells that may not repeat a digit (a house, a cage, a chess move apart) can
//! never be made equal, by one line or by several through shared cells: such lines are refused.

use super::{Builder, Family, PairRule};
use crate::constraints::Constraints;
use crate::unit::Unit;
use crate::variant::ConstraintError;

/// Two cells mirrored on a palindrome.
pub(crate) static MIRRORED: PairRule = PairRule {
    unit: Unit::Palindrome,
    holds: |first, second, _| first == second,
    reason: |first, second, _| {
        format!("{first} and {second} mirror each other on a palindrome, so they are the same digit")
    },
    increasing: false,
};

/// The palindromes.
pub(crate) struct Palindromes;

impl Family for Palindromes {
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        // Each cell's class of cells the lines make equal, as the cell that stands for it.
        let mut equal: Vec<u16> = (0..rules.shape.cells() as u16).collect();
        for (number, palindrome) in constraints.palindromes.iter().enumerate() {
            let member = format!("constraints.palindromes[{number}]");
            let line = rules.line(palindrome, &member)?;
            for (&first, &second) in line.iter().zip(line.iter().rev()).take(line.len() / 2) {
                let names = format!("{} and {}", rules.name(first), rules.name(second));
                if let Some(unit) = rules.clash(first, second, &MIRRORED, 0) {
                    let message =
                        format!("{names} mirror each other, but no digit keeps the {} rule between them", unit.name());
                    return Err(ConstraintError::new(member, message));
                }
                let (one, other) = (root(&mut equal, first), root(&mut equal, second));
                equal[usize::from(one.max(other))] = one.min(other);
                if let Some((a, b, why)) = forced_apart(rules, &mut equal) {
                    let message = format!(
                        "{names} mirror each other, which makes {} and {} the same digit, but they {why}",
                        rules.name(a),
                        rules.name(b)
                    );
                    return Err(ConstraintError::new(member, message));
                }
                rules.relate(first, second, &MIRRORED);
            }
        }
        Ok(())
    }
}

/// The cell that stands for `cell`'s class.
fn root(equal: &mut [u16], mut cell: u16) -> u16 {
    while equal[usize::from(cell)] != cell {
        let parent = equal[usize::from(cell)];
        equal[usize::from(cell)] = equal[usize::from(parent)];
        cell = parent;
    }
    cell
}

/// Two cells of one class that may not hold the same digit, and why: a house or a cage they
/// share, or a chess move between them.
fn forced_apart(rules: &Builder, equal: &mut [u16]) -> Option<(u16, u16, String)> {
    let size = rules.shape.size();
    let mut same = |a: u16, b: u16| root(equal, a) == root(equal, b);
    let pairs = |cells: &[u16]| -> Vec<(u16, u16)> {
        cells.iter().enumerate().flat_map(|(i, &a)| cells[i + 1..].iter().map(move |&b| (a, b))).collect()
    };
    for (house, unit) in rules.houses.chunks_exact(size).zip(&rules.house_units) {
        if let Some((a, b)) = pairs(house).into_iter().find(|&(a, b)| same(a, b)) {
            return Some((a, b, format!("share a {}", unit.name().replace('_', " "))));
        }
    }
    for cage in &rules.cages {
        if let Some((a, b)) = pairs(&cage.cells).into_iter().find(|&(a, b)| same(a, b)) {
            return Some((a, b, "share a cage".to_owned()));
        }
    }
    for line in &rules.renbans {
        if let Some((a, b)) = pairs(line).into_iter().find(|&(a, b)| same(a, b)) {
            return Some((a, b, "share a renban line".to_owned()));
        }
    }
    for cell in 0..rules.shape.cells() {
        let (row, col) = ((cell / size) as isize, (cell % size) as isize);
        for &(down, right) in &rules.moves {
            let (other_row, other_col) = (row + down, col + right);
            if !(0..size as isize).contains(&other_row) || !(0..size as isize).contains(&other_col) {
                continue;
            }
            let other = (other_row as usize * size + other_col as usize) as u16;
            if same(cell as u16, other) {
                return Some((cell as u16, other, "are a chess move apart that no digit repeats across".to_owned()));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::family::tests;
    use crate::shape::Shape;

    fn refused(json: &str) -> Option<String> {
        tests::refused(Shape::CLASSIC, json)
    }

    #[test]
    fn a_palindrome_that_forces_two_peers_equal_is_refused_naming_them() {
        for (json, expected) in [
            (
                r#"{"palindromes":[[[0,0],[1,1],[0,2]]]}"#,
                "`constraints.palindromes[0]`: r1c1 and r1c3 mirror each other, which makes r1c1 and r1c3 the same digit, but they share a row",
            ),
            (
                r#"{"palindromes":[[[0,0],[1,0]]]}"#,
                "`constraints.palindromes[0]`: r1c1 and r2c1 mirror each other, which makes r1c1 and r2c1 the same digit, but they share a column",
            ),
            (
                // r1c3 = r2c4 by the first, r2c4 = r3c3 by the second: r1c3 and r3c3 share a column.
                r#"{"palindromes":[[[0,2],[1,3]],[[1,3],[2,4],[2,3],[2,2]]]}"#,
                "`constraints.palindromes[1]`: r2c4 and r3c3 mirror each other, which makes r1c3 and r3c3 the same digit, but they share a column",
            ),
            (
                r#"{"anti_king":true,"palindromes":[[[3,2],[4,3]]]}"#,
                "`constraints.palindromes[0]`: r4c3 and r5c4 mirror each other, which makes r4c3 and r5c4 the same digit, but they are a chess move apart that no digit repeats across",
            ),
            (
                r#"{"cages":[{"cells":[[2,2],[3,3]]}],"palindromes":[[[2,2],[3,3]]]}"#,
                "`constraints.palindromes[0]`: r3c3 and r4c4 mirror each other, which makes r3c3 and r4c4 the same digit, but they share a cage",
            ),
            (
                r#"{"cages":[{"cells":[[2,2],[2,3],[3,3],[3,4]]}],"palindromes":[[[2,2],[3,3],[3,4],[2,3]]]}"#,
                "`constraints.palindromes[0]`: r3c3 and r3c4 mirror each other, which makes r3c3 and r3c4 the same digit, but they share a row",
            ),
            (
                r#"{"thermometers":[[[2,2],[3,3]]],"palindromes":[[[3,3],[2,2]]]}"#,
                "`constraints.palindromes[0]`: r4c4 and r3c3 mirror each other, but no digit keeps the thermometer rule between them",
            ),
            (r#"{"palindromes":[[[0,0],[0,2]]]}"#, "`constraints.palindromes[0]`: r1c1 and r1c3 do not touch"),
        ] {
            assert_eq!(refused(json).as_deref(), Some(expected), "{json}");
        }
        // Mirrored cells apart, diagonally across a box border; and a middle cell of its own.
        for json in [r#"{"palindromes":[[[2,2],[3,3]]]}"#, r#"{"palindromes":[[[2,2],[3,3],[4,4]]]}"#] {
            assert_eq!(refused(json), None, "{json}");
        }
    }
}
