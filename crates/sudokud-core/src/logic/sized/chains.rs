//! Chains over any book of houses and peers: the XY-Wing, XY-chains and X-chains of the 9x9
//! engine (`logic::techniques::chains`), for every size and variant.
//!
//! A chain alternates "is not" and "is" from one cell to another, so that either its first cell
//! or its last holds a value; a cell that sees both ends loses it. "Sees" is the book's peers,
//! so a variant's cage mates and knight's or king's moves count as links where they forbid a
//! repeat; strong links ("is" after "is not") come only from houses, which hold every value.
//! Each search is breadth first from every start, so the chain kept is one of the shortest, and
//! each cell joins a search once (no cell twice in a chain), as in the 9x9 engine.

use super::{Pencil, Step, Technique, bit, join, symbol, values};
use crate::logic::trace_chain;

/// The shortest chain found so far, its value and the cells that lose it.
struct Best {
    /// Cells in the chain (XY) or links (X): what "shortest" counts.
    length: usize,
    path: Vec<usize>,
    value: u8,
    eliminated: Vec<usize>,
}

impl Best {
    fn new() -> Best {
        Best { length: usize::MAX, path: Vec::new(), value: 0, eliminated: Vec::new() }
    }

    /// Keeps the chain ending at `end` if it removes something and is shorter than the best.
    fn offer(&mut self, eliminated: Vec<usize>, parent: &[usize], end: usize, length: usize, value: u8) {
        if eliminated.is_empty() || length >= self.length {
            return;
        }
        trace_chain(parent, end, &mut self.path);
        (self.length, self.value, self.eliminated) = (length, value, eliminated);
    }
}

/// A breadth-first search's marks, reset between searches by the cells it touched.
struct Marks {
    parent: Vec<usize>,
    visited: Vec<bool>,
    touched: Vec<usize>,
}

impl Marks {
    fn new(cells: usize) -> Marks {
        Marks { parent: vec![usize::MAX; cells], visited: vec![false; cells], touched: Vec::new() }
    }

    fn start(&mut self, cell: usize) {
        for cell in self.touched.drain(..) {
            self.parent[cell] = usize::MAX;
            self.visited[cell] = false;
        }
        self.visit(cell, usize::MAX);
    }

    /// Marks `cell` reached from `from`; false if it was reached before.
    fn visit(&mut self, cell: usize, from: usize) -> bool {
        if std::mem::replace(&mut self.visited[cell], true) {
            return false;
        }
        self.parent[cell] = from;
        self.touched.push(cell);
        true
    }
}

impl Pencil<'_> {
    /// The other value of a two-candidate cell.
    fn other(&self, cell: usize, value: u8) -> u8 {
        (self.candidates[cell] & !bit(value)).trailing_zeros() as u8 + 1
    }

    /// The open cells other than `a` and `b` that see both and still hold `value`.
    fn seeing_both(&self, a: usize, b: usize, value: u8) -> Vec<usize> {
        let sees_a = self.book.peers(a);
        let mut seeing: Vec<usize> = (self.book.peers(b).iter())
            .filter(|&peer| sees_a.contains(peer))
            .map(|&peer| usize::from(peer))
            .filter(|&peer| peer != a && self.candidates[peer] & bit(value) != 0)
            .collect();
        seeing.sort_unstable();
        seeing
    }

    /// The shortest XY-chain of three to `most_cells` cells that removes something (three
    /// cells: the XY-Wing, whose middle cell is the pivot). From a two-candidate cell that is
    /// not x, each two-candidate cell it sees that shares the value it then holds holds its other
    /// one, until a cell would hold x; the step's cells are the chain in order (the pivot first
    /// for a wing), its values x (a wing: the pivot's two, then x).
    pub(super) fn xy_chain(&self, most_cells: usize, step: &mut Step) -> bool {
        let cells = self.size * self.size;
        let bivalue: Vec<bool> = self.candidates.iter().map(|set| set.count_ones() == 2).collect();
        let mut best = Best::new();
        let mut marks = Marks::new(cells);
        // The value each reached cell holds if the start is not x.
        let mut holds = vec![0u8; cells];
        for start in (0..cells).filter(|&cell| bivalue[cell]) {
            for x in values(self.candidates[start]) {
                marks.start(start);
                holds[start] = self.other(start, x);
                let (mut frontier, mut length) = (vec![start], 1);
                while !frontier.is_empty() && length < most_cells && length + 1 < best.length {
                    let mut next = Vec::new();
                    for &cell in &frontier {
                        for peer in self.book.peers(cell).iter().map(|&peer| usize::from(peer)) {
                            let linked = bivalue[peer] && self.candidates[peer] & bit(holds[cell]) != 0;
                            if linked && marks.visit(peer, cell) {
                                holds[peer] = self.other(peer, holds[cell]);
                                next.push(peer);
                            }
                        }
                    }
                    // In cell order, as the 9x9 engine's bit sets go: the same chains win ties.
                    next.sort_unstable();
                    length += 1;
                    if length >= 3 {
                        for &end in next.iter().filter(|&&end| holds[end] == x) {
                            best.offer(self.seeing_both(start, end, x), &marks.parent, end, length, x);
                        }
                    }
                    frontier = next;
                }
            }
        }
        if best.eliminated.is_empty() {
            return false;
        }
        let x = best.value;
        step.eliminations.extend(best.eliminated.iter().map(|&cell| (cell, x)));
        if let (&[a, pivot, b], 3) = (&best.path[..], most_cells) {
            let (pivot_x, pivot_y) = (self.other(a, x), self.other(b, x));
            step.cells.extend([pivot, a, b]);
            step.values.extend([pivot_x, pivot_y, x]);
        } else {
            step.cells.extend(&best.path);
            step.values.push(x);
        }
        true
    }

    /// The shortest X-chain of three or more links that removes something: from a cell that is
    /// not the value, the other end of a house's conjugate pair is it, which makes every cell
    /// seeing that one not the value, and so on. The step's cells are the chain in order.
    pub(super) fn x_chain(&self, step: &mut Step) -> bool {
        let cells = self.size * self.size;
        let mut best = Best::new();
        let mut marks = Marks::new(cells);
        let mut strong: Vec<Vec<usize>> = vec![Vec::new(); cells];
        for value in 1..=self.size as u8 {
            strong.iter_mut().for_each(Vec::clear);
            for house in self.houses() {
                let mut places = self.cells(house).filter(|&cell| self.candidates[cell] & bit(value) != 0);
                if let (Some(a), Some(b), None) = (places.next(), places.next(), places.next()) {
                    strong[a].push(b);
                    strong[b].push(a);
                }
            }
            for start in (0..cells).filter(|&cell| !strong[cell].is_empty()) {
                marks.start(start);
                let (mut frontier, mut links) = (vec![start], 0);
                while !frontier.is_empty() && links + 1 < best.length {
                    // Cells that are the value if the start is not, after a conjugate pair.
                    let mut on = Vec::new();
                    for &cell in &frontier {
                        for &partner in &strong[cell] {
                            if marks.visit(partner, cell) {
                                on.push(partner);
                            }
                        }
                    }
                    on.sort_unstable();
                    links += 1;
                    if links >= 3 {
                        for &end in &on {
                            best.offer(self.seeing_both(start, end, value), &marks.parent, end, links, value);
                        }
                    }
                    // Cells that are not the value, after a shared house or another peer link.
                    frontier.clear();
                    for &cell in &on {
                        for peer in self.book.peers(cell).iter().map(|&peer| usize::from(peer)) {
                            if self.candidates[peer] & bit(value) != 0 && marks.visit(peer, cell) {
                                frontier.push(peer);
                            }
                        }
                    }
                    frontier.sort_unstable();
                    links += 1;
                }
            }
        }
        if best.eliminated.is_empty() {
            return false;
        }
        step.eliminations.extend(best.eliminated.iter().map(|&cell| (cell, best.value)));
        step.cells.extend(&best.path);
        step.values.push(best.value);
        true
    }

    /// `If r1c1 isn't 5, r1c5 is, so r4c5 isn't, so r4c9 is; either way r1c1 or r4c9 is 5, so
    /// r1c9 can't be 5.` (X-chain) or `If r1c1 isn't 4 it is 7, so r1c5 is 2, ...` (XY-chain),
    /// as the 9x9 engine words them.
    pub(super) fn describe_chain(&self, technique: Technique, step: &Step, eliminated: &[usize]) -> String {
        let value = step.values[0];
        let names: Vec<String> = step.cells.iter().map(|&cell| self.cell_name(cell)).collect();
        let (first, last) = (&names[0], &names[names.len() - 1]);
        let implications = if technique == Technique::XChain {
            let steps = names[1..].iter().enumerate().map(|(at, name)| match at {
                0 => format!("{name} is"),
                _ if at % 2 == 1 => format!("so {name} isn't"),
                _ => format!("so {name} is"),
            });
            format!("If {first} isn't {}, {}", symbol(value), steps.collect::<Vec<_>>().join(", "))
        } else {
            let mut holds = self.other(step.cells[0], value);
            let mut steps = vec![format!("If {first} isn't {} it is {}", symbol(value), symbol(holds))];
            for (&cell, name) in step.cells[1..].iter().zip(&names[1..]) {
                holds = self.other(cell, holds);
                steps.push(format!("so {name} is {}", symbol(holds)));
            }
            steps.join(", ")
        };
        let eliminated = join(eliminated.iter().map(|&cell| self.cell_name(cell)), "and");
        let value = symbol(value);
        format!("{implications}; either way {first} or {last} is {value}, so {eliminated} can't be {value}.")
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Book, Grid, Step, TECHNIQUES};
    use super::*;
    use crate::logic::cells::{CellSet, Wide};
    use crate::logic::geometry::Geometry;
    use crate::logic::oracle::{self, run, sparse};
    use crate::random::SplitMix64;
    use crate::sizes::Shape;

    /// A 9x9 pencil with the 9x9 engine's candidates of `grid` and nothing placed.
    fn pencil_of(grid: &oracle::Grid) -> Pencil<'static> {
        let empty = Grid::empty(Shape::CLASSIC);
        let mut pencil = Pencil::new(&empty, Book::of(&empty));
        for (cell, candidates) in pencil.candidates.iter_mut().enumerate() {
            *candidates = grid.candidates(cell);
        }
        pencil
    }

    /// Random candidate grids: some cells with two candidates, some with three, the rest empty.
    fn random_grid(random: &mut SplitMix64) -> oracle::Grid<'static> {
        let mut cells: Vec<(usize, usize, Vec<u8>)> = Vec::new();
        for cell in 0..81 {
            let roll = random.next_u64() % 100;
            let count = match roll {
                0..30 => 2,
                30..40 => 3,
                _ => continue,
            };
            let mut digits: Vec<u8> = Vec::new();
            while digits.len() < count {
                let digit = (random.next_u64() % 4) as u8 + 1;
                if !digits.contains(&digit) {
                    digits.push(digit);
                }
            }
            cells.push((cell / 9 + 1, cell % 9 + 1, digits));
        }
        let listed: Vec<(usize, usize, &[u8])> =
            cells.iter().map(|(row, col, digits)| (*row, *col, &digits[..])).collect();
        sparse(&listed)
    }

    /// The 9x9 engine is the oracle: on random candidate grids the chains found here are its
    /// chains (same cells, same eliminations), and an XY-Wing is found here exactly when it
    /// finds one.
    #[test]
    fn chains_agree_with_the_9x9_engine_on_random_candidate_grids() {
        let mut random = SplitMix64(7);
        let (mut x_chains, mut xy_chains, mut wings) = (0, 0, 0);
        for _ in 0..3000 {
            let grid = random_grid(&mut random);
            let pencil = pencil_of(&grid);
            for technique in [Technique::XChain, Technique::XYChain, Technique::XYWing] {
                let mut step = Step::default();
                let found = pencil.find(technique, &mut step);
                let expected = run(technique, &grid);
                assert_eq!(found, expected.is_some(), "{technique:?} on {grid:?}");
                let Some(expected) = expected else { continue };
                let mut eliminations: Vec<(usize, u8)> = step.eliminations.clone();
                eliminations.sort_unstable();
                let mut wanted: Vec<(usize, u8)> =
                    expected.eliminations.iter().map(|mark| (mark.cell, mark.digit)).collect();
                wanted.sort_unstable();
                match technique {
                    Technique::XYWing => wings += 1,
                    _ => {
                        assert_eq!(eliminations, wanted, "{technique:?}");
                        assert_eq!(step.cells, expected.cells, "{technique:?}");
                        let explanation = pencil.describe(technique, &step).explanation;
                        assert_eq!(explanation, oracle::describe(&grid, &expected), "{technique:?}");
                        if technique == Technique::XChain { x_chains += 1 } else { xy_chains += 1 }
                    }
                }
            }
        }
        assert!(x_chains > 100 && xy_chains > 100 && wings > 100, "{x_chains} X, {xy_chains} XY, {wings} wings");
    }

    /// On random candidate grids of `size` (some cells with two of the digits 1-6, some with
    /// three, the rest empty), the X- and XY-chains found here are the 9x9 engine's, generic
    /// over its cell sets `C`: same found or not, cells, eliminations and sentence. Returns how
    /// many of each were found.
    fn agree_on_size<C: CellSet>(size: usize, grids: usize, random: &mut SplitMix64) -> [usize; 2] {
        let shape = Shape::default_for(size).expect("a square size");
        let geometry = Geometry::<C>::of_shape(shape).expect("the shape fits its cell sets");
        let empty = Grid::empty(shape);
        let mut found = [0; 2];
        for _ in 0..grids {
            let mut ours = oracle::Grid::of_values(&geometry, empty.cells());
            let mut pencil = Pencil::new(&empty, Book::of(&empty));
            for cell in 0..size * size {
                let count = match random.next_u64() % 100 {
                    0..30 => 2,
                    30..40 => 3,
                    _ => 0,
                };
                let mut kept = 0u32;
                while kept.count_ones() < count {
                    kept |= bit((random.next_u64() % 6) as u8 + 1);
                }
                for digit in (1..=size as u8).filter(|&digit| kept & bit(digit) == 0) {
                    ours.eliminate(cell, digit);
                }
                pencil.candidates[cell] = kept;
            }
            for (index, technique) in [Technique::XChain, Technique::XYChain].into_iter().enumerate() {
                let mut step = Step::default();
                let here = pencil.find(technique, &mut step);
                let expected = run(technique, &ours);
                assert_eq!(here, expected.is_some(), "{technique:?} on {size}x{size}");
                let Some(expected) = expected else { continue };
                let mut eliminations = step.eliminations.clone();
                eliminations.sort_unstable();
                let wanted: Vec<(usize, u8)> =
                    expected.eliminations.iter().map(|mark| (mark.cell, mark.digit)).collect();
                assert_eq!(eliminations, wanted, "{technique:?}");
                assert_eq!(step.cells, expected.cells, "{technique:?}");
                assert_eq!(pencil.describe(technique, &step).explanation, oracle::describe(&ours, &expected));
                found[index] += 1;
            }
        }
        found
    }

    /// The 9x9 engine's chains on other sizes are this engine's (which differ only in rating
    /// them by length, not at their base).
    #[test]
    fn chains_agree_with_the_9x9_engines_generic_chains_on_16x16_and_25x25() {
        let mut random = SplitMix64(11);
        let [x, xy] = agree_on_size::<Wide<4>>(16, 300, &mut random);
        assert!(x > 50 && xy > 50, "16x16: {x} X, {xy} XY");
        let [x, xy] = agree_on_size::<Wide<10>>(25, 100, &mut random);
        assert!(x > 20 && xy > 20, "25x25: {x} X, {xy} XY");
    }

    #[test]
    fn an_xy_wing_names_its_pivot_and_pincers() {
        // Pivot r1c1 (1 or 2), pincers r1c5 (1 or 3) and r5c1 (2 or 3): r5c5 sees both.
        let grid = sparse(&[(1, 1, &[1, 2]), (1, 5, &[1, 3]), (5, 1, &[2, 3]), (5, 5, &[3, 4])]);
        let pencil = pencil_of(&grid);
        let mut step = Step::default();
        assert!(pencil.find(Technique::XYWing, &mut step));
        assert_eq!(step.eliminations, [(40, 3)]);
        assert_eq!(
            pencil.describe(Technique::XYWing, &step).explanation,
            "r1c1 is 1 or 2, and r1c5 (1 or 3) and r5c1 (2 or 3) see it, so one of r1c5 and r5c1 is 3 and r5c5, \
             seeing both, can't be 3."
        );
        assert!(TECHNIQUES.contains(&Technique::XYWing));
    }
}
