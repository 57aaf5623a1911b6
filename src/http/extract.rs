//! Request extractors whose rejections are [`ApiError`]s, so a bad body gets a problem response.

use axum::Json;
use axum::extract::{FromRequest, Request};
use serde::de::DeserializeOwned;

use super::ApiError;

/// Like [`axum::Json`], but rejections become the service's own problems: 415 for a missing or
/// non-JSON content type, 400 for malformed JSON, 413 for an oversized body and 422 for JSON of
/// the wrong shape.
pub struct JsonBody<T>(pub T);

impl<S, T> FromRequest<S> for JsonBody<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<JsonBody<T>, ApiError> {
        let Json(value) = Json::<T>::from_request(request, state).await?;
        Ok(JsonBody(value))
    }
}
