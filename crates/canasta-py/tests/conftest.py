"""What several test files share."""

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def canasta_cli():
    """The `canasta` binary: $CANASTA_CLI, else the workspace's build. Its
    tests skip without one, and fail when CANASTA_REQUIRE_CLI is set."""
    if os.environ.get("CANASTA_CLI"):
        return Path(os.environ["CANASTA_CLI"])
    for profile in ("release", "debug"):
        path = ROOT / "target" / profile / "canasta"
        if path.is_file():
            return path
    if os.environ.get("CANASTA_REQUIRE_CLI"):
        pytest.fail(
            f"CANASTA_REQUIRE_CLI is set but no canasta binary under {ROOT / 'target'}; "
            "build it with `cargo build --release -p canasta-cli`"
        )
    pytest.skip(
        f"no canasta binary under {ROOT / 'target'} (build it with "
        "`cargo build --release -p canasta-cli`, or set CANASTA_CLI)"
    )
