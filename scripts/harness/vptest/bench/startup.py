"""The start-up benchmarks: vprinter's start to its URI line against ippeveprinter's start to its first accepted
connection; fleets of 1, 100 and 1,000 printers from a config file, started until GET /readyz answers 200, with
their peak memory, and Get-Printer-Attributes against one printer of the 1,000 against a lone printer."""
import json
import statistics
import time

from vprinter import Client

from .. import reference
from ..names import free_port
from . import processes
from .load import attributes_load
from .report import compare

GOAL_STARTUP_RATIO = 3
FLEET_SIZES = (1, 100, 1000)
GOAL_FLEET_READY_MS = 2000
GOAL_FLEET_MEGABYTES = 200
GOAL_FLEET_THROUGHPUT_RATIO = 0.9
# The printer of the largest fleet that Get-Printer-Attributes is sent to (1 is the first).
FLEET_TARGET = 500
# Seconds a fleet gets to be ready, and between two asks of GET /readyz.
FLEET_READY_LIMIT = 120
READY_INTERVAL = 0.005


def median_start_ms(bench, command, ready=processes.first_uri):
    """The median, over --runs starts of ``command``, of the milliseconds until it is ready."""
    return statistics.median(processes.timed_start(command, ready)[0] for _ in range(bench.runs))


def startup(bench):
    vprinter = median_start_ms(bench, bench.vprinter_command(bench.work / "startup-output"))
    bench.start_avahi()
    port = free_port()
    ippeveprinter = median_start_ms(bench, ["ippeveprinter", "-p", str(port), "-n", "localhost", "-r", "off", "-d",
                                            str(bench.work / "startup-spool"), "-f", reference.FORMATS,
                                            "startup-reference"], processes.first_connection(port))
    ratio, verdict = compare(vprinter, ippeveprinter, GOAL_STARTUP_RATIO, at_most=True)
    bench.table.add("start to ready, median of %d" % bench.runs, "%.1f ms" % vprinter, "%.1f ms" % ippeveprinter,
                    ratio, "<= %gx" % GOAL_STARTUP_RATIO, verdict)


def write_fleet_config(path, count):
    """A config file of ``count`` printers, of both shipped profiles."""
    printers = [{"name": "bench-%04d" % index, "profile": "duplex-laser" if index % 2 else "color-inkjet"}
                for index in range(count)]
    path.write_text(json.dumps({"printers": printers}))
    return path


def ready_fleet(process):
    """Ready: GET /readyz answers 200 (every printer of the config accepts jobs). Returns the peak resident memory
    in MB and the CPU time in milliseconds used until then (which a loaded machine does not inflate as it does the
    wall time)."""
    client = Client(processes.first_uri(process))
    while not client.readyz()[0]:
        if process.poll() is not None:
            raise RuntimeError("the fleet's vprinter exited before it was ready")
        time.sleep(READY_INTERVAL)
    return processes.status_kilobytes(process.pid, "VmHWM") / 1024, processes.cpu_seconds(process.pid, False) * 1000


def fleet(bench):
    for size in FLEET_SIZES:
        config = write_fleet_config(bench.work / ("fleet-%d.json" % size), size)
        command = bench.vprinter_command(bench.work / ("fleet-output-%d" % size), config=config)
        runs = [processes.timed_start(command, ready_fleet, FLEET_READY_LIMIT) for _ in range(bench.runs)]
        median = statistics.median(milliseconds for milliseconds, _ in runs)
        peak = max(megabytes for _, (megabytes, _) in runs)
        cpu = "(cpu %.0f ms)" % statistics.median(cpu for _, (_, cpu) in runs)
        if size == FLEET_SIZES[-1]:
            met = median < GOAL_FLEET_READY_MS and peak < GOAL_FLEET_MEGABYTES
            bench.table.add("%d printers: ready, peak RSS" % size, "%.0f ms" % median, "%.0f MB" % peak, "-",
                            "<%dms <%dMB" % (GOAL_FLEET_READY_MS, GOAL_FLEET_MEGABYTES),
                            ("met " if met else "missed ") + cpu)
        else:
            bench.table.add("%d printer(s): ready, peak RSS" % size, "%.0f ms" % median, "%.0f MB" % peak, "-", "-",
                            cpu)
    with bench.vprinter(bench.work / ("fleet-output-%d" % size), config=config) as printer:
        in_fleet = attributes_load(bench, "throughput-fleet", printer.uris[FLEET_TARGET - 1]).rate
    with bench.vprinter(bench.work / "output") as printer:
        lone = attributes_load(bench, "throughput-lone", printer.uri).rate
    ratio, verdict = compare(in_fleet, lone, GOAL_FLEET_THROUGHPUT_RATIO)
    bench.table.add("Get-Printer-Attributes, 1 of {:,}".format(size), "%.1f/s" % in_fleet, "lone %.1f/s" % lone,
                    ratio, ">= %gx" % GOAL_FLEET_THROUGHPUT_RATIO, verdict)
