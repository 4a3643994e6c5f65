"""The bash libraries of scripts/lib called from Python, for what a pytest suite shares with the bash stages (the
sample documents of documents.sh, the PWG raster corpus of pwg-corpus.sh):

    done = scriptlib.call("documents.sh", "documents_make_pdf", "letter", folder / "letter.pdf")
    assert done.returncode == 0, done.stderr

The library is sourced by bash with ``set -uo pipefail``, and ``set -e`` too unless ``stop_at_error=False`` (a
function written to go on past a failed step and report it in its exit status).
"""
import os
import subprocess

from .paths import REPO

LIBRARIES = REPO / "scripts" / "lib"
# The longest one call may take, in seconds.
CALL_LIMIT = 900


def call(library, function, *arguments, stop_at_error=True, limit=CALL_LIMIT):
    """Runs ``function`` of scripts/lib/``library`` with ``arguments``; returns the finished process (``returncode``,
    ``stdout`` and ``stderr`` as text) whatever its exit status."""
    options = "set -euo pipefail" if stop_at_error else "set -uo pipefail"
    script = options + '; source "$1"; shift; "$@"'
    return subprocess.run(["bash", "-c", script, "bash", os.fspath(LIBRARIES / library), function,
                           *map(os.fspath, arguments)], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          errors="replace", timeout=limit)
