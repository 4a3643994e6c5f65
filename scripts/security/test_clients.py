"""Real clients against a secured printer: avahi-browse sees _ipps._tcp with TLS and air, and CUPS prints
to ipps:// with credentials. Need the loopback Avahi daemon and the private cupsd of scripts/lib/services.sh
(scripts/security-test starts them, or reuses those of the test command)."""
import json
import os
import pathlib
import subprocess
import sys
import time
import urllib.parse

from conftest import TIMEOUT, ipp, wait_until

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "lib"))
from cups_queue import add_everywhere_queue  # noqa: E402

# Seconds a CUPS job may take, from lp to the printer's record of it.
JOB_LIMIT = 120


def browse(service_type, name):
    """The resolved avahi-browse lines of our service NAME (IPv4), as {"port", "txt"} dicts."""
    output = subprocess.run(["avahi-browse", "-rpt", service_type], capture_output=True, text=True,
                            timeout=TIMEOUT).stdout
    found = []
    for line in output.splitlines():
        fields = line.split(";")
        if len(fields) >= 10 and fields[0] == "=" and fields[2] == "IPv4" and fields[3] == name:
            txt = dict(item.strip('"').split("=", 1) for item in fields[9].split('" "') if "=" in item)
            found.append({"port": int(fields[8]), "txt": txt})
    return found


def test_avahi_browse_shows_ipps_with_tls_and_air(start):
    name = "vp-security-%d" % os.getpid()
    printer = start("--tls", "--user", "u:p", "--name", name, dnssd=True)
    services = wait_until(lambda: browse("_ipps._tcp", name))
    assert services, "no _ipps._tcp service named %s; vprinter said: %s" % (name, printer.log())
    txt = services[0]["txt"]
    assert services[0]["port"] == printer.port
    assert txt["TLS"] == "1.3" and txt["air"] == "username,password"
    assert txt["adminurl"].startswith("https://")
    plain = wait_until(lambda: browse("_ipp._tcp", name))
    assert plain and plain[0]["txt"]["TLS"] == "1.3"
    assert wait_until(lambda: browse("_universal._sub._ipps._tcp", name)), "no _universal subtype"


def test_tls_only_advertises_only_ipps(start):
    name = "vp-security-only-%d" % os.getpid()
    start("--tls-only", "--name", name, dnssd=True)
    assert wait_until(lambda: browse("_ipps._tcp", name))
    assert browse("_ipp._tcp", name) == []


def test_cups_prints_to_ipps_with_credentials(start, folder):
    assert os.environ.get("CUPS_SERVER"), "no private cupsd (CUPS_SERVER): run through scripts/security-test"
    printer = start("--tls", "--user", "cupsuser:cups-secret", "--admin", "cupsuser")
    queue = "vp-security-%d" % os.getpid()
    uri = "ipps://cupsuser:cups-secret@localhost:%d/ipp/print" % printer.port
    document = os.path.join(folder, "letter.pdf")
    with open(document, "wb") as file:
        file.write(ipp.sample_pdf())
    os.chmod(folder, 0o755)
    os.chmod(document, 0o644)
    try:
        add_everywhere_queue(queue, uri, TIMEOUT * 2)
        result = subprocess.run(["lp", "-d", queue, "-U", "somebody-else", "-t", "ipps with credentials", document],
                                check=True, capture_output=True, text=True, timeout=TIMEOUT)
        assert "request id" in result.stdout

        def record():
            for path in sorted(os.listdir(os.path.join(printer.output, "jobs"))):
                # A job's folder is made before its first record is written.
                if not os.path.exists(os.path.join(printer.output, "jobs", path, "job.json")):
                    continue
                with open(os.path.join(printer.output, "jobs", path, "job.json")) as file:
                    job = json.load(file)
                if job["job-state"] in ("completed", "aborted", "canceled"):
                    return job
            return None

        job = wait_until(lambda: os.path.isdir(os.path.join(printer.output, "jobs")) and record(), JOB_LIMIT)
        states = subprocess.run(["lpstat", "-l", "-o", queue], capture_output=True, text=True).stdout
        assert job, "no job ended; CUPS says: %s; vprinter: %s" % (states, printer.log()[-2000:])
        assert job["job-state"] == "completed", job
        assert job["job-originating-user-name"] == "cupsuser"
        assert "refused credentials" not in printer.log() or "401" not in states
    finally:
        subprocess.run(["lpadmin", "-x", queue], capture_output=True, timeout=TIMEOUT)
