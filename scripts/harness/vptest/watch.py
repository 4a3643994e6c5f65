"""A command that runs in the background while a test goes on (``avahi-browse -p -r -k``, ``ippfind -T 60``), each
line of its output kept with the moment it came, so that a test can tell how long after some event a client saw
something.

    watcher = Watch(["avahi-browse", "-p", "-r", "-k", "_ipp._tcp"])
    started = time.monotonic()
    ...                                    # start a printer
    seen = watcher.first(lambda line: name in line)      # (moment, line), or None after the limit
    watcher.stop()
"""
import subprocess
import threading
import time

from .waiting import WAIT_LIMIT


class Watch:
    """Runs ``command`` (its standard output read line by line, its errors dropped); ``lines`` holds
    (time.monotonic() when the line came, the line without its newline)."""

    def __init__(self, command):
        self.command = list(command)
        self.lines = []
        self.changed = threading.Condition()
        self.process = subprocess.Popen(self.command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        stdin=subprocess.DEVNULL, text=True, bufsize=1)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        for line in self.process.stdout:
            with self.changed:
                self.lines.append((time.monotonic(), line.rstrip("\n")))
                self.changed.notify_all()

    def first(self, predicate, limit=WAIT_LIMIT):
        """Waits for the first line (of all so far and to come) for which ``predicate(line)`` is true; returns
        (moment, line), or None when none came within ``limit`` seconds or the command ended without one."""
        deadline = time.monotonic() + limit
        checked = 0
        with self.changed:
            while True:
                reading = self.thread.is_alive()
                for moment, line in self.lines[checked:]:
                    if predicate(line):
                        return moment, line
                checked = len(self.lines)
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not reading:
                    return None
                self.changed.wait(min(remaining, 0.5))

    def stop(self):
        """Ends the command (SIGTERM, then SIGKILL) and waits for it."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.thread.join(timeout=10)
