//! Which cells make each house of a shape, and which cells each cell sees: tables built once per
//! shape and process, so no search computes them again.

use std::sync::OnceLock;

use crate::shape::Shape;

/// The houses and peers of one [`Shape`]'s grid. Cells are row-major indices.
#[derive(Debug)]
pub struct Layout {
    size: usize,
    /// 3N houses of N cells: the rows, then the columns, then the boxes.
    houses: Vec<u16>,
    /// For each cell, the cells that share a house with it (itself excluded).
    peers: Vec<u16>,
    peer_count: usize,
    /// For each cell, its three houses as bits of a house set (bit `h` for the `h`-th house).
    cell_houses: Vec<u128>,
}

impl Layout {
    /// The layout of `shape`, built on first use.
    pub fn of(shape: Shape) -> &'static Layout {
        static LAYOUTS: [OnceLock<Layout>; Shape::COUNT] = [const { OnceLock::new() }; Shape::COUNT];
        LAYOUTS[shape.ordinal()].get_or_init(|| Layout::new(shape))
    }

    fn new(shape: Shape) -> Layout {
        let size = shape.size();
        let index = |row: usize, col: usize| u16::try_from(row * size + col).expect("at most 625 cells");
        let mut houses = Vec::with_capacity(3 * size * size);
        for row in 0..size {
            houses.extend((0..size).map(|col| index(row, col)));
        }
        for col in 0..size {
            houses.extend((0..size).map(|row| index(row, col)));
        }
        for house in 0..size {
            let (top, left) =
                (house / shape.box_rows() * shape.box_rows(), house % shape.box_rows() * shape.box_cols());
            for row in top..top + shape.box_rows() {
                houses.extend((left..left + shape.box_cols()).map(|col| index(row, col)));
            }
        }
        // Two rows of N - 1 others, plus the box's cells outside the cell's row and column.
        let peer_count = 2 * (size - 1) + (shape.box_rows() - 1) * (shape.box_cols() - 1);
        let mut peers = Vec::with_capacity(size * size * peer_count);
        for row in 0..size {
            for col in 0..size {
                let before = peers.len();
                for other_row in 0..size {
                    for other_col in 0..size {
                        let sees = (other_row == row) != (other_col == col)
                            || (other_row != row
                                && other_col != col
                                && shape.box_of(other_row, other_col) == shape.box_of(row, col));
                        if sees {
                            peers.push(index(other_row, other_col));
                        }
                    }
                }
                debug_assert_eq!(peers.len() - before, peer_count);
            }
        }
        let cell_houses = (0..size * size)
            .map(|cell| {
                let (row, col) = (cell / size, cell % size);
                1u128 << row | 1u128 << (size + col) | 1u128 << (2 * size + shape.box_of(row, col))
            })
            .collect();
        Layout { size, houses, peers, peer_count, cell_houses }
    }

    /// The houses, each a slice of N cells: rows, columns, then boxes.
    pub fn houses(&self) -> std::slice::ChunksExact<'_, u16> {
        self.houses.chunks_exact(self.size)
    }

    /// The house `index` (rows, then columns, then boxes).
    pub fn house(&self, index: usize) -> &[u16] {
        &self.houses[index * self.size..(index + 1) * self.size]
    }

    /// The houses of `cell`, as a house set.
    pub fn houses_of(&self, cell: usize) -> u128 {
        self.cell_houses[cell]
    }

    /// Every house, as a house set.
    pub fn all_houses(&self) -> u128 {
        (1u128 << (3 * self.size)) - 1
    }

    /// The cells that share a house with `cell`.
    pub fn peers(&self, cell: usize) -> &[u16] {
        &self.peers[cell * self.peer_count..(cell + 1) * self.peer_count]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_is_in_three_houses_and_sees_their_other_cells() {
        for shape in Shape::all() {
            let layout = Layout::of(shape);
            let n = shape.size();
            assert_eq!(layout.houses().count(), 3 * n);
            for cell in 0..n * n {
                let mut seen: Vec<u16> = layout
                    .houses()
                    .filter(|house| house.contains(&(cell as u16)))
                    .flatten()
                    .copied()
                    .filter(|&other| usize::from(other) != cell)
                    .collect();
                seen.sort_unstable();
                seen.dedup();
                let mut peers = layout.peers(cell).to_vec();
                peers.sort_unstable();
                assert_eq!(peers, seen, "{shape}, cell {cell}");
                let houses: Vec<usize> = (0..3 * n).filter(|&index| layout.houses_of(cell) >> index & 1 == 1).collect();
                assert_eq!(houses.len(), 3);
                assert!(houses.iter().all(|&index| layout.house(index).contains(&(cell as u16))));
            }
        }
    }
}
