"""The engine's bots, callable from Python.

    >>> bot = canasta.bots.ismcts("medium", seed=1)
    >>> bot.choose(game)        # 'pickup 7S 7H' (the record notation)
    >>> bot.choose_ids(game)    # the same action as action ids
    >>> bot.play(game)          # choose and play it

The IS-MCTS bots search on deals of the cards their seat cannot see; they
never read the hidden state.
"""

from ._canasta import Bot

LEVELS = ("easy", "medium", "hard", "expert")


def random(seed=0):
    """Uniform over the generated actions (not over action ids)."""
    return Bot("random", seed)


def heuristic(seed=0):
    """Rules of thumb: meld what it can, keep pairs for the pile, discard safely."""
    return Bot("heuristic", seed)


def ismcts(level="medium", seed=0, *, iterations=None, milliseconds=None, threads=1):
    """Information-set Monte Carlo tree search at a level (easy, medium,
    hard, expert), or with a budget of iterations or milliseconds a move;
    `threads` searches at once, pooling their root statistics."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
    name = f"ismcts-{level}"
    if iterations is not None and milliseconds is not None:
        raise ValueError("give iterations or milliseconds, not both")
    if iterations is not None:
        name += f"@{int(iterations)}"
    elif milliseconds is not None:
        name += f"@{int(milliseconds)}ms"
    if int(threads) != 1:
        name += f"/{int(threads)}"
    return Bot(name, seed)


def by_name(name, seed=0):
    """Any bot `canasta sim --bots` accepts: random, heuristic, ismcts-hard@200ms..."""
    return Bot(name, seed)
