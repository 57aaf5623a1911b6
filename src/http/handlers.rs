//! Route handlers: read the request, call the core, write the answer.

use axum::Json;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderValue, Uri, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Deserializer, Serialize};

use super::extract::{JsonBody, JsonObject, sole_string_member};
use super::{ApiError, AppState};
use crate::board::{Format, FormattedGrid, JsonBoard};
use crate::exchange::{self, SharedFormat, SharedPuzzle};
use crate::member::{self, Object, object_traits};
use crate::metrics::Work;
use crate::puzzle::Puzzle;
use crate::rules::{Conflict, Validation};
use crate::sizes::{AnyGrid, JsonMarks, Marks, NotFromGivens, Shape, check_givens};
use crate::solver::{Progress, Unanswerable, Verdict};
use crate::variants::{Constraints, Preset};

/// The repository's OpenAPI document, served byte for byte.
const OPENAPI_YAML: &str = include_str!("../../openapi.yaml");

/// The body of `/v1/solve`, `/v1/validate`, `/v1/candidates` and each board of
/// `/v1/solve/batch`. A member it does not have is refused, naming it ([`member::Object`]).
#[derive(Deserialize)]
#[serde(remote = "Self")]
pub(super) struct BoardRequest {
    #[serde(default)]
    pub board: JsonBoard,
    /// The box shape, `"2x3"`, where the board's size has several; absent, the size's default.
    #[serde(default, rename = "box")]
    pub shape: Option<Shape>,
    /// A variant by name, shorthand for its constraints.
    #[serde(default)]
    pub variant: Option<Preset>,
    /// A variant's constraints, combined with the preset's.
    #[serde(default)]
    pub constraints: Option<Constraints>,
    /// The board and its rules as another tool shares them, in place of the members above.
    #[serde(default)]
    pub puzzle: Option<String>,
}

impl Object for BoardRequest {
    fn read_members<'de, D: Deserializer<'de>>(deserializer: D) -> Result<BoardRequest, D::Error> {
        BoardRequest::deserialize(deserializer)
    }

    fn belongs(member: &str) -> Option<String> {
        if member::members::<PlayerRequest>().contains(&member) {
            return Some("in a body of `/v1/rate`, `/v1/hint` or `/v1/explain`, which read it".to_owned());
        }
        Constraints::home_of(member)
    }
}

object_traits!(BoardRequest);

impl JsonObject for BoardRequest {
    /// `{"board":"53..7..."}`, a board in text and nothing else.
    fn read_plain(bytes: &[u8]) -> Option<BoardRequest> {
        let board = JsonBoard::text(sole_string_member(bytes, "board")?);
        Some(BoardRequest { board, shape: None, variant: None, constraints: None, puzzle: None })
    }
}

impl BoardRequest {
    /// The board of any size under its rules, and its representation: from `board` and the
    /// members beside it, or from a shared `puzzle` (answered in the text form), never both.
    pub(super) fn puzzle(self) -> Result<(Puzzle, Format), ApiError> {
        let BoardRequest { board, shape, variant, constraints, puzzle } = self;
        let Some(shared) = puzzle else {
            let (grid, format) = board.with_box(shape)?;
            // A 422 that names the member and the cell.
            let puzzle = Puzzle::new(grid, variant, &constraints.unwrap_or_default())
                .map_err(|error| ApiError::InvalidRequest(error.to_string()))?;
            return Ok((puzzle, format));
        };
        let beside = [
            (!board.is_missing(), "`board`"),
            (shape.is_some(), "`box`"),
            (variant.is_some(), "`variant`"),
            (constraints.is_some(), "`constraints`"),
        ];
        let beside: Vec<&str> = beside.into_iter().filter_map(|(given, member)| given.then_some(member)).collect();
        if !beside.is_empty() {
            return Err(ApiError::InvalidRequest(format!(
                "`puzzle` holds the board and its rules: send it without {}",
                beside.join(" and ")
            )));
        }
        let invalid = |error: &dyn std::fmt::Display| ApiError::InvalidRequest(format!("`puzzle`: {error}"));
        let shared = exchange::read(&shared).map_err(|error| invalid(&error))?;
        Ok((Puzzle::from_shared(shared).map_err(|error| invalid(&error))?, Format::Text))
    }
}

/// The body of `/v1/rate`, `/v1/hint` and `/v1/explain`: a [`BoardRequest`]'s members, and the
/// player's pencil marks and the givens.
#[derive(Deserialize)]
#[serde(remote = "Self")]
pub(super) struct PlayerRequest {
    #[serde(default)]
    pub board: JsonBoard,
    #[serde(default, rename = "box")]
    pub shape: Option<Shape>,
    #[serde(default)]
    pub variant: Option<Preset>,
    #[serde(default)]
    pub constraints: Option<Constraints>,
    #[serde(default)]
    pub puzzle: Option<String>,
    /// A player's pencil marks, which rate, hint and explain start from.
    #[serde(default)]
    pub candidates: Option<JsonMarks>,
    /// The puzzle as first given, when `board` holds the player's entries too: rate, hint and
    /// explain then point out entries the solution does not have.
    #[serde(default)]
    pub givens: Option<JsonBoard>,
}

impl Object for PlayerRequest {
    fn read_members<'de, D: Deserializer<'de>>(deserializer: D) -> Result<PlayerRequest, D::Error> {
        PlayerRequest::deserialize(deserializer)
    }

    fn belongs(member: &str) -> Option<String> {
        Constraints::home_of(member)
    }
}

object_traits!(PlayerRequest);

impl JsonObject for PlayerRequest {
    /// `{"board":"53..7..."}`, as [`BoardRequest`] reads it.
    fn read_plain(bytes: &[u8]) -> Option<PlayerRequest> {
        let BoardRequest { board, .. } = BoardRequest::read_plain(bytes)?;
        Some(PlayerRequest {
            board,
            shape: None,
            variant: None,
            constraints: None,
            puzzle: None,
            candidates: None,
            givens: None,
        })
    }
}

impl PlayerRequest {
    /// The puzzle as [`BoardRequest::puzzle`] reads it, and the player's pencil marks and the
    /// givens if sent, checked against the board.
    pub(super) fn player(self) -> Result<(Puzzle, Format, Option<Marks>, Option<AnyGrid>), ApiError> {
        let PlayerRequest { board, shape, variant, constraints, puzzle, candidates, givens } = self;
        let (puzzle, format) = BoardRequest { board, shape, variant, constraints, puzzle }.puzzle()?;
        let invalid = |error: &dyn std::fmt::Display| ApiError::InvalidRequest(format!("`givens`: {error}"));
        let givens = match givens {
            Some(givens) => {
                let (givens, _) = givens.with_box(shape).map_err(|error| invalid(&error))?;
                check_givens(&puzzle.grid(), &givens).map_err(|error| match error {
                    NotFromGivens::Shape { givens, board } => invalid(&shapes_differ(givens, board)),
                    error => invalid(&error),
                })?;
                Some(givens)
            }
            None => None,
        };
        let marks = candidates
            .map(|candidates| candidates.for_grid(&puzzle.grid()))
            .transpose()
            .map_err(|error| ApiError::InvalidRequest(format!("`candidates`: {error}")))?;
        Ok((puzzle, format, marks, givens))
    }
}

/// Why the givens are not of the board's shape: their sizes (`the givens are a 4x4 grid, the
/// board a 9x9 one`), or their boxes when the sizes agree. [`NotFromGivens`]'s own words name
/// only the boxes (`a 2x2 grid`), which reads as a grid's size.
fn shapes_differ(givens: Shape, board: Shape) -> String {
    let (size, board_size) = (givens.size(), board.size());
    if size == board_size {
        format!("the givens' boxes are {givens}, the board's {board}")
    } else {
        format!("the givens are a {size}x{size} grid, the board a {board_size}x{board_size} one")
    }
}

#[derive(Serialize)]
pub(super) struct SolveResponse {
    solution: FormattedGrid,
    unique: bool,
}

impl SolveResponse {
    /// The JSON the derived `Serialize` writes (a test holds the two to the same bytes), written
    /// straight: the answer of every solve, alone or in a batch, a grid of symbols that need no
    /// escaping.
    pub(super) fn write_json(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"solution\":");
        self.solution.write_json(out);
        out.extend_from_slice(if self.unique { b",\"unique\":true}" } else { b",\"unique\":false}" });
    }

    /// About how many bytes [`SolveResponse::write_json`] writes.
    fn json_len(&self) -> usize {
        self.solution.grid.cells().len() * 4 + 64
    }
}

impl IntoResponse for SolveResponse {
    fn into_response(self) -> Response {
        let mut body = Vec::with_capacity(self.json_len());
        self.write_json(&mut body);
        json_response(Body::from(body))
    }
}

/// An answer of `body`, JSON, with nothing else to say.
pub(super) fn json_response(body: Body) -> Response {
    let mut response = Response::new(body);
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// `POST /v1/solve`: the solution in the request's representation, and whether it is unique.
pub(super) async fn solve(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<BoardRequest>,
) -> Result<SolveResponse, ApiError> {
    let (puzzle, format) = request.puzzle()?;
    // The job must end in `Interrupted` when its deadline stops it, so that an inline try the
    // budget stopped is handed to the pool rather than answered as a timeout; the pool's run
    // goes on from where the try paused.
    let mut progress = Progress::default();
    let verdict = state
        .pool
        .run_inline_first(Work::Solve, move |deadline, _| puzzle.classify_from(&mut progress, deadline))
        .await?;
    solved(verdict, format)
}

/// The answer to a solve, from the puzzle's verdict.
pub(super) fn solved(verdict: Verdict<AnyGrid, Conflict>, format: Format) -> Result<SolveResponse, ApiError> {
    let (solution, unique) = verdict.solved()?;
    Ok(SolveResponse { solution: FormattedGrid { grid: solution, format }, unique })
}

/// `POST /v1/validate`: conflicts and completeness. Cheap enough to run inline.
pub(super) async fn validate(JsonBody(request): JsonBody<BoardRequest>) -> Result<Json<Validation>, ApiError> {
    let (puzzle, _) = request.puzzle()?;
    Ok(Json(puzzle.validate()))
}

#[derive(Serialize)]
pub(super) struct CandidatesResponse {
    /// N rows of N arrays: the values possible in each cell, empty for a filled one.
    candidates: Marks,
    /// The same marks as one line of N x N x N characters, a filled cell as its value alone.
    pencil_marks: String,
}

/// `POST /v1/candidates`: the pencil marks of every blank cell after the basic eliminations.
/// Cheap enough to run inline.
pub(super) async fn candidates(
    JsonBody(request): JsonBody<BoardRequest>,
) -> Result<Json<CandidatesResponse>, ApiError> {
    let (puzzle, _) = request.puzzle()?;
    let candidates = puzzle.candidates();
    let pencil_marks = candidates.to_line(&puzzle.grid());
    Ok(Json(CandidatesResponse { candidates, pencil_marks }))
}

/// The body of `/v1/export`: a [`BoardRequest`]'s members, and the format to write the puzzle in.
#[derive(Deserialize)]
#[serde(remote = "Self")]
pub(super) struct ExportRequest {
    #[serde(default)]
    board: JsonBoard,
    #[serde(default, rename = "box")]
    shape: Option<Shape>,
    #[serde(default)]
    variant: Option<Preset>,
    #[serde(default)]
    constraints: Option<Constraints>,
    #[serde(default)]
    puzzle: Option<String>,
    #[serde(default)]
    format: Option<SharedFormat>,
}

impl Object for ExportRequest {
    fn read_members<'de, D: Deserializer<'de>>(deserializer: D) -> Result<ExportRequest, D::Error> {
        ExportRequest::deserialize(deserializer)
    }

    fn belongs(member: &str) -> Option<String> {
        Constraints::home_of(member)
    }
}

object_traits!(ExportRequest);

impl JsonObject for ExportRequest {}

#[derive(Serialize)]
pub(super) struct ExportResponse {
    format: SharedFormat,
    /// The puzzle in the format.
    puzzle: String,
    /// A link that opens it in the format's tool.
    link: String,
}

/// `POST /v1/export`: the puzzle as another tool shares it, with the link that opens it there.
/// Cheap enough to run inline.
pub(super) async fn export(JsonBody(request): JsonBody<ExportRequest>) -> Result<Json<ExportResponse>, ApiError> {
    let ExportRequest { board, shape, variant, constraints, puzzle, format } = request;
    let format = format.ok_or_else(|| {
        ApiError::InvalidRequest(format!("`format` is missing: {}", member::one_of::<SharedFormat>()))
    })?;
    let (puzzle, _) = BoardRequest { board, shape, variant, constraints, puzzle }.puzzle()?;
    let written = exchange::write(&puzzle.to_shared(), format)
        .map_err(|error| ApiError::InvalidRequest(format!("`format`: {error}")))?;
    Ok(Json(ExportResponse { format, puzzle: written.text, link: written.link }))
}

/// The body of `/v1/import`: a shared puzzle alone.
#[derive(Deserialize)]
#[serde(remote = "Self")]
pub(super) struct ImportRequest {
    #[serde(default)]
    puzzle: Option<String>,
}

impl Object for ImportRequest {
    fn read_members<'de, D: Deserializer<'de>>(deserializer: D) -> Result<ImportRequest, D::Error> {
        ImportRequest::deserialize(deserializer)
    }

    fn belongs(member: &str) -> Option<String> {
        Constraints::home_of(member)
    }
}

object_traits!(ImportRequest);

impl JsonObject for ImportRequest {}

/// A shared puzzle in sudokud's own members, a request body of every board route as it is.
#[derive(Serialize)]
pub(super) struct ImportResponse {
    board: FormattedGrid,
    #[serde(rename = "box")]
    shape: Shape,
    /// Absent for classic rules.
    #[serde(skip_serializing_if = "Constraints::is_empty")]
    constraints: Constraints,
}

/// `POST /v1/import`: a puzzle another tool shares, as sudokud's board, box and constraints, for a
/// client that edits or draws them (the playground loads a pasted link so). Cheap: inline.
pub(super) async fn import(JsonBody(request): JsonBody<ImportRequest>) -> Result<Json<ImportResponse>, ApiError> {
    let shared = request.puzzle.ok_or_else(|| {
        ApiError::InvalidRequest(
            "`puzzle` is missing: a puzzle as another tool shares it (a link, f-puzzles data or an ISS string)"
                .to_owned(),
        )
    })?;
    let board = BoardRequest {
        board: JsonBoard::default(),
        shape: None,
        variant: None,
        constraints: None,
        puzzle: Some(shared),
    };
    let (puzzle, format) = board.puzzle()?;
    let SharedPuzzle { givens, constraints } = puzzle.to_shared();
    let board = FormattedGrid { grid: AnyGrid::from(givens), format };
    Ok(Json(ImportResponse { board, shape: puzzle.shape(), constraints }))
}

/// The body of `/v1/count`.
#[derive(Deserialize)]
#[serde(remote = "Self")]
pub(super) struct CountRequest {
    #[serde(default)]
    board: JsonBoard,
    #[serde(default, rename = "box")]
    shape: Option<Shape>,
    #[serde(default)]
    variant: Option<Preset>,
    #[serde(default)]
    constraints: Option<Constraints>,
    #[serde(default)]
    puzzle: Option<String>,
    /// Stop counting here; lowered to the configured maximum.
    #[serde(default, deserialize_with = "member::optional_integer")]
    limit: Option<u64>,
}

impl Object for CountRequest {
    fn read_members<'de, D: Deserializer<'de>>(deserializer: D) -> Result<CountRequest, D::Error> {
        CountRequest::deserialize(deserializer)
    }

    fn belongs(member: &str) -> Option<String> {
        Constraints::home_of(member)
    }
}

object_traits!(CountRequest);

impl JsonObject for CountRequest {}

/// Solutions are counted up to this when the request names no limit: enough to tell "a few"
/// from "many" at well under a millisecond.
const DEFAULT_COUNT_LIMIT: usize = 1000;

#[derive(Serialize)]
pub(super) struct CountResponse {
    solutions: usize,
    /// The limit the count ran with, after the configured maximum.
    limit: usize,
    /// The count stopped at `limit`: there may be more solutions.
    limit_reached: bool,
}

/// `POST /v1/count`: how many solutions the board has, up to a limit.
pub(super) async fn count(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<CountRequest>,
) -> Result<Json<CountResponse>, ApiError> {
    let CountRequest { board, shape, variant, constraints, puzzle, limit } = request;
    let (puzzle, _) = BoardRequest { board, shape, variant, constraints, puzzle }.puzzle()?;
    let limit = match limit {
        Some(0) => return Err(ApiError::InvalidRequest("`limit`: found 0; expected at least 1".to_owned())),
        Some(limit) => usize::try_from(limit).unwrap_or(usize::MAX).min(state.max_count_limit),
        None => DEFAULT_COUNT_LIMIT.min(state.max_count_limit),
    };
    let mut progress = Progress::default();
    let count = state
        .pool
        .run_inline_first(Work::Count, move |deadline, _| puzzle.count_from(limit, &mut progress, deadline))
        .await?;
    let solutions = count.map_err(Unanswerable::Conflicting)?;
    Ok(Json(CountResponse { solutions, limit, limit_reached: solutions == limit }))
}

/// The body of every `GET /healthz` answer, the same for the life of the process: a static
/// body, rather than one serialized and allocated for each of the probes that poll it.
const HEALTH: &str = concat!(r#"{"status":"ok","version":""#, env!("CARGO_PKG_VERSION"), r#""}"#);

/// `GET /healthz`: liveness. Answers as long as the process serves HTTP at all.
pub(super) async fn healthz() -> Response {
    json_response(Body::from(HEALTH))
}

#[derive(Serialize)]
pub(super) struct Ready {
    status: &'static str,
}

/// `GET /readyz`: 200 while taking traffic, 503 once shutdown has begun.
pub(super) async fn readyz(State(state): State<AppState>) -> Result<Json<Ready>, ApiError> {
    if state.readiness.is_ready() { Ok(Json(Ready { status: "ready" })) } else { Err(ApiError::ShuttingDown) }
}

/// `GET /metrics`: Prometheus text format.
pub(super) async fn metrics() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], crate::metrics::render())
}

/// `GET /openapi.yaml`.
pub(super) async fn openapi() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/yaml")], OPENAPI_YAML)
}

/// Any path without a route.
pub(super) async fn not_found(uri: Uri) -> ApiError {
    ApiError::NotFound(uri.path().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_solve_s_answer_is_what_serde_json_writes() {
        let grid = crate::sizes::AnyGrid::parse(crate::board::EXAMPLE_SOLUTION, None).unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        for format in Format::ALL {
            for unique in [true, false] {
                let answer = SolveResponse { solution: FormattedGrid { grid: grid.clone(), format }, unique };
                let expected = serde_json::to_vec(&answer).unwrap();
                let response = answer.into_response();
                assert_eq!(response.headers()[header::CONTENT_TYPE], "application/json");
                let body = runtime.block_on(axum::body::to_bytes(response.into_body(), 4096)).unwrap();
                assert_eq!(body, expected);
            }
        }
    }

    #[test]
    fn the_health_body_is_json_with_the_status_and_the_crate_s_version() {
        let health: serde_json::Value = serde_json::from_str(HEALTH).unwrap();
        assert_eq!(health, serde_json::json!({"status": "ok", "version": env!("CARGO_PKG_VERSION")}));
    }

    /// The shortcut for `{"board":"..."}` against serde_json on bodies near that form: where it
    /// reads a body, serde reads the same request from it; and it reads every body of exactly
    /// that form, so solves do take it.
    mod plain_body {
        use super::*;
        use proptest::prelude::*;

        /// JSON's whitespace, and a form feed, which is not.
        const SPACES: [&str; 6] = ["", " ", "\t\n", "\r\n  ", "\n", "\x0c"];
        /// Members a body might name; only the first is the shortcut's.
        const NAMES: [&str; 5] = ["board", "Board", " board", "board ", "givens"];
        /// Pieces of a board string: cells, and what a plain string may not hold.
        const PIECES: [&str; 10] = ["53..7....6", "0", ".", "\\n", "\\\"", "\"", "\t", "\u{1}", "é", "\\u0035"];
        /// What may come between the string and the closing brace.
        const TAILS: [&str; 5] = ["", ",\"box\":\"3x3\"", "]", ",", "\"x\""];

        fn body() -> impl Strategy<Value = (Vec<u8>, bool)> {
            let space = || proptest::sample::select(&SPACES[..]);
            (
                proptest::collection::vec(space(), 6),
                proptest::sample::select(&NAMES[..]),
                proptest::collection::vec(proptest::sample::select(&PIECES[..]), 0..12),
                proptest::sample::select(&TAILS[..]),
                any::<bool>(),
            )
                .prop_map(|(spaces, name, pieces, tail, closed)| {
                    let value = pieces.concat();
                    let text = format!(
                        "{}{{{}\"{name}\"{}:{}\"{value}\"{tail}{}{}{}",
                        spaces[0],
                        spaces[1],
                        spaces[2],
                        spaces[3],
                        spaces[4],
                        if closed { "}" } else { "" },
                        spaces[5]
                    );
                    // The one form the shortcut is for: nothing to escape, nothing more.
                    let plain = name == "board"
                        && tail.is_empty()
                        && closed
                        && !spaces.contains(&"\x0c")
                        && value.bytes().all(|byte| byte >= b' ' && byte != b'"' && byte != b'\\');
                    (text.into_bytes(), plain)
                })
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(2000))]
            #[test]
            fn reads_what_serde_reads((bytes, plain) in body()) {
                let shortcut = BoardRequest::read_plain(&bytes);
                prop_assert_eq!(shortcut.is_some(), plain, "{}", String::from_utf8_lossy(&bytes));
                if let Some(request) = shortcut {
                    let serde: BoardRequest = serde_json::from_slice(&bytes).unwrap();
                    prop_assert_eq!(&request.board, &serde.board);
                    prop_assert!(serde.shape.is_none() && serde.variant.is_none() && serde.constraints.is_none());
                    let player: PlayerRequest = serde_json::from_slice(&bytes).unwrap();
                    prop_assert_eq!(PlayerRequest::read_plain(&bytes).map(|request| request.board), Some(player.board));
                }
            }
        }

        #[test]
        fn a_string_that_is_not_utf8_is_left_to_serde() {
            assert!(BoardRequest::read_plain(b"{\"board\":\"53\xff\"}").is_none());
            assert!(BoardRequest::read_plain(b"{\"board\":\"53\"}").is_some());
        }
    }
}
