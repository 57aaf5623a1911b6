//! hyper's own answers to requests it cannot parse, rewritten as problem documents.
//!
//! hyper refuses an HTTP/1 request head it cannot parse (a version other than 1.0 or 1.1, a
//! folded header, conflicting `Content-Length`s, a target over 65,534 bytes, too many or too
//! large headers) by writing a canned answer itself, before any service sees the request:
//! `HTTP/1.1 <status>`, `connection: close`, `content-length: 0`, `date`, and nothing else, then
//! it closes. No hook lets a server word that answer, so the socket (`io.rs`) recognises
//! it on its way out and sends a problem document with a fresh request id instead. The
//! recognition is exact: every answer of the service carries `x-request-id` and a body, so a
//! head without either can only be hyper's.

use axum::http::StatusCode;

use crate::http::problem::parser_rejection;

/// The longest canned answer: a status line and three short headers.
pub(super) const MAX_CANNED_LEN: usize = 256;

/// Whether `bytes` may be (or, for the first slice of a vectored write, begin) one of hyper's
/// canned answers: the cheap test before [`rewrite`].
pub(super) fn may_be_canned(bytes: &[u8]) -> bool {
    bytes.len() <= MAX_CANNED_LEN && (bytes.starts_with(b"HTTP/1.1 4") || bytes.starts_with(b"HTTP/1.1 5"))
}

/// The problem answer that replaces `written`, when `written` is exactly one of hyper's canned
/// answers.
pub(super) fn rewrite(written: &[u8]) -> Option<Vec<u8>> {
    let (status, date) = canned(written)?;
    let request_id = crate::http::fresh_request_id();
    let request_id = request_id.to_str().ok()?;
    let body = parser_rejection(status, request_id);
    tracing::info!(status = status.as_u16(), request_id, "the HTTP parser refused a request");
    let mut answer = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/problem+json\r\nx-request-id: {request_id}\r\n\
         connection: close\r\ncontent-length: {}\r\ndate: {date}\r\n\r\n",
        status.as_str(),
        status.canonical_reason().unwrap_or(""),
        body.len(),
    )
    .into_bytes();
    answer.extend_from_slice(&body);
    Some(answer)
}

/// The status and date of a canned answer.
fn canned(written: &[u8]) -> Option<(StatusCode, &str)> {
    let text = std::str::from_utf8(written).ok()?;
    let (status_line, headers) = text.strip_prefix("HTTP/1.1 ")?.split_once("\r\n")?;
    let status: StatusCode = status_line.get(..3)?.parse().ok()?;
    if !status.is_client_error() && !status.is_server_error() {
        return None;
    }
    let (mut closes, mut empty, mut date) = (false, false, None);
    for header in headers.strip_suffix("\r\n\r\n")?.split("\r\n") {
        match header.split_once(": ")? {
            ("connection", "close") => closes = true,
            ("content-length", "0") => empty = true,
            ("date", value) => date = Some(value),
            _ => return None,
        }
    }
    (closes && empty).then_some((status, date?))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CANNED: &[u8] = b"HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\ncontent-length: 0\r\n\
        date: Tue, 01 Dec 2026 00:13:08 GMT\r\n\r\n";

    #[test]
    fn a_canned_answer_becomes_a_problem_with_an_id() {
        assert!(may_be_canned(CANNED));
        let answer = String::from_utf8(rewrite(CANNED).unwrap()).unwrap();
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"), "{head}");
        assert!(head.contains("\r\ncontent-type: application/problem+json\r\n"));
        assert!(head.contains("\r\nconnection: close\r\n"));
        assert!(head.contains(&format!("\r\ncontent-length: {}\r\n", body.len())));
        assert!(head.ends_with("date: Tue, 01 Dec 2026 00:13:08 GMT"));
        let problem: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(problem["type"], "https://sudokud.dev/problems/headers-too-large");
        assert_eq!(problem["status"], 431);
        let id = problem["request_id"].as_str().unwrap();
        assert!(head.contains(&format!("\r\nx-request-id: {id}\r\n")));
    }

    #[test]
    fn answers_of_the_service_are_never_taken_for_canned_ones() {
        let ours = b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/problem+json\r\nx-request-id: a\r\n\
            content-length: 0\r\nconnection: close\r\ndate: Tue, 01 Dec 2026 00:13:08 GMT\r\n\r\n";
        assert_eq!(rewrite(ours), None);
        let success = b"HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        assert_eq!(rewrite(success), None);
        let with_body = [CANNED, b"{}"].concat();
        assert_eq!(rewrite(&with_body), None);
    }
}
