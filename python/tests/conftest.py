"""Tests of the vprinter Python package against the real binary (VPRINTER_BIN, else vprinter on PATH).

The package must be installed (``pip install ./python``): the plugin is loaded through its pytest11 entry
point, as a user's pytest loads it. scripts/python-test installs it into a fresh virtual environment first.
"""
import importlib.metadata

import pytest

pytest_plugins = ["pytester"]


def plugin_entry_points():
    """The installed pytest11 entry points named vprinter."""
    entry_points = importlib.metadata.entry_points()
    group = entry_points.select(group="pytest11") if hasattr(entry_points, "select") else entry_points.get(
        "pytest11", [])
    return [entry for entry in group if entry.name == "vprinter"]


def pytest_configure(config):
    if not plugin_entry_points():
        raise pytest.UsageError("the vprinter package is not installed (pip install ./python): its pytest11 entry "
                                "point is missing")
