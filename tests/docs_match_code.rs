//! The README documents what the code does: every flag, environment variable and problem kind.

use clap::CommandFactory;
use sudokud::cli::Cli;
use sudokud::http::{Kind, PROBLEM_BASE};

const README: &str = include_str!("../README.md");
const OPENAPI: &str = include_str!("../openapi.yaml");

#[test]
fn every_flag_and_environment_variable_is_in_the_readme() {
    let command = Cli::command();
    let mut checked = 0;
    for command in std::iter::once(&command).chain(command.get_subcommands()) {
        for arg in command.get_arguments() {
            if let Some(long) = arg.get_long().filter(|long| !["help", "version"].contains(long)) {
                assert!(README.contains(&format!("--{long}")), "README lacks --{long} of `{}`", command.get_name());
                checked += 1;
            }
            if let Some(env) = arg.get_env() {
                let env = env.to_str().unwrap();
                assert!(README.contains(env), "README lacks {env}");
            }
        }
    }
    assert!(checked >= 12, "only {checked} flags found: is the command line parsed?");
}

#[test]
fn every_problem_kind_is_in_the_readme_and_the_spec() {
    for kind in Kind::ALL {
        let slug = kind.slug();
        assert!(README.contains(&format!("| `{slug}` |")), "README's error table lacks {slug}");
        assert!(OPENAPI.contains(&format!("{PROBLEM_BASE}{slug}")), "openapi.yaml lacks {slug}");
    }
}
