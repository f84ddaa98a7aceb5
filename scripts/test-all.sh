#!/usr/bin/env bash
# Every test of the repository: the Rust workspace, then the Python package
# (a virtual environment, a maturin build of crates/canasta-py, pytest).
#
#   bash scripts/test-all.sh              # everything
#   CANASTA_SKIP_PYTHON=1 bash scripts/test-all.sh   # the Rust tests only
#
# The virtual environment is kept in target/py-venv (CANASTA_VENV to move it)
# and reused; its first set-up downloads OpenSpiel, Ray and matplotlib for
# the tests (about 1 GB). CANASTA_DROP_DEBUG_BUILD=1 removes target/debug
# once the Rust tests have passed (CI sets it, to leave room on a small
# disk).
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo test --workspace"
cargo test --workspace

if [ -n "${CANASTA_DROP_DEBUG_BUILD:-}" ]; then
  echo "== removing target/debug (CANASTA_DROP_DEBUG_BUILD is set)"
  rm -rf target/debug
fi

if [ -n "${CANASTA_SKIP_PYTHON:-}" ]; then
  echo "== Python package: skipped (CANASTA_SKIP_PYTHON is set)"
  exit 0
fi

echo "== Python package: virtual environment"
VENV="${CANASTA_VENV:-$PWD/target/py-venv}"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
# No download cache: the environment itself is kept, and the wheels would
# otherwise sit on the disk twice.
"$VENV/bin/python" -m pip install --quiet --no-cache-dir --upgrade pip
"$VENV/bin/python" -m pip install --quiet --no-cache-dir -r crates/canasta-py/requirements-test.txt

echo "== Python package: maturin build"
# The CLI too: a test seats a Python agent in `canasta tournament`.
cargo build --release -p canasta-cli
export CANASTA_CLI="$PWD/target/release/canasta"
(
  cd crates/canasta-py
  VIRTUAL_ENV="$VENV" PATH="$VENV/bin:$PATH" maturin develop --release --quiet
)

echo "== Python package: pytest"
"$VENV/bin/python" -m pytest crates/canasta-py/tests -q
