//! What a player may do: the actions and their notation (`action`), and
//! the generator that lists the minimal choices of a position (`movegen`,
//! with the opening search in `opening`). Whether an action is legal is
//! the judge's to say (`crate::judge`); the generator keeps only what the
//! judge accepts.

pub mod action;
pub(crate) mod concealed;
pub(crate) mod movegen;
pub(crate) mod opening;
