"""canasta.vector.VecEnv against gymnasium 1.x's VectorEnv contract: spaces,
reset and step signatures, seeding, next-step autoreset, truncation,
actions of any integer kind, refused actions and copies."""

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import canasta  # noqa: E402
from canasta.vector import VecEnv  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402

N = 6


def hands(n=N, **kwargs):
    """Two-player Classic, one hand an episode: a few hundred steps each."""
    kwargs.setdefault("seed", 1)
    return VecEnv(n, "classic", players=2, episode="hand", **kwargs)


def run_until_an_end(env, actions_of=None, limit=5000):
    """Steps with legal ids until some game ends; returns that step's
    results and the seats to play before it."""
    for _ in range(limit):
        actions = env.sample_legal() if actions_of is None else actions_of(env)
        out = env.step(actions)
        if (out[2] | out[3]).any():
            return out
    raise AssertionError(f"no game ended in {limit} steps")


def test_spaces_shapes_and_dtypes():
    env = hands()
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert env.num_envs == N
    size = canasta.Game("classic", players=2).observation().shape[0]
    single = env.single_observation_space
    assert single["observation"].shape == (size,)
    assert single["observation"].dtype == np.float32
    assert single["action_mask"].shape == (canasta.NUM_ACTIONS,)
    assert single["action_mask"].dtype == np.int8
    assert env.single_action_space == gymnasium.spaces.Discrete(canasta.NUM_ACTIONS)
    assert env.action_space == gymnasium.spaces.MultiDiscrete([canasta.NUM_ACTIONS] * N)
    assert env.observation_space["observation"].shape == (N, size)
    obs, info = env.reset(seed=2)
    assert set(obs) == {"observation", "action_mask"}
    assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
    assert env.observation_space.contains(obs)
    assert set(info) == {"to_play", "_to_play"} and info["to_play"].shape == (N,)
    for _ in range(300):
        obs, reward, terminated, truncated, info = env.step(env.sample_legal())
        assert env.observation_space.contains(obs)
        assert reward.shape == (N,) and reward.dtype == np.float32
        assert terminated.shape == truncated.shape == (N,)
        assert terminated.dtype == truncated.dtype == np.bool_
        assert info["rewards"].shape == (N, 2)
        for key in ("to_play", "acted", "rewards"):
            assert info["_" + key].all()


def test_observations_are_the_seat_to_plays_and_the_masks_its_legal_ids():
    env = hands()
    obs, info = env.reset(seed=4)
    for _ in range(50):
        obs, _, _, _, info = env.step(env.sample_legal())
    for i in range(N):
        game = env.game(i)
        assert game.current_player == info["to_play"][i]
        np.testing.assert_array_equal(obs["observation"][i], game.observation())
        np.testing.assert_array_equal(obs["action_mask"][i], game.legal_action_mask().astype(np.int8))
        # gymnasium's masked sampling draws a legal id from the mask as given.
        assert env.single_action_space.sample(mask=obs["action_mask"][i]) in game.legal_actions()


def test_reset_seed_deals_the_games_of_canasta_sim_and_reproduces_the_run():
    def trace(env, seed):
        obs, info = env.reset(seed=seed)
        steps = [(obs["observation"].copy(), info["to_play"].copy())]
        for _ in range(400):
            obs, reward, terminated, truncated, info = env.step(env.sample_legal())
            steps.append((obs["observation"].copy(), reward.copy(), terminated.copy()))
        return steps

    env = hands()
    first = trace(env, 7)
    for i in (0, N - 1):
        game = canasta.Game("classic", players=2, seed=7, index=i, episode="hand")
        np.testing.assert_array_equal(first[0][0][i], game.observation())
    for again in (trace(env, 7), trace(hands(seed=99), 7)):
        for a, b in zip(first, again):
            for x, y in zip(a, b):
                np.testing.assert_array_equal(x, y)
    other = trace(env, 8)
    assert not np.array_equal(other[0][0], first[0][0])


def test_reset_without_a_seed_draws_new_deals_reproducibly():
    a, b = hands(seed=3), hands(seed=3)
    firsts = [a.reset()[0]["observation"].copy(), a.reset()[0]["observation"].copy()]
    assert not np.array_equal(firsts[0], firsts[1]), "reset() dealt the same games again"
    np.testing.assert_array_equal(b.reset()[0]["observation"], firsts[0])
    np.testing.assert_array_equal(b.reset()[0]["observation"], firsts[1])
    # A seeded reset reseeds the generator too.
    a.reset(seed=5)
    b.reset(seed=5)
    np.testing.assert_array_equal(a.reset()[0]["observation"], b.reset()[0]["observation"])


def test_a_finished_game_shows_its_end_then_restarts_on_the_next_step():
    env = hands()
    env.reset(seed=11)
    before = None
    for _ in range(5000):
        before = env._to_play.copy()
        obs, reward, terminated, truncated, info = env.step(env.sample_legal())
        if terminated.any():
            break
    else:
        raise AssertionError("no hand ended")
    assert not truncated.any(), "a hand played out ends terminated, not truncated"
    ended = np.flatnonzero(terminated)
    for i in ended:
        seat = before[i]
        assert info["acted"][i] == seat and info["to_play"][i] == -1
        assert not obs["action_mask"][i].any()
        game = env.game(i)
        assert game.is_terminal()
        # The final observation is the game's last, seen by the seat that ended it.
        np.testing.assert_array_equal(obs["observation"][i], game.observation(int(seat)))
        assert reward[i] == info["rewards"][i][seat] == game.returns()[seat]
        np.testing.assert_allclose(info["rewards"][i], game.returns())
        assert reward[i] != 0, "the first hand to end from seed 11 has a winner, so the check says something"
    others = np.setdiff1d(np.arange(N), ended)
    assert not reward[others].any() and not info["rewards"][others].any()
    # The next step ignores the finished games' actions, even ids no game
    # could take, and deals their next games: game i + N of the stream.
    actions = env.sample_legal()
    actions[ended] = -5
    obs, reward, terminated, truncated, info = env.step(actions)
    for i in ended:
        assert reward[i] == 0 and not terminated[i] and not truncated[i]
        assert info["acted"][i] == -1 and not info["rewards"][i].any()
        nxt = canasta.Game("classic", players=2, seed=11, index=int(i) + N, episode="hand")
        assert info["to_play"][i] == nxt.current_player
        np.testing.assert_array_equal(obs["observation"][i], nxt.observation())
        np.testing.assert_array_equal(obs["action_mask"][i], nxt.legal_action_mask())


def test_a_game_stopped_by_max_hands_is_truncated_not_terminated():
    env = VecEnv(4, "classic", players=2, episode="game", max_hands=1, seed=2)
    env.reset(seed=2)
    obs, reward, terminated, truncated, info = run_until_an_end(env)
    assert truncated.any() and not terminated.any(), "one hand never reaches 5,000 points"
    for i in np.flatnonzero(truncated):
        assert env.game(i).is_terminal() and env.game(i).phase != "game_over"
        assert reward[i] == 0 and not info["rewards"][i].any(), "a stopped game is a tie"
    # The same hands as whole games of one hand each: played out, terminated.
    env = VecEnv(4, "classic", players=2, episode="hand", seed=2)
    env.reset(seed=2)
    _, _, terminated, truncated, _ = run_until_an_end(env)
    assert terminated.any() and not truncated.any()


@pytest.mark.parametrize(
    "convert",
    [
        lambda a: a.tolist(),
        lambda a: a.astype(np.int32),
        lambda a: a.astype(np.uint16),
        lambda a: tuple(int(x) for x in a),
        lambda a: a.astype(np.int64)[::-1][::-1],  # a view, not the array itself
    ],
    ids=["list", "int32", "uint16", "tuple", "int64-view"],
)
def test_actions_of_any_integer_kind(convert):
    reference, env = hands(), hands()
    reference.reset(seed=3)
    env.reset(seed=3)
    for _ in range(200):
        actions = reference.sample_legal()
        want = reference.step(actions)
        got = env.step(convert(actions))
        np.testing.assert_array_equal(got[0]["observation"], want[0]["observation"])
        np.testing.assert_array_equal(got[1], want[1])


def test_actions_that_are_not_integer_ids_are_refused_by_name():
    env = hands()
    env.reset(seed=1)
    actions = env.sample_legal()
    with pytest.raises(ValueError, match="integer action ids.*float64"):
        env.step(actions.astype(np.float64))
    with pytest.raises(ValueError, match=r"one action id per game: shape \(6,\), got \(5,\)"):
        env.step(actions[:5])
    with pytest.raises(ValueError, match="game 1: action id 70000"):
        env.step(np.where(np.arange(N) == 1, 70000, actions).astype(np.uint32))


def test_an_illegal_action_raises_and_changes_nothing():
    env, twin = hands(copy=False), hands()
    obs, _ = env.reset(seed=6)
    twin.reset(seed=6)
    for _ in range(30):
        a = env.sample_legal()
        np.testing.assert_array_equal(a, twin.sample_legal())
        obs, reward, terminated, truncated, info = env.step(a)
        twin.step(a)
    kept = {k: v.copy() for k, v in obs.items()}
    to_play, rewards = info["to_play"].copy(), info["rewards"].copy()
    actions = env.sample_legal()
    twin.sample_legal()  # the same draws from the sampling streams
    actions[3] = int(np.flatnonzero(obs["action_mask"][3] == 0)[0])
    with pytest.raises(ValueError, match="game 3"):
        env.step(actions)
    # Even the views of the environment's buffers are as they were.
    for k in kept:
        np.testing.assert_array_equal(obs[k], kept[k])
    np.testing.assert_array_equal(info["to_play"], to_play)
    np.testing.assert_array_equal(info["rewards"], rewards)
    # And play goes on exactly as in a twin that never saw the bad step.
    for _ in range(100):
        a = env.sample_legal()
        np.testing.assert_array_equal(a, twin.sample_legal())
        got, want = env.step(a), twin.step(a)
        np.testing.assert_array_equal(got[0]["observation"], want[0]["observation"])
        np.testing.assert_array_equal(got[4]["acted"], want[4]["acted"])


def test_copies_are_fresh_and_views_are_overwritten_by_the_next_step():
    env = hands()
    obs, info = env.reset(seed=9)
    first = obs["observation"].copy()
    obs2, _, _, truncated, info2 = env.step(env.sample_legal())
    np.testing.assert_array_equal(obs["observation"], first)
    assert not np.shares_memory(obs["observation"], obs2["observation"])
    assert not np.shares_memory(info["to_play"], info2["to_play"])

    env = hands(copy=False)
    obs, info = env.reset(seed=9)
    obs2, _, _, truncated, info2 = env.step(env.sample_legal())
    for k in ("observation", "action_mask"):
        assert np.shares_memory(obs[k], obs2[k])
    assert np.shares_memory(info["to_play"], info2["to_play"])
    assert not np.array_equal(obs2["observation"], first)


def test_reset_and_step_refuse_what_they_cannot_honour():
    env = hands()
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(np.zeros(N, dtype=np.int64))
    with pytest.raises(ValueError, match="one integer"):
        env.reset(seed=[1, 2, 3, 4, 5, 6])
    with pytest.raises(ValueError, match="not in 0..2"):
        env.reset(seed=-1)
    with pytest.raises(ValueError, match=r"reset options \['reset_mask'\]"):
        env.reset(options={"reset_mask": np.ones(N, dtype=bool)})
    env.reset(seed=2**64 - 1, options={})


def test_gymnasium_vector_wrappers_see_episodes_end():
    from gymnasium.wrappers.vector import RecordEpisodeStatistics

    env = RecordEpisodeStatistics(hands())
    env.reset(seed=1)
    lengths = []
    for _ in range(3000):
        _, _, _, _, info = env.step(env.unwrapped.sample_legal())
        if "episode" in info:
            lengths.extend(info["episode"]["l"][info["_episode"]].tolist())
    assert lengths and min(lengths) > 10, lengths


def test_the_batch_vec_env_keeps_same_step_autoreset_and_tells_truncations():
    env = canasta.VecEnv(3, "classic", players=2, episode="game", max_hands=1, seed=2)
    assert env.autoreset == "same-step"
    env.reset()
    for _ in range(3000):
        _, _, dones = env.step(env.sample_legal())
        if dones.any():
            break
    np.testing.assert_array_equal(env.truncations(), dones)
    assert (env.to_play() >= 0).all(), "same-step autoreset restarts at once"
    with pytest.raises(ValueError, match="autoreset \"later\""):
        canasta.VecEnv(2, autoreset="later")


def test_the_example_of_docs_python_md_runs():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[3] / "docs" / "python.md").read_text()
    blocks = [b.split("```")[0] for b in text.split("```python\n")[1:]]
    (example,) = [b for b in blocks if "canasta.vector.VecEnv(" in b]
    scope = {}
    exec(compile(example, "docs/python.md", "exec"), scope)
    assert scope["envs"].observation_space.contains(scope["obs"])


@pytest.mark.parametrize("observations,masks", [(False, True), (True, False), (False, False)])
def test_views_left_out_are_absent_and_the_games_the_same(observations, masks):
    full, lean = hands(), hands(observations=observations, masks=masks)
    keys = {k for k, on in (("observation", observations), ("action_mask", masks)) if on}
    assert set(lean.single_observation_space.spaces) == keys
    got_obs, _ = lean.reset(seed=4)
    want_obs, _ = full.reset(seed=4)
    for _ in range(400):
        assert set(got_obs) == keys and lean.observation_space.contains(got_obs)
        for k in keys:
            np.testing.assert_array_equal(got_obs[k], want_obs[k])
        actions = full.sample_legal()
        lean.sample_legal()
        want_obs, *want = full.step(actions)
        got_obs, *got = lean.step(actions)
        for x, y in zip(got[:3], want[:3]):
            np.testing.assert_array_equal(x, y)
        np.testing.assert_array_equal(got[3]["to_play"], want[3]["to_play"])


def test_all_observations_are_every_seats_own_and_fresh():
    env = VecEnv(3, "samba", players=4, seed=2, all_observations=True)
    obs, info = env.reset(seed=2)
    for _ in range(60):
        assert env.observation_space.contains(obs)
        assert obs["all_observations"].shape == (3, 4, obs["observation"].shape[1])
        kept = obs["all_observations"]
        obs, _, _, _, info = env.step(env.sample_legal())
        assert not np.shares_memory(kept, obs["all_observations"])
    for i in range(3):
        game = env.game(i)
        for seat in range(4):
            np.testing.assert_array_equal(obs["all_observations"][i, seat], game.observation(seat))
        np.testing.assert_array_equal(
            obs["all_observations"][i, info["to_play"][i]], obs["observation"][i]
        )
    assert "all_observations" not in hands().reset(seed=1)[0]
