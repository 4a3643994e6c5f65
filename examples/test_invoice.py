"""Example: testing an application's printing with the vprinter pytest plugin.

    pip install ./python            # the plugin (pytest11 entry point) and client, standard library only
    VPRINTER_BIN=path/to/vprinter pytest examples/test_invoice.py
    pytest examples/test_invoice.py --vprinter-update-goldens    # after an intended change of the layout

The `vprinter` fixture starts a printer on a free port for each test (without DNS-SD) and stops it afterwards;
the marker picks its profile and options. The code under test gets only the printer's URI, as it would get a
real printer's; the test then asks the printer what was printed: the job ticket, the text of each side, and
the sides' pixels against golden files (examples/golden/invoice/, made at 72 dpi).
"""
import pathlib
import time

import pytest

import vprinter
from vprinter import documents

GOLDEN = pathlib.Path(__file__).parent / "golden" / "invoice"


def print_invoice(printer_uri, number, total, attempts=3):
    """The application code under test: lays out an invoice and prints it two-sided on A4, trying again while
    the printer answers busy (server-error-busy), as a careful client does."""
    pdf = documents.pdf(["Invoice %d\nTotal %.2f" % (number, total), "Terms: 30 days"], size="a4")
    for attempt in range(attempts):
        try:
            return vprinter.ipp.print_job(printer_uri, pdf, document_format="application/pdf",
                                          job_name="invoice %d" % number, user="billing",
                                          sides="two-sided-long-edge", media="iso_a4_210x297mm")
        except vprinter.IPPError as error:
            if error.status != 0x0507 or attempt == attempts - 1:
                raise
            time.sleep(0.2)


@pytest.mark.vprinter("duplex-laser", args=["--render-dpi", "72"])
def test_the_invoice_prints_two_sided_on_a4_with_its_number_and_total(vprinter):
    print_invoice(vprinter.uri, 42, 99)

    [job] = vprinter.wait(1, user="billing")
    assert job["job-state"] == "completed"
    assert job["job-name"] == "invoice 42"
    assert job["sides-actual"] == "two-sided-long-edge"
    assert job["media-actual"] == "iso_a4_210x297mm"
    assert job["sheets"] == 1 and len(job["impressions"]) == 2

    text = vprinter.text(job)
    assert "Invoice 42" in text.sides[0] and "Total 99.00" in text.sides[0]
    assert "Terms: 30 days" in text.sides[1]

    assert vprinter.compare(job, GOLDEN)
    assert vprinter.jobs(text="Invoice 42", media="a4") == [vprinter.job(job)]


@pytest.mark.vprinter("duplex-laser")
def test_the_invoice_is_printed_once_when_the_printer_is_busy_at_first(vprinter):
    vprinter.fault(status="server-error-busy", trigger={"operation": "Print-Job", "count": 2})

    print_invoice(vprinter.uri, 43, 10.5)

    [job] = vprinter.wait(1)
    assert job["job-name"] == "invoice 43"
    assert len(vprinter.jobs()) == 1, "a busy answer creates no job: the retries must not print twice"
