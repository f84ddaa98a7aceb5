//! Seat tokens and table ids from the operating system's random source.
//! A token is 256 random bits; the server keeps only its SHA-256, so a
//! copy of the database does not let anyone play a seat.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};

fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).expect("the operating system gives random bytes");
    bytes
}

/// A new seat token: 43 URL-safe characters.
pub fn new_token() -> String {
    URL_SAFE_NO_PAD.encode(random_bytes::<32>())
}

/// A new table id: `t` and 11 URL-safe characters (64 bits).
pub fn new_table_id() -> String {
    format!("t{}", URL_SAFE_NO_PAD.encode(random_bytes::<8>()))
}

/// A random seed (for shuffling and bots).
pub fn random_seed() -> u64 {
    u64::from_le_bytes(random_bytes::<8>())
}

/// What is stored of a token: its SHA-256 in hex.
pub fn token_hash(token: &str) -> String {
    let digest = Sha256::digest(token.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_distinct_and_hashed() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 43);
        assert_ne!(a, b);
        assert_eq!(token_hash(&a).len(), 64);
        assert_eq!(token_hash(&a), token_hash(&a));
        assert_ne!(token_hash(&a), token_hash(&b));
        assert!(new_table_id().starts_with('t'));
    }
}
