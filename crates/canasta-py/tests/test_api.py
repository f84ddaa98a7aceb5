"""The package's own API: Game, VecEnv, bots, the action encoding, records.

Every preset form is played; records made in Python are checked by the same
engine `canasta check` uses (and by the binary itself when it is built).
"""

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import canasta

FORMS = [(v["id"], p) for v in canasta.variants() for p in v["players"]]


def play_random(game, rng, limit=200_000):
    steps = 0
    while not game.is_terminal():
        game.step(rng.choice(game.legal_actions()))
        steps += 1
        assert steps < limit
    return steps


def test_variants_are_listed_with_player_counts_as_numbers():
    ids = [v["id"] for v in canasta.variants()]
    assert ids[0] == "classic" and "samba" in ids and "pennies" in ids
    for v in canasta.variants():
        assert all(isinstance(p, int) for p in v["players"])
        assert v["default_players"] in v["players"]
    assert canasta.options("classic", 4)["target"] == 5000


@pytest.mark.parametrize("variant,players", FORMS)
def test_every_form_plays_a_hand_and_its_record_loads_back(variant, players):
    rng = random.Random(7)
    game = canasta.Game(variant, players=players, seed=3, episode="hand")
    assert game.players == players and game.variant == variant
    assert game.current_player in range(players)
    assert len(game.observation()) == game.observation_size
    play_random(game, rng)
    returns = game.returns()
    assert abs(sum(returns)) < 1e-9
    # A lone winner gains; a tie (frequent in the two-card hands of Micro
    # and Mini) gives every side nothing.
    if len(set(game.scores)) == 1:
        assert returns == [0.0] * players
    else:
        assert max(returns) > 0
    loaded = canasta.Game.from_record(game.record(), episode="hand")
    assert loaded.is_terminal()
    assert loaded.returns() == returns
    assert loaded.scores == game.scores


def test_the_same_seed_deals_the_same_cards_and_options_change_the_rules():
    a = canasta.Game("classic", players=4, seed=11)
    b = canasta.Game("classic", players=4, seed=11)
    assert a.record() == b.record()
    c = canasta.Game("classic", players=4, seed=12)
    assert a.record() != c.record()
    short = canasta.Game("classic", players=4, options={"target": 1500})
    assert short.rules()["target"] == 1500
    assert json.loads(short.record().splitlines()[0])["options"] == {"target": 1500}
    with pytest.raises(ValueError, match="target"):
        canasta.Game("classic", options={"target": "abc"})
    with pytest.raises(ValueError, match="variant"):
        canasta.Game("bridge")
    with pytest.raises(ValueError, match="episode"):
        canasta.Game("classic", episode="round")


def test_steps_spell_whole_actions_and_names_round_trip():
    game = canasta.Game("classic", players=2, seed=5)
    assert game.legal_actions() == sorted(set(game.legal_actions()))
    texts = game.legal_action_texts()
    # Every whole action is reachable by its spelling.
    for text in texts:
        ids = canasta.spell(text)
        probe = game.clone()
        done = None
        for i in ids:
            assert i in probe.legal_actions(), (text, canasta.action_name(i))
            done = probe.step(i)
        if done is None:
            done = probe.step(canasta.END)
        assert done == text
    for i in range(canasta.NUM_ACTIONS):
        assert canasta.action_id(canasta.action_name(i)) == i
    assert canasta.action_name(canasta.DRAW) == "draw"
    assert canasta.action_name(canasta.ADD + 3 * 53 + 20) == "add 3 7S"


def test_an_illegal_step_or_action_raises_and_changes_nothing():
    game = canasta.Game("samba", players=2, seed=2)
    before = (game.legal_actions(), game.record(), game.observation().tolist())
    illegal = next(i for i in range(canasta.NUM_ACTIONS) if i not in before[0])
    with pytest.raises(ValueError, match="not legal here"):
        game.step(illegal)
    with pytest.raises(ValueError, match="not an action id"):
        game.step(canasta.NUM_ACTIONS + 1)
    with pytest.raises(ValueError, match="cannot read action"):
        game.apply("meld XX")
    with pytest.raises(ValueError):
        game.apply("discard 7S")  # the turn starts with a draw
    assert (game.legal_actions(), game.record(), game.observation().tolist()) == before


def test_whole_actions_are_judged_like_records():
    game = canasta.Game("classic", players=2, seed=9)
    game.apply("draw")
    assert game.phase == "play"
    seat = game.current_player
    card = game.hand(seat)[0]
    game.apply(f"discard {card}")
    assert game.current_player == 1 - seat
    lines = game.record().splitlines()
    assert json.loads(lines[-1]) == {"seat": seat, "action": f"discard {card}"}


def test_a_broken_record_is_refused_with_its_line():
    game = canasta.Game("classic", players=2, seed=1)
    game.apply("draw")
    text = game.record().replace('"draw"', '"drew"')
    with pytest.raises(ValueError, match="line 3"):
        canasta.Game.from_record(text)
    with pytest.raises(ValueError, match="line 1"):
        canasta.Game.from_record("not json\n")


def test_the_observation_hides_other_hands():
    game = canasta.Game("classic", players=4, seed=4)
    rng = random.Random(1)
    for _ in range(60):
        game.step(rng.choice(game.legal_actions()))
    seat = game.current_player
    other = game.resample(seat, seed=99)
    assert other.hand(seat) == game.hand(seat)
    assert any(other.hand(s) != game.hand(s) for s in range(4) if s != seat)
    np.testing.assert_array_equal(other.observation(seat), game.observation(seat))
    assert other.legal_actions() == game.legal_actions()
    assert other.record() == ""  # the record would tell the real deal
    fields = game.observation_fields()
    assert fields[0][0] == "phase"
    assert sum(f[2] for f in fields) == game.observation_size


def test_explicit_chance_deals_card_by_card():
    game = canasta.Game("canastia", players=2, seed=0, explicit_chance=True)
    assert game.current_player == -1 and game.chance_kind == "dealer"
    rng = random.Random(3)
    kinds = set()
    while game.is_chance_node():
        kinds.add(game.chance_kind)
        outcomes = game.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        game.apply_chance(rng.choice(outcomes)[0])
    # Canastia draws the first player at random.
    assert kinds == {"dealer", "card", "first"}
    assert game.current_player >= 0
    with pytest.raises(ValueError, match="chance"):
        game.apply_chance(0)


@pytest.mark.parametrize("variant,players", FORMS)
def test_a_pickled_or_copied_game_is_the_same_game_and_plays_on_the_same(variant, players):
    import copy
    import pickle

    game = canasta.Game(variant, players=players, seed=3, episode="game", max_hands=2)
    rng = random.Random(players)
    for _ in range(rng.randrange(50, 400)):
        if game.is_terminal():
            break
        game.step(rng.choice(game.legal_actions()))
    saved = pickle.dumps(game)
    for other in (pickle.loads(saved), copy.deepcopy(game), canasta.Game.from_serial(game.serial())):
        assert other.record() == game.record()
        assert other.legal_actions() == game.legal_actions()
        assert other.spelled() == game.spelled()
        assert other.current_player == game.current_player
        if not game.is_terminal():
            assert (other.observation() == game.observation()).all()
    # The copy deals later hands as the original does.
    twin = pickle.loads(saved)
    moves = random.Random(9)
    while not game.is_terminal():
        a = moves.choice(game.legal_actions())
        game.step(a)
        twin.step(a)
    assert twin.record() == game.record() and twin.returns() == game.returns()


def test_a_game_without_a_record_is_not_pickled_and_says_why():
    import pickle

    with pytest.raises(ValueError, match="keeps no record"):
        pickle.dumps(canasta.Game("classic", record=False))
    with pytest.raises(ValueError, match="not a saved game"):
        canasta.Game.from_serial('{"canasta_episode": 2}')


def test_vec_env_steps_many_games_and_restarts_them():
    env = canasta.VecEnv(16, "classic", players=2, seed=1, episode="hand")
    obs, masks = env.reset()
    assert obs.shape == (16, env.observation_size) and obs.dtype == np.float32
    assert masks.shape == (16, canasta.NUM_ACTIONS) and masks.dtype == np.bool_
    ended = 0
    for _ in range(3000):
        actions = env.sample_legal()
        assert masks[np.arange(16), actions].all()
        obs, rewards, dones = env.step(actions)
        masks = env.action_masks()
        if dones.any():
            ended += int(dones.sum())
            np.testing.assert_allclose(rewards[dones].sum(axis=1), 0, atol=1e-6)
        assert not rewards[~dones].any()
    assert ended > 0
    # The arrays are the env's own buffers (no copy per step).
    assert np.shares_memory(obs, env.observations())
    seats = env.to_play()
    for i in range(3):
        game = env.game(i)
        assert game.current_player == seats[i]
        np.testing.assert_array_equal(game.observation(), obs[i])
        np.testing.assert_array_equal(game.legal_action_mask(), masks[i])


def test_vec_env_refuses_a_bad_action_and_moves_no_game():
    env = canasta.VecEnv(4, "samba", players=2, seed=3)
    env.reset()
    before = env.observations().copy()
    actions = env.sample_legal().copy()
    masks = env.action_masks()
    actions[2] = int(np.flatnonzero(~masks[2])[0])
    with pytest.raises(ValueError, match="game 2"):
        env.step(actions)
    np.testing.assert_array_equal(env.observations(), before)
    with pytest.raises(ValueError, match="one action per game"):
        env.step(actions[:3])


def test_vec_env_is_the_same_whatever_the_threads():
    runs = []
    for threads in (1, 2):
        env = canasta.VecEnv(40, "canastone", seed=8, episode="hand", threads=threads)
        env.reset()
        trace = []
        for _ in range(300):
            a = env.sample_legal().copy()
            _, rewards, dones = env.step(a)
            trace.append((a.tolist(), dones.tolist(), rewards.tolist()))
        runs.append(trace)
    assert runs[0] == runs[1]


def test_bots_choose_legal_actions_without_peeking():
    game = canasta.Game("classic", players=4, seed=6)
    bots = [
        canasta.bots.random(1),
        canasta.bots.heuristic(),
        canasta.bots.ismcts("easy", seed=2, iterations=50),
        canasta.bots.ismcts("easy", seed=3, iterations=30, threads=2),
    ]
    for _ in range(40):
        bot = bots[game.current_player]
        text = bot.choose(game)
        assert text in game.legal_action_texts()
        # choose_ids spells a (new) choice in ids that reach a whole action.
        probe = game.clone()
        done = None
        for i in bot.choose_ids(game):
            assert done is None
            done = probe.step(i)
        assert (done or probe.step(canasta.END)) in game.legal_action_texts()
        bot.play(game)
    with pytest.raises(ValueError, match="unknown bot"):
        canasta.Bot("grandmaster")
    with pytest.raises(ValueError, match="level"):
        canasta.bots.ismcts("godlike")


def test_canasta_check_agrees_with_python_records(tmp_path, canasta_cli):
    binary = canasta_cli
    rng = random.Random(2)
    for variant, players in [("classic", 4), ("samba", 3), ("pennies", 6)]:
        game = canasta.Game(variant, players=players, seed=21, episode="hand")
        play_random(game, rng)
        path = tmp_path / f"{variant}.jsonl"
        path.write_text(game.record())
        out = subprocess.run(
            [str(binary), "check", str(path)], capture_output=True, text=True, check=False
        )
        assert out.returncode == 0, out.stdout + out.stderr
        totals = game.scores
        assert str(totals[0]) in out.stdout


def test_the_readme_example_runs_and_plays_the_same_game_every_time(tmp_path):
    """The README's Python example, run twice: the same returns and the same
    record (it is seeded), a record the checker accepts."""
    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text()
    blocks = [b.split("```", 1)[0] for b in readme.split("```python\n")[1:]]
    example = next(b for b in blocks if "canasta.Game(" in b)
    outputs = []
    for run in range(2):
        where = tmp_path / f"run{run}"
        where.mkdir()
        proc = subprocess.run([sys.executable, "-c", example], cwd=where,
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr
        outputs.append((proc.stdout, (where / "samba.jsonl").read_text()))
    assert outputs[0] == outputs[1]
    game = canasta.Game.from_record(outputs[0][1])
    assert game.is_terminal()
