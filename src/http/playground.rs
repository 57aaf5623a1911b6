//! `GET /`: the playground, a page to try the API from a browser, embedded in the binary.
//!
//! The page, its style sheet, its script and its icon are four files under `src/http/playground/`,
//! served as they are: no build step, nothing from another origin. Script and style come from
//! their own URLs rather than inline, so the Content-Security-Policy can forbid inline code
//! outright instead of carrying hashes that would have to change with every edit.

use axum::http::header;
use axum::response::IntoResponse;

const INDEX_HTML: &str = include_str!("playground/index.html");
const STYLE_CSS: &str = include_str!("playground/playground.css");
const SCRIPT_JS: &str = include_str!("playground/playground.js");
const FAVICON_SVG: &str = include_str!("playground/favicon.svg");

/// Nothing is allowed unless named: script, style and API calls from this origin only, no
/// inline code, no plug-ins, no frames, no form posts, no `<base>` tricks.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
    connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The headers of every playground file. `no-cache` makes browsers revalidate, so a new
/// version of the server never runs with an old script.
fn static_file(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
}

/// `GET /`: the page.
pub(super) async fn index() -> impl IntoResponse {
    static_file("text/html; charset=utf-8", INDEX_HTML)
}

/// `GET /playground.css`.
pub(super) async fn style() -> impl IntoResponse {
    static_file("text/css; charset=utf-8", STYLE_CSS)
}

/// `GET /playground.js` (`text/javascript`, the type RFC 9239 settles on).
pub(super) async fn script() -> impl IntoResponse {
    static_file("text/javascript; charset=utf-8", SCRIPT_JS)
}

/// `GET /favicon.svg`: the page's icon, so that browsers do not ask for a missing `/favicon.ico`.
pub(super) async fn favicon() -> impl IntoResponse {
    static_file("image/svg+xml", FAVICON_SVG)
}
