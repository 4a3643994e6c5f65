"""The scenario suite (scripts/scenario-test): the shipped scenarios played with ipptool, the IPP/2.1 and 2.2
administration operations, and CUPS as a client with out-of-paper and of a printer switched off.

Options (scripts/scenario-test passes its own on):
  --scenarios NAME,...  run only these: scenario names (scenarios/NAME.json), administration, cups:out-of-paper
  --no-cups             leave out CUPS as a client (it needs the private cupsd the stage starts)

Every test is marked with the name --scenarios selects it by (``@pytest.mark.scenario("administration")``).
Each one's printer runs in $VP_ARTIFACTS/scenario-test/<name>/printer (its log and output folder), beside the
logs of its ipptool runs.
"""
import os
import shutil

import pytest
from vprinter import documents

from scenario_printer import ScenarioPrinter
from vptest import artifacts
from vptest.paths import REPO


def pytest_addoption(parser):
    parser.addoption("--scenarios", default="", help="comma-separated: scenario names (scenarios/NAME.json), "
                     "administration, cups:out-of-paper, cups:power-off (default: all)")
    parser.addoption("--no-cups", action="store_true", help="leave out CUPS as a client")


def pytest_configure(config):
    config.addinivalue_line("markers", "scenario(name): the name --scenarios selects the test by")
    config.addinivalue_line("markers", "cups: CUPS as a client (left out by --no-cups)")


def selection_name(item):
    marker = item.get_closest_marker("scenario")
    return marker.args[0] if marker else None


def pytest_collection_modifyitems(config, items):
    """Keeps the tests --scenarios names (an unknown name is a usage error), less the CUPS ones under --no-cups."""
    wanted = [name for name in config.getoption("--scenarios").split(",") if name]
    known = {selection_name(item) for item in items}
    unknown = [name for name in wanted if name not in known]
    if unknown:
        raise pytest.UsageError("--scenarios: no test for %s (known: %s)" % (
            ", ".join(unknown), ", ".join(sorted(filter(None, known)))))
    kept, dropped = [], []
    for item in items:
        out = (wanted and selection_name(item) not in wanted) or (
            config.getoption("--no-cups") and item.get_closest_marker("cups"))
        (dropped if out else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


@pytest.fixture(scope="session")
def document(tmp_path_factory):
    """A three-page letter PDF, so that a fault at page 2 happens inside the job."""
    path = tmp_path_factory.mktemp("documents") / "three-pages.pdf"
    path.write_bytes(documents.pdf(["page %d" % page for page in (1, 2, 3)]))
    return path


@pytest.fixture
def log_folder(request):
    """This test's artifacts folder, $VP_ARTIFACTS/scenario-test/<name> (emptied first)."""
    name = selection_name(request.node) or request.node.name
    folder = artifacts.folder() / name.replace(":", "-")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


@pytest.fixture
def scenario_printer(start_printer, document, log_folder):
    """Starts a printer (``scenario_printer(*arguments, scenario=NAME, **start_options)``, as start_printer, with
    ``--scenario scenarios/NAME.json`` when a NAME is given) whose work folder is the test's artifacts folder;
    returns it as a ScenarioPrinter."""

    def starter(*arguments, scenario=None, **options):
        if scenario:
            options["scenario"] = os.fspath(REPO / "scenarios" / ("%s.json" % scenario))
        printer = start_printer(*arguments, work_dir=log_folder / "printer", **options)
        return ScenarioPrinter(printer, document, log_folder)

    return starter
