//! Names the build: the package version and, in a git checkout, the
//! commit (`CANASTA_VERSION`, as `0.1.0 (1a2b3c4d5e)`). `canasta --version`
//! prints it, and a tournament's `--save` file records which build began
//! it, since another build's bots may play otherwise.

use std::path::Path;
use std::process::Command;

fn main() {
    let commit = Command::new("git")
        .args(["rev-parse", "--short=10", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty());
    let version = env!("CARGO_PKG_VERSION");
    let named = match commit {
        Some(c) => format!("{version} ({c})"),
        None => version.to_string(),
    };
    println!("cargo:rustc-env=CANASTA_VERSION={named}");
    // Named again when the commit moves (only paths that exist: a missing
    // one would run this script at every build).
    for path in [
        "../../.git/HEAD",
        "../../.git/refs/heads",
        "../../.git/packed-refs",
    ] {
        if Path::new(path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
}
