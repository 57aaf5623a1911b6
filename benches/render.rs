//! Drawing times per format, and a booklet of 100 puzzles:
//! `cargo bench --bench render [-- [--passes N] [FILTER]]` (`booklet` as the filter for it alone).
//!
//! Each drawing is made `passes` times (default 30) and its median time printed with the size of
//! what it wrote: the LeetCode 37 puzzle with its solution, the same with every pencil mark (the
//! most glyphs a 9x9 drawing has), a killer with its cages, and a 25x25 puzzle with its solution
//! (625 glyphs), each as SVG, as a 600-pixel PNG and as an A4 PDF. Then 100 hard puzzles from
//! seed 1 as a booklet, four to a page with answers: the time to make them, the time to draw the
//! PDF (median of 5) and its size. Solving and generating happen before the timing of a drawing.

#[path = "support/args.rs"]
mod args;

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

use sudokud::board::EXAMPLE_PUZZLE;
use sudokud::generate::Symmetry;
use sudokud::logic::Level;
use sudokud::puzzle::Puzzle;
use sudokud::puzzle_id::PuzzleId;
use sudokud::render::{self, Booklet, BookletPuzzle, Figure, ImageFormat, Paper, PerPage};
use sudokud::sizes::{AnyGrid, Shape};
use sudokud::solver::Never;
use sudokud::variants::Constraints;

const DEFAULT_PASSES: usize = 30;

/// The median of `passes` runs of `run`, in milliseconds, and what the last one made.
fn median_ms<T>(passes: usize, mut run: impl FnMut() -> T) -> (f64, T) {
    let mut times = Vec::with_capacity(passes);
    let mut made = None;
    for _ in 0..passes {
        let start = Instant::now();
        made = Some(black_box(run()));
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], made.expect("at least one pass"))
}

fn data(path: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("reading {}: {error}", path.display()))
}

fn solution(puzzle: &Puzzle) -> AnyGrid {
    puzzle.classify(&mut Never).expect("Never interrupts").unique().expect("a proper puzzle")
}

/// The pages of a PDF: its page objects, not the page tree's.
fn pages(pdf: &[u8]) -> usize {
    let count = |name: &[u8]| pdf.windows(name.len()).filter(|window| window == &name).count();
    count(b"/Type /Page") - count(b"/Type /Pages")
}

fn main() {
    let args = args::Args::from_env(DEFAULT_PASSES);
    let passes = args.passes;
    let classic = Puzzle::Classic(AnyGrid::parse(EXAMPLE_PUZZLE, None).unwrap());
    let classic_solution = solution(&classic);
    let marks = classic.candidates();
    let killer_line = data("variants/mixed_ccby.jsonl")
        .lines()
        .find(|line| line.contains("\"cages\""))
        .expect("a killer in the CC BY set")
        .to_owned();
    let killer: serde_json::Value = serde_json::from_str(&killer_line).unwrap();
    let killer_board = AnyGrid::parse(killer["board"].as_str().unwrap(), None).unwrap();
    let constraints: Constraints = serde_json::from_value(killer["constraints"].clone()).unwrap();
    let killer = Puzzle::new(killer_board, None, &constraints).unwrap();
    let big_line = data("sizes/generated_25x25.txt").lines().next().unwrap().to_owned();
    let big = Puzzle::Classic(AnyGrid::parse(&big_line, None).unwrap());
    let big_solution = solution(&big);
    let drawing = |puzzle, solution, marks| Figure { puzzle, solution, marks, title: Some("Sudoku"), caption: None };
    let figures = [
        ("LeetCode 37 with its solution", drawing(&classic, Some(&classic_solution), None)),
        ("LeetCode 37 with every pencil mark", drawing(&classic, None, Some(&marks))),
        ("a killer with its cages", drawing(&killer, None, None)),
        ("a 25x25 puzzle with its solution", drawing(&big, Some(&big_solution), None)),
    ];
    println!("median of {passes} drawings, ms (bytes written)");
    println!("| {:<36} | {:>16} | {:>16} | {:>16} |", "drawing", "SVG", "PNG 600 px", "PDF A4");
    println!("|{:-<38}|{:->18}|{:->18}|{:->18}|", "", ":", ":", ":");
    for (name, figure) in figures.iter().filter(|(name, _)| args.selected(name)) {
        let cells: Vec<String> = [ImageFormat::Svg, ImageFormat::Png, ImageFormat::Pdf]
            .into_iter()
            .map(|format| {
                let (ms, bytes) = median_ms(passes, || render::render(figure, format, 600, Paper::A4));
                format!("{ms:.2} ({})", bytes.len())
            })
            .collect();
        println!("| {name:<36} | {:>16} | {:>16} | {:>16} |", cells[0], cells[1], cells[2]);
    }

    if !args.selected("booklet") {
        return;
    }
    let first = PuzzleId { shape: Shape::CLASSIC, level: Level::Hard, symmetry: Symmetry::None, seed: 1 };
    let start = Instant::now();
    let puzzles: Vec<BookletPuzzle> = render::booklet::ids(first, 100)
        .map(|id| BookletPuzzle::generated(id, &mut Never).expect("Never interrupts"))
        .collect();
    let made = start.elapsed().as_secs_f64() * 1e3;
    let booklet = Booklet {
        puzzles: &puzzles,
        title: Some("Hard puzzles"),
        paper: Paper::A4,
        per_page: PerPage::DEFAULT,
        answers: true,
    };
    let (drawn, pdf) = median_ms(5, || booklet.pdf());
    println!();
    println!(
        "a booklet of 100 hard puzzles (seed 1), 4 to an A4 page, with answers: made in {made:.0} ms, drawn in \
         {drawn:.1} ms, {} pages, {} bytes ({:.0} KB)",
        pages(&pdf),
        pdf.len(),
        pdf.len() as f64 / 1024.0
    );
}
