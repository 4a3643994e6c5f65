"""What vprinter advertises, as avahi-browse, ippfind and ipptool see it: how soon a new printer is found, its
services and subtypes, two printers with one name, and a printer started with --no-dnssd."""
import time
import urllib.parse

from vptest import artifacts, avahi, waiting
from vptest.watch import Watch

from commands import ipptool_attribute
from conftest import resolved, service_name

# The discovery time the project aims at, in milliseconds (reported, not asserted).
DISCOVER_TARGET_MS = 1000
# Seconds the watchers get to take their first look before the printer starts.
WATCHERS_SETTLE = 1.5
# The services of a printer (docs/dnssd.md): IPP with its _print and _universal subtypes, the web page with the
# _printer subtype, and the LPD placeholder.
SERVICE_TYPES = ["_print._sub._ipp._tcp", "_universal._sub._ipp._tcp", "_http._tcp", "_printer._sub._http._tcp",
                 "_printer._tcp"]
# The services a printer with --no-dnssd must not show up in.
PLAIN_TYPES = ["_ipp._tcp", "_http._tcp", "_printer._tcp"]


def milliseconds(since, seen):
    return round((seen[0] - since) * 1000)


def test_clients_discover_a_new_printer(advertise):
    """avahi-browse (resolved) and ippfind, already watching, see a printer that starts; the time from its start
    is measured."""
    name = service_name("discover")
    by_avahi = Watch(["avahi-browse", "-p", "-r", "-k", "_ipp._tcp"])
    # Line-buffered: ippfind writes to a pipe in blocks otherwise.
    by_ippfind = Watch(["stdbuf", "-oL", "ippfind", "_ipp._tcp,_print", "-T", "60"])
    try:
        time.sleep(WATCHERS_SETTLE)
        started = time.monotonic()
        printer = advertise(name)
        avahi_saw = by_avahi.first(lambda line: (avahi.parse_line(line) or {}).get("name") == name and
                                   line.startswith("="))
        # ippfind prints the resolved URI (host name and port), not the instance name.
        ippfind_saw = by_ippfind.first(lambda line: urllib.parse.urlsplit(line.strip()).port == printer.port)
    finally:
        by_avahi.stop()
        by_ippfind.stop()
    assert avahi_saw and ippfind_saw, "not found within %d s (avahi-browse: %s, ippfind: %s)" % (
        waiting.WAIT_LIMIT, bool(avahi_saw), bool(ippfind_saw))
    artifacts.record_figure("discover", avahi_browse_ms=milliseconds(started, avahi_saw),
                            ippfind_ms=milliseconds(started, ippfind_saw), target_ms=DISCOVER_TARGET_MS)


def test_every_service_and_subtype_is_browsable(advertise):
    """The printer resolves under _ipp._tcp's _print and _universal subtypes, _http._tcp and its _printer subtype,
    and _printer._tcp."""
    name = service_name("types")
    advertise(name)

    missing = [kind for kind in SERVICE_TYPES if not avahi.wait_resolved(name, kind, limit=waiting.WAIT_LIMIT)]
    assert missing == [], "not browsable within %d s: %s" % (waiting.WAIT_LIMIT, ", ".join(missing))


def test_a_second_printer_of_the_same_name_is_renamed(advertise):
    """Two vprinters with one --name: both are browsable, the second as 'NAME (2)', which its
    printer-dns-sd-name and a line of its log say too."""
    name = service_name("twin")
    renamed = name + " (2)"
    advertise(name)
    twin = advertise(name)
    resolved(renamed, "the second printer, renamed")
    resolved(name, "the first printer, still there")
    assert ipptool_attribute(twin.uri, "printer-dns-sd-name") == renamed
    assert "now advertised as '%s'" % renamed in twin.log, twin.log


def test_a_printer_with_no_dnssd_is_not_advertised(advertise):
    """A vprinter started with --no-dnssd shows up in no service, while one started after it without does."""
    hidden, shown = service_name("hidden"), service_name("shown")
    advertise(hidden, dnssd=False)
    advertise(shown)
    resolved(shown, "the control printer")
    for service_type in PLAIN_TYPES:
        assert hidden not in avahi.names(service_type), "%r is advertised under %s despite --no-dnssd" % (
            hidden, service_type)
