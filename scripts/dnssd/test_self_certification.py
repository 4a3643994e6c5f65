"""The DNS-SD tests of the IPP Everywhere self-certification (PWG 5100.20, B-1 to B-4), once per profile (conftest:
--dnssd-profiles, --dnssd-service). What each saw goes to PROFILE/ in the artifacts."""
import urllib.parse

from commands import BROWSE_LIMIT, ippfind_until_found
from conftest import resolved
from txt_rules import REQUIRED_KEYS, attributes_through, compare


def resolved_line(service):
    """avahi-browse's resolved line of the service (IPv4 preferred), waited for; kept as avahi-browse.txt."""
    line = resolved(service.name, "the self-certification checks")
    (service.folder / "avahi-browse.txt").write_text(line["raw"] + "\n")
    return line


def test_b1_browse(service):
    """B-1: a client browsing for IPP Everywhere printers (the _print subtype of _ipp._tcp) finds the printer, at
    the printer's port and resource."""
    output, errors = ippfind_until_found("_ipp._tcp,_print", "--literal-name", service.name)
    (service.folder / "ippfind.err").write_text(errors)
    assert output, "ippfind _ipp._tcp,_print did not find %r within %d s" % (service.name, BROWSE_LIMIT)
    uri = urllib.parse.urlsplit(output.splitlines()[0])
    if service.printer is not None:
        assert (uri.port, uri.path) == (service.printer.port, service.printer.path), output


def test_b2_keys(service):
    """B-2: the TXT record holds adminurl, pdl, rp and UUID (keys compare without letter case, RFC 6763 section
    6.4), and txtvers is its first string on the wire."""
    line = resolved_line(service)
    keys = [key for key, _ in line["txt"]]
    (service.folder / "txt.txt").write_text(
        "".join((key if value is None else "%s=%s" % (key, value)) + "\n" for key, value in line["txt"]))
    present = {key.lower() for key in keys}
    missing = [key for key in REQUIRED_KEYS if key.lower() not in present]
    assert not missing, "the TXT record lacks %s: %s" % (", ".join(missing), list(reversed(keys)))
    # avahi-browse prints the strings in reverse wire order: txtvers, first on the wire, is last here.
    assert keys[-1:] == ["txtvers"], "txtvers is not the first key on the wire: %s" % list(reversed(keys))


def test_b3_resolve(service):
    """B-3: the service URI ippfind resolves answers Get-Printer-Attributes (ipptool)."""
    output, errors = ippfind_until_found("_ipp._tcp,_print", "--literal-name", service.name, "--exec", "ipptool",
                                         "-t", "{service_uri}", "get-printer-attributes.test", ";")
    (service.folder / "resolve.log").write_text(output + errors)
    assert output, "Get-Printer-Attributes on the resolved URI failed: %s" % errors.strip()[-300:]
    assert "[PASS]" in output and "[FAIL]" not in output, output


def test_b4_values(service):
    """B-4: every TXT value agrees with the printer's attributes as a client of the advertised host sees them
    (adminurl is printer-more-info, pdl, rp, UUID, ty, note, product, Color, Duplex, Copies, kind, PaperMax, URF,
    air, mopria-certified: the rules of docs/dnssd.md)."""
    line = resolved_line(service)
    bad, good = compare(line["txt"], attributes_through(line))
    (service.folder / "values.txt").write_text("".join("ok   %s\n" % item for item in good) +
                                               "".join("BAD  %s\n" % item for item in bad))
    assert bad == [], "%d TXT values disagree with the attributes: %s" % (len(bad), "; ".join(bad))
