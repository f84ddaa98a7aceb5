//! What a page on another site can make a visitor's browser send, and what
//! the server now refuses: sockets and state-changing requests from other
//! origins (`null` included), bodies that are not JSON, names in `Host`
//! the server does not answer to (DNS rebinding); and invite-only tables,
//! whose seats no stranger can take.

mod common;

use canasta_server::Options;
use canasta_server::connections::ConnectionLimits;
use common::{Server, answer, tcp_from};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// A raw request to `server` with these extra header lines and body.
async fn request(
    server: &Server,
    method: &str,
    path: &str,
    headers: &str,
    body: &str,
) -> (u16, Value) {
    let host = server.addr().to_string();
    request_naming(server, &host, method, path, headers, body).await
}

/// A raw request to `server` that names `host` in its `Host` line.
async fn request_naming(
    server: &Server,
    host: &str,
    method: &str,
    path: &str,
    headers: &str,
    body: &str,
) -> (u16, Value) {
    let text = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = tcp_from("127.0.0.1", server.addr()).await;
    answer(&mut stream, &text).await
}

/// Opens a table's socket with these headers: the HTTP status of a refused
/// handshake, or `None` when the socket opened and answered `hello`.
async fn socket_with(server: &Server, id: &str, headers: &[(&str, &str)]) -> Option<u16> {
    let url = format!("ws://{}/api/tables/{id}/ws", server.addr());
    let mut request = url.into_client_request().unwrap();
    for (name, value) in headers {
        let name = tokio_tungstenite::tungstenite::http::HeaderName::from_bytes(name.as_bytes());
        request
            .headers_mut()
            .insert(name.unwrap(), value.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok((mut ws, _)) => {
            ws.send(Message::Text(r#"{"type":"hello"}"#.into()))
                .await
                .unwrap();
            let welcome = ws.next().await.unwrap().unwrap();
            assert!(welcome.to_text().unwrap().contains("welcome"), "{welcome}");
            None
        }
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            Some(response.status().as_u16())
        }
        Err(e) => panic!("{e}"),
    }
}

#[tokio::test]
async fn sockets_open_only_from_the_servers_own_origin_or_an_allowed_one() {
    let server = Server::start_with(Options {
        connections: ConnectionLimits {
            allowed_origins: vec!["https://friends.example".into()],
            ..ConnectionLimits::uncounted()
        },
        ..Options::unpaced()
    })
    .await;
    let (id, _) = server.table_of_humans("classic", 2, json!({})).await;
    let own = format!("http://{}", server.addr());
    for _ in 0..20 {
        assert_eq!(
            socket_with(&server, &id, &[("Origin", "http://evil.example")]).await,
            Some(403)
        );
        assert_eq!(
            socket_with(&server, &id, &[("Origin", "null")]).await,
            Some(403)
        );
    }
    assert_eq!(socket_with(&server, &id, &[("Origin", &own)]).await, None);
    assert_eq!(
        socket_with(&server, &id, &[("Origin", "https://friends.example")]).await,
        None
    );
    // No Origin: not a browser's request across sites (the command line).
    assert_eq!(socket_with(&server, &id, &[]).await, None);
    // A DNS-rebinding page's socket names its own host.
    assert_eq!(
        socket_with(&server, &id, &[("Host", "evil.example:8080")]).await,
        Some(421)
    );
}

#[tokio::test]
async fn a_cross_site_post_creates_nothing_and_claims_nothing() {
    let server = Server::start().await;
    let table =
        r#"{"variant": "classic", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}"#;
    // What a form or a page's simple request can send across sites.
    for _ in 0..10 {
        let (status, body) = request(
            &server,
            "POST",
            "/api/tables",
            "Content-Type: text/plain\r\n",
            table,
        )
        .await;
        assert_eq!(status, 415, "{body}");
        assert_eq!(body["error"]["code"], "unsupported_media_type");
        let evil = "Origin: http://evil.example\r\nContent-Type: text/plain\r\n";
        assert_eq!(
            request(&server, "POST", "/api/tables", evil, table).await.0,
            415
        );
        let evil_json = "Origin: http://evil.example\r\nContent-Type: application/json\r\n";
        let (status, body) = request(&server, "POST", "/api/tables", evil_json, table).await;
        assert_eq!(status, 403, "{body}");
        assert_eq!(body["error"]["code"], "bad_origin");
        let null = "Origin: null\r\nContent-Type: application/json\r\n";
        assert_eq!(
            request(&server, "POST", "/api/tables", null, table).await.0,
            403
        );
        assert_eq!(
            request(&server, "POST", "/api/tables", "", table).await.0,
            415
        );
    }
    assert_eq!(server.get("/api/tables").await.1["tables"], json!([]));
    // A seat: a form post, an empty post from another site.
    let (status, created) = server.post("/api/tables", json!({"variant": "classic", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]})).await;
    assert_eq!(status, 201);
    let seat = format!("/api/tables/{}/seats/0", created["id"].as_str().unwrap());
    let form = "Origin: http://evil.example\r\nContent-Type: application/x-www-form-urlencoded\r\n";
    assert_eq!(request(&server, "POST", &seat, form, "name=x").await.0, 415);
    assert_eq!(
        request(
            &server,
            "POST",
            &seat,
            "Origin: http://evil.example\r\n",
            ""
        )
        .await
        .0,
        403
    );
    // The server's own page, and the command line, still work.
    let own = format!(
        "Origin: http://{}\r\nContent-Type: application/json; charset=utf-8\r\n",
        server.addr()
    );
    let (status, claimed) = request(&server, "POST", &seat, &own, "{}").await;
    assert_eq!(status, 200, "{claimed}");
    let (status, _) = server.post(&seat.replace("/0", "/1"), json!({})).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn the_server_answers_only_to_its_own_names() {
    let server = Server::start_with(Options {
        connections: ConnectionLimits {
            public_names: vec!["canasta.example.org".into()],
            ..ConnectionLimits::uncounted()
        },
        ..Options::unpaced()
    })
    .await;
    let get =
        async |host: String| request_naming(&server, &host, "GET", "/api/tables", "", "").await;
    let port = server.addr().port();
    let (status, body) = get(format!("rebound.evil.example:{port}")).await;
    assert_eq!(status, 421, "{body}");
    assert_eq!(body["error"]["code"], "bad_host");
    for host in [
        format!("localhost:{port}"),
        format!("127.0.0.1:{port}"),
        format!("[::1]:{port}"),
        "canasta.example.org".to_string(),
    ] {
        assert_eq!(get(host.clone()).await.0, 200, "{host}");
    }
}

#[tokio::test]
async fn an_invite_only_tables_seats_need_its_secret_and_it_is_not_listed() {
    let server = Server::start().await;
    let (status, open) = server
        .post("/api/tables", json!({"variant": "classic", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}))
        .await;
    assert_eq!(status, 201);
    let (status, private) = server
        .post(
            "/api/tables",
            json!({"variant": "classic", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}], "invite_only": true, "join": {"seat": 0}}),
        )
        .await;
    assert_eq!(status, 201, "{private}");
    let id = private["id"].as_str().unwrap();
    let secret = private["invite_secret"].as_str().unwrap();
    assert_eq!(private["invite"], format!("/#/t/{id}/{secret}"));
    let listed = server.get("/api/tables").await.1;
    let ids: Vec<&Value> = listed["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| &t["id"])
        .collect();
    assert_eq!(ids, vec![&open["id"]], "only the open table is listed");
    assert_eq!(
        server.get(&format!("/api/tables/{id}")).await.1["invite_only"],
        true
    );
    // A stranger who learnt the id: no seat, whatever the guess.
    let seat = format!("/api/tables/{id}/seats/1");
    for guess in [
        json!({}),
        json!({"invite": "x"}),
        json!({"invite": secret.to_uppercase()}),
    ] {
        let (status, body) = server.post(&seat, guess).await;
        assert_eq!(status, 403, "{body}");
        assert_eq!(body["error"]["code"], "bad_invite");
    }
    let (status, claimed) = server
        .post(&seat, json!({"invite": secret, "name": "Bob"}))
        .await;
    assert_eq!(status, 200, "{claimed}");
    assert!(claimed["token"].is_string());
}
