"""A small IPP/1.x-2.x codec (RFC 8010) for the client tests: requests with any version, operation and job
attributes (collections included), and responses decoded into plain Python values.

Values in requests are given as (tag, value) pairs or lists of them; `collection(...)` builds a collection.
Decoded responses: {"version": (major, minor), "status": int, "request-id": int,
"groups": [(group_tag, {name: [values]})]}; collections decode to dicts of lists, resolutions to (x, y, units),
ranges to (lower, upper), out-of-band values to the strings "no-value", "unknown", "unsupported".
"""
import struct
import urllib.request

# RFC 8010 section 3.5.1: delimiter tags.
OPERATION = 0x01
JOB = 0x02
END = 0x03
PRINTER = 0x04
UNSUPPORTED = 0x05
# Value tags.
UNSUPPORTED_VALUE, UNKNOWN, NO_VALUE = 0x10, 0x12, 0x13
INTEGER, BOOLEAN, ENUM = 0x21, 0x22, 0x23
OCTET_STRING, DATE_TIME, RESOLUTION, RANGE = 0x30, 0x31, 0x32, 0x33
BEGIN_COLLECTION, END_COLLECTION, MEMBER_NAME = 0x34, 0x37, 0x4A
TEXT, NAME, KEYWORD, URI, URI_SCHEME, CHARSET, LANGUAGE, MIME = 0x41, 0x42, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49

# RFC 8011 operation codes.
PRINT_JOB, VALIDATE_JOB, GET_JOB_ATTRIBUTES, GET_PRINTER_ATTRIBUTES = 0x0002, 0x0004, 0x0009, 0x000B
CREATE_JOB, SEND_DOCUMENT = 0x0005, 0x0006

STRING_TAGS = {TEXT, NAME, KEYWORD, URI, URI_SCHEME, CHARSET, LANGUAGE, MIME, OCTET_STRING, 0x35, 0x36}


class Collection:
    """A collection value: members as (name, tag, value-or-list) triples, in order."""

    def __init__(self, *members):
        self.members = members


def _one(tag, name, value):
    encoded_name = name.encode()
    if isinstance(value, Collection):
        out = struct.pack(">BH", BEGIN_COLLECTION, len(encoded_name)) + encoded_name + struct.pack(">H", 0)
        for member_name, member_tag, member_value in value.members:
            values = member_value if isinstance(member_value, list) else [member_value]
            for index, item in enumerate(values):
                member = member_name.encode()
                if index == 0:
                    out += struct.pack(">BHH", MEMBER_NAME, 0, len(member)) + member
                out += _one(member_tag, "", item)
        return out + struct.pack(">BHH", END_COLLECTION, 0, 0)
    if tag in (INTEGER, ENUM):
        data = struct.pack(">i", value)
    elif tag == BOOLEAN:
        data = bytes([1 if value else 0])
    elif tag == RESOLUTION:
        data = struct.pack(">iib", value[0], value[1], 3)
    elif tag == RANGE:
        data = struct.pack(">ii", value[0], value[1])
    elif tag in (NO_VALUE, UNKNOWN, UNSUPPORTED_VALUE):
        data = b""
    else:
        data = value if isinstance(value, bytes) else str(value).encode()
    return struct.pack(">BH", tag, len(encoded_name)) + encoded_name + struct.pack(">H", len(data)) + data


def attribute(tag, name, value):
    """One attribute; a list value makes a 1setOf (additional values with an empty name)."""
    values = value if isinstance(value, list) else [value]
    out = b""
    for index, item in enumerate(values):
        out += _one(tag, name if index == 0 else "", item)
    return out


def request(operation, printer_uri, operation_attributes=(), job_attributes=(), version=(2, 0), request_id=1,
            user="client-test"):
    """An IPP request: the three mandatory operation attributes, then (name, tag, value) triples."""
    body = struct.pack(">BBHI", version[0], version[1], operation, request_id) + bytes([OPERATION])
    body += attribute(CHARSET, "attributes-charset", "utf-8")
    body += attribute(LANGUAGE, "attributes-natural-language", "en")
    body += attribute(URI, "printer-uri", printer_uri)
    if user is not None:
        body += attribute(NAME, "requesting-user-name", user)
    for name, tag, value in operation_attributes:
        body += attribute(tag, name, value)
    if job_attributes:
        body += bytes([JOB])
        for name, tag, value in job_attributes:
            body += attribute(tag, name, value)
    return body + bytes([END])


def _value(tag, data):
    if tag in (INTEGER, ENUM):
        return struct.unpack(">i", data)[0]
    if tag == BOOLEAN:
        return data != b"\x00"
    if tag == RESOLUTION:
        x, y, units = struct.unpack(">iib", data)
        return (x, y, units)
    if tag == RANGE:
        return struct.unpack(">ii", data)
    if tag == NO_VALUE:
        return "no-value"
    if tag == UNKNOWN:
        return "unknown"
    if tag == UNSUPPORTED_VALUE:
        return "unsupported"
    if tag == OCTET_STRING:
        return data.decode("utf-8", "replace")
    if tag in STRING_TAGS:
        return data.decode("utf-8", "replace")
    return data


def decode(data):
    """Decodes a whole IPP response (the document data after it, if any, is ignored)."""
    major, minor, status, request_id = struct.unpack(">BBHI", data[:8])
    position = 8
    groups = []
    stack = []  # collections being read: (dict, current member name)
    current = None
    name = None

    def add(target, attribute_name, value):
        target.setdefault(attribute_name, []).append(value)

    while position < len(data):
        tag = data[position]
        position += 1
        if tag == END:
            break
        if tag < 0x10:
            current = {}
            groups.append((tag, current))
            continue
        name_length = struct.unpack(">H", data[position:position + 2])[0]
        position += 2
        attribute_name = data[position:position + name_length].decode()
        position += name_length
        value_length = struct.unpack(">H", data[position:position + 2])[0]
        position += 2
        raw = data[position:position + value_length]
        position += value_length
        if stack:
            members, member = stack[-1]
            if tag == MEMBER_NAME:
                stack[-1] = (members, raw.decode())
            elif tag == END_COLLECTION:
                finished, _ = stack.pop()
                if stack:
                    parent, parent_member = stack[-1]
                    add(parent, parent_member, finished)
                else:
                    add(current, name, finished)
            elif tag == BEGIN_COLLECTION:
                stack.append(({}, None))
            else:
                add(members, member, _value(tag, raw))
            continue
        if attribute_name:
            name = attribute_name
        if tag == BEGIN_COLLECTION:
            stack.append(({}, None))
            continue
        add(current, name, _value(tag, raw))
    return {"version": (major, minor), "status": status, "request-id": request_id, "groups": groups}


def post(uri, body, timeout=30):
    """POSTs an IPP request to an ipp:// URI; returns the decoded response."""
    url = "http://" + uri.split("://", 1)[1]
    http = urllib.request.Request(url, data=body, headers={"Content-Type": "application/ipp"})
    with urllib.request.urlopen(http, timeout=timeout) as response:
        return decode(response.read())


def group(response, tag):
    """The attributes of the first group with `tag` (PRINTER, JOB, ...), or {}."""
    return next((attributes for group_tag, attributes in response["groups"] if group_tag == tag), {})


def get_printer_attributes(uri, requested=("all",), version=(2, 0), user="client-test", extra=()):
    response = post(uri, request(GET_PRINTER_ATTRIBUTES, uri,
                                 [("requested-attributes", KEYWORD, list(requested)), *extra],
                                 version=version, user=user))
    return response, group(response, PRINTER)
