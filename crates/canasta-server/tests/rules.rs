//! The lobby's house rules and the How to play page: `/api/variants`
//! offers every option of every variant in words with its area, values and
//! source, and named house presets that create tables; `/api/rules` reads
//! the rules in force and refuses what table creation refuses.

mod common;

use common::Server;
use serde_json::{Value, json};

/// A query value percent-encoded (everything but unreserved characters).
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[tokio::test]
async fn variants_offer_house_rules_in_words_and_presets_that_make_tables() {
    let server = Server::start().await;
    let (status, catalogue) = server.get("/api/variants").await;
    assert_eq!(status, 200);
    let areas = ["deck", "melds", "pile", "opening", "going_out", "scoring"];
    for v in catalogue["variants"].as_array().unwrap() {
        let id = v["id"].as_str().unwrap();
        let description = v["description"].as_str().unwrap();
        assert!(description.ends_with('.'), "{id}: {description}");
        assert!(
            !description.contains('_'),
            "{id}: a field name in {description}"
        );
        let rules = v["house_rules"].as_array().unwrap();
        let options = v["options"].as_object().unwrap();
        assert_eq!(rules.len(), options.len(), "{id}: one entry an option");
        for r in rules {
            let key = r["key"].as_str().unwrap();
            assert_eq!(r["default"], options[key], "{id} {key}");
            assert!(areas.contains(&r["area"].as_str().unwrap()), "{id} {key}");
            assert!(!r["label"].as_str().unwrap().is_empty());
            assert!(r["description"].as_str().unwrap().ends_with('.'));
            assert!(!r["source"].as_str().unwrap().is_empty());
            match r["kind"].as_str().unwrap() {
                "int" => assert!(r["min"].as_i64().unwrap() <= r["max"].as_i64().unwrap()),
                "choice" => {
                    let choices = r["choices"].as_array().unwrap();
                    assert!(
                        choices.iter().any(|c| c["value"] == r["default"]),
                        "{id} {key}"
                    );
                    assert!(choices.iter().all(|c| c["label"].is_string()));
                }
                "bool" | "text" => {}
                other => panic!("{id} {key}: kind {other}"),
            }
        }
        let presets = v["house_presets"].as_array().unwrap();
        assert!(!presets.is_empty(), "{id}: no house preset");
        for p in presets {
            let body = json!({"variant": id, "options": p["options"]});
            let (status, made) = server.post("/api/tables", body).await;
            assert_eq!(status, 201, "{id} {}: {made}", p["id"]);
            let (_, table) = server
                .get(&format!("/api/tables/{}", made["id"].as_str().unwrap()))
                .await;
            for (k, value) in p["options"].as_object().unwrap() {
                assert_eq!(&table["options"][k], value, "{id} {}: {k}", p["id"]);
            }
        }
    }
}

fn section<'a>(page: &'a Value, area: &str) -> &'a Value {
    page["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["area"] == area)
        .unwrap_or_else(|| panic!("no {area} section in {page}"))
}

#[tokio::test]
async fn the_rules_page_follows_the_variant_players_and_options() {
    let server = Server::start().await;
    let (status, page) = server.get("/api/rules?variant=classic").await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["title"], "How to play Classic Canasta");
    assert_eq!(page["sections"].as_array().unwrap().len(), 6);
    let opening = &section(&page, "opening")["tables"][0];
    assert_eq!(
        opening["columns"],
        json!(["Your side's score", "First meld needs"])
    );
    assert_eq!(opening["rows"][1], json!(["0 to 1,499", "50"]));
    let values = &section(&page, "scoring")["tables"][0];
    assert_eq!(values["caption"], "Card values");
    assert_eq!(values["rows"][0], json!(["Joker", "50"]));

    let (_, three) = server.get("/api/rules?variant=classic&players=3").await;
    let deck = section(&three, "deck")["paragraphs"].to_string();
    assert!(deck.contains("Three players"), "{deck}");

    let options = encode(r#"{"pile_always_frozen": true, "target": 3000}"#);
    let (status, frozen) = server
        .get(&format!(
            "/api/rules?variant=classic&players=4&options={options}"
        ))
        .await;
    assert_eq!(status, 200, "{frozen}");
    assert_ne!(section(&frozen, "pile"), section(&page, "pile"));
    assert!(
        frozen["summary"]
            .as_str()
            .unwrap()
            .contains("Pile always frozen")
    );
    assert!(
        section(&frozen, "scoring")["paragraphs"]
            .to_string()
            .contains("3,000 points")
    );

    for variant in ["canastia", "italian", "canastone", "samba", "pennies"] {
        let (status, page) = server.get(&format!("/api/rules?variant={variant}")).await;
        assert_eq!(status, 200, "{variant}: {page}");
        assert_eq!(page["sections"].as_array().unwrap().len(), 6, "{variant}");
    }
}

#[tokio::test]
async fn the_rules_page_refuses_what_table_creation_refuses() {
    let server = Server::start().await;
    let cases = [
        ("/api/rules".to_string(), "variant"),
        ("/api/rules?variant=poker".to_string(), "poker"),
        ("/api/rules?variant=classic&players=5".to_string(), "5"),
        (
            "/api/rules?variant=classic&players=many".to_string(),
            "many",
        ),
        (
            "/api/rules?variant=classic&options=notjson".to_string(),
            "JSON object",
        ),
        (
            format!(
                "/api/rules?variant=classic&options={}",
                encode(r#"{"no_such_rule": 1}"#)
            ),
            "no_such_rule",
        ),
        (
            format!(
                "/api/rules?variant=classic&options={}",
                encode(r#"{"target": "high"}"#)
            ),
            "target",
        ),
        (
            "/api/rules?variant=classic&colour=red".to_string(),
            "colour",
        ),
    ];
    for (path, says) in cases {
        let (status, reply) = server.get(&path).await;
        assert_eq!(status, 400, "{path}: {reply}");
        assert_eq!(reply["error"]["code"], "bad_request", "{path}");
        let message = reply["error"]["message"].as_str().unwrap();
        assert!(message.contains(says), "{path}: `{message}` lacks `{says}`");
    }
    // The same options are refused by table creation with the same words.
    let (_, table) = server
        .post(
            "/api/tables",
            json!({"variant": "classic", "options": {"no_such_rule": 1}}),
        )
        .await;
    let (_, page) = server
        .get(&format!(
            "/api/rules?variant=classic&options={}",
            encode(r#"{"no_such_rule": 1}"#)
        ))
        .await;
    assert_eq!(table["error"], page["error"]);
}
