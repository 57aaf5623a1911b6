//! Lines whose rule reads the whole line at once rather than pairs of neighbours: between lines
//! and lockout lines, whose two marked ends (circles, diamonds) bound the digits along them. Each family checks its
//! member and adds a [`LineRule`]; the rule says, from every cell's candidates, which digits
//! still fit the line ([`LineRule::support`]), which the search, the logic and the conflicts all
//! read ([`WholeRule`], as the clues beside rows and columns), so a family's rule is written once.

use super::Builder;
use super::whole::{self, WholeRule};
use crate::unit::{Unit, Units};
use crate::variant::{ConstraintError, Variant};

/// Most such lines a variant may have: the solver keeps one bit per line.
pub const MAX_LINES: usize = 640;

/// What a line's digits keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    /// The digits inside lie strictly between the two ends' (the circles').
    Between,
    /// The ends (the diamonds) differ by the difference at least, and no digit inside lies
    /// between theirs, either of them included.
    Lockout(u32),
}

impl LineKind {
    /// The rule a line of the kind stands for, in conflicts.
    pub fn unit(self) -> Unit {
        match self {
            LineKind::Between => Unit::BetweenLine,
            LineKind::Lockout(_) => Unit::LockoutLine,
        }
    }

    /// Whether the ends may hold `low` and `high`, `low` the smaller.
    fn ends_fit(self, low: u32, high: u32) -> bool {
        match self {
            LineKind::Between => high >= low + 2,
            LineKind::Lockout(difference) => high >= low + difference,
        }
    }

    /// The digits a cell inside may hold when the ends hold `low` and `high`, `low` the smaller.
    fn inside(self, low: u32, high: u32) -> u32 {
        // Digits 1 to `high` as bits, less 1 to `low`.
        let above_low_to_high = ((1u32 << high) - 1) & !((1u32 << low) - 1);
        match self {
            // Above low, below high.
            LineKind::Between => above_low_to_high & !(1 << (high - 1)),
            // Below low or above high: the digits past the grid's never are candidates.
            LineKind::Lockout(_) => !(above_low_to_high | 1 << (low - 1)),
        }
    }
}

/// A line, checked: its cells in order, ends first and last, and what they keep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineRule {
    /// The line's cells, from one end to the other.
    pub cells: Vec<u16>,
    /// The rule.
    pub kind: LineKind,
}

/// What [`LineRule::support`] finds: the digits the ends may hold, as the smaller and as the
/// larger of the two, over every way the line still fits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ends {
    /// The digits the smaller end may hold.
    pub low: u32,
    /// The digits the larger end may hold.
    pub high: u32,
}

impl LineRule {
    /// The digits each cell of the line may hold given every cell's `candidates` (bit `d - 1`
    /// for digit `d`, in the line's order): each pair of digits the ends may
    /// hold, either way round, that leaves every cell inside a candidate the rule allows, keeps
    /// those digits in the ends and those candidates inside. Writes each cell's digits into
    /// `kept`; the ends' digits that fit, none when nothing does.
    pub fn support(&self, candidates: &[u32], kept: &mut [u32]) -> Ends {
        let last = candidates.len() - 1;
        kept.iter_mut().for_each(|digits| *digits = 0);
        let mut ends = Ends::default();
        for (low_end, high_end) in [(0, last), (last, 0)] {
            for low in digits(candidates[low_end]) {
                for high in digits(candidates[high_end]).filter(|&high| self.kind.ends_fit(low, high)) {
                    let inside = self.kind.inside(low, high);
                    if candidates[1..last].iter().any(|&digits| digits & inside == 0) {
                        continue;
                    }
                    let (low_bit, high_bit) = (1 << (low - 1), 1 << (high - 1));
                    (ends.low, ends.high) = (ends.low | low_bit, ends.high | high_bit);
                    kept[low_end] |= low_bit;
                    kept[high_end] |= high_bit;
                    for (kept, &digits) in kept[1..last].iter_mut().zip(&candidates[1..last]) {
                        *kept |= digits & inside;
                    }
                }
            }
        }
        ends
    }
}

impl WholeRule for LineRule {
    fn cells(&self) -> &[u16] {
        &self.cells
    }

    fn unit(&self) -> Unit {
        self.kind.unit()
    }

    fn keep(&self, candidates: &[u32], kept: &mut [u32]) -> bool {
        self.support(candidates, kept) != Ends::default()
    }
}

/// The digits (1-based) of a set of candidates, smallest first.
fn digits(set: u32) -> impl Iterator<Item = u32> {
    (0..32).filter(move |digit| set >> digit & 1 == 1).map(|digit| digit + 1)
}

/// Refuses more than [`MAX_LINES`] lines of every kind together, naming `member`.
pub(crate) fn check_count(rules: &Builder, adding: usize, member: &str) -> Result<(), ConstraintError> {
    let count = rules.lines.len() + adding;
    if count > MAX_LINES {
        let message = format!("makes {count} lines with marked ends; at most {MAX_LINES} are taken");
        return Err(ConstraintError::new(member, message));
    }
    Ok(())
}

/// Marks the filled cells of each line of `unit`'s rule whose filled digits no digits of the
/// empty cells complete ([`whole::conflicts`]).
pub(crate) fn conflicts(variant: &Variant, cells: &[u8], broken: &mut [Units], unit: Unit) {
    let lines = variant.lines.iter().filter(|line| line.kind.unit() == unit);
    whole::conflicts(lines, variant.shape().size(), cells, broken);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The support against every filling of the line: a digit some filling that keeps the rule
    /// puts in a cell is kept, and nothing else.
    #[test]
    fn the_support_keeps_exactly_the_digits_of_fillings_that_keep_the_rule() {
        let size: usize = 6;
        let mut state = 11u64;
        let mut next = move || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as u32
        };
        let mut narrowed = 0;
        for kind in [LineKind::Between, LineKind::Lockout(2), LineKind::Lockout(3)] {
            for _ in 0..2000 {
                // A between line has a cell inside at least.
                let length = usize::from(kind == LineKind::Between) + 2 + next() as usize % 3;
                let candidates: Vec<u32> = (0..length).map(|_| next() & 0x3f | 1 << (next() % 6)).collect();
                let rule = LineRule { cells: vec![0; length], kind };
                let mut kept = vec![0; length];
                let ends = rule.support(&candidates, &mut kept);
                let (mut filled, mut filled_ends) = (vec![0u32; length], Ends::default());
                for code in 0..size.pow(length as u32) {
                    let chosen: Vec<u32> =
                        (0..length).map(|at| (code / size.pow(at as u32) % size) as u32 + 1).collect();
                    let fits = chosen.iter().zip(&candidates).all(|(&digit, &digits)| digits >> (digit - 1) & 1 == 1);
                    let (low, high) = (chosen[0].min(chosen[length - 1]), chosen[0].max(chosen[length - 1]));
                    let keeps = match kind {
                        LineKind::Between => chosen[1..length - 1].iter().all(|&digit| low < digit && digit < high),
                        LineKind::Lockout(difference) => {
                            high >= low + difference
                                && chosen[1..length - 1].iter().all(|&digit| digit < low || high < digit)
                        }
                    };
                    if fits && keeps && low != high {
                        chosen.iter().zip(&mut filled).for_each(|(&digit, filled)| *filled |= 1 << (digit - 1));
                        filled_ends.low |= 1 << (low - 1);
                        filled_ends.high |= 1 << (high - 1);
                    }
                }
                assert_eq!(kept, filled, "{kind:?} {candidates:?}");
                assert_eq!(ends, filled_ends, "{kind:?} {candidates:?}");
                narrowed += usize::from(kept != candidates && kept.iter().all(|&digits| digits != 0));
            }
        }
        assert!(narrowed > 1000, "{narrowed}");
    }

    #[test]
    fn a_between_line_keeps_the_digits_between_its_circles() {
        let rule = LineRule { cells: vec![0; 3], kind: LineKind::Between };
        let mut kept = [0; 3];
        // Circles 2 and 6 or 7 on 9x9: 3 to 6 inside.
        let ends = rule.support(&[0b10, 0x1ff, 0b1100000], &mut kept);
        assert_eq!(kept, [0b10, 0b111100, 0b1100000]);
        assert_eq!(ends, Ends { low: 0b10, high: 0b1100000 });
    }

    #[test]
    fn a_lockout_line_keeps_the_digits_outside_its_diamonds() {
        let rule = LineRule { cells: vec![0; 3], kind: LineKind::Lockout(4) };
        let mut kept = [0; 3];
        // Diamonds 3 and 7 or 8 on 9x9: 1, 2, 8 or 9 inside, 8 only beside a 7.
        let ends = rule.support(&[0b100, 0x1ff, 0b11000000], &mut kept);
        assert_eq!(kept, [0b100, 0b110000011, 0b11000000]);
        assert_eq!(ends, Ends { low: 0b100, high: 0b11000000 });
        // Diamonds 4 and 6 are too close.
        assert_eq!(rule.support(&[0b1000, 0x1ff, 0b100000], &mut kept), Ends::default());
    }
}
