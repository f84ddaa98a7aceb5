"""The bot-protocol bridge (canasta.protocol): serve() on messages made by
hand and by the engine, and a Python agent seated in `canasta tournament`."""

import io
import json
import os
import random
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import canasta
from canasta import protocol

ROOT = Path(__file__).resolve().parents[3]

# The exchange in docs/bot-protocol.md.
GAME_LINE = (
    '{"type":"game","protocol":1,"seat":0,"seed":10467705831123778852,'
    '"header":{"canasta_record":1,"variant":"classic","players":4,"options":{}}}'
)
DECISION_1 = (
    '{"type":"decision","observation":{"answer":null,"asked":false,"current":0,"dealer":3,'
    '"drew_from_stock":false,"foot_sizes":[0,0,0,0],"hand":["2C","3C","4S","8H","8H","9D",'
    '"TD","JS","JD","KD","AC"],"hand_sizes":[11,11,11,11],"known":[["2C","3C","4S","8H",'
    '"8H","9D","TD","JS","JD","KD","AC"],[],[],[]],"melds":[[],[],[],[]],"must_go_out":false,'
    '"opening_needed":[50,50,50,50],"phase":"draw","pile":["8D"],"pile_frozen":false,'
    '"pile_hidden":0,"players":4,"red_three_suits":[[0,0],[0,0],[0,0],[0,0]],'
    '"red_threes":[0,0,0,0],"scores":[0,0],"seat":0,"side_of":[0,1,0,1],"state_id":1,'
    '"stock":63,"to_act":0,"took_pile":false},'
    '"legal":["draw","pickup 8H 8H / JS JD 2C","pickup 8H 8H 2C"]}'
)
DECISION_2 = (
    '{"type":"decision","observation":{"answer":null,"asked":false,"current":0,"dealer":3,'
    '"drew_from_stock":true,"foot_sizes":[0,0,0,0],"hand":["2C","3C","4S","5C","8H","8H",'
    '"9D","TD","JS","JD","KD","AC"],"hand_sizes":[12,11,11,11],"known":[["2C","3C","4S",'
    '"5C","8H","8H","9D","TD","JS","JD","KD","AC"],[],[],[]],"melds":[[],[],[],[]],'
    '"must_go_out":false,"opening_needed":[50,50,50,50],"phase":"play","pile":["8D"],'
    '"pile_frozen":false,"pile_hidden":0,"players":4,"red_three_suits":[[0,0],[0,0],[0,0],'
    '[0,0]],"red_threes":[0,0,0,0],"scores":[0,0],"seat":0,"side_of":[0,1,0,1],'
    '"state_id":2,"stock":62,"to_act":0,"took_pile":false},"legal":["discard 2C",'
    '"discard 3C","discard 4S","discard 5C","discard 8H","discard 9D","discard TD",'
    '"discard JS","discard KD","discard AC"]}'
)


def run(agent, lines, **kw):
    out = io.StringIO()
    protocol.serve(agent, stdin=io.StringIO("".join(l + "\n" for l in lines)), stdout=out, **kw)
    return [json.loads(l) for l in out.getvalue().splitlines()]


def legal_of(line):
    return json.loads(line)["legal"]


@pytest.mark.parametrize("make", [lambda: protocol.RandomAgent(3), lambda: protocol.first_agent])
def test_doc_exchange(make):
    replies = run(make(), [GAME_LINE, DECISION_1, DECISION_2])
    assert len(replies) == 2
    assert replies[0]["action"] in legal_of(DECISION_1)
    assert replies[1]["action"] in legal_of(DECISION_2)


def test_every_legal_action_is_reachable():
    """The ids an agent sees spell each of the host's legal actions, and
    nothing else."""
    for line in (DECISION_1, DECISION_2):
        legal = legal_of(line)
        seen = {run(protocol.first_agent, [GAME_LINE, line])[0]["action"]}
        for seed in range(200):
            seen.add(run(protocol.RandomAgent(seed), [GAME_LINE, line], seed=seed)[0]["action"])
        assert seen == set(legal), set(legal) ^ seen


def test_agent_sees_its_seat():
    calls = []

    class Agent:
        def new_game(self, seat, seed, header):
            calls.append(("game", seat, seed, header["variant"]))

        def __call__(self, game):
            calls.append(("decide", game.current_player, len(game.observation())))
            assert game.observation().shape == (game.observation_size,)
            assert game.legal_action_mask().sum() == len(game.legal_actions())
            return game.legal_actions()[0]

    replies = run(Agent(), [GAME_LINE, DECISION_1])
    assert calls[0] == ("game", 0, 10467705831123778852, "classic")
    assert all(c[1] == 0 for c in calls[1:] if c[0] == "decide")
    assert "action" in replies[0]


def test_bad_lines_get_errors_and_serving_goes_on():
    bad_seat = json.loads(DECISION_1)
    bad_seat["observation"]["seat"] = 9
    empty = json.loads(DECISION_1)
    empty["legal"] = []
    unreadable = json.loads(DECISION_1)
    unreadable["legal"] = ["fly away"]
    lines = [
        DECISION_1,  # 1: before any game
        GAME_LINE,  # 2: no answer
        "",  # 3: blank: no answer
        "not json",  # 4
        json.dumps(bad_seat),  # 5
        json.dumps(empty),  # 6
        json.dumps(unreadable),  # 7
        '{"type":"weather"}',  # 8
        "[1, 2]",  # 9
        DECISION_1,  # 10: answered
    ]
    replies = run(protocol.first_agent, lines)
    assert [list(r) for r in replies] == [["error"]] * 7 + [["action"]]
    numbers = [int(r["error"].split(":")[0].split()[1]) for r in replies[:-1]]
    assert numbers == [1, 4, 5, 6, 7, 8, 9]
    assert "before any game" in replies[0]["error"]
    assert replies[-1]["action"] in legal_of(DECISION_1)


def test_bad_game_line_leaves_no_game():
    bad = json.loads(GAME_LINE)
    bad["header"]["variant"] = "no such variant"
    replies = run(protocol.first_agent, [GAME_LINE, json.dumps(bad), DECISION_1])
    assert replies[0]["error"].startswith("line 2:")
    assert "before any game" in replies[1]["error"]


def test_failing_agent_gets_an_error_reply():
    def broken(game):
        raise RuntimeError("boom")

    def illegal(game):
        return canasta.NUM_ACTIONS + 5

    for agent, words in ((broken, "boom"), (illegal, "chose badly")):
        replies = run(agent, [GAME_LINE, DECISION_1, DECISION_2])
        assert len(replies) == 2
        assert replies[0]["error"].startswith("line 2:") and words in replies[0]["error"]


def test_real_positions():
    """Decisions of real games, sent as the host sends them: every reply is
    one of the legal actions, and the game goes on with it."""
    rng = random.Random(0)
    for variant, players in (("classic", 4), ("samba", 3), ("canastia", 2), ("pennies", 6)):
        game = canasta.Game(variant, players=players, seed=rng.getrandbits(32), episode="hand")
        header = json.loads(game.record().splitlines()[0])
        agents = {s: protocol.RandomAgent(s) for s in range(players)}
        answered = 0
        while not game.is_terminal() and answered < 80:
            seat = game.current_player
            legal = game.legal_action_texts()
            lines = [
                json.dumps({"type": "game", "protocol": 1, "seat": seat, "seed": 5, "header": header}),
                json.dumps(
                    {"type": "decision", "observation": game.observation_json(seat), "legal": legal}
                ),
            ]
            (reply,) = run(agents[seat], lines, seed=answered)
            assert reply.get("action") in legal, (variant, reply)
            game.apply(reply["action"])
            answered += 1
        assert answered > 10


def test_module_runs_as_a_program():
    text = "\n".join([GAME_LINE, DECISION_1, "oops", DECISION_2]) + "\n"
    for agent in ("random", "first"):
        done = subprocess.run(
            [sys.executable, "-m", "canasta.protocol", "--agent", agent, "--seed", "4"],
            input=text,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        replies = [json.loads(l) for l in done.stdout.splitlines()]
        assert replies[0]["action"] in legal_of(DECISION_1)
        assert replies[1]["error"].startswith("line 3:")
        assert replies[2]["action"] in legal_of(DECISION_2)


@pytest.mark.parametrize("variant,extra", [("classic", []), ("samba", ["--players", "3"])])
def test_python_agent_in_a_tournament(variant, extra, canasta_cli):
    binary = canasta_cli
    bot = "cmd:" + shlex.join([sys.executable, "-m", "canasta.protocol", "--agent", "random"])
    done = subprocess.run(
        [str(binary), "tournament", "--variant", variant, *extra,
         "--bots", f"heuristic,{bot}", "--games", "2", "--seed", "1",
         "--max-hands", "1", "--threads", "2", "--json"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    (pairing,) = report["pairings"]
    assert pairing["b"] == bot
    teams = report["teams"]
    games_per_deal = 2 if teams == 2 else 6
    assert pairing["games"] == 2 * games_per_deal
    names = {b["name"]: b for b in report["bots"]}
    assert names[bot]["games"] == pairing["games"]
