//! `GET /`: the playground page and its two files. What a browser does with them is tested by
//! the end-to-end suite in `tests/browser/` (`scripts/browser-test.sh`); this checks what can be
//! checked without one: the headers, and that the page needs nothing but this server.

use axum::body::{Body, to_bytes};
use axum::http::{HeaderMap, Request, StatusCode, header};
use serde_json::json;
use tower::ServiceExt;

use crate::common::http::*;

/// GETs `path` and returns the status, headers and body text.
async fn get(path: &str) -> (StatusCode, HeaderMap, String) {
    let response = router(&config()).oneshot(Request::get(path).body(Body::empty()).unwrap()).await.unwrap();
    let (status, headers) = (response.status(), response.headers().clone());
    let body = to_bytes(response.into_body(), 1 << 20).await.unwrap();
    (status, headers, String::from_utf8(body.to_vec()).expect("a text body"))
}

/// Every value of the attribute `name` in `html`, as written between double quotes.
fn attribute_values<'a>(html: &'a str, name: &str) -> Vec<&'a str> {
    let opening = format!(" {name}=\"");
    html.match_indices(&opening)
        .map(|(at, _)| {
            let value = &html[at + opening.len()..];
            &value[..value.find('"').expect("a closing quote")]
        })
        .collect()
}

/// The directives of a Content-Security-Policy, by name.
fn directives(policy: &str) -> Vec<(&str, Vec<&str>)> {
    policy
        .split(';')
        .filter_map(|directive| {
            let mut words = directive.split_whitespace();
            Some((words.next()?, words.collect()))
        })
        .collect()
}

#[tokio::test]
async fn the_page_is_html_with_a_strict_content_security_policy() {
    let (status, headers, html) = get("/").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_TYPE], "text/html; charset=utf-8");
    assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    assert!(html.starts_with("<!doctype html>"), "{html}");

    let policy = headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
    let directives = directives(policy);
    let sources = |name: &str| directives.iter().find(|(directive, _)| *directive == name).map(|(_, sources)| sources);
    assert_eq!(sources("default-src"), Some(&vec!["'none'"]), "{policy}");
    for name in ["script-src", "style-src", "connect-src"] {
        assert_eq!(sources(name), Some(&vec!["'self'"]), "{name} in {policy}");
    }
    for name in ["base-uri", "form-action", "frame-ancestors"] {
        assert_eq!(sources(name), Some(&vec!["'none'"]), "{name} in {policy}");
    }
    // Whatever else it names: no inline code, no eval, no other origin or scheme.
    for (name, sources) in &directives {
        for source in sources {
            assert!(["'self'", "'none'"].contains(source), "{name} allows {source}: {policy}");
        }
    }
}

#[tokio::test]
async fn the_page_references_only_same_origin_resources_and_runs_no_inline_code() {
    let (_, _, html) = get("/").await;
    let references: Vec<&str> =
        attribute_values(&html, "src").into_iter().chain(attribute_values(&html, "href")).collect();
    assert!(references.contains(&"/playground.js") && references.contains(&"/playground.css"), "{references:?}");
    for reference in &references {
        // A path on this server: not `//host/...`, not `https:`, `data:` or `javascript:`.
        assert!(reference.starts_with('/') && !reference.starts_with("//"), "{reference} is not same-origin");
        let (status, headers, _) = get(reference).await;
        assert_eq!(status, StatusCode::OK, "{reference}");
        assert!(headers.contains_key(header::CONTENT_TYPE), "{reference}");
    }
    // The policy forbids inline code, so the page must have none: it would silently not run.
    assert!(!html.contains("<style") && !html.contains(" style="), "inline style");
    assert_eq!(html.matches("<script").count(), html.matches("<script src=\"/").count(), "inline script");
    for (at, _) in html.match_indices(" on") {
        let rest = &html[at + " on".len()..];
        let name = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_lowercase()).len();
        assert!(!rest[name..].starts_with('='), "an inline event handler: {}", &html[at..at + 20]);
    }

    let (_, headers, css) = get("/playground.css").await;
    assert_eq!(headers[header::CONTENT_TYPE], "text/css; charset=utf-8");
    assert!(!css.contains("url(") && !css.contains("@import") && !css.contains("@font-face"), "{css}");
    let (_, headers, script) = get("/playground.js").await;
    assert_eq!(headers[header::CONTENT_TYPE], "text/javascript; charset=utf-8");
    // The SVG namespace is a name, never fetched; any other URL would be a request elsewhere.
    let script = script.replace("'http://www.w3.org/2000/svg'", "");
    assert!(!script.contains("://"), "the script names another origin");
}

/// Every API path the script calls exists and answers what the script sends: a POST of a board
/// (of a level, to `/v1/generate`; of a shared puzzle, to `/v1/import`; with a format, to
/// `/v1/export`), or a GET of a query the script completes (`?difficulty=` and the level).
#[tokio::test]
async fn the_script_calls_only_routes_that_exist() {
    let (_, _, script) = get("/playground.js").await;
    let paths: Vec<&str> = ["call('", "request('"]
        .iter()
        .flat_map(|call| script.match_indices(call).map(|(at, _)| &script[at + call.len()..]))
        .map(|path| &path[..path.find('\'').unwrap()])
        .collect();
    assert_eq!(paths.len(), 9, "{paths:?}");
    for path in paths {
        let request = match path.strip_suffix('=') {
            Some(_) => Request::get(format!("{path}easy")).body(Body::empty()).unwrap(),
            None if path == "/v1/generate" => post_json(path, json!({ "difficulty": "easy" }).to_string()),
            None if path == "/v1/import" => post_json(path, json!({ "puzzle": ".~R1C1_5" }).to_string()),
            None if path == "/v1/export" => {
                post_json(path, json!({ "board": PUZZLE, "format": "sudokupad" }).to_string())
            }
            None => post_json(path, json!({ "board": PUZZLE }).to_string()),
        };
        let reply = send(router(&config()), request).await;
        assert_eq!(reply.status, StatusCode::OK, "{path}: {}", reply.body);
    }
}
