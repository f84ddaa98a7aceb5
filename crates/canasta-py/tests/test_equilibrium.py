"""The small forms for equilibrium methods (``canasta_micro``,
``canasta_mini``): their trees as OpenSpiel walks them, and OpenSpiel's
CFR with exploitability on the smallest."""

import pytest

pyspiel = pytest.importorskip("pyspiel")
import canasta  # noqa: E402  (registers the games)

# (chance, decision, terminal nodes; information sets of each seat), as
# the presets' summaries, docs/python.md and the Rust walk
# (crates/canasta-py/src/tree.rs) give them.
SIZES = {
    "micro": ((99, 212, 96), (42, 42)),
    "mini": ((617, 4256, 1772), (410, 410)),
}


def _walk(state, counts, sets):
    if state.is_terminal():
        counts[2] += 1
    elif state.is_chance_node():
        counts[0] += 1
        for outcome, _ in state.chance_outcomes():
            _walk(state.child(outcome), counts, sets)
    else:
        counts[1] += 1
        player = state.current_player()
        sets[player].add(state.information_state_string(player))
        for action in state.legal_actions():
            _walk(state.child(action), counts, sets)


@pytest.mark.parametrize("form", sorted(SIZES))
def test_the_tree_openspiel_walks_has_the_stated_size(form):
    game = pyspiel.load_game(f"canasta_{form}")
    counts, sets = [0, 0, 0], [set(), set()]
    _walk(game.new_initial_state(), counts, sets)
    nodes, per_seat = SIZES[form]
    assert tuple(counts) == nodes
    assert tuple(len(s) for s in sets) == per_seat
    summary = next(v["summary"] for v in canasta.variants() if v["id"] == form)
    assert f"{sum(nodes):,} histories, {sum(per_seat):,} information sets" in summary


def test_cfr_lowers_the_exploitability_of_micro():
    from open_spiel.python.algorithms import cfr, exploitability

    game = pyspiel.load_game("canasta_micro")
    solver = cfr.CFRSolver(game)
    # The tabular policy holds one row per information set.
    assert len(solver.current_policy().state_lookup) == sum(SIZES["micro"][1])
    curve = [exploitability.exploitability(game, solver.average_policy())]
    for _ in range(8):
        solver.evaluate_and_update_policy()
        curve.append(exploitability.exploitability(game, solver.average_policy()))
    print("exploitability by iteration:", [round(float(e), 4) for e in curve])
    assert curve[0] > 0.05  # the uniform policy is far from an equilibrium
    assert curve[-1] < curve[0] / 4
    assert all(later <= earlier + 1e-12 for earlier, later in zip(curve, curve[1:]))
