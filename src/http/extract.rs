//! The JSON body extractor, with rejections that are [`ApiError`]s.

use std::marker::PhantomData;
use std::pin::Pin;

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::{FromRequest, Request};
use axum::http::{HeaderMap, header};

use serde::de::{DeserializeOwned, DeserializeSeed, IgnoredAny};

use super::problem::JSON_MEDIA_TYPE;
use super::{ApiError, AppState};

/// A JSON object request body, read into `T`.
///
/// Unlike [`axum::Json`] it insists on a JSON *object*: serde's derived structs also accept an
/// array of their fields (`["53..7..."]`), which no client means to send. Rejections: 415 for
/// a missing or non-JSON content type, 413 for a body over the limit, 400 for malformed JSON,
/// and 422 for well-formed JSON of the wrong shape.
pub(super) struct JsonBody<T>(pub T);

impl<T: JsonObject> FromRequest<AppState> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &AppState) -> Result<JsonBody<T>, ApiError> {
        if !has_json_content_type(request.headers()) {
            return Err(ApiError::UnsupportedMediaType(JSON_MEDIA_TYPE));
        }
        let bytes = read_limited(request.into_body(), state.body_limit).await?;
        parse_object(&bytes).map(JsonBody)
    }
}

/// Reads a request body of at most `limit` bytes (413 `payload-too-large` past it: at once when
/// its `Content-Length` says so, else as soon as more arrives). A body that arrives in one frame,
/// as a small one does with its head, is kept as hyper read it rather than copied.
pub(super) async fn read_limited(mut body: Body, limit: usize) -> Result<Bytes, ApiError> {
    let size_hint = body.size_hint().lower();
    if size_hint > u64::try_from(limit).unwrap_or(u64::MAX) {
        return Err(ApiError::PayloadTooLarge(limit));
    }
    let mut first: Option<Bytes> = None;
    let mut joined = Vec::new();
    while let Some(frame) = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {
        // The client stopped sending mid-body.
        let frame = frame.map_err(|error| ApiError::MalformedJson(error.to_string()))?;
        let Ok(data) = frame.into_data() else { continue };
        let read = first.as_ref().map_or(joined.len(), Bytes::len);
        if read + data.len() > limit {
            return Err(ApiError::PayloadTooLarge(limit));
        }
        match first.take() {
            // A body known to end here (its Content-Length is read) is not polled again.
            None if joined.is_empty() && body.is_end_stream() => return Ok(data),
            None if joined.is_empty() => first = Some(data),
            earlier => {
                if let Some(earlier) = earlier {
                    // At most the limit up front, so a body never takes twice its size in
                    // reallocations.
                    joined.reserve(usize::try_from(size_hint).unwrap_or(limit).clamp(read + data.len(), limit));
                    joined.extend_from_slice(&earlier);
                }
                joined.extend_from_slice(&data);
            }
        }
    }
    Ok(first.unwrap_or_else(|| Bytes::from(joined)))
}

/// A type a JSON object body is read into, by serde, or without it when the body is in the one
/// form the type reads itself.
pub(super) trait JsonObject: DeserializeOwned {
    /// The value serde would read from `bytes`, when they are in the form the type reads without
    /// serde; `None` (the default) sends them to serde. For `{"board":"53..7..."}`, the body of
    /// most solves, serde's reader and its checks took 1,750 of the request's 35,700 instructions.
    fn read_plain(_bytes: &[u8]) -> Option<Self> {
        None
    }
}

/// Reads one JSON object into `T`: 400 for malformed JSON, 422 for JSON of another type or shape,
/// naming the member at fault (see [`shape_error`]).
pub(super) fn parse_object<T: JsonObject>(bytes: &[u8]) -> Result<T, ApiError> {
    match T::read_plain(bytes) {
        Some(value) => Ok(value),
        None => read_object(bytes, PhantomData, |error| shape_error::<T>(bytes, error)),
    }
}

/// The text of the one member `name` of the JSON object in `bytes`, when that is all the body
/// is and its value is a string without escapes: `{"board":"53..7..."}`,
/// with JSON's whitespace between any two tokens. Such a string reads as its bytes, so a
/// [`JsonObject::read_plain`] can take it as it is; anything else is `None`, left to serde.
pub(super) fn sole_string_member<'a>(bytes: &'a [u8], name: &str) -> Option<&'a str> {
    /// What follows `token` in `rest`, when `token` comes next after JSON whitespace.
    fn after<'b>(rest: &'b [u8], token: &[u8]) -> Option<&'b [u8]> {
        let start = rest.iter().position(|byte| !matches!(byte, b' ' | b'\t' | b'\n' | b'\r')).unwrap_or(rest.len());
        rest[start..].strip_prefix(token)
    }
    let rest = after(bytes, b"{")?;
    // Inside quotes nothing is skipped: the name, its closing quote and the value are exact.
    let rest = after(rest, b"\"")?.strip_prefix(name.as_bytes())?.strip_prefix(b"\"")?;
    let value = after(after(rest, b":")?, b"\"")?;
    let (text, rest) = value.split_at(memchr::memchr2(b'"', b'\\', value)?);
    // A control character is not JSON in a string; other bytes are the string's own, as long as
    // they are UTF-8 (checked below). No early exit, so the compiler checks many bytes at once.
    if text.iter().fold(false, |control, &byte| control | (byte < b' ')) {
        return None;
    }
    let rest = after(rest.strip_prefix(b"\"")?, b"}")?;
    after(rest, b"")?.is_empty().then(|| std::str::from_utf8(text).ok())?
}

/// [`parse_object`] with a seed, for readers that need more than a type (a limit, say) or that
/// borrow from the body.
pub(super) fn parse_object_seed<'de, S: DeserializeSeed<'de>>(bytes: &'de [u8], seed: S) -> Result<S::Value, ApiError> {
    read_object(bytes, seed, |error| without_position(&error))
}

/// The last `\u` escape of a UTF-16 surrogate (`\uD800`) in `bytes` up to `line` and `column`
/// (1-based, as serde_json gives them), where serde_json found one alone.
fn surrogate_before(bytes: &[u8], line: usize, column: usize) -> Option<String> {
    let line_start = if line <= 1 {
        0
    } else {
        let newlines = bytes.iter().enumerate().filter(|&(_, &byte)| byte == b'\n');
        newlines.map(|(at, _)| at + 1).nth(line - 2)?
    };
    let end = (line_start + column).min(bytes.len());
    let before = &bytes[..end];
    (0..before.len().saturating_sub(5)).rev().find_map(|at| {
        let escape = before.get(at..at + 6)?;
        let hex = std::str::from_utf8(&escape[2..]).ok()?;
        let code = u16::from_str_radix(hex, 16).ok()?;
        // An escape, not an escaped backslash followed by `u`: an odd run of backslashes.
        let backslashes = before[..=at].iter().rev().take_while(|&&byte| byte == b'\\').count();
        (escape.starts_with(b"\\u") && backslashes % 2 == 1 && (0xd800..=0xdfff).contains(&code))
            .then(|| format!("\\u{code:04X}"))
    })
}

/// serde_json's message without the line and column it adds.
fn without_position(error: &serde_json::Error) -> String {
    let position = format!(" at line {} column {}", error.line(), error.column());
    let text = error.to_string();
    text.strip_suffix(&position).map_or(text.clone(), str::to_owned)
}

/// The reading behind [`parse_object`] and [`parse_object_seed`]; `shape` words the 422 of JSON
/// that does not fit.
fn read_object<'de, S: DeserializeSeed<'de>>(
    bytes: &'de [u8],
    seed: S,
    shape: impl FnOnce(serde_json::Error) -> String,
) -> Result<S::Value, ApiError> {
    // serde_json skips the UTF-8 check in strings it ignores (unknown members, a non-object
    // body), but JSON text is UTF-8 throughout.
    if let Err(error) = std::str::from_utf8(bytes) {
        return Err(ApiError::MalformedJson(format!("invalid UTF-8 at byte offset {}", error.valid_up_to())));
    }
    if bytes.iter().find(|byte| !byte.is_ascii_whitespace()) != Some(&b'{') {
        return Err(match serde_json::from_slice::<IgnoredAny>(bytes) {
            Ok(_) => ApiError::InvalidRequest("the request body must be a JSON object".to_owned()),
            Err(error) => ApiError::MalformedJson(error.to_string()),
        });
    }
    // Whether the body is JSON decides between 400 and 422, not the first error serde_json
    // meets: a duplicate `board` may come before a syntax error, and a number beyond f64 or a
    // lone surrogate fails only where serde_json reads it, not where it skips it.
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = seed.deserialize(&mut deserializer).and_then(|value| deserializer.end().map(|()| value));
    value.map_err(|error| match serde_json::from_slice::<IgnoredAny>(bytes) {
        Ok(_) => ApiError::InvalidRequest(shape(error)),
        Err(syntax) => ApiError::MalformedJson(syntax.to_string()),
    })
}

/// Why a JSON body is not a `T`, with the member it is about: `` `difficulty`: found null;
/// expected one of ... ``. The body is read a second time to find the member, so only a request
/// that failed pays for it. The line and column are left out: the member says where.
fn shape_error<T: DeserializeOwned>(bytes: &[u8], error: serde_json::Error) -> String {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    // The same reader on the same bytes fails again, now knowing where.
    let (member, error) = match serde_path_to_error::deserialize::<_, T>(&mut deserializer) {
        Err(tracked) if tracked.path().iter().next().is_some() => {
            (Some(tracked.path().to_string()), tracked.into_inner())
        }
        _ => (None, error),
    };
    let mut message = without_position(&error);
    // serde_json's words for a lone surrogate in a `\u` escape say how it read it, not what is wrong.
    if ["unexpected end of hex escape", "lone leading surrogate in hex escape"].contains(&message.as_str())
        && let Some(escape) = surrogate_before(bytes, error.line(), error.column())
    {
        message = format!("a lone UTF-16 surrogate ({escape}) is not a character");
    }
    match member {
        Some(member) => format!("`{member}`: {message}"),
        None => message.to_owned(),
    }
}

/// Reads a JSON value already known to be well-formed (a part of a checked body) into `T`: 422
/// when it does not fit, naming the member at fault as [`parse_object`] does.
pub(super) fn parse_value<T: DeserializeOwned>(json: &str) -> Result<T, ApiError> {
    serde_json::from_str(json).map_err(|error| ApiError::InvalidRequest(shape_error::<T>(json.as_bytes(), error)))
}

/// `application/json` or any `application/*+json`, with any parameters, in any case.
pub(super) fn has_json_content_type(headers: &HeaderMap) -> bool {
    media_type(headers).is_some_and(|essence| {
        let (kind, subtype) = essence.as_bytes().split_at(essence.len().min(12));
        kind.eq_ignore_ascii_case(b"application/")
            && (subtype.eq_ignore_ascii_case(b"json") || ends_with_ignore_case(subtype, b"+json"))
    })
}

/// Whether `text` ends with `suffix`, in any case.
fn ends_with_ignore_case(text: &[u8], suffix: &[u8]) -> bool {
    text.len() >= suffix.len() && text[text.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
}

/// The request's media type without parameters, as sent (media types are case-insensitive:
/// compare with `eq_ignore_ascii_case`): `Application/JSON` for `Application/JSON; charset=utf-8`.
pub(super) fn media_type(headers: &HeaderMap) -> Option<&str> {
    let content_type = headers.get(header::CONTENT_TYPE)?.to_str().ok()?;
    // `to_str` let through visible ASCII, spaces and tabs only: ASCII trimming is all of it, and
    // a byte loop is a third of `split` and `trim`'s instructions on a solve's request.
    let end = content_type.bytes().position(|byte| byte == b';').unwrap_or(content_type.len());
    Some(content_type[..end].trim_ascii())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    impl JsonObject for IgnoredAny {}

    #[test]
    fn invalid_utf8_is_malformed_even_where_serde_json_skips_it() {
        for body in [&b"{\"other\":\"\xff\",\"board\":\"\"}"[..], b"\"\xff\"", b"{\"\xc3\":1}"] {
            let error = parse_object::<IgnoredAny>(body).err();
            assert!(matches!(error, Some(ApiError::MalformedJson(_))), "{body:?}: {error:?}");
        }
    }

    #[test]
    fn only_a_body_that_is_not_json_is_malformed() {
        use crate::http::handlers::BoardRequest;
        let error = parse_object::<BoardRequest>(b"{\"board\":[[1e400]]}").err();
        assert!(matches!(error, Some(ApiError::InvalidRequest(_))), "{error:?}");
        // A number beyond f64 where serde_json only skips it: JSON still, so the unknown member is
        // the 422.
        let error = parse_object::<BoardRequest>(b"{\"x\":1e400}").err();
        assert!(matches!(&error, Some(ApiError::InvalidRequest(detail)) if detail.contains("`x`")), "{error:?}");
        let error = parse_object::<BoardRequest>(b"{\"board\":\"\\ud800\"}").err();
        assert!(matches!(error, Some(ApiError::InvalidRequest(_))), "{error:?}");
        let error = parse_object::<BoardRequest>(b"{\"board\":[[1e400").err();
        assert!(matches!(error, Some(ApiError::MalformedJson(_))), "{error:?}");
        let error = parse_object::<BoardRequest>(b"{\"board\":3,\"board\":3,0").err();
        assert!(matches!(error, Some(ApiError::MalformedJson(_))), "a duplicate before a syntax error: {error:?}");
    }

    #[test]
    fn a_shape_error_names_its_member_and_no_position() {
        use crate::http::handlers::BoardRequest;
        let detail = |body: &[u8]| match parse_object::<BoardRequest>(body) {
            Err(ApiError::InvalidRequest(detail)) => detail,
            other => panic!("{}: {:?}", String::from_utf8_lossy(body), other.err()),
        };
        assert_eq!(detail(b"{\"board\":[[5,1e400]]}"), "`board[0][1]`: number out of range");
        assert_eq!(detail(b"{\"board\":\"\\ud800\"}"), "`board`: a lone UTF-16 surrogate (\\uD800) is not a character");
        assert_eq!(
            detail(b"{\"board\":\"\\\\ud800\\udc00\"}"),
            "`board`: a lone UTF-16 surrogate (\\uDC00) is not a character",
            "an escaped backslash, then a trailing surrogate alone"
        );
        assert_eq!(
            detail(b"{\"board\":\n\"\\uD83D\\u0041\"}"),
            "`board`: a lone UTF-16 surrogate (\\uD83D) is not a character",
            "on the second line"
        );
        assert_eq!(detail(b"{\"board\":1,\n\"board\":2}"), "duplicate field `board`");
    }

    #[test]
    fn recognises_json_media_types() {
        let check = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::CONTENT_TYPE, HeaderValue::from_str(value).unwrap());
            has_json_content_type(&headers)
        };
        assert!(check("application/json"));
        assert!(check("Application/JSON; charset=utf-8"));
        assert!(check("application/problem+json"));
        assert!(!check("text/json"));
        assert!(!check("application/x-www-form-urlencoded"));
        assert!(!check("application/jsonx"));
        assert!(!has_json_content_type(&HeaderMap::new()));
        // Against lowercasing a copy and comparing, as this was written before.
        let lowered = |value: &str| {
            let essence = value.split(';').next().unwrap().trim().to_ascii_lowercase();
            essence == "application/json" || (essence.starts_with("application/") && essence.ends_with("+json"))
        };
        for value in [
            "APPLICATION/PROBLEM+JSON",
            "application/+json",
            "application/",
            "application",
            "",
            " application/json ; q=1",
            "application/json+x",
            "application/ld+JSON;x=y",
            "applicatioN/vnd.x+Json",
            "text/plain+json",
        ] {
            assert_eq!(check(value), lowered(value), "{value:?}");
        }
    }
}
