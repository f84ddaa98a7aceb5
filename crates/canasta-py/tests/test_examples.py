"""The Python examples in examples/python run and do what they say.

- learn.py: its hand-written gradient agrees with finite differences; a
  short training run beats the random bot, by a margin a binomial bound
  justifies, and beats its own untrained start.
- ray_selfplay.py: a tiny local run writes readable shards and records.
- bench.py: a smoke run prints the table.

The matplotlib and Ray tests skip when the module is missing, unless
CANASTA_REQUIRE_PLOT / CANASTA_REQUIRE_RAY is set (to anything but "" or
"0"): then a missing module fails them.
"""

import importlib
import importlib.util
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import canasta

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "python"


def require(module, env):
    """Imports `module`, or skips (fails when `env` is set) if it is missing."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        if os.environ.get(env, "") not in ("", "0"):
            pytest.fail(f"{module} is missing but {env} is set: {e}")
        pytest.skip(f"{module} is not installed (set {env}=1 to make this a failure)")


def run_example(script, *args, timeout=600):
    proc = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *map(str, args)],
        capture_output=True, text=True, timeout=timeout,
    )
    assert proc.returncode == 0, f"{script} failed:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def load_learn():
    spec = importlib.util.spec_from_file_location("canasta_example_learn", EXAMPLES / "learn.py")
    learn = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(learn)
    return learn


def test_learn_gradient_agrees_with_finite_differences():
    """The policy's backward pass, on a random loss over its two heads,
    against central differences in float64 on a few entries of every
    parameter."""
    learn = load_learn()
    rng = np.random.default_rng(3)
    net = learn.Policy(12, 8, rng)
    # A nonzero policy head, so that its gradient reaches the body.
    net.params["wp"] = rng.normal(0, 0.3, net.params["wp"].shape)
    net.params = {k: v.astype(np.float64) for k, v in net.params.items()}
    obs = rng.normal(0, 3, (5, 12))
    mask = rng.random((5, canasta.NUM_ACTIONS)) < 0.3
    mask[:, 0] = True
    cl = rng.normal(size=(5, canasta.NUM_ACTIONS))
    cv = rng.normal(size=5)

    def loss():
        logits, values, _ = net.forward(obs, mask)
        return float((np.where(mask, logits, 0.0) * cl).sum() + (values * cv).sum())

    _, _, cache = net.forward(obs, mask)
    grads = net.backward(cache, mask, cl, cv)
    for name, param in net.params.items():
        flat = param.reshape(-1)
        for i in rng.choice(flat.size, size=min(6, flat.size), replace=False):
            keep = flat[i]
            flat[i] = keep + 1e-6
            up = loss()
            flat[i] = keep - 1e-6
            down = loss()
            flat[i] = keep
            numeric = (up - down) / 2e-6
            analytic = grads[name].reshape(-1)[i]
            assert abs(numeric - analytic) <= 1e-5 * max(1.0, abs(numeric)), (name, i, numeric, analytic)


def test_learn_beats_random_bot(tmp_path):
    require("matplotlib", "CANASTA_REQUIRE_PLOT")
    out, png = tmp_path / "learn.json", tmp_path / "curve.png"
    hands = 200
    stdout = run_example(
        "learn.py", "--updates", 10, "--hands", 64, "--eval-every", 5,
        "--eval-hands", hands, "--seed", 0,
        "--out", out, "--plot", png,
    )
    assert "win rate vs random" in stdout
    result = json.loads(out.read_text())
    final, untrained = result["final_win_rate"], result["untrained_win_rate"]
    # If the policy were no better than even, its win rate over 200
    # independent hands would exceed 0.5 + 2.576 * sqrt(0.25 / 200) = 0.591
    # with probability below 0.5% (one-sided normal bound on a binomial).
    threshold = 0.5 + 2.576 * math.sqrt(0.25 / hands)
    assert final > threshold, f"win rate {final:.3f} after training, needs > {threshold:.3f}\n{stdout}"
    assert final > untrained + 0.2, f"untrained {untrained:.3f}, trained {final:.3f}\n{stdout}"
    assert len(result["curve"]) == 3  # updates 0, 5 and 10
    assert png.stat().st_size > 1000


def test_learn_bot_move_closes_prefix_actions():
    """A bot's ids spell one whole action, `end` included where the action
    is the start of a longer legal one (meld 3S 3S 3C where 3C 3C could go)."""
    learn = load_learn()
    for seed in range(40):
        game = canasta.Game("classic", players=2, seed=seed, episode="hand")
        bot = canasta.bots.random(seed)
        decisions = 0
        while not game.is_terminal():
            before = game.decisions
            learn.bot_move(bot, game)
            assert game.decisions == before + 1
            assert game.spelled() == []
            decisions += 1
        assert decisions > 0


def test_ray_selfplay_writes_shards(tmp_path):
    require("ray", "CANASTA_REQUIRE_RAY")
    out = tmp_path / "bots"
    stdout = run_example("ray_selfplay.py", "--tasks", 2, "--games", 2, "--num-cpus", 2,
                         "--out", out, timeout=300)
    assert "2 tasks" in stdout
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == 4 and summary["files"] == 4
    for k in range(2):
        with np.load(out / f"shard-{k:04d}.npz") as d:
            n = len(d["actions"])
            assert n > 0
            assert d["observations"].shape[0] == n and d["masks"].shape == (n, canasta.NUM_ACTIONS)
            assert d["masks"][np.arange(n), d["actions"]].all()  # every action was legal
            assert d["rewards"].shape == (n,) and d["returns"].shape == (2, 2)
        text = (out / f"games-{k:04d}.jsonl").read_text()
        lines = text.splitlines(keepends=True)
        starts = [i for i, line in enumerate(lines) if line.startswith('{"canasta_record"')]
        assert len(starts) == 2
        first = "".join(lines[starts[0]:starts[1]])
        game = canasta.Game.from_record(first, episode="hand")
        assert game.is_terminal()

    out = tmp_path / "vecenv"
    run_example("ray_selfplay.py", "--mode", "vecenv", "--tasks", 2, "--batch", 8, "--steps", 50,
                "--num-cpus", 2, "--out", out, timeout=300)
    with np.load(out / "shard-0001.npz") as d:
        assert d["observations"].shape[:2] == (50, 8)
        assert d["masks"].shape == (50, 8, canasta.NUM_ACTIONS)
        steps, games = np.meshgrid(np.arange(50), np.arange(8), indexing="ij")
        assert d["masks"][steps, games, d["actions"]].all()
        assert d["rewards"].shape == (50, 8, 2)


def test_bench_smoke(capsys):
    spec = importlib.util.spec_from_file_location("canasta_example_bench", EXAMPLES / "bench.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    rows = bench.main(["--seconds", "0.05", "--batches", "8"])
    assert len(rows) == 6
    assert all(rate > 0 for _, _, rate, _ in rows)
    out = capsys.readouterr().out
    assert "| API | setting | steps/s |" in out
    assert "rust_random_steps" in out and "us/step" in out
