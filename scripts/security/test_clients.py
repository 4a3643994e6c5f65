"""Real clients against a secured printer: avahi-browse sees _ipps._tcp with TLS and air, and CUPS prints
to ipps:// with credentials. Need the loopback Avahi daemon and the private cupsd of scripts/lib/services.sh
(scripts/security-test starts them, or reuses those of the test command)."""
import os

from vptest import avahi, cups, names
from vptest.documents import SAMPLE_PDF
from vptest.waiting import wait_until

# Seconds a CUPS job may take, from lp to the printer's record of it.
JOB_LIMIT = 120
ENDED = ("completed", "aborted", "canceled")


def browse(service_type, name):
    """The resolved avahi-browse entries of our service NAME (IPv4), each with its port and TXT as a dict."""
    return [dict(entry, txt=dict(entry["txt"])) for entry in avahi.browse(service_type, resolve=True)
            if entry["event"] == "=" and entry["protocol"] == "IPv4" and entry["name"] == name]


def test_avahi_browse_shows_ipps_with_tls_and_air(start_printer):
    name = names.unique("vp-security")
    printer = start_printer("--tls", "--user", "u:p", name=name, dnssd=True)
    services = wait_until(lambda: browse("_ipps._tcp", name))
    assert services, "no _ipps._tcp service named %s; vprinter said: %s" % (name, printer.log)
    txt = services[0]["txt"]
    assert services[0]["port"] == printer.port
    assert txt["TLS"] == "1.3" and txt["air"] == "username,password"
    assert txt["adminurl"].startswith("https://")
    plain = wait_until(lambda: browse("_ipp._tcp", name))
    assert plain and plain[0]["txt"]["TLS"] == "1.3"
    assert wait_until(lambda: browse("_universal._sub._ipps._tcp", name)), "no _universal subtype"


def test_tls_only_advertises_only_ipps(start_printer):
    name = names.unique("vp-security-only")
    start_printer("--tls-only", name=name, dnssd=True)
    assert wait_until(lambda: browse("_ipps._tcp", name))
    assert browse("_ipp._tcp", name) == []


def test_cups_prints_to_ipps_with_credentials(start_printer, tmp_path):
    assert os.environ.get("CUPS_SERVER"), "no private cupsd (CUPS_SERVER): run through scripts/security-test"
    printer = start_printer("--tls", "--user", "cupsuser:cups-secret", "--admin", "cupsuser",
                            auth="cupsuser:cups-secret")
    queue = names.unique("vp-security")
    uri = "ipps://cupsuser:cups-secret@localhost:%d/ipp/print" % printer.port
    document = tmp_path / "letter.pdf"
    document.write_bytes(SAMPLE_PDF)
    try:
        cups.add_everywhere_queue(queue, uri)
        assert "request id" in cups.lp(queue, document, "ipps with credentials", "-U", "somebody-else")

        def ended():
            return next((job for job in printer.http("GET", "/api/v1/jobs").json() if job["job-state"] in ENDED), None)

        job = wait_until(ended, JOB_LIMIT)
        states = cups.queue_jobs(queue)
        assert job, "no job ended; CUPS says: %s; vprinter: %s" % (states, printer.log[-2000:])
        assert job["job-state"] == "completed", job
        assert job["job-originating-user-name"] == "cupsuser"
        assert "refused credentials" not in printer.log or "401" not in states
    finally:
        cups.remove_queue(queue)
