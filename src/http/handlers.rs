//! Route handlers: read the request, call the core, write the answer.

use axum::Json;
use axum::extract::State;
use axum::http::{Uri, header};
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};

use super::extract::JsonBody;
use super::{ApiError, AppState};
use crate::board::{FormattedBoard, JsonBoard};
use crate::rules::{self, Validation};
use crate::solver::{self, Outcome};

/// The repository's OpenAPI document, served byte for byte.
const OPENAPI_YAML: &str = include_str!("../../openapi.yaml");

/// The body of `/v1/solve` and `/v1/validate`. Unknown members are ignored.
#[derive(Deserialize)]
pub struct BoardRequest {
    #[serde(default)]
    board: JsonBoard,
}

#[derive(Serialize)]
pub struct SolveResponse<'a> {
    solution: FormattedBoard<'a>,
    unique: bool,
}

/// `POST /v1/solve`: the solution in the request's representation, and whether it is unique.
pub async fn solve(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<BoardRequest>,
) -> Result<impl IntoResponse, ApiError> {
    let (puzzle, format) = request.board.into_result()?;
    let conflicts = rules::conflicts(&puzzle);
    if !conflicts.is_empty() {
        return Err(ApiError::ConflictingGivens(conflicts));
    }
    let outcome = state.pool.run(move |deadline| solver::solve_until(&puzzle, deadline)).await?;
    let (solution, unique) = match outcome {
        Outcome::Unique(solution) => (solution, true),
        Outcome::Multiple(solution) => (solution, false),
        Outcome::Unsolvable => return Err(ApiError::Unsolvable),
    };
    Ok(Json(SolveResponse { solution: FormattedBoard { board: &solution, format }, unique }).into_response())
}

/// `POST /v1/validate`: conflicts and completeness. Cheap enough to run inline.
pub async fn validate(JsonBody(request): JsonBody<BoardRequest>) -> Result<Json<Validation>, ApiError> {
    let (board, _) = request.board.into_result()?;
    Ok(Json(rules::validate(&board)))
}

#[derive(Serialize)]
pub struct Health {
    status: &'static str,
    version: &'static str,
}

/// `GET /healthz`: liveness. Answers as long as the process serves HTTP at all.
pub async fn healthz() -> Json<Health> {
    Json(Health { status: "ok", version: env!("CARGO_PKG_VERSION") })
}

#[derive(Serialize)]
pub struct Ready {
    status: &'static str,
}

/// `GET /readyz`: 200 while taking traffic, 503 once shutdown has begun.
pub async fn readyz(State(state): State<AppState>) -> Result<Json<Ready>, ApiError> {
    if state.readiness.is_ready() { Ok(Json(Ready { status: "ready" })) } else { Err(ApiError::ShuttingDown) }
}

/// `GET /openapi.yaml`.
pub async fn openapi() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/yaml")], OPENAPI_YAML)
}

/// Any path without a route.
pub async fn not_found(uri: Uri) -> ApiError {
    ApiError::NotFound(uri.path().to_owned())
}
