//! Every example of the README and of every page of `docs/`, run: the printed answer must be
//! what the service or the binary prints today (request ids aside), so no page can drift from
//! the code.
//!
//! An example is a `$ ` line in a ```` ```sh ```` block (continued by lines ending in `\`),
//! followed by what it prints, up to the next `$ ` line or the end of the block:
//!
//! - `$ curl ...`, or `$ printf '%s\n' LINE... | curl ...` (an NDJSON body), is sent to the router;
//!   each printed line is a JSON answer, compared as JSON without `request_id`. An example that
//!   prints nothing must get a 2xx.
//! - `$ sudokud ...`, or `$ printf '%s\n' LINE... | sudokud ...`, with any further
//!   `| sudokud ...` stages, runs the binary; the printed lines must be exactly its output.
//!
//! Commands that need a shell (`$(...)`) are left out; any other `$ ` command fails the test,
//! so an example cannot go unchecked by accident.

use std::io::Write;
use std::process::{Command, Stdio};

use axum::body::{Body, to_bytes};
use axum::http::Request;
use serde_json::Value;
use sudokud::config::ServeConfig;
use sudokud::http::{AppState, Readiness, app};
use tower::ServiceExt;

use crate::docs::{self, PAGES};

/// What an example runs.
#[derive(Debug)]
enum Program {
    /// curl's words, after `curl`.
    Curl(Vec<String>),
    /// Each stage's arguments, after `sudokud`.
    Sudokud(Vec<Vec<String>>),
}

/// One example: where it is, what it runs, what `printf` piped into it, and the lines printed
/// under it.
#[derive(Debug)]
struct Example {
    place: String,
    command: String,
    program: Program,
    stdin: Option<String>,
    expected: Vec<String>,
}

/// Splits a shell command into words: single quotes, double quotes with `\"`, `#` comments, no
/// expansions.
fn shell_words(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = command.chars();
    while let Some(ch) = chars.next() {
        match ch {
            '\'' => {
                in_word = true;
                word.extend(chars.by_ref().take_while(|&c| c != '\''));
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => word.extend(chars.next()),
                        c => word.push(c),
                    }
                }
            }
            // A comment runs to the end of the line.
            '#' if !in_word => break,
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// The examples of one page, and how many were left out for needing a shell.
fn examples(path: &str, text: &str) -> (Vec<Example>, usize) {
    let lines = docs::lines(text);
    let mut examples = Vec::new();
    let mut left_out = 0;
    let mut index = 0;
    while index < lines.len() {
        let line = &lines[index];
        let Some(start) = line.text.strip_prefix("$ ") else {
            index += 1;
            continue;
        };
        let place = format!("{path}:{}", line.number);
        assert_eq!(line.fence, Some("sh"), "{place}: a `$ ` example outside a ```sh block is never run");
        let mut command = start.trim_end().to_owned();
        while command.ends_with('\\') {
            command.pop();
            index += 1;
            command.push(' ');
            command.push_str(lines[index].text.trim());
        }
        index += 1;
        let mut expected: Vec<String> = lines[index..]
            .iter()
            .take_while(|line| line.fence.is_some() && !line.text.starts_with("$ "))
            .map(|line| line.text.to_owned())
            .collect();
        index += expected.len();
        while expected.last().is_some_and(|line| line.is_empty()) {
            expected.pop();
        }
        if command.contains("$(") {
            left_out += 1;
            continue;
        }
        examples.push(parse(place, command, expected));
    }
    (examples, left_out)
}

/// Reads one command line into what it runs.
fn parse(place: String, command: String, expected: Vec<String>) -> Example {
    let words = shell_words(&command);
    let mut stages: Vec<Vec<String>> = words.split(|word| word == "|").map(<[String]>::to_vec).collect();
    let stdin = (stages[0][0] == "printf").then(|| {
        let printf = stages.remove(0);
        assert_eq!(
            printf.get(1).map(String::as_str),
            Some("%s\\n"),
            "{place}: only printf '%s\\n' LINE... is understood"
        );
        printf[2..].iter().map(|line| format!("{line}\n")).collect()
    });
    let program = match stages.first().map(|stage| stage[0].as_str()) {
        Some("curl") if stages.len() == 1 => Program::Curl(stages.remove(0).split_off(1)),
        Some("sudokud") if stages.iter().all(|stage| stage[0] == "sudokud") => {
            Program::Sudokud(stages.into_iter().map(|mut stage| stage.split_off(1)).collect())
        }
        _ => panic!("{place}: `{command}` is neither a curl nor a sudokud example, so it cannot be checked"),
    };
    Example { place, command, program, stdin, expected }
}

/// Every example of every page, and how many were left out.
fn all_examples() -> (Vec<Example>, usize) {
    let mut all = Vec::new();
    let mut left_out = 0;
    for page in PAGES {
        let (examples, skipped) = examples(page.path, page.text);
        all.extend(examples);
        left_out += skipped;
    }
    (all, left_out)
}

fn request(place: &str, words: &[String], stdin: Option<&str>) -> Request<Body> {
    let (mut method, mut url, mut body) = (None, None, None);
    let mut headers = Vec::new();
    let mut words = words.iter();
    while let Some(word) = words.next() {
        match word.as_str() {
            "-s" => {}
            "-X" => method = words.next().cloned(),
            "-H" => headers.push(words.next().expect("a header").clone()),
            "-d" => body = words.next().cloned(),
            // The answer goes to a file, so the example prints nothing: it must only succeed.
            "-o" => {
                words.next().unwrap_or_else(|| panic!("{place}: -o needs a file"));
            }
            "--data-binary" => {
                assert_eq!(
                    words.next().map(String::as_str),
                    Some("@-"),
                    "{place}: only --data-binary @- is understood"
                );
                body = stdin.map(str::to_owned);
            }
            option if option.starts_with('-') => panic!("{place}: curl's {option} is not understood"),
            url_word => url = Some(url_word.to_owned()),
        }
    }
    let url = url.unwrap_or_else(|| panic!("{place}: a URL"));
    let path = &url[url.find('/').expect("a path")..];
    let method = method.unwrap_or_else(|| if body.is_some() { "POST" } else { "GET" }.to_owned());
    let mut builder = Request::builder().method(method.as_str()).uri(path);
    for header in headers {
        let (name, value) = header.split_once(':').expect("name: value");
        builder = builder.header(name.trim(), value.trim());
    }
    if body.is_some() && !builder.headers_ref().is_some_and(|h| h.contains_key("content-type")) {
        // curl's default for -d.
        builder = builder.header("content-type", "application/x-www-form-urlencoded");
    }
    builder.body(Body::from(body.unwrap_or_default())).unwrap()
}

fn without_request_id(mut value: Value) -> Value {
    if let Some(object) = value.as_object_mut() {
        object.remove("request_id");
    }
    value
}

fn json_lines(place: &str, text: &str) -> Vec<Value> {
    text.lines()
        .map(|line| {
            let value =
                serde_json::from_str(line).unwrap_or_else(|error| panic!("{place}: `{line}` is not JSON: {error}"));
            without_request_id(value)
        })
        .collect()
}

/// Runs `sudokud ARGS` with `stdin`, outside any `SUDOKUD_*` setting of the environment.
fn run_sudokud(place: &str, args: &[String], stdin: &str) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sudokud"));
    for (name, _) in std::env::vars_os() {
        if name.to_string_lossy().starts_with("SUDOKUD_") {
            command.env_remove(name);
        }
    }
    // In a directory of its own, where files an example writes (`--output hard.pdf`) land.
    let dir = std::env::temp_dir().join(format!("sudokud-examples-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut child = command
        .current_dir(&dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_owned();
    // Written from another thread, so a large output can never stall a large input.
    let writer = std::thread::spawn(move || input.write_all(stdin.as_bytes()));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(
        output.status.success(),
        "{place}: `sudokud {}` failed: {}",
        args.join(" "),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

#[tokio::test]
async fn every_curl_example_prints_what_the_service_answers() {
    let config = ServeConfig::default();
    let (examples, _) = all_examples();
    let mut checked = 0;
    for example in &examples {
        let Program::Curl(words) = &example.program else { continue };
        let router = app(&config, AppState::new(&config, Readiness::default()));
        let response = router.oneshot(request(&example.place, words, example.stdin.as_deref())).await.unwrap();
        let status = response.status();
        let body = to_bytes(response.into_body(), 1 << 20).await.unwrap();
        if example.expected.is_empty() {
            assert!(status.is_success(), "{}: `{}` answers {status}", example.place, example.command);
        } else {
            let actual = json_lines(&example.place, std::str::from_utf8(&body).unwrap());
            let expected = json_lines(&example.place, &example.expected.join("\n"));
            assert_eq!(actual, expected, "{}: `{}` prints something else today", example.place, example.command);
        }
        checked += 1;
    }
    assert!(checked >= 25, "only {checked} curl examples found: did the pages' format change?");
    let on = |path: &str| examples.iter().filter(|e| e.place.starts_with(&format!("{path}:"))).count();
    assert!(on("README.md") >= 6 && on("docs/api.md") >= 20, "the README's and docs/api.md's examples are found");
    assert!(
        examples.iter().any(|e| matches!(e.program, Program::Curl(_)) && e.stdin.is_some()),
        "the piped NDJSON example is found"
    );
}

#[test]
fn every_sudokud_example_prints_what_the_binary_prints() {
    let (examples, _) = all_examples();
    let mut checked = 0;
    for example in &examples {
        let Program::Sudokud(stages) = &example.program else { continue };
        let mut piped = example.stdin.clone().unwrap_or_default();
        for args in stages {
            piped = run_sudokud(&example.place, args, &piped);
        }
        let printed: Vec<&str> = piped.trim_end_matches('\n').lines().collect();
        assert_eq!(printed, example.expected, "{}: `{}` prints something else today", example.place, example.command);
        checked += 1;
    }
    assert!(checked >= 4, "only {checked} sudokud examples found: did the pages' format change?");
}

#[test]
fn only_examples_that_need_a_shell_are_left_out() {
    let (_, left_out) = all_examples();
    // The 413 example builds its oversized body with `$(printf ...)`.
    assert!(left_out <= 1, "{left_out} examples need a shell and are not run; write them without one");
}

#[test]
fn every_page_of_docs_is_read() {
    let listed: Vec<&str> = PAGES.iter().map(|page| page.path).filter(|path| path.starts_with("docs/")).collect();
    let mut listed: Vec<String> = listed.into_iter().map(str::to_owned).collect();
    listed.sort();
    assert_eq!(docs::markdown_in_docs(), listed, "tests/integration/docs.rs must list every Markdown page of docs/");
}

#[test]
fn the_shell_word_splitter_handles_quotes() {
    assert_eq!(shell_words(r#"-H 'a: b' -d "{\"x\":1}" url # note"#), ["-H", "a: b", "-d", r#"{"x":1}"#, "url"]);
}

#[test]
fn an_example_is_its_command_and_the_lines_under_it() {
    let page = "text\n\n```sh\n$ printf '%s\\n' a b \\\n  | sudokud solve\nx\ty\n\n$ curl -s localhost:8080/healthz   # note\n{}\n```\n";
    let (examples, left_out) = examples("page.md", page);
    assert_eq!(left_out, 0);
    assert_eq!(examples.len(), 2);
    assert_eq!(examples[0].place, "page.md:4");
    assert!(matches!(&examples[0].program, Program::Sudokud(stages) if stages == &[vec!["solve".to_owned()]]));
    assert_eq!(examples[0].stdin.as_deref(), Some("a\nb\n"));
    assert_eq!(examples[0].expected, ["x\ty"]);
    assert!(matches!(&examples[1].program, Program::Curl(words) if words == &["-s", "localhost:8080/healthz"]));
    assert_eq!(examples[1].expected, ["{}"]);
}
