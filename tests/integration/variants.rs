//! Variant puzzles: the public CC BY set and the Interactive Sudoku Solver's examples of the
//! rules sudokud has (`tests/data/variants`), each solved to its published solution and found
//! unique, its solution valid under its constraints and a wrong digit named by the rule it breaks.

use serde::Deserialize;
use sudokud::puzzle::Puzzle;
use sudokud::sizes::AnyGrid;
use sudokud::solver::{Never, Verdict};
use sudokud::variants::Constraints;

use crate::common::data_dir;

#[derive(Deserialize)]
struct Line {
    id: String,
    board: String,
    constraints: Constraints,
    solution: String,
}

/// The public sets: the CC BY one, then ISS's (MIT).
const SETS: [(&str, usize); 2] = [("mixed_ccby.jsonl", 19), ("iss_mit.jsonl", 2)];

/// Every puzzle of every set, each set checked for its count.
fn load() -> Vec<Line> {
    SETS.into_iter()
        .flat_map(|(file, count)| {
            let lines = load_set(file);
            assert_eq!(lines.len(), count, "{file}");
            lines
        })
        .collect()
}

fn load_set(file: &str) -> Vec<Line> {
    let path = data_dir().join("variants").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("reading {}: {error}", path.display()));
    let lines = text.lines().enumerate().map(|(index, line)| {
        serde_json::from_str(line).unwrap_or_else(|error| panic!("{}:{}: {error}", path.display(), index + 1))
    });
    lines.collect()
}

fn puzzle(board: &str, constraints: &Constraints) -> Puzzle {
    Puzzle::new(AnyGrid::parse(board, None).unwrap(), None, constraints).unwrap()
}

#[test]
fn every_public_variant_puzzle_has_its_published_solution_and_no_other() {
    for line in load() {
        let Ok(Verdict::Unique(solution)) = puzzle(&line.board, &line.constraints).classify(&mut Never) else {
            panic!("{}: not unique", line.id)
        };
        assert_eq!(solution.to_string(), line.solution, "{}", line.id);
        let solved = puzzle(&line.solution, &line.constraints).validate();
        assert!(solved.valid && solved.complete, "{}: {:?}", line.id, solved.conflicts);
    }
}

#[test]
fn a_wrong_digit_in_a_solution_breaks_a_rule_the_validation_names() {
    for line in load() {
        let mut cells = line.solution.clone().into_bytes();
        // The first cell's digit swapped with its right neighbour's: still a permutation of each
        // row, so what breaks is a column, a box or a variant rule.
        cells.swap(0, 1);
        let swapped = String::from_utf8(cells).unwrap();
        let validation = puzzle(&swapped, &line.constraints).validate();
        assert!(!validation.valid, "{}", line.id);
        assert!(validation.conflicts.iter().any(|conflict| (conflict.row, conflict.col) == (0, 0)), "{}", line.id);
        let count = puzzle(&swapped, &line.constraints).count(5, &mut Never).unwrap();
        assert_eq!(count, Err(validation.conflicts), "{}", line.id);
    }
}

#[test]
fn every_step_of_every_explanation_keeps_the_published_solution() {
    let mut techniques = std::collections::BTreeSet::new();
    for line in load() {
        let puzzle = puzzle(&line.board, &line.constraints);
        let explained = puzzle.explain(&mut Never).unwrap().unwrap_or_else(|error| panic!("{}: {error:?}", line.id));
        assert_eq!(explained.solution.to_string(), line.solution, "{}", line.id);
        let solution = line.solution.as_bytes();
        let digit = |row: usize, col: usize| solution[row * 9 + col] - b'0';
        for step in &explained.steps {
            for placed in &step.placements {
                assert_eq!(placed.digit, digit(placed.row, placed.col), "{}: {}", line.id, step.explanation);
            }
            for removed in &step.eliminations {
                assert_ne!(removed.digit, digit(removed.row, removed.col), "{}: {}", line.id, step.explanation);
            }
            techniques.insert(step.technique.id());
        }
        let hint = puzzle.hint(&mut Never).unwrap().unwrap();
        assert_eq!(hint[..], explained.steps[..hint.len()], "{}", line.id);
        assert_eq!(puzzle.rate(&mut Never).unwrap(), Ok(explained.rating), "{}", line.id);
    }
    // The variants' own rules are used, not only the classic techniques.
    for id in ["cage-sum", "neighbour-rule", "pointing"] {
        assert!(techniques.contains(id), "no {id} step in {techniques:?}");
    }
}
