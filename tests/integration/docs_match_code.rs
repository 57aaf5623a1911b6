//! The pages document what the code does, and only that: every flag and environment variable
//! (in the README, whose configuration table is the only one), every problem kind (in the errors
//! table of `docs/api.md`, and in the spec), every metric (in the metrics table of
//! `docs/operations.md`); no page names a flag, variable or metric that does not exist; and every
//! relative link of every page leads to a file, and a heading, that exists.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use clap::CommandFactory;
use sudokud::cli::Cli;
use sudokud::http::{Kind, PROBLEM_BASE};
use sudokud::metrics;

use crate::docs::{self, PAGES};

const OPENAPI: &str = include_str!("../../openapi.yaml");

/// Where the configuration table, the errors table and the metrics table live.
const CONFIGURATION_PAGE: &str = "README.md";
const ERRORS_PAGE: &str = "docs/api.md";
const METRICS_PAGE: &str = "docs/operations.md";

/// Flags of other programs that pages name in backticks (cargo, podman, podman-compose).
const OTHER_PROGRAMS_FLAGS: &[&str] =
    &["locked", "release", "all-targets", "bench", "no-deps", "format", "read-only", "scale", "target", "build-arg"];

/// Variables that are not sudokud's: the compose files' own (`docker-compose.scale.yml`,
/// `docker-compose.yml`).
const OTHER_VARIABLES: &[&str] = &["SUDOKUD_REPLICAS", "SUDOKUD_IMAGE", "SUDOKUD_HOST_PORT"];

/// Every long flag of sudokud, by subcommand (`sudokud` itself for the top level), with its
/// environment variable.
fn flags() -> Vec<(String, String, Option<String>)> {
    let mut command = Cli::command();
    // Adds the subcommands' arguments, which clap otherwise adds only to the one that runs.
    command.build();
    let mut flags = Vec::new();
    for command in std::iter::once(&command).chain(command.get_subcommands()) {
        for arg in command.get_arguments() {
            if let Some(long) = arg.get_long().filter(|long| !["help", "version"].contains(long)) {
                let env = arg.get_env().map(|env| env.to_str().unwrap().to_owned());
                flags.push((command.get_name().to_owned(), long.to_owned(), env));
            }
        }
    }
    flags
}

/// The words that follow `marker` in `text`, made of the characters `part` accepts.
fn words_after<'a>(text: &'a str, marker: &str, part: impl Fn(char) -> bool + Copy) -> Vec<&'a str> {
    text.match_indices(marker)
        .map(|(at, _)| {
            let rest = &text[at + marker.len()..];
            &rest[..rest.find(|c: char| !part(c)).unwrap_or(rest.len())]
        })
        .filter(|word| !word.is_empty())
        .collect()
}

/// The rows of the Markdown table whose header line starts with `header`, as cells.
fn table(text: &str, header: &str) -> Vec<Vec<String>> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|line| line.starts_with(header)).unwrap_or_else(|| panic!("no table `{header}`"));
    lines[start + 2..]
        .iter()
        .take_while(|line| line.starts_with('|'))
        .map(|line| line.trim_matches('|').split(" | ").map(|cell| cell.trim().to_owned()).collect())
        .collect()
}

#[test]
fn every_flag_and_environment_variable_is_in_the_readme() {
    let readme = docs::page(CONFIGURATION_PAGE);
    let mut checked = 0;
    for (command, long, env) in flags() {
        let flag = format!("--{long}");
        if ["sudokud", "serve"].contains(&command.as_str()) {
            // An option of the server: its row of the configuration table.
            let row = match &env {
                Some(env) => format!("| `{flag}` | `{env}` |"),
                None => format!("| `{flag}` |"),
            };
            assert!(readme.lines().any(|line| line.starts_with(&row)), "the configuration table lacks `{row}`");
        } else {
            assert!(readme.contains(&flag), "README lacks {flag} of `sudokud {command}`");
            if let Some(env) = env {
                assert!(readme.contains(&env), "README lacks {env} of `sudokud {command}`");
            }
        }
        checked += 1;
    }
    assert!(checked >= 12, "only {checked} flags found: is the command line parsed?");
}

#[test]
fn the_configuration_table_is_in_one_place() {
    let with_table: Vec<&str> = PAGES
        .iter()
        .filter(|page| page.text.lines().any(|line| line.starts_with("| `--")))
        .map(|page| page.path)
        .collect();
    assert_eq!(with_table, [CONFIGURATION_PAGE], "one table of flags, in one place");
}

#[test]
fn every_flag_and_variable_a_page_names_exists() {
    let flags = flags();
    let known_flags: BTreeSet<&str> = flags.iter().map(|(_, long, _)| long.as_str()).collect();
    let known_variables: BTreeSet<&str> = flags.iter().filter_map(|(_, _, env)| env.as_deref()).collect();
    let is_flag_part = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-';
    let is_variable_part = |c: char| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_';
    for page in PAGES {
        // A flag in inline code (`--threads N`) or in a usage line ([--threads N]).
        for marker in ["`--", "[--"] {
            for flag in words_after(page.text, marker, is_flag_part) {
                assert!(
                    known_flags.contains(flag) || OTHER_PROGRAMS_FLAGS.contains(&flag),
                    "{} names --{flag}, which sudokud does not have",
                    page.path
                );
            }
        }
        for variable in words_after(page.text, "SUDOKUD_", is_variable_part) {
            let variable = format!("SUDOKUD_{variable}");
            assert!(
                known_variables.contains(variable.as_str()) || OTHER_VARIABLES.contains(&variable.as_str()),
                "{} names {variable}, which sudokud does not read",
                page.path
            );
        }
    }
}

#[test]
fn every_problem_kind_is_in_the_errors_table_and_the_spec() {
    let rows = table(docs::page(ERRORS_PAGE), "| status | `type` suffix |");
    let documented: BTreeMap<String, String> =
        rows.iter().map(|row| (row[1].trim_matches('`').to_owned(), row[0].clone())).collect();
    assert_eq!(documented.len(), rows.len(), "each kind has one row");
    for kind in Kind::ALL {
        let slug = kind.slug();
        let status = documented.get(slug).unwrap_or_else(|| panic!("{ERRORS_PAGE}'s errors table lacks {slug}"));
        assert_eq!(status, &kind.status().as_u16().to_string(), "the status of {slug}");
        assert!(OPENAPI.contains(&format!("{PROBLEM_BASE}{slug}")), "openapi.yaml lacks {slug}");
    }
    let kinds: BTreeSet<&str> = Kind::ALL.iter().map(|kind| kind.slug()).collect();
    for slug in documented.keys() {
        assert!(kinds.contains(slug.as_str()), "{ERRORS_PAGE}'s errors table has {slug}, which is no kind");
    }
    for page in PAGES {
        for slug in words_after(page.text, PROBLEM_BASE, |c| c.is_ascii_lowercase() || c == '-') {
            assert!(kinds.contains(slug), "{} names the problem {slug}, which is no kind", page.path);
        }
    }
}

#[test]
fn the_compression_threshold_is_the_code_s() {
    let kib = sudokud::http::MIN_COMPRESSED_BYTES / 1024;
    assert_eq!(kib * 1024, sudokud::http::MIN_COMPRESSED_BYTES, "a whole number of KiB, as the pages say it");
    let api = docs::page("docs/api.md");
    assert!(api.contains(&format!("**Compression.** Answers of {kib} KiB or more")), "docs/api.md must say {kib} KiB");
    let architecture = docs::page("docs/architecture.md");
    assert!(
        architecture.contains(&format!("only for answers of {kib} KiB or more")),
        "docs/architecture.md must say {kib} KiB"
    );
}

#[test]
fn the_technique_count_is_the_code_s() {
    // Every technique but the brute-force fallback.
    let library = sudokud::logic::Technique::ALL.len() - 1;
    let api = docs::page("docs/api.md");
    assert!(api.contains(&format!("from a library of {library}:")), "docs/api.md must say a library of {library}");
}

#[test]
fn every_metric_is_in_the_metrics_table_and_no_page_names_another() {
    let names = metrics::ALL;
    let rows = table(docs::page(METRICS_PAGE), "| metric | kind | labels |");
    let documented: BTreeSet<&str> = rows.iter().map(|row| row[0].trim_matches('`')).collect();
    assert_eq!(documented, names.into_iter().collect(), "{METRICS_PAGE}'s metrics table lists exactly the metrics");
    for page in PAGES {
        for name in words_after(page.text, "sudokud_", |c| c.is_ascii_lowercase() || c == '_') {
            let name = format!("sudokud_{name}");
            // The library crates' paths (`sudokud_core::solver`) are not metrics.
            let is_crate = ["sudokud_core", "sudokud_model"].contains(&name.as_str());
            assert!(is_crate || names.contains(&name.as_str()), "{} names {name}, no metric", page.path);
        }
    }
}

/// The `work` label's values are listed once, in the row of the pool's duration histogram, as
/// the code's one list has them.
#[test]
fn the_work_labels_are_the_code_s() {
    let rows = table(docs::page(METRICS_PAGE), "| metric | kind | labels |");
    let row = rows.iter().find(|row| row[0] == format!("`{}`", metrics::SOLVE_DURATION)).expect("the duration row");
    let listed = row[2].strip_prefix("`work`: ").expect("the work label first");
    let listed = listed.split(" (").next().unwrap();
    let labels: Vec<String> = metrics::Work::ALL.iter().map(|work| format!("`{}`", work.label())).collect();
    assert_eq!(listed, labels.join(", "), "{METRICS_PAGE} lists the work labels");
}

#[test]
fn the_readme_links_every_page_and_the_changelog() {
    let readme = docs::page("README.md");
    for path in docs::markdown_in_docs().iter().map(String::as_str).chain(["CHANGELOG.md"]) {
        assert!(readme.contains(&format!("]({path})")), "README does not link {path}");
    }
}

/// GitHub's anchor for a heading: lowercase, punctuation dropped, spaces as hyphens.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|&c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a page's headings (code blocks aside).
fn anchors(text: &str) -> BTreeSet<String> {
    docs::lines(text)
        .iter()
        .filter(|line| line.fence.is_none())
        .filter_map(|line| line.text.strip_prefix('#'))
        .map(|heading| anchor(heading.trim_start_matches('#')))
        .collect()
}

#[test]
fn anchors_are_what_github_makes_of_headings() {
    assert_eq!(anchor(" `POST /v1/solve/batch`"), "post-v1solvebatch");
    assert_eq!(anchor(" The playground: `GET /`"), "the-playground-get-");
    assert_eq!(anchor(" Rating, hints and explanations"), "rating-hints-and-explanations");
}

#[test]
fn every_relative_link_leads_to_a_file_and_a_heading_that_exist() {
    let mut checked = 0;
    for page in PAGES {
        let directory = Path::new(page.path).parent().unwrap();
        let prose: String = docs::lines(page.text)
            .iter()
            .filter(|line| line.fence.is_none())
            .map(|line| format!("{}\n", line.text))
            .collect();
        for target in words_after(&prose, "](", |c| c != ')' && !c.is_whitespace()) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, fragment) = target.split_once('#').unwrap_or((target, ""));
            let linked = if path.is_empty() { page.path.to_owned() } else { normalize(&directory.join(path)) };
            assert!(docs::root().join(&linked).exists(), "{}: the link {target} leads to no file", page.path);
            if !fragment.is_empty() {
                let text = PAGES
                    .iter()
                    .find(|page| page.path == linked)
                    .unwrap_or_else(|| {
                        panic!("{}: {target} has a fragment into a page the tests do not read", page.path)
                    })
                    .text;
                assert!(anchors(text).contains(fragment), "{}: the link {target} leads to no heading", page.path);
            }
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} links found: did the pages' format change?");
}

/// `docs/../README.md` as `README.md`.
fn normalize(path: &Path) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.iter().map(|part| part.to_str().unwrap()) {
        match part {
            "." => {}
            ".." => {
                parts.pop().expect("a link stays inside the repository");
            }
            part => parts.push(part),
        }
    }
    parts.join("/")
}
