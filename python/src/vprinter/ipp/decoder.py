"""Decoding IPP messages (RFC 8010 section 3): every attribute group in order, collections as dicts, and every
value as a Python value (integers and enums as int, booleans as bool, rangeOfInteger as (lower, upper),
resolution as (x, y, units), dateTime as an aware datetime, text and names as str, octetString as bytes,
out-of-band and unknown tags as Value). A message that breaks the encoding raises IPPError saying what and where.
"""
import datetime
import struct

from .encoder import Value
from .error import IPPError
from .tags import (BEGIN_COLLECTION, BOOLEAN, DATE_TIME, END_COLLECTION, END_OF_ATTRIBUTES, ENUM, FIRST_VALUE_TAG,
                   INTEGER, JOB_ATTRIBUTES, MEMBER_NAME, NAME_WITH_LANGUAGE, OCTET_STRING, OPERATION_ATTRIBUTES,
                   OUT_OF_BAND_TAGS, RANGE_OF_INTEGER, RESOLUTION, STRING_TAGS, TEXT_WITH_LANGUAGE)

# The header: version (2 bytes), operation or status code, request-id (RFC 8010 section 3.1.1).
HEADER_LENGTH = 8
# The length each fixed-size value must have (RFC 8010 section 3.9).
FIXED_LENGTHS = {INTEGER: 4, ENUM: 4, BOOLEAN: 1, RANGE_OF_INTEGER: 8, RESOLUTION: 9, DATE_TIME: 11}


class TextWithLanguage(str):
    """A textWithLanguage or nameWithLanguage value: the text, with its natural language as ``language``."""

    def __new__(cls, text, language):
        value = super().__new__(cls, text)
        value.language = language
        return value


class Message:
    """A decoded IPP request or response.

    ``version`` is (major, minor), ``code`` the operation (request) or status (response), also as ``status`` and
    ``operation``; ``groups`` lists (delimiter tag, {name: [values]}) in message order; ``data`` is what followed
    end-of-attributes (a request's document).
    """

    def __init__(self, version, code, request_id, groups, data=b""):
        self.version = version
        self.code = code
        self.request_id = request_id
        self.groups = groups
        self.data = data

    @property
    def status(self):
        return self.code

    @property
    def operation(self):
        return self.code

    def group(self, tag):
        """The attributes of the first group with this delimiter tag, or {}."""
        return next((attributes for group_tag, attributes in self.groups if group_tag == tag), {})

    def groups_of(self, tag):
        """The attributes of every group with this tag, in order (Get-Jobs answers one job group per job)."""
        return [attributes for group_tag, attributes in self.groups if group_tag == tag]

    def values(self, name, tag=None):
        """The values of an attribute in the first group (of ``tag``, when given) that has it, or []."""
        for group_tag, attributes in self.groups:
            if (tag is None or group_tag == tag) and name in attributes:
                return attributes[name]
        return []

    def get(self, name, default=None, tag=None):
        """The first value of an attribute (see values), or ``default``."""
        found = self.values(name, tag)
        return found[0] if found else default

    @property
    def status_message(self):
        return self.get("status-message", "", OPERATION_ATTRIBUTES)

    @property
    def job_id(self):
        """The job-id of the job attributes group, or None."""
        return self.get("job-id", tag=JOB_ATTRIBUTES)

    def __repr__(self):
        return "Message(version=%d.%d, code=0x%04x, request_id=%d, groups=%r)" % (
            self.version[0], self.version[1], self.code, self.request_id, self.groups)


def _date_time(raw):
    """RFC 2579 DateAndTime (11 octets) as an aware datetime; a Value when it is no valid date."""
    year, month, day, hour, minute, second, deci = struct.unpack(">HBBBBBB", raw[:8])
    direction, hours, minutes = raw[8:9], raw[9], raw[10]
    try:
        offset = datetime.timedelta(hours=hours, minutes=minutes) * (-1 if direction == b"-" else 1)
        return datetime.datetime(year, month, day, hour, minute, second, deci * 100000,
                                 tzinfo=datetime.timezone(offset))
    except (ValueError, OverflowError):
        return Value(DATE_TIME, raw)


def _with_language(raw, offset):
    language_length = struct.unpack(">H", raw[:2])[0] if len(raw) >= 2 else len(raw)
    text_at = 2 + language_length
    if text_at + 2 > len(raw) or text_at + 2 + struct.unpack(">H", raw[text_at:text_at + 2])[0] != len(raw):
        raise IPPError("a textWithLanguage or nameWithLanguage value has inconsistent lengths at offset %d" % offset)
    language = raw[2:text_at].decode("utf-8", "replace")
    return TextWithLanguage(raw[text_at + 2:].decode("utf-8", "replace"), language)


def _decoded(tag, raw, offset):
    """One value of ``tag`` from its bytes (``offset`` is where they start, for the error message)."""
    expected = FIXED_LENGTHS.get(tag)
    if expected is not None and len(raw) != expected:
        raise IPPError("a value of tag 0x%02x has %d bytes, not %d, at offset %d" % (tag, len(raw), expected, offset))
    if tag in (INTEGER, ENUM):
        return struct.unpack(">i", raw)[0]
    if tag == BOOLEAN:
        return raw != b"\x00"
    if tag == RANGE_OF_INTEGER:
        return struct.unpack(">ii", raw)
    if tag == RESOLUTION:
        return struct.unpack(">iib", raw)
    if tag == DATE_TIME:
        return _date_time(raw)
    if tag in (TEXT_WITH_LANGUAGE, NAME_WITH_LANGUAGE):
        return _with_language(raw, offset)
    if tag == OCTET_STRING:
        return raw
    if tag in STRING_TAGS:
        return raw.decode("utf-8", "replace")
    if tag in OUT_OF_BAND_TAGS and not raw:
        return Value(tag)
    return Value(tag, raw)


class _Reader:
    def __init__(self, data):
        self.data = data
        self.offset = 0

    def take(self, count, what):
        if self.offset + count > len(self.data):
            raise IPPError("the IPP message is cut short in %s at offset %d" % (what, self.offset))
        chunk = self.data[self.offset:self.offset + count]
        self.offset += count
        return chunk

    def short(self, what):
        return struct.unpack(">H", self.take(2, what))[0]


def decode_message(data):
    """Decodes a whole IPP message into a Message. Raises IPPError when it is not IPP or breaks the encoding."""
    data = bytes(data)
    if len(data) < HEADER_LENGTH + 1:
        raise IPPError("the answer is not IPP (%d bytes)" % len(data))
    major, minor, code, request_id = struct.unpack(">BBHI", data[:HEADER_LENGTH])
    reader = _Reader(data)
    reader.offset = HEADER_LENGTH
    groups = []
    current = None
    name = None
    # Collections being read, innermost last: [members dict, current member name].
    stack = []
    while True:
        tag = reader.take(1, "the next tag (no end-of-attributes tag)")[0]
        if tag == END_OF_ATTRIBUTES:
            break
        if tag < FIRST_VALUE_TAG:
            if stack:
                raise IPPError("a group starts inside a collection at offset %d" % (reader.offset - 1))
            current = {}
            groups.append((tag, current))
            name = None
            continue
        at = reader.offset - 1
        attribute_name = reader.take(reader.short("a name length"), "a name").decode("utf-8", "replace")
        value_length = reader.short("a value length")
        value_at = reader.offset
        raw = reader.take(value_length, "a value")
        if current is None:
            raise IPPError("a value comes before any attribute group at offset %d" % at)
        if stack:
            members = stack[-1]
            if tag == MEMBER_NAME:
                members[1] = raw.decode("utf-8", "replace")
                continue
            if tag == END_COLLECTION:
                stack.pop()
                continue
            if members[1] is None:
                raise IPPError("a collection member value has no member name at offset %d" % at)
            target, key = members[0], members[1]
        else:
            if tag in (END_COLLECTION, MEMBER_NAME):
                raise IPPError("tag 0x%02x outside a collection at offset %d" % (tag, at))
            if attribute_name:
                name = attribute_name
                current[name] = []
            elif name is None:
                raise IPPError("an additional value without an attribute at offset %d" % at)
            target, key = current, name
        if tag == BEGIN_COLLECTION:
            collection = {}
            target.setdefault(key, []).append(collection)
            stack.append([collection, None])
            continue
        target.setdefault(key, []).append(_decoded(tag, raw, value_at))
    if stack:
        raise IPPError("a collection is not ended before end-of-attributes")
    return Message((major, minor), code, request_id, groups, data[reader.offset:])


def decode(data):
    """Decodes an IPP answer: (status, {group tag: {name: [values]}}), groups of one tag merged. Values as
    decode_message gives them; attributes whose values are collections are left out (see decode_message)."""
    message = decode_message(data)
    groups = {}
    for tag, attributes in message.groups:
        merged = groups.setdefault(tag, {})
        for name, values in attributes.items():
            kept = [value for value in values if not isinstance(value, dict)]
            if kept:
                merged[name] = kept
    return message.status, groups
