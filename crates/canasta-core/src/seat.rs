//! Who sits at the table: seats, the sides that own melds, and the teams
//! that keep scores.
//!
//! They are three numbers, and mixing them up is the easy mistake: in
//! Classic for three players each seat is its own team (three scores) while
//! the hand's melds belong to two sides (the lone hand and the temporary
//! partnership), so a side's number is not a team's. Each is its own type,
//! and a list kept per seat, side or team is indexed by that type (`Vec`
//! and slices take all three as an index). On the wire (the record, the bot
//! protocol, the Python API) each is the plain number it always was:
//! seats from 0 left of nobody, in the order of play.

macro_rules! table_number {
    ($(#[$doc:meta])* $name:ident, $what:literal) => {
        $(#[$doc])*
        #[derive(
            Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, serde::Serialize, serde::Deserialize,
        )]
        #[serde(transparent)]
        pub struct $name(u8);

        impl $name {
            /// The one numbered `index` (from 0). Tables hold at most six
            /// seats, so every index a table can mean fits.
            pub const fn new(index: usize) -> $name {
                assert!(index <= u8::MAX as usize, concat!("a ", $what, " number fits a byte"));
                $name(index as u8)
            }

            /// Its number, from 0: the position in every list kept per
            #[doc = $what]
            pub const fn index(self) -> usize {
                self.0 as usize
            }

            /// The first `count` of them, in order.
            pub fn all(count: usize) -> impl DoubleEndedIterator<Item = $name> + Clone {
                (0..count).map($name::new)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Display::fmt(&self.0, f)
            }
        }

        /// Shown as its bare number, as in the record, so that test failures
        /// and traces read like positions.
        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, concat!($what, " {}"), self.0)
            }
        }

        impl From<$name> for usize {
            fn from(x: $name) -> usize {
                x.index()
            }
        }

        impl<T> std::ops::Index<$name> for [T] {
            type Output = T;
            fn index(&self, i: $name) -> &T {
                &self[i.index()]
            }
        }

        impl<T> std::ops::IndexMut<$name> for [T] {
            fn index_mut(&mut self, i: $name) -> &mut T {
                &mut self[i.index()]
            }
        }

        impl<T> std::ops::Index<$name> for Vec<T> {
            type Output = T;
            fn index(&self, i: $name) -> &T {
                &self[i.index()]
            }
        }

        impl<T> std::ops::IndexMut<$name> for Vec<T> {
            fn index_mut(&mut self, i: $name) -> &mut T {
                &mut self[i.index()]
            }
        }
    };
}
pub(crate) use table_number;

table_number!(
    /// A seat at the table, numbered in the order of play.
    Seat,
    "seat"
);

table_number!(
    /// The side whose melds a seat plays onto: its partnership, or a
    /// temporary one for a hand (Classic, three players).
    Side,
    "side"
);

table_number!(
    /// A team that keeps a score across hands: a partnership, or a player
    /// alone.
    Team,
    "team"
);

impl Seat {
    /// The seat `steps` places on in the order of play, at a table of
    /// `players`.
    pub fn after(self, steps: usize, players: usize) -> Seat {
        Seat::new((self.index() + steps) % players)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_take_each_number_as_an_index() {
        let mut per_seat = vec![10, 20, 30];
        per_seat[Seat::new(1)] += 1;
        assert_eq!(per_seat[Seat::new(1)], 21);
        per_seat.push(40);
        let per_side = [5, 6];
        assert_eq!(per_side[Side::new(1)], 6);
        assert_eq!(
            Seat::all(3).collect::<Vec<_>>(),
            [Seat::new(0), Seat::new(1), Seat::new(2)]
        );
    }

    #[test]
    fn the_wire_sees_the_plain_number() {
        assert_eq!(serde_json::to_string(&Seat::new(3)).unwrap(), "3");
        assert_eq!(serde_json::from_str::<Team>("2").unwrap(), Team::new(2));
        assert_eq!(Side::new(4).to_string(), "4");
        assert_eq!(format!("{:?}", Seat::new(2)), "seat 2");
    }

    #[test]
    fn after_wraps_round_the_table() {
        assert_eq!(Seat::new(3).after(1, 4), Seat::new(0));
        assert_eq!(Seat::new(1).after(2, 3), Seat::new(0));
    }
}
