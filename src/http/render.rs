//! `POST /v1/render` and `POST /v1/booklet`: puzzles drawn as SVG, PNG or PDF. The drawing is
//! [`crate::render`]'s; here requests are read and checked, and the solving, generating and
//! drawing run on the solver pool (a large PNG or a booklet takes milliseconds).

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use futures_util::{StreamExt, TryStreamExt, stream};
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;

use super::extract::{JsonBody, JsonObject, parse_value};
use super::handlers::BoardRequest;
use super::logic::offered_variant;
use super::{ApiError, AppState};
use crate::board::JsonBoard;
use crate::generate::{self, Symmetry};
use crate::logic::Level;
use crate::member::{self, Object, object_traits};
use crate::metrics::Work;
use crate::pool::PoolError;
use crate::puzzle::Puzzle;
use crate::puzzle_id::PuzzleId;
use crate::render::booklet::MAX_PUZZLES;
use crate::render::{self, Booklet, BookletPuzzle, Figure, ImageFormat, Paper, PerPage};
use crate::rules::Unit;
use crate::sizes::{AnyGrid, JsonMarks, Shape, ShapeError, check_givens};
use crate::solver::Interrupted;
use crate::variants::{Constraints, Preset};

/// A member that is either `true` (the service works it out) or the caller's own value.
#[derive(Deserialize)]
#[serde(untagged)]
enum Shown<T> {
    Computed(bool),
    Given(T),
}

/// The body of `/v1/render`. A member it does not have is refused, naming it
/// ([`member::Object`]).
#[derive(Deserialize)]
#[serde(remote = "Self")]
pub(super) struct RenderRequest {
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
    #[serde(default = "svg")]
    format: ImageFormat,
    /// Pixels, for SVG and PNG.
    #[serde(default, deserialize_with = "member::optional_integer")]
    width: Option<u64>,
    /// The sheet a PDF is drawn on.
    #[serde(default = "a4")]
    paper: Paper,
    /// `true`: the solution drawn in red in the blank cells; or the caller's solution.
    #[serde(default)]
    solution: Option<Shown<JsonBoard>>,
    /// `true`: the basic candidates of every blank cell; or the player's pencil marks.
    #[serde(default)]
    candidates: Option<Shown<JsonMarks>>,
    #[serde(default)]
    title: Option<String>,
}

impl Object for RenderRequest {
    fn read_members<'de, D: Deserializer<'de>>(deserializer: D) -> Result<RenderRequest, D::Error> {
        RenderRequest::deserialize(deserializer)
    }

    fn belongs(member: &str) -> Option<String> {
        Constraints::home_of(member)
    }
}

object_traits!(RenderRequest);

impl JsonObject for RenderRequest {}

fn svg() -> ImageFormat {
    ImageFormat::Svg
}

fn a4() -> Paper {
    Paper::A4
}

/// A title a drawing can show (422 naming the member otherwise).
fn checked_title(title: Option<String>) -> Result<Option<String>, ApiError> {
    if let Some(title) = &title {
        render::check_title(title).map_err(|error| ApiError::InvalidRequest(format!("`title`: {error}")))?;
    }
    Ok(title)
}

/// The answer of a drawing: its bytes as their media type, a PDF with the name to save it as.
fn drawing(format: ImageFormat, bytes: Vec<u8>, file_name: &str) -> Response {
    let disposition = format!("inline; filename=\"{file_name}.{format}\"");
    ([(header::CONTENT_TYPE, format.media_type().to_owned()), (header::CONTENT_DISPOSITION, disposition)], bytes)
        .into_response()
}

/// `POST /v1/render`: one puzzle drawn, with its solution or pencil marks if asked.
pub(super) async fn render(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<RenderRequest>,
) -> Result<Response, ApiError> {
    let RenderRequest { board, shape, variant, constraints, puzzle, format, width, paper, solution, candidates, title } =
        request;
    let width = match width {
        None => render::DEFAULT_WIDTH,
        Some(width) => u32::try_from(width).ok().filter(|width| render::WIDTHS.contains(width)).ok_or_else(|| {
            let (low, high) = (render::WIDTHS.start(), render::WIDTHS.end());
            ApiError::InvalidRequest(format!("`width`: {width} pixels; expected {low} to {high}"))
        })?,
    };
    let title = checked_title(title)?;
    let (puzzle, _) = BoardRequest { board, shape, variant, constraints, puzzle }.puzzle()?;
    let solve = matches!(solution, Some(Shown::Computed(true)));
    let given_solution = match solution {
        Some(Shown::Given(solution)) => Some(check_solution(&puzzle, solution, shape)?),
        _ => None,
    };
    let basic_marks = matches!(candidates, Some(Shown::Computed(true)));
    let given_marks = match candidates {
        Some(Shown::Given(marks)) => Some(
            marks
                .for_grid(&puzzle.grid())
                .map_err(|error| ApiError::InvalidRequest(format!("`candidates`: {error}")))?,
        ),
        _ => None,
    };
    // A drawing takes at most a few tenths of a second: it waits its turn for a slot within the
    // solve timeout, rather than the queue timeout meant for shedding a flood of solves.
    let patience = state.pool.limits().solve_timeout;
    let bytes = state
        .pool
        .run_waiting(Work::Render, patience, move |deadline| {
            let solution = match given_solution {
                Some(solution) => Some(solution),
                None if solve => match puzzle.classify(deadline)?.unique() {
                    Ok(solution) => Some(solution),
                    Err(unanswerable) => return Ok(Err(ApiError::from(unanswerable))),
                },
                None => None,
            };
            // On the pool too: a 25x25 grid's candidates take longer than an async worker may.
            let marks = given_marks.or_else(|| basic_marks.then(|| puzzle.candidates()));
            let figure = Figure {
                puzzle: &puzzle,
                solution: solution.as_ref(),
                marks: marks.as_ref(),
                title: title.as_deref(),
                caption: None,
            };
            Ok(Ok(render::render(&figure, format, width, paper)))
        })
        .await??;
    Ok(drawing(format, bytes, "sudoku"))
}

/// The caller's solution of `puzzle` (its box `shape` as the request gave it): complete, keeping
/// every given, and breaking no rule.
fn check_solution(puzzle: &Puzzle, solution: JsonBoard, shape: Option<Shape>) -> Result<AnyGrid, ApiError> {
    let invalid = |error: &dyn std::fmt::Display| ApiError::InvalidRequest(format!("`solution`: {error}"));
    let (solution, _) = solution.with_box(shape).map_err(|error| invalid(&error))?;
    let (size, board) = (solution.shape().size(), puzzle.shape().size());
    if size != board {
        return Err(invalid(&format_args!("a {size}x{size} grid, but the board is a {board}x{board} one")));
    }
    check_givens(&solution, &puzzle.grid()).map_err(|error| invalid(&error))?;
    if !solution.is_complete() {
        return Err(invalid(&"it has blank cells; a solution fills every cell"));
    }
    let validation = puzzle.with_board(solution.clone()).validate();
    if let Some(conflict) = validation.conflicts.first() {
        let (row, col, value) = (conflict.row + 1, conflict.col + 1, puzzle.shape().symbol(conflict.value));
        let broken: Vec<&str> = conflict.units.units().map(Unit::broken).collect();
        let broken = broken.join(" and ");
        return Err(invalid(&format!("it breaks the rules: r{row}c{col} = {value} {broken}")));
    }
    Ok(solution)
}

/// The body of `/v1/booklet`. A member it does not have is refused, naming it
/// ([`member::Object`]).
#[derive(Deserialize)]
#[serde(remote = "Self")]
pub(super) struct BookletRequest {
    /// How many puzzles to make; or give `puzzles`.
    #[serde(default, deserialize_with = "member::optional_integer")]
    count: Option<u64>,
    #[serde(default = "medium")]
    difficulty: Level,
    #[serde(default, deserialize_with = "member::optional_integer")]
    seed: Option<u64>,
    #[serde(default)]
    symmetry: Symmetry,
    #[serde(default, deserialize_with = "member::optional_integer")]
    size: Option<u64>,
    #[serde(default, rename = "box")]
    shape: Option<Shape>,
    /// The variant every puzzle is played by (made for it, or given under it).
    #[serde(default)]
    variant: Option<Preset>,
    /// The constraints every puzzle is played by, with the preset's.
    #[serde(default)]
    constraints: Option<Constraints>,
    /// Puzzles to print instead of made ones: boards, or objects with a board and its own rules,
    /// each read on its own.
    #[serde(default)]
    puzzles: Option<Vec<Box<RawValue>>>,
    #[serde(default, deserialize_with = "member::optional_integer")]
    per_page: Option<u64>,
    #[serde(default = "a4")]
    paper: Paper,
    #[serde(default)]
    title: Option<String>,
    #[serde(default = "yes")]
    answers: bool,
}

impl Object for BookletRequest {
    fn read_members<'de, D: Deserializer<'de>>(deserializer: D) -> Result<BookletRequest, D::Error> {
        BookletRequest::deserialize(deserializer)
    }

    fn belongs(member: &str) -> Option<String> {
        if member == "board" {
            return Some("in `puzzles`, a list of boards".to_owned());
        }
        Constraints::home_of(member)
    }
}

object_traits!(BookletRequest);

impl JsonObject for BookletRequest {}

fn medium() -> Level {
    Level::Medium
}

fn yes() -> bool {
    true
}

/// `POST /v1/booklet`: puzzles made (or given) laid out k to a page, with answer pages, as one
/// PDF; the same seed makes the same booklet.
pub(super) async fn booklet(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<BookletRequest>,
) -> Result<Response, ApiError> {
    let title = checked_title(request.title)?;
    let per_page = match request.per_page {
        None => PerPage::DEFAULT,
        Some(count) => PerPage::new(count).ok_or_else(|| {
            ApiError::InvalidRequest(format!("`per_page`: {count}; expected one of {:?}", PerPage::ALL))
        })?,
    };
    let rules = (request.variant.is_some() || request.constraints.as_ref().is_some_and(|rules| !rules.is_empty()))
        .then(|| (request.variant, request.constraints.unwrap_or_default()));
    let puzzles = match (request.puzzles, request.count) {
        (Some(_), Some(_)) => return Err(ApiError::InvalidRequest("give `count` or `puzzles`, not both".to_owned())),
        (None, None) => {
            return Err(ApiError::InvalidRequest("`count`: how many puzzles to make is missing".to_owned()));
        }
        (Some(entries), None) => {
            let puzzles = given_puzzles(&entries, request.shape, rules.as_ref())?;
            state
                .pool
                .run(Work::Booklet, move |deadline| {
                    puzzles
                        .into_iter()
                        .enumerate()
                        .map(|(index, puzzle)| {
                            Ok(BookletPuzzle::solved(puzzle, deadline)?.map_err(|unanswerable| {
                                ApiError::InvalidRequest(format!("`puzzles[{index}]`: {unanswerable}"))
                            }))
                        })
                        .collect::<Result<Result<Vec<_>, ApiError>, Interrupted>>()
                })
                .await??
        }
        (None, Some(count)) => {
            let count = usize::try_from(count).ok().filter(|count| (1..=MAX_PUZZLES).contains(count));
            let count = count
                .ok_or_else(|| ApiError::InvalidRequest(format!("`count`: expected 1 to {MAX_PUZZLES} puzzles")))?;
            let shape = Shape::from_size_and_box(request.size, request.shape).map_err(|error| {
                let member = if let ShapeError::UnknownSize { .. } = error { "size" } else { "box" };
                ApiError::InvalidRequest(format!("`{member}`: {error}"))
            })?;
            let (level, symmetry) = (request.difficulty, request.symmetry);
            match &rules {
                None => Puzzle::offers(shape, level)
                    .map_err(|error| ApiError::InvalidRequest(format!("`difficulty`: {error}")))?,
                Some((preset, constraints)) => offered_variant(shape, *preset, constraints, level)?,
            }
            let seed = request.seed.unwrap_or_else(generate::fresh_seed);
            let first = PuzzleId { shape, level, symmetry, seed };
            // One job per puzzle, each with the solve timeout to be made as `/v1/generate`'s, as
            // many at once as there are solver slots, waiting their turn as a batch's chunks do.
            let (pool, line) = (state.pool.clone(), state.pool.line(state.request_timeout));
            let rules = std::sync::Arc::new(rules);
            stream::iter(render::booklet::ids(first, count))
                .map(|id| {
                    let (pool, rules) = (pool.clone(), std::sync::Arc::clone(&rules));
                    async move {
                        let made = pool
                            .run_patiently(Work::Booklet, line, move |deadline| match rules.as_ref() {
                                None => BookletPuzzle::generated(id, deadline).map(Ok),
                                Some((preset, constraints)) => BookletPuzzle::generated_variant(
                                    id.shape,
                                    *preset,
                                    constraints,
                                    id.level,
                                    id.symmetry,
                                    id.seed,
                                    deadline,
                                ),
                            })
                            .await
                            .map_err(|error| match error {
                                PoolError::TimedOut(timeout) => ApiError::GenerateTimeout { level, timeout },
                                error => error.into(),
                            })?;
                        // Only rules whose grids the check's short search did not rule out get here.
                        made.map_err(|error| ApiError::InvalidRequest(error.to_string()))
                    }
                })
                .buffered(state.pool.limits().slots)
                .try_collect()
                .await?
        }
    };
    let (paper, answers) = (request.paper, request.answers);
    let patience = state.pool.limits().solve_timeout;
    let bytes = state
        .pool
        .run_waiting(Work::Booklet, patience, move |_| {
            let booklet = Booklet { puzzles: &puzzles, title: title.as_deref(), paper, per_page, answers };
            Ok(booklet.pdf())
        })
        .await?;
    Ok(drawing(ImageFormat::Pdf, bytes, "sudoku-booklet"))
}

/// The puzzles a booklet request gives, each error naming its place: boards with the request's
/// box and rules, or objects with a board and rules of their own (as a `/v1/solve` body has
/// them); all of one size and box.
fn given_puzzles(
    entries: &[Box<RawValue>],
    shape: Option<Shape>,
    rules: Option<&(Option<Preset>, Constraints)>,
) -> Result<Vec<Puzzle>, ApiError> {
    if entries.is_empty() || entries.len() > MAX_PUZZLES {
        let found = entries.len();
        return Err(ApiError::InvalidRequest(format!("`puzzles`: {found} puzzles; expected 1 to {MAX_PUZZLES}")));
    }
    let mut first: Option<Shape> = None;
    entries
        .iter()
        .enumerate()
        .map(|(index, entry)| {
            let at = |error: &dyn std::fmt::Display| ApiError::InvalidRequest(format!("`puzzles[{index}]`: {error}"));
            let json = entry.get();
            let request = if json.starts_with('{') {
                let request = parse_value::<BoardRequest>(json).map_err(|error| at(&error))?;
                let own_rules = request.variant.is_some() || request.constraints.is_some() || request.puzzle.is_some();
                if rules.is_some() && own_rules {
                    return Err(at(&"it has rules of its own, and the booklet's `variant` or `constraints` are \
                                    every puzzle's: give them in one place"));
                }
                if request.shape.is_some() && shape.is_some() && request.shape != shape {
                    return Err(at(&"its `box` is not the booklet's: a booklet's puzzles have one box"));
                }
                // A shared puzzle carries its own grid.
                let shape = if request.puzzle.is_some() { request.shape } else { request.shape.or(shape) };
                BoardRequest { shape, ..request }
            } else {
                let board = parse_value::<JsonBoard>(json).map_err(|error| at(&error))?;
                let (variant, constraints) = rules.cloned().map_or((None, None), |(preset, rules)| (preset, Some(rules)));
                BoardRequest { board, shape, variant, constraints, puzzle: None }
            };
            let (puzzle, _) = request.puzzle().map_err(|error| at(&error))?;
            let first = *first.get_or_insert(puzzle.shape());
            if puzzle.shape() != first {
                let (size, expected) = (puzzle.shape().size(), first.size());
                return Err(at(&format_args!(
                    "a {size}x{size} grid of {} boxes, but puzzles[0] is a {expected}x{expected} grid of {first} boxes: \
                     a booklet's puzzles are of one size and box",
                    puzzle.shape()
                )));
            }
            Ok(puzzle)
        })
        .collect()
}
