//! Digit classes in windows of cells: the digits split into three classes (low, middle and high
//! thirds; or the residues mod 3), and every window of cells holds a digit of each class, a
//! window of fewer than three cells digits of different classes. Modular and entropic lines
//! (every three cells in a row along the line) and the global entropy and mod rules (every 2x2
//! square) are such windows; each family checks its member and adds a [`ClassWindow`] per
//! window, whose [`ClassWindow::support`] the search, the logic and the conflicts all read
//! ([`WholeRule`], as the lines read whole).

use super::Builder;
use super::whole::{self, WholeRule};
use crate::unit::{Unit, Units};
use crate::variant::{ConstraintError, Variant};

/// Most windows a variant may have: every 2x2 square of a 15x15 grid under both global rules
/// (2 x 196), and lines beside them. The solver keeps one bit per window.
pub const MAX_WINDOWS: usize = 1024;

/// How many classes the digits split into.
pub const CLASSES: usize = 3;

/// How a grid's digits split into classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Classes {
    /// Low, middle and high: the digits' thirds in order (1-3, 4-6, 7-9 on 9x9).
    Thirds,
    /// The residues mod 3: 1, 4, 7...; 2, 5, 8...; 3, 6, 9...
    Residues,
}

impl Classes {
    /// The digits of each class (bit `d - 1` for digit `d`) on a grid of `size`, a multiple of 3.
    pub fn digits(self, size: usize) -> [u32; CLASSES] {
        let third = size / CLASSES;
        std::array::from_fn(|class| match self {
            Classes::Thirds => ((1u32 << third) - 1) << (class * third),
            // Digit d (bit d - 1) is in class (d - 1) mod 3.
            Classes::Residues => (0..size).filter(|bit| bit % CLASSES == class).fold(0, |set, bit| set | 1 << bit),
        })
    }

    /// Each class's name for people: `low`, or `1 mod 3`... (as the digits leave 1, 2, 0).
    pub fn names(self) -> [&'static str; CLASSES] {
        match self {
            Classes::Thirds => ["low", "middle", "high"],
            Classes::Residues => ["1 mod 3", "2 mod 3", "0 mod 3"],
        }
    }
}

/// Which rule a window is of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowKind {
    /// Three cells in a row along a modular line.
    ModularLine,
    /// Three cells in a row along an entropic line.
    EntropicLine,
    /// A 2x2 square of the grid under global entropy.
    GlobalEntropy,
    /// A 2x2 square of the grid under global mod.
    GlobalMod,
}

impl WindowKind {
    /// The rule a window of the kind stands for, in conflicts.
    pub fn unit(self) -> Unit {
        match self {
            WindowKind::ModularLine => Unit::ModularLine,
            WindowKind::EntropicLine => Unit::EntropicLine,
            WindowKind::GlobalEntropy => Unit::GlobalEntropy,
            WindowKind::GlobalMod => Unit::GlobalMod,
        }
    }

    /// How the kind's digits split.
    pub fn classes(self) -> Classes {
        match self {
            WindowKind::ModularLine | WindowKind::GlobalMod => Classes::Residues,
            WindowKind::EntropicLine | WindowKind::GlobalEntropy => Classes::Thirds,
        }
    }
}

/// A window, checked: two to four cells that hold a digit of each class between them (digits of
/// different classes when fewer than three).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassWindow {
    /// The window's cells: along the line, or a square's in reading order.
    pub cells: Vec<u16>,
    /// The rule.
    pub kind: WindowKind,
    /// The digits of each class (see [`Classes::digits`]).
    pub classes: [u32; CLASSES],
}

/// Most cells a window has: a 2x2 square's.
pub const MAX_WINDOW_CELLS: usize = 4;

impl ClassWindow {
    /// The classes (bit `c` for class `c`) each cell may hold given its `candidates` (bit `d - 1`
    /// for digit `d`, in the window's order).
    pub fn classes_of(&self, candidates: &[u32]) -> [u8; MAX_WINDOW_CELLS] {
        let mut open = [0u8; MAX_WINDOW_CELLS];
        for (open, &digits) in open.iter_mut().zip(candidates) {
            *open =
                (0..CLASSES).filter(|&class| digits & self.classes[class] != 0).fold(0, |set, class| set | 1 << class);
        }
        open
    }

    /// The classes each cell may hold in some way of giving every cell a class it can hold
    /// (`open`, from [`ClassWindow::classes_of`]) that keeps the rule; all empty when no way does.
    pub fn class_support(&self, open: &[u8; MAX_WINDOW_CELLS]) -> [u8; MAX_WINDOW_CELLS] {
        let length = self.cells.len();
        let wanted = length.min(CLASSES) as u32;
        let mut support = [0u8; MAX_WINDOW_CELLS];
        let mut chosen = [0u8; MAX_WINDOW_CELLS];
        // Every way as a number base 3, cell 0 the lowest place.
        for way in 0..CLASSES.pow(length as u32) {
            let mut rest = way;
            let mut seen = 0u8;
            let mut fits = true;
            for (cell, chosen) in chosen[..length].iter_mut().enumerate() {
                *chosen = 1 << (rest % CLASSES);
                rest /= CLASSES;
                fits &= open[cell] & *chosen != 0;
                seen |= *chosen;
            }
            if fits && seen.count_ones() == wanted {
                support.iter_mut().zip(&chosen).for_each(|(support, &chosen)| *support |= chosen);
            }
        }
        support
    }

    /// The digits each cell of the window may hold given every cell's `candidates` (in the
    /// window's order): its candidates of the classes some way of keeping the rule gives it.
    /// Writes them into `kept`; whether any way is left.
    pub fn support(&self, candidates: &[u32], kept: &mut [u32]) -> bool {
        let support = self.class_support(&self.classes_of(candidates));
        for ((kept, &digits), &classes) in kept.iter_mut().zip(candidates).zip(&support) {
            *kept = digits & self.digits_of(classes);
        }
        support[0] != 0
    }

    /// The digits of the classes of `classes` (bit `c` for class `c`).
    pub fn digits_of(&self, classes: u8) -> u32 {
        (0..CLASSES).filter(|class| classes >> class & 1 == 1).fold(0, |set, class| set | self.classes[class])
    }
}

impl WholeRule for ClassWindow {
    fn cells(&self) -> &[u16] {
        &self.cells
    }

    fn unit(&self) -> Unit {
        self.kind.unit()
    }

    fn keep(&self, candidates: &[u32], kept: &mut [u32]) -> bool {
        self.support(candidates, kept)
    }
}

/// Refuses a grid whose digits do not split into three classes of the same size, naming
/// `member`.
pub(crate) fn check_size(rules: &Builder, member: &str) -> Result<(), ConstraintError> {
    let size = rules.shape.size();
    if !size.is_multiple_of(CLASSES) {
        let message = format!(
            "needs a grid whose size is a multiple of 3, for its digits to split into three classes; \
             the {size}x{size} grid's do not"
        );
        return Err(ConstraintError::new(member, message));
    }
    Ok(())
}

/// Adds `windows` of `kind` to `rules`, refusing more than [`MAX_WINDOWS`] in all, naming
/// `member`.
pub(crate) fn add(
    rules: &mut Builder,
    windows: impl IntoIterator<Item = Vec<u16>>,
    kind: WindowKind,
    member: &str,
) -> Result<(), ConstraintError> {
    let classes = kind.classes().digits(rules.shape.size());
    rules.windows.extend(windows.into_iter().map(|cells| ClassWindow { cells, kind, classes }));
    if rules.windows.len() > MAX_WINDOWS {
        let message = format!(
            "makes {} windows of digit classes with the other lines and squares; at most {MAX_WINDOWS} are taken",
            rules.windows.len()
        );
        return Err(ConstraintError::new(member, message));
    }
    Ok(())
}

/// A line's windows: every three cells in a row along it, or the whole line when shorter.
pub(crate) fn line_windows(line: &[u16]) -> impl Iterator<Item = Vec<u16>> + '_ {
    line.windows(line.len().min(CLASSES)).map(<[u16]>::to_vec)
}

/// Every 2x2 square of a grid of `size`, its cells in reading order.
pub fn squares(size: usize) -> impl Iterator<Item = Vec<u16>> {
    (0..size - 1).flat_map(move |row| {
        (0..size - 1).map(move |col| {
            let top_left = row * size + col;
            [top_left, top_left + 1, top_left + size, top_left + size + 1].map(|cell| cell as u16).to_vec()
        })
    })
}

/// Marks the filled cells of each window of `unit`'s rule whose filled digits no digits of the
/// empty cells complete ([`whole::conflicts`]).
pub(crate) fn conflicts(variant: &Variant, cells: &[u8], broken: &mut [Units], unit: Unit) {
    let windows = variant.windows.iter().filter(|window| window.kind.unit() == unit);
    whole::conflicts(windows, variant.shape().size(), cells, broken);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_classes_split_the_digits_into_thirds_or_residues() {
        assert_eq!(Classes::Thirds.digits(9), [0b111, 0b111000, 0b111000000]);
        assert_eq!(Classes::Residues.digits(9), [0b001001001, 0b010010010, 0b100100100]);
        assert_eq!(Classes::Thirds.digits(6), [0b11, 0b1100, 0b110000]);
        assert_eq!(Classes::Residues.digits(6), [0b001001, 0b010010, 0b100100]);
        for size in [6, 9, 12, 15] {
            for classes in [Classes::Thirds, Classes::Residues] {
                let digits = classes.digits(size);
                assert_eq!(digits.iter().fold(0, |all, set| all | set), (1 << size) - 1);
                assert!(digits.iter().all(|set| set.count_ones() as usize == size / 3));
            }
        }
    }

    /// The support against every filling of the window: a digit some filling that keeps the
    /// rule puts in a cell is kept, and nothing else.
    #[test]
    fn the_support_keeps_exactly_the_digits_of_fillings_that_keep_the_rule() {
        let size = 6;
        let mut state = 5u64;
        let mut next = move || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as u32
        };
        let mut narrowed = 0;
        for kind in [WindowKind::EntropicLine, WindowKind::ModularLine] {
            let classes = kind.classes().digits(size);
            let class_of = |digit: u32| classes.iter().position(|set| set >> (digit - 1) & 1 == 1).unwrap();
            for _ in 0..1500 {
                let length = 2 + next() as usize % 3;
                let candidates: Vec<u32> = (0..length).map(|_| next() & next() & 0x3f | 1 << (next() % 6)).collect();
                let window = ClassWindow { cells: vec![0; length], kind, classes };
                let mut kept = vec![0; length];
                let fits = window.support(&candidates, &mut kept);
                let mut filled = vec![0u32; length];
                for code in 0..size.pow(length as u32) {
                    let chosen: Vec<u32> =
                        (0..length).map(|at| (code / size.pow(at as u32) % size) as u32 + 1).collect();
                    let allowed =
                        chosen.iter().zip(&candidates).all(|(&digit, &digits)| digits >> (digit - 1) & 1 == 1);
                    let seen = chosen.iter().fold(0u32, |seen, &digit| seen | 1 << class_of(digit));
                    if allowed && seen.count_ones() as usize == length.min(3) {
                        chosen.iter().zip(&mut filled).for_each(|(&digit, filled)| *filled |= 1 << (digit - 1));
                    }
                }
                assert_eq!(kept, filled, "{kind:?} {candidates:?}");
                assert_eq!(fits, filled.iter().all(|&digits| digits != 0), "{kind:?} {candidates:?}");
                narrowed += usize::from(fits && kept != candidates);
            }
        }
        assert!(narrowed > 300, "{narrowed}");
    }

    /// A class with one place left goes there; a cell fixed to a class takes it from the other
    /// two cells of a window of three, not from the others of a square.
    #[test]
    fn a_class_left_one_place_goes_there() {
        let kind = WindowKind::EntropicLine;
        let window = ClassWindow { cells: vec![0; 3], kind, classes: kind.classes().digits(9) };
        let mut kept = [0; 3];
        // Only the middle cell can be high.
        assert!(window.support(&[0b000111111, 0b111111111, 0b000111111], &mut kept));
        assert_eq!(kept, [0b000111111, 0b111000000, 0b000111111]);
        // The first is low: the others are not.
        assert!(window.support(&[0b000000010, 0x1ff, 0x1ff], &mut kept));
        assert_eq!(kept, [0b10, 0b111111000, 0b111111000]);
        let kind = WindowKind::ModularLine;
        let square = ClassWindow { cells: vec![0; 4], kind, classes: kind.classes().digits(9) };
        let mut kept = [0; 4];
        assert!(square.support(&[0b1, 0x1ff, 0x1ff, 0x1ff], &mut kept));
        assert_eq!(kept, [0b1, 0x1ff, 0x1ff, 0x1ff]);
        // Two 1 mod 3 cells leave the other two the other classes.
        assert!(square.support(&[0b1, 0b1000, 0x1ff, 0x1ff], &mut kept));
        assert_eq!(kept, [0b1, 0b1000, 0b110110110, 0b110110110]);
        assert!(!square.support(&[0b1, 0b1000, 0b1000000, 0x1ff], &mut kept));
    }

    #[test]
    fn a_line_gives_every_three_cells_in_a_row_and_a_grid_every_square() {
        let windows: Vec<Vec<u16>> = line_windows(&[4, 5, 6, 7]).collect();
        assert_eq!(windows, [vec![4, 5, 6], vec![5, 6, 7]]);
        assert_eq!(line_windows(&[4, 5]).collect::<Vec<_>>(), [vec![4, 5]]);
        let squares: Vec<Vec<u16>> = squares(6).collect();
        assert_eq!(squares.len(), 25);
        assert_eq!(squares[0], [0, 1, 6, 7]);
        assert_eq!(squares[24], [28, 29, 34, 35]);
    }
}
