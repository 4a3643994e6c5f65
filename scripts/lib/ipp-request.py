#!/usr/bin/env python3
"""Writes a binary IPP request (RFC 8010) to stdout, for benchmarks and smoke tests; encoded by the project's own
package (python/src/vprinter/ipp).

Usage: ipp-request.py get-printer-attributes PRINTER-URI [REQUESTED-ATTRIBUTE ...]   (default: all)
       ipp-request.py print-job PRINTER-URI FILE        Print-Job (application/pdf) followed by FILE's bytes
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python", "src"))
from vprinter import ipp  # noqa: E402


def get_printer_attributes(uri, requested):
    return ipp.request(ipp.GET_PRINTER_ATTRIBUTES, uri, {"requested-attributes": requested or ["all"]})


def print_job(uri, document):
    operation = {"requesting-user-name": "bench", "job-name": "bench", "document-format": "application/pdf"}
    return ipp.request(ipp.PRINT_JOB, uri, operation) + document


def main(argv):
    if len(argv) >= 3 and argv[1] == "get-printer-attributes":
        sys.stdout.buffer.write(get_printer_attributes(argv[2], argv[3:]))
        return 0
    if len(argv) == 4 and argv[1] == "print-job":
        with open(argv[3], "rb") as file:
            sys.stdout.buffer.write(print_job(argv[2], file.read()))
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
