//! The WebSocket messages (`docs/server-api.md` is the reference): what a
//! client may send, the error codes, and the limits on what it sends.

use serde::Deserialize;
use serde_json::{Value, json};

/// The largest message a client may send, in bytes.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024;
/// Messages a second a connection may send, and the burst it may save up.
pub const RATE_PER_SECOND: f64 = 20.0;
pub const RATE_BURST: f64 = 40.0;

/// The rate limit of every connection: the defaults above suit people;
/// tests and the load tool, whose clients act at machine speed, raise it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateLimit {
    pub per_second: f64,
    pub burst: f64,
}

impl Default for RateLimit {
    fn default() -> RateLimit {
        RateLimit {
            per_second: RATE_PER_SECOND,
            burst: RATE_BURST,
        }
    }
}
/// Refused messages in a row after which a flooding connection is closed.
pub const FLOOD_LIMIT: u32 = 200;

/// A message from a client.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    Hello {
        #[serde(default)]
        token: Option<String>,
    },
    Act {
        state_id: u64,
        action: String,
    },
    Start,
    Next,
    Hint {
        state_id: u64,
    },
    Undo {
        state_id: u64,
    },
    Ping,
}

const TYPES: &[&str] = &["hello", "act", "start", "next", "hint", "undo", "ping"];

/// Why a message was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    BadJson,
    UnknownType,
    TooLarge,
    RateLimited,
    HelloFirst,
    BadToken,
    Spectator,
    NotStarted,
    GameOver,
    NotYourTurn,
    StaleState,
    BadAction,
    IllegalAction,
    Busy,
    CannotUndo,
    Unavailable,
    /// The table waits for a failed write to be stored again.
    StorageFailing,
    TooManySpectators,
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadJson => "bad_json",
            ErrorCode::UnknownType => "unknown_type",
            ErrorCode::TooLarge => "too_large",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::HelloFirst => "hello_first",
            ErrorCode::BadToken => "bad_token",
            ErrorCode::Spectator => "spectator",
            ErrorCode::NotStarted => "not_started",
            ErrorCode::GameOver => "game_over",
            ErrorCode::NotYourTurn => "not_your_turn",
            ErrorCode::StaleState => "stale_state",
            ErrorCode::BadAction => "bad_action",
            ErrorCode::IllegalAction => "illegal_action",
            ErrorCode::Busy => "busy",
            ErrorCode::CannotUndo => "cannot_undo",
            ErrorCode::Unavailable => "unavailable",
            ErrorCode::StorageFailing => "storage_failing",
            ErrorCode::TooManySpectators => "too_many_spectators",
        }
    }
}

/// A refusal sent to one client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientError {
    pub code: ErrorCode,
    pub message: String,
}

impl ClientError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ClientError {
        ClientError {
            code,
            message: message.into(),
        }
    }

    /// The `error` message, with the current state id when there is one.
    pub fn to_json(&self, state_id: Option<u64>) -> String {
        let mut v = json!({"type": "error", "code": self.code.as_str(), "message": self.message});
        if let Some(id) = state_id {
            v["state_id"] = json!(id);
        }
        v.to_string()
    }
}

/// Reads one client message, telling malformed JSON from an unknown type
/// from a known type with bad fields.
///
/// # Errors
/// The refusal to send back.
pub fn parse(text: &str) -> Result<ClientMessage, ClientError> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Err(ClientError::new(
            ErrorCode::TooLarge,
            format!(
                "a message holds at most {MAX_MESSAGE_BYTES} bytes; this one has {}",
                text.len()
            ),
        ));
    }
    let value: Value = serde_json::from_str(text)
        .map_err(|e| ClientError::new(ErrorCode::BadJson, format!("not JSON: {e}")))?;
    let Some(kind) = value
        .get("type")
        .and_then(Value::as_str)
        .map(str::to_string)
    else {
        return Err(ClientError::new(
            ErrorCode::BadJson,
            "a message is a JSON object with a string `type`",
        ));
    };
    if !TYPES.contains(&kind.as_str()) {
        let shown: String = kind.chars().take(40).collect();
        return Err(ClientError::new(
            ErrorCode::UnknownType,
            format!(
                "unknown message type `{shown}` (known: {})",
                TYPES.join(", ")
            ),
        ));
    }
    serde_json::from_value(value)
        .map_err(|e| ClientError::new(ErrorCode::BadJson, format!("a `{kind}` message: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_read_and_bad_ones_named() {
        assert_eq!(
            parse(r#"{"type":"act","state_id":3,"action":"draw"}"#),
            Ok(ClientMessage::Act {
                state_id: 3,
                action: "draw".into()
            })
        );
        assert_eq!(
            parse(r#"{"type":"hello"}"#),
            Ok(ClientMessage::Hello { token: None })
        );
        let code = |t: &str| parse(t).unwrap_err().code;
        assert_eq!(code("{"), ErrorCode::BadJson);
        assert_eq!(code("[1]"), ErrorCode::BadJson);
        assert_eq!(code(r#"{"type":7}"#), ErrorCode::BadJson);
        assert_eq!(code(r#"{"type":"dance"}"#), ErrorCode::UnknownType);
        assert_eq!(
            code(r#"{"type":"act","state_id":"x","action":"draw"}"#),
            ErrorCode::BadJson
        );
        assert_eq!(
            code(r#"{"type":"act","action":"draw"}"#),
            ErrorCode::BadJson
        );
        let big = format!(
            r#"{{"type":"ping","x":"{}"}}"#,
            "a".repeat(MAX_MESSAGE_BYTES)
        );
        assert_eq!(code(&big), ErrorCode::TooLarge);
    }
}
