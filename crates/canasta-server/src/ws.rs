//! One WebSocket connection: reads the client's messages (size limit, rate
//! limit, parsing) and passes them to its table; writes what the table
//! queues for it. A bad message gets an error and the connection goes on.

use crate::protocol::{
    ClientError, ClientMessage, ErrorCode, FLOOD_LIMIT, MAX_MESSAGE_BYTES, RateLimit, parse,
};
use crate::refusal::{CLOSE_MOVED, CLOSE_POLICY, CLOSE_TOO_LARGE};
use crate::table::{CONN_QUEUE, Command, Joined, Outgoing, TableHandle};
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures_util::{SinkExt, StreamExt};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::{Notify, mpsc, oneshot};
use tokio_tungstenite::tungstenite;

/// The writers of live connections, counted: a stopping server waits until
/// none is left (or a time limit), so queued messages are sent.
#[derive(Clone, Debug, Default)]
pub struct Writers {
    live: Arc<AtomicUsize>,
    idle: Arc<Notify>,
}

/// One running writer; dropping it counts it out.
struct Writing(Writers);

impl Drop for Writing {
    fn drop(&mut self) {
        if self.0.live.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

impl Writers {
    fn enter(&self) -> Writing {
        self.live.fetch_add(1, Ordering::AcqRel);
        Writing(self.clone())
    }

    /// Waits until no writer runs, at most `limit`.
    pub async fn drained(&self, limit: Duration) {
        let _ = tokio::time::timeout(limit, async {
            loop {
                let woken = self.idle.notified();
                if self.live.load(Ordering::Acquire) == 0 {
                    return;
                }
                woken.await;
            }
        })
        .await;
    }
}

/// A token bucket: so many messages a second, in bursts of so many.
struct Bucket {
    limit: RateLimit,
    tokens: f64,
    at: Instant,
}

impl Bucket {
    fn new(limit: RateLimit) -> Bucket {
        Bucket {
            limit,
            tokens: limit.burst,
            at: Instant::now(),
        }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.at).as_secs_f64() * self.limit.per_second;
        self.tokens = (self.tokens + refill).min(self.limit.burst);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

fn error_text(e: &ClientError) -> Utf8Bytes {
    e.to_json(None).into()
}

/// What one frame read off a connection is, once counted.
enum Frame {
    /// JSON text to parse.
    Text(Utf8Bytes),
    /// A frame that is not text (binary): refused with `bad_json`.
    NotText,
    /// A ping or pong: the socket answers pings itself; nothing to do.
    Control,
    /// Over the rate: `rate_limited` once a burst.
    Refused { first: bool },
    /// The connection is to end, with this close frame if any.
    End(Option<CloseFrame>),
    /// The socket cannot be read on (a message too large to read, a
    /// broken frame): it ends, with this close frame if any.
    Unreadable(Option<CloseFrame>),
}

/// Why a connection that sent what it should not is closed.
fn close_frame(code: u16, reason: impl Into<Utf8Bytes>) -> Option<CloseFrame> {
    Some(CloseFrame {
        code,
        reason: reason.into(),
    })
}

/// Counts every frame a connection sends (text, binary, ping, pong) in its
/// rate limit and its flood limit, so that no kind of frame is free.
struct Intake {
    bucket: Bucket,
    refused_in_a_row: u32,
}

impl Intake {
    fn new(limit: RateLimit) -> Intake {
        Intake {
            bucket: Bucket::new(limit),
            refused_in_a_row: 0,
        }
    }

    /// What `read` (the stream's next item) is to this connection.
    fn take(&mut self, read: Option<Result<Message, axum::Error>>) -> Frame {
        let message = match read {
            None => return Frame::End(None),
            Some(Err(e)) => return Frame::Unreadable(read_failed(e)),
            Some(Ok(Message::Close(_))) => return Frame::End(None),
            Some(Ok(message)) => message,
        };
        if !self.bucket.take() {
            self.refused_in_a_row += 1;
            if self.refused_in_a_row > FLOOD_LIMIT {
                return Frame::End(close_frame(
                    CLOSE_POLICY,
                    "too many messages: this connection flooded",
                ));
            }
            return Frame::Refused {
                first: self.refused_in_a_row == 1,
            };
        }
        self.refused_in_a_row = 0;
        match message {
            Message::Text(text) => Frame::Text(text),
            Message::Binary(_) => Frame::NotText,
            Message::Ping(_) | Message::Pong(_) | Message::Close(_) => Frame::Control,
        }
    }
}

/// The close frame after a read error: a message too large to read
/// (beyond what the socket buffers) is the client's `too_large`, told;
/// anything else (a broken frame, a reset) ends the connection as it is.
fn read_failed(e: axum::Error) -> Option<CloseFrame> {
    let too_large = std::error::Error::source(&e)
        .and_then(|inner| inner.downcast_ref::<tungstenite::Error>())
        .is_some_and(|inner| matches!(inner, tungstenite::Error::Capacity(_)));
    too_large.then(|| CloseFrame {
        code: CLOSE_TOO_LARGE,
        reason: format!("a message holds at most {MAX_MESSAGE_BYTES} bytes").into(),
    })
}

/// The error sent before a close frame, when the close has one to match.
fn close_error(frame: &CloseFrame) -> ClientError {
    let code = if frame.code == CLOSE_TOO_LARGE {
        ErrorCode::TooLarge
    } else {
        ErrorCode::RateLimited
    };
    ClientError::new(code, frame.reason.as_str())
}

/// How long a connection the server closes is read on, at most, for the
/// client's answer to the close (and how many frames): a client still
/// sending would otherwise get its socket reset under the close frame and
/// never read why it was closed.
const CLOSE_LINGER: Duration = Duration::from_secs(2);
const CLOSE_LINGER_FRAMES: usize = 10_000;
/// After a message too large to read, the socket cannot be read on: it is
/// held this long after the close frame before it is dropped (dropping a
/// socket with unread bytes resets it, and a reset can cost the client
/// the close frame it has not read yet).
const UNREADABLE_LINGER: Duration = Duration::from_millis(250);

/// Reads and drops what the client still sends after the server's close,
/// until it answers the close or the linger's bounds. (Never after a
/// message too large to read: the socket cannot skip its rest.)
async fn linger(stream: &mut futures_util::stream::SplitStream<WebSocket>) {
    let _ = tokio::time::timeout(CLOSE_LINGER, async {
        let mut frames = 0;
        while let Some(Ok(_)) = stream.next().await {
            frames += 1;
            if frames >= CLOSE_LINGER_FRAMES {
                return;
            }
        }
    })
    .await;
}

fn rate_limited(limit: RateLimit) -> ClientError {
    ClientError::new(
        ErrorCode::RateLimited,
        format!(
            "at most {} messages a second; this one was dropped",
            limit.per_second
        ),
    )
}

fn not_text() -> ClientError {
    ClientError::new(ErrorCode::BadJson, "messages are JSON text")
}

/// Tells a connection that another node plays its table, and where
/// (`{"type": "moved", "url": "ws://..."}`), then closes it (1012): the
/// client reconnects at that address.
pub async fn send_elsewhere(socket: WebSocket, node: u16, url: &str) {
    let (mut sink, mut stream) = socket.split();
    let moved = serde_json::json!({
        "type": "moved",
        "url": url,
        "message": format!("this table is played by another server (node {node}); reconnect at its address"),
    });
    let _ = sink.send(Message::Text(moved.to_string().into())).await;
    let frame = CloseFrame {
        code: CLOSE_MOVED,
        reason: "the table is played by another server: reconnect at the url told".into(),
    };
    let _ = sink.send(Message::Close(Some(frame))).await;
    linger(&mut stream).await;
}

/// Serves one connection to `table` until either side closes it: a
/// connection that has not sent `hello` within `hello_timeout` is closed.
pub async fn serve<R, F>(
    socket: WebSocket,
    mut table: TableHandle,
    reopen: R,
    limit: RateLimit,
    hello_timeout: Duration,
    writers: Writers,
) where
    R: Fn() -> F,
    F: std::future::Future<Output = Option<TableHandle>>,
{
    let (mut sink, mut stream) = socket.split();
    let mut intake = Intake::new(limit);
    let hello_by = tokio::time::Instant::now() + hello_timeout;

    // Until `hello`: nothing else is accepted, and not for long.
    let (out_tx, mut out_rx) = mpsc::channel(CONN_QUEUE);
    let joined: Joined = loop {
        let Ok(read) = tokio::time::timeout_at(hello_by, stream.next()).await else {
            let reason = format!("no hello within {} s", hello_timeout.as_secs_f64());
            let e = ClientError::new(ErrorCode::HelloFirst, reason.as_str());
            let _ = sink.send(Message::Text(error_text(&e))).await;
            let close = CloseFrame {
                code: CLOSE_POLICY,
                reason: reason.into(),
            };
            let _ = sink.send(Message::Close(Some(close))).await;
            linger(&mut stream).await;
            return;
        };
        let frame = intake.take(read);
        let readable = !matches!(frame, Frame::Unreadable(_));
        let text = match frame {
            Frame::Text(text) => text,
            Frame::NotText => {
                let _ = sink.send(Message::Text(error_text(&not_text()))).await;
                continue;
            }
            Frame::Control | Frame::Refused { first: false } => continue,
            Frame::Refused { first: true } => {
                let e = rate_limited(limit);
                let _ = sink.send(Message::Text(error_text(&e))).await;
                continue;
            }
            Frame::End(close) | Frame::Unreadable(close) => {
                if let Some(close) = close {
                    let e = close_error(&close);
                    let _ = sink.send(Message::Text(error_text(&e))).await;
                    let _ = sink.send(Message::Close(Some(close))).await;
                    if readable {
                        linger(&mut stream).await;
                    } else {
                        tokio::time::sleep(UNREADABLE_LINGER).await;
                    }
                }
                return;
            }
        };
        match parse(&text) {
            Ok(ClientMessage::Hello { token }) => {
                // A finished table's task ends when nobody is connected, so
                // it may have gone since the upgrade: then it is started
                // again from storage (`reopen`) and asked once more.
                let mut answer = None;
                for attempt in 0..2 {
                    if attempt == 1 {
                        match reopen().await {
                            Some(again) => table = again,
                            None => break,
                        }
                    }
                    let (reply, got) = oneshot::channel();
                    let cmd = Command::Connect {
                        token: token.clone(),
                        out: out_tx.clone(),
                        reply,
                    };
                    if !table.send(cmd).await {
                        continue;
                    }
                    if let Ok(joined) = got.await {
                        answer = Some(joined);
                        break;
                    }
                }
                match answer {
                    Some(Ok(joined)) => break joined,
                    Some(Err(e)) => {
                        let _ = sink.send(Message::Text(error_text(&e))).await;
                    }
                    None => {
                        let e = ClientError::new(ErrorCode::Unavailable, "the table has closed");
                        let _ = sink.send(Message::Text(error_text(&e))).await;
                        return;
                    }
                }
            }
            Ok(_) => {
                let e = ClientError::new(ErrorCode::HelloFirst, "send `hello` first");
                let _ = sink.send(Message::Text(error_text(&e))).await;
            }
            Err(e) => {
                let too_large = e.code == ErrorCode::TooLarge;
                let _ = sink.send(Message::Text(error_text(&e))).await;
                if too_large {
                    let frame = CloseFrame {
                        code: CLOSE_TOO_LARGE,
                        reason: e.message.into(),
                    };
                    let _ = sink.send(Message::Close(Some(frame))).await;
                    // The message was read whole: what follows can be.
                    linger(&mut stream).await;
                    return;
                }
            }
        }
    };
    drop(out_tx);
    let conn = joined.conn;

    // The writer: what the table queues, until the table drops this
    // connection's sender or asks to close.
    let writing = writers.enter();
    // The reader's own close frame (a flood, a message too large), sent
    // after everything the table queued before it let the connection go.
    let (closing_tx, mut closing_rx) = oneshot::channel::<CloseFrame>();
    let writer = tokio::spawn(async move {
        let _writing = writing;
        while let Some(out) = out_rx.recv().await {
            match out {
                Outgoing::Text(text) => {
                    if sink
                        .send(Message::Text(Utf8Bytes::from(&*text)))
                        .await
                        .is_err()
                    {
                        break;
                    }
                }
                Outgoing::Close(reason) => {
                    let frame = CloseFrame {
                        code: 1001,
                        reason: reason.into(),
                    };
                    let _ = sink.send(Message::Close(Some(frame))).await;
                    break;
                }
                Outgoing::Moved => {
                    let frame = CloseFrame {
                        code: CLOSE_MOVED,
                        reason: "the table moved to another server: reconnect".into(),
                    };
                    let _ = sink.send(Message::Close(Some(frame))).await;
                    break;
                }
            }
        }
        if let Ok(frame) = closing_rx.try_recv() {
            let _ = sink.send(Message::Close(Some(frame))).await;
        }
        let _ = sink.close().await;
    });

    // Replies the reader itself makes (refusals before the table) go to
    // the table, which queues them in order with everything else.
    let mut closing = None;
    let mut readable;
    loop {
        let frame = intake.take(stream.next().await);
        readable = !matches!(frame, Frame::Unreadable(_));
        let text = match frame {
            Frame::Text(text) => text,
            Frame::NotText => {
                if !table
                    .send(Command::Refuse {
                        conn,
                        error: not_text(),
                    })
                    .await
                {
                    break;
                }
                continue;
            }
            Frame::Control | Frame::Refused { first: false } => continue,
            // One refusal a burst is enough to tell the client.
            Frame::Refused { first: true } => {
                let error = rate_limited(limit);
                if !table.send(Command::Refuse { conn, error }).await {
                    break;
                }
                continue;
            }
            Frame::End(close) | Frame::Unreadable(close) => {
                if let Some(frame) = close {
                    if frame.code == CLOSE_POLICY {
                        tracing::warn!(conn, "closing a connection that floods");
                    }
                    let error = close_error(&frame);
                    let _ = table.send(Command::Refuse { conn, error }).await;
                    closing = Some(frame);
                }
                break;
            }
        };
        let cmd = match parse(&text) {
            Ok(msg) => Command::Message {
                conn,
                msg,
                received: Instant::now(),
            },
            Err(error) => {
                if error.code == ErrorCode::TooLarge {
                    closing = close_frame(CLOSE_TOO_LARGE, error.message.clone());
                    let _ = table.send(Command::Refuse { conn, error }).await;
                    break;
                }
                let _ = table.send(Command::Refuse { conn, error }).await;
                continue;
            }
        };
        if !table.send(cmd).await {
            break;
        }
    }
    let lingers = closing.is_some() && readable;
    let unreadable = closing.is_some() && !readable;
    if let Some(frame) = closing {
        let _ = closing_tx.send(frame);
    }
    let _ = table.send(Command::Disconnect { conn }).await;
    if lingers {
        linger(&mut stream).await;
    }
    let _ = writer.await;
    if unreadable {
        tokio::time::sleep(UNREADABLE_LINGER).await;
    }
}
