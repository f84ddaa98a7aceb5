//! How the server says no: the error body of every refused HTTP request
//! (a status, a code from docs/server-api.md and a message), the bound on
//! request bodies, and the close codes of a refused or closed WebSocket.
//! Kept apart from the routes, the connection bounds and the socket loop,
//! which all refuse in these words.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// Request bodies are at most this long.
pub const MAX_BODY_BYTES: usize = 16 * 1024;

/// The close code of a WebSocket refused for lack of room: 1013, "try
/// again later" (RFC 6455's registry).
pub const CLOSE_TRY_AGAIN_LATER: u16 = 1013;
/// The close code of a WebSocket closed for what it sent or failed to
/// send (no `hello` in time, a flood): 1008, "policy violation".
pub const CLOSE_POLICY: u16 = 1008;
/// The close code after a message too large to read: 1009.
pub const CLOSE_TOO_LARGE: u16 = 1009;
/// The close code of a table this server no longer holds (another node
/// took it): 1012, "service restart"; the client reconnects.
pub const CLOSE_MOVED: u16 = 1012;

/// An API error: a status, a code and a message.
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
    /// Where to ask instead (a table another node plays), as `url`.
    url: Option<String>,
}

impl ApiError {
    /// With the address to ask instead.
    pub(crate) fn with_url(mut self, url: Option<&str>) -> ApiError {
        self.url = url.map(str::to_string);
        self
    }
}

pub(crate) fn api_error(
    status: StatusCode,
    code: &'static str,
    message: impl Into<String>,
) -> ApiError {
    ApiError {
        status,
        code,
        message: message.into(),
        url: None,
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({"error": {"code": self.code, "message": self.message}});
        if let Some(url) = self.url {
            body["error"]["url"] = json!(url);
        }
        (self.status, axum::Json(body)).into_response()
    }
}
