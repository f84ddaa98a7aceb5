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
    # serialize=True: every state is also serialized and read back.
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


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
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_observations_hide_other_hands():
    game = pyspiel.load_game("canasta_classic(players=2)")
    state = _play(game.new_initial_state(), random.Random(11), stop=6)
    engine = state.engine()
    hand1 = engine.hand(1)
    for p in range(2):
        assert len(state.observation_tensor(p)) == game.observation_tensor_size()
        assert np.array_equal(np.array(state.observation_tensor(p)), engine.observation(p))
    text0 = state.observation_string(0)
    info0 = state.information_state_string(0)
    assert json.dumps(engine.hand(0)[0]) in text0
    # Seat 1's hand is nowhere in seat 0's strings (what was melded is public).
    obs0 = engine.observation_json(0)
    assert obs0["hand"] == engine.hand(0)
    assert "hand" in json.loads(text0.split(" ", 1)[1].rsplit(" spelled[", 1)[0])
    assert " ".join(hand1) not in info0
    assert state.information_state_string(0) != state.information_state_string(1)


def test_perfect_recall_is_a_string_and_no_tensor_claims_it():
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("canasta_classic(players=2)")
    assert not game.get_type().provides_information_state_tensor
    state = _play(game.new_initial_state(), random.Random(3), stop=8)
    recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert recall.tensor is None
    assert recall.string_from(state, 0) == state.information_state_string(0)
    now = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    now.set_from(state, 0)
    assert np.array_equal(now.tensor, state.engine().observation(0))


def test_resample_from_infostate():
    game = pyspiel.load_game("canasta_classic(players=2)")
    state = _play(game.new_initial_state(), random.Random(5), stop=10)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for seat in range(2):
        other = state.resample_from_infostate(seat, sampler)
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert other.observation_tensor(seat) == state.observation_tensor(seat)
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


def test_the_cpp_searches_refuse_our_games_with_a_clear_error_not_a_crash():
    """pyspiel.MCTSBot and pyspiel.ISMCTSBot end the process with a
    segmentation fault on games written in Python; on ours they raise."""
    game = pyspiel.load_game("canasta_classic(players=2)")
    state = _play(game.new_initial_state(), random.Random(2), stop=1)
    evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
    with pytest.raises(TypeError, match="open_spiel.python.algorithms.mcts.MCTSBot"):
        pyspiel.MCTSBot(game, evaluator, 2.0, 20, 1000, False, 0, False)
    bot = pyspiel.ISMCTSBot(0, evaluator, 2.0, 20, -1,
                            pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)
    with pytest.raises(TypeError, match="ismcts.ISMCTSBot"):
        bot.step(state)
    # Games written in C++ reach OpenSpiel's searches untouched.
    ttt = pyspiel.load_game("tic_tac_toe")
    assert pyspiel.MCTSBot(ttt, evaluator, 2.0, 20, 1000, False, 0, False).step(
        ttt.new_initial_state()) in range(9)


def test_options_of_several_keys_in_a_game_string_and_in_a_dict():
    by_string = pyspiel.load_game("canasta_classic(options=target:3000;wilds_on_canasta:false)")
    by_dict = pyspiel.load_game(
        "canasta_classic", {"options": json.dumps({"target": 3000, "wilds_on_canasta": False})})
    for game in (by_string, by_dict):
        assert game.options == {"target": 3000, "wilds_on_canasta": False}
        rules = game.new_initial_state().engine().rules()
        assert rules["target"] == 3000 and rules["wilds_on_canasta"] is False
    with pytest.raises(ValueError, match="key:value"):
        pyspiel.load_game("canasta_classic(options=target)")


def test_a_game_with_options_and_its_state_serialize_and_read_back():
    import pickle

    game = pyspiel.load_game("canasta_classic(players=2,options=target:3000;wilds_on_canasta:false)")
    again = pickle.loads(pickle.dumps(game))
    assert again.options == game.options and str(again) == str(game)
    state = _play(game.new_initial_state(), random.Random(4), stop=12)
    text = pyspiel.serialize_game_and_state(game, state)
    _, back = pyspiel.deserialize_game_and_state(text)
    assert back.history() == state.history()
    assert back.legal_actions() == state.legal_actions()
    assert back.information_state_string(0) == state.information_state_string(0)
