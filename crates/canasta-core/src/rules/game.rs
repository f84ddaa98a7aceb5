//! The game: who plays, in which sides, and when the game ends.

use crate::seat::{Seat, Side, Team};
use serde::{Deserialize, Serialize};

/// The table and the game's end (P-CAN's "The players", "Scoring": the
/// game's target).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GameRules {
    /// The preset's id, as in the record header (`classic`, ...).
    pub variant: String,
    /// Number of seats.
    pub players: u8,
    /// Number of teams `k`; seat `s` is on team `s mod k` (record spec).
    /// `k = players` means every player for themselves.
    pub teams: u8,
    /// Classic 3 players (P-CAN): the first player to take the pile plays
    /// alone, the other two become partners for the hand.
    pub temporary_partnership: bool,
    /// The game ends when a team reaches this total (P-CAN: 5000; 7500 with
    /// 3 players or three teams of six; 10000 with two teams of three).
    pub target: i32,
    /// A tie for the lead at or over the target is played on (P-PEN).
    pub tie_plays_on: bool,
}

impl GameRules {
    /// Team of a seat under the record spec's fixed rule `s mod k`.
    pub fn team_of(&self, seat: Seat) -> Team {
        Team::new(seat.index() % self.teams as usize)
    }

    /// The side whose melds a seat plays onto when a hand starts: its
    /// team's, or with a temporary partnership (P-CAN, three players) its
    /// own until the first to take the pile plays alone.
    pub fn starting_side(&self, seat: Seat) -> Side {
        if self.temporary_partnership {
            Side::new(seat.index())
        } else {
            Side::new(self.team_of(seat).index())
        }
    }

    /// How many sides a hand starts with, each keeping a score: the teams,
    /// or every seat with a temporary partnership ([`Self::starting_side`]).
    pub fn starting_sides(&self) -> usize {
        if self.temporary_partnership {
            self.players as usize
        } else {
            self.teams as usize
        }
    }

    /// A seat may have a partner in this game: teams of two or more, or a
    /// temporary partnership (P-CAN, three players), so asking partner
    /// "may I go out?" can arise.
    pub fn may_have_partner(&self) -> bool {
        self.teams < self.players || self.temporary_partnership
    }

    /// Every seat, in the order of play.
    pub fn seats(&self) -> impl DoubleEndedIterator<Item = Seat> + Clone + use<> {
        Seat::all(self.players as usize)
    }

    /// Every team.
    pub fn all_teams(&self) -> impl DoubleEndedIterator<Item = Team> + Clone + use<> {
        Team::all(self.teams as usize)
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::Rules;

    /// P-CAN: four play as two teams, three each for themselves but for a
    /// temporary partnership against the first to take the pile; two have
    /// no partner, so asking "may I go out?" never arises.
    #[test]
    fn sides_and_partners() {
        let form = |players| Rules::preset("classic", Some(players), None).expect("a form");
        let (two, three, four) = (form(2), form(3), form(4));
        assert_eq!(
            (
                two.game.starting_sides(),
                three.game.starting_sides(),
                four.game.starting_sides()
            ),
            (2, 3, 2)
        );
        assert!(!two.game.may_have_partner());
        assert!(three.game.may_have_partner() && four.game.may_have_partner());
    }
}
