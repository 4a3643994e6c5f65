"""Fixtures of the client compatibility tests (docs/clients.md).

One vprinter process per shipped profile (every profiles/*.json, found when the run starts, so that profiles added
later are covered), all started at once and advertised over DNS-SD through the test's Avahi daemon on loopback; the
tests find them with avahi-browse as the clients do and talk IPP to them. Every printer gets a unique service name
(profile and process id), because other tests on this machine advertise on loopback too.

Each client test records what the client made of each profile (RESULTS); the run ends with the client x profile
table, also written to $VP_ARTIFACTS/client-test/table.md.

Environment: VPRINTER (the binary), DBUS_SYSTEM_BUS_ADDRESS (the Avahi bus), CUPS_SERVER (the private cupsd, for
the CUPS and cups-browsed tests), VP_ARTIFACTS.
"""
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import ipp_wire  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parents[2]
PROFILES = sorted(path.stem for path in (REPO / "profiles").glob("*.json"))
# The profile printed through the real cups-browsed: duplex-laser (PDF, like most printers), else the first one.
CUPS_BROWSED_PROFILE = "duplex-laser" if "duplex-laser" in PROFILES else PROFILES[0]
# scripts/client-test runs the cups-browsed test alone in a network namespace of its own; it needs one printer.
ISOLATED = bool(os.environ.get("VP_CLIENT_TEST_ISOLATED"))
ARTIFACTS = pathlib.Path(os.environ.get("VP_ARTIFACTS", REPO / "artifacts")) / "client-test"
# The longest any start, browse or job of these tests may take, in seconds.
WAIT_LIMIT = 60
SUFFIX = str(os.getpid())
# (client, profile) -> what the client did, filled by the tests; failures are filled in by the report hook.
RESULTS = {}
CLIENT_NAMES = {}


def record(client, profile, verdict):
    """Notes what `client` made of `profile` for the table."""
    RESULTS[(client, profile)] = verdict


class Printer:
    """One running vprinter with one profile, advertised as `service`."""

    def __init__(self, profile, root):
        self.profile = profile
        self.service = f"vp-{profile}-{SUFFIX}"
        self.output = os.path.join(root, profile)
        self.stderr_path = os.path.join(root, f"{profile}.stderr.log")
        self.stderr = open(self.stderr_path, "wb")
        self.process = subprocess.Popen(
            [os.environ["VPRINTER"], "--profile", profile, "--port", "0", "--name", self.service,
             "--output-dir", self.output],
            stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        self.uri = None

    def wait_ready(self):
        line = self.process.stdout.readline().strip()
        assert line.startswith("ipp://"), f"{self.profile}: vprinter printed no URI (see {self.stderr_path})"
        self.port = int(re.match(r"ipps?://[^/]*:(\d+)/", line).group(1))
        self.uri = f"ipp://127.0.0.1:{self.port}/ipp/print"
        self.base = f"http://127.0.0.1:{self.port}"

    def api(self, path):
        with urllib.request.urlopen(self.base + path, timeout=WAIT_LIMIT) as response:
            return json.loads(response.read())

    def wait_job(self, job_id, limit=WAIT_LIMIT):
        """The job record once the job has ended."""
        deadline = time.monotonic() + limit
        while True:
            record_ = self.api(f"/api/v1/jobs/{job_id}")
            if record_["job-state"] in ("completed", "aborted", "canceled"):
                return record_
            assert time.monotonic() < deadline, f"job {job_id} on {self.profile} still {record_['job-state']}"
            time.sleep(0.05)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.stderr.close()


@pytest.fixture(scope="session")
def fleet():
    """Every shipped profile running at once, by profile name."""
    root = tempfile.mkdtemp(prefix="vprinter-clients-")
    printers = {profile: Printer(profile, root) for profile in ([CUPS_BROWSED_PROFILE] if ISOLATED else PROFILES)}
    try:
        for printer in printers.values():
            printer.wait_ready()
        yield printers
    finally:
        for printer in printers.values():
            printer.stop()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        for printer in printers.values():
            shutil.copy(printer.stderr_path, ARTIFACTS / f"vprinter-{printer.profile}.stderr.log")
        shutil.rmtree(root, ignore_errors=True)


# Names in avahi-browse -p lines are unescaped by the test harness's Avahi module (standard library only).
sys.path.insert(0, str(REPO / "scripts" / "harness"))
from vptest import avahi  # noqa: E402

# Avahi's address protocols (avahi-common/address.h).
INET, INET6 = 0, 1


class Service:
    """One DNS-SD service instance resolved to one address (Avahi's ResolveService); `txt` has lower-case keys
    (RFC 6763 section 6.4: keys compare without letter case)."""

    def __init__(self, name, host, address, port, txt_pairs):
        self.name, self.host, self.address, self.port = name, host, address, port
        self.txt_pairs = txt_pairs
        self.txt = {key.lower(): value for key, value in txt_pairs}


def resolve(name, address_protocol, service_type="_ipp._tcp"):
    """Resolves one service instance through Avahi's D-Bus API, as a client resolves the one it picked (Android's
    NsdManager, Chromium's resolver) rather than everything on the link; None when it does not resolve."""
    result = subprocess.run(
        ["dbus-send", "--system", "--print-reply", "--reply-timeout=15000", "--dest=org.freedesktop.Avahi", "/",
         "org.freedesktop.Avahi.Server.ResolveService", "int32:-1", "int32:-1", f"string:{name}",
         f"string:{service_type}", "string:local", f"int32:{address_protocol}", "uint32:0"],
        capture_output=True, text=True, timeout=30)
    if result.returncode != 0:
        return None
    # Reply: interface, protocol, name, type, domain, host, aprotocol, address, port, TXT (aay), flags.
    scalars = re.findall(r'^\s+(?:int32|uint16|uint32|string) "?(.*?)"?$', result.stdout, re.M)
    txt = []
    for text, hex_bytes in re.findall(r'array of bytes (?:"(.*)"|\[([0-9a-f\s]*)\])', result.stdout):
        string = text if not hex_bytes else bytes.fromhex(hex_bytes).decode("utf-8", "replace")
        key, _, value = string.partition("=")
        txt.append((key, value))
    if len(scalars) < 9:
        return None
    return Service(scalars[2], scalars[5], scalars[7], int(scalars[8]), txt)


def browse_names(service_type):
    """The instance names avahi-browse lists for `service_type` (no resolving)."""
    lines = subprocess.run(["avahi-browse", "-pt", service_type], capture_output=True, text=True,
                           timeout=WAIT_LIMIT).stdout.splitlines()
    return {avahi.unescape(line.split(";")[3]) for line in lines if line.startswith("+;") and line.count(";") >= 3}


class Browse:
    """What DNS-SD shows of our printers: their _ipp._tcp instances resolved to IPv4 and IPv6 addresses, and the
    names listed under each subtype. Other tests on this machine advertise on loopback too (sometimes a thousand
    printers), so only our own instances are resolved."""

    def __init__(self, names):
        deadline = time.monotonic() + WAIT_LIMIT
        while not names <= browse_names("_ipp._tcp") and time.monotonic() < deadline:
            time.sleep(0.5)
        self.services = {}
        for name in names:
            self.services[name] = [service for service in (resolve(name, INET), resolve(name, INET6)) if service]
        self.subtypes = {}
        for subtype in ("_print._sub._ipp._tcp", "_universal._sub._ipp._tcp"):
            found = set()
            # Subtype answers can lag the main type's by a moment: ask until every expected name came or time is up.
            for _ in range(3):
                found |= browse_names(subtype)
                if names <= found:
                    break
                time.sleep(0.3)
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


@pytest.fixture(scope="session")
def browse(fleet):
    return Browse({printer.service for printer in fleet.values()})


def ipv4_address(name):
    """The IPv4 address `name`'s _ipp._tcp service resolves to (Android's MdnsDiscovery drops services without
    one), or None."""
    service = resolve(name, INET)
    return service.address if service and re.fullmatch(r"\d+\.\d+\.\d+\.\d+", service.address) else None


# ---- documents, generated once per run ----

PAGE_PROGRAM = """
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
    """Sample documents made with Ghostscript and cups-filters, cached by kind."""

    def __init__(self, folder):
        self.folder = folder
        self.cache = {}
        self.lock = threading.Lock()
        self.source = os.path.join(folder, "page.ps")
        with open(self.source, "w") as file:
            file.write("%!PS\n" + PAGE_PROGRAM)

    def _gs(self, *arguments):
        subprocess.run(["gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sPAPERSIZE=letter", "-dFIXEDMEDIA",
                        *arguments, self.source], check=True, capture_output=True, timeout=WAIT_LIMIT)

    def get(self, kind, dpi=300, color=True, compression="flate", strip=16):
        key = (kind, dpi, color, compression, strip)
        with self.lock:
            if key in self.cache:
                return self.cache[key]
            path = os.path.join(self.folder, "-".join(str(part) for part in key))
            if kind == "pdf":
                self._gs("-sDEVICE=pdfwrite", f"-sOutputFile={path}")
            elif kind in ("pwg", "pclm"):
                raster = path + ".pwg"
                self._gs("-sDEVICE=pwgraster", f"-r{dpi}", f"-dcupsColorSpace={19 if color else 18}",
                         "-dcupsBitsPerColor=8", f"-sOutputFile={raster}")
                if kind == "pwg":
                    os.rename(raster, path)
                else:
                    ppd = path + ".ppd"
                    with open(ppd, "w") as file:
                        file.write(PCLM_PPD.format(dpi=dpi, compression=compression, strip=strip))
                    environment = dict(os.environ, PPD=ppd, CUPS_SERVERBIN="/usr/lib/cups")
                    with open(path, "wb") as out:
                        subprocess.run(["/usr/lib/cups/filter/rastertopclm", "1", "client-test", "client test", "1",
                                        "", raster], stdout=out, stderr=subprocess.DEVNULL, env=environment,
                                       check=True, timeout=WAIT_LIMIT)
            elif kind == "urf":
                self._gs("-sDEVICE=urf", f"-r{dpi}", f"-sOutputFile={path}")
            elif kind == "jpeg":
                self._gs("-sDEVICE=jpeg", "-r50", f"-sOutputFile={path}")
            else:
                raise ValueError(kind)
            self.cache[key] = path
            return path


@pytest.fixture(scope="session")
def documents():
    folder = tempfile.mkdtemp(prefix="vprinter-client-documents-")
    yield Documents(folder)
    shutil.rmtree(folder, ignore_errors=True)


# ---- printing as a client ----

def closest_resolution(resolutions, wanted=300):
    """The resolution nearest to `wanted` dpi among (x, y, units) values (as AOSP lib_wprint.c picks one)."""
    dpis = sorted({value[0] for value in resolutions if value[2] == 3})
    return min(dpis, key=lambda dpi: (abs(dpi - wanted), dpi)) if dpis else wanted


def print_job(printer, document, document_format, operation=(), job=(), version=(2, 0), name="client test"):
    """Print-Job with `document`; returns (IPP status, job id or None, response)."""
    with open(document, "rb") as file:
        data = file.read()
    body = ipp_wire.request(ipp_wire.PRINT_JOB, printer.uri,
                            [("job-name", ipp_wire.NAME, name),
                             ("document-format", ipp_wire.MIME, document_format), *operation],
                            job_attributes=list(job), version=version)
    response = ipp_wire.post(printer.uri, body + data)
    job_group = ipp_wire.group(response, ipp_wire.JOB)
    job_id = job_group.get("job-id", [None])[0]
    return response["status"], job_id, response


def printed(printer, document, document_format, detected=None, **arguments):
    """Prints and waits: asserts the printer took the job, printed it completely and rendered at least one side, and
    detected the format sent (or `detected`); returns the job record."""
    status, job_id, response = print_job(printer, document, document_format, **arguments)
    message = ipp_wire.group(response, ipp_wire.OPERATION).get("status-message", [""])[0]
    assert status in (0x0000, 0x0001), f"Print-Job ({document_format}) answered 0x{status:04x}: {message}"
    assert job_id, "Print-Job returned no job-id"
    job_record = printer.wait_job(job_id)
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
    if call.when != "call" or not hasattr(item, "callspec"):
        return
    profile = item.callspec.params.get("profile")
    client = getattr(item.module, "CLIENT", None)
    if profile is None or client is None:
        return
    CLIENT_NAMES[client] = True
    if call.excinfo is not None:
        message = str(call.excinfo.value).splitlines()[0] if str(call.excinfo.value) else call.excinfo.typename
        RESULTS[(client, profile)] = "FAIL: " + message[:90]
    elif (client, profile) not in RESULTS:
        RESULTS[(client, profile)] = "PASS"


def pytest_terminal_summary(terminalreporter):
    if not RESULTS:
        return
    # scripts/client-test runs pytest twice (cups-browsed alone in its own network namespace): the table holds both.
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    store = ARTIFACTS / "results.json"
    earlier = json.loads(store.read_text()) if store.exists() else {"clients": [], "results": []}
    merged = {(client, profile): verdict for client, profile, verdict in earlier["results"]}
    merged.update(RESULTS)
    clients = list(dict.fromkeys(earlier["clients"] + list(CLIENT_NAMES)))
    store.write_text(json.dumps({"clients": clients,
                                 "results": [[c, p, v] for (c, p), v in merged.items()]}, indent=1))
    RESULTS.update(merged)
    profiles = sorted({profile for _, profile in RESULTS})
    lines = ["| profile | " + " | ".join(clients) + " |", "|---|" + "---|" * len(clients)]
    for profile in profiles:
        cells = [RESULTS.get((client, profile), "not run") for client in clients]
        lines.append(f"| {profile} | " + " | ".join(cells) + " |")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "table.md").write_text("\n".join(lines) + "\n")
    terminalreporter.write_sep("=", "client x profile")
    for line in lines:
        terminalreporter.write_line(line)
