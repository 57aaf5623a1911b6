//! A variant's renban lines: a line holds as many consecutive digits as it has cells, so a cell
//! keeps only the digits of the runs that fit the line (each cell has a candidate in the run,
//! and some cell can hold each of its digits).

use sudokud_model::family::renban::renban_support;

use crate::logic::cells::CellSet;
use crate::logic::geometry::Geometry;
use crate::logic::grid::{Grid, bit};
use crate::logic::step::{Deduction, cell_list, eliminated_cells, join, symbol};

use super::sums::lost_digits;

/// The longest line the finder reads: a line has at most a grid's side of cells.
const LONGEST: usize = 32;

/// The runs each cell of `line` may still be part of, and what each cell keeps: the digits of
/// the cells of `line` in `grid`, a placed cell's digit alone.
fn support<C: CellSet>(grid: &Grid<C>, line: &[u16], kept: &mut [u32; LONGEST]) -> u32 {
    let mut candidates = [0u32; LONGEST];
    for (digits, &cell) in candidates.iter_mut().zip(line) {
        let cell = usize::from(cell);
        *digits = match grid.value(cell) {
            0 => grid.candidates(cell),
            value => bit(value),
        };
    }
    renban_support(grid.geometry().side(), &candidates[..line.len()], &mut kept[..line.len()])
}

/// A cell of a renban line holding a candidate outside every run of consecutive digits that
/// fits the line: one cell's eliminations per step.
pub(super) fn renban<C: CellSet>(grid: &Grid<C>, out: &mut Deduction) -> bool {
    let Some(rules) = grid.geometry().rules() else { return false };
    let mut kept = [0u32; LONGEST];
    for (number, line) in rules.renbans.iter().enumerate() {
        support(grid, line, &mut kept);
        for (&cell, &digits) in line.iter().zip(&kept) {
            out.eliminate_digits(grid, usize::from(cell), !digits);
            if out.finish() {
                out.add_cells(line.iter().map(|&cell| usize::from(cell)));
                out.rule = number;
                return true;
            }
        }
    }
    false
}

/// `r1c1, r1c2 and r1c3 lie on a renban line, so they hold 3 consecutive digits; only the runs
/// 4-6 and 5-7 fit their candidates, so r1c2 can't be 1, 2 or 9.`, read off `grid` before the
/// step.
pub(super) fn describe<C: CellSet>(grid: &Grid<C>, deduction: &Deduction) -> String {
    let geometry: &Geometry<C> = grid.geometry();
    let rules = geometry.rules().expect("a renban step is found only on a variant");
    let line = &rules.renbans[deduction.rule];
    let mut kept = [0u32; LONGEST];
    let runs = support(grid, line, &mut kept);
    let length = line.len() as u8;
    let names = (0..geometry.side() as u8).filter(|start| runs >> start & 1 == 1).map(|start| {
        let (low, high) = (start + 1, start + length);
        format!("{}-{}", symbol(low), symbol(high))
    });
    let names: Vec<String> = names.collect();
    let fit = match names.len() {
        0 => "no run fits their candidates".to_owned(),
        1 => format!("only the run {} fits their candidates", names[0]),
        _ => format!("only the runs {} fit their candidates", join(names, "and")),
    };
    format!(
        "{} lie on a renban line, so they hold {length} consecutive digits; {fit}, so {} can't be {}.",
        cell_list(geometry, line.iter().map(|&cell| usize::from(cell))),
        eliminated_cells(geometry, deduction),
        lost_digits(deduction)
    )
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::logic::geometry::tests::checked_path;
    use crate::logic::grid::Cells;
    use crate::logic::step::Technique;
    use crate::logic::techniques::testing::run;
    use crate::sizes::Shape;
    use sudokud_model::variant::Variant;

    /// Every `technique` step in a row on a 9x9 grid of `cells` under `json`'s constraints, each
    /// applied before the next is looked for: the sentences a player reads.
    pub(in crate::logic::techniques) fn sentences(technique: Technique, json: &str, cells: &[u8; 81]) -> Vec<String> {
        let constraints: crate::variants::Constraints = serde_json::from_str(json).unwrap();
        let variant = Variant::new(Shape::CLASSIC, None, &constraints).unwrap();
        let geometry = Geometry::<Cells>::of_variant(&variant).expect("9x9");
        let mut grid = Grid::of_values(&geometry, cells);
        std::iter::from_fn(|| {
            let step = run(technique, &grid)?;
            let said = crate::logic::techniques::describe(&grid, &step);
            step.eliminations.iter().for_each(|removed| _ = grid.eliminate(removed.cell, removed.digit));
            Some(said)
        })
        .collect()
    }

    /// The sentences of the `technique` steps on the path of ISS's example `name` (MIT, in
    /// `tests/data/variants/iss_examples.jsonl`) through to its published solution, every step
    /// checked against it.
    pub(in crate::logic::techniques) fn iss_example_steps(name: &str, technique: Technique) -> Vec<String> {
        let path = format!("{}/../../tests/data/variants/iss_examples.jsonl", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).unwrap();
        let example = text.lines().find(|line| line.contains(&format!("\"name\": \"{name}\""))).expect("the example");
        let example: serde_json::Value = serde_json::from_str(example).unwrap();
        let shared = sudokud_model::exchange::iss::read(example["input"].as_str().unwrap()).unwrap();
        let variant = Variant::new(Shape::CLASSIC, None, &shared.constraints).unwrap();
        let geometry = Geometry::<Cells>::of_variant(&variant).unwrap();
        let solution: Vec<u8> = example["solution"].as_str().unwrap().bytes().map(|byte| byte - b'0').collect();
        let (_, steps) = checked_path(&geometry, shared.givens.cells(), &solution);
        steps.into_iter().filter(|step| step.technique == technique).map(|step| step.explanation).collect()
    }

    /// A 5 on a line of three leaves the others 3 to 7; a 1 leaves them 2 and 3; a line of
    /// seven in a row whose 1 and 9 lie elsewhere, and an open pair, rule nothing out.
    #[test]
    fn a_line_keeps_the_runs_that_fit() {
        let renban = |json: &str, cells: &[u8; 81]| sentences(Technique::Renban, json, cells);
        let json = r#"{"renbans":[[[0,0],[0,1],[1,2]]]}"#;
        let line = "r1c1, r1c2 and r2c3 lie on a renban line, so they hold 3 consecutive digits";
        let mut cells = [0; 81];
        cells[0] = 5;
        let fit = format!("{line}; only the runs 3-5, 4-6 and 5-7 fit their candidates");
        let expected =
            [format!("{fit}, so r1c2 can't be 1, 2, 8 or 9."), format!("{fit}, so r2c3 can't be 1, 2, 8 or 9.")];
        assert_eq!(renban(json, &cells), expected);
        cells[0] = 1;
        let fit = format!("{line}; only the run 1-3 fits their candidates");
        let expected = [
            format!("{fit}, so r1c2 can't be 4, 5, 6, 7, 8 or 9."),
            format!("{fit}, so r2c3 can't be 4, 5, 6, 7, 8 or 9."),
        ];
        assert_eq!(renban(json, &cells), expected);
        let mut cells = [0; 81];
        (cells[7], cells[8]) = (1, 9);
        let json = r#"{"renbans":[[[0,0],[0,1],[0,2],[0,3],[0,4],[0,5],[0,6]]]}"#;
        assert!(renban(json, &cells).is_empty());
        assert!(renban(r#"{"renbans":[[[4,4],[4,5]]]}"#, &[0; 81]).is_empty());
    }

    /// ISS's 'Leven (renban lines and black dots) explained through to its published solution,
    /// the renban step among its steps.
    #[test]
    fn the_iss_renban_example_is_explained_to_its_solution() {
        let renban = iss_example_steps("'Leven", Technique::Renban);
        assert!(renban.len() >= 5, "{renban:?}");
        assert!(renban.iter().all(|said| said.contains(" lie on a renban line, so they hold 4 consecutive digits")));
    }
}
