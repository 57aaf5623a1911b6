//! Strong-link fish, Sudoku Explainer's turbot family: skyscraper, 2-string kite, turbot fish and
//! empty rectangle with two strong links, and their longer kin with three or four.
//!
//! A strong link is a house where a digit fits in only two places (or, grouped, in only two
//! groups: the two box segments of a line, or the row and column of a box's cross, an "empty
//! rectangle"): one of its ends holds the digit. Chain such links so that each one's second
//! end shares a house with the next one's first end (they cannot both hold the digit); then if
//! the first link's first end is empty, each link passes the digit on, and the last link's last
//! end holds it. So one of the chain's two outer ends holds the digit, and every cell seeing both
//! loses it.
//!
//! SE rates the family by its number of links (two 4.0, three 5.4, four 5.8), plus 0.3 for a
//! grouped link, else 0.1 when the links mix rows and columns or use a box, 0.2 when they use a
//! box, rows and columns ([`rating`]).

use std::cell::RefCell;

use crate::logic::cells::{CellSet, per_thread};
use crate::logic::geometry::Geometry;
use crate::logic::grid::{Grid, ones};
use crate::logic::step::{Deduction, cell_list, eliminated_cells, symbol};
use crate::position::HouseKind;

/// A house where a digit fits in two places or two groups.
#[derive(Clone, Copy, Debug)]
struct Link<C> {
    house: usize,
    kind: HouseKind,
    ends: [C; 2],
    /// For each end, the houses (a bit per house index) holding all its cells.
    end_houses: [u128; 2],
    grouped: bool,
}

impl<C: CellSet> Link<C> {
    fn new(geometry: &Geometry<C>, house: usize, ends: [C; 2], grouped: bool) -> Link<C> {
        let kind = geometry.kind(house);
        Link { house, kind, ends, end_houses: ends.map(|end| houses_holding(geometry, end)), grouped }
    }

    fn cells(&self) -> C {
        self.ends[0] | self.ends[1]
    }
}

/// The houses (a bit per house index) that hold every cell of `cells`.
fn houses_holding<C: CellSet>(geometry: &Geometry<C>, cells: C) -> u128 {
    cells.ones().fold(u128::MAX, |acc, cell| acc & geometry.house_set(cell))
}

/// The chain of `length` strong links SE would take: the lowest rating, then the most
/// eliminations.
pub(super) fn strong_links<C: CellSet>(grid: &Grid<C>, out: &mut Deduction, length: usize) -> bool {
    let mut best: Option<Found<C>> = None;
    let tables = per_thread::<RefCell<Vec<Table<C>>>>();
    {
        let mut tables = tables.borrow_mut();
        let side = grid.geometry().side();
        tables.resize_with(side, Table::empty);
        for (index, table) in tables.iter_mut().enumerate() {
            let digit = index as u8 + 1;
            if table.places != Some((grid.geometry().id(), grid.cells_with(digit))) {
                *table = Table::of(grid, digit);
            }
            search(grid, digit, table, length, &mut best);
        }
    }
    best.is_some_and(|best| {
        out.rating = best.rating;
        for &(link, flipped) in &best.chain {
            out.houses.push(link.house);
            let [first, second] = if flipped { [link.ends[1], link.ends[0]] } else { link.ends };
            for group in [first, second] {
                out.add_cells(group.ones());
                out.groups.push(group.count());
            }
        }
        out.add_digits([best.digit]);
        out.eliminate(best.eliminated, best.digit);
        out.finish()
    })
}

/// One digit's links and which walked link (`2 * link + flipped`) may follow which: they depend
/// only on where the digit can go, so they are kept per thread and digit while that stays the
/// same (the three searches of a step, and steps that leave the digit alone, share them).
struct Table<C> {
    /// The geometry and the digit's places the table is for.
    places: Option<(u64, C)>,
    links: Vec<Link<C>>,
    next: [u128; 128],
}

impl<C: CellSet> Table<C> {
    /// A table for no digit yet.
    fn empty() -> Table<C> {
        Table { places: None, links: Vec::new(), next: [0; 128] }
    }

    fn of(grid: &Grid<C>, digit: u8) -> Table<C> {
        let links = links(grid, digit);
        let walks = |at: usize| (links[at / 2], at % 2 == 1);
        // The walked links that may follow one: their first end shares a house with its second
        // end, and no cell.
        let mut next = [0u128; 128];
        for (from, follows) in next.iter_mut().enumerate().take(links.len() * 2) {
            let (link, flipped) = walks(from);
            let (end, end_houses) = (link.ends[usize::from(!flipped)], link.end_houses[usize::from(!flipped)]);
            for to in (0..links.len() * 2).filter(|&to| to / 2 != from / 2) {
                let (other, other_flipped) = walks(to);
                let start = other.ends[usize::from(other_flipped)];
                if end_houses & other.end_houses[usize::from(other_flipped)] != 0 && (end & start).is_empty() {
                    *follows |= 1 << to;
                }
            }
        }
        Table { places: Some((grid.geometry().id(), grid.cells_with(digit))), links, next }
    }
}

/// Every chain of `length` links of `digit`, offered to `best`.
fn search<C: CellSet>(grid: &Grid<C>, digit: u8, table: &Table<C>, length: usize, best: &mut Option<Found<C>>) {
    let links = &table.links;
    let search = Search { grid, digit, links, next: &table.next, length };
    let mut chain = Vec::with_capacity(length);
    for first in 0..links.len() * 2 {
        let (link, flipped) = (links[first / 2], first % 2 == 1);
        // Nothing outside the chain sees the first end: no chain from it eliminates anything.
        let start = link.ends[usize::from(flipped)];
        let seen =
            start.ones().fold(grid.cells_with(digit) & !link.cells(), |acc, cell| acc & grid.geometry().peers(cell));
        if seen.is_empty() {
            continue;
        }
        chain.push(first);
        search.extend(&mut chain, house_places(grid, digit, link), best);
        chain.pop();
    }
}

/// The digit's places in a link's house: no other link of the chain may use one of them.
fn house_places<C: CellSet>(grid: &Grid<C>, digit: u8, link: Link<C>) -> C {
    grid.geometry().cells(link.house) & grid.cells_with(digit)
}

/// A chain found: its links (each with whether it is walked from its second end), digit, rating
/// and eliminations.
struct Found<C> {
    chain: Vec<(Link<C>, bool)>,
    digit: u8,
    rating: f32,
    eliminated: C,
}

/// One digit's search: its links, each walked either way (`2 * link + flipped`), and which
/// walked link may follow which.
struct Search<'a, C: CellSet> {
    grid: &'a Grid<'a, C>,
    digit: u8,
    links: &'a [Link<C>],
    next: &'a [u128; 128],
    length: usize,
}

impl<C: CellSet> Search<'_, C> {
    /// Grows `chain` (walked links, `2 * link + flipped`; `used` the places of their houses) to
    /// `length` links, offering each full chain once (the last link's index above the first's,
    /// so a chain and its reverse are one).
    fn extend(&self, chain: &mut Vec<usize>, used: C, best: &mut Option<Found<C>>) {
        if chain.len() == self.length {
            // On the stack: every full chain comes through here.
            let mut walked = [(self.links[0], false); 4];
            for (slot, &at) in walked.iter_mut().zip(chain.iter()) {
                *slot = (self.links[at / 2], at % 2 == 1);
            }
            offer(self.grid, self.digit, &walked[..chain.len()], best);
            return;
        }
        for to in ones(self.next[chain[chain.len() - 1]]) {
            let link = self.links[to / 2];
            let places = house_places(self.grid, self.digit, link);
            if !(places & used).is_empty() || (chain.len() + 1 == self.length && to / 2 < chain[0] / 2) {
                continue;
            }
            chain.push(to);
            self.extend(chain, used | places, best);
            chain.pop();
        }
    }
}

/// Keeps the chain if it eliminates something and beats the best so far.
fn offer<C: CellSet>(grid: &Grid<C>, digit: u8, chain: &[(Link<C>, bool)], best: &mut Option<Found<C>>) {
    let (first, first_flipped) = chain[0];
    let (last, last_flipped) = chain[chain.len() - 1];
    let start = first.ends[usize::from(first_flipped)];
    let end = last.ends[usize::from(!last_flipped)];
    let geometry = grid.geometry();
    let mut eliminated = (start | end).ones().fold(grid.cells_with(digit), |acc, cell| acc & geometry.peers(cell));
    for (i, &(link, flipped)) in chain.iter().enumerate() {
        eliminated &= !geometry.cells(link.house);
        if let Some(&(next, next_flipped)) = chain.get(i + 1) {
            let shared = link.end_houses[usize::from(!flipped)] & next.end_houses[usize::from(next_flipped)];
            for house in ones(shared) {
                eliminated &= !geometry.cells(house);
            }
        }
    }
    if eliminated.is_empty() {
        return;
    }
    let rating = rating(chain.iter().map(|(link, _)| link));
    let better = best.as_ref().is_none_or(|best| {
        rating < best.rating || (rating == best.rating && eliminated.count() > best.eliminated.count())
    });
    if better {
        *best = Some(Found { chain: chain.to_vec(), digit, rating, eliminated });
    }
}

/// SE's rating of a chain of these links.
fn rating<'a, C: CellSet>(links: impl Iterator<Item = &'a Link<C>> + Clone) -> f32 {
    let base = match links.clone().count() {
        2 => 40,
        3 => 54,
        _ => 58,
    };
    let has = |kind: HouseKind| links.clone().any(|link| link.kind == kind);
    let added = if links.clone().any(|link| link.grouped) {
        3
    } else if !has(HouseKind::Box) && (!has(HouseKind::Row) || !has(HouseKind::Column)) {
        0
    } else if has(HouseKind::Box) && has(HouseKind::Row) && has(HouseKind::Column) {
        2
    } else {
        1
    };
    (base + added) as f32 / 10.0
}

/// The strong links of `digit`: houses where it fits in two cells (a box's two only when they
/// share no line, which the line's link covers), and grouped, lines whose places lie in two of
/// their three box segments and boxes whose places form a cross (an empty rectangle).
fn links<C: CellSet>(grid: &Grid<C>, digit: u8) -> Vec<Link<C>> {
    let geometry = grid.geometry();
    let mut links = Vec::new();
    for house in 0..geometry.house_count() {
        let kind = geometry.kind(house);
        let places = geometry.cells(house) & grid.cells_with(digit);
        let count = places.count();
        if count < 2 {
            continue;
        }
        if count == 2 {
            let (a, b) = (places.lowest(), places.without_lowest().lowest());
            let same_line =
                HouseKind::LINES.iter().any(|&line| geometry.house_of(a, line) == geometry.house_of(b, line));
            if kind != HouseKind::Box || !same_line {
                links.push(Link::new(geometry, house, [C::cell(a), C::cell(b)], false));
            }
            continue;
        }
        if count > 6 {
            continue;
        }
        match kind {
            HouseKind::Box => {
                for &heart in geometry.members(house) {
                    let row = geometry.cells(geometry.house_of(usize::from(heart), HouseKind::Row));
                    let column = geometry.cells(geometry.house_of(usize::from(heart), HouseKind::Column));
                    let (across, down) = (places & row, places & column);
                    if (places & !(row | column)).is_empty()
                        && !(across & !down).is_empty()
                        && !(down & !across).is_empty()
                    {
                        links.push(Link::new(geometry, house, [across, down], true));
                    }
                }
            }
            _ => {
                let segments: Vec<C> = (geometry.regions())
                    .map(|index| places & geometry.cells(index))
                    .filter(|segment| !segment.is_empty())
                    .collect();
                if let [a, b] = segments[..] {
                    links.push(Link::new(geometry, house, [a, b], true));
                }
            }
        }
    }
    // Plain links first, then grouped: a search holds at most 64 (walked both ways, 128 bits),
    // far more than a grid that gets this far has.
    links.sort_by_key(|link| link.grouped);
    links.truncate(64);
    links
}

/// "In row 1, 5 fits only in r1c7 and r1c2; in row 4, only in r4c2 and r4c8; r1c2 and r4c2
/// share a house, so one of r1c7 and r4c8 is 5, and r2c8, seeing both, can't be 5."
pub(super) fn describe<C: CellSet>(geometry: &Geometry<C>, deduction: &Deduction) -> String {
    let digit = symbol(deduction.digits[0]);
    let mut groups = Vec::new();
    let mut rest = &deduction.cells[..];
    for &size in &deduction.groups {
        let (group, after) = rest.split_at(size);
        groups.push(match group {
            [cell] => geometry.cell_name(*cell),
            _ => format!("{{{}}}", cell_list(geometry, group.iter().copied())),
        });
        rest = after;
    }
    let links: Vec<String> = (deduction.houses.iter().enumerate())
        .map(|(i, &house)| {
            let house = geometry.name(house);
            let lead =
                if i == 0 { format!("In {house}, {digit} fits only in") } else { format!("in {house}, only in") };
            format!("{lead} {} and {}", groups[2 * i], groups[2 * i + 1])
        })
        .collect();
    let joints: Vec<String> = (1..deduction.houses.len())
        .map(|i| format!("{} and {} share a house", groups[2 * i - 1], groups[2 * i]))
        .collect();
    format!(
        "{}; {}, so one of {} and {} is {digit}, and {}, seeing both, can't be {digit}.",
        links.join("; "),
        joints.join(", "),
        groups[0],
        groups[groups.len() - 1],
        eliminated_cells(geometry, deduction)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::step::Technique;
    use crate::logic::techniques::testing::{cand, run, sparse};

    #[test]
    fn skyscraper_two_rows_joined_by_a_column() {
        // 5 in row 1 only in r1c2 and r1c7, in row 4 only in r4c2 and r4c8: column 2 joins them,
        // so r1c7 or r4c8 is 5, and r2c8 and r3c8 (seeing both) lose it.
        let cells: &[(usize, usize, &[u8])] = &[
            (1, 2, &[5, 1]),
            (1, 7, &[5, 2]),
            (4, 2, &[5, 3]),
            (4, 8, &[5, 4]),
            (2, 8, &[5, 6]),
            (3, 8, &[5, 7]),
            (7, 2, &[5, 8]),
            (7, 5, &[5, 9]),
        ];
        let step = run(Technique::TurbotFish, &sparse(cells)).unwrap();
        assert_eq!(step.eliminations, [cand(2, 8, 5), cand(3, 8, 5)]);
        assert_eq!(step.rating, 4.0, "rows only: a skyscraper");
        let text = describe(Geometry::classic(), &step);
        assert!(text.ends_with("so one of r1c7 and r4c8 is 5, and r2c8 and r3c8, seeing both, can't be 5."), "{text}");
        assert!(text.starts_with("In row 1, 5 fits only in r1c7 and r1c2; in row 4, only in r4c2 and r4c8;"), "{text}");
        // A third 5 in row 4 breaks the skyscraper (what is left is a grouped chain through box 3
        // and column 8, which clears r4c2 at 4.3).
        let mut broken = cells.to_vec();
        broken.push((4, 5, &[5, 1]));
        let step = run(Technique::TurbotFish, &sparse(&broken)).unwrap();
        assert_eq!((step.eliminations, step.rating), (vec![cand(4, 2, 5)], 4.3));
    }

    #[test]
    fn kite_mixes_a_row_and_a_column_and_a_grouped_link_rates_more() {
        // Row 1: 3 only in r1c2 and r1c7; column 1: only in r2c1 and r8c1; r1c2 and r2c1 share
        // box 1, so r1c7 or r8c1 is 3: r8c7 loses it.
        // r5c7, r8c4 and r3c3 keep column 7, row 8 and box 1 from being links of their own.
        let kite = [
            (1, 2, &[3, 1][..]),
            (1, 7, &[3, 2]),
            (2, 1, &[3, 4]),
            (8, 1, &[3, 5]),
            (8, 7, &[3, 6]),
            (5, 7, &[3, 7]),
            (8, 4, &[3, 8]),
            (3, 3, &[3, 9]),
        ];
        let step = run(Technique::TurbotFish, &sparse(&kite)).unwrap();
        assert_eq!((step.eliminations.clone(), step.rating), (vec![cand(8, 7, 3)], 4.1));
        let geometry = Geometry::classic();
        let grouped = [Link::new(geometry, 0, [1, 2], true), Link::new(geometry, 9, [4, 8], false)];
        assert_eq!(rating(grouped.iter()), 4.3);
        let three = [0, 9, 18].map(|house| Link::new(geometry, house, [1, 2], false));
        assert_eq!(rating(three.iter()), 5.6, "three links over a box, a row and a column");
    }
}
