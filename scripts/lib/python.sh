# The Python of the test helpers: the virtual environment scripts/setup made with Debian's python3 (VP_VENV,
# default .venv in the checkout). Sourced by the scripts that run pytest; sets VP_PYTHON.
# shellcheck shell=bash
VP_PYTHON="${VP_VENV:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/.venv}/bin/python"
if [[ ! -x "$VP_PYTHON" ]]; then
    echo "no Python test environment at ${VP_PYTHON%/bin/python}: run scripts/setup first" >&2
    return 1
fi
export VP_PYTHON
