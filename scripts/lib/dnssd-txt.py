#!/usr/bin/env python3
"""Reads `avahi-browse -rpt` output and checks a printer's TXT record against its IPP attributes.

Usage:
  dnssd-txt.py select NAME        stdin: avahi-browse -rpt output; prints the resolved line of service NAME
                                  (IPv4 preferred), exit 1 when there is none
  dnssd-txt.py keys               stdin: one resolved line; prints the problems with the required keys
                                  (IPP Everywhere self-certification B-2), nothing when there is none
  dnssd-txt.py values             stdin: one resolved line; fetches the attributes from the resolved address
                                  and port with `ipptool -j` and compares every TXT value (B-4); prints one
                                  line per key, exit 1 on any mismatch
  dnssd-txt.py txt                stdin: one resolved line; prints its TXT strings one a line, in the order
                                  avahi-browse printed them

Resolved lines look like (avahi-browse(1), parsable form; TXT strings come last, in reverse wire order):
  =;lo;IPv4;Name\\032with\\032spaces;_ipp._tcp;local;host.local;127.0.0.1;8631;"txtvers=1" ...
"""
import json
import os
import re
import socket
import struct
import subprocess
import sys
import urllib.request

# avahi-browse's lines are read by the test harness's Avahi module (standard library only).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "harness"))
from vptest import avahi  # noqa: E402

# Keys IPP Everywhere requires in an _ipp._tcp TXT record (PWG 5100.14 section 4.2.2, self-certification B-2).
REQUIRED_KEYS = ["adminurl", "pdl", "rp", "UUID"]
# Bonjour Printing 1.2.1 section 9.2.17: PaperMax classes by widest media width in hundredths of millimetres.
PAPER_MAX = [(21000, "<legal-A4"), (29700, "legal-A4"), (42000, "tabloid-A3"), (59400, "isoC-A2")]
# Seconds to wait for the printer's answers.
TIMEOUT = 30


def parse(line):
    """A resolved line's fields (vptest.avahi.parse_line), or None for any other line."""
    parsed = avahi.parse_line(line)
    return parsed if parsed and parsed["event"] == "=" else None


def select(name):
    lines = [parsed for parsed in map(parse, sys.stdin) if parsed and parsed["name"] == name]
    lines.sort(key=lambda item: item["protocol"] != "IPv4")
    if not lines:
        return 1
    print(lines[0]["raw"])
    return 0


def read_line():
    line = sys.stdin.readline()
    parsed = parse(line)
    if parsed is None:
        print("no resolved avahi-browse line")
        sys.exit(1)
    return parsed


def keys():
    service = read_line()
    present = [key for key, _ in service["txt"]]
    lowered = {key.lower() for key in present}
    for key in REQUIRED_KEYS:
        if key.lower() not in lowered:
            print(f"missing {key}")
    # avahi-browse prints the strings in reverse wire order: txtvers, first on the wire, is last here.
    if not present or present[-1] != "txtvers":
        print("txtvers is not the first key on the wire")
    return 0


def attributes_of(service, host_header=None):
    """The printer attributes, from ipptool -j through the resolved address (fixing its out-of-band lines)."""
    address = service["address"]
    if ":" in address:
        address = f"[{address}]"
    rp = dict(service["txt"]).get("rp", "ipp/print")
    uri = f"ipp://{address}:{service['port']}/{rp}"
    output = subprocess.run(
        ["ipptool", "-j", "-T", str(TIMEOUT), uri, "get-printer-attributes.test"],
        capture_output=True, text=True, timeout=TIMEOUT * 2,
    ).stdout
    groups = json.loads(fix_out_of_band(output))
    return next(group for group in groups if group.get("group-tag") == "printer-attributes-tag")


def fix_out_of_band(output):
    """Makes ipptool -j's output JSON: it writes an out-of-band attribute (no-value, unknown) as a bare name
    inside an object (given the value null here)."""
    lines = []
    stack = []
    for line in output.splitlines():
        stripped = line.strip()
        if stripped[:1] in "]}":
            stack = stack[:-1]
        bare = re.fullmatch(r'("[^"\\]*")(,?)', stripped)
        if bare and stack and stack[-1] == "{":
            line = line.replace(stripped, f"{bare.group(1)}: null{bare.group(2)}")
        if stripped[-1:] in "[{":
            stack.append(stripped[-1])
        lines.append(line)
    # It also leaves a comma after the last resolution of a list.
    return re.sub(r",(\s*[\]}])", r"\1", "\n".join(lines))


def more_info_through(service):
    """printer-more-info as a client that uses the advertised host name (Host header) sees it."""
    rp = dict(service["txt"]).get("rp", "ipp/print")
    authority = f"{service['host']}:{service['port']}"
    def attr(tag, name, value):
        return struct.pack(">BH", tag, len(name)) + name.encode() + struct.pack(">H", len(value)) + value.encode()
    body = struct.pack(">BBHI", 2, 0, 0x000B, 1) + b"\x01"
    body += attr(0x47, "attributes-charset", "utf-8") + attr(0x48, "attributes-natural-language", "en")
    body += attr(0x45, "printer-uri", f"ipp://{authority}/{rp}") + attr(0x44, "requested-attributes", "printer-more-info")
    body += b"\x03"
    address = service["address"]
    if ":" in address:
        address = f"[{address}]"
    request = urllib.request.Request(
        f"http://{address}:{service['port']}/{rp}", data=body,
        headers={"Content-Type": "application/ipp", "Host": authority},
    )
    answer = urllib.request.urlopen(request, timeout=TIMEOUT).read()
    marker = b"printer-more-info"
    at = answer.find(marker)
    if at < 0:
        return None
    at += len(marker)
    (length,) = struct.unpack(">H", answer[at : at + 2])
    return answer[at + 2 : at + 2 + length].decode()


def as_list(value):
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def flag(value):
    return "T" if value else "F"


def expected_values(attributes, service):
    """What each TXT key must hold, derived from the attributes (the rules of docs/dnssd.md)."""
    widths = []
    for size in as_list(attributes.get("media-size-supported")):
        width = size.get("x-dimension") if isinstance(size, dict) else None
        widths.append(width.get("upper") if isinstance(width, dict) else width)
    widest = max([width for width in widths if isinstance(width, int)] or [21590])
    paper_max = next((label for limit, label in PAPER_MAX if widest < limit), ">isoC-A2")
    device_id = attributes.get("printer-device-id") or ""
    model = next((field.split(":", 1)[1] for field in device_id.split(";")
                  if field.split(":", 1)[0] in ("MDL", "MODEL") and ":" in field), None)
    copies = attributes.get("copies-supported")
    urf = as_list(attributes.get("urf-supported"))
    expected = {
        "adminurl": more_info_through(service),
        "rp": None,  # checked below: the path of printer-uri-supported
        "ty": attributes.get("printer-make-and-model"),
        "note": attributes.get("printer-location") or "",
        "product": f"({model or attributes.get('printer-make-and-model')})",
        "pdl": ",".join(f for f in as_list(attributes.get("document-format-supported"))
                        if f != "application/octet-stream"),
        "UUID": re.sub(r"^urn:uuid:", "", attributes.get("printer-uuid") or "", flags=re.I),
        "Color": flag(attributes.get("color-supported")),
        "Duplex": flag(any(s.startswith("two-sided") for s in as_list(attributes.get("sides-supported")))),
        "Copies": flag(isinstance(copies, dict) and copies.get("upper", 1) > 1),
        "kind": ",".join(as_list(attributes.get("printer-kind"))) or "document",
        "PaperMax": paper_max,
        "URF": ",".join(urf) if urf else "none",
        "air": "none",
    }
    if "mopria-certified" in attributes:
        expected["mopria-certified"] = attributes["mopria-certified"]
    uris = as_list(attributes.get("printer-uri-supported"))
    expected["rp"] = re.sub(r"^ipps?://[^/]+/", "", uris[0]) if uris else None
    return expected


def values():
    service = read_line()
    attributes = attributes_of(service)
    txt = dict(service["txt"])
    bad = 0
    expected = expected_values(attributes, service)
    for key, want in expected.items():
        have = txt.get(key)
        if have == want:
            print(f"ok   {key}={have}")
        else:
            bad += 1
            print(f"BAD  {key}: TXT {have!r}, attributes say {want!r}")
    if "mopria-certified" in txt and "mopria-certified" not in attributes:
        bad += 1
        print("BAD  mopria-certified advertised, but the printer has no mopria-certified attribute")
    print(f"all {len(expected)} derived TXT values agree with the attributes" if bad == 0 else f"{bad} TXT values disagree")
    return 1 if bad else 0


def txt():
    service = read_line()
    for key, value in service["txt"]:
        print(key if value is None else f"{key}={value}")
    return 0


def main():
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "select" and len(sys.argv) == 3:
        return select(sys.argv[2])
    if command in ("keys", "values", "txt"):
        return {"keys": keys, "values": values, "txt": txt}[command]()
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
