"""canasta.evaluate: an agent against the engine's bots on duplicate deals,
scored as `canasta tournament` scores two bots."""

import json
import random
import subprocess

import pytest

import canasta


@pytest.mark.parametrize("variant,players,extra", [
    ("classic", 4, []),
    ("samba", 3, []),
    ("classic", 2, ["--max-hands", "3"]),
])
def test_two_bot_names_give_the_tournaments_own_figures(variant, players, extra, canasta_cli):
    """The same deals, seatings and bot seeds: the same wins and margins."""
    one_hand = not extra
    mine = canasta.evaluate("heuristic", against="random", variant=variant, players=players,
                            deals=12, seed=4, one_hand=one_hand, max_hands=3)
    out = subprocess.run(
        [str(canasta_cli), "tournament", "--variant", variant, "--players", str(players),
         "--bots", "heuristic,random", "--games", "12", "--seed", "4", "--threads", "1",
         "--json", *(["--one-hand"] if one_hand else extra)],
        capture_output=True, text=True, check=True,
    )
    theirs = next(b for b in json.loads(out.stdout)["bots"] if b["name"] == "heuristic")
    assert mine["unit"] == ("deal" if one_hand else "game")
    assert mine["units"] == theirs["games"]
    assert (mine["wins"], mine["ties"], mine["losses"]) == (theirs["wins"], theirs["ties"], theirs["losses"])
    assert mine["win_rate"] == pytest.approx(theirs["win_rate"])
    assert mine["ci95"] == pytest.approx(theirs["ci95"])
    assert mine["margin_per_hand"] == pytest.approx(theirs["margin_per_hand"])
    assert mine["margin_ci95"] == pytest.approx(theirs["margin_ci95"])


def test_a_python_agent_is_measured_with_intervals_that_hold_its_figures():
    rng = random.Random(0)
    seen = set()

    def agent(game):
        seen.add(game.current_player)
        return rng.choice(game.legal_actions())

    r = canasta.evaluate(agent, against=canasta.bots.heuristic(3), deals=10, seed=2)
    assert seen == {0, 1, 2, 3}  # both sides of the table, on the two seatings
    assert r["games"] == 20 and r["units"] == 10 and r["seatings"] == 2
    assert r["wins"] + r["ties"] + r["losses"] == 10
    lo, hi = r["ci95"]
    assert 0 <= lo <= r["win_rate"] <= hi <= 1
    mlo, mhi = r["margin_ci95"]
    assert mlo <= r["margin_per_hand"] <= mhi
    # Uniform ids lose to the heuristic by a wide margin.
    assert r["margin_per_hand"] < 0 and r["win_rate"] < 0.5


def test_an_agent_that_plays_whole_actions_or_the_game_itself():
    texts = canasta.evaluate(lambda g: g.legal_action_texts()[0], against="random",
                             variant="canastia", deals=2, seed=1)
    itself = canasta.evaluate(lambda g: canasta.bots.random(1).play(g), against="random",
                              variant="canastia", deals=2, seed=1)
    assert texts["units"] == itself["units"] == 2


def test_bad_arguments_are_refused_by_name():
    with pytest.raises(ValueError, match="deals"):
        canasta.evaluate("random", deals=0)
    with pytest.raises(TypeError, match="neither a bot"):
        canasta.evaluate(42, deals=1)
    with pytest.raises(RuntimeError, match="did not move"):
        canasta.evaluate(lambda g: None, deals=1)
