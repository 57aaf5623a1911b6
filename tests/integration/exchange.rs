//! Puzzles as other tools share them: the Interactive Sudoku Solver's example puzzles
//! (`tests/data/variants/iss_examples.jsonl`, MIT), each read from its constraint string and
//! either solved to its published solution, or refused naming a rule it uses that sudokud lacks.

use serde::Deserialize;
use sudokud::exchange::iss::{self, IssError};
use sudokud::puzzle::Puzzle;
use sudokud::sizes::AnyGrid;
use sudokud::solver::{Never, Verdict};

use crate::common::data_dir;

#[derive(Deserialize)]
struct Example {
    name: String,
    input: String,
    solution: String,
    types: Vec<String>,
}

fn examples() -> Vec<Example> {
    let path = data_dir().join("variants/iss_examples.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("reading {}: {error}", path.display()));
    text.lines().map(|line| serde_json::from_str(line).expect("an example line")).collect()
}

/// The published solution in our symbols: ISS writes 16x16 digits as the letters `A` to `P`.
fn published(solution: &str) -> String {
    if !solution.bytes().any(|byte| byte.is_ascii_uppercase()) {
        return solution.to_owned();
    }
    let values = solution.bytes().map(|letter| letter - b'A' + 1);
    values.map(|value| char::from(if value <= 9 { b'0' + value } else { b'A' + value - 10 })).collect()
}

#[test]
fn every_iss_example_is_solved_to_its_solution_or_refused_naming_a_rule_it_uses() {
    let (mut solved, mut refused, mut other_formats) = (Vec::new(), 0, 0);
    for example in examples() {
        let name = &example.name;
        match iss::read(&example.input) {
            Ok(shared) => {
                let puzzle = Puzzle::new(AnyGrid::from(shared.givens.clone()), None, &shared.constraints)
                    .unwrap_or_else(|error| panic!("{name}: {error}"));
                let Ok(Verdict::Unique(solution)) = puzzle.classify(&mut Never) else { panic!("{name}: not unique") };
                assert_eq!(solution.to_string(), published(&example.solution), "{name}");
                assert_eq!(iss::read(&iss::write(&shared).unwrap()).as_ref(), Ok(&shared), "{name}");
                solved.push(name.clone());
            }
            Err(IssError::Unsupported { rule, .. }) => {
                assert!(example.types.contains(&rule), "{name}: refused for `{rule}`, not among {:?}", example.types);
                refused += 1;
            }
            // ISS also reads plain grids (with a jigsaw layout) and killer layouts: boards.
            Err(IssError::Malformed(why)) => {
                assert!(!example.input.contains('~'), "{name}: {why}");
                other_formats += 1;
            }
            Err(error) => panic!("{name}: {error}"),
        }
    }
    assert_eq!((solved.len(), refused, other_formats), (11, 49, 2), "solved: {solved:?}");
}
