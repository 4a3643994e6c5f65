"""scripts/bench's command line: parses it, builds the release binaries when no --binary is given, runs the chosen
benchmarks in order and prints the table. Exit status 0 when it measured, 1 with --strict when a goal was missed, 2
for a usage error."""
import argparse
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile

from ..paths import REPO, artifacts_root
from . import jobs, journal, load, records, render, startup
from .context import Bench

# Every benchmark, in the order the default run takes them.
BENCHMARKS = {"throughput": load.throughput, "connections": load.connections, "startup": startup.startup,
              "records": records.records, "render": render.render, "memory": render.memory, "tls": load.tls,
              "fleet": startup.fleet, "printjobs": load.printjobs, "journal": journal.journal, "jobs": jobs.jobs}
# What users run: an optimized build with the Swift runtime linked in (faster start-up), as scripts/run builds it.
BUILD_FOLDER = REPO / ".build-bench"
BUILD = ["swift", "build", "-c", "release", "--static-swift-stdlib", "--scratch-path", str(BUILD_FOLDER)]
# The exit status of a usage error, and of a run stopped by SIGTERM or SIGINT.
USAGE_ERROR = 2
STOPPED = 143


def arguments(argv, usage):
    """The parsed command line; a usage error (or --help) prints ``usage`` and exits."""
    def refuse(message):
        print("bench: %s\n%s" % (message, usage) if message else usage, file=sys.stderr)
        sys.exit(USAGE_ERROR)

    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    parser.error = refuse
    parser.add_argument("--binary")
    parser.add_argument("--baseline")
    parser.add_argument("--profile", default="duplex-laser")
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--only", default=",".join(BENCHMARKS))
    parser.add_argument("--artifacts", default=artifacts_root())
    parser.add_argument("--strict", action="store_true")
    parser.add_argument("-h", "--help", action="store_true")
    options = parser.parse_args(argv)
    unknown = [name for name in options.only.split(",") if name not in BENCHMARKS]
    if options.help or unknown:
        refuse(unknown and "unknown benchmark " + ", ".join(unknown))
    return options


def main(argv, usage):
    options = arguments(argv, usage)
    if not options.binary:
        print("bench: building release binaries (%s)" % " ".join(BUILD[1:5]), file=sys.stderr)
        subprocess.run(BUILD, cwd=REPO, check=True, stdout=sys.stderr)
        options.binary = str(BUILD_FOLDER / "release" / "vprinter")
    for binary in filter(None, (options.binary, options.baseline)):
        if not os.access(binary, os.X_OK):
            print("bench: no vprinter binary at %s (build it first)" % binary, file=sys.stderr)
            return 1
    for stop in (signal.SIGTERM, signal.SIGINT):
        signal.signal(stop, lambda *_: sys.exit(STOPPED))
    logs = pathlib.Path(options.artifacts, "bench")
    logs.mkdir(parents=True, exist_ok=True)
    (logs / "vprinter.log").unlink(missing_ok=True)  # the printers of this run add their logs to it
    work = pathlib.Path(tempfile.mkdtemp(prefix="vprinter-bench."))
    bench = Bench(os.path.abspath(options.binary), options.baseline and os.path.abspath(options.baseline),
                  options.profile, options.duration, options.runs, work, logs)
    try:
        for name in options.only.split(","):
            print("bench: " + name, file=sys.stderr)
            BENCHMARKS[name](bench)
    finally:
        bench.close()
        shutil.rmtree(work, ignore_errors=True)
    bench.table.print()
    return 1 if options.strict and bench.table.missed else 0
