"""Fixtures of the client compatibility tests (docs/clients.md).

One vprinter per shipped profile (every profiles/*.json, found when the run starts, so that profiles added later
are covered), all started at once and advertised over DNS-SD through the test's Avahi daemon on loopback; the tests
find them with avahi-browse and Avahi's resolver as the clients do, and send them each client's own IPP requests.
Every printer gets a unique service name (profile and process id): other tests on this machine advertise on
loopback too.

Each client test records what the client made of each profile (record()); the verdicts go to the suite's
verdicts.jsonl, and the run ends with the client x profile table, also written to table.md beside it.

Environment (scripts/client-test): DBUS_SYSTEM_BUS_ADDRESS (the Avahi bus), CUPS_SERVER (the private cupsd, for the
CUPS and cups-browsed tests), VP_CLIENT_TEST_ISOLATED (the cups-browsed run, in its own network namespace: one
printer).
"""
import concurrent.futures
import json
import os
import re
import subprocess
import threading

import pytest
from vprinter import ipp
from vptest import artifacts, avahi, lan, waiting
from vptest.documents import PWG_GRAY, PWG_RGB, ghostscript
from vptest.printer import shipped_profiles

# The printing profiles: a scanner alone (document-scanner) has no IPP printer to test (its client is
# test_scanimage.py).
PROFILES = shipped_profiles()
# The profile printed through the real cups-browsed: duplex-laser (PDF, like most printers), else the first one.
CUPS_BROWSED_PROFILE = "duplex-laser" if "duplex-laser" in PROFILES else PROFILES[0]
# scripts/client-test runs the cups-browsed test alone in a network namespace of its own; it needs one printer.
ISOLATED = bool(os.environ.get("VP_CLIENT_TEST_ISOLATED"))
# The longest any start, browse or job of these tests may take, in seconds.
WAIT_LIMIT = 60
# The user name of the clients' requests.
USER = ("requesting-user-name", ipp.Value(ipp.NAME, "client-test"))
# (client, profile) -> what the client made of the profile, filled by the tests through record().
RESULTS = {}


def record(client, profile, verdict):
    """Notes what `client` made of `profile` for the table."""
    RESULTS[(client, profile)] = verdict


@pytest.fixture(scope="session")
def fleet(start_session_printer):
    """Every shipped profile running at once, advertised as vp-PROFILE-PID, by profile name. A printer's ``uri``
    names it by address (ipp://127.0.0.1:PORT/ipp/print), as a client that resolved the service prints to it."""

    def started(profile):
        service = f"vp-{profile}-{os.getpid()}"
        printer = start_session_printer(profile=profile, name=service, dnssd=True)
        printer.profile, printer.service = profile, service
        printer.uri = f"ipp://127.0.0.1:{printer.port}{printer.path}"
        return printer

    profiles = [CUPS_BROWSED_PROFILE] if ISOLATED else PROFILES
    with concurrent.futures.ThreadPoolExecutor(len(profiles)) as pool:
        printers = dict(zip(profiles, pool.map(started, profiles)))
    yield printers
    for printer in printers.values():
        artifacts.keep(printer.log_path, f"vprinter-{printer.profile}.log")


class Browse:
    """What DNS-SD shows of our printers: their _ipp._tcp instances resolved to IPv4 and IPv6 addresses, and the
    names listed under each subtype. Other tests on this machine advertise on loopback too (sometimes a thousand
    printers), so only our own instances are resolved."""

    def __init__(self, names):
        waiting.wait_until(lambda: names <= avahi.names("_ipp._tcp"), WAIT_LIMIT, interval=0.5)
        self.services = {name: [service for service in (avahi.resolve(name, avahi.INET),
                                                        avahi.resolve(name, avahi.INET6)) if service]
                         for name in names}
        self.subtypes = {}
        for subtype in ("_print._sub._ipp._tcp", "_universal._sub._ipp._tcp"):
            found = set()

            def complete():
                found.update(avahi.names(subtype))
                return names <= found

            # Subtype answers can lag the main type's by a moment: ask until every expected name came, for two
            # seconds at the most (printers without PWG raster are never listed under _print).
            waiting.wait_until(complete, limit=2, interval=0.3)
            self.subtypes[subtype.split(".")[0]] = found

    def ipp(self, name):
        """The resolved _ipp._tcp entries of `name`: the IPv4 one first, then the IPv6 one."""
        return self.services.get(name, [])

    def found(self, printer):
        """The first resolved _ipp._tcp entry of `printer`; asserts that there is one."""
        services = self.ipp(printer.service)
        assert services, f"{printer.service} was not found and resolved as _ipp._tcp"
        return services[0]

    def in_subtype(self, name, subtype):
        return name in self.subtypes[subtype]


@pytest.fixture(scope="module")
def lan_network():
    """A LAN of the test's own (vptest.lan): a "printer" and a "phone" host joined by a veth pair, each with its
    own bus and Avahi daemon, torn down after the module. It needs root: when it cannot be made, the tests that
    use it fail with the reason, never skip."""
    try:
        with lan.network() as network:
            yield network
    except lan.LanError as problem:
        pytest.fail("the test LAN could not be made: %s" % problem, pytrace=False)


@pytest.fixture(scope="session")
def browse(fleet):
    return Browse({printer.service for printer in fleet.values()})


def ipv4_address(name):
    """The IPv4 address `name`'s _ipp._tcp service resolves to (Android's MdnsDiscovery drops services without
    one), or None."""
    service = avahi.resolve(name, avahi.INET)
    return service.address if service and re.fullmatch(r"\d+\.\d+\.\d+\.\d+", service.address) else None


# ---- documents, made once per run ----

PAGE_PROGRAM = """%!PS
/W currentpagedevice /PageSize get 0 get def /H currentpagedevice /PageSize get 1 get def
0 setgray 2 setlinewidth 36 36 W 72 sub H 72 sub rectstroke
/Helvetica findfont 28 scalefont setfont 72 H 120 sub moveto (client test page) show
0.5 setgray 72 72 144 144 rectfill 0.9 0.2 0.1 setrgbcolor 240 72 144 144 rectfill showpage
"""

PCLM_PPD = """*PPD-Adobe: "4.3"
*FormatVersion: "4.3"
*FileVersion: "1.0"
*LanguageVersion: English
*LanguageEncoding: ISOLatin1
*PCFileName: "CLIENTS.PPD"
*Manufacturer: "vprinter"
*Product: "(client test)"
*ModelName: "vprinter client test"
*NickName: "vprinter client test"
*ShortNickName: "vprinter client test"
*ColorDevice: True
*cupsFilter2: "application/vnd.cups-raster application/PCLm 0 rastertopclm"
*cupsPclmStripHeightPreferred: {strip}
*cupsPclmStripHeightSupported: {strip}
*cupsPclmRasterBackSide: Normal
*cupsPclmSourceResolutionSupported: "{dpi}dpi"
*cupsPclmSourceResolutionDefault: "{dpi}dpi"
*cupsPclmCompressionMethodPreferred: {compression}
*OpenUI *PageSize: PickOne
*DefaultPageSize: Letter
*PageSize Letter: "<</PageSize[612 792]>>setpagedevice"
*CloseUI: *PageSize
"""


class Documents:
    """The test page as PDF, PWG raster, PCLm (cups-filters' rastertopclm) and Apple Raster, on Letter, made with
    Ghostscript when first asked for and kept for the run."""

    def __init__(self, folder):
        self.folder = folder
        self.cache = {}
        self.lock = threading.Lock()
        self.source = os.path.join(folder, "page.ps")
        with open(self.source, "w") as file:
            file.write(PAGE_PROGRAM)

    def _gs(self, device, path, *options):
        ghostscript(device, path, "-sPAPERSIZE=letter", "-dFIXEDMEDIA", *options, source=self.source)

    def get(self, kind, dpi=300, color=True, compression="flate", strip=16):
        key = (kind, dpi, color, compression, strip)
        with self.lock:
            if key not in self.cache:
                self.cache[key] = self._make(os.path.join(self.folder, "-".join(str(part) for part in key)), *key)
            return self.cache[key]

    def _make(self, path, kind, dpi, color, compression, strip):
        if kind == "pdf":
            self._gs("pdfwrite", path)
        elif kind == "urf":
            self._gs("urf", path, f"-r{dpi}")
        elif kind in ("pwg", "pclm"):
            raster = path + ".pwg" if kind == "pclm" else path
            self._gs("pwgraster", raster, f"-r{dpi}",
                     f"-dcupsColorSpace={PWG_RGB if color else PWG_GRAY}", "-dcupsBitsPerColor=8")
            if kind == "pclm":
                ppd = path + ".ppd"
                with open(ppd, "w") as file:
                    file.write(PCLM_PPD.format(dpi=dpi, compression=compression, strip=strip))
                environment = dict(os.environ, PPD=ppd, CUPS_SERVERBIN="/usr/lib/cups")
                with open(path, "wb") as out:
                    subprocess.run(["/usr/lib/cups/filter/rastertopclm", "1", "client-test", "client test", "1", "",
                                    raster], stdout=out, stderr=subprocess.DEVNULL, env=environment, check=True,
                                   timeout=WAIT_LIMIT)
        else:
            raise ValueError(kind)
        return path


@pytest.fixture(scope="session")
def documents(tmp_path_factory):
    return Documents(str(tmp_path_factory.mktemp("client-documents")))


# ---- IPP as the clients send it ----

def get_printer_attributes(uri, requested, version=(2, 0)):
    """Get-Printer-Attributes with `requested` (requested-attributes after requesting-user-name) in IPP `version`;
    returns the answer (a vprinter.ipp.Message) and its printer attributes."""
    answer = ipp.send(uri, ipp.request(ipp.GET_PRINTER_ATTRIBUTES, uri, [
        USER, ("requested-attributes", [ipp.Value(ipp.KEYWORD, name) for name in requested])], version=version))
    return answer, answer.group(ipp.PRINTER_ATTRIBUTES)


def closest_resolution(resolutions, wanted=300):
    """The resolution nearest to `wanted` dpi among (x, y, units) values (as AOSP lib_wprint.c picks one)."""
    dpis = sorted({value[0] for value in resolutions if value[2] == 3})
    return min(dpis, key=lambda dpi: (abs(dpi - wanted), dpi)) if dpis else wanted


def print_job_request(uri, document_format, operation=(), job=(), version=(2, 0), name="client test"):
    """A client's Print-Job request: requesting-user-name, job-name, document-format, then the client's own
    operation attributes (name, vprinter.ipp.Value) in order, and its job attributes."""
    return ipp.request(ipp.PRINT_JOB, uri, [USER, ("job-name", ipp.Value(ipp.NAME, name)),
                                            ("document-format", ipp.Value(ipp.MIME_TYPE, document_format)),
                                            *operation], list(job), version=version)


def print_job(printer, document, document_format, **request):
    """Print-Job with `document` (see print_job_request); returns (IPP status, job id or None, answer)."""
    with open(document, "rb") as file:
        answer = ipp.send(printer.uri, print_job_request(printer.uri, document_format, **request), file.read())
    return answer.status, answer.job_id, answer


def printed(printer, document, document_format, detected=None, **request):
    """Prints and waits: asserts the printer took the job, printed it completely and rendered at least one side, and
    detected the format sent (or `detected`); returns the job record."""
    status, job_id, answer = print_job(printer, document, document_format, **request)
    assert status in (0x0000, 0x0001), (
        f"Print-Job ({document_format}) answered 0x{status:04x}: {answer.status_message}")
    assert job_id, "Print-Job returned no job-id"
    job_record = printer.wait_for_job(job_id, timeout=WAIT_LIMIT)
    assert job_record["job-state"] == "completed", (
        f"job ended {job_record['job-state']}: {job_record.get('job-state-message')}")
    assert job_record["impressions"], "the job was completed without a rendered side"
    assert job_record["documents"][0]["document-format-detected"].lower() == (detected or document_format).lower()
    return job_record


def media_size_of(attributes):
    """x and y of media-col-default's media-size (what a client puts into its own media-col)."""
    size = attributes["media-col-default"][0]["media-size"][0]
    return size["x-dimension"][0], size["y-dimension"][0]


# ---- the table ----

def pytest_runtest_makereport(item, call):
    """Keeps each client test's verdict on its profile: what it recorded, PASS when it recorded nothing, or FAIL
    with the first line of its error."""
    if call.when != "call" or not hasattr(item, "callspec"):
        return
    profile = item.callspec.params.get("profile")
    client = getattr(item.module, "CLIENT", None)
    if profile is None or client is None:
        return
    verdict = RESULTS.get((client, profile), "PASS")
    if call.excinfo is not None:
        message = str(call.excinfo.value).splitlines()[0] if str(call.excinfo.value) else call.excinfo.typename
        verdict = "FAIL: " + message[:90]
    RESULTS[(client, profile)] = verdict
    artifacts.record_verdict(profile, verdict, client=client)


def pytest_terminal_summary(terminalreporter):
    """The client x profile table of every verdict of the stage (scripts/client-test runs pytest twice, the
    cups-browsed test alone in its own network namespace; the table holds both)."""
    path = artifacts.folder() / artifacts.VERDICTS
    if not RESULTS or not path.exists():
        return
    verdicts = {}
    for line in path.read_text().splitlines():
        entry = json.loads(line)
        if "client" in entry:
            verdicts[(entry["client"], entry["subject"])] = entry["verdict"]
    clients = list(dict.fromkeys(client for client, _ in verdicts))
    lines = ["| profile | " + " | ".join(clients) + " |", "|---|" + "---|" * len(clients)]
    for profile in sorted({profile for _, profile in verdicts}):
        cells = [verdicts.get((client, profile), "not run") for client in clients]
        lines.append(f"| {profile} | " + " | ".join(cells) + " |")
    artifacts.write("table.md", "\n".join(lines) + "\n")
    terminalreporter.write_sep("=", "client x profile")
    for line in lines:
        terminalreporter.write_line(line)
