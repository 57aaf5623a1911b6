//! The human-style endpoints: rate, hint, explain and generate (one puzzle, or a batch streamed
//! as NDJSON), for grids of every size, over [`Puzzle`]'s logic and generation.
//!
//! Rating, hints and explanations only mean something for a proper puzzle, so the core checks
//! what `/v1/solve` checks and also that the solution is unique, and answers why not otherwise.

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures_util::stream::{self, StreamExt};
use serde::{Deserialize, Deserializer, Serialize};

use super::batch::NDJSON;
use super::extract::{JsonBody, JsonObject};
use super::handlers::PlayerRequest;
use super::problem::{ItemProblem, Position};
use super::{ApiError, AppState};
use crate::board::{Format, FormattedGrid};
use crate::generate::variants::Refused;
use crate::generate::{self, Symmetry};
use crate::logic::sized::GridStep;
use crate::logic::{Level, Rating, Technique};
use crate::member::{self, Object, object_traits};
use crate::metrics::Work;
use crate::order::Order;
use crate::pool::{Line, PoolError};
use crate::puzzle::Puzzle;
use crate::puzzle_id::{BadPuzzleId, Date, PuzzleId};
use crate::sizes::{Marked, Mistake, Shape, ShapeError};
use crate::solver::{Deadline, Interrupted};
use crate::variants::{Constraints, Preset};

/// `POST /v1/rate`: how hard the puzzle is for a person.
pub(super) async fn rate(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<PlayerRequest>,
) -> Result<Json<Rating>, ApiError> {
    let (puzzle, _, marks, givens) = request.player()?;
    let rating =
        state.pool.run(Work::Rate, move |deadline| puzzle.rate_from(marks.as_ref(), givens.as_ref(), deadline));
    let rating = rating.await.map_err(ApiError::from_logic)??;
    Ok(Json(followed(rating)?))
}

/// What follows from the player's entries and marks, or 422 `wrong-candidates` naming those
/// that contradict the solution.
fn followed<T>(marked: Marked<T>) -> Result<T, ApiError> {
    match marked {
        Marked::Followed(value) => Ok(value),
        Marked::Mistaken(mistakes) => Err(ApiError::WrongCandidates(mistakes)),
    }
}

#[derive(Serialize)]
pub(super) struct HintResponse {
    /// The board is complete: there is nothing left to do.
    solved: bool,
    /// The steps up to and including the next placement (see [`Puzzle::hint`]); empty when
    /// `solved`.
    steps: Vec<GridStep>,
    /// The placement, the last of `steps`, for clients of the one-step answer; `null` when
    /// `solved`.
    step: Option<GridStep>,
    /// Said when `solved` or `mistakes`, for people reading the answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'static str>,
    /// The player's entries the solution does not have, or else pencil marks that crossed out
    /// the solution's value of their cell: the hint is to mend them (`steps` is then empty).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    mistakes: Vec<Mistake>,
}

/// `POST /v1/hint`: the next value a person would place, and the eliminations that lead to it.
pub(super) async fn hint(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<PlayerRequest>,
) -> Result<Json<HintResponse>, ApiError> {
    let (puzzle, _, marks, givens) = request.player()?;
    let hinted =
        state.pool.run(Work::Hint, move |deadline| puzzle.hint_from(marks.as_ref(), givens.as_ref(), deadline));
    let hinted = hinted.await.map_err(ApiError::from_logic)??;
    let steps = match hinted {
        Marked::Followed(steps) => steps,
        Marked::Mistaken(mistakes) => {
            let message = Some("some entries or pencil marks contradict the solution: mend them first");
            return Ok(Json(HintResponse { solved: false, steps: Vec::new(), step: None, message, mistakes }));
        }
    };
    let solved = steps.is_empty();
    let message = solved.then_some("the board is complete and correct: there is nothing left to do");
    Ok(Json(HintResponse { solved, step: steps.last().cloned(), steps, message, mistakes: Vec::new() }))
}

#[derive(Serialize)]
pub(super) struct ExplainResponse {
    steps: Vec<GridStep>,
    rating: Rating,
    solution: FormattedGrid,
}

/// `POST /v1/explain`: every step from the puzzle to its solution.
pub(super) async fn explain(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<PlayerRequest>,
) -> Result<Json<ExplainResponse>, ApiError> {
    let (puzzle, format, marks, givens) = request.player()?;
    let explained = state
        .pool
        .run(Work::Explain, move |deadline| puzzle.explain_from(marks.as_ref(), givens.as_ref(), deadline))
        .await
        .map_err(ApiError::from_logic)??;
    let explained = followed(explained)?;
    Ok(Json(ExplainResponse {
        steps: explained.steps,
        rating: explained.rating,
        solution: FormattedGrid { grid: explained.solution, format },
    }))
}

/// The body of `/v1/generate` and `/v1/generate/batch`. A member it does not have is refused,
/// naming it ([`member::Object`]).
#[derive(Deserialize)]
#[serde(remote = "Self")]
pub(super) struct GenerateRequest {
    difficulty: Level,
    /// Absent: the server picks one and answers it, so the puzzle can be made again.
    #[serde(default, deserialize_with = "member::optional_integer")]
    seed: Option<u64>,
    #[serde(default)]
    symmetry: Symmetry,
    /// How to write the boards of the answer.
    #[serde(default)]
    format: Format,
    /// The grid's size N; absent, 9 (or the size of `box`).
    #[serde(default, deserialize_with = "member::optional_integer")]
    size: Option<u64>,
    /// The box shape; absent, the size's default.
    #[serde(default, rename = "box")]
    shape: Option<Shape>,
    /// A variant by name: the puzzle is made for its rules.
    #[serde(default)]
    variant: Option<Preset>,
    /// A variant's constraints the puzzle is made for.
    #[serde(default)]
    constraints: Option<Constraints>,
    /// The lowest rating accepted, within the level's: a wish of a puzzle made to order.
    #[serde(default)]
    se_min: Option<f64>,
    /// The highest rating accepted, within the level's.
    #[serde(default)]
    se_max: Option<f64>,
    /// Techniques the solving path must use, by id.
    #[serde(default)]
    require: Vec<String>,
    /// Techniques it must not use.
    #[serde(default)]
    exclude: Vec<String>,
    /// The fewest givens accepted.
    #[serde(default, deserialize_with = "member::optional_integer")]
    min_givens: Option<u64>,
    /// The most givens accepted.
    #[serde(default, deserialize_with = "member::optional_integer")]
    max_givens: Option<u64>,
    /// How many puzzles `/v1/generate/batch` makes; `/v1/generate` makes one.
    #[serde(default, deserialize_with = "member::optional_integer")]
    count: Option<u64>,
}

impl Object for GenerateRequest {
    fn read_members<'de, D: Deserializer<'de>>(deserializer: D) -> Result<GenerateRequest, D::Error> {
        GenerateRequest::deserialize(deserializer)
    }

    fn belongs(member: &str) -> Option<String> {
        Constraints::home_of(member)
    }
}

object_traits!(GenerateRequest);

impl JsonObject for GenerateRequest {}

impl GenerateRequest {
    /// Whether the request asks for more than a level: a puzzle made to order.
    fn has_wishes(&self) -> bool {
        let GenerateRequest { se_min, se_max, require, exclude, min_givens, max_givens, .. } = self;
        se_min.is_some()
            || se_max.is_some()
            || !require.is_empty()
            || !exclude.is_empty()
            || min_givens.is_some()
            || max_givens.is_some()
    }

    /// The order of a puzzle made to order for `shape`, its wishes checked (422 naming the member
    /// at fault, or saying why no puzzle can meet them).
    fn order(&self, shape: Shape, variant: Option<(Option<Preset>, Constraints)>) -> Result<Order, ApiError> {
        let techniques = |member: &str, ids: &[String]| {
            ids.iter()
                .map(|id| member::parse(id).map_err(|error| ApiError::InvalidRequest(format!("`{member}`: {error}"))))
                .collect::<Result<Vec<Technique>, ApiError>>()
        };
        let (low, high) = self.difficulty.range();
        let rating = |member: &str, value: Option<f64>, default: f32| {
            let most = Technique::BruteForce.rating();
            match value {
                None => Ok(default),
                Some(value) if (0.0..=f64::from(most)).contains(&value) => Ok(value as f32),
                // Debug keeps a number short however large (`1e308`).
                Some(value) => Err(ApiError::InvalidRequest(format!(
                    "`{member}`: {value:?}; expected a rating from 0.0 to {most:.1}"
                ))),
            }
        };
        let givens = |member: Option<u64>, default: usize| {
            member.map_or(default, |count| usize::try_from(count).unwrap_or(usize::MAX))
        };
        let order = Order {
            shape,
            symmetry: self.symmetry,
            level: self.difficulty,
            rating: (rating("se_min", self.se_min, low)?, rating("se_max", self.se_max, high)?),
            require: techniques("require", &self.require)?,
            exclude: techniques("exclude", &self.exclude)?,
            givens: (givens(self.min_givens, 0), givens(self.max_givens, shape.cells())),
            variant,
        };
        order
            .check()
            .map_err(|impossible| ApiError::InvalidRequest(format!("no puzzle can meet the order: {impossible}")))?;
        Ok(order)
    }
}

#[derive(Serialize)]
pub(super) struct GenerateResponse {
    puzzle: FormattedGrid,
    solution: FormattedGrid,
    rating: Rating,
    seed: u64,
    symmetry: Symmetry,
    /// The box of a grid of another size than 9x9, to send back with the puzzle.
    #[serde(rename = "box", skip_serializing_if = "Option::is_none")]
    shape: Option<Shape>,
    /// The variant asked for, to send back with the puzzle.
    #[serde(skip_serializing_if = "Option::is_none")]
    variant: Option<Preset>,
    /// A variant puzzle's whole constraints (the preset's, and any regions or cages made for
    /// it), to send back with the puzzle.
    #[serde(skip_serializing_if = "Option::is_none")]
    constraints: Option<Constraints>,
    /// What makes the puzzle again with `GET /v1/puzzles/{id}` (not for variants).
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<String>,
    /// The date of a daily puzzle.
    #[serde(skip_serializing_if = "Option::is_none")]
    date: Option<String>,
    /// Puzzles made for an order until one met it, that one included.
    #[serde(skip_serializing_if = "Option::is_none")]
    attempts: Option<u32>,
}

/// What a `/v1/generate` request asks for, every member checked: the puzzle of a level, one
/// made to order, or one made for a variant's rules. Each is made from a seed alone.
enum Plan {
    /// A puzzle of a level, which its id makes again.
    Level { shape: Shape, level: Level, symmetry: Symmetry },
    /// A puzzle of a level that meets the request's wishes.
    Order(Order),
    /// A puzzle for a variant's rules, made with its regions or cages where the rules ask for them.
    Variant { shape: Shape, level: Level, symmetry: Symmetry, preset: Option<Preset>, constraints: Constraints },
}

impl GenerateRequest {
    /// What the request asks for, or a 422 naming the member at fault, before any work.
    fn plan(&self) -> Result<Plan, ApiError> {
        let shape = Shape::from_size_and_box(self.size, self.shape).map_err(|error| {
            let member = if let ShapeError::UnknownSize { .. } = error { "size" } else { "box" };
            ApiError::InvalidRequest(format!("`{member}`: {error}"))
        })?;
        let (level, symmetry) = (self.difficulty, self.symmetry);
        let variant =
            self.variant.is_some() || self.constraints.as_ref().is_some_and(|constraints| !constraints.is_empty());
        if variant {
            let constraints = self.constraints.clone().unwrap_or_default();
            offered_variant(shape, self.variant, &constraints, level)?;
            if self.has_wishes() {
                return Ok(Plan::Order(self.order(shape, Some((self.variant, constraints)))?));
            }
            return Ok(Plan::Variant { shape, level, symmetry, preset: self.variant, constraints });
        }
        Puzzle::offers(shape, level).map_err(|error| ApiError::InvalidRequest(format!("`difficulty`: {error}")))?;
        if self.has_wishes() {
            return Ok(Plan::Order(self.order(shape, None)?));
        }
        Ok(Plan::Level { shape, level, symmetry })
    }
}

/// Whether puzzles of `level` are made for these rules at `shape` (422 naming the member at fault
/// otherwise).
pub(super) fn offered_variant(
    shape: Shape,
    preset: Option<Preset>,
    constraints: &Constraints,
    level: Level,
) -> Result<(), ApiError> {
    Puzzle::variant_offers(shape, preset, constraints, level).map_err(|refused| match refused {
        Refused::Constraints(error) => ApiError::InvalidRequest(error.to_string()),
        Refused::Level { .. } => ApiError::InvalidRequest(format!("`difficulty`: {refused}")),
        Refused::Size { .. } => ApiError::InvalidRequest(format!("`size`: {refused}")),
    })
}

impl Plan {
    /// The puzzle from `seed`, its boards in `format`, made on the solver pool under the solve
    /// timeout ([`on_pool`]).
    async fn make(
        &self,
        state: &AppState,
        seed: u64,
        format: Format,
        line: Option<Line>,
    ) -> Result<GenerateResponse, ApiError> {
        match self {
            &Plan::Level { shape, level, symmetry } => {
                generate_puzzle(state, PuzzleId { shape, level, symmetry, seed }, format, line).await
            }
            Plan::Order(order) => generate_to_order(state, order.clone(), seed, format, line).await,
            Plan::Variant { shape, level, symmetry, preset, constraints } => {
                let (shape, level, symmetry, preset, constraints) =
                    (*shape, *level, *symmetry, *preset, constraints.clone());
                let generated = on_pool(state, line, move |deadline| {
                    Puzzle::generate_variant(shape, preset, &constraints, level, symmetry, seed, deadline)
                })
                .await
                .map_err(|error| match error {
                    PoolError::TimedOut(timeout) => ApiError::GenerateTimeout { level, timeout },
                    error => error.into(),
                })?
                // Only rules whose grids the check's short search did not rule out get here.
                .map_err(|error| ApiError::InvalidRequest(error.to_string()))?;
                Ok(GenerateResponse {
                    puzzle: FormattedGrid { grid: generated.puzzle, format },
                    solution: FormattedGrid { grid: generated.solution, format },
                    rating: generated.rating,
                    seed,
                    symmetry,
                    shape: (shape != Shape::CLASSIC).then_some(shape),
                    variant: preset,
                    constraints: generated.constraints,
                    id: None,
                    date: None,
                    attempts: None,
                })
            }
        }
    }
}

/// `job` on the solver pool under the solve timeout: as one request's work, refused at once when
/// the pool is full; or, with its batch's `line`, as one puzzle of a batch, waiting its turn.
async fn on_pool<T, F>(state: &AppState, line: Option<Line>, job: F) -> Result<T, PoolError>
where
    F: FnOnce(&mut Deadline) -> Result<T, Interrupted> + Send + 'static,
    T: Send + 'static,
{
    match line {
        None => state.pool.run(Work::Generate, job).await,
        Some(line) => state.pool.run_patiently(Work::Generate, line, job).await,
    }
}

/// `POST /v1/generate`: a new puzzle of the asked level.
pub(super) async fn generate(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<GenerateRequest>,
) -> Result<Json<GenerateResponse>, ApiError> {
    let plan = request.plan()?;
    let seed = request.seed.unwrap_or_else(generate::fresh_seed);
    Ok(Json(plan.make(&state, seed, request.format, None).await?))
}

/// The most puzzles one `/v1/generate/batch` makes.
pub const MAX_GENERATE_BATCH: u64 = 1000;

/// `POST /v1/generate/batch`: `count` puzzles as `/v1/generate` makes them, puzzle i from seed
/// `seed + i` as `sudokud generate --count` makes it ([`generate::batch_seed`]), written as NDJSON
/// lines in order as they are made. The request is checked whole first, so a bad one is a 422
/// before any puzzle; then each puzzle is made on the solver pool with a deadline of its own, as
/// many at once as there are solver slots, waiting in line for one up to the request timeout, as
/// a solve batch's chunks do. A puzzle that fails (an order not met in time, a level not reached)
/// is a problem line with its `index`, and the next ones follow. A client that goes away ends the
/// stream: no puzzle is started for it after that.
pub(super) async fn generate_batch(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<GenerateRequest>,
) -> Result<Response, ApiError> {
    let count = match request.count {
        Some(count @ 1..=MAX_GENERATE_BATCH) => count,
        Some(found) => {
            return Err(ApiError::InvalidRequest(format!(
                "`count`: found {found}; expected 1 to {MAX_GENERATE_BATCH}"
            )));
        }
        None => {
            return Err(ApiError::InvalidRequest(format!(
                "`count` is missing: how many puzzles to make, 1 to {MAX_GENERATE_BATCH}"
            )));
        }
    };
    let plan = Arc::new(request.plan()?);
    let (first, format) = (request.seed.unwrap_or_else(generate::fresh_seed), request.format);
    state.pool.check_room()?;
    let slots = state.pool.limits().slots.max(1);
    let turn = state.pool.line(state.request_timeout);
    let lines = stream::iter(0..count)
        .map(move |index| {
            let (state, plan) = (state.clone(), Arc::clone(&plan));
            async move {
                let seed = generate::batch_seed(first, index);
                let made = plan.make(&state, seed, format, Some(turn)).await;
                let mut line = match made {
                    Ok(answer) => serde_json::to_vec(&answer),
                    Err(error) => serde_json::to_vec(&ItemProblem::new(error, Position::Index(index as usize))),
                }
                .expect("answers always serialize");
                line.push(b'\n');
                Ok::<_, Infallible>(Bytes::from(line))
            }
        })
        .buffered(slots);
    Ok(([(header::CONTENT_TYPE, NDJSON)], Body::from_stream(lines)).into_response())
}

/// `/v1/generate` of a puzzle made to order: puzzles of the level made from `seed` until one
/// meets every wish, or a 503 saying what the puzzles made lacked.
async fn generate_to_order(
    state: &AppState,
    order: Order,
    seed: u64,
    format: Format,
    line: Option<Line>,
) -> Result<GenerateResponse, ApiError> {
    let (level, symmetry) = (order.level, order.symmetry);
    let preset = order.variant.as_ref().and_then(|(preset, _)| *preset);
    let made = on_pool(state, line, move |deadline| Ok(order.make(seed, deadline))).await?;
    let made = made.map_err(|missed| ApiError::OrderNotMet {
        level,
        timeout: state.pool.timeout(Work::Generate),
        missed: missed.to_string(),
    })?;
    let shape = made.generated.puzzle.shape();
    Ok(GenerateResponse {
        puzzle: FormattedGrid { grid: made.generated.puzzle, format },
        solution: FormattedGrid { grid: made.generated.solution, format },
        rating: made.generated.rating,
        seed,
        symmetry,
        shape: (shape != Shape::CLASSIC).then_some(shape),
        variant: preset,
        constraints: made.generated.constraints,
        id: made.id.map(|id| id.to_string()),
        date: None,
        attempts: Some(made.attempts),
    })
}

/// The puzzle of `id`: one made lately as it was kept, else made on the solver pool (a 503 when
/// it takes longer than the solve timeout; see [`on_pool`] for `line`) and kept, the level
/// already checked as offered for the shape.
async fn generate_puzzle(
    state: &AppState,
    id: PuzzleId,
    format: Format,
    line: Option<Line>,
) -> Result<GenerateResponse, ApiError> {
    let PuzzleId { shape, level, symmetry, seed } = id;
    let generated = match state.made.get(&id) {
        Some(kept) => kept,
        None => {
            let made = on_pool(state, line, move |deadline| Puzzle::generate(shape, level, symmetry, seed, deadline))
                .await
                .map_err(|error| match error {
                    PoolError::TimedOut(timeout) => ApiError::GenerateTimeout { level, timeout },
                    error => error.into(),
                })?;
            let made = Arc::new(made);
            state.made.keep(id, Arc::clone(&made));
            made
        }
    };
    Ok(GenerateResponse {
        puzzle: FormattedGrid { grid: generated.puzzle.clone(), format },
        solution: FormattedGrid { grid: generated.solution.clone(), format },
        rating: generated.rating.clone(),
        seed,
        symmetry,
        shape: (shape != Shape::CLASSIC).then_some(shape),
        variant: None,
        constraints: None,
        id: Some(id.to_string()),
        date: None,
        attempts: None,
    })
}

/// The query of `/v1/daily`. Unknown parameters are ignored.
#[derive(Deserialize)]
pub(super) struct DailyQuery {
    date: Option<String>,
    difficulty: Option<String>,
}

/// How long a puzzle named by its id may be cached: the same id gives the same puzzle for as
/// long as the version of sudokud serving it stays, so a day is safe across deployments.
const CACHE_SECONDS: u64 = 86_400;

/// `GET /v1/daily`: the puzzle of a date (today in UTC when none) at a level (medium when none),
/// the same for everybody (see [`PuzzleId::daily`]), cacheable by its `ETag`.
pub(super) async fn daily(
    State(state): State<AppState>,
    query: Result<Query<DailyQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|rejection| ApiError::InvalidRequest(rejection.body_text()))?;
    let since_epoch = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default().as_secs();
    let (date, max_age) = match query.date {
        Some(date) => {
            (date.parse().map_err(|error| ApiError::InvalidRequest(format!("`date`: {error}")))?, CACHE_SECONDS)
        }
        // Today's puzzle changes at midnight.
        None => (Date::from_days((since_epoch / 86_400) as i64), 86_400 - since_epoch % 86_400),
    };
    let level = match query.difficulty {
        Some(level) => {
            member::parse(&level).map_err(|error| ApiError::InvalidRequest(format!("`difficulty`: {error}")))?
        }
        None => Level::Medium,
    };
    let id = PuzzleId::daily(date, level);
    cached(&headers, id, max_age, async move {
        let mut answer = generate_puzzle(&state, id, Format::Text, None).await?;
        answer.date = Some(date.to_string());
        Ok(answer)
    })
    .await
}

/// `GET /v1/puzzles/{id}`: a generated puzzle again, from the id `/v1/generate` or `/v1/daily`
/// answered with it.
pub(super) async fn puzzle(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let id: PuzzleId = id.parse().map_err(|error: BadPuzzleId| ApiError::UnknownPuzzle(error.to_string()))?;
    Puzzle::offers(id.shape, id.level)
        .map_err(|error| ApiError::UnknownPuzzle(format!("no puzzle has the id {id}: {error}")))?;
    cached(&headers, id, CACHE_SECONDS, async move { generate_puzzle(&state, id, Format::Text, None).await }).await
}

/// The answer of `make`, with the puzzle's id as its `ETag` and cacheable for `max_age`
/// seconds; a 304 without making it when the client already holds that puzzle.
async fn cached(
    headers: &HeaderMap,
    id: PuzzleId,
    max_age: u64,
    make: impl Future<Output = Result<GenerateResponse, ApiError>>,
) -> Result<Response, ApiError> {
    let etag = HeaderValue::from_str(&format!("\"{id}\"")).expect("an id is printable ASCII");
    let cache = HeaderValue::from_str(&format!("public, max-age={max_age}")).expect("ASCII");
    let held = headers.get_all(header::IF_NONE_MATCH).iter().filter_map(|value| value.to_str().ok());
    let matches = held
        .flat_map(|list| list.split(','))
        .map(str::trim)
        .any(|tag| tag == "*" || tag.strip_prefix("W/").unwrap_or(tag) == etag.to_str().expect("ASCII"));
    let headers = [(header::ETAG, etag), (header::CACHE_CONTROL, cache)];
    if matches {
        return Ok((StatusCode::NOT_MODIFIED, headers).into_response());
    }
    Ok((headers, Json(make.await?)).into_response())
}
