//! A booklet: puzzles laid out k to a page, numbered, each with its caption (its id), then
//! their answers, smaller, on pages of their own; a header with the title and a page number on
//! every page.

use crate::generate::{Symmetry, batch_seed};
use crate::logic::Level;
use crate::puzzle::Puzzle;
use crate::puzzle_id::PuzzleId;
use crate::sizes::{AnyGrid, Shape};
use crate::solver::{Interrupt, Interrupted, Unanswerable};
use crate::variants::{ConstraintError, Constraints, Preset};

use super::figure::Figure;
use super::scene::{Color, Point, Scene};
use super::{PAGE_MARGIN, Paper, pdf};

/// The most puzzles a booklet holds: 25 pages of four and their answers.
pub const MAX_PUZZLES: usize = 100;

/// How many puzzles a page holds, and in how many columns and rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerPage(u8);

impl PerPage {
    /// Every number of puzzles a page can hold.
    pub const ALL: [u8; 5] = [1, 2, 4, 6, 9];

    /// Four to a page, two by two: a 9x9 puzzle about 9 cm wide on A4.
    pub const DEFAULT: PerPage = PerPage(4);

    /// `count` to a page, if a page can hold that many.
    pub fn new(count: u64) -> Option<PerPage> {
        PerPage::ALL.iter().find(|&&allowed| u64::from(allowed) == count).map(|&count| PerPage(count))
    }

    /// How many puzzles a page holds.
    pub fn count(self) -> usize {
        usize::from(self.0)
    }

    /// Columns and rows: pages are taller than wide, so two puzzles stack.
    fn columns_rows(self) -> (usize, usize) {
        match self.0 {
            1 => (1, 1),
            2 => (1, 2),
            4 => (2, 2),
            6 => (2, 3),
            _ => (3, 3),
        }
    }
}

/// One puzzle of a booklet, with its answer.
#[derive(Clone, Debug)]
pub struct BookletPuzzle {
    /// The puzzle, with its variant's rules, drawn on a puzzle page.
    pub puzzle: Puzzle,
    /// Its one solution, drawn on an answer page.
    pub solution: AnyGrid,
    /// Printed under the puzzle, and under its answer: its id, say.
    pub caption: Option<String>,
}

impl BookletPuzzle {
    /// The puzzle of `id`, made again, captioned with its id.
    pub fn generated(id: PuzzleId, interrupt: &mut impl Interrupt) -> Result<BookletPuzzle, Interrupted> {
        let generated = Puzzle::generate(id.shape, id.level, id.symmetry, id.seed, interrupt)?;
        let puzzle = Puzzle::Classic(generated.puzzle);
        Ok(BookletPuzzle { puzzle, solution: generated.solution, caption: Some(id.to_string()) })
    }

    /// A puzzle of `level` made from `seed` for a variant's rules, with the regions or cages made
    /// for it, as `POST /v1/generate` makes it with that seed; captioned with its variant, level
    /// and seed (a variant puzzle has no id: its constraints are part of it).
    pub fn generated_variant(
        shape: Shape,
        preset: Option<Preset>,
        constraints: &Constraints,
        level: Level,
        symmetry: Symmetry,
        seed: u64,
        interrupt: &mut impl Interrupt,
    ) -> Result<Result<BookletPuzzle, ConstraintError>, Interrupted> {
        let made = match Puzzle::generate_variant(shape, preset, constraints, level, symmetry, seed, interrupt)? {
            Ok(made) => made,
            Err(error) => return Ok(Err(error)),
        };
        let puzzle = match made.to_puzzle() {
            Ok(puzzle) => puzzle,
            Err(error) => return Ok(Err(error)),
        };
        let variant = preset.map_or_else(|| "variant".to_owned(), |preset| preset.to_string());
        let caption = format!("{variant} {level}, seed {seed}");
        Ok(Ok(BookletPuzzle { puzzle, solution: made.solution, caption: Some(caption) }))
    }

    /// A puzzle someone gave, with its solution: only one with a single solution makes a page
    /// with an answer.
    pub fn solved(
        puzzle: Puzzle,
        interrupt: &mut impl Interrupt,
    ) -> Result<Result<BookletPuzzle, Unanswerable>, Interrupted> {
        Ok(puzzle.classify(interrupt)?.unique().map(|solution| BookletPuzzle { puzzle, solution, caption: None }))
    }
}

/// The ids of a booklet's `count` puzzles: `first`'s, then the same with the seeds a batch's
/// puzzles take ([`batch_seed`]), as `sudokud generate --count` and `/v1/generate/batch` make them.
pub fn ids(first: PuzzleId, count: usize) -> impl Iterator<Item = PuzzleId> {
    (0..count as u64).map(move |index| PuzzleId { seed: batch_seed(first.seed, index), ..first })
}

/// A booklet to print.
#[derive(Clone, Copy, Debug)]
pub struct Booklet<'a> {
    /// The puzzles, numbered in this order.
    pub puzzles: &'a [BookletPuzzle],
    /// The header of every page (with " · answers" on answer pages) and the PDF's title.
    pub title: Option<&'a str>,
    /// The page size.
    pub paper: Paper,
    /// How many puzzles go on a page (answers of grids up to 9x9 go nine to a page).
    pub per_page: PerPage,
    /// Whether answer pages follow the puzzles.
    pub answers: bool,
}

/// The header's and the footer's height, in points.
const HEADER: f32 = 28.0;
const FOOTER: f32 = 20.0;

impl Booklet<'_> {
    /// How many answers a page holds: nine of grids up to 9x9, as many as the puzzles' pages
    /// hold of larger ones (whose small print would not read).
    fn answers_per_page(&self) -> PerPage {
        let largest = self.puzzles.iter().map(|entry| entry.puzzle.shape().size()).max().unwrap_or(9);
        if largest <= 9 { PerPage(9) } else { self.per_page }
    }

    /// The booklet as a PDF.
    pub fn pdf(&self) -> Vec<u8> {
        let numbers: Vec<String> = (1..=self.puzzles.len()).map(|number| number.to_string()).collect();
        let figures = |answers: bool| {
            self.puzzles.iter().zip(&numbers).map(move |(entry, number)| Figure {
                puzzle: &entry.puzzle,
                solution: answers.then_some(&entry.solution),
                marks: None,
                title: Some(number),
                caption: entry.caption.as_deref(),
            })
        };
        let puzzle_figures: Vec<Figure> = figures(false).collect();
        let answer_figures: Vec<Figure> = if self.answers { figures(true).collect() } else { Vec::new() };
        let puzzle_pages = puzzle_figures.chunks(self.per_page.count()).map(|page| (page, self.per_page, false));
        let answers_per_page = self.answers_per_page();
        let answer_pages = answer_figures.chunks(answers_per_page.count()).map(|page| (page, answers_per_page, true));
        let layout: Vec<_> = puzzle_pages.chain(answer_pages).collect();
        let total = layout.len();
        let pages: Vec<Scene> = layout
            .into_iter()
            .enumerate()
            .map(|(index, (figures, per_page, answers))| self.page(figures, per_page, answers, index + 1, total))
            .collect();
        pdf::write(&pages, self.title.unwrap_or("Sudoku"))
    }

    fn page(&self, figures: &[Figure], per_page: PerPage, answers: bool, number: usize, total: usize) -> Scene {
        let (width, height) = self.paper.size();
        let mut scene = Scene::new(width, height);
        let header = match (self.title, answers) {
            (Some(title), true) => format!("{title} · answers"),
            (Some(title), false) => title.to_owned(),
            (None, true) => "Answers".to_owned(),
            (None, false) => String::new(),
        };
        scene.text_centred(&header, width / 2.0, PAGE_MARGIN + 14.0, 14.0, Color::BLACK);
        scene.text_centred(&format!("{number} / {total}"), width / 2.0, height - PAGE_MARGIN + 4.0, 9.0, Color::BLACK);
        let (columns, rows) = per_page.columns_rows();
        let top = PAGE_MARGIN + HEADER;
        let slot_width = (width - 2.0 * PAGE_MARGIN) / columns as f32;
        let slot_height = (height - 2.0 * PAGE_MARGIN - HEADER - FOOTER) / rows as f32;
        for (index, figure) in figures.iter().enumerate() {
            let (column, row) = (index % columns, index / columns);
            let gap = 0.08 * slot_width.min(slot_height);
            let side = (slot_width - gap).min((slot_height - gap) / figure.aspect());
            let left = PAGE_MARGIN + column as f32 * slot_width + (slot_width - side) / 2.0;
            let slot_top = top + row as f32 * slot_height + (slot_height - side * figure.aspect()) / 2.0;
            figure.draw(&mut scene, Point(left, slot_top), side);
        }
        scene
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_holds_one_of_the_allowed_counts() {
        assert_eq!(PerPage::new(4), Some(PerPage::DEFAULT));
        assert_eq!(PerPage::new(3), None);
        for count in PerPage::ALL {
            let (columns, rows) = PerPage::new(u64::from(count)).unwrap().columns_rows();
            assert_eq!(columns * rows, usize::from(count));
        }
    }
}
