"""The OpenSpiel games: OpenSpiel's own checks on every form, and IS-MCTS."""

import json
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
import canasta  # noqa: E402  (registers the games)

FORMS = [(v["id"], int(p)) for v in canasta.variants() for p in v["players"]]


def test_registered_names():
    names = set(pyspiel.registered_names())
    assert "canasta" in names
    for v in canasta.variants():
        assert f"canasta_{v['id']}" in names
    assert all(n.startswith("canasta") for n in canasta.openspiel.GAME_NAMES)


@pytest.mark.parametrize("variant,players", FORMS)
def test_random_sim_every_form(variant, players):
    game = pyspiel.load_game(f"canasta_{variant}(players={players})")
    assert game.num_players() == players
    assert game.num_distinct_actions() == canasta.NUM_ACTIONS
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def _play(state, rng, checks=True, stop=None):
    """Plays at random to the end (or `stop` decisions), checking as it goes."""
    n = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            if checks:
                assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
                assert all(p > 0 for _, p in outcomes)
                names = [state.action_to_string(pyspiel.PlayerId.CHANCE, o) for o, _ in outcomes]
                assert len(set(names)) == len(names)
            actions, probs = zip(*outcomes)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            legal = state.legal_actions()
            if checks:
                assert legal and legal == sorted(legal)
                assert all(0 <= a < canasta.NUM_ACTIONS for a in legal)
            state.apply_action(rng.choice(legal))
            n += 1
            if stop is not None and n >= stop:
                return state
    return state


@pytest.mark.parametrize("variant,players", [("classic", 4), ("samba", 3), ("canastia", 2)])
def test_own_checks_and_record(variant, players):
    game = pyspiel.load_game(f"canasta_{variant}(players={players})")
    state = game.new_initial_state()
    first = [state.action_to_string(pyspiel.PlayerId.CHANCE, o) for o, _ in state.chance_outcomes()]
    assert first == [f"dealer seat {s}" for s in range(players)]
    state.apply_action(0)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0).startswith("card ")
    state = _play(state, random.Random(7))
    returns = state.returns()
    assert abs(sum(returns)) < 1e-9
    assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
    # The same episode with a record: the record checks and scores the same.
    recorded = canasta.Game(variant, players, episode="hand", explicit_chance=True, record=True)
    for action in state.history():
        if recorded.is_chance_node():
            recorded.apply_chance(action)
        else:
            recorded.step(action)
    assert recorded.is_terminal()
    assert recorded.returns() == pytest.approx(returns)
    # The record checks (from_record replays it through the engine's
    # checker) and gives the same scores. (A record read back after the end
    # of a hand goes on with the next deal, so compare scores, not returns.)
    replay = canasta.Game.from_record(recorded.record(), episode="hand")
    assert replay.scores == recorded.scores
    assert replay.hands_played == 1


def test_parameters():
    game = pyspiel.load_game(
        "canasta",
        {"variant": "samba", "players": 2, "reward": "points", "options": json.dumps({})},
    )
    assert game.num_players() == 2
    assert game.get_parameters()["variant"] == "samba"
    assert game.max_utility() > 1
    state = _play(game.new_initial_state(), random.Random(3))
    assert abs(sum(state.returns())) < 1e-9
    default = pyspiel.load_game("canasta_pennies")
    assert default.num_players() == 6
    with pytest.raises(Exception):
        pyspiel.load_game("canasta(variant=nonesuch)")
    with pytest.raises(Exception):
        pyspiel.load_game("canasta_classic(players=5)")


def test_game_episode_random_sim():
    game = pyspiel.load_game("canasta_canastia(players=2,episode=game,max_hands=3)")
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_observations_hide_other_hands():
    game = pyspiel.load_game("canasta_classic(players=2)")
    state = _play(game.new_initial_state(), random.Random(11), stop=6)
    engine = state.engine()
    hand1 = engine.hand(1)
    for p in range(2):
        assert len(state.observation_tensor(p)) == game.observation_tensor_size()
        assert np.array_equal(np.array(state.information_state_tensor(p)), engine.observation(p))
    text0 = state.observation_string(0)
    info0 = state.information_state_string(0)
    assert json.dumps(engine.hand(0)[0]) in text0
    # Seat 1's hand is nowhere in seat 0's strings (what was melded is public).
    obs0 = engine.observation_json(0)
    assert obs0["hand"] == engine.hand(0)
    assert "hand" in json.loads(text0.split(" ", 1)[1].rsplit(" spelled[", 1)[0])
    assert " ".join(hand1) not in info0
    assert state.information_state_string(0) != state.information_state_string(1)


def test_resample_from_infostate():
    game = pyspiel.load_game("canasta_classic(players=2)")
    state = _play(game.new_initial_state(), random.Random(5), stop=10)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for seat in range(2):
        other = state.resample_from_infostate(seat, sampler)
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
        assert other.current_player() == player
        assert other.legal_actions() == state.legal_actions()
        _play(other, random.Random(seat))  # the resampled world plays on


def test_ismcts_plays_legal_moves():
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("canasta_classic(players=2)")
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=8, random_state=rng
    )
    state = game.new_initial_state()
    py_rng = random.Random(1)
    moves = 0
    while not state.is_terminal() and moves < 4:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(py_rng.choices(actions, probs)[0])
            continue
        legal = state.legal_actions()
        action = bot.step(state)
        assert action in legal
        state.apply_action(action)
        moves += 1
    assert moves == 4
