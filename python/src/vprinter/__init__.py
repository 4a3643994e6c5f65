"""vprinter for Python tests: start a virtual IPP printer, print to it, and ask what was printed.

    import vprinter

    with vprinter.start(profile="duplex-laser") as printer:
        job_id = printer.print_file(vprinter.documents.pdf(["Invoice 42"]), sides="two-sided-long-edge")
        [job] = printer.wait(1)
        assert job["job-state"] == "completed"
        assert "Invoice 42" in printer.text(job)

Under pytest, the ``vprinter`` fixture does the starting and stopping (see vprinter.pytest_plugin). The client
talks to any running vprinter too: ``vprinter.Client("ipp://localhost:8631/ipp/print")``.
"""
from . import documents, ipp
from .client import (APIError, Client, CompareResult, PrintedText, RequestsTimeout, Verification, VPrinterError,
                     WaitTimeout)
from ._version import __version__
from .ipp import IPPError
from .server import PrinterProcess, StartError, find_binary, start

__all__ = [
    "APIError", "Client", "CompareResult", "IPPError", "PrintedText", "PrinterProcess", "RequestsTimeout",
    "StartError", "Verification", "VPrinterError", "WaitTimeout", "documents", "find_binary", "ipp", "start",
]
