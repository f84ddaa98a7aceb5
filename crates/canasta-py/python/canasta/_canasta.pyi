"""Type stubs of the compiled engine module (crates/canasta-py/src/py)."""

from typing import Any, Optional, Sequence

import numpy as np
import numpy.typing as npt

NUM_ACTIONS: int
"""Action ids run from 0 to NUM_ACTIONS - 1 (1843), the same for every form."""
NUM_FACES: int
"""53: 52 naturals and the joker; face = (rank - 2) * 4 + suit (S H D C), joker 52."""
MELD_SLOTS: int
"""32: meld numbers an `add` or `canasta` id can name."""
DRAW: int
PICKUP_ONTO: int
ASK: int
YES: int
NO: int
MELD: int
PICKUP_WITH: int
NEXT_GROUP: int
END: int
CARD: int
"""CARD + face: the next card of the action being spelled."""
DISCARD: int
"""DISCARD + face."""
CANASTA: int
"""CANASTA + meld: close that meld as a canasta (Canastia)."""
ADD: int
"""ADD + meld * 53 + face: add one card to a meld of the side."""

def variants() -> list[dict[str, Any]]:
    """Every preset: {"id", "players" (list), "default_players", "summary"}."""

def options(variant: str, players: Optional[int] = None) -> dict[str, Any]:
    """Every rule field of a form with its value: pass changed ones as options=."""

def action_name(id: int) -> str:
    """The name of an action id: "draw", "card 7S", "add 3 7S", "/", "end"..."""

def action_id(name: str) -> int:
    """The id an action name names (inverse of action_name)."""

def spell(action: str) -> list[int]:
    """The ids that spell an action written in the record notation (where it
    is also the start of a longer legal action, the game wants END after them)."""

def seat_seeds(seed: int, index: int, players: int) -> list[int]:
    """The seeds `canasta sim` and `canasta tournament` give the bots of game `index`."""
def rust_random_steps(
    variant: str = "classic",
    players: Optional[int] = None,
    steps: int = 1_000_000,
    seed: int = 0,
    observe: bool = False,
) -> float:
    """Seconds the engine takes for `steps` uniformly random ids on one thread."""

class Game:
    """One game of Canasta (or one hand with episode="hand").

    Decisions are taken whole in the record notation (``apply("draw")``) or
    in steps of the flat action space (``step(id)``): a compound action is
    spelled id by id and played when complete.
    """

    def __init__(
        self,
        variant: str = "classic",
        players: Optional[int] = None,
        options: Optional[dict[str, Any]] = None,
        *,
        seed: int = 0,
        index: int = 0,
        episode: str = "game",
        reward: str = "win",
        max_hands: int = 500,
        record: bool = True,
        explicit_chance: bool = False,
    ) -> None: ...
    @staticmethod
    def from_record(
        text: str,
        *,
        seed: Optional[int] = None,
        episode: str = "game",
        reward: str = "win",
        max_hands: int = 500,
        explicit_chance: bool = False,
    ) -> "Game":
        """A game read from a record (one game), checked as `canasta check` does."""
    @staticmethod
    def from_observation(
        header: dict[str, Any] | str,
        observation: dict[str, Any] | str,
        legal: Sequence[str],
        *,
        seed: int = 0,
    ) -> "Game":
        """The game as the bot protocol shows one seat (hidden cards dealt at random)."""
    @property
    def variant(self) -> str: ...
    @property
    def players(self) -> int: ...
    @property
    def current_player(self) -> int:
        """The seat to act; -1 at a chance node, -4 at the end."""
    @property
    def phase(self) -> str:
        """deal, draw, play, answer, hand_over or game_over."""
    @property
    def dealer(self) -> int: ...
    @property
    def scores(self) -> list[int]:
        """Cumulative scores by team (by seat where partnerships are temporary)."""
    @property
    def hands_played(self) -> int: ...
    @property
    def decisions(self) -> int:
        """Whole actions played so far."""
    @property
    def chance_kind(self) -> Optional[str]:
        """"dealer", "card" or "first" at a chance node, else None."""
    @property
    def deck_size(self) -> int: ...
    @property
    def observation_size(self) -> int: ...
    def is_terminal(self) -> bool: ...
    def is_chance_node(self) -> bool: ...
    def legal_actions(self) -> list[int]:
        """The legal action ids, ascending."""
    def legal_action_mask(self) -> npt.NDArray[np.bool_]: ...
    def legal_action_texts(self) -> list[str]:
        """The whole actions open now, in the record notation."""
    def spelled(self) -> list[int]:
        """Ids spelled so far in this decision."""
    def step(self, action: int) -> Optional[str]:
        """Takes one id; returns the whole action when it completes one."""
    def apply(self, action: str) -> None:
        """Plays a whole action in the record notation, judged by the engine."""
    def chance_outcomes(self) -> list[tuple[int, float]]: ...
    def apply_chance(self, outcome: int) -> None: ...
    def returns(self) -> list[float]:
        """By seat: zero until the end; zero-sum."""
    def observation(self, seat: Optional[int] = None) -> npt.NDArray[np.float32]:
        """The observation tensor of `seat` (default: the seat to act)."""
    def observation_fields(self) -> list[tuple[str, int, int, str]]:
        """(name, offset, length, meaning) of every field of the tensor."""
    def observation_json(self, seat: Optional[int] = None) -> dict[str, Any]:
        """What `seat` may know, as the bot protocol's observation."""
    def hand(self, seat: int) -> list[str]:
        """A seat's cards (the whole state: not for agents)."""
    def record(self) -> str:
        """The game record so far (JSON Lines)."""
    def resample(self, seat: int, seed: int) -> "Game":
        """The cards `seat` cannot see dealt anew, consistently with what it knows."""
    def clone(self) -> "Game": ...
    def serial(self) -> str:
        """The game as text, exactly: its record and what the record cannot
        say (settings, the random stream, a deal or action under way); what
        pickle stores. Raises ValueError for a game that keeps no record."""
    @staticmethod
    def from_serial(text: str) -> "Game":
        """The game `serial()` wrote; the record is checked as `canasta check` does."""
    def __reduce__(self) -> tuple[Any, tuple[str]]: ...
    def describe(self) -> str:
        """The whole position in words (every hand)."""
    def rules(self) -> dict[str, Any]: ...
    @staticmethod
    def action_name(id: int) -> str: ...

class VecEnv:
    """n games stepped together in Rust; returned arrays are reused buffers."""

    def __init__(
        self,
        n: int,
        variant: str = "classic",
        players: Optional[int] = None,
        options: Optional[dict[str, Any]] = None,
        *,
        seed: int = 0,
        episode: str = "game",
        reward: str = "win",
        max_hands: int = 500,
        threads: Optional[int] = None,
    ) -> None: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def observation_size(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def players(self) -> int: ...
    def reset(
        self, seed: Optional[int] = None
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Restarts every game: (observations, masks)."""
    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """(observations of the seats to act, rewards [n, players], dones)."""
    def action_masks(self) -> npt.NDArray[np.bool_]: ...
    def observations(self) -> npt.NDArray[np.float32]: ...
    def to_play(self) -> npt.NDArray[np.int64]: ...
    def sample_legal(self) -> npt.NDArray[np.int64]:
        """A uniform legal id per game, drawn in Rust."""
    def game(self, i: int) -> Game:
        """A copy of game i."""
    def __len__(self) -> int: ...

class Bot:
    """An engine bot: random, heuristic, ismcts[-easy|-medium|-hard|-expert][@N|@Nms]."""

    def __init__(self, name: str = "random", seed: int = 0) -> None: ...
    @property
    def name(self) -> str: ...
    def choose(self, game: Game) -> str:
        """The bot's action for the seat to act, in the record notation."""
    def choose_ids(self, game: Game) -> list[int]:
        """A choice spelled as ids (END included where needed): step them all."""
    def play(self, game: Game) -> str:
        """Chooses and plays; returns the action."""
