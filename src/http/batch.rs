//! `POST /v1/solve/batch`: many boards in one request, as a JSON array or as an NDJSON stream.
//!
//! Both forms cut the boards into chunks of up to [`CHUNK_BOARDS`] and run the chunks on the
//! solver pool, as many at once as there are solver slots, answering in input order. Each board
//! gets its own result: what `/v1/solve` would answer, or a problem object that fails only that
//! board. A chunk is the unit of pool work because one board alone is too small (a few
//! microseconds against the pool's hand-off), while 64 of them still make a short job that
//! leaves slots turning over for single solves.
//!
//! A batch takes a place among the pool's admitted callers only for a chunk it is about to
//! solve, waiting in line for it (see [`SolverPool::run_patiently`]), never while its client is
//! slow to send or to read. A JSON batch's body is read and bounded first; reading the boards
//! out of it (up to megabytes) is pool work too, refused at once when the server is full, and
//! stops at `--max-batch-boards`. Each board is parsed on its own, so one that is not a board
//! (even a number out of range) fails alone.
//!
//! NDJSON is read and answered as a stream: a chunk holds the complete lines that have arrived,
//! its result lines go out as soon as it is solved, and memory stays bounded by the chunks in
//! flight however long the stream is. A full server refuses the stream before it begins.

use std::cell::Cell;
use std::time::Duration;

use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use futures_util::stream::{self, BoxStream, Stream, StreamExt};
use serde::Serialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use super::extract::{has_json_content_type, media_type, parse_object, parse_object_seed, parse_value, read_limited};
use super::handlers::{BoardRequest, SolveResponse, solve_puzzle};
use super::problem::{ItemProblem, Position};
use super::{ApiError, AppState};
use crate::board::{Format, JsonBoard};
use crate::pool::SolverPool;
use crate::solver::Deadline;
use crate::variants::Puzzle;

/// Boards per unit of pool work.
const CHUNK_BOARDS: usize = 64;

/// The media type of newline-delimited JSON, in and out.
pub const NDJSON: &str = "application/x-ndjson";

/// What a batch request must send, as the detail of its 415.
const BATCH_MEDIA_TYPES: &str = "JSON (`application/json`) or NDJSON (`application/x-ndjson`)";

/// One board of a batch, read or not, and where it sits.
type Item = (Position, Result<(Puzzle, Format), ApiError>);

/// One board's result: the solution, or what went wrong.
#[derive(Serialize)]
#[serde(untagged)]
enum BatchResult {
    Solved(SolveResponse),
    Failed(ItemProblem),
}

#[derive(Serialize)]
struct BatchResponse {
    results: Vec<BatchResult>,
}

/// `POST /v1/solve/batch`.
pub async fn solve_batch(State(state): State<AppState>, request: Request) -> Result<Response, ApiError> {
    let is_ndjson = media_type(request.headers()).is_some_and(|essence| essence.eq_ignore_ascii_case(NDJSON));
    if !is_ndjson && !has_json_content_type(request.headers()) {
        return Err(ApiError::UnsupportedMediaType(BATCH_MEDIA_TYPES));
    }
    let body = request.into_body();
    // A chunk waits in line for the pool as long as a request may take.
    let patience = state.request_timeout;
    if is_ndjson {
        state.pool.check_room()?;
        let lines = ndjson_items(body, state.body_limit, state.request_timeout);
        let results =
            solve_items(lines, state.pool, patience).map(|chunk| Ok::<_, std::convert::Infallible>(ndjson(chunk)));
        return Ok(([(header::CONTENT_TYPE, NDJSON)], Body::from_stream(results)).into_response());
    }
    let body = read_limited(body, state.body_limit.saturating_mul(state.max_batch_boards)).await?;
    let max_boards = state.max_batch_boards;
    let items = state.pool.run("batch", move |_| Ok(read_json_batch(&body, max_boards))).await??;
    let mut items = items.into_iter();
    let chunks: Vec<Vec<Item>> = std::iter::from_fn(|| {
        let chunk: Vec<Item> = items.by_ref().take(CHUNK_BOARDS).collect();
        (!chunk.is_empty()).then_some(chunk)
    })
    .collect();
    let results: Vec<Vec<BatchResult>> =
        solve_items(stream::iter(chunks).boxed(), state.pool, patience).collect().await;
    Ok(Json(BatchResponse { results: results.into_iter().flatten().collect() }).into_response())
}

/// Reads the boards of a JSON batch body, at most `max_boards` of them, each on its own.
fn read_json_batch(body: &[u8], max_boards: usize) -> Result<Vec<Item>, ApiError> {
    let overflowed = Cell::new(false);
    let boards = parse_object_seed(body, BatchSeed { max_boards, overflowed: &overflowed });
    if overflowed.get() {
        return Err(ApiError::InvalidRequest(format!(
            "`boards` has more than {max_boards} boards; a JSON batch takes at most {max_boards} (stream more as NDJSON)"
        )));
    }
    Ok(boards?
        .into_iter()
        .enumerate()
        .map(|(index, board)| {
            let json = board.get();
            // An entry with its own `box` or rules is a request object; its errors point into it.
            if json.starts_with('{') {
                (Position::Entry(index), parse_value::<BoardRequest>(json).and_then(BoardRequest::puzzle))
            } else {
                let grid = parse_value::<JsonBoard>(json).and_then(|board| Ok(board.with_box(None)?));
                (Position::Index(index), grid.map(|(grid, format)| (Puzzle::Classic(grid), format)))
            }
        })
        .collect())
}

/// Reads a JSON batch object: its `boards` array, each board left as raw JSON, and stops at
/// the first board past `max_boards` (noted in `overflowed`), so a huge array never becomes a
/// huge vector. Other members are ignored.
struct BatchSeed<'a> {
    max_boards: usize,
    overflowed: &'a Cell<bool>,
}

impl<'de> DeserializeSeed<'de> for BatchSeed<'_> {
    type Value = Vec<&'de RawValue>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for BatchSeed<'_> {
    type Value = Vec<&'de RawValue>;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("an object with a `boards` array")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut boards = None;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if key != "boards" {
                map.next_value::<IgnoredAny>()?;
            } else if boards.is_some() {
                return Err(de::Error::duplicate_field("boards"));
            } else {
                boards =
                    Some(map.next_value_seed(BoardsSeed { max_boards: self.max_boards, overflowed: self.overflowed })?);
            }
        }
        boards.ok_or_else(|| de::Error::missing_field("boards"))
    }
}

/// The `boards` array of [`BatchSeed`].
struct BoardsSeed<'a> {
    max_boards: usize,
    overflowed: &'a Cell<bool>,
}

impl<'de> DeserializeSeed<'de> for BoardsSeed<'_> {
    type Value = Vec<&'de RawValue>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for BoardsSeed<'_> {
    type Value = Vec<&'de RawValue>;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("an array of boards")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut boards = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(self.max_boards));
        while let Some(board) = seq.next_element::<&'de RawValue>()? {
            if boards.len() == self.max_boards {
                self.overflowed.set(true);
                return Err(de::Error::custom("too many boards"));
            }
            boards.push(board);
        }
        Ok(boards)
    }
}

/// Solves chunks of items on the pool, a chunk per solver slot at a time, each waiting in line
/// at most `patience`; yields results in input order.
fn solve_items(
    chunks: BoxStream<'static, Vec<Item>>,
    pool: SolverPool,
    patience: Duration,
) -> impl Stream<Item = Vec<BatchResult>> {
    let slots = pool.limits().slots;
    chunks
        .map(move |chunk| {
            let pool = pool.clone();
            async move {
                let positions: Vec<Position> = chunk.iter().map(|(position, _)| *position).collect();
                let solve_timeout = pool.limits().solve_timeout;
                let solved = pool
                    .run_patiently("batch", patience, move |deadline| Ok(solve_chunk(chunk, deadline, solve_timeout)));
                match solved.await {
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
fn read_line(line: &[u8]) -> Result<(Puzzle, Format), ApiError> {
    parse_object::<BoardRequest>(line)?.puzzle()
}
