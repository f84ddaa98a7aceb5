//! What is wrong with a rules value: every problem at once, each naming the
//! option it concerns.

use std::fmt;
use thiserror::Error;

/// One problem with a rules value or with options read into one.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RulesProblem {
    /// A field's value is refused, alone or against another field's.
    /// `option` names the field as options and records do
    /// (`wilds_on_canasta`, `card_values`); the message says what is wrong.
    #[error("{message}")]
    Field { option: String, message: String },
    /// An option name that no field has.
    #[error("unknown option `{0}`")]
    UnknownOption(String),
    /// No preset has this id, player count or team count.
    #[error("{0}")]
    Preset(String),
}

impl RulesProblem {
    /// A problem with the field of option `option`.
    pub(crate) fn field(option: impl Into<String>, message: impl Into<String>) -> RulesProblem {
        RulesProblem::Field {
            option: option.into(),
            message: message.into(),
        }
    }

    /// The option the problem concerns, if it concerns one.
    pub fn option(&self) -> Option<&str> {
        match self {
            RulesProblem::Field { option, .. } | RulesProblem::UnknownOption(option) => {
                Some(option)
            }
            RulesProblem::Preset(_) => None,
        }
    }
}

/// Every problem found in a rules value, not just the first.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub struct RulesError {
    pub problems: Vec<RulesProblem>,
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid rules: ")?;
        for (i, problem) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{problem}")?;
        }
        Ok(())
    }
}

impl RulesError {
    /// The error of one problem.
    pub(crate) fn one(problem: RulesProblem) -> RulesError {
        RulesError {
            problems: vec![problem],
        }
    }

    /// The options named by the problems, in order.
    pub fn options(&self) -> impl Iterator<Item = &str> {
        self.problems.iter().filter_map(RulesProblem::option)
    }
}
