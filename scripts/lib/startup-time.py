#!/usr/bin/env python3
"""Measures how long a printer takes to be ready, over several runs, and prints the median in milliseconds.

Usage: startup-time.py --runs N --uri-line -- COMMAND ...       ready = the first ipp:// line on stdout
       startup-time.py --runs N --connect PORT -- COMMAND ...   ready = 127.0.0.1:PORT accepts a connection
Each run starts COMMAND, waits until it is ready (at most TIMEOUT_SECONDS), then stops it with SIGTERM.
Prints "median_ms min_ms max_ms" on stdout.
"""
import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import time

# A printer that is not ready after this long counts as a failed run.
TIMEOUT_SECONDS = 30


def wait_for_uri_line(process):
    for line in process.stdout:
        if line.startswith(b"ipp://") or line.startswith(b"ipps://"):
            return True
    return False


def wait_for_connect(process, port, deadline):
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.05):
                return True
        except OSError:
            time.sleep(0.001)
    return False


def one_run(command, port):
    start = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        if port is None:
            ready = wait_for_uri_line(process)
        else:
            ready = wait_for_connect(process, port, start + TIMEOUT_SECONDS)
        elapsed = time.monotonic() - start
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    if not ready:
        raise RuntimeError("not ready: " + " ".join(command))
    return elapsed * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10)
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--uri-line", action="store_true")
    group.add_argument("--connect", type=int)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command")
    signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(RuntimeError("timeout")))
    times = []
    for _ in range(args.runs):
        signal.alarm(TIMEOUT_SECONDS)
        times.append(one_run(command, args.connect))
        signal.alarm(0)
    print(f"{statistics.median(times):.1f} {min(times):.1f} {max(times):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
