#!/usr/bin/env python3
"""Throughput of the Python APIs against the Rust engine's own speed.

(a) ``canasta.VecEnv``: ``sample_legal()`` + ``step()`` on batches of games,
    on one thread and on the default pool (one thread per core).
(b) ``canasta.Game``: a Python loop of ``game.step(random legal id)``
    against ``canasta._canasta.rust_random_steps`` (the same random id
    steps, all in Rust on one thread): the per-step overhead of the
    single-game API in microseconds, and the ratio.
(c) the same with ``game.observation()`` every step (and the Rust loop
    writing the observation every step).

Prints a markdown table. Every figure is steps (action ids) per second of
four-player Classic (or ``--variant``/``--players``); games restart as they
end.

    python examples/python/bench.py
    python examples/python/bench.py --seconds 0.2 --batches 64   # a smoke run
"""

import argparse
import os
import random
import time

import canasta
from canasta._canasta import rust_random_steps


def timed(fn, seconds):
    """Runs `fn()` (which returns the steps it took) until `seconds` have
    passed; returns steps per second."""
    fn()  # warm up
    steps, start = 0, time.perf_counter()
    while True:
        steps += fn()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return steps / elapsed


def bench_vec(n, threads, args):
    env = canasta.VecEnv(n, args.variant, args.players, seed=1, threads=threads)
    env.reset()

    def chunk(k=20):
        for _ in range(k):
            env.step(env.sample_legal())
        return k * n

    return timed(chunk, args.seconds)


def game_loop(args, observe):
    rng = random.Random(1)
    state = {"game": None, "index": 0}

    def new_game():
        state["index"] += 1
        return canasta.Game(args.variant, args.players, seed=1, index=state["index"], record=False)

    game = new_game()

    def chunk(k=2000):
        nonlocal game
        for _ in range(k):
            if game.is_terminal():
                game = new_game()
            game.step(rng.choice(game.legal_actions()))
            if observe and not game.is_terminal():
                game.observation()
        return k

    return timed(chunk, args.seconds)


def rust_rate(args, observe):
    steps = 20_000
    while True:
        secs = rust_random_steps(args.variant, args.players, steps=steps, seed=1, observe=observe)
        if secs >= args.seconds or steps >= 50_000_000:
            return steps / secs
        steps = int(steps * max(2.0, 1.2 * args.seconds / max(secs, 1e-6)))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", default="classic")
    p.add_argument("--players", type=int, default=None,
                   help="default: the variant's own (four for Classic)")
    p.add_argument("--batches", type=int, nargs="+", default=[64, 256, 1024],
                   help="VecEnv batch sizes")
    p.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    args = p.parse_args(argv)
    if args.players is None:
        args.players = next(v["default_players"] for v in canasta.variants() if v["id"] == args.variant)

    cores = os.cpu_count()
    rows = []  # (api, setting, steps/s, us/step, note)

    for n in args.batches:
        for threads, label in ((1, "1 thread"), (None, f"threads=None ({cores} cores)")):
            rate = bench_vec(n, threads, args)
            rows.append(("VecEnv sample_legal+step", f"n={n}, {label}", rate, ""))

    rust = rust_rate(args, observe=False)
    py = game_loop(args, observe=False)
    rust_obs = rust_rate(args, observe=True)
    py_obs = game_loop(args, observe=True)
    rows.append(("rust_random_steps (engine)", "1 thread", rust, ""))
    rows.append(("Game.step(random legal id)", "Python loop", py,
                 f"overhead {1e6 / py - 1e6 / rust:.2f} us/step, {rust / py:.1f}x slower"))
    rows.append(("rust_random_steps(observe=True)", "1 thread", rust_obs, ""))
    rows.append(("Game.step + Game.observation()", "Python loop", py_obs,
                 f"overhead {1e6 / py_obs - 1e6 / rust_obs:.2f} us/step, {rust_obs / py_obs:.1f}x slower"))

    print(f"{args.variant}, {args.players} players, {cores} cores, {args.seconds:g} s a measurement\n")
    print("| API | setting | steps/s | us/step | note |")
    print("|---|---|---:|---:|---|")
    for api, setting, rate, note in rows:
        print(f"| {api} | {setting} | {rate:,.0f} | {1e6 / rate:.2f} | {note} |")
    return rows


if __name__ == "__main__":
    main()
