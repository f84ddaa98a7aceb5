"""Measuring an agent against the engine's bots on duplicate deals, as
``canasta tournament`` measures two bots.

    >>> import canasta
    >>> r = canasta.evaluate(canasta.bots.heuristic(), against="random", deals=50, seed=1)
    >>> r["win_rate"], r["ci95"], r["margin_per_hand"]

Each deal is played once for every seating of the sides: the agent plays
some sides, the opponent the others, every way round (two seatings in a game
of two sides, six with three sides), on the same cards (deal ``d`` of seed
``seed`` is game ``d`` of ``canasta sim --seed seed``). The luck of the cards
cancels. With ``one_hand=True`` (the default) a deal is one hand and it is
the unit: the agent wins it when its sides scored more over its seatings, as
duplicate clubs compare the tables that played one board. With
``one_hand=False`` each seating is a whole game, and the unit is a game,
won by the side that reaches the target first.

The win rate counts ties as half and comes with its 95% Wilson interval; the
margin is the agent's sides' mean score less the opponent's, a hand, with a
95% interval by the delta method (units differ in their number of hands).
"""

import math

from ._canasta import Bot, Game, seat_seeds

__all__ = ["evaluate"]

_Z95 = 1.959963984540054


def evaluate(agent, against="heuristic", *, variant="classic", players=None, options=None,
             deals=100, seed=0, one_hand=True, max_hands=500):
    """Plays `agent` against `against` on `deals` duplicate deals.

    `agent` and `against` are each an engine bot (``canasta.bots.*``; any
    object with ``play(game)``, which plays one whole action), a bot's name
    as ``canasta sim --bots`` takes it (``"heuristic"``, ``"ismcts-easy"``,
    ...; one a seat, seeded as the tournament seeds it, so that two names
    give ``canasta tournament``'s own figures), or a callable
    ``f(game)`` returning an action id to step (it is called again while the
    same seat spells a longer action), an action in the record notation
    (``"draw"``), or anything once it has played on ``game`` itself.

    Returns a dict: ``unit`` (``"deal"`` or ``"game"``), ``deals``,
    ``games`` (games played: deals times seatings), ``units``, ``wins``,
    ``ties``, ``losses`` (of the agent, by unit), ``win_rate``, ``ci95``,
    ``hands``, ``margin_per_hand``, ``margin_ci95`` (``None`` from fewer than
    two units), ``unfinished`` (games stopped at `max_hands`), and the form
    played (``variant``, ``players``, ``seatings``).
    """
    deals = int(deals)
    if deals < 1:
        raise ValueError(f"deals must be at least 1, not {deals}")
    probe = Game(variant, players, options, seed=seed, record=False)
    n = probe.players
    rules = probe.rules()
    teams = int(rules["teams"])
    if teams < 2:
        raise ValueError("evaluate needs at least two sides")
    # Bit t set: side t is played by the opponent.
    seatings = list(range(1, (1 << teams) - 1))
    episode = "hand" if one_hand else "game"

    wins = ties = losses = unfinished = games = hands = 0
    sums = _MarginSums()
    for deal in range(deals):
        unit_margin = unit_hands = 0.0
        for colouring in seatings:
            game = Game(variant, players, options, seed=seed, index=deal, episode=episode,
                        reward="win", max_hands=max_hands, record=False)
            opponent_side = [bool(colouring >> (s % teams) & 1) for s in range(n)]
            bot_seeds = seat_seeds(seed, deal, n)
            movers = [_mover(against if opponent_side[s] else agent, bot_seeds[s])
                      for s in range(n)]
            steps = 0
            while not game.is_terminal():
                seat = game.current_player
                before = (game.decisions, len(game.spelled()))
                movers[seat](game)
                if (game.decisions, len(game.spelled())) == before:
                    raise RuntimeError(f"the player at seat {seat} did not move")
                steps += 1
                if steps > 1_000_000:
                    raise RuntimeError("a game took more than a million moves")
            games += 1
            played = max(game.hands_played, 1)
            hands += played
            scores = game.scores
            mine = [scores[t] for t in range(teams) if not colouring >> t & 1]
            theirs = [scores[t] for t in range(teams) if colouring >> t & 1]
            margin = sum(mine) / len(mine) - sum(theirs) / len(theirs)
            if one_hand:
                unit_margin += margin
                unit_hands += played
                continue
            # reward="win": the leading sides share +, the rest -; a game
            # stopped at max_hands has no winner and returns zeros.
            returns = game.returns()
            agent_return = _mean(returns[s] for s in range(n) if not opponent_side[s])
            opponent_return = _mean(returns[s] for s in range(n) if opponent_side[s])
            outcome = (agent_return > opponent_return) - (agent_return < opponent_return)
            unfinished += int(not any(returns) and game.hands_played >= max_hands)
            wins, ties, losses = _count(outcome, wins, ties, losses)
            sums.add(margin, played)
        if one_hand:
            outcome = (unit_margin > 0) - (unit_margin < 0)
            wins, ties, losses = _count(outcome, wins, ties, losses)
            sums.add(unit_margin, unit_hands)

    units = wins + ties + losses
    score = wins + 0.5 * ties
    lo, hi = _wilson95(score, units)
    return {
        "unit": "deal" if one_hand else "game",
        "variant": probe.variant,
        "players": n,
        "seatings": len(seatings),
        "deals": deals,
        "games": games,
        "units": units,
        "wins": wins,
        "ties": ties,
        "losses": losses,
        "win_rate": score / units,
        "ci95": [lo, hi],
        "hands": hands,
        "margin_per_hand": sums.per_hand(),
        "margin_ci95": sums.ci95(),
        "unfinished": unfinished,
    }


def _mover(player, bot_seed):
    """A function that makes one move (a whole action, or one id) for `player`."""
    if isinstance(player, str):
        # One bot a seat, seeded as `canasta tournament` seeds it.
        player = Bot(player, bot_seed)
    if hasattr(player, "play"):
        return player.play
    if not callable(player):
        raise TypeError(f"{player!r} is neither a bot, a bot's name nor a callable")

    def move(game):
        before = (game.decisions, game.spelled())
        choice = player(game)
        if choice is None or (game.decisions, game.spelled()) != before:
            return  # it played on the game itself
        if isinstance(choice, str):
            game.apply(choice)
        else:
            game.step(int(choice))

    return move


def _mean(values):
    values = list(values)
    return sum(values) / len(values)


def _count(outcome, wins, ties, losses):
    if outcome > 0:
        return wins + 1, ties, losses
    if outcome < 0:
        return wins, ties, losses + 1
    return wins, ties + 1, losses


def _wilson95(score, n):
    """The 95% Wilson score interval of a rate of `score` out of `n`."""
    if n <= 0:
        return 0.0, 1.0
    p = score / n
    z2 = _Z95 * _Z95
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = _Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return max(0.0, min(centre - half, p)), min(1.0, max(centre + half, p))


class _MarginSums:
    """Σ margin, Σ hands and their squares and product over the units: the
    mean margin a hand is a ratio of sums, its interval from the ratio's
    standard error (as `canasta tournament` reports it)."""

    def __init__(self):
        self.units = self.margin = self.hands = 0.0
        self.margin_sq = self.hands_sq = self.margin_hands = 0.0

    def add(self, margin, hands):
        self.units += 1
        self.margin += margin
        self.hands += hands
        self.margin_sq += margin * margin
        self.hands_sq += hands * hands
        self.margin_hands += margin * hands

    def per_hand(self):
        return self.margin / self.hands if self.hands > 0 else 0.0

    def ci95(self):
        n, r = self.units, self.per_hand()
        if n < 2 or self.hands <= 0:
            return None
        spread = max(self.margin_sq - 2 * r * self.margin_hands + r * r * self.hands_sq, 0.0)
        se = math.sqrt(spread / (n - 1) / n) / (self.hands / n)
        return [r - _Z95 * se, r + _Z95 * se]
