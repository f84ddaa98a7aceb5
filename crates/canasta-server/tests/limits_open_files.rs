//! The audit's 1,100 idle connections against an open-file limit of 1,024:
//! `accept` failed ("Too many open files") and `/healthz` and every
//! reconnect timed out. Now the server raises its soft limit to the hard
//! one, keeps its connections below it, refuses the ones beyond with a
//! `503`, and closes the idle ones.
//!
//! Alone in its own test binary: it lowers the process's hard limit,
//! which nothing can raise again.

mod common;

use canasta_server::Options;
use canasta_server::connections::ConnectionLimits;
use common::{Server, answer, tcp_from};
use rlimit::Resource;
use std::time::Duration;
use tokio::io::AsyncReadExt;

/// The hard limit the test runs under: the common soft limit's value.
const FILES: u64 = 1024;
/// Files the server keeps from connections here: the test's own client
/// sockets live in the same process and need their share.
const RESERVED: u64 = 824;

#[tokio::test]
async fn idle_connections_past_the_file_limit_get_503_and_are_closed() {
    let (_, hard) = rlimit::getrlimit(Resource::NOFILE).unwrap();
    let hard = hard.min(FILES);
    rlimit::setrlimit(Resource::NOFILE, 256, hard).unwrap();
    let server = Server::start_with(Options {
        connections: ConnectionLimits {
            reserved_files: RESERVED,
            header_timeout: Duration::from_secs(5),
            ..ConnectionLimits::uncounted()
        },
        ..Options::unpaced()
    })
    .await;
    let (soft, _) = rlimit::getrlimit(Resource::NOFILE).unwrap();
    assert_eq!(
        soft, hard,
        "the server raised its soft limit to the hard one"
    );
    let cap = (hard - RESERVED) as usize;

    // The attack: idle connections, more than the server may hold.
    let mut idle = Vec::new();
    for _ in 0..cap {
        idle.push(tcp_from("127.0.0.1", server.addr()).await);
    }
    // Beyond: refused at once and politely, never a hang.
    for from in ["127.0.0.1", "127.0.0.2"] {
        for _ in 0..10 {
            let mut extra = tcp_from(from, server.addr()).await;
            let request = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
            let (status, body) = answer(&mut extra, request).await;
            assert_eq!(status, 503, "{body}");
            assert_eq!(body["error"]["code"], "server_full");
        }
    }
    // The idle ones are closed by the header timeout, and the server
    // serves again.
    let mut byte = [0u8; 1];
    for stream in &mut idle {
        let read = tokio::time::timeout(Duration::from_secs(20), stream.read(&mut byte)).await;
        assert!(
            matches!(read, Ok(Ok(0) | Err(_))),
            "an idle connection is closed"
        );
    }
    drop(idle);
    let healthy = async {
        loop {
            if let Ok((200, _)) = canasta_server::load::http(
                server.addr(),
                "GET",
                "/healthz",
                &serde_json::Value::Null,
            )
            .await
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(10), healthy)
        .await
        .expect("served again");
}
