"""The package's version is the repository's VERSION, the one place the project keeps it (scripts/set-version)."""
import importlib.metadata
import pathlib
import subprocess

import vprinter

# python/tests/ -> the repository's root.
VERSION_FILE = pathlib.Path(__file__).resolve().parents[2] / "VERSION"


def version_file():
    return VERSION_FILE.read_text().strip()


def test_the_installed_package_has_the_version_files_version():
    assert importlib.metadata.version("vprinter") == version_file(), \
        "pip's version of the package is not VERSION: run scripts/set-version, then reinstall ./python"


def test_dunder_version_is_the_version_files_version():
    assert vprinter.__version__ == version_file()


def test_the_binary_the_package_starts_prints_the_same_version():
    result = subprocess.run([vprinter.find_binary(), "--version"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "vprinter %s\n" % version_file()
