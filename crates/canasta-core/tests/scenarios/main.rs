//! Scenario tests pinning the Classic Canasta, Canastone and Canastia rules. Each test
//! names its rule and the source tag of `../shared/rules-research.md` (P-CAN =
//! pagat Canasta, P-CNE = pagat Canastone, S000..S004 = seed documents, BRIT,
//! BIC-2H, RG-2/3/6, ...).
//! Positions come only from deals built by `common::DealSpec`.

mod common;

mod canastia;
mod canastone;
mod deal;
mod going_out;
mod italian;
mod melds;
mod opening;
mod pennies;
mod pile;
mod players_2;
mod players_3;
mod players_6;
mod records;
mod samba;
mod scoring;
mod seed_examples;
mod stock;
