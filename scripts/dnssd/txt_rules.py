"""What a printer's _ipp._tcp TXT record must hold (the rules of docs/dnssd.md), derived from its printer
attributes, and those attributes as a client that found the printer over DNS-SD gets them."""
import re

from vprinter import ipp
from vptest import calls

# Keys IPP Everywhere requires in an _ipp._tcp TXT record (PWG 5100.14 section 4.2.2, self-certification B-2).
REQUIRED_KEYS = ["adminurl", "pdl", "rp", "UUID"]
# Bonjour Printing 1.2.1 section 9.2.17: PaperMax classes by widest media width in hundredths of millimetres.
PAPER_MAX = [(21000, "<legal-A4"), (29700, "legal-A4"), (42000, "tabloid-A3"), (59400, "isoC-A2")]
# The width PaperMax assumes when no media size has one: US letter.
LETTER_WIDTH = 21590
# What ipptool's get-printer-attributes.test asks for.
REQUESTED = ["all", "media-col-database"]


def attributes_through(service):
    """The printer attributes of a resolved service (vptest.avahi.parse_line's dict): Get-Printer-Attributes sent
    to its resolved address and port, naming the advertised host (``Host`` and printer-uri) as a client that
    uses that host name does; printer-more-info is then what such a client is shown. {name: [values]}."""
    rp = dict(service["txt"]).get("rp", "ipp/print")
    authority = "%s:%d" % (service["host"], service["port"])
    address = "[%s]" % service["address"] if ":" in service["address"] else service["address"]
    body = ipp.request(ipp.GET_PRINTER_ATTRIBUTES, "ipp://%s/%s" % (authority, rp),
                       {"requested-attributes": REQUESTED})
    answer = calls.call("POST", "http://%s:%d/%s" % (address, service["port"], rp), bytes(body),
                        headers={"Content-Type": "application/ipp", "Host": authority})
    assert answer.status == 200, "Get-Printer-Attributes through %s: HTTP %d" % (authority, answer.status)
    message = ipp.decode_message(answer.body)
    assert ipp.successful(message.status), "Get-Printer-Attributes through %s: status 0x%04x %s" % (
        authority, message.status, message.status_message)
    return message.group(ipp.PRINTER_ATTRIBUTES)


def first(attributes, name):
    """The first value of an attribute; None when it is missing or out-of-band (no-value, unknown)."""
    value = (attributes.get(name) or [None])[0]
    return None if isinstance(value, ipp.Value) else value


def flag(value):
    return "T" if value else "F"


def paper_max(attributes):
    """The PaperMax class of the widest media size (a range counts with its upper end)."""
    widths = []
    for size in attributes.get("media-size-supported", []):
        width = first(size, "x-dimension") if isinstance(size, dict) else None
        widths.append(width[1] if isinstance(width, tuple) else width)
    widest = max([width for width in widths if isinstance(width, int)] or [LETTER_WIDTH])
    return next((label for limit, label in PAPER_MAX if widest < limit), ">isoC-A2")


def expected_values(attributes):
    """What each TXT key must hold, derived from the attributes: {key: value}."""
    device_id = first(attributes, "printer-device-id") or ""
    model = next((field.split(":", 1)[1] for field in device_id.split(";")
                  if field.split(":", 1)[0] in ("MDL", "MODEL") and ":" in field), None)
    make_and_model = first(attributes, "printer-make-and-model")
    copies = first(attributes, "copies-supported")
    urf = attributes.get("urf-supported", [])
    uris = attributes.get("printer-uri-supported", [])
    expected = {
        "adminurl": first(attributes, "printer-more-info"),
        "rp": re.sub(r"^ipps?://[^/]+/", "", uris[0]) if uris else None,
        "ty": make_and_model,
        "note": first(attributes, "printer-location") or "",
        "product": "(%s)" % (model or make_and_model),
        "pdl": ",".join(item for item in attributes.get("document-format-supported", [])
                        if item != "application/octet-stream"),
        "UUID": re.sub(r"^urn:uuid:", "", first(attributes, "printer-uuid") or "", flags=re.I),
        "Color": flag(first(attributes, "color-supported")),
        "Duplex": flag(any(side.startswith("two-sided") for side in attributes.get("sides-supported", []))),
        "Copies": flag(isinstance(copies, tuple) and copies[1] > 1),
        "kind": ",".join(attributes.get("printer-kind", [])) or "document",
        "PaperMax": paper_max(attributes),
        "URF": ",".join(urf) if urf else "none",
        "air": "none",
    }
    if "mopria-certified" in attributes:
        expected["mopria-certified"] = first(attributes, "mopria-certified")
    return expected


def compare(txt_pairs, attributes):
    """Every derived TXT value against the record: (lines of those that disagree, lines of those that agree)."""
    txt = dict(txt_pairs)
    bad, good = [], []
    for key, want in expected_values(attributes).items():
        have = txt.get(key)
        if have == want:
            good.append("%s=%s" % (key, have))
        else:
            bad.append("%s: TXT %r, attributes say %r" % (key, have, want))
    if "mopria-certified" in txt and "mopria-certified" not in attributes:
        bad.append("mopria-certified advertised, but the printer has no mopria-certified attribute")
    return bad, good
