"""Just enough IPP (RFC 8010 / RFC 8011) to print a document from a test: a Print-Job request with a job ticket,
sent over HTTP, and the answer's status and job attributes decoded. Standard library only.

The job attributes are typed by name as the IPP Job Template model says (``copies`` an integer, ``sides`` a
keyword, ``page-ranges`` a rangeOfInteger, ``media-col`` a collection, ``orientation-requested`` an enum, which
may be given as its keyword).
"""
import http.client
import os
import struct
import urllib.parse

# Delimiter tags (RFC 8010 section 3.5.1).
OPERATION_ATTRIBUTES = 0x01
JOB_ATTRIBUTES = 0x02
END_OF_ATTRIBUTES = 0x03
PRINTER_ATTRIBUTES = 0x04
UNSUPPORTED_ATTRIBUTES = 0x05
# Value tags (RFC 8010 section 3.5.2).
INTEGER = 0x21
BOOLEAN = 0x22
ENUM = 0x23
RESOLUTION = 0x32
RANGE_OF_INTEGER = 0x33
BEGIN_COLLECTION = 0x34
END_COLLECTION = 0x37
TEXT = 0x41
NAME = 0x42
KEYWORD = 0x44
URI = 0x45
CHARSET = 0x47
LANGUAGE = 0x48
MIME_TYPE = 0x49
MEMBER_NAME = 0x4A

PRINT_JOB = 0x0002
GET_JOB_ATTRIBUTES = 0x0009
GET_PRINTER_ATTRIBUTES = 0x000B

# Job template attributes that are integers, enums or ranges; every other string value is a keyword.
INTEGER_ATTRIBUTES = {"copies", "number-up", "job-priority", "x-dimension", "y-dimension", "media-top-margin",
                      "media-bottom-margin", "media-left-margin", "media-right-margin", "media-weight-metric"}
ENUM_KEYWORDS = {
    "orientation-requested": {"portrait": 3, "landscape": 4, "reverse-landscape": 5, "reverse-portrait": 6,
                              "none": 7},
    "print-quality": {"draft": 3, "normal": 4, "high": 5},
    "finishings": {"none": 3, "staple": 4, "punch": 5, "cover": 6, "bind": 7},
}
RANGE_ATTRIBUTES = {"page-ranges"}
NAME_ATTRIBUTES = {"job-name", "requesting-user-name", "document-name"}
TEXT_ATTRIBUTES = {"job-message-to-operator"}

# File name endings and the document-format they are sent as.
FORMATS = {
    ".pdf": "application/pdf", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".png": "image/png",
    ".pwg": "image/pwg-raster", ".ras": "image/pwg-raster", ".urf": "image/urf", ".ps": "application/postscript",
    ".pclm": "application/PCLm", ".txt": "text/plain",
}
# Documents are sent in pieces of this many bytes.
CHUNK_SIZE = 1 << 16
# Status codes below this are successful (RFC 8011 section B.1.2).
FIRST_ERROR_STATUS = 0x0400


class IPPError(Exception):
    """An IPP answer with an error status, or an answer that is not IPP."""

    def __init__(self, message, status=None, attributes=None):
        super().__init__(message)
        self.status = status
        self.attributes = attributes or {}


def _value(tag, value):
    if tag in (INTEGER, ENUM):
        return struct.pack(">i", value)
    if tag == BOOLEAN:
        return b"\x01" if value else b"\x00"
    if tag == RANGE_OF_INTEGER:
        return struct.pack(">ii", value[0], value[1])
    data = value.encode("utf-8")
    if len(data) > 0x7FFF:
        raise ValueError("IPP value longer than 32767 bytes")
    return data


def _field(tag, name, value):
    """One value (RFC 8010 section 3.1.4): an attribute's first value with its name, later ones with none."""
    name_bytes = name.encode("utf-8")
    data = _value(tag, value)
    return struct.pack(">BH", tag, len(name_bytes)) + name_bytes + struct.pack(">H", len(data)) + data


def _range(value):
    if isinstance(value, str):
        lower, _, upper = value.partition("-")
        return (int(lower), int(upper or lower))
    if isinstance(value, int):
        return (value, value)
    lower, upper = value
    return (int(lower), int(upper))


def _typed(name, value):
    """The (tag, value) pairs of one attribute's values."""
    if isinstance(value, dict):
        return [(BEGIN_COLLECTION, value)]
    if name in RANGE_ATTRIBUTES:
        if isinstance(value, (list, tuple)) and value and isinstance(value[0], (list, tuple, str)):
            return [(RANGE_OF_INTEGER, _range(item)) for item in value]
        return [(RANGE_OF_INTEGER, _range(value))]
    if isinstance(value, (list, tuple)):
        pairs = []
        for item in value:
            pairs.extend(_typed(name, item))
        return pairs
    if isinstance(value, bool):
        return [(BOOLEAN, value)]
    if name in ENUM_KEYWORDS:
        if isinstance(value, str):
            if value not in ENUM_KEYWORDS[name]:
                raise ValueError("%s: unknown value %r (known: %s)" % (name, value, ", ".join(ENUM_KEYWORDS[name])))
            value = ENUM_KEYWORDS[name][value]
        return [(ENUM, int(value))]
    if isinstance(value, int):
        return [(INTEGER, value)]
    if name in INTEGER_ATTRIBUTES:
        return [(INTEGER, int(value))]
    if name in NAME_ATTRIBUTES:
        return [(NAME, str(value))]
    if name in TEXT_ATTRIBUTES:
        return [(TEXT, str(value))]
    return [(KEYWORD, str(value))]


def _attribute(name, value):
    out = b""
    for index, (tag, item) in enumerate(_typed(name, value)):
        field_name = name if index == 0 else ""
        if tag == BEGIN_COLLECTION:
            out += _collection(field_name, item)
        else:
            out += _field(tag, field_name, item)
    return out


def _collection(name, members):
    """A collection value (RFC 8010 section 3.1.6): begCollection, each member's name and values, endCollection."""
    out = struct.pack(">BH", BEGIN_COLLECTION, len(name.encode())) + name.encode() + struct.pack(">H", 0)
    for member, value in members.items():
        member = member.replace("_", "-")
        out += _field(MEMBER_NAME, "", member)
        for tag, item in _typed(member, value):
            if tag == BEGIN_COLLECTION:
                out += _collection("", item)
            else:
                out += _field(tag, "", item)
    return out + struct.pack(">BHH", END_COLLECTION, 0, 0)


def request_header(operation, printer_uri, request_id=1, operation_attributes=None, job_attributes=None):
    """An IPP/2.0 request up to end-of-attributes: charset, language and printer-uri first, then the others."""
    out = struct.pack(">BBHI", 2, 0, operation, request_id)
    out += bytes([OPERATION_ATTRIBUTES])
    out += _field(CHARSET, "attributes-charset", "utf-8")
    out += _field(LANGUAGE, "attributes-natural-language", "en")
    out += _field(URI, "printer-uri", printer_uri)
    for name, value in (operation_attributes or {}).items():
        if name == "document-format":
            out += _field(MIME_TYPE, name, value)
        else:
            out += _attribute(name, value)
    if job_attributes:
        out += bytes([JOB_ATTRIBUTES])
        for name, value in job_attributes.items():
            out += _attribute(name.replace("_", "-"), value)
    return out + bytes([END_OF_ATTRIBUTES])


def format_of(path):
    """The document-format a file is sent as, from its name."""
    return FORMATS.get(os.path.splitext(str(path))[1].lower(), "application/octet-stream")


def decode(data):
    """Decodes an IPP answer: (status, {group tag: {name: [values]}}). Integers and enums become ints, booleans
    bools, ranges tuples, text-like values strings; collections are skipped."""
    if len(data) < 9:
        raise IPPError("the answer is not IPP (%d bytes)" % len(data))
    status = struct.unpack(">H", data[2:4])[0]
    groups = {}
    group = None
    last = None
    depth = 0
    offset = 8
    while offset < len(data):
        tag = data[offset]
        offset += 1
        if tag == END_OF_ATTRIBUTES:
            break
        if tag < 0x10:
            group = groups.setdefault(tag, {})
            continue
        if offset + 2 > len(data):
            raise IPPError("the IPP answer is cut short")
        name_length = struct.unpack(">H", data[offset:offset + 2])[0]
        name = data[offset + 2:offset + 2 + name_length].decode("utf-8", "replace")
        offset += 2 + name_length
        value_length = struct.unpack(">H", data[offset:offset + 2])[0]
        raw = data[offset + 2:offset + 2 + value_length]
        offset += 2 + value_length
        if tag == BEGIN_COLLECTION:
            depth += 1
            continue
        if tag == END_COLLECTION:
            depth -= 1
            continue
        if depth > 0 or group is None:
            continue
        if tag in (INTEGER, ENUM) and len(raw) == 4:
            value = struct.unpack(">i", raw)[0]
        elif tag == BOOLEAN and len(raw) == 1:
            value = raw != b"\x00"
        elif tag == RANGE_OF_INTEGER and len(raw) == 8:
            value = struct.unpack(">ii", raw)
        elif 0x40 <= tag <= 0x4F:
            value = raw.decode("utf-8", "replace")
        else:
            value = raw
        if name:
            last = name
            group[name] = [value]
        elif last is not None:
            group.setdefault(last, []).append(value)
    return status, groups


def post(printer_uri, body_parts, content_length, timeout=60):
    """POSTs an IPP request (bytes, or pieces of it) to the printer's HTTP address; returns the answer bytes."""
    url = urllib.parse.urlsplit(printer_uri)
    if url.scheme not in ("ipp", "http"):
        raise ValueError("only ipp:// and http:// printer URIs can be printed to here, not %r" % printer_uri)
    connection = http.client.HTTPConnection(url.hostname, url.port or 631, timeout=timeout)
    try:
        connection.putrequest("POST", url.path or "/")
        connection.putheader("Content-Type", "application/ipp")
        connection.putheader("Content-Length", str(content_length))
        connection.endheaders()
        for part in body_parts:
            connection.send(part)
        response = connection.getresponse()
        answer = response.read()
        if response.status != 200:
            raise IPPError("HTTP %d %s from %s" % (response.status, response.reason, printer_uri))
        return answer
    finally:
        connection.close()


def print_job(printer_uri, document, document_format=None, job_name="pytest", user="pytest", timeout=60,
              **job_attributes):
    """Sends Print-Job with ``document`` (bytes, or a file path) and the job ticket (``copies=2``,
    ``sides="two-sided-long-edge"``, ``media="iso_a4_210x297mm"``; ``_`` may stand for ``-``); returns the job-id.

    ``document_format`` defaults to the file name's (``.pdf`` -> application/pdf), for bytes to
    application/octet-stream (the printer detects the format). Raises IPPError for an error status (its message
    names the status and the printer's status-message).
    """
    if isinstance(document, (bytes, bytearray, memoryview)):
        data = bytes(document)
        size = len(data)
        mime_type = document_format or "application/octet-stream"

        def pieces():
            yield data
    else:
        path = os.fspath(document)
        size = os.path.getsize(path)
        mime_type = document_format or format_of(path)

        def pieces():
            with open(path, "rb") as file:
                while True:
                    chunk = file.read(CHUNK_SIZE)
                    if not chunk:
                        return
                    yield chunk
    operation = {"requesting-user-name": user, "job-name": job_name, "document-format": mime_type}
    header = request_header(PRINT_JOB, printer_uri, operation_attributes=operation, job_attributes=job_attributes)

    def body():
        yield header
        yield from pieces()

    answer = post(printer_uri, body(), len(header) + size, timeout=timeout)
    status, groups = decode(answer)
    if status >= FIRST_ERROR_STATUS:
        message = groups.get(OPERATION_ATTRIBUTES, {}).get("status-message", [""])[0]
        raise IPPError("Print-Job to %s: status 0x%04x %s" % (printer_uri, status, message), status, groups)
    job = groups.get(JOB_ATTRIBUTES, {})
    if "job-id" not in job:
        raise IPPError("Print-Job to %s answered no job-id" % printer_uri, status, groups)
    return job["job-id"][0]
