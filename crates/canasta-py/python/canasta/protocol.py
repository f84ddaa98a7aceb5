"""Seat a Python agent in ``canasta tournament`` (or any host) through the
bot protocol (docs/bot-protocol.md).

An agent is a callable ``agent(game) -> action id``. For every decision
the host sends, ``serve`` rebuilds the position as a ``canasta.Game`` from
the seat's view (``canasta.Game.from_observation``: the cards the seat
cannot see are dealt at random, consistently with what it knows) and calls
the agent until the ids it picks spell one whole action, which goes back to
the host. The agent should read only its seat's view --
``game.observation()``, ``game.observation_json()``,
``game.legal_actions()``, ``game.legal_action_mask()``,
``game.legal_action_texts()``, ``game.spelled()`` -- since the rest of the
rebuilt state is a guess. If the agent has a method ``new_game(seat, seed,
header)``, it is called at every ``game`` message (``seed`` is the host's
seed for the bot's own random choices).

    # my_bot.py
    import canasta.protocol

    def agent(game):
        return game.legal_actions()[0]

    canasta.protocol.serve(agent)

    $ canasta tournament --bots heuristic,"cmd:python3 my_bot.py" --games 10 --seed 1

``python -m canasta.protocol [--agent random|first] [--seed N]`` serves an
example agent: ``random`` is uniform over the legal ids at every step (not
over whole actions), seeded by ``--seed`` and the host's game seed;
``first`` always takes the lowest legal id.
"""

import argparse
import json
import random as _random
import sys

from ._canasta import Game

__all__ = ["serve", "RandomAgent", "first_agent", "AGENTS", "main"]

# An agent gets this many steps to spell one action (no action is nearly
# so long; a longer loop means the agent never completes its action).
MAX_STEPS = 10_000

_MASK64 = 2**64 - 1


def _mix(*values):
    """A 64-bit seed from several integers (SplitMix64 steps)."""
    h = 0x9E3779B97F4A7C15
    for v in values:
        h = (h ^ (int(v) & _MASK64)) & _MASK64
        h = (h + 0x9E3779B97F4A7C15) & _MASK64
        z = h
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        h = z ^ (z >> 31)
    return h


class _LineError(Exception):
    pass


def serve(agent, *, stdin=None, stdout=None, seed=0):
    """Answer the host's messages on ``stdin`` with ``agent``'s actions on
    ``stdout`` until ``stdin`` closes.

    A bad line (not a message, a decision before any game, an impossible
    observation, an empty or unreadable legal list) or an agent that fails
    gets ``{"error": "line N: ..."}``, and serving goes on with the next
    line. ``seed`` (with the host's game seed and the decision's
    ``state_id``) picks the hidden cards of the rebuilt positions.
    """
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    game_msg = None  # (header, seat, host seed) of the game under way
    n = 0
    for line in iter(stdin.readline, ""):
        n += 1
        if not line.strip():
            continue
        try:
            msg = json.loads(line)
            if not isinstance(msg, dict):
                raise _LineError("not a message: not a JSON object")
            kind = msg.get("type")
            if kind == "game":
                game_msg = None  # a bad game line leaves no game
                game_msg = _read_game(msg)
                new_game = getattr(agent, "new_game", None)
                if new_game is not None:
                    header, seat, host_seed = game_msg
                    new_game(seat=seat, seed=host_seed, header=header)
                continue
            if kind == "decision":
                if game_msg is None:
                    raise _LineError("a decision before any game")
                reply = {"action": _decide(agent, game_msg, msg, seed)}
            else:
                raise _LineError(f"not a message: unknown type {kind!r}")
        except _LineError as e:
            reply = {"error": f"line {n}: {e}"}
        except json.JSONDecodeError as e:
            reply = {"error": f"line {n}: not a message: {e}"}
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()


def _read_game(msg):
    header = msg.get("header")
    seat = msg.get("seat")
    host_seed = msg.get("seed", 0)
    if not isinstance(header, dict):
        raise _LineError("not a message: a game line needs a header object")
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
        raise _LineError("not a message: a game line needs a seat number")
    if not isinstance(host_seed, int) or isinstance(host_seed, bool):
        raise _LineError("not a message: the seed must be a number")
    try:  # the rules must be readable, and the seat one of theirs
        players = Game(
            header.get("variant", "classic"),
            header.get("players"),
            header.get("options") or None,
            record=False,
        ).players
    except (ValueError, TypeError, OverflowError) as e:
        raise _LineError(f"bad header: {e}") from None
    if seat >= players:
        raise _LineError(f"seat {seat} is not a seat of {players} players")
    return header, seat, host_seed


def _decide(agent, game_msg, msg, seed):
    header, seat, host_seed = game_msg
    observation = msg.get("observation")
    legal = msg.get("legal")
    if not isinstance(observation, dict):
        raise _LineError("not a message: a decision needs an observation object")
    if not isinstance(legal, list) or not all(isinstance(a, str) for a in legal):
        raise _LineError("not a message: legal must be a list of action strings")
    if not legal:
        raise _LineError("no legal action to choose from")
    state_id = observation.get("state_id", 0)
    if not isinstance(state_id, int) or isinstance(state_id, bool):
        state_id = 0
    try:
        game = Game.from_observation(
            header, observation, legal, seed=_mix(seed, host_seed, state_id)
        )
    except (ValueError, TypeError, OverflowError) as e:
        raise _LineError(str(e)) from None
    for _ in range(MAX_STEPS):
        try:
            action = agent(game)
        except Exception as e:  # the agent's own failure: report, go on
            raise _LineError(f"the agent failed: {type(e).__name__}: {e}") from None
        try:
            done = game.step(int(action))
        except (ValueError, TypeError, OverflowError) as e:
            raise _LineError(f"the agent chose badly: {e}") from None
        if done is not None:
            return done
    raise _LineError(f"the agent did not complete an action in {MAX_STEPS} steps")


class RandomAgent:
    """Uniform over the legal ids at every step, reseeded at every game
    from its own seed and the host's."""

    def __init__(self, seed=0):
        self.seed = seed
        self.rng = _random.Random(_mix(seed))

    def new_game(self, seat, seed, header):
        self.rng = _random.Random(_mix(self.seed, seed, seat))

    def __call__(self, game):
        return self.rng.choice(game.legal_actions())


def first_agent(game):
    """The lowest legal id at every step."""
    return game.legal_actions()[0]


AGENTS = {
    "random": RandomAgent,
    "first": lambda seed=0: first_agent,
}


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python -m canasta.protocol",
        description="Serve an example Python agent over the bot protocol "
        "(docs/bot-protocol.md) on stdin and stdout.",
    )
    parser.add_argument("--agent", choices=sorted(AGENTS), default="random")
    parser.add_argument("--seed", type=int, default=0, help="seed of the agent (default 0)")
    args = parser.parse_args(argv)
    # Bytes that are not UTF-8 make a bad line, not a crash.
    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")
    serve(AGENTS[args.agent](args.seed), seed=args.seed)


if __name__ == "__main__":
    main()
