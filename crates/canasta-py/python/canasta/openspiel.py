"""Canasta as OpenSpiel games (``pyspiel``), registered on ``import canasta``.

    >>> import pyspiel, canasta
    >>> game = pyspiel.load_game("canasta_samba(players=2)")
    >>> state = game.new_initial_state()        # a chance node: the shuffle
    >>> while not state.is_terminal():
    ...     if state.is_chance_node():
    ...         outcomes, probs = zip(*state.chance_outcomes())
    ...         state.apply_action(random.choices(outcomes, probs)[0])
    ...     else:
    ...         state.apply_action(random.choice(state.legal_actions()))

Names: ``canasta`` (parameter ``variant``) and one per preset,
``canasta_<preset>`` (``canasta_classic``, ``canasta_samba``, ...), all with
the parameters

- ``variant`` (str, default ``"classic"``; the preset of ``canasta_<preset>``)
- ``players`` (int, default 0: the variant's default number of players)
- ``options`` (str: a JSON object of rule fields, default ``"{}"``; see
  ``canasta.options(variant, players)``). Inside a game string, where
  OpenSpiel splits on commas, write ``key:value;key:value``
  (``"canasta_classic(options=target:3000;wilds_on_canasta:false)"``), or
  pass a dict: ``pyspiel.load_game("canasta_classic", {"options":
  json.dumps({...})})``
- ``episode`` (``"hand"``, the default, or ``"game"``): one hand, scored as
  the hand's points, or a whole game to the target (long: hundreds of
  decisions and about a hundred chance steps a hand, hands without end)
- ``reward`` (``"win"``, default, or ``"points"``): ``win`` gives +1 to the
  lone winning side and -1/(sides-1) to the others (a tie shares the win);
  ``points`` each side's score less the mean of the sides, in thousands.
  Seats of a side get their side's return; returns are zero-sum.
- ``max_hands`` (int, default 500): a game still short of the target ends
  after this many hands (``episode="game"`` only).

The state wraps a ``canasta.Game(..., explicit_chance=True)``. Chance is
explicit: a chance node draws the first dealer (outcome = seat), then each
card of the shuffled deck from the top (outcome = face index 0..52,
probability = copies left / cards left), then the first player where the
rules draw one (outcome = seat); every hand of a game starts with such a
block. Decisions are the engine's flat action ids (``canasta.NUM_ACTIONS``):
a compound action (an opening of several melds, a pickup) is spelled by
several ids, one OpenSpiel move each.

Observations: ``observation_tensor`` is the engine's observation tensor of
the seat (``Game.observation``, fields in ``Game.observation_fields()``); it
is *not* perfect recall, so the games provide no ``information_state_tensor``
(an observer made with ``perfect_recall=True`` has a string and no tensor).
``observation_string`` is the seat's own view (the bot protocol's JSON
observation, which holds no hidden card) and the ids spelled so far in the
decision at hand. ``information_state_string`` is perfect recall: the
observation string, every decision id so far (all public) and the seat's
hand after each change. ``resample_from_infostate`` deals the cards the
seat cannot see anew with the engine's determinizer; the new state's
``history()`` is the original one (the determinizer redeals the cards as
they lie, not the shuffle), so do not read chance outcomes from it.
States pickle, and so ``serialize_game_and_state`` works (``canasta.Game``
pickles as its record and what the record cannot say); a resampled state
keeps no record and does not.
"""

import array
import json

import numpy as np
import pyspiel

from . import _canasta

__all__ = ["GAME_NAMES", "CanastaGame", "CanastaState", "CanastaObserver"]

# Deliberately generous bounds (OpenSpiel only needs them to hold).
_MAX_STEPS_PER_HAND = 100_000  # decision steps (ids) in one hand
_POINTS_BOUND_PER_HAND = 250.0  # |points return| of one hand, in thousands
_MAX_FACES = 53  # chance outcomes of a card: faces 0..52
_RANKS = "23456789TJQKA"
_SUITS = "SHDC"


def _variants():
    out = {}
    for v in _canasta.variants():
        out[v["id"]] = {
            "players": [int(p) for p in v["players"]],  # bytes or list
            "default_players": int(v["default_players"]),
            "summary": v["summary"],
        }
    return out


_VARIANTS = _variants()


def _face_name(face):
    """The name of a face index, read from the engine's `card X` action names
    (the card ids run over the faces in order)."""
    return _FACE_NAMES[face] if 0 <= face < len(_FACE_NAMES) else f"face {face}"


def _face_names():
    base = _canasta.CARD  # the id of `card <face 0>`
    names = []
    for face in range(_MAX_FACES):
        name = _canasta.action_name(base + face)
        names.append(name.split(" ", 1)[1] if name.startswith("card ") else f"face {face}")
    return names


try:
    _FACE_NAMES = _face_names()
except Exception:  # pragma: no cover - a layout without a card block
    _FACE_NAMES = []


def _params(variant):
    return {
        "variant": variant,
        "players": 0,
        "options": "{}",
        "episode": "hand",
        "reward": "win",
        "max_hands": 500,
    }


def _options(text):
    """The ``options`` parameter: a JSON object, or ``key:value;key:value``
    (OpenSpiel's game strings split on commas, so a JSON object of two keys
    cannot be written inside one; each value is read as JSON, and a word
    that is not JSON as a string)."""
    text = text.strip()
    if text.startswith("{"):
        try:
            options = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"options must be a JSON object: {e}") from None
        if not isinstance(options, dict):
            raise ValueError("options must be a JSON object")
        return options
    options = {}
    for item in filter(None, (part.strip() for part in text.split(";"))):
        key, sep, value = item.partition(":")
        if not sep or not key.strip():
            raise ValueError(
                f"options item {item!r} is not key:value (write options as a JSON "
                "object, or as key:value;key:value inside a game string)"
            )
        try:
            options[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            options[key.strip()] = value.strip()
    return options


def _options_text(options):
    """The ``options`` parameter as the game's string writes it: the
    ``key:value;...`` form where no value holds a comma (so that the game
    string, and with it a pickled game or state, reads back), else JSON."""
    items = [(k, json.dumps(options[k], separators=(",", ":"))) for k in sorted(options)]
    if options and not any("," in v or ";" in v for _, v in items):
        return ";".join(f"{k}:{v}" for k, v in items)
    return json.dumps(options, sort_keys=True)


def _game_type(short_name, variant, players):
    long_name = "Canasta" if short_name == "canasta" else f"Canasta ({variant})"
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(players),
        min_num_players=min(players),
        provides_information_state_string=True,
        # The tensor is one seat's view now, not its history: an
        # information-state tensor would claim perfect recall it lacks.
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_params(variant),
    )


class CanastaGame(pyspiel.Game):
    """One form of Canasta (variant, players, options) as an OpenSpiel game."""

    _GAME_TYPE = None  # set on the registered subclass of each name

    def __init__(self, params=None):
        params = dict(params or {})
        variant = str(params.get("variant", "classic"))
        if variant not in _VARIANTS:
            raise ValueError(
                f"unknown variant {variant!r}; canasta.variants() lists {sorted(_VARIANTS)}"
            )
        players = int(params.get("players", 0)) or _VARIANTS[variant]["default_players"]
        options = _options(str(params.get("options", "{}") or "{}"))
        episode = str(params.get("episode", "hand"))
        reward = str(params.get("reward", "win"))
        max_hands = int(params.get("max_hands", 500))
        # Checks every argument (the engine's error messages).
        template = _canasta.Game(
            variant,
            players,
            options,
            seed=0,
            episode=episode,
            reward=reward,
            max_hands=max_hands,
            # The record is what a state pickles to (serialize_game_and_state);
            # keeping it costs nothing measurable next to pyspiel's own calls.
            record=True,
            explicit_chance=True,
        )
        self.variant = variant
        self.players = players
        self.options = options
        self.episode = episode
        self.reward = reward
        self.max_hands = max_hands
        self._template = template
        self._deck_size, self._draws_first = _chance_block(template)

        hands = 1 if episode == "hand" else max_hands
        if reward == "win":
            lo, hi = -1.0, 1.0
        else:
            bound = _POINTS_BOUND_PER_HAND * hands
            lo, hi = -bound, bound
        info = pyspiel.GameInfo(
            num_distinct_actions=_canasta.NUM_ACTIONS,
            max_chance_outcomes=max(_MAX_FACES, players),
            num_players=players,
            min_utility=lo,
            max_utility=hi,
            utility_sum=0.0,
            max_game_length=min(_MAX_STEPS_PER_HAND * hands, 2**31 - 1),
        )
        game_type = self._GAME_TYPE or _TYPES["canasta"]
        preset = game_type.short_name[len("canasta_"):]
        if preset and preset != variant:
            raise ValueError(f"{game_type.short_name} plays {preset}, not {variant}: load canasta(variant={variant})")
        full = _params(variant)
        full.update(
            variant=variant,
            players=players,
            options=_options_text(options),
            episode=episode,
            reward=reward,
            max_hands=max_hands,
        )
        super().__init__(game_type, info, full)

    def __reduce__(self):
        # pyspiel's own pickling of a game restores the C++ part only; a
        # game written in Python is rebuilt from its string instead.
        return (pyspiel.load_game, (str(self),))

    def new_initial_state(self, *args):
        """The start: a chance node (the first dealer)."""
        return CanastaState(self, self._template.clone())

    def make_py_observer(self, iig_obs_type=None, params=None):
        return CanastaObserver(self, iig_obs_type, params)

    def max_chance_nodes_in_history(self):
        hands = 1 if self.episode == "hand" else self.max_hands
        return (self._deck_size + 2) * hands


def _chance_block(template):
    """(cards in the deck, whether the first player is drawn) of a form."""
    draws_first = bool(_canasta.options(template.variant, template.players).get("random_first_player", False))
    return template.deck_size, draws_first


class CanastaState(pyspiel.State):
    """A position: a ``canasta.Game`` with explicit chance, and the public ids
    and private hand history the information state strings need."""

    def __init__(self, game, engine=None):
        super().__init__(game)
        self._game = engine if engine is not None else game._template.clone()
        self._ids = array.array("H")  # decision ids so far (all public)
        n = game.players
        self._views = ("",) * n  # per seat: "@<len(ids)>:<hand>|" on change
        self._hands = ("",) * n  # the last hand of each seat in _views

    # -- the state machine -------------------------------------------------

    def current_player(self):
        p = self._game.current_player
        if p == -1:
            return pyspiel.PlayerId.CHANCE
        if p == -4:
            return pyspiel.PlayerId.TERMINAL
        return int(p)

    def is_terminal(self):
        return self._game.is_terminal()

    def _legal_actions(self, player):
        return self._game.legal_actions()

    def chance_outcomes(self):
        return self._game.chance_outcomes()

    def _apply_action(self, action):
        g = self._game
        if g.is_chance_node():
            g.apply_chance(int(action))
            if not g.is_chance_node():
                self._note_hands()
        else:
            done = g.step(int(action))
            self._ids.append(int(action))
            if done is not None:
                self._note_hands()

    def _note_hands(self):
        g = self._game
        n = len(self._ids)
        views = list(self._views)
        hands = list(self._hands)
        changed = False
        for seat in range(g.players):
            hand = " ".join(g.hand(seat))
            if hand != hands[seat]:
                hands[seat] = hand
                views[seat] += f"@{n}:{hand}|"
                changed = True
        if changed:
            self._views = tuple(views)
            self._hands = tuple(hands)

    def _chance_kind(self):
        """`dealer`, `card` or `first`, for the chance node at hand."""
        return self._game.chance_kind

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            if self._game.is_chance_node():
                kind = self._chance_kind()
                if kind == "card":
                    return f"card {_face_name(action)}"
                return f"{kind} seat {action}"
            return f"chance {action}"
        return _canasta.action_name(int(action))

    def returns(self):
        return list(self._game.returns())

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state consistent with all ``player_id`` knows: the cards it cannot
        see dealt anew by the engine's determinizer (seeded from the sampler)."""
        if self._game.is_chance_node():
            raise ValueError("resample_from_infostate at a chance node (the deal is under way)")
        seed = int(probability_sampler() * 2**53)
        state = self.clone()
        state._game = self._game.resample(int(player_id), seed)
        # The other seats' private histories belong to the real deal: keep
        # only their hands as the new deal has them.
        n = len(self._ids)
        views = list(state._views)
        hands = list(state._hands)
        for seat in range(self._game.players):
            if seat != player_id:
                hands[seat] = " ".join(state._game.hand(seat))
                views[seat] = f"@{n}:{hands[seat]}|"
        state._views = tuple(views)
        state._hands = tuple(hands)
        return state

    # -- strings and inspection ---------------------------------------------

    def engine(self):
        """The wrapped ``canasta.Game`` (the whole state: do not let an agent
        read the hidden cards from it)."""
        return self._game

    def observation_text(self, player):
        """What `player` sees, as text: its bot-protocol observation (JSON)
        and the ids spelled so far in the decision at hand."""
        obs = json.dumps(self._game.observation_json(int(player)), sort_keys=True, separators=(",", ":"))
        spelled = " ".join(str(i) for i in self._game.spelled())
        return f"p{player} {obs} spelled[{spelled}]"

    def information_text(self, player):
        ids = " ".join(map(str, self._ids))
        return f"{self.observation_text(player)} ids[{ids}] hands[{self._views[player]}]"

    def __str__(self):
        g = self._game
        spelled = " ".join(_canasta.action_name(i) for i in g.spelled())
        return f"{g.describe()}\nspelled: {spelled}\nplayer: {g.current_player}"


class CanastaObserver:
    """The PyObserver of the Canasta games (see the module docstring)."""

    def __init__(self, game, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError(
                "canasta observers show one seat's view (public information and "
                "private_info=SINGLE_PLAYER); other observation types are not supported"
            )
        self._perfect_recall = bool(iig_obs_type.perfect_recall)
        if self._perfect_recall:
            # Perfect recall is a string only (the seat's whole history);
            # the tensor is the view of the moment, so none is offered.
            self.tensor = None
            self.dict = {}
        else:
            size = game._template.observation_size
            self.tensor = np.zeros(size, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        if self.tensor is not None:
            self.tensor[:] = state._game.observation(int(player))

    def string_from(self, state, player):
        if self._perfect_recall:
            return state.information_text(player)
        return state.observation_text(player)


# -- registration ---------------------------------------------------------------

_ALL_PLAYERS = sorted({p for v in _VARIANTS.values() for p in v["players"]})
_TYPES = {"canasta": _game_type("canasta", "classic", _ALL_PLAYERS)}
for _v, _info in _VARIANTS.items():
    _TYPES[f"canasta_{_v}"] = _game_type(f"canasta_{_v}", _v, _info["players"])

GAME_NAMES = tuple(_TYPES)


# One class a name (OpenSpiel keeps the creator until the process exits: a
# class, unlike a closure, is never freed during interpreter shutdown, when
# freeing it would crash).
GAME_CLASSES = {
    name: type(
        "CanastaGame_any" if name == "canasta" else "CanastaGame_" + name[len("canasta_"):],
        (CanastaGame,),
        {"_GAME_TYPE": game_type, "__module__": __name__},
    )
    for name, game_type in _TYPES.items()
}
# Each class by its name in this module, so that pickle finds it.
globals().update({cls.__name__: cls for cls in GAME_CLASSES.values()})


def _register():
    registered = set(pyspiel.registered_names())
    for name, game_type in _TYPES.items():
        if name not in registered:
            pyspiel.register_game(game_type, GAME_CLASSES[name])


_register()


# OpenSpiel's C++ searches (pyspiel.MCTSBot, pyspiel.ISMCTSBot) crash the
# process with a segmentation fault on games written in Python, ours among
# them (seen with OpenSpiel's own python_kuhn_poker too). Put a clear error
# in their place for these games; other games reach OpenSpiel untouched.
_CPP_SEARCH_ADVICE = {
    "MCTSBot": "open_spiel.python.algorithms.mcts.MCTSBot",
    "ISMCTSBot": "open_spiel.python.algorithms.ismcts.ISMCTSBot",
}


def _refusal(name):
    return TypeError(
        f"pyspiel.{name} (OpenSpiel's C++ search) crashes on games written in "
        f"Python, Canasta among them; use {_CPP_SEARCH_ADVICE[name]}, or the "
        "engine's own search (canasta.bots.ismcts)"
    )


def _guard_cpp_search(name):
    base = getattr(pyspiel, name, None)
    if base is None or getattr(base, "_canasta_guarded", False):
        return

    class Guarded(base):
        _canasta_guarded = True

        def __init__(self, *args, **kwargs):
            game = args[0] if args else kwargs.get("game")
            if isinstance(game, CanastaGame):
                raise _refusal(name)
            super().__init__(*args, **kwargs)

        def step(self, state):
            if isinstance(state, CanastaState):
                raise _refusal(name)
            return super().step(state)

        def step_with_policy(self, state):
            if isinstance(state, CanastaState):
                raise _refusal(name)
            return super().step_with_policy(state)

    Guarded.__name__ = Guarded.__qualname__ = name
    Guarded.__doc__ = base.__doc__
    setattr(pyspiel, name, Guarded)


for _name in _CPP_SEARCH_ADVICE:
    _guard_cpp_search(_name)
