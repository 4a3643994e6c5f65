#!/usr/bin/env python3
"""Fleet benchmarks of scripts/bench: start-up to ready and peak memory of a vprinter with N
printers from one config file.

Usage: fleet_bench.py config N FILE              writes a config of N printers (both shipped profiles) to FILE
       fleet_bench.py startup RUNS -- COMMAND ... runs COMMAND (a vprinter with --config and --no-dnssd) RUNS
                                                 times; ready = GET /readyz answers 200; prints
                                                 "median_ms min_ms max_ms peak_mb cpu_ms" (peak: the largest VmHWM;
                                                 cpu: the median CPU time used until ready, which a loaded
                                                 machine does not inflate as it does the wall time)
"""
import json
import os
import signal
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request

# A fleet that is not ready after this long counts as a failed run.
TIMEOUT_SECONDS = 120


def write_config(count, path):
    printers = [{"name": "bench-%04d" % index, "profile": "duplex-laser" if index % 2 else "color-inkjet"}
                for index in range(count)]
    with open(path, "w") as file:
        json.dump({"printers": printers}, file)


def ready(base):
    try:
        with urllib.request.urlopen(base + "/readyz", timeout=5) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


def cpu_milliseconds(pid):
    """User and system time the process used so far (it waits for nothing else), in milliseconds."""
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def peak_megabytes(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return 0


def one_run(command):
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        uri = process.stdout.readline().decode().strip()
        if not uri.startswith("ipp://"):
            raise RuntimeError("vprinter printed no URI")
        base = "http://" + uri[len("ipp://"):].split("/", 1)[0]
        while not ready(base):
            if time.monotonic() - started > TIMEOUT_SECONDS or process.poll() is not None:
                raise RuntimeError("not ready after %d s" % TIMEOUT_SECONDS)
            time.sleep(0.005)
        elapsed = (time.monotonic() - started) * 1000
        return elapsed, peak_megabytes(process.pid), cpu_milliseconds(process.pid)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


def main(argv):
    if len(argv) == 4 and argv[1] == "config":
        write_config(int(argv[2]), argv[3])
        return 0
    if len(argv) > 4 and argv[1] == "startup" and argv[3] == "--":
        runs = [one_run(argv[4:]) for _ in range(int(argv[2]))]
        times = [elapsed for elapsed, _, _ in runs]
        print("%.0f %.0f %.0f %.0f %.0f" % (statistics.median(times), min(times), max(times),
                                            max(peak for _, peak, _ in runs), statistics.median(c for _, _, c in runs)))
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
