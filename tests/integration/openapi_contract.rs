//! openapi.yaml against the router: these tests fail when the document and the server disagree.
//!
//! * Every operation the spec lists is routed, and every route is in the spec. The routes are the
//!   table `sudokud::http::ROUTES` that `app` builds its router from, so a route added there
//!   without documenting it fails here. Every documented operation is then requested through the
//!   real router (neither 404 nor 405), other methods on a spec path answer 405 with `Allow`, and
//!   an undocumented path a 404 problem.
//! * A table of example requests, one or more per (operation, status) the server can produce, is
//!   run through the real router (or a real server where a socket is needed). Each answer must have
//!   the expected status, that status must be documented for the operation, and the body and headers
//!   must match the spec's response (schema, content type, required headers). Every documented
//!   status must have an example or an explained exemption in [`EXEMPT`].
//! * The spec's own examples must match its schemas, and every request example, replayed through
//!   the router, must get exactly the response example paired with it (the one of the same name;
//!   a lone `example` with the success response's), request ids aside.
//! * The spec's enums of names (levels, symmetries, formats) are the code's lists.
//!
//! Schemas are checked by the `jsonschema` crate (JSON Schema 2020-12, OpenAPI 3.1's dialect), with
//! `pattern` and `format` asserted; a test of wrong values shows the schemas can fail.
//! `scripts/contract-test.sh` complements this with Schemathesis against a release build.

use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddr;
use std::time::Duration;

use axum::body::{Body, to_bytes};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, Request, header};
use serde_json::{Value, json};
use sudokud::board::Format;
use sudokud::config::ServeConfig;
use sudokud::exchange::SharedFormat;
use sudokud::generate::Symmetry;
use sudokud::http::{App, AppState, MAX_GENERATE_BATCH, PROBLEM_BASE, ROUTES, Readiness, app};
use sudokud::logic::{Level, Technique};
use sudokud::member::Choice;
use sudokud::rules::Unit;
use sudokud::variants::{
    Arrow, Between, Cage, Constraints, CustomRelation, Diagonals, DigitPair, Direction, End, GreaterThan, Kropki,
    LittleKiller, LockoutLine, Place, Preset, Quadruple, Regions, Sandwich, Whispers, XSum, Xv,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tower::ServiceExt;
use yaml_rust2::{Yaml, YamlLoader};

const SPEC_TEXT: &str = include_str!("../../openapi.yaml");

use sudokud::board::EXAMPLE_PUZZLE as PUZZLE;
/// `tests/data/multiple_solutions.txt` line 91: exactly two solutions.
const TWO_SOLUTIONS: &str = ".8.7..6..75..6..9...6..9...4..........8.9.5.....3...2..1...4.3...7.5.8.....2....1";
/// An SE 9.0 puzzle of `tests/data/se_rated_sample.tsv`: dynamic forcing chains, explained well
/// within the solve timeout.
const HARDEST: &str = ".4.7.6.9.5..2.4..6....5....2.......8..4...3...7..6..1.4.8...1.2.5.1.7.8...7...6..";
const SOLUTION: &str = "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// The methods an OpenAPI 3.1 path item can hold, as they are written there.
const OPENAPI_METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/// Why a `500` has no example: no request can make a handler or solver job panic on purpose.
const PANIC_ONLY: &str = "`internal` is only answered when a handler or solver job panics, which no request can \
     cause; the panic-to-500 path is unit-tested in src/http/mod.rs (a_panic_becomes_a_500_problem_...)";

/// Documented (method, path, status) that no example in [`cases`] produces, and why.
const EXEMPT: &[(&str, &str, u16, &str)] = &[
    ("POST", "/v1/solve", 500, PANIC_ONLY),
    ("POST", "/v1/validate", 500, PANIC_ONLY),
    ("POST", "/v1/candidates", 500, PANIC_ONLY),
    ("POST", "/v1/count", 500, PANIC_ONLY),
    ("POST", "/v1/export", 500, PANIC_ONLY),
    ("POST", "/v1/import", 500, PANIC_ONLY),
    ("POST", "/v1/rate", 500, PANIC_ONLY),
    ("POST", "/v1/hint", 500, PANIC_ONLY),
    ("POST", "/v1/explain", 500, PANIC_ONLY),
    ("POST", "/v1/generate", 500, PANIC_ONLY),
    ("POST", "/v1/render", 500, PANIC_ONLY),
    ("POST", "/v1/booklet", 500, PANIC_ONLY),
    (
        "POST",
        "/v1/generate/batch",
        500,
        "`internal` is only answered when a handler panics, which no request can cause; a generation job that \
         panics fails only its puzzle, with an `internal` item problem",
    ),
    ("GET", "/v1/daily", 500, PANIC_ONLY),
    ("GET", "/v1/puzzles/{id}", 500, PANIC_ONLY),
    (
        "POST",
        "/v1/solve/batch",
        500,
        "`internal` is only answered when a handler panics, which no request can cause; a solver job that \
         panics fails only its boards, each with an `internal` item problem",
    ),
];

// ---------------------------------------------------------------------------------------------
// The spec
// ---------------------------------------------------------------------------------------------

fn yaml_to_json(yaml: &Yaml) -> Value {
    match yaml {
        Yaml::Real(text) => {
            let number = yaml.as_f64().unwrap_or_else(|| panic!("YAML real {text:?} is not a number"));
            serde_json::Number::from_f64(number).map_or(Value::Null, Value::Number)
        }
        Yaml::Integer(number) => Value::from(*number),
        Yaml::String(text) => Value::String(text.clone()),
        Yaml::Boolean(flag) => Value::Bool(*flag),
        Yaml::Array(items) => Value::Array(items.iter().map(yaml_to_json).collect()),
        Yaml::Hash(map) => Value::Object(
            map.iter()
                .map(|(key, value)| {
                    let key = match key {
                        Yaml::String(text) => text.clone(),
                        Yaml::Integer(number) => number.to_string(),
                        Yaml::Boolean(flag) => flag.to_string(),
                        other => panic!("unsupported YAML mapping key {other:?}"),
                    };
                    (key, yaml_to_json(value))
                })
                .collect(),
        ),
        Yaml::Null => Value::Null,
        Yaml::Alias(_) | Yaml::BadValue => panic!("unsupported YAML node {yaml:?}"),
    }
}

fn parse_yaml(text: &str) -> Value {
    let documents = YamlLoader::load_from_str(text).unwrap_or_else(|error| panic!("invalid YAML: {error}"));
    assert_eq!(documents.len(), 1, "expected exactly one YAML document");
    yaml_to_json(&documents[0])
}

/// (METHOD, path), e.g. ("POST", "/v1/solve").
type Operation = (String, String);

struct Spec {
    document: Value,
}

impl Spec {
    fn load() -> Spec {
        let document = parse_yaml(SPEC_TEXT);
        assert!(document["openapi"].as_str().is_some_and(|version| version.starts_with("3.1")), "not OpenAPI 3.1");
        Spec { document }
    }

    /// Follows `$ref`s (local ones only) until a value that is not a reference.
    fn resolve<'a>(&'a self, mut value: &'a Value) -> &'a Value {
        for _ in 0..32 {
            let Some(reference) = value.get("$ref").and_then(Value::as_str) else { return value };
            value = self.target(reference);
        }
        panic!("$ref chain too long at {value}")
    }

    fn target(&self, reference: &str) -> &Value {
        let pointer = reference.strip_prefix('#').unwrap_or_else(|| panic!("non-local $ref {reference}"));
        self.document.pointer(pointer).unwrap_or_else(|| panic!("dangling $ref {reference}"))
    }

    fn paths(&self) -> &serde_json::Map<String, Value> {
        self.document["paths"].as_object().expect("`paths` is a mapping")
    }

    /// Every operation, with its operation object.
    fn operations(&self) -> BTreeMap<Operation, &Value> {
        let mut operations = BTreeMap::new();
        for (path, item) in self.paths() {
            let item = self.resolve(item);
            for method in OPENAPI_METHODS {
                if let Some(operation) = item.get(method) {
                    operations.insert((method.to_ascii_uppercase(), path.clone()), operation);
                }
            }
        }
        assert!(!operations.is_empty(), "the spec lists no operations");
        operations
    }

    /// The documented statuses of an operation, and their (resolved) response objects.
    fn responses(&self, operation: &Operation) -> BTreeMap<u16, &Value> {
        let operations = self.operations();
        let object = operations.get(operation).unwrap_or_else(|| panic!("{operation:?} is not in the spec"));
        let responses = object["responses"].as_object().unwrap_or_else(|| panic!("{operation:?} has no responses"));
        responses
            .iter()
            .map(|(status, response)| {
                let status = status.parse().unwrap_or_else(|_| {
                    panic!("{operation:?}: response key {status:?} is not a status code (no ranges or `default` here)")
                });
                (status, self.resolve(response))
            })
            .collect()
    }

    fn component_response(&self, name: &str) -> &Value {
        self.target(&format!("#/components/responses/{name}"))
    }
}

// ---------------------------------------------------------------------------------------------
// Schemas, checked by the jsonschema crate
// ---------------------------------------------------------------------------------------------

impl Spec {
    /// What is wrong with `value` by `schema`, a schema of the spec: JSON Schema 2020-12, the
    /// dialect of OpenAPI 3.1, with `format` asserted (an annotation only by default) and unknown
    /// formats refused, so that no keyword the spec relies on passes unchecked. The schema is
    /// compiled as the root of a document that also holds the spec's `components`, so its
    /// `$ref: '#/components/...'` lead where they do in openapi.yaml; nothing is fetched.
    fn errors(&self, schema: &Value, value: &Value) -> Vec<String> {
        let mut root = schema.as_object().unwrap_or_else(|| panic!("not a schema object: {schema}")).clone();
        assert!(root.insert("components".to_owned(), self.document["components"].clone()).is_none());
        let validator = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .should_validate_formats(true)
            .should_ignore_unknown_formats(false)
            .build(&Value::Object(root))
            .unwrap_or_else(|error| panic!("{schema} is not a valid schema: {error}"));
        validator.iter_errors(value).map(|error| format!("at {:?}: {error}", error.instance_path().as_str())).collect()
    }
}

/// JSON equality with numbers compared by value (`1` and `1.0` are the same number).
fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_eq(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(key, value)| y.get(key).is_some_and(|other| json_eq(value, other)))
        }
        _ => a == b,
    }
}

// ---------------------------------------------------------------------------------------------
// Requests and replies
// ---------------------------------------------------------------------------------------------

struct Reply {
    status: u16,
    headers: HeaderMap,
    body: Vec<u8>,
}

#[derive(Clone)]
struct Call {
    method: &'static str,
    /// The operation's path, as the spec writes it (templates included).
    path: &'static str,
    /// What is requested: the path with its template filled and a query, or else `path`.
    uri: Option<String>,
    content_type: Option<&'static str>,
    if_none_match: Option<String>,
    body: String,
}

impl Call {
    fn get(path: &'static str) -> Call {
        Call { method: "GET", path, uri: None, content_type: None, if_none_match: None, body: String::new() }
    }

    /// A `GET` of the operation at `path` that requests `uri`.
    fn get_at(path: &'static str, uri: impl Into<String>) -> Call {
        Call { uri: Some(uri.into()), ..Call::get(path) }
    }

    fn json(path: &'static str, body: impl Into<String>) -> Call {
        let content_type = Some("application/json");
        Call { method: "POST", path, uri: None, content_type, if_none_match: None, body: body.into() }
    }

    fn ndjson(path: &'static str, lines: &[Value]) -> Call {
        let body = lines.iter().map(|line| format!("{line}\n")).collect();
        let content_type = Some("application/x-ndjson");
        Call { method: "POST", path, uri: None, content_type, if_none_match: None, body }
    }

    fn if_none_match(self, tag: impl Into<String>) -> Call {
        Call { if_none_match: Some(tag.into()), ..self }
    }

    /// The path part of what is requested, as a problem's `instance` says it.
    fn instance(&self) -> &str {
        let uri = self.uri.as_deref().unwrap_or(self.path);
        uri.split('?').next().unwrap_or(uri)
    }

    fn board(path: &'static str, board: Value) -> Call {
        Call::json(path, json!({ "board": board }).to_string())
    }

    fn with_content_type(self, content_type: Option<&'static str>) -> Call {
        Call { content_type, ..self }
    }

    fn request(&self) -> Request<Body> {
        let mut builder = Request::builder().method(self.method).uri(self.uri.as_deref().unwrap_or(self.path));
        if let Some(content_type) = self.content_type {
            builder = builder.header(header::CONTENT_TYPE, content_type);
        }
        if let Some(tag) = &self.if_none_match {
            builder = builder.header(header::IF_NONE_MATCH, tag.as_str());
        }
        builder.body(Body::from(self.body.clone())).expect("a valid request")
    }
}

fn router(config: &ServeConfig, readiness: Readiness) -> App {
    app(config, AppState::new(config, readiness))
}

async fn oneshot(router: App, request: Request<Body>) -> Reply {
    let response = router.oneshot(request).await.expect("the router never fails");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body = to_bytes(response.into_body(), 1 << 20).await.expect("the body can be read").to_vec();
    Reply { status, headers, body }
}

/// Writes `request` to a real socket and reads one HTTP/1.1 response.
async fn exchange(addr: SocketAddr, request: &[u8]) -> Reply {
    let mut stream = TcpStream::connect(addr).await.expect("the server accepts connections");
    stream.write_all(request).await.expect("the request can be sent");
    let mut raw = Vec::new();
    let read = async {
        let mut buffer = [0u8; 4096];
        loop {
            if let Some(end) = raw.windows(4).position(|window| window == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&raw[..end]).to_lowercase();
                let length = head
                    .lines()
                    .find_map(|line| line.strip_prefix("content-length:"))
                    .map(|length| length.trim().parse::<usize>().expect("a numeric Content-Length"));
                assert!(!head.contains("transfer-encoding: chunked"), "chunked responses are not handled here");
                if length.is_some_and(|length| raw.len() >= end + 4 + length) {
                    return;
                }
            }
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => return,
                Ok(n) => raw.extend_from_slice(&buffer[..n]),
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(10), read).await.expect("the server answers within 10 s");
    let end = raw.windows(4).position(|window| window == b"\r\n\r\n").expect("a complete response head");
    let head = String::from_utf8(raw[..end].to_vec()).expect("an ASCII response head");
    let mut lines = head.split("\r\n");
    let status_line = lines.next().expect("a status line");
    let status = status_line.split(' ').nth(1).and_then(|code| code.parse().ok()).expect("a status code");
    let mut headers = HeaderMap::new();
    for line in lines {
        let (name, value) = line.split_once(':').expect("a header line");
        headers.append(
            HeaderName::from_bytes(name.trim().as_bytes()).expect("a header name"),
            HeaderValue::from_str(value.trim()).expect("a header value"),
        );
    }
    let mut body = raw[end + 4..].to_vec();
    if let Some(length) = headers.get(header::CONTENT_LENGTH) {
        body.truncate(length.to_str().unwrap().parse().unwrap());
    }
    Reply { status, headers, body }
}

// ---------------------------------------------------------------------------------------------
// The table of examples
// ---------------------------------------------------------------------------------------------

/// How the server is set up for an example.
#[derive(Clone, Copy, Debug)]
enum Setup {
    /// `app` with the default configuration, driven with `oneshot`.
    Default,
    /// `solve_timeout_ms` and `generate_timeout_ms` 0: every job has missed its deadline before it
    /// starts.
    NoSolveTime,
    /// One solver slot, taken by a job that waits for the example to finish, and no queue.
    PoolFull,
    /// `Readiness::begin_shutdown()` has been called.
    ShuttingDown,
    /// A real server on port 0 with a 200 ms request timeout, and a client that sends the head
    /// and half the body, then nothing: only the timeout can end the request (408).
    StalledBody,
}

struct Case {
    what: &'static str,
    call: Call,
    setup: Setup,
    status: u16,
    /// The problem kind (`type` is PROBLEM_BASE + kind) of an error answer.
    problem: Option<&'static str>,
}

fn case(what: &'static str, call: Call, status: u16, problem: Option<&'static str>) -> Case {
    Case { what, call, setup: Setup::Default, status, problem }
}

/// A 6x6 puzzle of boxes 3 rows high and 2 columns wide, with one solution.
const SIX_TALL: &str = "006000020054300002452003000300004000";

/// `line` in rows of `size`, each cell written by `cell`.
fn rows_of(line: &str, size: usize, cell: impl Fn(u8) -> Value) -> Value {
    line.as_bytes().chunks(size).map(|row| row.iter().map(|&symbol| cell(symbol)).collect::<Vec<_>>()).collect()
}

fn rows_of_strings(line: &str) -> Value {
    line.as_bytes().chunks(9).map(|row| row.iter().map(|&c| (c as char).to_string()).collect::<Vec<_>>()).collect()
}

fn rows_of_numbers(line: &str) -> Value {
    line.as_bytes()
        .chunks(9)
        .map(|row| row.iter().map(|&c| if c == b'.' { json!(null) } else { json!(c - b'0') }).collect::<Vec<_>>())
        .collect()
}

fn cases() -> Vec<Case> {
    let conflicting = format!("55{}", &PUZZLE[2..]);
    // Row 0 holds 1-8 and r1c0 holds the 9: nothing fits r0c0, though no givens conflict.
    let unsolvable = format!(".123456789{}", ".".repeat(71));
    let oversized = |path| Call::json(path, json!({ "board": PUZZLE, "padding": "x".repeat(17_000) }).to_string());
    let mut cases = Vec::new();
    for path in ["/v1/solve", "/v1/validate", "/v1/candidates", "/v1/count", "/v1/rate", "/v1/hint", "/v1/explain"] {
        cases.extend([
            case("a text board", Call::board(path, json!(PUZZLE)), 200, None),
            case("a board of strings", Call::board(path, rows_of_strings(PUZZLE)), 200, None),
            case("a board of numbers and nulls", Call::board(path, rows_of_numbers(PUZZLE)), 200, None),
            case("malformed JSON", Call::json(path, r#"{"board": "#), 400, Some("malformed-json")),
            case("a body over 16384 bytes", oversized(path), 413, Some("payload-too-large")),
            case(
                "a text/plain body",
                Call::board(path, json!(PUZZLE)).with_content_type(Some("text/plain")),
                415,
                Some("unsupported-media-type"),
            ),
            case(
                "no Content-Type",
                Call::board(path, json!(PUZZLE)).with_content_type(None),
                415,
                Some("unsupported-media-type"),
            ),
            case("a board that is not a board", Call::board(path, json!("x")), 422, Some("invalid-board")),
            case("no board member", Call::json(path, "{}"), 422, Some("invalid-board")),
            case("a top-level array", Call::json(path, "[]"), 422, Some("invalid-request")),
            case(
                "a repeated board member",
                Call::json(path, format!(r#"{{"board":"{PUZZLE}","board":"{PUZZLE}"}}"#)),
                422,
                Some("invalid-request"),
            ),
            Case {
                what: "a body that stops arriving",
                call: Call::json(path, ""),
                setup: Setup::StalledBody,
                status: 408,
                problem: Some("request-timeout"),
            },
        ]);
    }
    // Other sizes: a 6x6 puzzle of 3x2 boxes in numbers, a 16x16 one in strings, a 4x4 in text.
    let six = json!({ "board": rows_of(SIX_TALL, 6, |symbol| json!(symbol - b'0')), "box": "3x2" });
    let sixteen = rows_of(&".".repeat(256), 16, |symbol| json!(char::from(symbol).to_string()));
    for path in ["/v1/solve", "/v1/validate", "/v1/candidates", "/v1/count"] {
        cases.extend([
            case("a 6x6 board of numbers with tall boxes", Call::json(path, six.to_string()), 200, None),
            case("an empty 16x16 board of strings", Call::board(path, sixteen.clone()), 200, None),
            case(
                "a box of another size",
                Call::json(path, json!({ "board": ".".repeat(16), "box": "2x3" }).to_string()),
                422,
                Some("invalid-board"),
            ),
            case(
                "text that is no box",
                Call::json(path, json!({ "board": ".".repeat(16), "box": "4" }).to_string()),
                422,
                Some("invalid-request"),
            ),
        ]);
    }
    for path in ["/v1/rate", "/v1/hint", "/v1/explain"] {
        cases.push(case("a 4x4 board", Call::board(path, json!(".14.........2..3")), 200, None));
    }
    // A puzzle as the Interactive Sudoku Solver shares it, in place of the board and its rules.
    let givens = PUZZLE.bytes().enumerate().filter(|(_, symbol)| *symbol != b'.');
    let givens: String =
        givens.map(|(at, symbol)| format!("~R{}C{}_{}", at / 9 + 1, at % 9 + 1, char::from(symbol))).collect();
    // The puzzle's givens, and a cage its solution keeps (r9c8 + r9c9 = 7 + 9).
    let iss = format!(".{givens}.Cage~16~R9C8~R9C9");
    let shared = |path, extra: Value| {
        let mut body = json!({ "puzzle": iss });
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        Call::json(path, body.to_string())
    };
    for path in ["/v1/solve", "/v1/validate", "/v1/candidates", "/v1/count", "/v1/rate", "/v1/render"] {
        cases.extend([
            case("a shared puzzle", shared(path, json!({})), 200, None),
            case(
                "a shared puzzle beside a board",
                shared(path, json!({ "board": PUZZLE })),
                422,
                Some("invalid-request"),
            ),
            case(
                "a rule sudokud lacks",
                shared(path, json!({ "puzzle": ".Zipper~R1C1~R1C2" })),
                422,
                Some("invalid-request"),
            ),
        ]);
    }
    let export = |body: Value| Call::json("/v1/export", body.to_string());
    cases.extend([
        case("a board in ISS's form", export(json!({ "board": PUZZLE, "format": "iss" })), 200, None),
        case("a shared puzzle written back", shared("/v1/export", json!({ "format": "iss" })), 200, None),
        case("malformed JSON", Call::json("/v1/export", r#"{"board": "#), 400, Some("malformed-json")),
        case("a body over 16384 bytes", oversized("/v1/export"), 413, Some("payload-too-large")),
        case(
            "a text/plain body",
            export(json!({ "board": PUZZLE, "format": "iss" })).with_content_type(Some("text/plain")),
            415,
            Some("unsupported-media-type"),
        ),
        case("no format", export(json!({ "board": PUZZLE })), 422, Some("invalid-request")),
        case(
            "a format sudokud lacks",
            export(json!({ "board": PUZZLE, "format": "gif" })),
            422,
            Some("invalid-request"),
        ),
        case(
            "a grid the format cannot hold",
            export(json!({ "board": ".".repeat(625), "format": "iss" })),
            422,
            Some("invalid-request"),
        ),
        Case {
            what: "a body that stops arriving",
            call: Call::json("/v1/export", ""),
            setup: Setup::StalledBody,
            status: 408,
            problem: Some("request-timeout"),
        },
    ]);
    let import = |body: Value| Call::json("/v1/import", body.to_string());
    cases.extend([
        case("a shared puzzle in sudokud's members", shared("/v1/import", json!({})), 200, None),
        case("malformed JSON", Call::json("/v1/import", r#"{"puzzle": "#), 400, Some("malformed-json")),
        case("a body over 16384 bytes", oversized("/v1/import"), 413, Some("payload-too-large")),
        case(
            "a text/plain body",
            shared("/v1/import", json!({})).with_content_type(Some("text/plain")),
            415,
            Some("unsupported-media-type"),
        ),
        case("no puzzle", import(json!({})), 422, Some("invalid-request")),
        case(
            "a board beside the puzzle",
            shared("/v1/import", json!({ "board": PUZZLE })),
            422,
            Some("invalid-request"),
        ),
        case(
            "a rule sudokud lacks",
            import(json!({ "puzzle": ".Zipper~R1C1~R1C2~R1C3" })),
            422,
            Some("invalid-request"),
        ),
        Case {
            what: "a body that stops arriving",
            call: Call::json("/v1/import", ""),
            setup: Setup::StalledBody,
            status: 408,
            problem: Some("request-timeout"),
        },
    ]);
    cases.extend([
        case("the empty board (several solutions)", Call::board("/v1/solve", json!(".".repeat(81))), 200, None),
        case("conflicting givens", Call::board("/v1/solve", json!(conflicting)), 422, Some("conflicting-givens")),
        case("an unsolvable puzzle", Call::board("/v1/solve", json!(unsolvable)), 422, Some("unsolvable")),
        Case {
            what: "a solve past its deadline",
            call: Call::board("/v1/solve", json!(PUZZLE)),
            setup: Setup::NoSolveTime,
            status: 503,
            problem: Some("solve-timeout"),
        },
        Case {
            what: "a solve with every slot busy and no queue",
            call: Call::board("/v1/solve", json!(PUZZLE)),
            setup: Setup::PoolFull,
            status: 503,
            problem: Some("overloaded"),
        },
        case("conflicting givens", Call::board("/v1/validate", rows_of_numbers(&conflicting)), 200, None),
        case("conflicting givens", Call::board("/v1/candidates", json!(conflicting)), 200, None),
        case("an unsolvable board", Call::board("/v1/candidates", json!(unsolvable)), 200, None),
        case(
            "the empty board",
            Call::json("/v1/count", json!({ "board": ".".repeat(81), "limit": 5 }).to_string()),
            200,
            None,
        ),
        case("conflicting givens", Call::board("/v1/count", json!(conflicting)), 422, Some("conflicting-givens")),
        case(
            "a limit of 0",
            Call::json("/v1/count", json!({ "board": PUZZLE, "limit": 0 }).to_string()),
            422,
            Some("invalid-request"),
        ),
        Case {
            what: "a generation past its deadline",
            call: Call::json("/v1/generate", r#"{"difficulty":"extreme"}"#),
            setup: Setup::NoSolveTime,
            status: 503,
            problem: Some("solve-timeout"),
        },
        Case {
            what: "a rating past its deadline",
            call: Call::board("/v1/rate", json!(PUZZLE)),
            setup: Setup::NoSolveTime,
            status: 503,
            problem: Some("solve-timeout"),
        },
        Case {
            what: "a hint past its deadline",
            call: Call::board("/v1/hint", json!(PUZZLE)),
            setup: Setup::NoSolveTime,
            status: 503,
            problem: Some("solve-timeout"),
        },
        Case {
            what: "an explanation past its deadline",
            call: Call::board("/v1/explain", json!(PUZZLE)),
            setup: Setup::NoSolveTime,
            status: 503,
            problem: Some("solve-timeout"),
        },
        Case {
            what: "a count past its deadline",
            call: Call::board("/v1/count", json!(".".repeat(81))),
            setup: Setup::NoSolveTime,
            status: 503,
            problem: Some("solve-timeout"),
        },
        case("a complete board", Call::board("/v1/validate", rows_of_strings(SOLUTION)), 200, None),
        case(
            "a JSON batch with a good and a bad board",
            Call::json("/v1/solve/batch", json!({ "boards": [PUZZLE, "12", conflicting, unsolvable] }).to_string()),
            200,
            None,
        ),
        case(
            "an NDJSON batch with good and bad lines",
            Call::ndjson(
                "/v1/solve/batch",
                &[json!({ "board": PUZZLE }), json!({ "board": rows_of_numbers(&conflicting) }), json!([1]), json!({})],
            ),
            200,
            None,
        ),
        case("a malformed JSON batch", Call::json("/v1/solve/batch", "{\"boards\""), 400, Some("malformed-json")),
        case("a batch without boards", Call::json("/v1/solve/batch", "{}"), 422, Some("invalid-request")),
        case(
            "a JSON batch over the body limit",
            Call::json("/v1/solve/batch", json!({ "boards": [], "padding": "x".repeat(16_384_001) }).to_string()),
            413,
            Some("payload-too-large"),
        ),
        case(
            "a text/plain batch",
            Call::json("/v1/solve/batch", PUZZLE).with_content_type(Some("text/plain")),
            415,
            Some("unsupported-media-type"),
        ),
        Case {
            what: "a JSON batch that stops arriving",
            call: Call::json("/v1/solve/batch", ""),
            setup: Setup::StalledBody,
            status: 408,
            problem: Some("request-timeout"),
        },
        Case {
            what: "a batch with every slot busy and no queue",
            call: Call::ndjson("/v1/solve/batch", &[json!({ "board": PUZZLE })]),
            setup: Setup::PoolFull,
            status: 503,
            problem: Some("overloaded"),
        },
        case("a solved board", Call::board("/v1/hint", json!(SOLUTION)), 200, None),
        case("a hard puzzle", Call::board("/v1/explain", json!(HARDEST)), 200, None),
        case("two solutions", Call::board("/v1/rate", json!(TWO_SOLUTIONS)), 422, Some("multiple-solutions")),
        case("two solutions", Call::board("/v1/hint", json!(TWO_SOLUTIONS)), 422, Some("multiple-solutions")),
        case("two solutions", Call::board("/v1/explain", json!(TWO_SOLUTIONS)), 422, Some("multiple-solutions")),
        case("an unsolvable puzzle", Call::board("/v1/hint", json!(unsolvable)), 422, Some("unsolvable")),
        case("conflicting givens", Call::board("/v1/explain", json!(conflicting)), 422, Some("conflicting-givens")),
        case("a hard puzzle", Call::json("/v1/generate", r#"{"difficulty":"hard","seed":7}"#), 200, None),
        case(
            "a medium 16x16 puzzle of strings",
            Call::json("/v1/generate", r#"{"difficulty":"medium","size":16,"seed":1,"format":"strings"}"#),
            200,
            None,
        ),
        case(
            "a 6x6 puzzle of tall boxes",
            Call::json("/v1/generate", r#"{"difficulty":"easy","box":"3x2","format":"numbers"}"#),
            200,
            None,
        ),
        case(
            "a level a size does not offer",
            Call::json("/v1/generate", r#"{"difficulty":"hard","size":4}"#),
            422,
            Some("invalid-request"),
        ),
        case(
            "a size no grid has",
            Call::json("/v1/generate", r#"{"difficulty":"easy","size":7}"#),
            422,
            Some("invalid-request"),
        ),
        case(
            "rotational numbers",
            Call::json("/v1/generate", r#"{"difficulty":"easy","symmetry":"rotational","format":"numbers"}"#),
            200,
            None,
        ),
        case("malformed JSON", Call::json("/v1/generate", "{"), 400, Some("malformed-json")),
        case(
            "an unknown level",
            Call::json("/v1/generate", r#"{"difficulty":"insane"}"#),
            422,
            Some("invalid-request"),
        ),
        case(
            "a body over 16384 bytes",
            Call::json("/v1/generate", json!({ "difficulty": "easy", "padding": "x".repeat(17_000) }).to_string()),
            413,
            Some("payload-too-large"),
        ),
        case(
            "no Content-Type",
            Call::json("/v1/generate", r#"{"difficulty":"easy"}"#).with_content_type(None),
            415,
            Some("unsupported-media-type"),
        ),
        Case {
            what: "a body that stops arriving",
            call: Call::json("/v1/generate", ""),
            setup: Setup::StalledBody,
            status: 408,
            problem: Some("request-timeout"),
        },
        case(
            "three hard puzzles",
            Call::json("/v1/generate/batch", r#"{"difficulty":"hard","seed":7,"count":3}"#),
            200,
            None,
        ),
        case(
            "two 6x6 puzzles made to order, in numbers",
            Call::json(
                "/v1/generate/batch",
                r#"{"difficulty":"easy","size":6,"min_givens":20,"count":2,"format":"numbers"}"#,
            ),
            200,
            None,
        ),
        case(
            "two X puzzles",
            Call::json("/v1/generate/batch", r#"{"difficulty":"easy","variant":"x","seed":1,"count":2}"#),
            200,
            None,
        ),
        Case {
            what: "puzzles past their deadlines, each a problem line",
            call: Call::json("/v1/generate/batch", r#"{"difficulty":"hard","count":2}"#),
            setup: Setup::NoSolveTime,
            status: 200,
            problem: None,
        },
        case("no count", Call::json("/v1/generate/batch", r#"{"difficulty":"hard"}"#), 422, Some("invalid-request")),
        case(
            "a count over the most",
            Call::json("/v1/generate/batch", r#"{"difficulty":"hard","count":1001}"#),
            422,
            Some("invalid-request"),
        ),
        case(
            "an order no puzzle can meet",
            Call::json("/v1/generate/batch", r#"{"difficulty":"easy","require":["x-wing"],"count":2}"#),
            422,
            Some("invalid-request"),
        ),
        case("malformed JSON", Call::json("/v1/generate/batch", "{"), 400, Some("malformed-json")),
        case(
            "a body over 16384 bytes",
            Call::json(
                "/v1/generate/batch",
                json!({ "difficulty": "easy", "count": 1, "padding": "x".repeat(17_000) }).to_string(),
            ),
            413,
            Some("payload-too-large"),
        ),
        case(
            "no Content-Type",
            Call::json("/v1/generate/batch", r#"{"difficulty":"easy","count":1}"#).with_content_type(None),
            415,
            Some("unsupported-media-type"),
        ),
        Case {
            what: "a body that stops arriving",
            call: Call::json("/v1/generate/batch", ""),
            setup: Setup::StalledBody,
            status: 408,
            problem: Some("request-timeout"),
        },
        Case {
            what: "a batch with every slot busy and no queue",
            call: Call::json("/v1/generate/batch", r#"{"difficulty":"easy","count":2}"#),
            setup: Setup::PoolFull,
            status: 503,
            problem: Some("overloaded"),
        },
        case("a dated daily puzzle", Call::get_at("/v1/daily", "/v1/daily?date=2026-12-02&difficulty=easy"), 200, None),
        case("today's puzzle", Call::get("/v1/daily"), 200, None),
        case(
            "a daily puzzle the client holds",
            Call::get_at("/v1/daily", "/v1/daily?date=2026-12-02&difficulty=easy")
                .if_none_match("\"easy.rotational.3x3.6731824462683605\""),
            304,
            None,
        ),
        case(
            "a date that is none",
            Call::get_at("/v1/daily", "/v1/daily?date=2026-02-30"),
            422,
            Some("invalid-request"),
        ),
        case(
            "a level that is none",
            Call::get_at("/v1/daily", "/v1/daily?difficulty=insane"),
            422,
            Some("invalid-request"),
        ),
        Case {
            what: "a daily puzzle past its deadline",
            call: Call::get_at("/v1/daily", "/v1/daily?date=2026-12-02&difficulty=easy"),
            setup: Setup::NoSolveTime,
            status: 503,
            problem: Some("solve-timeout"),
        },
        case(
            "a puzzle by its id",
            Call::get_at("/v1/puzzles/{id}", "/v1/puzzles/easy.rotational.3x3.6731824462683605"),
            200,
            None,
        ),
        case(
            "a puzzle the client holds",
            Call::get_at("/v1/puzzles/{id}", "/v1/puzzles/hard.none.3x3.7").if_none_match("*"),
            304,
            None,
        ),
        case("an id that is none", Call::get_at("/v1/puzzles/{id}", "/v1/puzzles/nonsense"), 404, Some("not-found")),
        case(
            "a level not offered for the size",
            Call::get_at("/v1/puzzles/{id}", "/v1/puzzles/extreme.none.5x5.1.v2"),
            404,
            Some("not-found"),
        ),
        Case {
            what: "a puzzle past its deadline",
            call: Call::get_at("/v1/puzzles/{id}", "/v1/puzzles/hard.none.3x3.7"),
            setup: Setup::NoSolveTime,
            status: 503,
            problem: Some("solve-timeout"),
        },
        case("liveness", Call::get("/healthz"), 200, None),
        case("readiness", Call::get("/readyz"), 200, None),
        Case {
            what: "readiness during shutdown",
            call: Call::get("/readyz"),
            setup: Setup::ShuttingDown,
            status: 503,
            problem: Some("shutting-down"),
        },
        case("the document", Call::get("/openapi.yaml"), 200, None),
        case("the metrics", Call::get("/metrics"), 200, None),
        case("the playground page", Call::get("/"), 200, None),
        case("the playground's style sheet", Call::get("/playground.css"), 200, None),
        case("the playground's script", Call::get("/playground.js"), 200, None),
        case("the playground's icon", Call::get("/favicon.svg"), 200, None),
    ]);
    let render = |body: Value| Call::json("/v1/render", body.to_string());
    let booklet = |body: Value| Call::json("/v1/booklet", body.to_string());
    cases.extend([
        case("an SVG", render(json!({ "board": PUZZLE })), 200, None),
        case(
            "a PNG with the solution",
            render(json!({ "board": PUZZLE, "format": "png", "solution": true })),
            200,
            None,
        ),
        case(
            "a PDF with pencil marks",
            render(json!({ "board": PUZZLE, "format": "pdf", "candidates": true })),
            200,
            None,
        ),
        case("malformed JSON", Call::json("/v1/render", "{"), 400, Some("malformed-json")),
        case("a body over 16384 bytes", oversized("/v1/render"), 413, Some("payload-too-large")),
        case(
            "no Content-Type",
            render(json!({ "board": PUZZLE })).with_content_type(None),
            415,
            Some("unsupported-media-type"),
        ),
        case("a width too small", render(json!({ "board": PUZZLE, "width": 20 })), 422, Some("invalid-request")),
        case(
            "a title out of the font",
            render(json!({ "board": PUZZLE, "title": "数独" })),
            422,
            Some("invalid-request"),
        ),
        case(
            "the solution of an unsolvable board",
            render(json!({ "board": unsolvable, "solution": true })),
            422,
            Some("unsolvable"),
        ),
        case(
            "the solution of an empty board",
            render(json!({ "board": ".".repeat(81), "solution": true })),
            422,
            Some("multiple-solutions"),
        ),
        case(
            "a solution that changes a given",
            render(json!({ "board": PUZZLE, "solution": ".".repeat(81) })),
            422,
            Some("invalid-request"),
        ),
        Case {
            what: "a solution past its deadline",
            call: render(json!({ "board": PUZZLE, "solution": true })),
            setup: Setup::NoSolveTime,
            status: 503,
            problem: Some("solve-timeout"),
        },
        Case {
            what: "a body that stops arriving",
            call: Call::json("/v1/render", ""),
            setup: Setup::StalledBody,
            status: 408,
            problem: Some("request-timeout"),
        },
        case("a booklet made", booklet(json!({ "count": 2, "difficulty": "easy", "seed": 1 })), 200, None),
        case("a booklet of given puzzles", booklet(json!({ "puzzles": [PUZZLE], "per_page": 1 })), 200, None),
        case("malformed JSON", Call::json("/v1/booklet", "{"), 400, Some("malformed-json")),
        case("a body over 16384 bytes", oversized("/v1/booklet"), 413, Some("payload-too-large")),
        case(
            "no Content-Type",
            booklet(json!({ "count": 1 })).with_content_type(None),
            415,
            Some("unsupported-media-type"),
        ),
        case("three to a page", booklet(json!({ "count": 3, "per_page": 3 })), 422, Some("invalid-request")),
        case(
            "a given puzzle of many solutions",
            booklet(json!({ "puzzles": [".".repeat(81)] })),
            422,
            Some("invalid-request"),
        ),
        Case {
            what: "a booklet past its deadline",
            call: booklet(json!({ "count": 1, "difficulty": "extreme" })),
            setup: Setup::NoSolveTime,
            status: 503,
            problem: Some("solve-timeout"),
        },
        Case {
            what: "a body that stops arriving",
            call: Call::json("/v1/booklet", ""),
            setup: Setup::StalledBody,
            status: 408,
            problem: Some("request-timeout"),
        },
    ]);
    cases
}

/// Runs one example with its setup.
async fn run(case: &Case) -> Reply {
    let config = ServeConfig::default();
    match case.setup {
        Setup::Default => oneshot(router(&config, Readiness::default()), case.call.request()).await,
        Setup::NoSolveTime => {
            let config = ServeConfig { solve_timeout_ms: 0, generate_timeout_ms: 0, ..config };
            oneshot(router(&config, Readiness::default()), case.call.request()).await
        }
        Setup::ShuttingDown => {
            let readiness = Readiness::default();
            readiness.begin_shutdown();
            oneshot(router(&config, readiness), case.call.request()).await
        }
        Setup::PoolFull => {
            let config = ServeConfig {
                max_concurrent_solves: std::num::NonZeroUsize::new(1),
                max_queued_solves: 0,
                queue_timeout_ms: 10,
                ..config
            };
            let state = AppState::new(&config, Readiness::default());
            let router = app(&config, state.clone());
            let (release, wait) = std::sync::mpsc::channel::<()>();
            let busy = tokio::spawn(async move {
                state.pool.run(sudokud::metrics::Work::Solve, move |_| Ok(wait.recv().is_ok())).await
            });
            tokio::time::sleep(Duration::from_millis(50)).await;
            let reply = oneshot(router, case.call.request()).await;
            release.send(()).expect("the busy job is waiting");
            assert_eq!(busy.await.expect("the busy job ends"), Ok(true));
            reply
        }
        Setup::StalledBody => {
            let config = ServeConfig { request_timeout_ms: 200, ..config };
            let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
            let addr = listener.local_addr().expect("a bound address");
            let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
            let served = tokio::spawn(async move {
                sudokud::server::serve(listener, &config, Readiness::default(), async {
                    let _ = stopped.await;
                })
                .await
            });
            // 50 bytes announced, 4 sent.
            let head = format!(
                "{} {} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n",
                case.call.method, case.call.path
            );
            let request = format!("{head}{{\"bo");
            let reply = exchange(addr, request.as_bytes()).await;
            stop.send(()).expect("the server is running");
            served.await.expect("the server task ends").expect("the server ends cleanly");
            reply
        }
    }
}

/// Asserts `reply` is what the spec documents for `operation` and `status`: a documented status,
/// a documented content type with a body that matches its schema, and the required headers.
fn assert_matches_response(spec: &Spec, what: &str, response: &Value, reply: &Reply) {
    let body_text = String::from_utf8_lossy(&reply.body);
    if let Some(headers) = response.get("headers").and_then(Value::as_object) {
        for (name, definition) in headers {
            let definition = spec.resolve(definition);
            let Some(value) = reply.headers.get(name.as_str()) else {
                assert!(
                    definition["required"] != json!(true),
                    "{what}: the required header {name} is missing; headers: {:?}",
                    reply.headers
                );
                continue;
            };
            let value = value.to_str().unwrap_or_else(|_| panic!("{what}: header {name} is not text"));
            let schema = &definition["schema"];
            // Header values are text; a numeric schema describes the number the text spells.
            let as_json = match schema["type"].as_str() {
                Some("integer" | "number") => serde_json::from_str(value)
                    .unwrap_or_else(|_| panic!("{what}: header {name}: {value:?} is not a number")),
                Some("string") | None => json!(value),
                Some(other) => panic!("{what}: header {name}: schema type {other} is not handled here"),
            };
            let errors = spec.errors(schema, &as_json);
            assert!(errors.is_empty(), "{what}: header {name}: {value:?} does not match its schema: {errors:?}");
        }
    }
    let Some(content) = response.get("content").and_then(Value::as_object) else {
        assert!(reply.body.is_empty(), "{what}: the spec documents no body, but got {body_text}");
        return;
    };
    let content_type = reply
        .headers
        .get(header::CONTENT_TYPE)
        .unwrap_or_else(|| panic!("{what}: no Content-Type; body: {body_text}"))
        .to_str()
        .expect("a text Content-Type");
    let essence = content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    let media = content.get(&essence).unwrap_or_else(|| {
        panic!("{what}: Content-Type {content_type} is not documented (documented: {:?})", content.keys())
    });
    let body = if essence == "application/json" || essence.ends_with("+json") {
        serde_json::from_slice(&reply.body)
            .unwrap_or_else(|error| panic!("{what}: the body is not JSON ({error}): {body_text}"))
    } else if essence == "application/yaml" {
        parse_yaml(&body_text)
    } else if ["text/plain", "text/html", "text/css", "text/javascript", "image/svg+xml"].contains(&essence.as_str()) {
        json!(body_text)
    } else if let Some(magic) = [("image/png", &b"\x89PNG\r\n\x1a\n"[..]), ("application/pdf", b"%PDF-")]
        .iter()
        .find_map(|&(binary, magic)| (binary == essence).then_some(magic))
    {
        // A binary schema says nothing a validator checks: the file must at least be one.
        assert!(reply.body.starts_with(magic), "{what}: the body is no {essence} file");
        return;
    } else if essence == "application/x-ndjson" {
        // The schema describes one line; every line must match it.
        let schema = media.get("schema").unwrap_or_else(|| panic!("{what}: {essence} has no schema in the spec"));
        assert!(body_text.ends_with('\n'), "{what}: NDJSON ends with a newline: {body_text}");
        for line in body_text.lines() {
            let value: Value = serde_json::from_str(line)
                .unwrap_or_else(|error| panic!("{what}: an NDJSON line is not JSON ({error}): {line}"));
            let errors = spec.errors(schema, &value);
            assert!(
                errors.is_empty(),
                "{what}: an NDJSON line does not match the schema:\n  {}\nline: {line}",
                errors.join("\n  ")
            );
        }
        return;
    } else {
        panic!("{what}: no parser for {essence} in this test")
    };
    let schema = media.get("schema").unwrap_or_else(|| panic!("{what}: {essence} has no schema in the spec"));
    let errors = spec.errors(schema, &body);
    assert!(
        errors.is_empty(),
        "{what}: the body does not match the spec's schema:\n  {}\nbody: {body_text}",
        errors.join("\n  ")
    );
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

#[test]
fn every_route_is_documented_and_every_operation_is_routed() {
    let documented: BTreeSet<Operation> = Spec::load().operations().into_keys().collect();
    let mut routed = BTreeSet::new();
    for route in ROUTES {
        let operation = (route.method.to_string(), route.path.to_owned());
        assert!(routed.insert(operation), "{} {} is routed twice", route.method, route.path);
    }
    let undocumented: Vec<_> = routed.difference(&documented).collect();
    let unrouted: Vec<_> = documented.difference(&routed).collect();
    assert!(
        undocumented.is_empty() && unrouted.is_empty(),
        "openapi.yaml and sudokud::http::ROUTES disagree.\n  routed but not in the spec: {undocumented:?}\n  \
         in the spec but not routed: {unrouted:?}"
    );
}

/// `path` with every template filled with its parameter's example.
fn example_uri(spec: &Spec, path: &str) -> String {
    let mut uri = path.to_owned();
    for ((_, operation_path), operation) in spec.operations() {
        if operation_path != path {
            continue;
        }
        for parameter in operation.get("parameters").and_then(Value::as_array).into_iter().flatten() {
            let parameter = spec.resolve(parameter);
            if parameter["in"] == "path" {
                let example = parameter["example"].as_str().expect("a path parameter has an example");
                uri = uri.replace(&format!("{{{}}}", parameter["name"].as_str().unwrap()), example);
            }
        }
    }
    assert!(!uri.contains('{'), "{path}: a path template without an example");
    uri
}

#[tokio::test]
async fn every_documented_operation_is_served() {
    let spec = Spec::load();
    for (method, path) in spec.operations().into_keys() {
        let uri = example_uri(&spec, &path);
        let request = Request::builder().method(method.as_str()).uri(&uri).body(Body::empty()).unwrap();
        let reply = oneshot(router(&ServeConfig::default(), Readiness::default()), request).await;
        assert!(
            reply.status != 404 && reply.status != 405,
            "{method} {path} is in the spec, but the router answers {}: {}",
            reply.status,
            String::from_utf8_lossy(&reply.body)
        );
    }
}

#[tokio::test]
async fn other_methods_on_documented_paths_are_405_with_allow() {
    let spec = Spec::load();
    let operations = spec.operations();
    let not_allowed = spec.component_response("MethodNotAllowed");
    for path in spec.paths().keys() {
        let allowed: BTreeSet<String> =
            operations.keys().filter(|(_, p)| p == path).map(|(method, _)| method.clone()).collect();
        // HTTP serves HEAD wherever it serves GET (RFC 9110, 9.3.2); the router does so implicitly.
        let mut expected_allow = allowed.clone();
        if allowed.contains("GET") {
            expected_allow.insert("HEAD".to_owned());
        }
        for method in ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"] {
            if expected_allow.contains(method) {
                continue;
            }
            let what = format!("{method} {path}");
            let uri = example_uri(&spec, path);
            let request = Request::builder().method(Method::from_bytes(method.as_bytes()).unwrap()).uri(uri);
            let reply =
                oneshot(router(&ServeConfig::default(), Readiness::default()), request.body(Body::empty()).unwrap())
                    .await;
            assert_eq!(reply.status, 405, "{what}: {}", String::from_utf8_lossy(&reply.body));
            let allow = reply.headers.get(header::ALLOW).unwrap_or_else(|| panic!("{what}: no Allow header"));
            let allow: BTreeSet<String> =
                allow.to_str().unwrap().split(',').map(|m| m.trim().to_owned()).filter(|m| !m.is_empty()).collect();
            assert_eq!(allow, expected_allow, "{what}: Allow does not name the documented methods");
            if method != "HEAD" {
                assert_matches_response(&spec, &what, not_allowed, &reply);
            }
        }
    }
}

#[tokio::test]
async fn an_undocumented_path_is_a_404_problem() {
    let spec = Spec::load();
    for path in ["/index.html", "/v1", "/v1/solver", "/v2/solve", "/openapi.json"] {
        assert!(!spec.paths().contains_key(path));
        let reply = oneshot(router(&ServeConfig::default(), Readiness::default()), Call::get(path).request()).await;
        assert_eq!(reply.status, 404, "GET {path}");
        assert_matches_response(&spec, &format!("GET {path}"), spec.component_response("NotFound"), &reply);
    }
}

#[test]
fn every_documented_status_has_an_example_or_an_explained_exemption() {
    let spec = Spec::load();
    let cases = cases();
    let exercised: BTreeSet<(String, String, u16)> =
        cases.iter().map(|case| (case.call.method.to_owned(), case.call.path.to_owned(), case.status)).collect();
    let mut missing = Vec::new();
    for operation in spec.operations().into_keys() {
        for status in spec.responses(&operation).into_keys() {
            let key = (operation.0.clone(), operation.1.clone(), status);
            let exempt = EXEMPT.iter().any(|&(m, p, s, _)| (m, p, s) == (&*key.0, &*key.1, key.2));
            if !exercised.contains(&key) && !exempt {
                missing.push(key);
            }
        }
    }
    assert!(missing.is_empty(), "documented statuses with no example in cases() and no entry in EXEMPT: {missing:?}");
    for &(method, path, status, reason) in EXEMPT {
        assert!(!reason.trim().is_empty());
        let operation = (method.to_owned(), path.to_owned());
        assert!(
            spec.responses(&operation).contains_key(&status),
            "stale exemption: {method} {path} {status} is not documented any more"
        );
        assert!(
            !exercised.contains(&(method.to_owned(), path.to_owned(), status)),
            "stale exemption: {method} {path} {status} has an example now; drop it from EXEMPT"
        );
    }
}

#[tokio::test]
async fn every_example_gets_its_documented_status_and_response() {
    let spec = Spec::load();
    for case in cases() {
        let operation = (case.call.method.to_owned(), case.call.path.to_owned());
        let what = format!("{} {} with {} ({:?})", operation.0, operation.1, case.what, case.setup);
        let responses = spec.responses(&operation);
        let response = responses.get(&case.status).unwrap_or_else(|| {
            panic!("{what}: the table expects {}, which the spec does not document for it", case.status)
        });
        let reply = run(&case).await;
        let body_text = String::from_utf8_lossy(&reply.body);
        assert_eq!(reply.status, case.status, "{what}: unexpected status; body: {body_text}");
        assert_matches_response(&spec, &what, response, &reply);
        if let Some(kind) = case.problem {
            assert_eq!(reply.headers[header::CONTENT_TYPE], "application/problem+json", "{what}");
            let problem: Value = serde_json::from_slice(&reply.body).unwrap();
            assert_eq!(problem["type"], format!("{PROBLEM_BASE}{kind}"), "{what}: {problem}");
            assert_eq!(problem["status"], case.status, "{what}: {problem}");
            assert_eq!(problem["instance"], case.call.instance(), "{what}: {problem}");
        }
        if case.call.path == "/openapi.yaml" && case.status == 200 {
            assert!(reply.body == SPEC_TEXT.as_bytes(), "{what}: not the repository's openapi.yaml byte for byte");
        }
    }
}

/// The examples of a media type object, by name: a lone `example` has none.
fn media_examples<'a>(spec: &'a Spec, media: &'a Value) -> Vec<(Option<&'a str>, &'a Value)> {
    let lone = media.get("example").map(|example| (None, example));
    let named = media.get("examples").and_then(Value::as_object).into_iter().flatten().map(|(name, example)| {
        let value = spec.resolve(example).get("value").unwrap_or_else(|| panic!("example {name} has no value"));
        (Some(name.as_str()), value)
    });
    lone.into_iter().chain(named).collect()
}

/// The answer the spec pairs with a request example of `operation`: the response example of the
/// same name, in whichever documented response and media type holds it, or for a lone `example`
/// the lone `example` of the success response of the same media type. With its status.
fn paired_answer<'a>(spec: &'a Spec, operation: &Operation, media_type: &str, name: Option<&str>) -> (u16, &'a Value) {
    let mut pairs = Vec::new();
    for (status, response) in spec.responses(operation) {
        for (answer_type, media) in response.get("content").and_then(Value::as_object).into_iter().flatten() {
            for (answer_name, answer) in media_examples(spec, media) {
                let lone_success = name.is_none() && (200..300).contains(&status) && answer_type == media_type;
                if answer_name == name && (name.is_some() || lone_success) {
                    pairs.push((status, answer));
                }
            }
        }
    }
    match pairs[..] {
        [pair] => pair,
        _ => panic!("{operation:?} {media_type} request example {name:?}: {} answers pair with it", pairs.len()),
    }
}

/// Every request example is sent to the router, which must answer exactly the example the spec
/// pairs with it (request ids aside): so no example can show an answer the server does not give.
#[tokio::test]
async fn every_request_example_gets_the_answer_the_spec_pairs_with_it() {
    let spec = Spec::load();
    let mut replayed = 0;
    for (operation, object) in spec.operations() {
        let Some(body) = object.get("requestBody").map(|body| spec.resolve(body)) else { continue };
        for (media_type, media) in body["content"].as_object().expect("request content") {
            for (name, example) in media_examples(&spec, media) {
                let what = format!("{} {} {media_type} request example {name:?}", operation.0, operation.1);
                let (status, expected) = paired_answer(&spec, &operation, media_type, name);
                let request = Request::builder()
                    .method(operation.0.as_str())
                    .uri(&operation.1)
                    .header(header::CONTENT_TYPE, media_type.as_str())
                    // An NDJSON example is one line.
                    .body(Body::from(format!("{example}\n")))
                    .unwrap();
                let reply = oneshot(router(&ServeConfig::default(), Readiness::default()), request).await;
                let text = String::from_utf8_lossy(&reply.body);
                assert_eq!(reply.status, status, "{what}: {text}");
                // An NDJSON answer's example is its first line, as its schema describes one line.
                let ndjson =
                    reply.headers.get(header::CONTENT_TYPE).is_some_and(|value| value == "application/x-ndjson");
                let text = if ndjson { text.lines().next().unwrap_or_default() } else { text.trim_end() };
                let mut answer: Value = serde_json::from_str(text)
                    .unwrap_or_else(|error| panic!("{what}: the answer is not one JSON value ({error}): {text}"));
                let mut expected = expected.clone();
                for value in [&mut answer, &mut expected] {
                    value.as_object_mut().map(|object| object.remove("request_id"));
                }
                assert!(
                    json_eq(&answer, &expected),
                    "{what}: the server answers\n{answer}\nbut the spec shows\n{expected}"
                );
                replayed += 1;
            }
        }
    }
    assert!(replayed >= 18, "only {replayed} request examples replayed; is the walk broken?");
}

#[test]
fn the_spec_lists_the_names_of_each_choice_as_the_code_does() {
    let spec = Spec::load();
    let names = |choices: Vec<String>| Value::from(choices);
    let schemas = &spec.document["components"]["schemas"];
    let levels = names(Level::ALL.iter().map(ToString::to_string).collect());
    let symmetries = names(Symmetry::ALL.iter().map(ToString::to_string).collect());
    let formats = names(Format::ALL.iter().map(ToString::to_string).collect());
    assert_eq!(schemas["Level"]["enum"], levels, "Level");
    assert_eq!(schemas["GenerateRequest"]["properties"]["symmetry"]["enum"], symmetries, "GenerateRequest.symmetry");
    assert_eq!(schemas["GenerateResponse"]["properties"]["symmetry"]["enum"], symmetries, "GenerateResponse.symmetry");
    assert_eq!(schemas["GenerateRequest"]["properties"]["format"]["enum"], formats, "GenerateRequest.format");
    let techniques: Vec<Value> =
        Technique::ALL.iter().map(|technique| serde_json::to_value(technique).expect("a name")).collect();
    assert_eq!(schemas["Technique"]["enum"], Value::from(techniques), "Technique");
    // The spec's description is the table of weights: each technique with its rating.
    let table = schemas["Technique"]["description"].as_str().expect("a description");
    let table = table.split_whitespace().collect::<Vec<_>>().join(" ");
    for technique in Technique::ALL {
        let entry = format!("{} {:.1}", technique.id(), technique.rating());
        assert!(table.contains(&entry), "the Technique description must say `{entry}`");
    }
    assert_eq!(schemas["Variant"]["enum"], names(Preset::ALL.iter().map(ToString::to_string).collect()), "Variant");
    let shared = names(SharedFormat::ALL.iter().map(ToString::to_string).collect());
    assert_eq!(schemas["SharedFormat"]["enum"], shared, "SharedFormat");
    let count = &schemas["GenerateBatchRequest"]["allOf"][1]["properties"]["count"];
    assert_eq!(count["maximum"], MAX_GENERATE_BATCH, "GenerateBatchRequest.count");
    let diagonals = names(Diagonals::ALL.iter().map(ToString::to_string).collect());
    assert_eq!(schemas["Constraints"]["properties"]["diagonals"]["enum"], diagonals, "Constraints.diagonals");
    let directions = names(Direction::ALL.iter().map(ToString::to_string).collect());
    let clue = &schemas["Constraints"]["properties"]["little_killers"]["items"]["properties"];
    assert_eq!(clue["direction"]["enum"], directions, "Constraints.little_killers[].direction");
    let ends = names(End::ALL.iter().map(ToString::to_string).collect());
    let sandwich = &schemas["Constraints"]["properties"]["sandwiches"]["items"]["properties"];
    assert_eq!(sandwich["from"]["enum"], ends, "Constraints.sandwiches[].from");
    let units = names(Unit::ALL.iter().map(|unit| unit.name().to_owned()).collect());
    assert_eq!(schemas["Conflict"]["properties"]["units"]["items"]["enum"], units, "Conflict.units");
    assert_eq!(schemas["Conflict"]["properties"]["units"]["maxItems"], Unit::ALL.len(), "Conflict.units");
    // Every member of the constraints, and nothing else (a new field fails to build
    // `every_constraint` until it is set there).
    let members: BTreeSet<&String> = schemas["Constraints"]["properties"].as_object().unwrap().keys().collect();
    let every = serde_json::to_value(every_constraint()).unwrap();
    assert_eq!(members, every.as_object().unwrap().keys().collect(), "Constraints");
}

/// Every request body's schema is closed (`additionalProperties: false`) and lists exactly the
/// members the code reads: the server refuses any other, so the spec must not offer one, nor
/// leave one out. The objects inside the constraints likewise.
#[test]
fn each_request_schema_lists_exactly_the_members_its_route_reads() {
    use sudokud::member::members;
    let spec = Spec::load();
    let schemas = &spec.document["components"]["schemas"];
    let constraints = &schemas["Constraints"]["properties"];
    let objects = [
        ("Constraints", &schemas["Constraints"], members::<Constraints>()),
        ("Constraints.cages[]", &constraints["cages"]["items"], members::<Cage>()),
        ("Constraints.kropki", &constraints["kropki"], members::<Kropki>()),
        ("Constraints.xv", &constraints["xv"], members::<Xv>()),
        ("Constraints.whispers[]", &constraints["whispers"]["items"], members::<Whispers>()),
        ("Constraints.arrows[]", &constraints["arrows"]["items"], members::<Arrow>()),
        ("Constraints.greater_than[]", &constraints["greater_than"]["items"], members::<GreaterThan>()),
        ("Constraints.quadruples[]", &constraints["quadruples"]["items"], members::<Quadruple>()),
        ("Constraints.little_killers[]", &constraints["little_killers"]["items"], members::<LittleKiller>()),
        ("Constraints.lockout_lines[]", &constraints["lockout_lines"]["items"], members::<LockoutLine>()),
        ("Constraints.sandwiches[]", &constraints["sandwiches"]["items"], members::<Sandwich>()),
        ("Constraints.x_sums[]", &constraints["x_sums"]["items"], members::<XSum>()),
        ("Constraints.relations[]", &constraints["relations"]["items"], members::<CustomRelation>()),
    ];
    let requests = sudokud::http::request_members();
    let requests = requests.iter().map(|&(name, members)| (name, &schemas[name], members));
    for (name, schema, members) in requests.chain(objects) {
        assert_eq!(schema["additionalProperties"], false, "{name} must be closed");
        let listed: BTreeSet<&str> = schema["properties"].as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(listed, members.iter().copied().collect(), "{name}");
    }
}

/// Constraints with every member set, so that all of them are written out.
fn every_constraint() -> Constraints {
    let place = Place(0, 0);
    Constraints {
        diagonals: Some(Diagonals::Both),
        extra_regions: vec![vec![place]],
        regions: Some(Regions::Line(String::new())),
        disjoint_groups: true,
        cages: vec![Cage { cells: vec![place], sum: None }],
        anti_knight: true,
        anti_king: true,
        non_consecutive: true,
        thermometers: vec![vec![place]],
        kropki: Kropki { white: vec![[place, place]], black: Vec::new(), all_given: false },
        xv: Xv { x: vec![[place, place]], v: Vec::new(), all_given: false },
        whispers: vec![Whispers { line: vec![place, place], difference: Some(1) }],
        palindromes: vec![vec![place, place]],
        renbans: vec![vec![place, place]],
        arrows: vec![Arrow { bulb: vec![place], line: vec![place] }],
        little_killers: vec![LittleKiller { sum: 1, start: place, direction: Direction::DownRight }],
        between_lines: vec![vec![place, place, place]],
        modular_lines: vec![vec![place, place]],
        entropic_lines: vec![vec![place, place, place]],
        greater_than: vec![GreaterThan { greater: place, less: place }],
        quadruples: vec![Quadruple { top_left: place, digits: vec![1] }],
        sandwiches: vec![Sandwich { sum: 0, row: Some(0), column: None, from: End::End }],
        x_sums: vec![XSum { sum: 1, row: None, column: Some(0), from: End::End }],
        even: vec![place],
        odd: vec![place],
        lockout_lines: vec![LockoutLine { line: vec![place, place], difference: Some(4) }],
        global_entropy: true,
        global_mod: true,
        anti_taxicab: true,
        relations: vec![CustomRelation {
            cells: vec![place, place],
            between: Between::EveryTwo,
            allowed: vec![DigitPair(1, 2)],
            name: Some("up".to_owned()),
        }],
    }
}

/// `DrawingTitle`'s pattern admits exactly the characters the built-in font draws: every code
/// point up to U+2FFF is checked both ways.
#[test]
fn the_title_pattern_is_the_fonts_characters() {
    let spec = Spec::load();
    let schema = spec.target("#/components/schemas/DrawingTitle");
    let validator = jsonschema::options().with_draft(jsonschema::Draft::Draft202012).build(schema).unwrap();
    let mut drawn = 0;
    for ch in (0..0x3000).filter_map(char::from_u32) {
        let title = ch.to_string();
        let font_has = sudokud::render::check_title(&title).is_ok();
        assert_eq!(validator.is_valid(&json!(title)), font_has, "U+{:04X} {ch:?}", u32::from(ch));
        drawn += usize::from(font_has);
    }
    assert!(drawn > 300, "only {drawn} characters drawn");
}

#[test]
fn the_spec_examples_match_their_schemas() {
    let spec = Spec::load();
    let mut checked = 0;
    let mut check = |what: String, schema: &Value, value: &Value| {
        let errors = spec.errors(schema, value);
        assert!(errors.is_empty(), "{what}: the example does not match its schema: {errors:?}");
        checked += 1;
    };
    let check_media = |what: &str, media: &Value, check: &mut dyn FnMut(String, &Value, &Value)| {
        let Some(schema) = media.get("schema") else { return };
        if let Some(example) = media.get("example") {
            check(format!("{what} example"), schema, example);
        }
        for (name, example) in media.get("examples").and_then(Value::as_object).into_iter().flatten() {
            let example = spec.resolve(example);
            if let Some(value) = example.get("value") {
                check(format!("{what} example {name}"), schema, value);
            }
        }
    };
    for ((method, path), operation) in spec.operations() {
        let body = operation.get("requestBody").map(|body| spec.resolve(body));
        for (media_type, media) in body.and_then(|body| body["content"].as_object()).into_iter().flatten() {
            check_media(&format!("{method} {path} request {media_type}"), media, &mut check);
        }
        for (status, response) in spec.responses(&(method.clone(), path.clone())) {
            for (media_type, media) in response.get("content").and_then(Value::as_object).into_iter().flatten() {
                check_media(&format!("{method} {path} {status} {media_type}"), media, &mut check);
            }
        }
    }
    for (name, schema) in spec.document["components"]["schemas"].as_object().expect("component schemas") {
        for example in schema.get("examples").and_then(Value::as_array).into_iter().flatten() {
            check(format!("schema {name}"), schema, example);
        }
    }
    assert!(checked > 20, "only {checked} examples found; is the walk broken?");
}

/// The schemas can fail: each keyword the spec leans on (required, types, patterns, formats,
/// bounds, `oneOf`, `const`...) rejects a value that breaks it, so the checks above cannot pass
/// because nothing is checked.
#[test]
fn the_schemas_reject_what_they_should() {
    let spec = Spec::load();
    let schema = |name: &str| json!({ "$ref": format!("#/components/schemas/{name}") });
    let problem = |kind: &str, title: &str, status: u16| {
        let kind = format!("{PROBLEM_BASE}{kind}");
        json!({ "type": kind, "title": title, "status": status, "detail": "d" })
    };
    let with = |mut body: Value, member: &str, value: Value| {
        body[member] = value;
        body
    };
    let invalid_board = |pointer: &str| with(problem("invalid-board", "Invalid board", 422), "pointer", json!(pointer));
    let in_batch = |pointer: &str| with(invalid_board(pointer), "index", json!(3));
    let conflict = json!({ "row": 0, "col": 0, "digit": 1, "units": ["row"] });
    let invalid = [
        ("SolveResponse", json!({ "unique": true })),
        ("SolveResponse", json!({ "solution": &SOLUTION[1..], "unique": true })),
        ("SolveResponse", json!({ "solution": SOLUTION, "unique": true, "extra": 1 })),
        ("SolveResponse", json!({ "solution": rows_of_numbers(PUZZLE), "unique": true })),
        ("Validation", json!({ "valid": true, "complete": false, "conflicts": [conflict] })),
        ("Validation", json!({ "valid": false, "complete": false, "conflicts": [] })),
        ("Conflict", json!({ "row": 25, "col": 0, "digit": 1, "units": ["row"] })),
        ("Conflict", json!({ "row": 0, "col": 0, "digit": 26, "units": ["row"] })),
        ("Conflict", json!({ "row": 0, "col": 0, "digit": 1, "units": ["row", "row"] })),
        ("Health", json!({ "status": "ok" })),
        ("InvalidBoardProblem", invalid_board("/board/25")),
        ("InvalidBoardProblem", invalid_board("/boxes")),
        ("BoardRequest", json!({ "board": PUZZLE, "box": "6x1" })),
        ("BoardRequest", json!({ "board": ".".repeat(50) })),
        ("SolveResponse", json!({ "solution": "1234341221434320", "unique": true })),
        ("InvalidBoardProblem", problem("invalid-board", "Invalid board", 422)),
        ("MalformedJsonProblem", problem("internal", "Malformed JSON", 400)),
        ("MalformedJsonProblem", problem("malformed-json", "Malformed JSON", 422)),
        ("BoardRequest", json!({ "board": format!("{PUZZLE}1") })),
        ("BoardRequest", json!({ "board": PUZZLE, "other": 1 })),
        ("BoardRequest", json!({ "board": PUZZLE, "givens": PUZZLE })),
        ("CountRequest", json!({ "board": PUZZLE, "diagonals": "both" })),
        ("GenerateRequest", json!({ "difficulty": "easy", "varient": "x" })),
        ("BatchItemProblem", in_batch("/boards/x/0")),
        ("BatchItemProblem", invalid_board("/boards/3/8/0")),
        ("Problem", with(invalid_board(""), "type", json!("invalid-board"))),
        ("Problem", with(invalid_board(""), "instance", json!("/v1/so lve"))),
    ];
    for (name, value) in invalid {
        assert!(!spec.errors(&schema(name), &value).is_empty(), "{name} should reject {value}");
    }
    let valid = [
        ("SolveResponse", json!({ "solution": SOLUTION, "unique": true })),
        ("SolveResponse", json!({ "solution": rows_of_strings(SOLUTION), "unique": false })),
        ("InvalidBoardProblem", invalid_board("")),
        ("InvalidBoardProblem", invalid_board("/board/8/0")),
        ("InvalidBoardProblem", invalid_board("/board/24/15")),
        ("InvalidBoardProblem", invalid_board("/box")),
        ("BoardRequest", json!({ "board": ".".repeat(625), "box": "5x5" })),
        ("SolveResponse", json!({ "solution": "1234341221434321", "unique": true })),
        ("BatchItemProblem", in_batch("/boards/3/board/8/0")),
        ("BatchItemProblem", in_batch("/boards/3/box")),
        ("MalformedJsonProblem", problem("malformed-json", "Malformed JSON", 400)),
        ("BoardRequest", json!({ "board": format!(" {PUZZLE}\n"), "box": "3x3" })),
        ("BatchItemProblem", in_batch("/boards/3/8/0")),
        ("Problem", with(invalid_board(""), "instance", json!("/v1/solve"))),
    ];
    for (name, value) in valid {
        let errors = spec.errors(&schema(name), &value);
        assert!(errors.is_empty(), "{name} should accept {value}: {errors:?}");
    }
}
