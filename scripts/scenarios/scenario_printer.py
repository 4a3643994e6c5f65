"""A printer under test driven as the scenario suite drives it: ipptool with the files of Tests/ipptool/scenarios as
the IPP client, the JSON API (checked against docs/openapi.json) for recovery and for the job records.

Each ipptool run's command and output go to a numbered log in the test's artifacts folder
(``03-wait-job.log``), so that a failure can be read step by step.
"""
import urllib.parse

from vptest import ipptool
from vptest.paths import REPO

TESTS = REPO / "Tests" / "ipptool" / "scenarios"

# printer-state (RFC 8011, 5.4.11) and job-state (5.3.7) as ipptool's EXPECT ... WITH-VALUE takes them.
IDLE, PROCESSING, STOPPED = 3, 4, 5
JOB_PROCESSING, JOB_PROCESSING_STOPPED, JOB_COMPLETED = 5, 6, 9


class ScenarioPrinter:
    """``printer`` (a vptest Printer) played with ipptool; ``document`` the PDF it prints, ``log_folder`` where
    the runs' logs go."""

    def __init__(self, printer, document, log_folder):
        self.printer = printer
        self.document = document
        self.log_folder = log_folder
        self.runs = 0

    # --- ipptool ---

    def ipptool(self, test_file, tests=TESTS, **variables):
        """Runs one ipptool file (in ``tests``) against the printer with ``-d`` variables; returns its Report."""
        self.runs += 1
        log = self.log_folder / ("%02d-%s.log" % (self.runs, test_file.rsplit(".", 1)[0]))
        return ipptool.run(self.printer.uri, tests / test_file, document=self.document, variables=variables, log=log)

    def passes(self, what, test_file, **variables):
        """Runs an ipptool file that must pass; ``what`` names the check in the failure message."""
        report = self.ipptool(test_file, **variables)
        assert report.passed, "%s: %s" % (what, report.describe())
        return report

    def printer_reaches(self, what, state, reason):
        """Waits (wait-printer.test: 60 tries, half a second apart) for printer-state STATE with a reason that is
        REASON."""
        self.passes(what, "wait-printer.test", state=state, reason="/^%s$/" % reason)

    def job_reaches(self, what, job, state, reason):
        """Waits (wait-job.test: 60 tries, half a second apart) for the job's job-state STATE with a reason that is
        REASON."""
        self.passes(what, "wait-job.test", job=job, state=state, reason="/^%s$/" % reason)

    def subscribe(self):
        """Create-Printer-Subscriptions for printer-state-changed, job-state-changed and job-completed (ippget);
        the subscription's id."""
        return int(self.passes("Create-Printer-Subscriptions", "subscribe.test").first("notify-subscription-id"))

    def print_pdf(self):
        """Print-Job of the document, which must be accepted; the job's id."""
        return int(self.passes("Print-Job accepted", "print-job.test").first("job-id"))

    def events(self, subscription):
        """The subscription's events so far (Get-Notifications), each (notify-subscribed-event, its
        printer-state-reasons): the n-th reasons ipptool shows belong to the n-th event."""
        report = self.passes("Get-Notifications", "notifications.test", sub=subscription)
        events = [values[0] for values in report.displayed("notify-subscribed-event")]
        reasons = report.displayed("printer-state-reasons")
        assert len(events) == len(reasons), "each event carries printer-state-reasons: %s" % report.describe()
        return list(zip(events, reasons))

    def assert_notified(self, what, subscription, event, reason=None):
        """Asserts that the subscription got EVENT, with REASON among its printer-state-reasons when given."""
        events = self.events(subscription)
        assert any(name == event and (reason is None or reason in reasons) for name, reasons in events), (
            "%s: no %s event%s among %s" % (what, event, " with %s" % reason if reason else "", events))

    # --- the JSON API ---

    def api(self, method, path, body=None, status=200):
        """A call under this printer's API path (``/faults``, ``/trays``), checked against docs/openapi.json."""
        name = urllib.parse.quote(self.printer.name, safe="")
        return self.printer.checked(method, "/api/v1/printers/%s%s" % (name, path), status, body)

    def fault_names(self):
        """The names of the printer's faults (fired or waiting)."""
        return [fault["name"] for fault in self.api("GET", "/faults")]

    def records(self):
        """Every job record, oldest first."""
        return self.printer.checked("GET", "/api/v1/jobs")

    def states_of(self, job):
        """The job-states the job's record went through, in order (its history)."""
        record = self.printer.checked("GET", "/api/v1/jobs/%d" % job)
        return [entry["job-state"] for entry in record["history"]]
