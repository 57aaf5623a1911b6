//! Every `curl` example in the README, run against the router: the printed answer must be what the
//! service answers today (request ids aside), so the README cannot drift from the code.

use axum::body::{Body, to_bytes};
use axum::http::Request;
use serde_json::Value;
use sudokud::config::ServeConfig;
use sudokud::http::{AppState, Readiness, app};
use tower::ServiceExt;

const README: &str = include_str!("../README.md");

/// One example: curl's words, what `printf` piped into it, and the lines printed under it.
struct Example {
    words: Vec<String>,
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

/// The `$ curl ...` and `$ printf '%s\n' LINE... | curl ...` commands followed by JSON answer
/// lines. Commands that need a shell (`$(...)`) are left out.
fn examples() -> Vec<Example> {
    let lines: Vec<&str> = README.lines().collect();
    let mut examples = Vec::new();
    let mut index = 0;
    while index < lines.len() {
        let Some(start) =
            lines[index].strip_prefix("$ ").filter(|c| c.starts_with("curl ") || c.starts_with("printf "))
        else {
            index += 1;
            continue;
        };
        let mut command = start.trim_end().to_owned();
        while command.ends_with('\\') {
            command.pop();
            index += 1;
            command.push(' ');
            command.push_str(lines[index].trim());
        }
        index += 1;
        let expected: Vec<String> =
            lines[index..].iter().take_while(|line| line.starts_with('{')).map(|line| line.to_string()).collect();
        if command.contains("$(") || expected.is_empty() {
            continue;
        }
        let mut words = shell_words(&command);
        let stdin = (words[0] == "printf").then(|| {
            assert_eq!(words[1], "%s\\n", "only printf '%s\\n' LINE... is understood");
            let pipe = words.iter().position(|word| word == "|").expect("printf pipes into curl");
            let stdin = words[2..pipe].iter().map(|line| format!("{line}\n")).collect();
            words.drain(..=pipe);
            stdin
        });
        assert_eq!(words.remove(0), "curl");
        examples.push(Example { words, stdin, expected });
    }
    examples
}

fn request(words: &[String], stdin: Option<&str>) -> Request<Body> {
    let (mut method, mut url, mut body) = (None, None, None);
    let mut headers = Vec::new();
    let mut words = words.iter();
    while let Some(word) = words.next() {
        match word.as_str() {
            "-s" => {}
            "-X" => method = words.next().cloned(),
            "-H" => headers.push(words.next().expect("a header").clone()),
            "-d" => body = words.next().cloned(),
            "--data-binary" => {
                assert_eq!(words.next().map(String::as_str), Some("@-"), "only --data-binary @- is understood");
                body = stdin.map(str::to_owned);
            }
            url_word => url = Some(url_word.to_owned()),
        }
    }
    let url = url.expect("a URL");
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

#[tokio::test]
async fn every_curl_example_prints_what_the_service_answers() {
    let config = ServeConfig::default();
    let examples = examples();
    assert!(examples.len() >= 12, "only {} examples found: did the README's format change?", examples.len());
    assert!(examples.iter().any(|example| example.stdin.is_some()), "the piped NDJSON example is found");
    for example in examples {
        let router = app(&config, AppState::new(&config, Readiness::default()));
        let response = router.oneshot(request(&example.words, example.stdin.as_deref())).await.unwrap();
        let body = to_bytes(response.into_body(), 1 << 20).await.unwrap();
        let actual: Vec<Value> = String::from_utf8(body.to_vec())
            .unwrap()
            .lines()
            .map(|line| without_request_id(serde_json::from_str(line).unwrap()))
            .collect();
        let expected: Vec<Value> =
            example.expected.iter().map(|line| without_request_id(serde_json::from_str(line).unwrap())).collect();
        assert_eq!(actual, expected, "README example `curl {}` prints something else today", example.words.join(" "));
    }
}

#[test]
fn the_shell_word_splitter_handles_quotes() {
    assert_eq!(shell_words(r#"-H 'a: b' -d "{\"x\":1}" url # note"#), ["-H", "a: b", "-d", r#"{"x":1}"#, "url"]);
}
