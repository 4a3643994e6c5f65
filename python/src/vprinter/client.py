"""A client of one vprinter process's JSON API (docs/api.md), standard library only.

    client = Client("ipp://localhost:8631/ipp/print")
    job_id = client.print_file("invoice.pdf", sides="two-sided-long-edge")
    [job] = client.wait(1, name="invoice.pdf")
    assert "Invoice 42" in client.text(job)

Filters are those of GET /api/v1/jobs, as keyword arguments (``color_mode`` for ``color-mode``; for state,
format, media, sides and color_mode a list matches any of its values).
"""
import datetime
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

from . import ipp

# Seconds an API call may take beyond what it asks the server to wait.
CALL_MARGIN = 15
# Job states after which a job changes no more.
ENDED_STATES = ("completed", "canceled", "aborted")
# How often a job's record is read while waiting for it to end, in seconds (the first, and at most).
POLL_FIRST = 0.02
POLL_MOST = 0.5


class VPrinterError(Exception):
    """Something vprinter answered or did that the test did not expect."""


class APIError(VPrinterError):
    """An HTTP error status from the API; ``status`` and ``body`` (decoded JSON when it is JSON)."""

    def __init__(self, method, url, status, body):
        message = body.get("error") if isinstance(body, dict) else None
        super().__init__("%s %s: HTTP %d%s" % (method, url, status, ": " + message if message else ""))
        self.status = status
        self.body = body


class WaitTimeout(VPrinterError):
    """Fewer jobs than asked for ended in time; ``jobs`` holds those that did."""

    def __init__(self, message, jobs):
        super().__init__(message)
        self.jobs = jobs


class RequestsTimeout(VPrinterError):
    """Fewer requests than asked for came in time; ``requests`` holds those that did."""

    def __init__(self, message, requests):
        super().__init__(message)
        self.requests = requests


class Verification(dict):
    """The answer of a verification (POST /api/v1/requests/verify): true when it passed. ``repr`` says what was
    expected and, on a failure, each near miss and what it missed."""

    def __bool__(self):
        return bool(self.get("pass"))

    def __repr__(self):
        lines = ["Verification(%s: %s)" % ("pass" if self else "FAIL", self.get("message", ""))]
        for miss in self.get("nearMisses", []):
            lines.append("  near miss: request %s (%s): %s" % (miss.get("id"), miss.get("operation"),
                                                              "; ".join(miss.get("missed", []))))
        return "\n".join(lines)


class PrintedText(str):
    """The text printed on a job's sides, one string (sides separated by a form feed) that ``in`` can search.

    ``sides`` holds each side's text in order, ``sources`` how each was obtained (``pdf`` or ``ocr``), and
    ``messages`` why a side has no text (OCR off, no rendering), keyed by side number.
    """

    def __new__(cls, sides, sources, messages):
        text = super().__new__(cls, "\f".join(sides))
        text.sides = list(sides)
        text.sources = list(sources)
        text.messages = dict(messages)
        return text


class CompareResult:
    """What ``vprinter compare`` found: true when every side passed. Its repr names the sides that did not."""

    def __init__(self, report, command):
        self.report = report
        self.command = command
        self.passed = bool(report.get("passed"))
        self.sides = report.get("sides", [])
        self.updated = False

    def __bool__(self):
        return self.passed

    @property
    def failures(self):
        return [side for side in self.sides if not side.get("passed")]

    def describe(self):
        lines = []
        for side in self.sides:
            name = os.path.basename(side.get("actual") or side.get("expected") or "-")
            line = "side %s %s %s" % (side.get("number"), name, "pass" if side.get("passed") else "FAIL")
            if side.get("psnr") is not None:
                line += " PSNR %.2f dB" % side["psnr"]
            if side.get("ssim") is not None:
                line += " SSIM %.4f" % side["ssim"]
            if side.get("message") and side.get("message") != "identical":
                line += " " + side["message"]
            if side.get("diff"):
                line += " diff: " + side["diff"]
            lines.append(line)
        return "\n".join(lines) or "no sides"

    def __repr__(self):
        return "CompareResult(passed=%s:\n%s)" % (self.passed, self.describe())


def _filter_value(value):
    if isinstance(value, (list, tuple, set)):
        return ",".join(_filter_value(item) for item in value)
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=datetime.timezone.utc)
        return value.isoformat()
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# Filters that match one value exactly (a name may hold a comma; a finding's severity and a rule are one each); the
# others take a list of values to match any.
SINGLE_VALUE_FILTERS = ("printer", "name", "user", "text", "since", "finding", "rule")


def query(filters):
    """Query parameters of keyword filters: ``color_mode="monochrome"`` -> ``color-mode=monochrome``; a list
    (``state=["completed", "aborted"]``) matches any of its values."""
    pairs = []
    for name, value in filters.items():
        if value is None:
            continue
        name = name.replace("_", "-")
        if name in SINGLE_VALUE_FILTERS and isinstance(value, (list, tuple, set)):
            raise ValueError("the %s filter matches one value, not a list" % name)
        pairs.append((name, _filter_value(value)))
    return urllib.parse.urlencode(pairs)


def plain_file_name(name):
    """``name`` when it is a plain file name as a job record gives them (``page-0001.png``); a VPrinterError for
    anything that could reach outside the folder it is joined to: a path, ``..``, an empty or non-text name. The
    client writes files under these names, and a record is the server's word."""
    if not isinstance(name, str) or name in ("", ".", "..") or "/" in name or "\\" in name or "\0" in name:
        raise VPrinterError("the record names a file %r, which is no plain file name" % (name,))
    return name


def job_id_of(job):
    """A job id from an id or a job record."""
    if isinstance(job, dict):
        return int(job["job-id"])
    return int(job)


class Client:
    """The API of the vprinter process that serves ``uri`` (an ipp:// or ipps:// printer URI, or the http:// or
    https:// base; ``ssl_context`` is the TLS context for https and ipps, by default one that verifies).

    ``printer`` scopes the job calls (jobs, wait, reset) and the printer calls (fault, power) to one printer
    of the process by its name; without it, job calls see every printer's jobs and printer calls act on the
    printer the URI names.
    """

    def __init__(self, uri, printer=None, api_token=None, output_dir=None, binary=None, ssl_context=None):
        parts = urllib.parse.urlsplit(uri)
        if parts.scheme not in ("ipp", "http", "ipps", "https"):
            raise ValueError("a vprinter URI is ipp[s]://HOST:PORT/ipp/print or http[s]://HOST:PORT, not %r" % uri)
        secure = parts.scheme in ("ipps", "https")
        self.base_url = "%s://%s" % ("https" if secure else "http", parts.netloc)
        path = parts.path if parts.scheme in ("ipp", "ipps") and parts.path else "/ipp/print"
        self.uri = "%s://%s%s" % ("ipps" if secure else "ipp", parts.netloc, path)
        self.printer = printer
        self.api_token = api_token
        self.output_dir = output_dir
        self.binary = binary
        # The TLS context of https:// calls and ipps:// jobs (None: one that verifies the certificate).
        self.ssl_context = ssl_context
        self.update_goldens = False

    # --- HTTP ---

    def call(self, method, path, body=None, timeout=30, expect=(200,)):
        """One API call; returns the decoded JSON (or the bytes of another content type). Raises APIError."""
        return self._exchange(method, path, body, timeout, expect)[0]

    def _exchange(self, method, path, body=None, timeout=30, expect=(200,)):
        """call() that also returns the answer's headers."""
        url = self.base_url + path
        data = None
        headers = {}
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if self.api_token:
            headers["Authorization"] = "Bearer " + self.api_token
        request = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=timeout, context=self._context()) as response:
                status, headers, raw = response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            status, headers, raw = error.code, error.headers, error.read()
        content_type = headers.get("Content-Type", "")
        value = raw
        if content_type.split(";")[0].strip() == "application/json":
            value = json.loads(raw.decode("utf-8")) if raw else None
        if status not in expect:
            raise APIError(method, url, status, value)
        return value, headers

    def _context(self):
        return self.ssl_context if self.base_url.startswith("https:") else None

    def _printer_path(self, name=None):
        name = name or self.printer or self.printer_record()["printer-name"]
        return "/api/v1/printers/" + urllib.parse.quote(name, safe="")

    def _scoped(self, filters):
        if self.printer and "printer" not in filters:
            filters = dict(filters, printer=self.printer)
        return filters

    # --- printers ---

    def printers(self):
        """Every printer of the process, as GET /api/v1/printers lists them."""
        return self.call("GET", "/api/v1/printers")

    def printer_record(self):
        """This printer's entry of GET /api/v1/printers (the one named, else the one the URI's path names)."""
        printers = self.printers()
        for entry in printers:
            if self.printer and entry.get("printer-name") == self.printer:
                return entry
            if not self.printer and self.uri in entry.get("printer-uri-supported", []):
                return entry
        path = urllib.parse.urlsplit(self.uri).path
        for entry in printers:
            if not self.printer and entry.get("resource") == path:
                return entry
        raise VPrinterError("no printer %s in %s" % (self.printer or self.uri, self.base_url))

    @property
    def name(self):
        """The printer's printer-name."""
        return self.printer or self.printer_record()["printer-name"]

    def add_printer(self, name, profile=None, scenario=None, **options):
        """Creates a printer at runtime (POST /api/v1/printers); returns a Client scoped to it."""
        body = {"name": name}
        if profile:
            body["profile"] = profile
        if scenario:
            body["scenario"] = scenario
        body.update({key.replace("_", "-"): value for key, value in options.items()})
        created = self.call("POST", "/api/v1/printers", body, expect=(201,))
        uris = created.get("printer-uri-supported") or []
        scheme = urllib.parse.urlsplit(self.uri).scheme
        uri = next((u for u in uris if u.startswith(scheme + "://")), self.base_url + created.get("resource", ""))
        # The URI names the host this client used; keep it so that it resolves as this client's does.
        parts = urllib.parse.urlsplit(uri)
        here = urllib.parse.urlsplit(self.base_url)
        uri = "%s://%s%s" % (scheme, here.netloc if parts.port in (None, here.port) else parts.netloc, parts.path)
        client = Client(uri, printer=created["printer-name"], api_token=self.api_token,
                        output_dir=self.output_dir, binary=self.binary, ssl_context=self.ssl_context)
        client.update_goldens = self.update_goldens
        return client

    def remove_printer(self, name=None):
        """Deletes a runtime printer (DELETE /api/v1/printers/NAME); this client's own when no name is given."""
        return self.call("DELETE", self._printer_path(name))

    def power(self, on, printer=None):
        """Switches the printer off (its DNS-SD services withdrawn, its path silent) or on again."""
        return self.call("POST", self._printer_path(printer) + "/power", {"on": bool(on)})

    # --- faults ---

    def fault(self, effect=None, trigger="now", clear_after=None, name=None, printer=None, **effect_options):
        """Adds a fault (docs/scenarios.md) and returns its id.

        ``fault({"add-reasons": ["media-jam-error"]})``, or the same as ``fault(add_reasons=["media-jam-error"])``;
        ``trigger`` is ``"now"`` or a trigger object (``{"page": 2}``); ``clear_after`` undoes it after so many
        seconds.
        """
        effect = dict(effect or {})
        effect.update({key.replace("_", "-"): value for key, value in effect_options.items()})
        if not effect:
            raise ValueError("a fault needs an effect, e.g. add_reasons=['media-jam-error']")
        fault = {"trigger": trigger, "effect": effect}
        if clear_after is not None:
            fault["clear-after"] = clear_after
        if name:
            fault["name"] = name
        added = self.call("POST", self._printer_path(printer) + "/faults", fault, expect=(200, 201))
        ids = added.get("added", [])
        return ids[0] if len(ids) == 1 else ids

    def faults(self, printer=None):
        """The printer's faults, fired or waiting."""
        return self.call("GET", self._printer_path(printer) + "/faults")

    def clear_faults(self, fault_id=None, printer=None):
        """Clears one fault, or all; clearing undoes what fired faults did."""
        path = self._printer_path(printer) + "/faults"
        if fault_id is not None:
            path += "/%d" % int(fault_id)
        return self.call("DELETE", path)

    # --- jobs ---

    def print_file(self, document, document_format=None, job_name=None, user="pytest", timeout=60,
                   **job_attributes):
        """Prints a file path or bytes with IPP Print-Job to this printer; returns the job id. The job ticket
        is given as keywords: ``copies=2, sides="two-sided-long-edge", media="iso_a4_210x297mm"``."""
        if job_name is None:
            job_name = os.path.basename(os.fspath(document)) if not isinstance(document, (bytes, bytearray)) \
                else "pytest"
        return ipp.print_job(self.uri, document, document_format=document_format, job_name=job_name, user=user,
                             timeout=timeout, context=self.ssl_context, **job_attributes)

    def jobs(self, **filters):
        """Job records, oldest first, that pass the filters (``state="completed"``, ``user="alice"``,
        ``text="Invoice 42"``, ``since=3``, ``media="a4"``, ``sides="two-sided"``, ``color_mode=...``)."""
        filters = self._scoped(filters)
        return self._every_page("/api/v1/jobs" + ("?" + query(filters) if filters else ""))

    def _every_page(self, path):
        """The records of a paged listing (docs/api.md "Paging"), every page: the printer answers a page of at most
        1,000 records and names the next in a Link header."""
        records = []
        while path:
            page, headers = self._exchange("GET", path)
            records += page
            path = next_page(headers.get("Link"))
        return records

    def job(self, job):
        """One job record."""
        return self.call("GET", "/api/v1/jobs/%d" % job_id_of(job))

    def wait(self, count=1, timeout=30, **filters):
        """Blocks until ``count`` jobs that pass the filters have ended; returns those jobs (oldest first).
        Raises WaitTimeout, holding the jobs that did end, when fewer ended within ``timeout`` seconds."""
        return self._long_poll("/api/v1/wait", count, timeout, filters, "jobs", WaitTimeout, "jobs ended")

    def _long_poll(self, path, count, timeout, filters, listed, timeout_error, what):
        """GET ``path`` with count, timeout and the filters; on 408 raises ``timeout_error`` with the ``listed``
        entries of the answer, saying how many of ``count`` ``what`` within ``timeout`` seconds."""
        filters = self._scoped(filters)
        parameters = "count=%d&timeout=%s" % (count, timeout)
        if filters:
            parameters += "&" + query(filters)
        try:
            return self.call("GET", path + "?" + parameters, timeout=timeout + CALL_MARGIN)
        except APIError as error:
            if error.status != 408:
                raise
            found = error.body.get(listed, []) if isinstance(error.body, dict) else []
            raise timeout_error("%d of %d %s within %s s (filters %s)" % (len(found), count, what, timeout,
                                                                          filters or "none"), found) from None

    def wait_for_job(self, job, timeout=30):
        """Blocks until one job has ended; returns its record."""
        deadline = time.monotonic() + timeout
        delay = POLL_FIRST
        while True:
            record = self.job(job)
            if record.get("job-state") in ENDED_STATES:
                return record
            if time.monotonic() >= deadline:
                raise WaitTimeout("job %d did not end within %s s (it is %s)" % (
                    job_id_of(job), timeout, record.get("job-state")), [])
            time.sleep(delay)
            delay = min(delay * 2, POLL_MOST)

    def reset(self, **filters):
        """Forgets jobs and their files (DELETE /api/v1/jobs): all of them, or those the filters select.
        Returns how many were deleted."""
        filters = self._scoped(filters)
        suffix = "?" + query(filters) if filters else ""
        return self.call("DELETE", "/api/v1/jobs" + suffix).get("deleted", 0)

    # --- the request journal ---

    def requests(self, **filters):
        """The requests the process received (its request journal), oldest first, that pass the filters
        (``operation="Print-Job"``, ``status="successful-ok"``, ``client="CUPS"``, ``user="alice"``, ``job=3``,
        ``kind="ipp"``, ``since=12``, ``printer=...``; ``finding="warning"``: entries with a finding of that
        severity or above, ``rule="value-tag"``: entries with a finding of that rule). An entry's ``findings``
        list what its request did that a client should not (docs/api.md "Findings"). Every page of the answer
        (docs/api.md "Paging")."""
        filters = self._scoped(filters)
        return self._every_page("/api/v1/requests" + ("?" + query(filters) if filters else ""))

    def clients(self, printer=None):
        """What each client (address and User-Agent) sent and broke since the journal was last cleared
        (GET /api/v1/clients): ``{"clients": [{"address", "user-agent", "requests", "operations", "findings",
        "rules", ...}], "findings": {"error": N, "warning": N, "info": N}}``. ``printer`` names one printer
        (default: this client's printer, when it is scoped to one; else every printer)."""
        filters = self._scoped({} if printer is None else {"printer": printer})
        suffix = "?" + query(filters) if filters else ""
        return self.call("GET", "/api/v1/clients" + suffix)

    def wait_for_requests(self, count=1, timeout=30, **filters):
        """Blocks until ``count`` requests that pass the filters are in the journal; returns the first ``count``.
        Raises RequestsTimeout, holding those there were, after ``timeout`` seconds."""
        return self._long_poll("/api/v1/requests/wait", count, timeout, filters, "requests", RequestsTimeout,
                               "requests came")

    def clear_requests(self):
        """Empties the journal's memory (between tests); returns the number of the latest entry so far, which
        ``since`` can start after."""
        return self.call("DELETE", "/api/v1/requests")["last"]

    def verify(self, request=None, count=None, at_least=None, at_most=None, sequence=None, since=None):
        """Asks the journal a verification (POST /api/v1/requests/verify): how many requests match ``request`` (a
        matcher: ``{"operation": "Print-Job", "attributes": [{"name": "media", "equals": "iso_a4_210x297mm"}]}``;
        ``count``, ``at_least``, ``at_most``, at least one by default), or whether requests matching each matcher
        of ``sequence`` came in that order. Returns a Verification, true when it passed; its repr names the near
        misses, so ``assert printer.verify(...)`` says what came closest."""
        body = {}
        if sequence is not None:
            body["sequence"] = [self._scoped_matcher(matcher) for matcher in sequence]
        else:
            body["request"] = self._scoped_matcher(request or {})
        for key, value in (("count", count), ("atLeast", at_least), ("atMost", at_most), ("since", since)):
            if value is not None:
                body[key] = value
        return Verification(self.call("POST", "/api/v1/requests/verify", body=body))

    def _scoped_matcher(self, matcher):
        if self.printer and "printer" not in matcher:
            return dict(matcher, printer=self.printer)
        return matcher

    def text(self, job, timeout=60):
        """The text printed on each side of a job (PDF text, or OCR for raster pages), once the job has ended."""
        record = self.wait_for_job(job, timeout=timeout)
        answer = self.call("GET", "/api/v1/jobs/%d/text" % record["job-id"], timeout=timeout + CALL_MARGIN)
        sides, sources, messages = [], [], {}
        for side in answer.get("sides", []):
            sides.append(side.get("text") or "")
            sources.append(side.get("source"))
            if side.get("text") is None:
                messages[side.get("number")] = side.get("message", "no text")
        return PrintedText(sides, sources, messages)

    def file(self, job, name):
        """The bytes of one file of a job's folder (a page PNG, a document, a page's text)."""
        path = "/api/v1/jobs/%d/files/%s" % (job_id_of(job), urllib.parse.quote(name))
        value = self.call("GET", path)
        return value if isinstance(value, bytes) else json.dumps(value).encode()

    def job_folder(self, job):
        """The job's folder on this machine: in the output folder when it is known and there, else the job's
        page images fetched through the API into a new temporary folder."""
        record = self.job(job)
        if self.output_dir:
            folder = os.path.join(os.fspath(self.output_dir), "jobs", str(job_id_of(record)))
            if os.path.isdir(folder):
                return folder
        folder = tempfile.mkdtemp(prefix="vprinter-job-%d-" % record["job-id"])
        for impression in record.get("impressions", []):
            name = plain_file_name(impression.get("file"))
            with open(os.path.join(folder, name), "wb") as out:
                out.write(self.file(record, name))
        return folder

    def compare(self, job, golden_dir, min_psnr=None, min_ssim=None, max_diff_pixels=None, diff_dir=None,
                update=None, timeout=120, across_releases=False):
        """Compares a job's printed sides with golden PNG files through ``vprinter compare`` (docs/snapshots.md).

        Returns a CompareResult, true when every side passed. With ``update`` (default: the client's
        ``update_goldens``, set by pytest's ``--vprinter-update-goldens``) the job's sides become the goldens
        after the comparison, and the result is true. ``across_releases``: goldens made by another release of
        Poppler, Cairo and FreeType (``--across-releases``: glyphs a pixel apart pass, a real change fails).
        """
        record = self.wait_for_job(job, timeout=timeout)
        if not self.binary:
            raise VPrinterError("compare needs the vprinter binary: set VPRINTER_BIN or put vprinter on PATH")
        update = self.update_goldens if update is None else update
        folder = self.job_folder(record)
        golden_dir = os.fspath(golden_dir)
        if update:
            os.makedirs(golden_dir, exist_ok=True)
        command = [self.binary, "compare", folder, golden_dir, "--json"]
        for option, value in (("--min-psnr", min_psnr), ("--min-ssim", min_ssim),
                              ("--max-diff-pixels", max_diff_pixels), ("--diff", diff_dir)):
            if value is not None:
                command += [option, os.fspath(value) if option == "--diff" else str(value)]
        if update:
            command.append("--update")
        if across_releases:
            command.append("--across-releases")
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        finally:
            if not self.output_dir or not folder.startswith(os.fspath(self.output_dir)):
                shutil.rmtree(folder, ignore_errors=True)
        if done.returncode not in (0, 1) or not done.stdout.strip():
            raise VPrinterError("%s: exit status %d: %s" % (" ".join(command), done.returncode,
                                                           done.stderr.strip() or done.stdout.strip()))
        result = CompareResult(json.loads(done.stdout), command)
        if update and done.returncode == 0:
            result.updated = True
            result.passed = True
        return result

    # --- health ---

    def livez(self):
        """True while the process serves (GET /livez answers 200)."""
        try:
            self.call("GET", "/livez", timeout=5)
            return True
        except (APIError, OSError):
            return False

    def readyz(self):
        """GET /readyz: (ready, the answer's body)."""
        try:
            return True, self.call("GET", "/readyz", timeout=5)
        except APIError as error:
            return False, error.body

    def metrics(self):
        """GET /metrics, the Prometheus text."""
        value = self.call("GET", "/metrics")
        return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def next_page(link):
    """The path of the next page that a Link header names (``<path>; rel="next"``), or None."""
    for part in (link or "").split(","):
        target, _, parameters = part.strip().partition(";")
        if target.startswith("<") and target.endswith(">") and 'rel="next"' in parameters.replace(" ", ""):
            return target[1:-1]
    return None
