"""canasta.vs_bots: one learner against the engine's bots as a gymnasium
environment; gymnasium's own checker, and reset(seed=) reproducing every
part of an episode."""

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import canasta  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402


@pytest.mark.parametrize(
    "form,seat,bots",
    [
        (("classic", 2), None, "heuristic"),
        (("classic", 2), 1, "random"),
        (("samba", 4), None, ["heuristic", "random", "ismcts-easy", "random"]),
    ],
)
def test_gymnasium_check_env_passes(form, seat, bots):
    variant, players = form
    # check_env steps ids the mask refuses: illegal_reward ends the episode.
    env = canasta.vs_bots(variant, players=players, seat=seat, bots=bots, illegal_reward=-1)
    with pytest.warns(UserWarning, match="infinity"):  # the tensor declares no bounds
        check_env(env.unwrapped)


def play(env, seed, episodes=3):
    """Episodes from reset(seed=seed) then reset(), a seeded masked-random
    learner: every seat, observation, reward and game record."""
    rng = np.random.default_rng(0)
    out = []
    obs, info = env.reset(seed=seed)
    for episode in range(episodes):
        if episode:
            obs, info = env.reset()
        trace = [info["seat"], obs["observation"].copy()]
        while True:
            legal = np.flatnonzero(obs["action_mask"])
            obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
            trace.append((obs["observation"].copy(), reward, terminated, truncated))
            if terminated or truncated:
                break
        trace.append(env.game.record())
        out.append(trace)
    return out


def same(a, b):
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray):
        return np.array_equal(a, b)
    return a == b


def test_reset_with_a_seed_reproduces_the_seat_the_deal_and_the_bots():
    env = canasta.vs_bots("classic", players=2, seat=None, bots="ismcts-easy")
    first = play(env, 5)
    assert same(first, play(env, 5)), "the same seed gave another episode"
    fresh = canasta.vs_bots("classic", players=2, seat=None, bots="ismcts-easy")
    assert same(first, play(fresh, 5))
    assert not same(first, play(env, 6))


def test_a_random_seat_takes_every_seat_over_episodes():
    env = canasta.vs_bots("classic", players=4, seat=None, bots="random")
    env.reset(seed=3)
    seats = {env.reset()[1]["seat"] for _ in range(40)}
    assert seats == {0, 1, 2, 3}
    obs, info = env.reset(seed=3)
    assert info["to_play"] == info["seat"] == env.game.current_player
    np.testing.assert_array_equal(obs["observation"], env.game.observation(info["seat"]))


def test_an_illegal_id_raises_and_changes_nothing_without_illegal_reward():
    env = canasta.vs_bots("classic", players=2, seat=0, bots="random")
    obs, _ = env.reset(seed=1)
    record = env.game.record()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(bad)
    assert env.game.record() == record
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_a_game_stopped_by_max_hands_is_truncated():
    env = canasta.vs_bots("classic", players=2, seat=0, bots="random", episode="game", max_hands=1)
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(5000):
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, truncated, _ = env.step(int(rng.choice(legal)))
        if terminated or truncated:
            break
    assert truncated and not terminated and reward == 0


def test_the_example_of_docs_python_md_runs(capsys):
    from pathlib import Path

    text = (Path(__file__).resolve().parents[3] / "docs" / "python.md").read_text()
    blocks = [b.split("```")[0] for b in text.split("```python\n")[1:]]
    (example,) = [b for b in blocks if "canasta.vs_bots(" in b]
    scope = {}
    exec(compile(example, "docs/python.md", "exec"), scope)
    assert scope["terminated"] or scope["truncated"]
    assert capsys.readouterr().out.strip()
