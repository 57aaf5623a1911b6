//! `POST /v1/solve/batch`: many boards in one request, as a JSON array or as an NDJSON stream.
//!
//! Both forms cut the boards into chunks of up to [`CHUNK_BOARDS`] and run the chunks on the
//! solver pool, as many at once as there are solver slots, answering in input order. Each board
//! gets its own result: what `/v1/solve` would answer, or a problem object that fails only that
//! board. A chunk is the unit of pool work because one board alone is too small (a few
//! microseconds against the pool's hand-off), while 64 of them still make a short job that
//! leaves slots turning over for single solves.
//!
//! The batch takes one place among the pool's admitted callers for its whole length, so a
//! server with no room answers 503 before doing any work; its chunks then wait for slots as
//! long as it takes (see [`Admission::run`]).
//!
//! NDJSON is read and answered as a stream: a chunk holds the complete lines that have arrived,
//! its result lines go out as soon as it is solved, and memory stays bounded by the chunks in
//! flight however long the stream is.

use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::body::{Body, Bytes, HttpBody};
use axum::extract::{Request, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use futures_util::stream::{self, BoxStream, Stream, StreamExt};
use serde::{Deserialize, Serialize};

use super::extract::{has_json_content_type, media_type, parse_object};
use super::handlers::{BoardRequest, SolveResponse, solve_puzzle};
use super::problem::{ItemProblem, Position};
use super::{ApiError, AppState};
use crate::board::{Board, BoardError, Format, JsonBoard};
use crate::pool::Admission;
use crate::solver::Deadline;

/// Boards per unit of pool work.
const CHUNK_BOARDS: usize = 64;

/// The media type of newline-delimited JSON, in and out.
pub const NDJSON: &str = "application/x-ndjson";

/// What a batch request must send, as the detail of its 415.
const BATCH_MEDIA_TYPES: &str = "JSON (`application/json`) or NDJSON (`application/x-ndjson`)";

/// One board of a batch, read or not, and where it sits.
type Item = (Position, Result<(Board, Format), ApiError>);

/// One board's result: the solution, or what went wrong.
#[derive(Serialize)]
#[serde(untagged)]
enum BatchResult {
    Solved(SolveResponse),
    Failed(ItemProblem),
}

/// The body of a JSON batch.
#[derive(Deserialize)]
struct BatchRequest {
    boards: Vec<JsonBoard>,
}

#[derive(Serialize)]
struct BatchResponse {
    results: Vec<BatchResult>,
}

/// `POST /v1/solve/batch`.
pub async fn solve_batch(State(state): State<AppState>, request: Request) -> Result<Response, ApiError> {
    let is_ndjson = media_type(request.headers()).is_some_and(|essence| essence == NDJSON);
    if !is_ndjson && !has_json_content_type(request.headers()) {
        return Err(ApiError::UnsupportedMediaType(BATCH_MEDIA_TYPES));
    }
    let admission = Arc::new(state.pool.admit()?);
    let slots = state.pool.limits().slots;
    let body = request.into_body();
    if is_ndjson {
        let lines = ndjson_items(body, state.body_limit, state.request_timeout);
        let results =
            solve_items(lines, admission, slots).map(|chunk| Ok::<_, std::convert::Infallible>(ndjson(chunk)));
        return Ok(([(header::CONTENT_TYPE, NDJSON)], Body::from_stream(results)).into_response());
    }
    let body_limit = state.body_limit.saturating_mul(state.max_batch_boards);
    let request: BatchRequest = parse_object(&read_limited(body, body_limit).await?)?;
    if request.boards.len() > state.max_batch_boards {
        return Err(ApiError::InvalidRequest(format!(
            "`boards` has {} boards; a JSON batch takes at most {} (stream more as NDJSON)",
            request.boards.len(),
            state.max_batch_boards
        )));
    }
    let mut items = request
        .boards
        .into_iter()
        .enumerate()
        .map(|(index, board)| (Position::Index(index), board.into_result().map_err(ApiError::from)));
    let chunks: Vec<Vec<Item>> = std::iter::from_fn(|| {
        let chunk: Vec<Item> = items.by_ref().take(CHUNK_BOARDS).collect();
        (!chunk.is_empty()).then_some(chunk)
    })
    .collect();
    let results: Vec<Vec<BatchResult>> = solve_items(stream::iter(chunks).boxed(), admission, slots).collect().await;
    Ok(Json(BatchResponse { results: results.into_iter().flatten().collect() }).into_response())
}

/// Solves chunks of items on the pool, `slots` chunks at a time, yielding results in input
/// order.
fn solve_items(
    chunks: BoxStream<'static, Vec<Item>>,
    admission: Arc<Admission>,
    slots: usize,
) -> impl Stream<Item = Vec<BatchResult>> {
    chunks
        .map(move |chunk| {
            let admission = Arc::clone(&admission);
            async move {
                let positions: Vec<Position> = chunk.iter().map(|(position, _)| *position).collect();
                let solve_timeout = admission.solve_timeout();
                match admission.run("batch", move |deadline| Ok(solve_chunk(chunk, deadline, solve_timeout))).await {
                    Ok(results) => results,
                    Err(error) => positions.into_iter().map(|at| failed(ApiError::from(error), at)).collect(),
                }
            }
        })
        .buffered(slots.max(1))
}

/// Solves one chunk, each board with the chunk's deadline: a board reached after the deadline
/// fails with `solve-timeout`, those before it keep their answers.
fn solve_chunk(chunk: Vec<Item>, deadline: &mut Deadline, solve_timeout: Duration) -> Vec<BatchResult> {
    chunk
        .into_iter()
        .map(|(position, item)| {
            match item.and_then(|(puzzle, format)| solve_puzzle(&puzzle, format, deadline, solve_timeout)) {
                Ok(answer) => BatchResult::Solved(answer),
                Err(error) => failed(error, position),
            }
        })
        .collect()
}

fn failed(error: ApiError, position: Position) -> BatchResult {
    BatchResult::Failed(ItemProblem::new(error, position))
}

/// Writes results as NDJSON lines.
fn ndjson(results: Vec<BatchResult>) -> Bytes {
    let mut out = Vec::with_capacity(results.len() * 128);
    for result in &results {
        serde_json::to_writer(&mut out, result).expect("results always serialize");
        out.push(b'\n');
    }
    Bytes::from(out)
}

/// Reads a whole body of at most `limit` bytes.
async fn read_limited(body: Body, limit: usize) -> Result<Vec<u8>, ApiError> {
    // A Content-Length over the limit is refused at once, not after waiting for the body.
    if body.size_hint().lower() > u64::try_from(limit).unwrap_or(u64::MAX) {
        return Err(ApiError::PayloadTooLarge(limit));
    }
    let mut frames = body.into_data_stream();
    let mut bytes = Vec::new();
    while let Some(frame) = frames.next().await {
        let frame = frame.map_err(|error| ApiError::MalformedJson(error.to_string()))?;
        if bytes.len() + frame.len() > limit {
            return Err(ApiError::PayloadTooLarge(limit));
        }
        bytes.extend_from_slice(&frame);
    }
    Ok(bytes)
}

/// Reads an NDJSON body into chunks of items: the complete lines at hand, up to
/// [`CHUNK_BOARDS`]. Blank lines are skipped (they still count in line numbers). A line longer
/// than `line_limit` is a `payload-too-large` item; a body that sends nothing for
/// `idle_timeout` ends the batch with a `request-timeout` item.
fn ndjson_items(body: Body, line_limit: usize, idle_timeout: Duration) -> BoxStream<'static, Vec<Item>> {
    let reader =
        LineReader { frames: body.into_data_stream(), pending: Vec::new(), line: 0, skipping: false, done: false };
    stream::unfold(reader, move |mut reader| async move {
        let chunk = reader.next_chunk(line_limit, idle_timeout).await;
        (!chunk.is_empty()).then_some((chunk, reader))
    })
    .boxed()
}

/// The state of an NDJSON body being cut into lines.
struct LineReader {
    frames: axum::body::BodyDataStream,
    /// Bytes after the last complete line.
    pending: Vec<u8>,
    /// Lines seen so far.
    line: usize,
    /// Inside an overlong line, already answered, until its newline.
    skipping: bool,
    done: bool,
}

impl LineReader {
    /// The next chunk of items; empty once the body has ended.
    async fn next_chunk(&mut self, line_limit: usize, idle_timeout: Duration) -> Vec<Item> {
        let mut chunk = Vec::new();
        loop {
            self.take_lines(&mut chunk, line_limit);
            if !chunk.is_empty() || self.done {
                return chunk;
            }
            match tokio::time::timeout(idle_timeout, self.frames.next()).await {
                Ok(Some(Ok(frame))) => self.pending.extend_from_slice(&frame),
                Ok(None) => {
                    // A last line without a newline still counts.
                    self.done = true;
                    if !self.pending.is_empty() && !self.skipping {
                        self.pending.push(b'\n');
                    }
                }
                // The client broke the connection: no one is left to answer.
                Ok(Some(Err(_))) => {
                    self.done = true;
                    self.pending.clear();
                }
                Err(_) => {
                    self.done = true;
                    self.pending.clear();
                    self.line += 1;
                    chunk.push((Position::Line(self.line), Err(ApiError::BodyStalled(idle_timeout))));
                }
            }
        }
    }

    /// Moves the complete lines in `pending` into `chunk`, up to [`CHUNK_BOARDS`].
    fn take_lines(&mut self, chunk: &mut Vec<Item>, line_limit: usize) {
        let mut start = 0;
        let mut rest_is_partial = false;
        while chunk.len() < CHUNK_BOARDS {
            let Some(length) = self.pending[start..].iter().position(|&byte| byte == b'\n') else {
                rest_is_partial = true;
                break;
            };
            let line = &self.pending[start..start + length];
            start += length + 1;
            if std::mem::take(&mut self.skipping) {
                continue;
            }
            self.line += 1;
            if line.len() > line_limit {
                chunk.push((Position::Line(self.line), Err(ApiError::LineTooLong(line_limit))));
            } else if !line.trim_ascii().is_empty() {
                chunk.push((Position::Line(self.line), read_line(line)));
            }
        }
        self.pending.drain(..start);
        if !rest_is_partial {
            return;
        }
        // An overlong line is answered as soon as it is known to be one, and the rest of it is
        // dropped as it comes, so it never fills memory.
        if self.skipping {
            self.pending.clear();
        } else if self.pending.len() > line_limit {
            self.line += 1;
            chunk.push((Position::Line(self.line), Err(ApiError::LineTooLong(line_limit))));
            self.pending.clear();
            self.skipping = true;
        }
    }
}

/// One NDJSON line: a `/v1/solve` request body.
fn read_line(line: &[u8]) -> Result<(Board, Format), ApiError> {
    let request: BoardRequest = parse_object(line)?;
    request.board.into_result().map_err(|error: BoardError| error.into())
}
