//! Every error the service answers with, and the one place that turns it into an RFC 9457
//! `application/problem+json` response.
//!
//! Handlers return [`ApiError`]. Its `IntoResponse` only sets the status and stores a
//! [`Problem`] in the response extensions; `render`, called by the innermost middleware
//! (`guard.rs`) around every route, writes the body. Doing it there lets every problem carry the request's path and id,
//! and also catches errors that never passed through a handler (405 from the router, 413 from
//! the body limit, 408 from the timeout layer, 500 from a caught panic), so no error leaves the
//! service in any other shape.

use std::time::Duration;

use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::board::BoardError;
use crate::logic::Level;
use crate::pool::{PoolError, Shed};
use crate::rules::Conflict;
use crate::sizes::Mistake;
use crate::solver::Unanswerable;

/// Prefix of every problem `type` URI. The URIs are stable identifiers of each kind.
pub const PROBLEM_BASE: &str = "https://sudokud.dev/problems/";

/// What a one-board request must send, as the detail of its 415.
pub(super) const JSON_MEDIA_TYPE: &str = "JSON, sent with `Content-Type: application/json`";

/// The detail of a 431, whether hyper refused the head or the guard did (`guard.rs`).
const HEAD_TOO_LARGE: &str = "the request has more than 100 headers or a head larger than about 400 KB";

/// Seconds a client should wait before retrying after a 503.
const RETRY_AFTER_SECONDS: u64 = 1;

/// The header that carries the request id, set or propagated by the middleware stack.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The kinds of problem, each with its own `type` URI, title and status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The body is not JSON, or is cut off (400).
    MalformedJson,
    /// hyper's HTTP/1 parser refused the request head (400); answered without `instance`.
    MalformedRequest,
    /// The request target is over 65,534 bytes (414).
    UriTooLong,
    /// More than 100 headers, or a head over about 400 KB (431).
    HeadersTooLarge,
    /// `Content-Type` missing or not one the route reads (415).
    UnsupportedMediaType,
    /// The body, or one line of an NDJSON batch, is over its limit (413).
    PayloadTooLarge,
    /// JSON, but not an object of the expected shape; the detail names the member (422).
    InvalidRequest,
    /// The `board` member is missing or does not read as a board; carries a `pointer` (422).
    InvalidBoard,
    /// The givens break a rule; carries the `conflicts` (422).
    ConflictingGivens,
    /// No conflict among the givens, but no solution either (422).
    Unsolvable,
    /// More than one solution, where the logic endpoints need exactly one (422).
    MultipleSolutions,
    /// The player's entries or pencil marks cross out a value of the solution; carries the
    /// `mistakes` (422).
    WrongCandidates,
    /// The work did not finish within its deadline (503, without `Retry-After`: the same work
    /// takes as long again).
    SolveTimeout,
    /// Every solver slot busy and the queue full, or the wait for a slot too long (503, with
    /// `Retry-After`).
    Overloaded,
    /// Shutdown has begun and the server takes no new work (503).
    ShuttingDown,
    /// No such path, or no such puzzle id (404).
    NotFound,
    /// The path exists but not for this method (405).
    MethodNotAllowed,
    /// The request went past `--request-timeout-ms` (or its NDJSON body stalled that long), or a
    /// batch item was not started within `--batch-timeout-ms` (408).
    RequestTimeout,
    /// A bug, such as a handler or a pool job that panicked (500); the detail does not leak it.
    Internal,
}

impl Kind {
    /// Every kind, for documentation checks.
    pub const ALL: [Kind; 19] = [
        Kind::MalformedJson,
        Kind::MalformedRequest,
        Kind::UriTooLong,
        Kind::HeadersTooLarge,
        Kind::UnsupportedMediaType,
        Kind::PayloadTooLarge,
        Kind::InvalidRequest,
        Kind::InvalidBoard,
        Kind::ConflictingGivens,
        Kind::Unsolvable,
        Kind::MultipleSolutions,
        Kind::WrongCandidates,
        Kind::SolveTimeout,
        Kind::Overloaded,
        Kind::ShuttingDown,
        Kind::NotFound,
        Kind::MethodNotAllowed,
        Kind::RequestTimeout,
        Kind::Internal,
    ];

    /// The end of the kind's `type` URI, after [`PROBLEM_BASE`]: stable, for clients to match on.
    pub fn slug(self) -> &'static str {
        match self {
            Kind::MalformedJson => "malformed-json",
            Kind::MalformedRequest => "malformed-request",
            Kind::UriTooLong => "uri-too-long",
            Kind::HeadersTooLarge => "headers-too-large",
            Kind::UnsupportedMediaType => "unsupported-media-type",
            Kind::PayloadTooLarge => "payload-too-large",
            Kind::InvalidRequest => "invalid-request",
            Kind::InvalidBoard => "invalid-board",
            Kind::ConflictingGivens => "conflicting-givens",
            Kind::Unsolvable => "unsolvable",
            Kind::MultipleSolutions => "multiple-solutions",
            Kind::WrongCandidates => "wrong-candidates",
            Kind::SolveTimeout => "solve-timeout",
            Kind::Overloaded => "overloaded",
            Kind::ShuttingDown => "shutting-down",
            Kind::NotFound => "not-found",
            Kind::MethodNotAllowed => "method-not-allowed",
            Kind::RequestTimeout => "request-timeout",
            Kind::Internal => "internal",
        }
    }

    /// The problem's `title`: the same for every problem of the kind, as RFC 9457 asks.
    pub fn title(self) -> &'static str {
        match self {
            Kind::MalformedJson => "Malformed JSON",
            Kind::MalformedRequest => "Malformed request",
            Kind::UriTooLong => "URI too long",
            Kind::HeadersTooLarge => "Request headers too large",
            Kind::UnsupportedMediaType => "Unsupported media type",
            Kind::PayloadTooLarge => "Payload too large",
            Kind::InvalidRequest => "Invalid request",
            Kind::InvalidBoard => "Invalid board",
            Kind::ConflictingGivens => "Conflicting givens",
            Kind::Unsolvable => "Unsolvable puzzle",
            Kind::MultipleSolutions => "More than one solution",
            Kind::WrongCandidates => "Pencil marks cross out the solution",
            Kind::SolveTimeout => "Solve deadline exceeded",
            Kind::Overloaded => "Overloaded",
            Kind::ShuttingDown => "Shutting down",
            Kind::NotFound => "Not found",
            Kind::MethodNotAllowed => "Method not allowed",
            Kind::RequestTimeout => "Request timeout",
            Kind::Internal => "Internal error",
        }
    }

    /// The HTTP status a problem of this kind is answered with.
    pub fn status(self) -> StatusCode {
        match self {
            Kind::MalformedJson | Kind::MalformedRequest => StatusCode::BAD_REQUEST,
            Kind::UriTooLong => StatusCode::URI_TOO_LONG,
            Kind::HeadersTooLarge => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            Kind::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Kind::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Kind::InvalidRequest
            | Kind::InvalidBoard
            | Kind::ConflictingGivens
            | Kind::Unsolvable
            | Kind::MultipleSolutions
            | Kind::WrongCandidates => StatusCode::UNPROCESSABLE_ENTITY,
            Kind::SolveTimeout | Kind::Overloaded | Kind::ShuttingDown => StatusCode::SERVICE_UNAVAILABLE,
            Kind::NotFound => StatusCode::NOT_FOUND,
            Kind::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Kind::RequestTimeout => StatusCode::REQUEST_TIMEOUT,
            Kind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The kind for an error response produced outside our handlers, by its status.
    fn from_status(status: StatusCode) -> Kind {
        match status {
            StatusCode::BAD_REQUEST => Kind::MalformedJson,
            StatusCode::NOT_FOUND => Kind::NotFound,
            StatusCode::METHOD_NOT_ALLOWED => Kind::MethodNotAllowed,
            StatusCode::REQUEST_TIMEOUT => Kind::RequestTimeout,
            StatusCode::PAYLOAD_TOO_LARGE => Kind::PayloadTooLarge,
            StatusCode::UNSUPPORTED_MEDIA_TYPE => Kind::UnsupportedMediaType,
            StatusCode::SERVICE_UNAVAILABLE => Kind::Overloaded,
            status if status.is_client_error() => Kind::InvalidRequest,
            _ => Kind::Internal,
        }
    }

    /// Whether clients should be told to come back later: only when waiting helps, a full
    /// server. A deadline reached is not (the same work takes as long again), nor a server
    /// shutting down (another replica should take the request).
    fn retry_later(self) -> bool {
        self == Kind::Overloaded
    }
}

/// An error answered to the client.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The body is not JSON; serde_json's message.
    #[error("the request body is not valid JSON: {0}")]
    MalformedJson(String),
    /// The content type is not one the route reads; what it must be instead.
    #[error("the request body must be {0}")]
    UnsupportedMediaType(&'static str),
    /// The body is over the limit, in bytes.
    #[error("the request body is larger than the limit of {0} bytes")]
    PayloadTooLarge(usize),
    /// JSON of the wrong shape; the detail names the member, what it held and what it may hold.
    #[error("{0}")]
    InvalidRequest(String),
    /// The board does not read as one; the error says where.
    #[error(transparent)]
    InvalidBoard(#[from] BoardError),
    /// The puzzle has no answer: conflicting givens, no solution, or several where one is needed.
    #[error(transparent)]
    Unanswerable(#[from] Unanswerable),
    /// The player's entries or pencil marks that cross out the solution.
    #[error("the entries or pencil marks contradict the solution (see `mistakes`): mend them first")]
    WrongCandidates(Vec<Mistake>),
    /// A solve or count went past its deadline, the one given.
    #[error("the solve did not finish within the solve timeout of {} ms", .0.as_millis())]
    SolveTimeout(Duration),
    /// A rating, hint or explanation went past its deadline; the detail says the hardest puzzles
    /// need that long, so a client knows the timeout, not the server, is at fault.
    #[error(
        "the puzzle was not rated or explained within the solve timeout of {} ms: the hardest puzzles (Sudoku Explainer 10 and up, which take forcing chains nested in forcing chains) need about a second or more",
        .0.as_millis()
    )]
    LogicTimeout(Duration),
    /// No puzzle of the level was generated before the deadline.
    #[error("no {level} puzzle was found within the generation timeout of {} ms; try again or another seed", .timeout.as_millis())]
    GenerateTimeout {
        /// The level asked for.
        level: Level,
        /// The deadline that ran out.
        timeout: Duration,
    },
    /// No puzzle met the order before the deadline; `missed` says what the puzzles made lacked.
    #[error(
        "no {level} puzzle meeting the order was found within the generation timeout of {} ms ({missed}); loosen a wish, or try again with another seed",
        .timeout.as_millis()
    )]
    OrderNotMet {
        /// The level asked for.
        level: Level,
        /// The deadline that ran out.
        timeout: Duration,
        /// What the puzzles made lacked, for the detail.
        missed: String,
    },
    /// The pool refused the work: its queue was full, or the wait for a slot too long.
    #[error("all solver slots are busy and {0}")]
    Overloaded(Shed),
    /// Shutdown has begun: `/readyz` answers this so load balancers stop sending traffic.
    #[error("the server is shutting down and takes no new work")]
    ShuttingDown,
    /// No route for the path, which it carries.
    #[error("no route for {0}")]
    NotFound(String),
    /// A puzzle id that names no puzzle (`GET /v1/puzzles/{id}`); why.
    #[error("{0}")]
    UnknownPuzzle(String),
    /// An NDJSON batch line over the limit, in bytes.
    #[error("the line is longer than the limit of {0} bytes")]
    LineTooLong(usize),
    /// A batch item not started before the batch's `--batch-timeout-ms` ran out.
    #[error(
        "the batch went past its bound of {} ms (`--batch-timeout-ms`) before this item was started; send the rest as another batch",
        .0.as_millis()
    )]
    BatchSpent(Duration),
    /// An NDJSON batch body that sent nothing for this long.
    #[error("the request body stopped arriving for {} ms", .0.as_millis())]
    BodyStalled(Duration),
    /// The request head is too large: too many headers, or too many bytes.
    #[error("{HEAD_TOO_LARGE}")]
    HeadTooLarge,
    /// A bug (a handler or a pool job panicked); the answer's detail does not say what happened.
    #[error("an unexpected error occurred while handling the request")]
    Internal,
}

impl ApiError {
    fn kind(&self) -> Kind {
        match self {
            ApiError::MalformedJson(_) => Kind::MalformedJson,
            ApiError::UnsupportedMediaType(_) => Kind::UnsupportedMediaType,
            ApiError::PayloadTooLarge(_) => Kind::PayloadTooLarge,
            ApiError::InvalidRequest(_) => Kind::InvalidRequest,
            ApiError::InvalidBoard(_) => Kind::InvalidBoard,
            ApiError::Unanswerable(unanswerable) => Kind::from(unanswerable),
            ApiError::WrongCandidates(_) => Kind::WrongCandidates,
            ApiError::SolveTimeout(_)
            | ApiError::LogicTimeout(_)
            | ApiError::GenerateTimeout { .. }
            | ApiError::OrderNotMet { .. } => Kind::SolveTimeout,
            ApiError::Overloaded(_) => Kind::Overloaded,
            ApiError::ShuttingDown => Kind::ShuttingDown,
            ApiError::NotFound(_) | ApiError::UnknownPuzzle(_) => Kind::NotFound,
            ApiError::BodyStalled(_) | ApiError::BatchSpent(_) => Kind::RequestTimeout,
            ApiError::LineTooLong(_) => Kind::PayloadTooLarge,
            ApiError::HeadTooLarge => Kind::HeadersTooLarge,
            ApiError::Internal => Kind::Internal,
        }
    }
}

/// The problem kind of a puzzle without an answer: for HTTP problems and the CLI's `error`
/// lines alike.
impl From<&Unanswerable> for Kind {
    fn from(unanswerable: &Unanswerable) -> Kind {
        match unanswerable {
            Unanswerable::Conflicting(_) => Kind::ConflictingGivens,
            Unanswerable::Unsolvable => Kind::Unsolvable,
            Unanswerable::Multiple => Kind::MultipleSolutions,
        }
    }
}

impl ApiError {
    /// Why the solver pool gave no rating, hint or explanation: past the deadline, most likely
    /// one of the hardest puzzles, which the detail says.
    pub(crate) fn from_logic(error: PoolError) -> ApiError {
        match error {
            PoolError::TimedOut(timeout) => ApiError::LogicTimeout(timeout),
            other => other.into(),
        }
    }
}

/// Why the solver pool gave no result.
impl From<PoolError> for ApiError {
    fn from(error: PoolError) -> ApiError {
        match error {
            PoolError::Overloaded(reason) => ApiError::Overloaded(reason),
            PoolError::TimedOut(timeout) => ApiError::SolveTimeout(timeout),
            PoolError::Panicked => ApiError::Internal,
            PoolError::BatchSpent(bound) => ApiError::BatchSpent(bound),
        }
    }
}

/// What a problem response says, before the request's path and id are added.
#[derive(Clone, Debug, Serialize)]
struct Problem {
    #[serde(skip)]
    kind: Kind,
    detail: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pointer: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    conflicts: Option<Vec<Conflict>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mistakes: Option<Vec<Mistake>>,
}

impl Problem {
    fn from_status(status: StatusCode, body_limit: usize) -> Problem {
        let kind = Kind::from_status(status);
        let detail = match kind {
            Kind::PayloadTooLarge => format!("the request body is larger than the limit of {body_limit} bytes"),
            Kind::MethodNotAllowed => "the method is not allowed on this path; see the Allow header".to_owned(),
            Kind::RequestTimeout => "the request took longer than the request timeout".to_owned(),
            Kind::UnsupportedMediaType => ApiError::UnsupportedMediaType(JSON_MEDIA_TYPE).to_string(),
            Kind::Internal => ApiError::Internal.to_string(),
            _ => status.canonical_reason().unwrap_or("error").to_owned(),
        };
        Problem { kind, detail, pointer: None, conflicts: None, mistakes: None }
    }
}

impl From<ApiError> for Problem {
    fn from(error: ApiError) -> Problem {
        let kind = error.kind();
        let detail = error.to_string();
        let (mut pointer, mut conflicts, mut mistakes) = (None, None, None);
        match error {
            ApiError::InvalidBoard(board_error) => pointer = Some(board_error.json_pointer()),
            ApiError::Unanswerable(Unanswerable::Conflicting(found)) => conflicts = Some(found),
            ApiError::WrongCandidates(found) => mistakes = Some(found),
            _ => {}
        }
        Problem { kind, detail, pointer, conflicts, mistakes }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let problem = Problem::from(self);
        let mut response = problem.kind.status().into_response();
        response.extensions_mut().insert(problem);
        response
    }
}

/// The full problem document: the members every problem has, then `context`.
#[derive(Serialize)]
struct ProblemDocument<'a, Context> {
    r#type: String,
    title: &'static str,
    status: u16,
    #[serde(flatten)]
    problem: &'a Problem,
    #[serde(flatten)]
    context: Context,
}

impl Problem {
    fn document<Context: Serialize>(&self, context: Context) -> ProblemDocument<'_, Context> {
        ProblemDocument {
            r#type: format!("{PROBLEM_BASE}{}", self.kind.slug()),
            title: self.kind.title(),
            status: self.kind.status().as_u16(),
            problem: self,
            context,
        }
    }
}

/// What a response's problem adds: the request it answers.
#[derive(Serialize)]
struct RequestContext<'a> {
    instance: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    request_id: Option<&'a str>,
}

/// Where a board, or a generated puzzle, sits in a batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum Position {
    /// 0-based index in a JSON array of boards, or of a generate batch's puzzles.
    Index(usize),
    /// 0-based index in a JSON array of an entry written as a request (`board` and `box`).
    #[serde(rename = "index")]
    Entry(usize),
    /// 1-based line of an NDJSON stream.
    Line(usize),
}

/// A problem with one board of a batch, written into the batch's answer where that board's
/// result goes. It has the members of a response's problem, with the board's [`Position`] in
/// place of `instance` and `request_id` (the response carries the request id).
#[derive(Debug)]
pub(super) struct ItemProblem {
    problem: Problem,
    position: Position,
}

impl ItemProblem {
    pub(super) fn new(error: ApiError, position: Position) -> ItemProblem {
        let mut problem = Problem::from(error);
        // Pointers are relative to a request; in a JSON batch the request is `boards/<index>`,
        // and a bare board there is that request's `board`.
        match (position, &mut problem.pointer) {
            (Position::Index(index), Some(pointer)) => {
                *pointer = format!("/boards/{index}{}", pointer.strip_prefix("/board").unwrap_or(pointer));
            }
            (Position::Entry(index), Some(pointer)) => *pointer = format!("/boards/{index}{pointer}"),
            _ => {}
        }
        ItemProblem { problem, position }
    }
}

impl Serialize for ItemProblem {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.problem.document(self.position).serialize(serializer)
    }
}

/// The problem document for a request the HTTP parser refused before it reached the service,
/// by the status the parser chose: a request line or header that is not HTTP/1.1 (400), a
/// target longer than 65,534 bytes (414), or more than 100 headers or a head over about 400 KB
/// (431). The request has no readable path, so the document has no `instance`.
pub(crate) fn parser_rejection(status: StatusCode, request_id: &str) -> Vec<u8> {
    let (kind, detail) = match status {
        StatusCode::URI_TOO_LONG => (Kind::UriTooLong, "the request target is longer than 65,534 bytes"),
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE => (Kind::HeadersTooLarge, HEAD_TOO_LARGE),
        _ => (
            Kind::MalformedRequest,
            "the request is not valid HTTP/1.1 (its request line, a header or its framing: a version other \
             than 1.0 or 1.1, a folded header, conflicting Content-Length headers...)",
        ),
    };
    let problem = Problem { kind, detail: detail.to_owned(), pointer: None, conflicts: None, mistakes: None };
    #[derive(Serialize)]
    struct ParserContext<'a> {
        request_id: &'a str,
    }
    serde_json::to_vec(&problem.document(ParserContext { request_id })).expect("a problem document always serializes")
}

/// Renders an error response as `application/problem+json` with the request's path and id: a
/// [`Problem`] a handler left in the extensions, or a plain error status from elsewhere (the
/// router's 405, the body limit's 413, the timeout's 408). Other responses pass unchanged.
pub(super) fn render(
    mut response: Response,
    path: &str,
    request_id: Option<&HeaderValue>,
    body_limit: usize,
) -> Response {
    let problem = match response.extensions_mut().remove::<Problem>() {
        Some(problem) => problem,
        None if is_plain_error(&response) => Problem::from_status(response.status(), body_limit),
        None => return response,
    };
    let document =
        problem.document(RequestContext { instance: path, request_id: request_id.and_then(|id| id.to_str().ok()) });
    let body = serde_json::to_vec(&document).expect("a problem document always serializes");
    let (mut parts, _) = response.into_parts();
    parts.status = problem.kind.status();
    parts.headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/problem+json"));
    parts.headers.remove(header::CONTENT_LENGTH);
    if problem.kind.retry_later() {
        parts.headers.insert(header::RETRY_AFTER, HeaderValue::from(RETRY_AFTER_SECONDS));
    }
    Response::from_parts(parts, axum::body::Body::from(body))
}

/// An error status whose body is not already a problem document.
fn is_plain_error(response: &Response) -> bool {
    let status = response.status();
    let is_problem = || {
        response
            .headers()
            .get(header::CONTENT_TYPE)
            .is_some_and(|value| value.as_bytes().starts_with(b"application/problem+json"))
    };
    (status.is_client_error() || status.is_server_error()) && !is_problem()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_its_own_type() {
        let slugs: std::collections::HashSet<_> = Kind::ALL.iter().map(|kind| kind.slug()).collect();
        assert_eq!(slugs.len(), Kind::ALL.len());
        for kind in Kind::ALL {
            assert!(kind.status().is_client_error() || kind.status().is_server_error());
        }
    }

    #[test]
    fn plain_statuses_map_to_their_kinds() {
        assert_eq!(Kind::from_status(StatusCode::METHOD_NOT_ALLOWED), Kind::MethodNotAllowed);
        assert_eq!(Kind::from_status(StatusCode::PAYLOAD_TOO_LARGE), Kind::PayloadTooLarge);
        assert_eq!(Kind::from_status(StatusCode::REQUEST_TIMEOUT), Kind::RequestTimeout);
        assert_eq!(Kind::from_status(StatusCode::BAD_GATEWAY), Kind::Internal);
        assert_eq!(Kind::from_status(StatusCode::IM_A_TEAPOT), Kind::InvalidRequest);
    }

    #[test]
    fn only_overload_asks_for_a_retry() {
        assert!(Kind::Overloaded.retry_later());
        assert!(!Kind::SolveTimeout.retry_later());
        assert!(!Kind::ShuttingDown.retry_later());
        assert!(!Kind::InvalidBoard.retry_later());
    }
}
