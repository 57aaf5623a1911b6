//! The JSON body extractor, with rejections that are [`ApiError`]s.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{FromRequest, Request};
use axum::http::{HeaderMap, StatusCode, header};
use serde::de::{DeserializeOwned, IgnoredAny};
use serde_json::error::Category;

use super::ApiError;

/// A JSON object request body, read into `T`.
///
/// Unlike [`axum::Json`] it insists on a JSON *object*: serde's derived structs also accept an
/// array of their fields (`["53..7..."]`), which no client means to send. Rejections: 415 for
/// a missing or non-JSON content type, 413 for a body over the limit, 400 for malformed JSON,
/// and 422 for well-formed JSON of the wrong shape.
pub struct JsonBody<T>(pub T);

impl<S, T> FromRequest<S> for JsonBody<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<JsonBody<T>, ApiError> {
        if !has_json_content_type(request.headers()) {
            return Err(ApiError::UnsupportedMediaType);
        }
        let bytes = Bytes::from_request(request, state).await?;
        if bytes.iter().find(|byte| !byte.is_ascii_whitespace()) != Some(&b'{') {
            return Err(match serde_json::from_slice::<IgnoredAny>(&bytes) {
                Ok(_) => ApiError::InvalidRequest("the request body must be a JSON object".to_owned()),
                Err(error) => ApiError::MalformedJson(error.to_string()),
            });
        }
        serde_json::from_slice(&bytes).map(JsonBody).map_err(|error| match error.classify() {
            Category::Data => ApiError::InvalidRequest(error.to_string()),
            Category::Syntax | Category::Eof | Category::Io => ApiError::MalformedJson(error.to_string()),
        })
    }
}

/// `application/json` or any `application/*+json`, with any parameters.
fn has_json_content_type(headers: &HeaderMap) -> bool {
    let Some(Ok(content_type)) = headers.get(header::CONTENT_TYPE).map(|value| value.to_str()) else {
        return false;
    };
    let essence = content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    essence == "application/json" || (essence.starts_with("application/") && essence.ends_with("+json"))
}

/// A body that could not be read: too large (the body limit), or cut off by the client.
impl From<BytesRejection> for ApiError {
    fn from(rejection: BytesRejection) -> ApiError {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::PayloadTooLarge
        } else {
            ApiError::MalformedJson(rejection.body_text())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

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
    }
}
