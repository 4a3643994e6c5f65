"""Starting and stopping a vprinter process for a test.

    with vprinter.start(profile="color-inkjet") as printer:
        printer.print_file("photo.jpg")
        printer.wait(1)

The binary is the one given, else ``VPRINTER_BIN``, else ``vprinter`` on PATH. The process listens on a free
port (``--port 0``), records jobs in its own output folder, and does not advertise over DNS-SD unless asked.
"""
import os
import shutil
import signal
import subprocess
import tempfile
import time

from . import ipp
from .client import Client, VPrinterError

# Seconds to wait for the printer to be ready, and for it to stop after SIGTERM before it is killed.
START_TIMEOUT = 30
STOP_TIMEOUT = 15
# How much of the printer's log an error message quotes, in characters.
LOG_TAIL = 2000


class StartError(VPrinterError):
    """The printer did not start: the binary is missing, it exited, or it was not ready in time."""


def find_binary(binary=None):
    """The vprinter executable: ``binary``, else VPRINTER_BIN, else vprinter on PATH."""
    candidate = binary or os.environ.get("VPRINTER_BIN")
    if candidate:
        found = shutil.which(candidate) if os.sep not in candidate else candidate
        if not found or not os.access(found, os.X_OK):
            raise StartError("vprinter binary %r is not an executable file" % candidate)
        return os.path.abspath(found)
    found = shutil.which("vprinter")
    if not found:
        raise StartError("no vprinter binary: put vprinter on PATH or set VPRINTER_BIN to its path")
    return found


class PrinterProcess(Client):
    """A running vprinter process and a Client of its first printer.

    ``uris`` lists every printer's URI (one per printer of the process), ``output_dir`` is its output folder,
    ``log`` what it wrote on stderr so far (a printer started again in the same folder adds to it),
    ``startup_seconds`` how long it took to write its URIs (to accept connections), ``ready_seconds`` how long
    until GET /readyz answered 200. A printer with TLS (``--tls``) gives ipps:// URIs; its own client accepts its
    self-signed certificate.
    """

    def __init__(self, binary, output_dir, arguments, env, log_path, ready_path, timeout, cwd=None):
        self._log_path = log_path
        self._log_file = open(log_path, "ab")
        self.command = [binary, *arguments]
        started = time.monotonic()
        self.process = subprocess.Popen(self.command, stdin=subprocess.DEVNULL, stdout=self._log_file,
                                        stderr=self._log_file, env=env, cwd=cwd, start_new_session=True)
        self.stopped = False
        try:
            uris = self._await_ready_file(ready_path, timeout)
            self.startup_seconds = time.monotonic() - started
            super().__init__(uris[0], output_dir=output_dir, binary=binary, ssl_context=ipp.insecure_context())
            self.uris = uris
            self._await_ready(timeout)
            self.ready_seconds = time.monotonic() - started
        except BaseException:
            self._terminate()
            raise

    @property
    def log(self):
        """What the printer wrote on stderr (and stdout) so far."""
        if not self._log_file.closed:
            self._log_file.flush()
        with open(self._log_path, "rb") as file:
            return file.read().decode("utf-8", "replace")

    def _failure(self, what):
        tail = self.log[-LOG_TAIL:].strip()
        return StartError("%s\ncommand: %s\nlog:\n%s" % (what, " ".join(self.command), tail or "(empty)"))

    def _await_ready_file(self, path, timeout):
        deadline = time.monotonic() + timeout
        while True:
            try:
                with open(path) as file:
                    text = file.read()
            except FileNotFoundError:
                text = ""
            if text.endswith("\n"):
                uris = [line.strip() for line in text.splitlines() if line.strip()]
                if uris:
                    return uris
            status = self.process.poll()
            if status is not None:
                raise self._failure("vprinter exited with status %d before it was ready" % status)
            if time.monotonic() >= deadline:
                raise self._failure("vprinter wrote no URI to its ready file within %s s" % timeout)
            time.sleep(0.02)

    def _await_ready(self, timeout):
        """Waits for GET /readyz to answer 200: every printer accepting jobs and, with DNS-SD, advertised."""
        deadline = time.monotonic() + timeout
        answer = None
        while True:
            ready, answer = self.readyz()
            if ready:
                return
            if self.process.poll() is not None:
                raise self._failure("vprinter exited with status %d" % self.process.returncode)
            if time.monotonic() >= deadline:
                raise self._failure("vprinter was not ready within %s s: %s" % (timeout, answer))
            time.sleep(0.05)

    def _terminate(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log_file.close()

    def kill(self):
        """Kills the printer with SIGKILL, as a crash or a power cut would, and waits for it to go; returns its
        exit status. Its output folder stays as the kill left it."""
        if not self.stopped:
            self.stopped = True
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGKILL)
            self.process.wait()
            self._log_file.close()
        return self.process.returncode

    def alive(self):
        """Whether the process is still running."""
        return self.process.poll() is None

    def stop(self):
        """Stops the printer (SIGTERM, then SIGKILL after STOP_TIMEOUT s). Raises VPrinterError when it had
        exited by itself before, or did not exit cleanly: a printer that crashed during a test fails it."""
        if self.stopped:
            return self.process.returncode
        self.stopped = True
        died_before = self.process.poll()
        self._terminate()
        status = self.process.returncode
        if died_before is not None:
            raise self._failure("vprinter exited by itself with status %d during the test" % died_before)
        if status != 0:
            raise self._failure("vprinter did not shut down cleanly after SIGTERM: status %d" % status)
        return status

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if exc[0] is None:
            self.stop()
        else:
            try:
                self.stop()
            except VPrinterError:
                pass  # the test's own error is the one to see
        return False


def stop_all(processes):
    """Stops every process, the last started first; returns the messages of those that had exited by themselves
    or did not stop cleanly (a test that started them fails with these)."""
    problems = []
    for process in reversed(processes):
        try:
            process.stop()
        except VPrinterError as error:
            problems.append(str(error))
    return problems


def log_sections(processes, tail):
    """(title, the last ``tail`` characters of its log) of each process, for a failing test's report."""
    sections = []
    for process in processes:
        try:
            log = process.log[-tail:]
        except (OSError, ValueError):
            continue
        sections.append(("vprinter %s (output %s)" % (process.uri, process.output_dir), log))
    return sections


def start(profile=None, name=None, output_dir=None, dnssd=False, scenario=None, args=(), env=None, binary=None,
          timeout=START_TIMEOUT, work_dir=None, cwd=None, process_class=PrinterProcess):
    """Starts vprinter on a free port; returns a PrinterProcess once GET /readyz answers 200.

    ``profile`` is a shipped profile's name or a profile file (a list for several printers), ``scenario`` a
    scenario name or file (a list for several), ``args`` further command-line options (``["--render-dpi",
    "72"]``; they come last, so they win), ``env`` variables added to the environment, ``cwd`` the folder it runs
    in (it also finds profiles in ``./profiles``). The output folder is ``output_dir``, else ``output`` in
    ``work_dir`` (default: a new temporary folder), which also holds the ready file and the log
    (``vprinter.log``). ``process_class`` is the class of the result: PrinterProcess or a subclass of it.
    """
    executable = find_binary(binary)
    work_dir = os.fspath(work_dir) if work_dir else tempfile.mkdtemp(prefix="vprinter-")
    os.makedirs(work_dir, exist_ok=True)
    output_dir = os.fspath(output_dir) if output_dir else os.path.join(work_dir, "output")
    ready_path = os.path.join(work_dir, "ready.txt")
    if os.path.exists(ready_path):
        os.remove(ready_path)
    arguments = ["--port", "0", "--ready-file", ready_path, "--output-dir", output_dir]
    if not dnssd:
        arguments.append("--no-dnssd")
    for item in ([profile] if isinstance(profile, str) else list(profile or [])):
        arguments += ["--profile", os.fspath(item)]
    if name:
        arguments += ["--name", name]
    for item in ([scenario] if isinstance(scenario, str) else list(scenario or [])):
        arguments += ["--scenario", os.fspath(item)]
    arguments += [os.fspath(argument) for argument in args]
    environment = dict(os.environ)
    environment.update({key: str(value) for key, value in (env or {}).items()})
    return process_class(executable, output_dir, arguments, environment, os.path.join(work_dir, "vprinter.log"),
                         ready_path, timeout, cwd=cwd)
