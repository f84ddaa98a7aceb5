#!/usr/bin/env python3
"""Self-play data generation with Ray: N remote tasks, each playing games
and writing a NumPy shard and game records into an output folder.

Two modes:

- ``--mode bots`` (default): each task plays ``--games`` games with
  ``canasta.Game``, every seat played by an engine bot (``--bots``,
  e.g. ``heuristic`` or ``ismcts-easy``), stepping each whole action as
  its action ids. It writes ``shard-K.npz`` (one row per id step:
  observation of the seat to act, legal mask, action id, seat, game
  number, and the final return of that seat) and ``games-K.jsonl`` (the
  game records, one JSON Lines record after another; ``canasta check``
  and ``canasta.Game.from_record`` read each).
- ``--mode vecenv``: each task steps a ``canasta.VecEnv`` of ``--batch``
  games with uniformly random legal ids for ``--steps`` steps and writes
  ``shard-K.npz`` (observations, masks, actions, rewards, dones, to_play).

    python examples/python/ray_selfplay.py --out /tmp/selfplay
    python examples/python/ray_selfplay.py --mode vecenv --tasks 8 --steps 2000
    python examples/python/ray_selfplay.py --address auto --tasks 64 --out /shared/selfplay

On a cluster (``--address``) every node needs ``canasta`` installed and
``--out`` should be a shared path: the tasks write where they run.
"""

import argparse
import json
import os
import time

import numpy as np
import ray

import canasta


def play_bots(task, cfg):
    """Games of Game + engine bots; one shard and one record file."""
    names = cfg["bots"]
    obs, masks, actions, seats, game_no = [], [], [], [], []
    returns, records, steps_per_game = [], [], []
    for k in range(cfg["games"]):
        index = task * cfg["games"] + k
        game = canasta.Game(cfg["variant"], cfg["players"], seed=cfg["seed"], index=index,
                            episode=cfg["episode"], reward=cfg["reward"])
        bots = [canasta.bots.by_name(names[s % len(names)], seed=cfg["seed"] * 7919 + index * 31 + s)
                for s in range(game.players)]
        first = len(actions)
        while not game.is_terminal():
            seat = game.current_player
            # choose_ids ends with `end` where the action could go on.
            for a in bots[seat].choose_ids(game):
                obs.append(game.observation())
                masks.append(game.legal_action_mask())
                actions.append(a)
                seats.append(seat)
                game_no.append(index)
                game.step(a)
        r = game.returns()
        returns.append(r)
        steps_per_game.append(len(actions) - first)
        records.append(game.record())
    final = np.asarray(returns, dtype=np.float32)
    seats_a = np.asarray(seats, dtype=np.int8)
    game_a = np.asarray(game_no, dtype=np.int64)
    # The return of the seat that took each step (rewards are terminal).
    step_reward = final[game_a - task * cfg["games"], seats_a]
    shard = os.path.join(cfg["out"], f"shard-{task:04d}.npz")
    np.savez_compressed(
        shard,
        observations=np.stack(obs), masks=np.stack(masks),
        actions=np.asarray(actions, dtype=np.int16), seats=seats_a, game=game_a,
        rewards=step_reward, returns=final,
    )
    jsonl = os.path.join(cfg["out"], f"games-{task:04d}.jsonl")
    with open(jsonl, "w") as f:
        f.write("".join(records))
    return {"games": len(returns), "steps": len(actions), "returns": final.sum(0).tolist(),
            "files": [shard, jsonl]}


def play_vecenv(task, cfg):
    """Random legal ids on a VecEnv; one shard."""
    env = canasta.VecEnv(cfg["batch"], cfg["variant"], cfg["players"], seed=cfg["seed"] * 1000 + task,
                         episode=cfg["episode"], reward=cfg["reward"], threads=1)
    o, m = env.reset()
    obs, masks, actions, rewards, dones, to_play = [], [], [], [], [], []
    returns = np.zeros(env.players, dtype=np.float64)
    games = 0
    for _ in range(cfg["steps"]):
        obs.append(o.copy())  # the arrays are reused: copy what is kept
        masks.append(m.copy())
        to_play.append(env.to_play().copy())
        a = env.sample_legal().copy()
        actions.append(a)
        o, r, d = env.step(a)
        m = env.action_masks()
        rewards.append(r.copy())
        dones.append(d.copy())
        games += int(d.sum())
        returns += r.sum(0)
    shard = os.path.join(cfg["out"], f"shard-{task:04d}.npz")
    # Arrays are [steps, batch, ...]: game i of the batch is column i.
    np.savez_compressed(
        shard,
        observations=np.stack(obs), masks=np.stack(masks), actions=np.stack(actions).astype(np.int16),
        rewards=np.stack(rewards), dones=np.stack(dones), to_play=np.stack(to_play).astype(np.int8),
    )
    return {"games": games, "steps": cfg["steps"] * cfg["batch"], "returns": returns.tolist(),
            "files": [shard]}


@ray.remote
def selfplay_task(task, cfg):
    start = time.time()
    result = (play_bots if cfg["mode"] == "bots" else play_vecenv)(task, cfg)
    result["task"] = task
    result["seconds"] = time.time() - start
    result["node"] = ray.util.get_node_ip_address()
    return result


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--address", default=None, help="Ray cluster address (default: a local Ray)")
    p.add_argument("--num-cpus", type=int, default=None, help="CPUs of the local Ray")
    p.add_argument("--mode", choices=["bots", "vecenv"], default="bots")
    p.add_argument("--tasks", type=int, default=4, help="remote tasks (one shard each)")
    p.add_argument("--games", type=int, default=4, help="games per task (bots mode)")
    p.add_argument("--bots", nargs="+", default=["heuristic"],
                   help="bot names by seat, cycled (random, heuristic, ismcts-easy, ...)")
    p.add_argument("--batch", type=int, default=64, help="VecEnv games per task (vecenv mode)")
    p.add_argument("--steps", type=int, default=500, help="VecEnv steps per task (vecenv mode)")
    p.add_argument("--variant", default="classic")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--episode", choices=["game", "hand"], default="hand")
    p.add_argument("--reward", choices=["win", "points"], default="win")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="selfplay", help="output folder")
    args = p.parse_args(argv)

    os.makedirs(args.out, exist_ok=True)
    cfg = {k: getattr(args, k) for k in
           ("mode", "games", "bots", "batch", "steps", "variant", "players", "episode", "reward", "seed")}
    cfg["out"] = os.path.abspath(args.out)

    start = time.time()
    if args.address:
        ray.init(address=args.address)
    else:
        ray.init(num_cpus=args.num_cpus, include_dashboard=False, log_to_driver=True)
    ready = time.time()
    results = ray.get([selfplay_task.remote(t, cfg) for t in range(args.tasks)])
    elapsed = time.time() - ready
    ray.shutdown()

    games = sum(r["games"] for r in results)
    steps = sum(r["steps"] for r in results)
    returns = np.sum([r["returns"] for r in results], axis=0)
    files = [f for r in results for f in r["files"]]
    size = sum(os.path.getsize(f) for f in files)
    summary = {
        "mode": args.mode, "tasks": args.tasks, "nodes": len({r["node"] for r in results}),
        "games": games, "steps": steps, "seconds": round(elapsed, 2),
        "steps_per_second": round(steps / elapsed), "ray_start_seconds": round(ready - start, 2),
        "mean_return_by_seat": [round(float(x) / max(games, 1), 3) for x in returns],
        "files": len(files), "megabytes": round(size / 1e6, 2), "out": cfg["out"],
    }
    print(f"{args.tasks} tasks on {summary['nodes']} node(s): {games} games finished, "
          f"{steps:,} steps in {elapsed:.1f}s ({summary['steps_per_second']:,} steps/s; "
          f"Ray started in {ready - start:.1f}s)")
    print(f"mean return by seat: {summary['mean_return_by_seat']}")
    print(f"wrote {len(files)} files ({summary['megabytes']} MB) to {cfg['out']}")
    with open(os.path.join(cfg["out"], "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    return summary


if __name__ == "__main__":
    main()
