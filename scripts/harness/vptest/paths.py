"""Where things are: the checkout, its docs, and the artifacts folder of this run."""
import os
import pathlib

# The checkout this harness belongs to (scripts/harness/vptest/ is three folders below it).
REPO = pathlib.Path(__file__).resolve().parents[3]
DOCS = REPO / "docs"


def artifacts_root():
    """$VP_ARTIFACTS, else artifacts/ in the checkout."""
    return pathlib.Path(os.environ.get("VP_ARTIFACTS") or REPO / "artifacts")
