//! One WebSocket connection: reads the client's messages (size limit, rate
//! limit, parsing) and passes them to its table; writes what the table
//! queues for it. A bad message gets an error and the connection goes on.

use crate::protocol::{ClientError, ClientMessage, ErrorCode, FLOOD_LIMIT, RateLimit, parse};
use crate::table::{CONN_QUEUE, Command, Joined, Outgoing, TableHandle};
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures_util::{SinkExt, StreamExt};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::{Notify, mpsc, oneshot};

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

/// Serves one connection to `table` until either side closes it.
pub async fn serve<R, F>(
    socket: WebSocket,
    mut table: TableHandle,
    reopen: R,
    limit: RateLimit,
    writers: Writers,
) where
    R: Fn() -> F,
    F: std::future::Future<Output = Option<TableHandle>>,
{
    let (mut sink, mut stream) = socket.split();
    let mut bucket = Bucket::new(limit);
    let mut refused_in_a_row = 0u32;

    // Until `hello`: nothing else is accepted.
    let (out_tx, mut out_rx) = mpsc::channel(CONN_QUEUE);
    let joined: Joined = loop {
        let Some(Ok(message)) = stream.next().await else {
            return;
        };
        let text = match message {
            Message::Text(t) => t,
            Message::Binary(_) => {
                let e = ClientError::new(ErrorCode::BadJson, "messages are JSON text");
                let _ = sink.send(Message::Text(error_text(&e))).await;
                continue;
            }
            Message::Close(_) => return,
            _ => continue,
        };
        if !bucket.take() {
            refused_in_a_row += 1;
            if refused_in_a_row > FLOOD_LIMIT {
                return;
            }
            continue;
        }
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
                let _ = sink.send(Message::Text(error_text(&e))).await;
            }
        }
    };
    drop(out_tx);
    let conn = joined.conn;

    // The writer: what the table queues, until the table drops this
    // connection's sender or asks to close.
    let writing = writers.enter();
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
            }
        }
        let _ = sink.close().await;
    });

    // Replies the reader itself makes (refusals before the table) go to
    // the table, which queues them in order with everything else.
    while let Some(Ok(message)) = stream.next().await {
        let text = match message {
            Message::Text(t) => t,
            Message::Close(_) => break,
            Message::Binary(_) => {
                let e = ClientError::new(ErrorCode::BadJson, "messages are JSON text");
                if !table.send(Command::Refuse { conn, error: e }).await {
                    break;
                }
                continue;
            }
            _ => continue,
        };
        if !bucket.take() {
            refused_in_a_row += 1;
            if refused_in_a_row > FLOOD_LIMIT {
                tracing::warn!(conn, "closing a connection that floods");
                break;
            }
            // One refusal a burst is enough to tell the client.
            if refused_in_a_row == 1 {
                let e = ClientError::new(
                    ErrorCode::RateLimited,
                    format!(
                        "at most {} messages a second; this one was dropped",
                        limit.per_second
                    ),
                );
                if !table.send(Command::Refuse { conn, error: e }).await {
                    break;
                }
            }
            continue;
        }
        refused_in_a_row = 0;
        let cmd = match parse(&text) {
            Ok(msg) => Command::Message {
                conn,
                msg,
                received: Instant::now(),
            },
            Err(error) => {
                let too_large = error.code == ErrorCode::TooLarge;
                let _ = table.send(Command::Refuse { conn, error }).await;
                if too_large {
                    break;
                }
                continue;
            }
        };
        if !table.send(cmd).await {
            break;
        }
    }
    let _ = table.send(Command::Disconnect { conn }).await;
    let _ = writer.await;
}
