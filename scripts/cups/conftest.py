"""The CUPS client suite (scripts/cups-client-test): CUPS as a driverless client of vprinter, in the private cupsd
the stage starts (scripts/lib/services.sh).

Options (scripts/cups-client-test passes its own on):
  --profile NAME   the profile to print to (default: duplex-laser)
  --reference      print to CUPS's ippeveprinter instead (the CUPS side only: it keeps no job record)
"""


def pytest_addoption(parser):
    parser.addoption("--profile", default="duplex-laser", help="the profile to print to (default: duplex-laser)")
    parser.addoption("--reference", action="store_true",
                     help="print to CUPS's ippeveprinter instead (checks the CUPS side only)")


def pytest_configure(config):
    config.addinivalue_line("markers", "reference: runs with --reference only (and the others without it)")


def pytest_collection_modifyitems(config, items):
    """Keeps the tests of the printer chosen: the reference ones under --reference, the others without it."""
    reference = config.getoption("--reference")
    kept = [item for item in items if bool(item.get_closest_marker("reference")) == reference]
    if len(kept) < len(items):
        config.hook.pytest_deselected(items=[item for item in items if item not in kept])
        items[:] = kept
