//! The migrations in `migrations/` are read at build time (`sqlx::migrate!`):
//! a changed or added one rebuilds the crate.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
