"""vprinter processes for tests, and the vprinter command line.

    printer = start("--profile", "color-inkjet", "--render-dpi", "72")
    job_id = printer.print_job(name="invoice", copies=2)
    [record] = printer.checked("GET", "/api/v1/wait?count=1", 200)
    printer.kill()                            # SIGKILL, as a crash would
    again = printer.restart("--on-restart", "abort")   # the same output folder

A printer listens on a free port (``--port 0``), is ready (its ready file written and GET /readyz answering 200)
when start returns, and does not advertise over DNS-SD unless ``dnssd=True``. It runs in the checkout (where it
finds ``profiles/``). The binary is VPRINTER (set by the stage scripts), else VPRINTER_BIN, else vprinter on PATH.
"""
import json
import os
import re
import shutil
import subprocess
import tempfile
import urllib.parse

from vprinter import ipp, server
from vprinter.client import job_id_of

from . import calls, openapi, waiting
from .documents import SAMPLE_PDF
from .paths import REPO

# Seconds a printer may take to be ready.
START_LIMIT = 60
# Seconds one run of the vprinter command line may take.
COMMAND_LIMIT = 120


def binary():
    """The vprinter binary of this run: VPRINTER, else VPRINTER_BIN, else vprinter on PATH."""
    return server.find_binary(os.environ.get("VPRINTER") or None)


class Printer(server.PrinterProcess):
    """One vprinter process, started by start(): a vprinter.Client of its first printer (``uri``, ``uris``,
    ``base_url``, ``output_dir``, ``log``, ``startup_seconds``, ``ready_seconds``, ``stop()``, ``kill()``,
    ``alive()``, ``wait()``, ``jobs()``...), with the calls the suites make besides. ``auth`` ("name:password")
    goes with every HTTP and IPP call of this object unless a call gives its own."""

    auth = None
    work_dir = None
    # The start() options this process was started with (restart() reuses them), and the list of processes
    # a fixture stops at the end of the test, which restart() adds to.
    options = None
    started = None
    # Whether start() made the work folder (a temporary one), so that whoever cleans up may remove it.
    temporary_work_dir = False

    @property
    def authority(self):
        """``host:port`` of the printer's URI."""
        return urllib.parse.urlsplit(self.uri).netloc

    @property
    def port(self):
        return urllib.parse.urlsplit(self.uri).port

    @property
    def path(self):
        """The resource of the first printer (``/ipp/print``)."""
        return urllib.parse.urlsplit(self.uri).path

    @property
    def log_path(self):
        return self._log_path

    def restart(self, *arguments, **changes):
        """Starts the printer again on the same output folder, after stopping it (SIGTERM) if it still runs: with
        the options it was started with, ``changes`` replacing some, and ``arguments`` (when given) replacing its
        arguments. Returns the new Printer."""
        if not self.stopped:
            self.stop()
        options = dict(self.options, **changes)
        given = options.pop("arguments")
        again = start(*(arguments or given), output_dir=self.output_dir, work_dir=self.work_dir, started=self.started,
                      **options)
        again.temporary_work_dir = self.temporary_work_dir
        return again

    # --- HTTP ---

    def http(self, method, path, body=None, headers=None, auth=None, timeout=calls.CALL_LIMIT):
        """An HTTP call to this process (``path`` from the root, query included); its Answer for any status."""
        return calls.call(method, self.base_url + path, body, headers, auth or self.auth, timeout, self.ssl_context)

    def checked(self, method, path, status=200, body=None, headers=None, content_type=calls.JSON, auth=None):
        """An API call checked against docs/openapi.json (see openapi.checked); the decoded JSON, or the bytes."""
        return openapi.checked(method, self.base_url + path, status, body, headers, content_type, auth or self.auth)

    def wait_for_job_state(self, job, state="completed", limit=waiting.WAIT_LIMIT):
        """Waits until a job (its id or record) is in ``state``, any job-state (``pending-held``,
        ``processing-stopped``...), reading its record with this object's credentials, checked against
        docs/openapi.json; returns the record. Fails naming the state it was in last."""
        path = "/api/v1/jobs/%d" % job_id_of(job)
        states = []

        def reached():
            record = self.checked("GET", path)
            states.append(record["job-state"])
            return record if record["job-state"] == state else None
        record = waiting.wait_until(reached, limit)
        assert record, "job %d was not %s within %s s: it is %s" % (job_id_of(job), state, limit, states[-1])
        return record

    # --- IPP ---

    def ipp(self, operation, operation_attributes=None, job_attributes=None, groups=(), document=b"", uri=None,
            user="pytest", auth=None, headers=None, **request_options):
        """Sends an IPP request to this printer (or to ``uri``, another printer of the process) and returns the
        decoded answer (a vprinter.ipp.Message) whatever its IPP status. The operation attributes are
        ``requesting-user-name`` (unless ``user`` is None), then ``operation_attributes`` (a dict, pairs, or bytes
        already encoded); ``request_options`` are vprinter.ipp.request()'s (version, request_id, target, charset,
        natural_language). Raises vprinter.IPPError for an HTTP status other than 200."""
        uri = uri or self.uri
        body = self.ipp_request(operation, operation_attributes, job_attributes, groups, uri, user, **request_options)
        return ipp.send(uri, body, document, headers=self._ipp_headers(auth, headers), context=self.ssl_context)

    def ipp_request(self, operation, operation_attributes=None, job_attributes=None, groups=(), uri=None,
                    user="pytest", **request_options):
        """The encoded request (up to end-of-attributes) that ipp() sends with these arguments."""
        attributes = operation_attributes or []
        if isinstance(attributes, (bytes, bytearray)):
            attributes = (b"" if user is None else ipp.attribute("requesting-user-name", user)) + attributes
        else:
            pairs = attributes.items() if isinstance(attributes, dict) else attributes
            attributes = ([] if user is None else [("requesting-user-name", user)]) + list(pairs)
        return ipp.request(operation, uri or self.uri, attributes, job_attributes, groups, **request_options)

    def ipp_exchange(self, operation, operation_attributes=None, job_attributes=None, groups=(), document=b"",
                     uri=None, user="pytest", auth=None, headers=None, **request_options):
        """ipp() for a request whose HTTP answer matters (401 without credentials, 426 for credentials in the
        clear): returns (the vprinter.ipp.HTTPAnswer, its decoded Message, or None when the HTTP status is not
        200). ``uri`` may name the printer with another scheme (ipp:// on a --tls printer's port)."""
        uri = uri or self.uri
        body = self.ipp_request(operation, operation_attributes, job_attributes, groups, uri, user, **request_options)
        answer = ipp.exchange(uri, body + bytes(document), headers=self._ipp_headers(auth, headers),
                              context=self.ssl_context)
        return answer, ipp.decode_message(answer.body) if answer.status == 200 else None

    def _ipp_headers(self, auth, headers):
        fields = {"User-Agent": calls.USER_AGENT}
        if auth or self.auth:
            fields["Authorization"] = calls.basic_auth(auth or self.auth)
        fields.update(headers or {})
        return fields

    def print_job(self, document=None, name="pytest", user="pytest", document_format="application/pdf", uri=None,
                  auth=None, **job_attributes):
        """Print-Job with ``document`` (bytes or a file path; default the sample PDF) and the job ticket as
        keywords (``copies=2``, ``print_color_mode="monochrome"``, ``page_ranges=(2, 3)``, ``finishings=4``);
        asserts a successful status (0x0000 to 0x00FF) and returns the job-id."""
        if document is None:
            document = SAMPLE_PDF
        elif not isinstance(document, (bytes, bytearray)):
            with open(document, "rb") as file:
                document = file.read()
        answer = self.ipp(ipp.PRINT_JOB, {"job-name": name, "document-format": document_format}, job_attributes,
                          document=document, uri=uri, user=user, auth=auth)
        assert ipp.successful(answer.status), "Print-Job answered status 0x%04x: %s" % (
            answer.status, answer.status_message)
        assert answer.job_id, "Print-Job answered no job-id"
        return answer.job_id

    def remove_files(self):
        """Stops the printer if it runs and removes its work folder (output, log and ready file)."""
        if not self.stopped:
            self.stop()
        shutil.rmtree(self.work_dir, ignore_errors=True)


def start(*arguments, output_dir=None, work_dir=None, env=None, dnssd=False, name=None, profile=None,
          scenario=None, auth=None, binary_path=None, timeout=START_LIMIT, cwd=REPO, started=None):
    """Starts vprinter with ``arguments`` (command-line options, after the harness's own, so they win) and returns
    the Printer once it is ready.

    ``work_dir`` holds its ready file, log (``vprinter.log``) and, unless ``output_dir`` names another, its output
    folder (``output``); default: a new temporary folder. ``env``: variables added to the environment.
    ``profile``, ``scenario``: a name or file, or a list. ``auth``: the credentials its calls send. ``started``:
    a list the new Printer (and those restart() makes) is added to.
    """
    temporary = not work_dir
    work_dir = os.fspath(work_dir) if work_dir else tempfile.mkdtemp(prefix="vptest-")
    printer = server.start(profile=profile, name=name, output_dir=output_dir, dnssd=dnssd, scenario=scenario,
                           args=arguments, env=env, binary=binary_path or binary(), timeout=timeout, work_dir=work_dir,
                           cwd=cwd, process_class=Printer)
    printer.work_dir = work_dir
    printer.temporary_work_dir = temporary
    printer.auth = auth
    printer.options = dict(arguments=arguments, env=env, dnssd=dnssd, name=name, profile=profile, scenario=scenario,
                           auth=auth, binary_path=binary_path, timeout=timeout, cwd=cwd)
    printer.started = started
    if started is not None:
        started.append(printer)
    return printer


def run_vprinter(*arguments, timeout=COMMAND_LIMIT, env=None):
    """Runs the vprinter command line (``vprinter jobs --json``, ``vprinter compare A B``) with ``env`` added to
    this environment; returns (exit status, stdout, stderr)."""
    done = subprocess.run([binary(), *arguments], capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, **(env or {})))
    return done.returncode, done.stdout, done.stderr


# A line of `vprinter profiles --show`: an attribute in ipptool's text form, "name (syntax) = value".
SHOWN_ATTRIBUTE = re.compile(r"^(?P<name>[a-z][a-z0-9-]*) \((?P<syntax>[^)]*)\) = (?P<value>.*)$")


# How `vprinter profiles` marks a profile that is a scanner alone (no IPP printer).
SCANNER_ONLY = "(scanner only)"


def profile_names(printing=True):
    """The shipped profiles' names: the first column of `vprinter profiles`, else (when the binary does not
    answer) the names of profiles/*.json in the checkout. ``printing``: only those that print, leaving out a
    scanner alone (document-scanner), which answers no IPP."""
    try:
        status, listing, _ = run_vprinter("profiles")
    except (OSError, server.StartError):
        status, listing = 1, ""
    if status == 0:
        return [line.split()[0] for line in listing.splitlines()
                if line.strip() and not (printing and line.rstrip().endswith(SCANNER_ONLY))]
    return shipped_profiles(printing)


def shipped_profiles(printing=True):
    """The names of profiles/*.json in the checkout, sorted; ``printing``: leaving out those whose scanner is
    ``scanOnly``."""
    def scans_only(path):
        return bool(json.loads(path.read_text()).get("scanner", {}).get("scanOnly"))

    return sorted(path.stem for path in (REPO / "profiles").glob("*.json") if not (printing and scans_only(path)))


def profile_attributes(profile):
    """The printer attributes a profile (a name or a file) gives, as `vprinter profiles --show` prints them:
    {name: value as text (a 1setOf comma-separated)}; empty when the binary refuses the profile."""
    status, shown, _ = run_vprinter("profiles", "--show", os.fspath(profile))
    if status != 0:
        return {}
    return {match["name"]: match["value"] for match in map(SHOWN_ATTRIBUTE.match, shown.splitlines()) if match}
