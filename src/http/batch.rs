//! `POST /v1/solve/batch`: many boards in one request, as a JSON array or as an NDJSON stream.
//!
//! Both forms cut the boards into chunks of up to [`CHUNK_BOARDS`] and run the chunks on the
//! solver pool, as many at once as there are solver slots, answering in input order. Each board
//! gets its own result: what `/v1/solve` would answer, or a problem object that fails only that
//! board. A chunk is the unit of pool work because one board alone is too small (a few
//! microseconds against the pool's hand-off), while 64 of them still make a short job that
//! leaves slots turning over for single solves. The first chunk is tried on the async worker
//! first, as a single solve is, and goes on on the pool where it stopped, so a small batch is
//! often answered without a hand-off.
//!
//! A batch takes a place among the pool's admitted callers only for a chunk it is about to
//! solve, waiting in line for it (see [`SolverPool::run_patiently`]), never while its client is
//! slow to send or to read. A JSON batch's body is read and bounded first; reading the boards
//! out of it is refused at once when the server is full, stops at `--max-batch-boards`, and is
//! pool work when the body is bigger than one `/v1/solve` body may be (up to megabytes). Each
//! board is parsed on its own, so one that is not a board (even a number out of range) fails
//! alone.
//!
//! NDJSON is read and answered as a stream: a chunk holds the complete lines that have arrived,
//! its result lines go out as soon as it is solved, and memory stays bounded by the chunks in
//! flight however long the stream is. A full server refuses the stream before it begins.

use std::cell::Cell;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use futures_util::stream::{self, BoxStream, Stream, StreamExt};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use super::extract::{has_json_content_type, media_type, parse_object, parse_object_seed, parse_value, read_limited};
use super::handlers::{BoardRequest, SolveResponse, json_response, solved};
use super::problem::{ItemProblem, Position};
use super::{ApiError, AppState};
use crate::board::{Format, JsonBoard};
use crate::member;
use crate::metrics::Work;
use crate::pool::{Line, SolverPool, Turn};
use crate::puzzle::Puzzle;
use crate::solver::{Interrupt, Interrupted, Progress};
use crate::variants::Constraints;

/// Boards per unit of pool work.
const CHUNK_BOARDS: usize = 64;

/// The media type of newline-delimited JSON, in and out.
pub(crate) const NDJSON: &str = "application/x-ndjson";

/// What a batch request must send, as the detail of its 415.
const BATCH_MEDIA_TYPES: &str = "JSON (`application/json`) or NDJSON (`application/x-ndjson`)";

/// One board of a batch, read or not, and where it sits.
type Item = (Position, Result<(Puzzle, Format), ApiError>);

/// One board's result: the solution, or what went wrong.
enum BatchResult {
    Solved(SolveResponse),
    Failed(ItemProblem),
}

impl BatchResult {
    /// Writes the result as JSON: a solution as `/v1/solve` writes it, a problem object.
    fn write_json(&self, out: &mut Vec<u8>) {
        match self {
            BatchResult::Solved(answer) => answer.write_json(out),
            BatchResult::Failed(problem) => serde_json::to_writer(out, problem).expect("problems always serialize"),
        }
    }
}

/// A JSON batch's answer, `{"results": [...]}`, from its chunks' results.
fn json_batch(chunks: Vec<Vec<BatchResult>>) -> Response {
    let mut body = Vec::with_capacity(chunks.iter().map(Vec::len).sum::<usize>() * RESULT_BYTES + 16);
    body.extend_from_slice(b"{\"results\":[");
    for (index, result) in chunks.iter().flatten().enumerate() {
        if index > 0 {
            body.push(b',');
        }
        result.write_json(&mut body);
    }
    body.extend_from_slice(b"]}");
    json_response(Body::from(body))
}

/// About the bytes of one result of a 9x9 board.
const RESULT_BYTES: usize = 128;

/// `POST /v1/solve/batch`.
pub(super) async fn solve_batch(State(state): State<AppState>, request: Request) -> Result<Response, ApiError> {
    let is_ndjson = media_type(request.headers()).is_some_and(|essence| essence.eq_ignore_ascii_case(NDJSON));
    if !is_ndjson && !has_json_content_type(request.headers()) {
        return Err(ApiError::UnsupportedMediaType(BATCH_MEDIA_TYPES));
    }
    let body = request.into_body();
    // A chunk waits in line for the pool as long as a request may take.
    let line = state.pool.line(state.request_timeout);
    if is_ndjson {
        state.pool.check_room()?;
        let lines = ndjson_items(body, state.body_limit, state.request_timeout);
        let results =
            solve_items(lines, state.pool, line).map(|chunk| Ok::<_, std::convert::Infallible>(ndjson(chunk)));
        return Ok(([(header::CONTENT_TYPE, NDJSON)], Body::from_stream(results)).into_response());
    }
    let body = read_limited(body, state.body_limit.saturating_mul(state.max_batch_boards)).await?;
    let max_boards = state.max_batch_boards;
    // A body no bigger than one `/v1/solve` request's is read on the async worker, as that
    // request's is; a bigger one (up to megabytes) is pool work. Either way a full server
    // refuses it at once.
    let items = if body.len() <= state.body_limit {
        state.pool.check_room()?;
        read_json_batch(&body, max_boards)?
    } else {
        state.pool.run(Work::Batch, move |_| Ok(read_json_batch(&body, max_boards))).await??
    };
    let mut items = items.into_iter();
    let chunks: Vec<Vec<Item>> = std::iter::from_fn(|| {
        let chunk: Vec<Item> = items.by_ref().take(CHUNK_BOARDS).collect();
        (!chunk.is_empty()).then_some(chunk)
    })
    .collect();
    let results: Vec<Vec<BatchResult>> = solve_items(stream::iter(chunks).boxed(), state.pool, line).collect().await;
    Ok(json_batch(results))
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

/// The members of a JSON batch's body.
pub(super) const BATCH_MEMBERS: &[&str] = &["boards"];

/// Reads a JSON batch object: its `boards` array, each board left as raw JSON, and stops at
/// the first board past `max_boards` (noted in `overflowed`), so a huge array never becomes a
/// huge vector. Another member is refused, naming it.
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
            if !BATCH_MEMBERS.contains(&key.as_ref()) {
                let belongs = (member::members::<BoardRequest>().contains(&key.as_ref())
                    || Constraints::home_of(&key).is_some())
                .then(|| "inside each entry of `boards`, an object as a `/v1/solve` body is".to_owned());
                return Err(de::Error::custom(member::unknown_member(&key, BATCH_MEMBERS, belongs)));
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
/// its turn in the batch's `line`; yields results in input order. The first chunk is tried on the async
/// worker first ([`SolverPool::run_patiently_inline_first`]): a small batch is often solved
/// within the inline budget, and then never pays the hand-off to the pool and back. One try a
/// request, so the worker is held no longer than for a single solve.
fn solve_items(
    chunks: BoxStream<'static, Vec<Item>>,
    pool: SolverPool,
    line: Line,
) -> impl Stream<Item = Vec<BatchResult>> {
    let slots = pool.limits().slots;
    chunks
        .enumerate()
        .map(move |(index, chunk)| {
            let pool = pool.clone();
            async move {
                let positions: Vec<Position> = chunk.iter().map(|(position, _)| *position).collect();
                let mut solving = ChunkSolve::new(chunk, pool.limits().solve_timeout);
                let solved = if index == 0 {
                    pool.run_patiently_inline_first(Work::Batch, line, move |deadline, turn| {
                        solving.go_on(deadline, turn)
                    })
                    .await
                } else {
                    pool.run_patiently(Work::Batch, line, move |deadline| solving.go_on(deadline, Turn::Last)).await
                };
                match solved {
                    Ok(results) => results,
                    Err(error) => positions.into_iter().map(|at| failed(ApiError::from(error), at)).collect(),
                }
            }
        })
        .buffered(slots.max(1))
}

/// One chunk's boards being solved, each with the chunk's deadline: a board reached after the
/// deadline fails with `solve-timeout`, those before it keep their answers. A try on the async
/// worker that the inline budget stops keeps where it stopped, the board's search included, and
/// the pool's call goes on from there.
struct ChunkSolve {
    items: std::vec::IntoIter<Item>,
    results: Vec<BatchResult>,
    /// The board a try stopped in, with its search's progress.
    paused: Option<(Position, Puzzle, Format, Progress)>,
    solve_timeout: Duration,
}

impl ChunkSolve {
    fn new(chunk: Vec<Item>, solve_timeout: Duration) -> ChunkSolve {
        ChunkSolve { results: Vec::with_capacity(chunk.len()), items: chunk.into_iter(), paused: None, solve_timeout }
    }

    /// Solves the boards left, on its `turn` (see [`Turn`]); the chunk's results once all are
    /// answered.
    fn go_on(&mut self, interrupt: &mut impl Interrupt, turn: Turn) -> Result<Vec<BatchResult>, Interrupted> {
        loop {
            let (position, puzzle, format, mut progress) = match self.paused.take() {
                Some(paused) => paused,
                None => match self.items.next() {
                    None => return Ok(std::mem::take(&mut self.results)),
                    Some((position, Err(error))) => {
                        self.results.push(failed(error, position));
                        continue;
                    }
                    Some((position, Ok((puzzle, format)))) => (position, puzzle, format, Progress::default()),
                },
            };
            let answer = match puzzle.classify_from(&mut progress, interrupt) {
                Ok(verdict) => solved(verdict, format),
                Err(Interrupted) if turn == Turn::Inline => {
                    self.paused = Some((position, puzzle, format, progress));
                    return Err(Interrupted);
                }
                Err(Interrupted) => Err(ApiError::SolveTimeout(self.solve_timeout)),
            };
            self.results.push(answer.map_or_else(|error| failed(error, position), BatchResult::Solved));
        }
    }
}

fn failed(error: ApiError, position: Position) -> BatchResult {
    BatchResult::Failed(ItemProblem::new(error, position))
}

/// Writes results as NDJSON lines.
fn ndjson(results: Vec<BatchResult>) -> Bytes {
    let mut out = Vec::with_capacity(results.len() * RESULT_BYTES);
    for result in &results {
        result.write_json(&mut out);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{EveryNthPoll, Never, PollBudget};

    /// The first three of tests/data/forum_hardest_1106.txt (about 200 guesses each), beside an
    /// easy board, repeated givens, an unsolvable one, one with many solutions and a bad entry.
    fn chunk() -> Vec<Item> {
        let boards = [
            "\"53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\"",
            "\"........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3\"",
            "\"55..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\"",
            "\"........2..8.1.9..5....3.4....1.93...6..3..8...37......4......53.1.7.8..2........\"",
            "\".123456789.......................................................................\"",
            "[[1,2,3,4,5,6,7,8,12]]",
            "\"..2...7...1.....6.5......18....37.......49.....41.23....3.2.9...8.....5.6.......2\"",
            "\".................................................................................\"",
        ];
        read_json_batch(format!("{{\"boards\":[{}]}}", boards.join(",")).as_bytes(), 100).unwrap()
    }

    fn json(results: &[BatchResult]) -> String {
        let mut out = Vec::new();
        results.iter().for_each(|result| result.write_json(&mut out));
        String::from_utf8(out).unwrap()
    }

    /// A chunk paused by its inline turns, again and again, mid-search and between boards, ends
    /// with the answers of one call straight through, in order.
    #[test]
    fn a_paused_chunk_goes_on_where_it_stopped() {
        let straight = json(&ChunkSolve::new(chunk(), Duration::ZERO).go_on(&mut Never, Turn::Last).unwrap());
        for n in [3, 7, 50] {
            let mut solving = ChunkSolve::new(chunk(), Duration::ZERO);
            let mut interrupt = EveryNthPoll::new(n);
            let mut pauses = 0;
            let results = loop {
                match solving.go_on(&mut interrupt, Turn::Inline) {
                    Ok(results) => break results,
                    Err(Interrupted) => pauses += 1,
                }
            };
            assert!(pauses > 2, "every {n}th poll paused only {pauses} times");
            assert_eq!(json(&results), straight, "paused at every {n}th poll");
        }
    }

    /// On its last turn, a chunk its deadline stops answers every board: those it solved keep
    /// their answers, the rest fail with `solve-timeout`, the entry that is no board with its own
    /// problem.
    #[test]
    fn a_chunk_stopped_on_its_last_turn_times_out_the_boards_left() {
        let straight = ChunkSolve::new(chunk(), Duration::ZERO).go_on(&mut Never, Turn::Last).unwrap();
        let solve_timeout = Duration::from_millis(7);
        // Stops at the second poll and every one after, as a deadline that has passed: each
        // board polls as its search starts, so the first is solved and the rest are not.
        let results = ChunkSolve::new(chunk(), solve_timeout).go_on(&mut PollBudget(2), Turn::Last).unwrap();
        let expected: Vec<String> = (0..straight.len())
            .map(|index| match index {
                0 | 5 => json(&straight[index..=index]),
                _ => json(&[failed(ApiError::SolveTimeout(solve_timeout), Position::Index(index))]),
            })
            .collect();
        let results: Vec<String> = results.iter().map(|result| json(std::slice::from_ref(result))).collect();
        assert_eq!(results, expected);
    }
}
