"""The PettingZoo AEC environment (canasta.pettingzoo)."""

import random

import numpy as np
import pytest

import canasta
from canasta.pettingzoo import CanastaEnv

pettingzoo_test = pytest.importorskip("pettingzoo.test")

# Every preset form: (variant, players).
FORMS = [(v["id"], int(p)) for v in canasta.variants() for p in v["players"]]

# Observations are unbounded counts and scores (Box(-inf, inf)); api_test
# warns about that, and about the dict observations that carry the action
# masks (as for PettingZoo's own card games).
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
    pytest.mark.filterwarnings("ignore:Agent's minimum observation space value is -infinity"),
    pytest.mark.filterwarnings("ignore:Agent's maximum observation space value is infinity"),
]


def test_forms_cover_every_preset():
    assert {v for v, _ in FORMS} == {v["id"] for v in canasta.variants()}
    assert len(FORMS) >= len(canasta.variants())


@pytest.mark.parametrize("variant,players", FORMS)
def test_api(variant, players):
    env = canasta.env(variant, players=players)
    pettingzoo_test.api_test(env, num_cycles=150, verbose_progress=False)


def test_api_whole_game_cut_short():
    env = canasta.env("classic", episode="game", max_hands=2, reward="points")
    pettingzoo_test.api_test(env, num_cycles=300, verbose_progress=False)


def test_seeding():
    pettingzoo_test.seed_test(lambda: canasta.env("samba", players=3), num_cycles=50)
    env = canasta.env("classic")
    env.reset(seed=7)
    assert env.unwrapped.game.describe() == canasta.Game("classic", seed=7, episode="hand").describe()
    # env(seed=s) seeds the first reset without a seed.
    a, b = canasta.env("classic", seed=11), canasta.env("classic")
    a.reset()
    b.reset(seed=11)
    assert a.unwrapped.game.describe() == b.unwrapped.game.describe()


def play_randomly(env, rng, max_steps=100_000):
    """Plays one episode with masked random actions; returns the total
    reward of every agent and the number of steps."""
    totals = {a: 0.0 for a in env.possible_agents}
    steps = 0
    for agent in env.agent_iter(max_steps):
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (canasta.NUM_ACTIONS,)
        legal = np.flatnonzero(mask)
        assert len(legal) > 0, f"{agent} is to act with nothing legal"
        # Only the agent to act has legal actions.
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        # No reward before the end.
        assert reward == 0.0
        env.step(int(rng.choice(legal)))
        steps += 1
    assert not env.agents, "the episode did not end"
    return totals, steps


@pytest.mark.parametrize("variant,players", FORMS)
def test_random_play_hand(variant, players):
    env = canasta.env(variant, players=players)
    rng = random.Random(f"{variant}{players}")
    for seed in (1, 2):
        env.reset(seed=seed)
        n = env.unwrapped.game.players
        assert env.possible_agents == [f"player_{i}" for i in range(n)]
        assert env.observation_space("player_0")["observation"].shape == (
            env.unwrapped.game.observation_size,
        )
        totals, steps = play_randomly(env, rng)
        assert steps > 0
        assert abs(sum(totals.values())) < 1e-9, totals  # zero-sum


def test_random_play_whole_game():
    env = canasta.env("classic", players=4, episode="game", reward="win", max_hands=200)
    env.reset(seed=3)
    totals, _ = play_randomly(env, random.Random(3))
    # A side won: +1 for both partners, -1 for the others.
    assert sorted(totals.values()) == [-1.0, -1.0, 1.0, 1.0]
    assert totals["player_0"] == totals["player_2"]


def test_truncated_when_cut_off():
    env = canasta.env("classic", episode="game", max_hands=1)
    env.reset(seed=5)
    rng = random.Random(5)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert truncated and not terminated
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_same_agent_may_act_several_times_in_a_row():
    env = canasta.env("classic")
    env.reset(seed=1)
    rng = random.Random(1)
    previous, repeats = None, 0
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        repeats += agent == previous
        previous = agent
        assert env.unwrapped.game.current_player == int(agent.split("_")[1])
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert repeats > 0


def test_observation_ignores_hidden_cards():
    """An agent's observation is the same whatever the cards it cannot see."""
    env = canasta.env("classic", players=4)
    rng = random.Random(9)
    checked = 0
    for seed in range(3):
        env.reset(seed=seed)
        for step in range(60):
            agent = env.agent_selection
            obs = env.observe(agent)
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            if env.unwrapped.game.is_terminal():
                break
        raw = env.unwrapped
        game = raw.game
        for seat, agent in enumerate(raw.possible_agents):
            before = {a: raw.observe(a) for a in raw.possible_agents}
            raw.game = game.resample(seat, seed=100 + seat)
            try:
                others = [s for s in range(game.players) if s != seat]
                assert any(sorted(game.hand(s)) != sorted(raw.game.hand(s)) for s in others)
                after = raw.observe(agent)
                assert np.array_equal(before[agent]["observation"], after["observation"])
                assert np.array_equal(before[agent]["action_mask"], after["action_mask"])
                # The test has teeth: someone whose hand changed sees it.
                assert any(
                    not np.array_equal(
                        before[a]["observation"], raw.observe(a)["observation"]
                    )
                    for a in raw.possible_agents
                    if a != agent
                )
                checked += 1
            finally:
                raw.game = game
    assert checked == 12


def test_illegal_action():
    env = canasta.env("classic")
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = env.unwrapped.game.describe()
    with pytest.raises(ValueError):
        env.step(illegal)
    assert env.unwrapped.game.describe() == before
    # With illegal_reward, an illegal id ends the episode instead.
    env = canasta.env("classic", illegal_reward=-1)
    env.reset(seed=1)
    agent = env.agent_selection
    env.step(illegal)  # PettingZoo logs "Illegal move made"
    assert all(env.terminations.values()) or all(env.truncations.values())
    assert env.rewards[agent] == -1


def test_render_and_arguments():
    env = canasta.env("samba", players=2, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str) and text
    with pytest.raises(ValueError):
        canasta.env("classic", render_mode="rgb_array")
    with pytest.raises(ValueError):
        canasta.env("no such variant")
    with pytest.raises(ValueError):
        canasta.env("pennies", players=2)
    raw = CanastaEnv("canastia", players=3)
    assert raw.possible_agents == ["player_0", "player_1", "player_2"]
    assert raw.action_space("player_1").n == canasta.NUM_ACTIONS
