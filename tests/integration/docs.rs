//! The documentation pages, compiled into the documentation tests (`readme_examples.rs`,
//! `docs_match_code.rs`) and the CLI's README checks (`cli.rs`): the README, the changelog and
//! every page of `docs/`. A test fails when a Markdown file of `docs/` is missing from
//! [`PAGES`], so a new page cannot escape the checks.

use std::path::{Path, PathBuf};

/// One page: its path from the repository root, and its text.
pub(crate) struct Page {
    pub path: &'static str,
    pub text: &'static str,
}

pub(crate) const PAGES: &[Page] = &[
    Page { path: "README.md", text: include_str!("../../README.md") },
    Page { path: "CHANGELOG.md", text: include_str!("../../CHANGELOG.md") },
    Page { path: "docs/api.md", text: include_str!("../../docs/api.md") },
    Page { path: "docs/architecture.md", text: include_str!("../../docs/architecture.md") },
    Page { path: "docs/benchmarks.md", text: include_str!("../../docs/benchmarks.md") },
    Page { path: "docs/operations.md", text: include_str!("../../docs/operations.md") },
    Page { path: "docs/testing.md", text: include_str!("../../docs/testing.md") },
    Page { path: "docs/variants.md", text: include_str!("../../docs/variants.md") },
];

/// The text of the page at `path`.
pub(crate) fn page(path: &str) -> &'static str {
    PAGES.iter().find(|page| page.path == path).unwrap_or_else(|| panic!("{path} is not in PAGES")).text
}

/// The repository root.
pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The Markdown files of `docs/` on disk, as paths from the repository root, sorted.
pub(crate) fn markdown_in_docs() -> Vec<String> {
    let mut found: Vec<String> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ exists")
        .map(|entry| entry.expect("a readable entry").file_name().to_string_lossy().into_owned())
        .filter(|name| Path::new(name).extension().is_some_and(|extension| extension == "md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    found.sort();
    found
}

/// A line of a page with what it is inside of.
pub(crate) struct Line<'a> {
    /// 1-based, for messages.
    pub number: usize,
    pub text: &'a str,
    /// The info string of the fenced code block the line is in (`"sh"`, `""`), or `None` outside
    /// code blocks. Fence lines themselves are `None`.
    pub fence: Option<&'a str>,
}

/// The lines of `text`, each with the fenced code block it belongs to.
pub(crate) fn lines(text: &str) -> Vec<Line<'_>> {
    let mut fence = None;
    let mut lines = Vec::new();
    for (index, text) in text.lines().enumerate() {
        if let Some(info) = text.strip_prefix("```") {
            fence = if fence.is_some() { None } else { Some(info.trim()) };
            lines.push(Line { number: index + 1, text, fence: None });
        } else {
            lines.push(Line { number: index + 1, text, fence });
        }
    }
    assert!(fence.is_none(), "a code block is never closed");
    lines
}
