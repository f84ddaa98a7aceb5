//! The browser client's files as the server hands them out: embedded at
//! build time (or read from a folder with `--web-dir`), each with its media
//! type, an entity tag, and a gzip copy for browsers that accept one.
//!
//! The client is about 280 KB of text that compresses to about 80 KB; a
//! phone on a slow network feels the difference on every first visit, and
//! a reload of an unchanged page costs one `304 Not Modified` per file.
//! Embedded files are compressed once, on first request, and kept; a file
//! read from `--web-dir` is compressed on each request, since it may have
//! changed (that mode is for working on the client, not for serving).

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use flate2::Compression;
use flate2::write::GzEncoder;
use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

/// The browser client (`web/`), embedded at build time.
#[derive(rust_embed::Embed)]
#[folder = "../../web/"]
#[exclude = "tests/*"]
struct Embedded;

/// One file ready to send.
#[derive(Debug)]
pub struct WebFile {
    media_type: &'static str,
    /// A strong entity tag: a hash of the bytes, quoted as HTTP wants.
    etag: String,
    /// Shared, not copied, by every response that sends it.
    plain: Bytes,
    /// Present when compressing made the file smaller.
    gzip: Option<Bytes>,
}

/// Files smaller than this are sent as they are: the gzip header and a
/// second round of decoding cost more than the bytes saved.
const SMALLEST_WORTH_COMPRESSING: usize = 512;

impl WebFile {
    fn new(path: &str, plain: Vec<u8>, hash: Option<[u8; 32]>) -> WebFile {
        let media_type = media_type(path);
        let etag = match hash {
            Some(hash) => format!("\"{}\"", hex(&hash[..12])),
            None => format!("\"{:016x}\"", fnv1a(&plain)),
        };
        let gzip = (compressible(media_type) && plain.len() >= SMALLEST_WORTH_COMPRESSING)
            .then(|| gzip(&plain))
            .filter(|packed| packed.len() < plain.len())
            .map(Bytes::from);
        WebFile {
            media_type,
            etag,
            plain: Bytes::from(plain),
            gzip,
        }
    }

    /// The response to a GET with these request headers: `304` when the
    /// browser's copy is current, the gzip copy when the browser takes it.
    pub fn respond(&self, request: &HeaderMap) -> Response {
        let etag = HeaderValue::from_str(&self.etag).expect("an entity tag is ASCII");
        let current = request
            .get(header::IF_NONE_MATCH)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|tags| {
                tags.split(',')
                    .any(|tag| tag.trim().trim_start_matches("W/") == self.etag)
            });
        let mut headers = HeaderMap::new();
        headers.insert(header::ETAG, etag);
        // Revalidate on every load: a new server build must reach players
        // at once, and the tag makes revalidation a few bytes.
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
        if current {
            return (StatusCode::NOT_MODIFIED, headers).into_response();
        }
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(self.media_type),
        );
        let body = match &self.gzip {
            Some(packed) if accepts_gzip(request) => {
                headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
                packed.clone()
            }
            _ => self.plain.clone(),
        };
        (headers, Body::from(body)).into_response()
    }
}

/// Where the client's files come from.
#[derive(Clone, Debug, Default)]
pub struct WebFiles {
    /// `--web-dir`: read from this folder on each request.
    folder: Option<Arc<std::path::PathBuf>>,
}

impl WebFiles {
    pub fn embedded() -> WebFiles {
        WebFiles { folder: None }
    }

    pub fn from_folder(folder: Arc<std::path::PathBuf>) -> WebFiles {
        WebFiles {
            folder: Some(folder),
        }
    }

    /// The file at this URL path (`""` is the page itself), or `None`.
    pub async fn get(&self, path: &str) -> Option<Arc<WebFile>> {
        let path = if path.is_empty() { "index.html" } else { path };
        match &self.folder {
            Some(folder) => {
                let plain = read_below(folder, path).await?;
                Some(Arc::new(WebFile::new(path, plain, None)))
            }
            None => embedded_file(path),
        }
    }
}

fn embedded_file(path: &str) -> Option<Arc<WebFile>> {
    static PREPARED: OnceLock<Mutex<HashMap<String, Arc<WebFile>>>> = OnceLock::new();
    let prepared = PREPARED.get_or_init(Default::default);
    if let Some(file) = prepared.lock().expect("web file cache").get(path) {
        return Some(file.clone());
    }
    let found = Embedded::get(path)?;
    let file = Arc::new(WebFile::new(
        path,
        found.data.into_owned(),
        Some(found.metadata.sha256_hash()),
    ));
    prepared
        .lock()
        .expect("web file cache")
        .insert(path.to_owned(), file.clone());
    Some(file)
}

/// A file of the client folder: only plain names below the folder (no
/// `..`, no absolute path, nothing under `tests/`), as embedded.
async fn read_below(dir: &Path, path: &str) -> Option<Vec<u8>> {
    let plain = path
        .split('/')
        .all(|part| !part.is_empty() && part != "." && part != ".." && !part.contains('\\'));
    if !plain || path.starts_with("tests/") {
        return None;
    }
    tokio::fs::read(dir.join(path)).await.ok()
}

fn media_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("json") => "application/json",
        Some("ico") => "image/x-icon",
        _ => "application/octet-stream",
    }
}

/// Text compresses; PNG and the like are compressed already.
fn compressible(media_type: &str) -> bool {
    media_type.starts_with("text/")
        || media_type == "image/svg+xml"
        || media_type == "application/json"
}

/// Whether `Accept-Encoding` lists gzip with a non-zero weight.
fn accepts_gzip(request: &HeaderMap) -> bool {
    request
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .any(|coding| {
            let mut parts = coding.split(';');
            let name = parts.next().unwrap_or("").trim();
            let refused = parts.any(|param| {
                param
                    .trim()
                    .strip_prefix("q=")
                    .and_then(|q| q.trim().parse::<f32>().ok())
                    .is_some_and(|q| q == 0.0)
            });
            (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
        })
}

fn gzip(plain: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::with_capacity(plain.len() / 3), Compression::best());
    encoder.write_all(plain).expect("writing to memory");
    encoder.finish().expect("writing to memory")
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// A tag for a file read from `--web-dir`, which has no build-time hash.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::read::GzDecoder;
    use std::io::Read;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(name.clone(), HeaderValue::from_str(value).unwrap());
        }
        map
    }

    async fn body(response: Response) -> Vec<u8> {
        axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap()
            .to_vec()
    }

    #[tokio::test]
    async fn the_page_is_sent_gzipped_to_a_browser_that_takes_it_and_plain_otherwise() {
        let file = WebFiles::embedded()
            .get("")
            .await
            .expect("index.html is embedded");
        let plain = body(file.respond(&HeaderMap::new())).await;
        assert!(plain.starts_with(b"<!"), "the page itself, uncompressed");

        let response = file.respond(&headers(&[(header::ACCEPT_ENCODING, "gzip, deflate, br")]));
        assert_eq!(response.headers()[header::CONTENT_ENCODING], "gzip");
        let packed = body(response).await;
        assert!(packed.len() < plain.len());
        let mut unpacked = Vec::new();
        GzDecoder::new(&packed[..])
            .read_to_end(&mut unpacked)
            .unwrap();
        assert_eq!(unpacked, plain);

        let refused = file.respond(&headers(&[(header::ACCEPT_ENCODING, "gzip;q=0, br")]));
        assert!(refused.headers().get(header::CONTENT_ENCODING).is_none());
    }

    #[tokio::test]
    async fn a_current_copy_gets_not_modified_and_a_stale_one_the_file() {
        let file = WebFiles::embedded()
            .get("app.js")
            .await
            .expect("app.js is embedded");
        let first = file.respond(&HeaderMap::new());
        let tag = first.headers()[header::ETAG].to_str().unwrap().to_owned();
        assert!(tag.starts_with('"') && tag.ends_with('"'));

        let again = file.respond(&headers(&[(header::IF_NONE_MATCH, &tag)]));
        assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
        assert!(body(again).await.is_empty());

        let stale = file.respond(&headers(&[(header::IF_NONE_MATCH, "\"0000\"")]));
        assert_eq!(stale.status(), StatusCode::OK);
        assert_eq!(
            stale.headers()[header::CONTENT_TYPE],
            "text/javascript; charset=utf-8"
        );
    }

    #[tokio::test]
    async fn a_web_folder_serves_plain_names_below_it_and_nothing_else() {
        let dir = std::env::temp_dir().join(format!("canasta-web-dir-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("tests")).unwrap();
        std::fs::write(dir.join("app.js"), "export {};").unwrap();
        std::fs::write(dir.join("tests").join("e2e.mjs"), "secret").unwrap();
        assert_eq!(
            read_below(&dir, "app.js").await.as_deref(),
            Some(&b"export {};"[..])
        );
        for refused in [
            "../app.js",
            "tests/e2e.mjs",
            "/etc/passwd",
            "a//app.js",
            "./app.js",
            "x\\..\\app.js",
        ] {
            assert_eq!(read_below(&dir, refused).await, None, "{refused}");
        }
        assert_eq!(read_below(&dir, "missing.js").await, None);
        let served = WebFiles::from_folder(Arc::new(dir.clone()));
        assert!(served.get("tests/e2e.mjs").await.is_none());
        assert_eq!(
            served.get("app.js").await.unwrap().plain,
            &b"export {};"[..]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
