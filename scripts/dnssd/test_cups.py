"""CUPS with a DNS-SD URI (docs/dnssd.md, "CUPS and DNS-SD URIs"): driverless lists the printer, `lpadmin -m
everywhere` makes a queue from its ipp://NAME._ipp._tcp.local/ URI, and a job sent with lp is rendered. The
private cupsd is the stage's (CUPS_SERVER, VP_CUPSD_DIR); its ipp backend resolves the URI for every job."""
import os
import pathlib
import subprocess

import pytest
from vptest import cups, waiting
from vptest.avahi import reachable_as
from vptest.documents import SAMPLE_PDF

from commands import driverless_lists
from conftest import service_name

# Seconds a job may take, from lp to a rendered page.
JOB_LIMIT = 120


def backend_lines(count=3):
    """The last lines of cupsd's error log about resolving the URI."""
    log = pathlib.Path(os.environ.get("VP_CUPSD_DIR", ""), "log", "error_log")
    lines = log.read_text(errors="replace").splitlines() if log.is_file() else []
    return [line for line in lines if any(word in line for word in ("Resolv", "Unable", "resolve"))][-count:]


def test_cups_prints_through_the_dnssd_uri(advertise, tmp_path):
    assert os.environ.get("CUPS_SERVER"), "no private cupsd (CUPS_SERVER): run the stage script, which starts one"
    # CUPS runs its ipp backend as user lp, and the backend resolves the DNS-SD URI through the daemon on
    # DBUS_SYSTEM_BUS_ADDRESS (passed on by cups-files.conf): without access it only says "Unable to locate printer".
    assert reachable_as("lp"), "user lp (CUPS's backends) cannot reach the Avahi daemon on %s" % os.environ.get(
        "DBUS_SYSTEM_BUS_ADDRESS")
    name = service_name("cups")
    printer = advertise(name, render=True)
    uri = "ipp://%s._ipp._tcp.local/" % name.replace(" ", "%20")
    listed, listing = driverless_lists(uri)
    assert listed, "driverless does not list %s within %d s: %s" % (uri, waiting.WAIT_LIMIT, listing)
    # The queue is not deleted: the cupsd is the stage's own and goes with it (deleting a queue with a DNS-SD URI
    # made CUPS 2.4.2's cupsd abort here with "free(): invalid pointer").
    queue = "vp-dnssd"
    cups.add_everywhere_queue(queue, uri)
    document = tmp_path / "cups.pdf"
    document.write_bytes(SAMPLE_PDF)
    try:
        cups.lp(queue, document, "dnssd cups")
    except subprocess.CalledProcessError as error:
        pytest.fail("lp: %s" % error.stderr.strip())
    jobs = pathlib.Path(printer.output_dir, "jobs")
    page = waiting.wait_until(lambda: next(jobs.rglob("page-0001.png"), None), limit=JOB_LIMIT, interval=0.5)
    assert page, "no rendered page within %d s (%s); backend: %s" % (
        JOB_LIMIT, cups.queue_jobs(queue).strip(), " ".join(backend_lines()))
