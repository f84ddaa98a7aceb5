//! `GET /metrics`: the node's counters in the Prometheus text format move
//! as a game is played over its WebSockets.

mod common;

use common::{Server, legal};
use serde_json::json;
use std::collections::HashMap;
use std::net::SocketAddr;

/// The samples of a scrape, by their name and labels as written.
async fn scrape(addr: SocketAddr) -> HashMap<String, f64> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!("GET /metrics HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let text = String::from_utf8(response).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: text/plain; version=0.0.4"),
        "{head}"
    );
    let mut samples = HashMap::new();
    let mut typed = Vec::new();
    for line in body.lines() {
        if let Some(rest) = line.strip_prefix("# TYPE ") {
            typed.push(rest.split(' ').next().unwrap().to_string());
            continue;
        }
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        let (name, value) = line.rsplit_once(' ').unwrap();
        let value: f64 = value
            .parse()
            .unwrap_or_else(|_| panic!("not a number: {line}"));
        // Every sample belongs to a family declared before it.
        let family = name.split('{').next().unwrap();
        assert!(
            typed.iter().any(|t| family == t
                || family
                    .strip_prefix(t.as_str())
                    .is_some_and(|s| ["_bucket", "_sum", "_count"].contains(&s))),
            "{line} has no # TYPE"
        );
        samples.insert(name.to_string(), value);
    }
    samples
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_the_actions_sockets_and_latency_of_a_game() {
    let server = Server::start().await;
    let before = scrape(server.addr()).await;
    assert_eq!(before["canasta_actions_total"], 0.0);
    assert_eq!(before["canasta_websocket_connections"], 0.0);
    assert!(before["canasta_action_latency_summary_seconds{quantile=\"0.99\"}"].is_nan());
    // One server on its own storage: no node, no leases.
    assert!(!before.contains_key("canasta_leases_held"));

    let (_, mut seats, actor, first) = server.two_seated().await;
    let mut state = first;
    let mut acted = 0;
    for _ in 0..4 {
        let moves = legal(&state);
        let action = moves
            .iter()
            .find(|a| *a == "draw")
            .or_else(|| moves.iter().find(|a| a.starts_with("discard")))
            .unwrap_or(&moves[0])
            .clone();
        let id = state["state_id"].clone();
        seats[actor]
            .send(json!({"type": "act", "state_id": id, "action": action}))
            .await;
        acted += 1;
        state = seats[actor]
            .state_where(|m| m["state_id"] != id && m["view"]["to_act"].as_u64().is_some())
            .await;
        if state["view"]["to_act"].as_u64() != Some(actor as u64) {
            break;
        }
    }

    let after = scrape(server.addr()).await;
    let actions = after["canasta_actions_total"];
    assert!(actions >= f64::from(acted), "{actions} actions for {acted}");
    assert_eq!(after["canasta_websocket_connections"], 2.0);
    assert_eq!(after["canasta_websocket_connections_total"], 2.0);
    assert_eq!(after["canasta_tables{state=\"open\"}"], 1.0);
    assert_eq!(after["canasta_action_latency_seconds_count"], actions);
    assert_eq!(
        after["canasta_action_latency_seconds_bucket{le=\"+Inf\"}"],
        actions
    );
    let p50 = after["canasta_action_latency_summary_seconds{quantile=\"0.5\"}"];
    let p99 = after["canasta_action_latency_summary_seconds{quantile=\"0.99\"}"];
    assert!(p50 > 0.0 && p50 <= p99 && p99 < 2.0, "p50 {p50}, p99 {p99}");
    assert!(after["canasta_action_latency_seconds_sum"] > 0.0);
    // The buckets only grow, up to the count.
    let mut last = 0.0;
    for le in ["0.0005", "0.001", "0.01", "0.1", "1", "2", "+Inf"] {
        let n = after[&format!("canasta_action_latency_seconds_bucket{{le=\"{le}\"}}")];
        assert!(n >= last, "le {le}: {n} after {last}");
        last = n;
    }

    drop(seats);
    // The sockets' tasks end once their connections close.
    for _ in 0..100 {
        if scrape(server.addr()).await["canasta_websocket_connections"] == 0.0 {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the closed sockets are still counted");
}
