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

    python examples/python/learn.py --plot curve.png    # about 75 s on 2 cores
    python examples/python/learn.py --updates 10 --eval-hands 200   # about 10 s
"""

import argparse
import json
import math
import time

import numpy as np

import canasta

VARIANT = "classic"
PLAYERS = 2
EVAL_SEED = 1_000_000  # eval hands use seeds EVAL_SEED + i, never trained on
MASKED = np.float32(-1e9)  # the logit of an illegal id


def bot_move(bot, game):
    """Step one whole action of `bot` as action ids (choose_ids ends with
    `end` where the action could also go on, so the last id completes it)."""
    done = None
    for a in bot.choose_ids(game):
        done = game.step(a)
    assert done is not None, "a bot's ids spell a whole action"


class Policy:
    """A two-layer MLP with a policy head and a value head, in numpy: the
    forward pass keeps what the backward pass needs, and `step` is Adam
    with the gradient's global norm clipped. Small enough that a framework
    would add nothing but a download of several gigabytes."""

    def __init__(self, obs_size, hidden, rng):
        def layer(fan_in, fan_out, zero=False):
            # PyTorch's default initialisation for a linear layer.
            bound = 1.0 / math.sqrt(fan_in)
            if zero:
                return np.zeros((fan_in, fan_out), np.float32), np.zeros(fan_out, np.float32)
            w = rng.uniform(-bound, bound, (fan_in, fan_out)).astype(np.float32)
            b = rng.uniform(-bound, bound, fan_out).astype(np.float32)
            return w, b

        w1, b1 = layer(obs_size, hidden)
        w2, b2 = layer(hidden, hidden)
        wp, bp = layer(hidden, canasta.NUM_ACTIONS, zero=True)  # start uniform over the legal ids
        wv, bv = layer(hidden, 1)
        self.params = {"w1": w1, "b1": b1, "w2": w2, "b2": b2, "wp": wp, "bp": bp, "wv": wv, "bv": bv}
        self.m = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.t = 0

    def forward(self, obs, mask):
        """Masked logits and values; also the activations for `backward`."""
        p = self.params
        x = np.arcsinh(obs)  # counts are raw and scores in thousands: squash the large ones
        h1 = np.maximum(x @ p["w1"] + p["b1"], 0.0)
        h2 = np.maximum(h1 @ p["w2"] + p["b2"], 0.0)
        logits = np.where(mask, h2 @ p["wp"] + p["bp"], MASKED)
        values = (h2 @ p["wv"] + p["bv"])[:, 0]
        return logits, values, (x, h1, h2)

    def backward(self, cache, mask, dlogits, dvalues):
        """Gradients of every parameter from those of the logits and values
        (an illegal id's logit is a constant: no gradient flows through it)."""
        p = self.params
        x, h1, h2 = cache
        dlogits = np.where(mask, dlogits, 0.0).astype(h2.dtype)
        dvalues = dvalues.astype(h2.dtype)[:, None]
        g = {"wp": h2.T @ dlogits, "bp": dlogits.sum(0), "wv": h2.T @ dvalues, "bv": dvalues.sum(0)}
        dh2 = (dlogits @ p["wp"].T + dvalues @ p["wv"].T) * (h2 > 0)
        g["w2"], g["b2"] = h1.T @ dh2, dh2.sum(0)
        dh1 = (dh2 @ p["w2"].T) * (h1 > 0)
        g["w1"], g["b1"] = x.T @ dh1, dh1.sum(0)
        return g

    def step(self, grads, lr, max_norm=0.5, betas=(0.9, 0.999), eps=1e-8):
        norm = math.sqrt(sum(float((g * g).sum()) for g in grads.values()))
        scale = min(1.0, max_norm / (norm + 1e-6))
        self.t += 1
        b1, b2 = betas
        for k, g in grads.items():
            g = g * scale
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * g * g
            m_hat = self.m[k] / (1 - b1 ** self.t)
            v_hat = self.v[k] / (1 - b2 ** self.t)
            self.params[k] -= (lr * m_hat / (np.sqrt(v_hat) + eps)).astype(self.params[k].dtype)


def log_softmax(logits):
    z = logits - logits.max(-1, keepdims=True)
    return z - np.log(np.exp(z).sum(-1, keepdims=True))


def play_hands(net, seeds, seats, *, greedy, reward, rng=None, bot_seed=0, keep=False):
    """Plays one hand per seed, all side by side: the policy in `seats[i]`,
    the random bot in the other seat. Returns the agent's returns and, with
    `keep`, each hand's trajectory (observations, masks, actions). Sampling
    draws from `rng`; `greedy` takes each row's best legal id."""
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
        logits, _, _ = net.forward(obs, masks)
        if greedy:
            acts = logits.argmax(-1)
        else:
            # One draw per row from the softmax: the first id whose
            # cumulative probability passes a uniform number.
            probs = np.exp(log_softmax(logits))
            cdf = np.cumsum(probs, -1)
            u = rng.random((len(active), 1)) * cdf[:, -1:]
            acts = np.minimum((cdf < u).sum(-1), probs.shape[1] - 1)
            acts = np.where(masks[np.arange(len(active)), acts], acts, logits.argmax(-1))
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
    ret, _ = play_hands(net, seeds, seats, greedy=True, reward="win", bot_seed=7)
    return float(np.mean(ret > 0)), float(np.mean(ret == 0))


def update(net, trajs, returns, args):
    """One A2C step on a batch of finished hands (reward only at the end):
    loss = policy gradient + vf * value loss - ent * entropy, each a mean
    over the batch's steps, and its gradient written out by hand."""
    obs = np.concatenate([np.stack(t[0]) for t in trajs])
    masks = np.concatenate([np.stack(t[1]) for t in trajs])
    acts = np.concatenate([np.asarray(t[2]) for t in trajs]).astype(np.int64)
    logits, v, cache = net.forward(obs, masks)
    # Generalized advantage estimates, hand by hand.
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
    n = len(acts)
    rows = np.arange(n)
    adv = (adv - adv.mean()) / (adv.std(ddof=1) + 1e-8)
    logp_all = log_softmax(logits)
    probs = np.exp(logp_all)
    logp = logp_all[rows, acts]
    row_entropy = -(probs * np.where(masks, logp_all, 0.0)).sum(-1)
    pg = -(adv * logp).mean()
    vloss = 0.5 * ((ret - v) ** 2).mean()
    # d(pg)/d(logits) = -adv (onehot - p) / n; d(-ent * H)/d(logits) =
    # ent * p (log p + H) / n; d(vf * vloss)/d(v) = vf (v - ret) / n.
    onehot = np.zeros_like(probs)
    onehot[rows, acts] = 1.0
    dlogits = (-adv[:, None] * (onehot - probs)
               + args.ent * probs * (np.where(masks, logp_all, 0.0) + row_entropy[:, None])) / n
    dvalues = args.vf * (v - ret) / n
    net.step(net.backward(cache, masks, dlogits, dvalues), args.lr)
    return float(pg), float(vloss), float(row_entropy.mean()), n


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
    p.add_argument("--plot", metavar="PNG", help="draw the learning curve here")
    p.add_argument("--out", metavar="JSON", help="write the curve and final figures here")
    p.add_argument("--save", metavar="NPZ", help="save the trained weights here (numpy's .npz)")
    args = p.parse_args(argv)

    rng = np.random.default_rng(args.seed)

    obs_size = canasta.Game(VARIANT, players=PLAYERS, episode="hand").observation_size
    net = Policy(obs_size, args.hidden, rng)

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
                                    rng=rng, bot_seed=args.seed + 1, keep=True)
        hands_done += args.hands
        pg, vl, ent, steps = update(net, trajs, returns, args)
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
        np.savez(args.save, **net.params)
    return result


if __name__ == "__main__":
    main()
