#!/usr/bin/env python3
"""A small policy-gradient agent (A2C with GAE, masked logits) that learns to
beat the engine's random bot at two-player Classic Canasta, one hand at a
time.

The agent plays one seat (alternating between seat 0 and seat 1) of
``canasta.Game("classic", players=2, episode="hand")``; the random bot
(``canasta.bots.random``) plays the other. Many games run side by side so
that the network sees a batch of observations per forward pass. The agent
steps the flat action space one id at a time (``game.legal_action_mask()``
masks its logits); the bot's whole actions are stepped as their ids
(``bot.choose_ids(game)``).

Every ``--eval-every`` updates the greedy policy plays ``--eval-hands``
hands against the random bot on fixed seeds (the same hands every time);
the win rate is printed and, with ``--plot curve.png``, drawn.

    python examples/python/learn.py --plot curve.png    # about 80 s on 2 cores
    python examples/python/learn.py --updates 10 --eval-hands 200   # about 15 s
"""

import argparse
import json
import math
import random
import time

import numpy as np
import torch
import torch.nn as nn

import canasta

VARIANT = "classic"
PLAYERS = 2
EVAL_SEED = 1_000_000  # eval hands use seeds EVAL_SEED + i, never trained on


def bot_move(bot, game):
    """Step one whole action of `bot` as action ids (choose_ids ends with
    `end` where the action could also go on, so the last id completes it)."""
    done = None
    for a in bot.choose_ids(game):
        done = game.step(a)
    assert done is not None, "a bot's ids spell a whole action"


class Policy(nn.Module):
    def __init__(self, obs_size, hidden=256):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(obs_size, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
        )
        self.pi = nn.Linear(hidden, canasta.NUM_ACTIONS)
        self.v = nn.Linear(hidden, 1)
        nn.init.zeros_(self.pi.weight)  # start uniform over the legal ids
        nn.init.zeros_(self.pi.bias)

    def forward(self, obs, mask):
        # Counts are raw and scores in thousands: squash the large ones.
        x = torch.asinh(obs)
        h = self.body(x)
        logits = self.pi(h).masked_fill(~mask, -1e9)
        return logits, self.v(h).squeeze(-1)


def play_hands(net, seeds, seats, *, greedy, reward, bot_seed=0, keep=False):
    """Plays one hand per seed, all side by side: the policy in `seats[i]`,
    the random bot in the other seat. Returns the agent's returns and, with
    `keep`, each hand's trajectory (observations, masks, actions)."""
    n = len(seeds)
    games = [
        canasta.Game(VARIANT, players=PLAYERS, seed=s, episode="hand", reward=reward)
        for s in seeds
    ]
    bots = [canasta.bots.random(bot_seed * 1_000_003 + s) for s in seeds]
    trajs = [([], [], []) for _ in range(n)]
    returns = np.zeros(n, dtype=np.float32)
    active = list(range(n))
    while active:
        waiting = []
        for i in active:
            g = games[i]
            while not g.is_terminal() and g.current_player != seats[i]:
                bot_move(bots[i], g)
            if g.is_terminal():
                returns[i] = g.returns()[seats[i]]
            else:
                waiting.append(i)
        active = waiting
        if not active:
            break
        obs = np.stack([games[i].observation() for i in active])
        masks = np.stack([games[i].legal_action_mask() for i in active])
        with torch.no_grad():
            logits, _ = net(torch.from_numpy(obs), torch.from_numpy(masks))
            if greedy:
                acts = logits.argmax(-1)
            else:
                acts = torch.distributions.Categorical(logits=logits, validate_args=False).sample()
        acts = acts.numpy()
        for k, i in enumerate(active):
            games[i].step(int(acts[k]))
            if keep:
                trajs[i][0].append(obs[k])
                trajs[i][1].append(masks[k])
                trajs[i][2].append(acts[k])
    return returns, trajs


def evaluate(net, hands, reward="win"):
    """Win rate (and draw rate) of the greedy policy against the random bot
    over `hands` fixed hands, half in each seat."""
    seeds = [EVAL_SEED + i for i in range(hands)]
    seats = [i % 2 for i in range(hands)]
    net.eval()
    ret, _ = play_hands(net, seeds, seats, greedy=True, reward="win", bot_seed=7)
    net.train()
    return float(np.mean(ret > 0)), float(np.mean(ret == 0))


def update(net, opt, trajs, returns, args):
    """One A2C step on a batch of finished hands (reward only at the end)."""
    obs = torch.from_numpy(np.concatenate([np.stack(t[0]) for t in trajs]))
    masks = torch.from_numpy(np.concatenate([np.stack(t[1]) for t in trajs]))
    acts = torch.from_numpy(np.concatenate([np.asarray(t[2]) for t in trajs]))
    logits, values = net(obs, masks)
    # Generalized advantage estimates, hand by hand.
    v = values.detach().numpy()
    adv = np.zeros_like(v)
    ret = np.zeros_like(v)
    start = 0
    for t, r in zip(trajs, returns):
        end = start + len(t[2])
        gae, nxt = 0.0, 0.0
        for j in range(end - 1, start - 1, -1):
            reward = r if j == end - 1 else 0.0
            delta = reward + args.gamma * nxt - v[j]
            gae = delta + args.gamma * args.lam * gae
            adv[j] = gae
            ret[j] = gae + v[j]
            nxt = v[j]
        start = end
    adv_t = torch.from_numpy(adv)
    adv_t = (adv_t - adv_t.mean()) / (adv_t.std() + 1e-8)
    logp_all = torch.log_softmax(logits, -1)
    logp = logp_all.gather(1, acts.long().unsqueeze(1)).squeeze(1)
    probs = logp_all.exp()
    entropy = -(probs * logp_all.masked_fill(~masks, 0.0)).sum(-1).mean()
    pg = -(adv_t * logp).mean()
    vloss = 0.5 * (torch.from_numpy(ret) - values).pow(2).mean()
    loss = pg + args.vf * vloss - args.ent * entropy
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(net.parameters(), 0.5)
    opt.step()
    return pg.item(), vloss.item(), entropy.item(), len(acts)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--updates", type=int, default=60, help="training updates")
    p.add_argument("--hands", type=int, default=64, help="hands per update")
    p.add_argument("--eval-every", type=int, default=10, help="updates between evaluations")
    p.add_argument("--eval-hands", type=int, default=400, help="fixed hands per evaluation")
    p.add_argument("--reward", choices=["win", "points"], default="points",
                   help="training reward (evaluation always counts wins)")
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--gamma", type=float, default=1.0)
    p.add_argument("--lam", type=float, default=0.95)
    p.add_argument("--ent", type=float, default=0.01)
    p.add_argument("--vf", type=float, default=0.5)
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1,
                   help="torch threads (1 is fastest for this small net: the games run between passes)")
    p.add_argument("--plot", metavar="PNG", help="draw the learning curve here")
    p.add_argument("--out", metavar="JSON", help="write the curve and final figures here")
    p.add_argument("--save", metavar="PT", help="save the trained weights here")
    args = p.parse_args(argv)

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    np.random.seed(args.seed)

    obs_size = canasta.Game(VARIANT, players=PLAYERS, episode="hand").observation_size
    net = Policy(obs_size, args.hidden)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)

    start = time.time()
    curve = []  # (update, hands trained, win rate, draw rate)

    def evaluate_now(u, hands_done):
        win, draw = evaluate(net, args.eval_hands)
        curve.append((u, hands_done, win, draw))
        print(f"update {u:4d}  hands {hands_done:6d}  win rate vs random {win:.3f} "
              f"(draws {draw:.3f})  [{time.time() - start:6.1f}s]", flush=True)

    evaluate_now(0, 0)
    hands_done = 0
    for u in range(1, args.updates + 1):
        seeds = [args.seed * 100_000_007 + hands_done + i for i in range(args.hands)]
        seats = [(hands_done + i) % 2 for i in range(args.hands)]
        returns, trajs = play_hands(net, seeds, seats, greedy=False, reward=args.reward,
                                    bot_seed=args.seed + 1, keep=True)
        hands_done += args.hands
        pg, vl, ent, steps = update(net, opt, trajs, returns, args)
        if u % args.eval_every == 0 or u == args.updates:
            print(f"           train mean return {returns.mean():+.3f}  steps {steps}  "
                  f"entropy {ent:.2f}  value loss {vl:.3f}", flush=True)
            evaluate_now(u, hands_done)

    elapsed = time.time() - start
    final = curve[-1][2]
    untrained = curve[0][2]
    # A one-sided 99% normal bound on the win rate over the eval hands.
    half = 2.326 * math.sqrt(max(final * (1 - final), 1e-9) / args.eval_hands)
    print(f"done in {elapsed:.1f}s: win rate vs random {untrained:.3f} untrained -> "
          f"{final:.3f} trained (99% lower bound {final - half:.3f}, {args.eval_hands} hands)")

    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(6, 4))
        ax.plot([c[1] for c in curve], [c[2] for c in curve], marker="o", label="trained policy (greedy)")
        ax.axhline(0.5, color="grey", linestyle="--", linewidth=1, label="even")
        ax.set_xlabel("training hands")
        ax.set_ylabel(f"win rate vs random bot ({args.eval_hands} fixed hands)")
        ax.set_ylim(0, 1)
        ax.set_title("A2C on two-player Classic Canasta, one hand")
        ax.legend(loc="lower right")
        fig.tight_layout()
        fig.savefig(args.plot, dpi=120)
        print(f"learning curve written to {args.plot}")
    result = {
        "curve": [{"update": u, "hands": h, "win_rate": w, "draw_rate": d} for u, h, w, d in curve],
        "untrained_win_rate": untrained,
        "final_win_rate": final,
        "eval_hands": args.eval_hands,
        "seconds": elapsed,
    }
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)
    if args.save:
        torch.save(net.state_dict(), args.save)
    return result


if __name__ == "__main__":
    main()
