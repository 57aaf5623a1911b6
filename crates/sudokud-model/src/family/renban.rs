//! Renban lines: a line's digits are a set of consecutive digits in any order, so no digit
//! repeats on it and its largest digit is its smallest plus its length less one.

use super::{Builder, Family, mark_repeats};
use crate::constraints::Constraints;
use crate::unit::{Unit, Units};
use crate::variant::{ConstraintError, Variant};

/// Most renban lines a variant may have: the solver keeps one bit per line.
pub const MAX_RENBANS: usize = 640;

/// The renban lines.
pub(crate) struct Renbans;

impl Family for Renbans {
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        let size = rules.shape.size();
        if constraints.renbans.len() > MAX_RENBANS {
            let message = format!("has {} lines; at most {MAX_RENBANS} are taken", constraints.renbans.len());
            return Err(ConstraintError::new("constraints.renbans", message));
        }
        for (number, renban) in constraints.renbans.iter().enumerate() {
            let member = format!("constraints.renbans[{number}]");
            let line = rules.line(renban, &member)?;
            if line.len() > size {
                let message =
                    format!("has {} cells; a {size}x{size} grid has {size} different digits to put on it", line.len());
                return Err(ConstraintError::new(member, message));
            }
            rules.renbans.push(line);
        }
        Ok(())
    }

    /// A digit repeated on a line, and two digits further apart than the line is long.
    fn conflicts(variant: &Variant, cells: &[u8], broken: &mut [Units]) {
        for line in &variant.renbans {
            mark_repeats(cells, line, Unit::Renban, broken);
            let digits = line.iter().map(|&cell| cells[usize::from(cell)]).filter(|&digit| digit != 0);
            let (low, high) = digits.fold((u8::MAX, 0), |(low, high), digit| (low.min(digit), high.max(digit)));
            if high != 0 && usize::from(high - low) >= line.len() {
                for &cell in line {
                    if cells[usize::from(cell)] != 0 {
                        broken[usize::from(cell)].insert(Unit::Renban.into());
                    }
                }
            }
        }
    }
}

/// The digits each cell of a renban line may hold given every cell's `candidates` (bit `d - 1`
/// for digit `d`, a placed cell's digit alone), on a grid of `size`: a digit stays where some run
/// of consecutive digits as long as the line holds it, fits every cell (each has a candidate in
/// it) and is covered (each of its digits is some cell's candidate). Writes each cell's digits
/// into `kept` and returns the runs that fit, as the bit of each run's smallest digit; none when
/// no run fits.
pub fn renban_support(size: usize, candidates: &[u32], kept: &mut [u32]) -> u32 {
    let length = candidates.len();
    kept.iter_mut().for_each(|digits| *digits = 0);
    if length == 0 || length > size {
        return 0;
    }
    let mut runs = 0;
    for start in 0..=size - length {
        let run = ((1u32 << length) - 1) << start;
        let mut covered = 0;
        if candidates.iter().all(|&digits| digits & run != 0) {
            covered = candidates.iter().fold(0, |covered, &digits| covered | digits & run);
        }
        if covered == run {
            runs |= 1 << start;
            for (kept, &digits) in kept.iter_mut().zip(candidates) {
                *kept |= digits & run;
            }
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::tests;
    use crate::grid::Grid;
    use crate::shape::Shape;

    #[test]
    fn a_renban_line_that_cannot_fit_is_refused_naming_it() {
        let shape = Shape::new(2, 2).unwrap();
        for (json, expected) in [
            (
                r#"{"renbans":[[[0,0],[0,1],[0,2],[0,3],[1,3]]]}"#,
                "`constraints.renbans[0]`: has 5 cells; a 4x4 grid has 4 different digits to put on it",
            ),
            (r#"{"renbans":[[[0,0]]]}"#, "`constraints.renbans[0]`: has 1 cell; a line joins 2 cells at least"),
            (r#"{"renbans":[[[0,0],[0,2]]]}"#, "`constraints.renbans[0]`: r1c1 and r1c3 do not touch"),
            (r#"{"renbans":[[[0,0],[1,1],[0,0]]]}"#, "`constraints.renbans[0]`: r1c1 is listed twice"),
        ] {
            assert_eq!(tests::refused(shape, json).as_deref(), Some(expected), "{json}");
        }
        assert_eq!(tests::refused(shape, r#"{"renbans":[[[0,0],[1,1],[2,1],[3,2]]]}"#), None);
    }

    /// Conflicts against the rule read plainly: the filled digits of a line differ and span
    /// fewer digits than the line has cells.
    #[test]
    fn conflicts_are_repeats_and_digits_too_far_apart() {
        let json = r#"{"renbans":[[[0,0],[0,1],[1,2]]]}"#;
        let constraints: Constraints = serde_json::from_str(json).unwrap();
        for (board, broken) in [
            ("12.. .... .... ....", vec![]),
            ("1.4. ..3. .... ....", vec![]),
            ("1... ..4. .... ....", vec![(0, 0), (1, 2)]),
            ("14.. ..2. .... ....", vec![(0, 0), (0, 1), (1, 2)]),
            ("2... ..2. .... ....", vec![(0, 0), (1, 2)]),
        ] {
            let grid = Grid::parse(board, None).unwrap();
            let variant = Variant::new(grid.shape(), None, &constraints).unwrap();
            let found: Vec<(usize, usize)> = variant
                .conflicts(&grid)
                .iter()
                .filter(|conflict| conflict.units.contains(Unit::Renban.into()))
                .map(|conflict| (conflict.row, conflict.col))
                .collect();
            assert_eq!(found, broken, "{board}");
        }
    }

    /// The support against every assignment of digits to the cells: every digit some filling
    /// of the line with different consecutive digits (each a candidate of its cell) puts in a
    /// cell is kept, with its run; and a run some cell has no candidate in, or some digit of
    /// which no cell has, keeps nothing.
    #[test]
    fn the_support_keeps_every_consecutive_filling_and_drops_runs_that_do_not_fit() {
        let size = 6;
        let mut state = 7u64;
        let mut next = move || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as u32
        };
        let (mut kept, mut narrowed) = ([0u32; 3], 0);
        for _ in 0..3000 {
            let length = 2 + next() as usize % 2;
            let candidates: Vec<u32> = (0..length).map(|_| next() & 0x3f).collect();
            let runs = renban_support(size, &candidates, &mut kept[..length]);
            let (mut filled, mut filled_runs) = ([0u32; 3], 0u32);
            let digit = |index: usize, code: usize| (code / size.pow(index as u32)) % size;
            for code in 0..size.pow(length as u32) {
                let chosen: Vec<usize> = (0..length).map(|index| digit(index, code)).collect();
                let fits = chosen.iter().enumerate().all(|(index, &digit)| candidates[index] >> digit & 1 == 1);
                let low = *chosen.iter().min().unwrap();
                let set = chosen.iter().fold(0u32, |set, &digit| set | 1 << digit);
                if fits && set == ((1 << length) - 1) << low {
                    filled_runs |= 1 << low;
                    chosen.iter().enumerate().for_each(|(index, &digit)| filled[index] |= 1 << digit);
                }
            }
            for index in 0..length {
                assert_eq!(kept[index] & filled[index], filled[index], "{candidates:?}");
                assert_eq!(kept[index] & !candidates[index], 0, "{candidates:?}");
            }
            assert_eq!(runs & filled_runs, filled_runs, "{candidates:?}");
            for start in 0..=size - length {
                let run = ((1u32 << length) - 1) << start;
                let covered = candidates.iter().fold(0, |covered, &digits| covered | digits & run);
                let fits = candidates.iter().all(|&digits| digits & run != 0) && covered == run;
                assert_eq!(runs >> start & 1 == 1, fits, "{candidates:?} {start}");
            }
            narrowed += usize::from(kept[..length] != candidates[..]);
        }
        assert!(narrowed > 1000, "{narrowed}");
        // A 5 on a line of three: the runs 3-5, 4-6 and 5-7 fit, the others lie within 3 to 7
        // (that 5 is taken is the peers' to say).
        let mut kept = [0; 3];
        let runs = renban_support(9, &[1 << 4, 0x1ff, 0x1ff], &mut kept);
        assert_eq!((runs, kept), (0b11100, [1 << 4, 0b1111100, 0b1111100]));
    }
}
