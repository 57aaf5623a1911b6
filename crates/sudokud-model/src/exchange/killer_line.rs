//! The one-line killer format of the Sudoku forums ("snarfable" killer cages), which the
//! Interactive Sudoku Solver's page also reads: 81 characters, one per cell of a 9x9 grid, row
//! by row. A cage's head holds its sum (`0`-`9`, then `A`-`Z` for 10 to 35 and `a`-`j` for 36 to
//! 45); every other cell points at a neighbour of its cage: `<` `>` `^` `v` left, right, up and
//! down, and `` ` `` `'` `,` `.` up-left, up-right, down-left and down-right. Following the
//! pointers from any cell reaches its cage's head. The format has no givens.
//!
//! `S<J<<O<<K...` starts with a cage of sum 28 (`S`) whose second cell points back at it.

use super::{ShareError, SharedPuzzle};
use crate::constraints::{Cage, Constraints, Place};
use crate::grid::Grid;
use crate::shape::Shape;

/// The format's name in messages.
const FORMAT: &str = "a one-line killer";

/// The grid's side: the format is 9x9 only.
const SIDE: usize = 9;

/// The characters that point at a neighbour, with the step each takes in rows and columns.
const POINTERS: [(char, isize, isize); 8] =
    [('<', 0, -1), ('>', 0, 1), ('^', -1, 0), ('v', 1, 0), ('`', -1, -1), ('\'', -1, 1), (',', 1, -1), ('.', 1, 1)];

/// Whether `text` looks like a one-line killer: 81 characters of the format, at least one an
/// arrow that no grid of digits and dots has (a dot alone would be a blank of a plain grid).
pub(super) fn looks_like(text: &str) -> bool {
    text.chars().count() == SIDE * SIDE
        && text.chars().all(|ch| sum_of(ch).is_some() || POINTERS.iter().any(|&(pointer, ..)| pointer == ch))
        && text.chars().any(|ch| "<>^v`',".contains(ch))
}

/// A cage head's sum.
fn sum_of(head: char) -> Option<u64> {
    let code = u64::from(head);
    match head {
        '0'..='9' => Some(code - u64::from('0')),
        'A'..='Z' => Some(code - u64::from('A') + 10),
        'a'..='j' => Some(code - u64::from('a') + 36),
        _ => None,
    }
}

fn malformed(why: String) -> ShareError {
    ShareError::Malformed { format: FORMAT, why }
}

/// The cages of a one-line killer, on an empty 9x9 grid.
pub fn read(text: &str) -> Result<SharedPuzzle, ShareError> {
    let cells: Vec<char> = text.chars().collect();
    if cells.len() != SIDE * SIDE {
        return Err(malformed(format!("it has {} characters, not one per cell of a 9x9 grid", cells.len())));
    }
    let name = |cell: usize| format!("r{}c{}", cell / SIDE + 1, cell % SIDE + 1);
    // The neighbour each cell points at, or itself for a head.
    let mut next = Vec::with_capacity(cells.len());
    for (cell, &ch) in cells.iter().enumerate() {
        if sum_of(ch).is_some() {
            next.push(cell);
            continue;
        }
        let Some(&(_, down, right)) = POINTERS.iter().find(|&&(pointer, ..)| pointer == ch) else {
            return Err(malformed(format!("`{ch}` at {} is neither a sum nor an arrow", name(cell))));
        };
        let row = (cell / SIDE).checked_add_signed(down).filter(|&row| row < SIDE);
        let col = (cell % SIDE).checked_add_signed(right).filter(|&col| col < SIDE);
        let (Some(row), Some(col)) = (row, col) else {
            return Err(malformed(format!("`{ch}` at {} points outside the grid", name(cell))));
        };
        next.push(row * SIDE + col);
    }
    let mut cages: Vec<(usize, Cage)> = Vec::new();
    for start in 0..cells.len() {
        let mut head = start;
        // A path longer than the grid has cells goes round in a loop.
        for _ in 0..cells.len() {
            head = next[head];
        }
        if next[head] != head {
            return Err(malformed(format!("the arrows from {} go round in a loop", name(start))));
        }
        let place = Place((start / SIDE) as u64, (start % SIDE) as u64);
        match cages.iter_mut().find(|(known, _)| *known == head) {
            Some((_, cage)) => cage.cells.push(place),
            None => cages.push((head, Cage { cells: vec![place], sum: sum_of(cells[head]) })),
        }
    }
    let shape = Shape::default_for(SIDE).expect("9x9 has its boxes");
    let givens = Grid::new(shape, vec![0; SIDE * SIDE]).expect("an empty grid");
    let constraints =
        Constraints { cages: cages.into_iter().map(|(_, cage)| cage).collect(), ..Constraints::default() };
    Ok(SharedPuzzle { givens, constraints })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The forum's example layout in miniature: a row of 9 two- and three-cell cages repeated.
    fn rows(row: &str) -> String {
        row.repeat(SIDE)
    }

    #[test]
    fn arrows_lead_every_cell_to_its_head_whose_character_is_the_sum() {
        // Per row: a cage of 3 (sum 6), of 2 (sum 17, `H`), of 4 (sum 22, `M`).
        let text = rows("6<<H<M<<<");
        assert!(looks_like(&text));
        let puzzle = read(&text).unwrap();
        assert_eq!(puzzle.constraints.cages.len(), 27);
        let first = &puzzle.constraints.cages[0];
        assert_eq!(first.sum, Some(6));
        assert_eq!(first.cells, [Place(0, 0), Place(0, 1), Place(0, 2)]);
        assert_eq!(puzzle.constraints.cages[1].sum, Some(17));
        assert_eq!(puzzle.constraints.cages[2].sum, Some(22));
        assert_eq!(puzzle.constraints.cages[2].cells.len(), 4);
        assert!(puzzle.givens.cells().iter().all(|&value| value == 0));
    }

    #[test]
    fn the_sums_run_from_0_through_the_letters_and_diagonals_point_across() {
        assert_eq!(
            [sum_of('0'), sum_of('9'), sum_of('A'), sum_of('Z'), sum_of('a'), sum_of('j')].map(Option::unwrap),
            [0, 9, 10, 35, 36, 45]
        );
        assert_eq!(sum_of('k'), None);
        // r2c2 points up-left at r1c1; every other cell is its own cage of 5.
        let mut text: Vec<char> = "5".repeat(81).chars().collect();
        text[10] = '`';
        let puzzle = read(&text.into_iter().collect::<String>()).unwrap();
        assert_eq!(puzzle.constraints.cages[0].cells, [Place(0, 0), Place(1, 1)]);
    }

    #[test]
    fn plain_grids_are_not_killers_and_broken_arrows_are_refused_saying_where() {
        let grid = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        assert!(!looks_like(grid));
        let outside = format!("<{}", "5".repeat(80));
        assert_eq!(
            read(&outside).unwrap_err().to_string(),
            "not a one-line killer: `<` at r1c1 points outside the grid"
        );
        let looped = format!("><{}", "5".repeat(79));
        assert_eq!(
            read(&looped).unwrap_err().to_string(),
            "not a one-line killer: the arrows from r1c1 go round in a loop"
        );
        let short = "5<<";
        assert_eq!(
            read(short).unwrap_err().to_string(),
            "not a one-line killer: it has 3 characters, not one per cell of a 9x9 grid"
        );
        let odd = format!("~{}", "5".repeat(80));
        assert_eq!(
            read(&odd).unwrap_err().to_string(),
            "not a one-line killer: `~` at r1c1 is neither a sum nor an arrow"
        );
    }
}
