"""What a run keeps for people to read: files, measured figures and verdicts in $VP_ARTIFACTS/<suite>/.

The suite's folder name is VP_SUITE (scripts/lib/pytest-stage.sh sets it: ``api``, ``web-test``...). Figures and
verdicts are JSON lines, one object a line, in ``figures.jsonl`` and ``verdicts.jsonl``; the failing tests' causes
go to ``failures.txt`` (the plugin writes them; the stage prints the first).
"""
import json
import os
import shutil

from .paths import artifacts_root

FIGURES = "figures.jsonl"
VERDICTS = "verdicts.jsonl"
FAILURES = "failures.txt"


def suite():
    """The name of this run's suite (VP_SUITE), also the name of its artifacts folder."""
    return os.environ.get("VP_SUITE") or "tests"


def folder(name=None):
    """The artifacts folder of the suite (or of ``name``), made when missing; a pathlib.Path."""
    path = artifacts_root() / (name or suite())
    path.mkdir(parents=True, exist_ok=True)
    return path


def _append(file_name, entry):
    with open(folder() / file_name, "a") as file:
        file.write(json.dumps(entry, sort_keys=True) + "\n")


def record_figure(name, **values):
    """Keeps a measured figure (``record_figure("startup", seconds=0.4)``) in figures.jsonl and prints it."""
    _append(FIGURES, dict(values, figure=name))
    print("figure %s: %s" % (name, values))


def record_verdict(subject, verdict, **details):
    """Keeps a verdict on a subject (``record_verdict("android/duplex-laser", "PASS")``) in verdicts.jsonl."""
    _append(VERDICTS, dict(details, subject=subject, verdict=verdict))


def record_failure(test, when, message):
    """Adds one failing test's one-line cause to failures.txt."""
    with open(folder() / FAILURES, "a") as file:
        file.write("%s (%s): %s\n" % (test, when, message[:300]))


def write(file_name, content):
    """Writes a file into the folder: bytes, text, or anything else as indented JSON; returns its path."""
    path = folder() / file_name
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif isinstance(content, str):
        path.write_text(content)
    else:
        path.write_text(json.dumps(content, indent=2, sort_keys=True) + "\n")
    return path


def keep(source, file_name=None):
    """Copies a file (a printer's log...) into the folder, under its own name or ``file_name``; returns the copy."""
    target = folder() / (file_name or os.path.basename(source))
    shutil.copyfile(source, target)
    return target
