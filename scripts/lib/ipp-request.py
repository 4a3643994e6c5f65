#!/usr/bin/env python3
"""Writes a binary IPP request (RFC 8010) to stdout, for benchmarks and smoke tests.

Usage: ipp-request.py get-printer-attributes PRINTER-URI [REQUESTED-ATTRIBUTE ...]   (default: all)
       ipp-request.py print-job PRINTER-URI FILE        Print-Job (application/pdf) followed by FILE's bytes
"""
import struct
import sys

# RFC 8010 section 3.5.1: delimiter and value tags used here.
OPERATION_ATTRIBUTES_TAG = 0x01
END_OF_ATTRIBUTES_TAG = 0x03
KEYWORD = 0x44
URI = 0x45
CHARSET = 0x47
NATURAL_LANGUAGE = 0x48
NAME = 0x42
MIME_MEDIA_TYPE = 0x49
# RFC 8011 section 5.4.15.
GET_PRINTER_ATTRIBUTES = 0x000B
PRINT_JOB = 0x0002


def attribute(tag, name, values):
    """Encodes one attribute; additional values get an empty name (RFC 8010 section 3.1.5)."""
    out = b""
    for index, value in enumerate(values):
        encoded_name = name.encode() if index == 0 else b""
        encoded_value = value.encode()
        out += struct.pack(">BH", tag, len(encoded_name)) + encoded_name
        out += struct.pack(">H", len(encoded_value)) + encoded_value
    return out


def request_head(operation, uri):
    """Version 2.0, the operation, request-id 1 and the operation attributes every request starts with."""
    body = struct.pack(">BBHI", 2, 0, operation, 1)
    body += bytes([OPERATION_ATTRIBUTES_TAG])
    body += attribute(CHARSET, "attributes-charset", ["utf-8"])
    body += attribute(NATURAL_LANGUAGE, "attributes-natural-language", ["en"])
    return body + attribute(URI, "printer-uri", [uri])


def get_printer_attributes(uri, requested):
    body = request_head(GET_PRINTER_ATTRIBUTES, uri)
    body += attribute(KEYWORD, "requested-attributes", requested or ["all"])
    return body + bytes([END_OF_ATTRIBUTES_TAG])


def print_job(uri, document):
    body = request_head(PRINT_JOB, uri)
    body += attribute(NAME, "requesting-user-name", ["bench"])
    body += attribute(NAME, "job-name", ["bench"])
    body += attribute(MIME_MEDIA_TYPE, "document-format", ["application/pdf"])
    return body + bytes([END_OF_ATTRIBUTES_TAG]) + document


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
