//! How fast bots play at a table: the table's pace, chosen at creation,
//! and the server's scale on it. A bot's action (or a stand-in's for an
//! absent player) waits the pace's delay after the state before it went
//! out, so that a viewer sees every move as a step of its own; the scale
//! lets tests and load runs play bots at machine speed (0).

use serde::{Deserialize, Serialize};
use std::time::Duration;

/// A table's pace: the delay before each bot action.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pace {
    /// A second an action: time to follow every card.
    Relaxed,
    /// Half a second an action: a draw-and-discard turn in about a second.
    #[default]
    Normal,
    /// A fifth of a second an action.
    Fast,
}

impl Pace {
    pub const ALL: [Pace; 3] = [Pace::Relaxed, Pace::Normal, Pace::Fast];

    /// The delay before each bot action at this pace (unscaled).
    pub fn delay(self) -> Duration {
        Duration::from_millis(match self {
            Pace::Relaxed => 1000,
            Pace::Normal => 500,
            Pace::Fast => 200,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Pace::Relaxed => "relaxed",
            Pace::Normal => "normal",
            Pace::Fast => "fast",
        }
    }
}

/// The server's scale on every table's pace: 1 plays bots at the pace the
/// table was created with, 0 at once (tests, `canasta load`), 0.5 twice as
/// fast.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pacing {
    scale: f64,
}

impl Pacing {
    /// As the tables' paces say.
    pub const PACED: Pacing = Pacing { scale: 1.0 };
    /// Bots at machine speed, whatever the tables' paces.
    pub const UNPACED: Pacing = Pacing { scale: 0.0 };

    /// A scale on every pace; `None` unless finite and at least 0.
    pub fn scaled(scale: f64) -> Option<Pacing> {
        (scale.is_finite() && scale >= 0.0).then_some(Pacing { scale })
    }

    /// How long a bot action waits at a table of `pace`.
    pub fn delay(self, pace: Pace) -> Duration {
        pace.delay().mul_f64(self.scale)
    }
}

impl Default for Pacing {
    fn default() -> Pacing {
        Pacing::PACED
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paces_are_slower_to_faster_and_scale() {
        let delays: Vec<Duration> = Pace::ALL.iter().map(|p| p.delay()).collect();
        assert!(delays.windows(2).all(|w| w[0] > w[1]), "{delays:?}");
        assert_eq!(Pacing::UNPACED.delay(Pace::Relaxed), Duration::ZERO);
        assert_eq!(
            Pacing::scaled(0.5).unwrap().delay(Pace::Normal),
            Duration::from_millis(250)
        );
        assert_eq!(Pacing::scaled(-1.0), None);
        assert_eq!(Pacing::scaled(f64::NAN), None);
        let text = serde_json::to_string(&Pace::Fast).unwrap();
        assert_eq!(text, "\"fast\"");
        assert_eq!(
            serde_json::from_str::<Pace>("\"relaxed\"").unwrap(),
            Pace::Relaxed
        );
    }
}
