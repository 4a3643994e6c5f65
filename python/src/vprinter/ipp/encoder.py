"""Encoding IPP requests (RFC 8010 section 3): the header, attribute groups, and attributes whose values are typed
by name as the IPP model says (``copies`` an integer, ``sides`` a keyword, ``page-ranges`` a rangeOfInteger,
``media-col`` a collection, ``orientation-requested`` an enum, which may be given as its keyword), or by a tag
given with the value: ``Value(ENUM, 4)``, ``Value(NO_VALUE)``.
"""
import collections
import datetime
import struct

from .tags import (BEGIN_COLLECTION, BOOLEAN, CHARSET, DATE_TIME, END_COLLECTION, END_OF_ATTRIBUTES, ENUM, INTEGER,
                   JOB_ATTRIBUTES, KEYWORD, LANGUAGE, MEMBER_NAME, MIME_TYPE, NAME, NAME_WITH_LANGUAGE,
                   OPERATION_ATTRIBUTES, OUT_OF_BAND_TAGS, RANGE_OF_INTEGER, RESOLUTION, TEXT, TEXT_WITH_LANGUAGE, URI)

# Attributes whose values are integers, enums, ranges, resolutions, names, text, URIs, MIME types, charsets or
# natural languages; any other string value is a keyword.
INTEGER_ATTRIBUTES = {"copies", "number-up", "job-priority", "x-dimension", "y-dimension", "media-top-margin",
                      "media-bottom-margin", "media-left-margin", "media-right-margin", "media-weight-metric",
                      "job-id", "job-ids", "printer-id", "limit", "first-index"}
ENUM_KEYWORDS = {
    "orientation-requested": {"portrait": 3, "landscape": 4, "reverse-landscape": 5, "reverse-portrait": 6,
                              "none": 7},
    "print-quality": {"draft": 3, "normal": 4, "high": 5},
    "finishings": {"none": 3, "staple": 4, "punch": 5, "cover": 6, "bind": 7},
}
RANGE_ATTRIBUTES = {"page-ranges", "pages", "document-numbers"}
RESOLUTION_ATTRIBUTES = {"printer-resolution"}
NAME_ATTRIBUTES = {"job-name", "requesting-user-name", "document-name", "printer-name"}
TEXT_ATTRIBUTES = {"job-message-to-operator", "printer-info", "printer-location", "status-message"}
URI_ATTRIBUTES = {"printer-uri", "job-uri", "system-uri", "document-uri", "notify-recipient-uri"}
MIME_ATTRIBUTES = {"document-format"}
CHARSET_ATTRIBUTES = {"attributes-charset"}
LANGUAGE_ATTRIBUTES = {"attributes-natural-language", "document-natural-language"}
STRING_TYPES = [(NAME_ATTRIBUTES, NAME), (TEXT_ATTRIBUTES, TEXT), (URI_ATTRIBUTES, URI), (MIME_ATTRIBUTES, MIME_TYPE),
                (CHARSET_ATTRIBUTES, CHARSET), (LANGUAGE_ATTRIBUTES, LANGUAGE)]
# The longest value a text-like value may have here, in bytes (the value length is a signed short on the wire).
MAX_TEXT_LENGTH = 0x7FFF
# The longest value of any kind: what the two-byte value length can say.
MAX_VALUE_LENGTH = 0xFFFF
# The units byte of a resolution (RFC 8010 section 3.9): dots per inch.
DOTS_PER_INCH = 3


class Value(collections.namedtuple("Value", "tag value")):
    """A value with its tag: ``Value(ENUM, 4)``, ``Value(NAME_WITH_LANGUAGE, ("en", "Bob"))``, ``Value(NO_VALUE)``
    (an out-of-band value has none), ``Value(OCTET_STRING, b"...")``. The decoder gives out-of-band values, and
    values of tags it does not know, as Value too."""

    __slots__ = ()

    def __new__(cls, tag, value=None):
        return super().__new__(cls, tag, value)


def _date_time(value):
    """RFC 2579 DateAndTime in 11 octets (RFC 8010 section 3.9) of an aware datetime (naive ones count as UTC)."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=datetime.timezone.utc)
    offset_minutes = int(value.utcoffset().total_seconds() // 60)
    direction = b"+" if offset_minutes >= 0 else b"-"
    hours, minutes = divmod(abs(offset_minutes), 60)
    return struct.pack(">HBBBBBB", value.year, value.month, value.day, value.hour, value.minute, value.second,
                       value.microsecond // 100000) + direction + bytes([hours, minutes])


def _value(tag, value):
    """The bytes of one value of ``tag``."""
    if tag in (INTEGER, ENUM):
        return struct.pack(">i", value)
    if tag == BOOLEAN:
        return b"\x01" if value else b"\x00"
    if tag == RANGE_OF_INTEGER:
        return struct.pack(">ii", value[0], value[1])
    if tag == RESOLUTION:
        units = value[2] if len(value) > 2 else DOTS_PER_INCH
        return struct.pack(">iib", value[0], value[1], units)
    if tag in OUT_OF_BAND_TAGS and value is None:
        return b""
    if isinstance(value, (bytes, bytearray)):
        if len(value) > MAX_VALUE_LENGTH:
            raise ValueError("IPP value longer than %d bytes" % MAX_VALUE_LENGTH)
        return bytes(value)
    if tag == DATE_TIME:
        return _date_time(value)
    if tag in (TEXT_WITH_LANGUAGE, NAME_WITH_LANGUAGE):
        language, text = (part.encode("utf-8") for part in value)
        return struct.pack(">H", len(language)) + language + struct.pack(">H", len(text)) + text
    data = value.encode("utf-8")
    if len(data) > MAX_TEXT_LENGTH:
        raise ValueError("IPP value longer than %d bytes" % MAX_TEXT_LENGTH)
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


def _string_tag(name):
    for names, tag in STRING_TYPES:
        if name in names:
            return tag
    return KEYWORD


def _typed(name, value):
    """The (tag, value) pairs of one attribute's values."""
    if isinstance(value, Value):
        return [(value.tag, value.value)]
    if isinstance(value, dict):
        return [(BEGIN_COLLECTION, value)]
    if name in RANGE_ATTRIBUTES:
        if isinstance(value, (list, tuple)) and value and isinstance(value[0], (list, tuple, str)):
            return [(RANGE_OF_INTEGER, _range(item)) for item in value]
        return [(RANGE_OF_INTEGER, _range(value))]
    if name in RESOLUTION_ATTRIBUTES and isinstance(value, (list, tuple)):
        if value and isinstance(value[0], (list, tuple)):
            return [(RESOLUTION, tuple(item)) for item in value]
        return [(RESOLUTION, tuple(value))]
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
    if isinstance(value, datetime.datetime):
        return [(DATE_TIME, value)]
    return [(_string_tag(name), str(value))]


def _attribute(name, value):
    out = b""
    for index, (tag, item) in enumerate(_typed(name, value)):
        field_name = name if index == 0 else ""
        if tag == BEGIN_COLLECTION:
            out += _collection(field_name, item)
        else:
            out += _field(tag, field_name, item)
    return out


def attribute(name, value):
    """One attribute with its values (a list for several), typed by name or given as Value."""
    return _attribute(name, value)


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


def _attributes(attributes, dashes=False):
    """Encoded attributes of a dict or (name, value) pairs, in order; bytes are taken as already encoded. With
    ``dashes``, ``_`` in names stands for ``-``."""
    if isinstance(attributes, (bytes, bytearray)):
        return bytes(attributes)
    pairs = attributes.items() if isinstance(attributes, dict) else attributes
    return b"".join(_attribute(name.replace("_", "-") if dashes else name, value) for name, value in pairs)


def group(tag, attributes, dashes=False):
    """An attribute group: its delimiter tag, then the attributes (a dict or (name, value) pairs, in order; bytes
    are taken as already encoded). With ``dashes``, ``_`` in names stands for ``-``."""
    return bytes([tag]) + _attributes(attributes, dashes)


def request(operation, printer_uri=None, operation_attributes=None, job_attributes=None, groups=(), version=(2, 0),
            request_id=1, target="printer-uri", charset="utf-8", natural_language="en"):
    """An IPP request up to and including end-of-attributes (RFC 8010 section 3.1.1).

    The operation attributes come in the order RFC 8011 section 4.1.4 asks for: ``attributes-charset``,
    ``attributes-natural-language``, the target (``target`` named ``printer-uri``, or ``system-uri``, ``job-uri``),
    then ``operation_attributes``. A charset, language or target of None is left out (a malformed request on
    purpose). ``job_attributes`` make a job attributes group (``_`` in their names stands for ``-``); ``groups``
    are more (tag, attributes) groups after it, or bytes put in as they are.
    """
    out = struct.pack(">BBHI", version[0], version[1], operation, request_id)
    first = []
    if charset is not None:
        first.append(("attributes-charset", charset))
    if natural_language is not None:
        first.append(("attributes-natural-language", natural_language))
    if printer_uri is not None:
        first.append((target, Value(URI, printer_uri)))
    out += group(OPERATION_ATTRIBUTES, first) + _attributes(operation_attributes or {})
    if job_attributes:
        out += group(JOB_ATTRIBUTES, job_attributes, dashes=True)
    for item in groups:
        out += bytes(item) if isinstance(item, (bytes, bytearray)) else group(*item)
    return out + bytes([END_OF_ATTRIBUTES])


def request_header(operation, printer_uri, request_id=1, operation_attributes=None, job_attributes=None):
    """An IPP/2.0 request up to end-of-attributes: charset, language and printer-uri first, then the others."""
    return request(operation, printer_uri, operation_attributes, job_attributes, request_id=request_id)
