"""A phone on another host (issue 41): what a client on the LAN sees of the printer, over a test network of our own
(vptest.lan: a "printer" and a "phone" network namespace joined by a veth pair, 10.231.41.0/24, each with its own
D-Bus bus and avahi-daemon; nothing attached to the machine's interfaces, so nothing leaves the machine).

vprinter builds the URIs it gives from the HTTP Host the client sent. On loopback CUPS's libcups sends
``Host: localhost`` whatever the URI said (cups/http.c: httpSetField(HTTP_FIELD_HOST) falls back to "localhost"
for a loopback peer), so only a client on another host shows the names a phone on Wi-Fi gets.
"""
import json
import os
import re
import sys
import textwrap
import urllib.parse

import pytest
from vptest import cups, names, waiting
from vptest.documents import SAMPLE_PDF

# The longest a browse, a job or a fetch of these tests may take, in seconds.
LIMIT = 60
PROFILE = "duplex-laser"
# The attributes whose URIs must name the host the client asked for (RFC 8011 §4.1.5: a URI the printer gives is
# one the client can use; §5.4.1 printer-uri-supported lists the URIs it answers on).
URI_ATTRIBUTES = ("printer-uri-supported", "printer-more-info", "printer-icons", "printer-strings-uri",
                  "printer-supply-info-uri")

GET_PRINTER_ATTRIBUTES = """\
{
    NAME "Get-Printer-Attributes from the phone"
    OPERATION Get-Printer-Attributes
    GROUP operation-attributes-tag
    ATTR charset attributes-charset utf-8
    ATTR naturalLanguage attributes-natural-language en
    ATTR uri printer-uri $uri
    ATTR name requesting-user-name phone
    ATTR keyword requested-attributes all
    STATUS successful-ok
}
"""


@pytest.fixture(scope="module")
def net(lan_network):
    """The two-host LAN (conftest.lan_network: it fails, never skips, without root) with vprinter on the printer
    host, advertised as vp-lan-phone-PID-... through the printer host's daemon."""
    lan_network.vp = lan_network.start_vprinter(name=names.unique("vp-lan-phone"), profile=PROFILE)
    return lan_network


def ipptool_attributes(host, uri, folder):
    """The response attributes of CUPS's ipptool's Get-Printer-Attributes, run on ``host``: {name: [values]}."""
    test_file = folder / "gpa.test"
    test_file.write_text(GET_PRINTER_ATTRIBUTES)
    done = host.run(["ipptool", "-tv", "-T", "30", uri, str(test_file)], timeout=LIMIT)
    assert done.returncode == 0, done.stdout + done.stderr
    received = done.stdout.split("RECEIVED", 1)[1]
    attributes = {}
    for match in re.finditer(r"^\s+(\S+) \([^)]*\) = (.*)$", received, re.MULTILINE):
        attributes[match[1]] = match[2].split(",")
    return attributes


def browse_resolved(net):
    """The phone's resolved IPv4 _ipp._tcp entry of our printer (avahi-browse on the phone's own daemon)."""

    def found():
        done = net.run_on_phone(["avahi-browse", "-rpt", "_ipp._tcp"], timeout=30)
        for line in done.stdout.splitlines():
            fields = line.split(";")
            if fields[0] == "=" and fields[2] == "IPv4" and fields[3] == net.vp.name:
                return fields
        return None

    return waiting.wait_for(found, "%s resolved on the phone" % net.vp.name, LIMIT, interval=0.5)


def test_the_phone_finds_the_printer_over_the_veth(net):
    fields = browse_resolved(net)
    interface, host, address, port = fields[1], fields[6], fields[7], int(fields[8])
    assert interface == net.phone.interface, "found on %s, not the phone's veth end" % interface
    assert (host, address, port) == (net.printer.fqdn, net.printer.address, net.vp.port)
    # ippfind (CUPS's own DNS-SD client, on the phone's daemon) finds it too, by name.
    done = net.run_on_phone(["ippfind", "-T", "10", "_ipp._tcp", "--name", re.escape(net.vp.name), "-p"],
                            timeout=LIMIT)
    assert done.stdout.split() == ["ipp://%s:%d/ipp/print" % (net.printer.fqdn, net.vp.port)], done


def test_every_uri_names_the_local_host_the_phone_used(net, tmp_path):
    txt = dict(pair.strip('"').split("=", 1) for pair in browse_resolved(net)[9].split('" "'))
    uri = "ipp://%s:%d/%s" % (net.printer.fqdn, net.vp.port, txt["rp"])
    attributes = ipptool_attributes(net.phone, uri, tmp_path)
    for name in URI_ATTRIBUTES:
        assert attributes.get(name), "%s missing" % name
        for value in attributes[name]:
            host = re.match(r"^[a-z]+://([^/:]+)", value)[1]
            assert host == net.printer.fqdn, "%s names %s, not %s" % (name, value, net.printer.fqdn)
    assert uri in attributes["printer-uri-supported"]
    # PWG 5100.20 (IPP Everywhere) B-4: the TXT record's adminurl is the printer's printer-more-info.
    assert attributes["printer-more-info"] == [txt["adminurl"]]


def test_the_icons_and_strings_are_fetched_as_given(net, tmp_path):
    attributes = ipptool_attributes(net.phone, "ipp://%s:%d/ipp/print" % (net.printer.fqdn, net.vp.port), tmp_path)
    fetched = [(uri, b"\x89PNG\r\n\x1a\n") for uri in attributes["printer-icons"]]
    fetched += [(uri, None) for uri in attributes["printer-strings-uri"]]
    for uri, magic in fetched:
        out = tmp_path / "fetched"
        done = net.run_on_phone(["curl", "-sS", "-k", "-o", str(out), "-w", "%{http_code} %{content_type}", uri],
                                timeout=30)
        status, _, content_type = done.stdout.partition(" ")
        assert status == "200", "%s: %s %s" % (uri, done.stdout, done.stderr)
        body = out.read_bytes()
        if magic:
            assert body.startswith(magic), "%s is no PNG (%s)" % (uri, content_type)
        else:
            # A strings file (PWG 5100.13 §6.2.8: Apple .strings, "key" = "text";).
            assert re.search(rb'^"[^"]+"\s*=\s*"', body, re.MULTILINE), "%s is no strings file" % uri


PRINT_AND_FOLLOW = textwrap.dedent("""\
    import json, sys
    from vprinter import ipp
    printer_uri, document = sys.argv[1], open(sys.argv[2], "rb").read()
    answer = ipp.send(printer_uri, ipp.request(ipp.PRINT_JOB, printer_uri, {
        "requesting-user-name": "phone", "job-name": "lan job-uri",
        "document-format": ipp.Value(ipp.MIME_TYPE, "application/pdf")}), document)
    job_uri = answer.get("job-uri")
    # Followed as given: the request goes to the job-uri, whose job it names (RFC 8011 section 4.3.4).
    followed = ipp.send(job_uri, ipp.request(ipp.GET_JOB_ATTRIBUTES, job_uri, {"requesting-user-name": "phone"},
                                             target="job-uri"))
    print(json.dumps({"status": answer.status, "job-id": answer.job_id, "job-uri": job_uri,
                      "followed": followed.status, "followed-id": followed.get("job-id"),
                      "followed-uri": followed.get("job-uri")}))
""")


def test_the_job_uri_answers_when_followed_from_the_phone(net, tmp_path):
    document = tmp_path / "page.pdf"
    document.write_bytes(SAMPLE_PDF)
    done = net.run_on_phone([sys.executable, "-c", PRINT_AND_FOLLOW, "ipp://%s:%d/ipp/print" % (net.printer.fqdn,
                                                                                              net.vp.port),
                             str(document)], timeout=LIMIT)
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert said["status"] == 0 and said["job-id"], said
    # The job-uri names the host the phone asked (RFC 8011 §4.1.5), under the printer's resource.
    assert said["job-uri"] == "ipp://%s:%d/ipp/print/%d" % (net.printer.fqdn, net.vp.port, said["job-id"]), said
    assert said["followed"] == 0 and said["followed-id"] == said["job-id"], said
    assert said["followed-uri"] == said["job-uri"], said


AIOIPP_READS = textwrap.dedent("""\
    import asyncio, json, sys
    from pyipp import IPP

    async def read(uri):
        async with IPP(uri) as client:
            return await client.printer()

    state = asyncio.run(read(sys.argv[1]))
    print(json.dumps({"printer-name": state.info.printer_name, "more-info": state.info.more_info,
                      "state": state.state.printer_state}))
""")


def test_aioipp_on_the_phone_reads_the_printer_by_its_advertised_name(net):
    """aioipp (pyipp's maintained fork, Home Assistant's IPP client) on the phone, given the URI its discovery
    builds from the advertised host name, reads the printer, and the web page it would link names that host."""
    uri = "ipp://%s:%d/ipp/print" % (net.printer.fqdn, net.vp.port)
    done = net.run_on_phone([sys.executable, "-c", AIOIPP_READS, uri], timeout=LIMIT)
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert said["printer-name"] == net.vp.name and said["state"] == "idle", said
    assert said["more-info"] == "http://%s:%d/" % (net.printer.fqdn, net.vp.port), said


def test_cups_on_the_phone_prints_through_the_advertised_uri(net, tmp_path):
    net.phone.start_cupsd()
    uri = "ipp://%s:%d/ipp/print" % (net.printer.fqdn, net.vp.port)
    cups.add_everywhere_queue("phone", uri, LIMIT, host=net.phone)
    document = tmp_path / "page.pdf"
    document.write_bytes(SAMPLE_PDF)
    os.chmod(tmp_path, 0o755)
    os.chmod(document, 0o644)
    title = names.unique("lan cups")
    cups.lp("phone", document, title, timeout=LIMIT, host=net.phone)

    def ended():
        status, body = net.vp.api("/api/v1/jobs")
        return status == 200 and [job for job in json.loads(body) if job.get("job-name") == title
                                  and job["job-state"] in ("completed", "aborted", "canceled")]

    jobs = waiting.wait_until(ended, 2 * LIMIT, interval=0.5)
    assert jobs, "no job from the phone's CUPS ended: " + cups.queue_jobs("phone", host=net.phone)
    job = jobs[0]
    assert job["job-state"] == "completed", "%s: %s" % (job["job-state"], job.get("job-state-message"))
    assert job["impressions"], "no rendered side"
    record_path = net.vp.output_dir / "jobs"
    assert any((folder / "job.json").exists() for folder in record_path.iterdir()), "no job.json recorded"


# What Host CUPS's ipptool sends for ipp://127.0.0.1:PORT/: a listener on loopback reads its first request.
HOST_SENT = textwrap.dedent("""\
    import socket, subprocess, sys
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    client = subprocess.Popen(["ipptool", "-T", "3", "ipp://127.0.0.1:%d/ipp/print" % port, sys.argv[1]],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    listener.settimeout(10)
    connection, _ = listener.accept()
    head = b""
    while b"\\r\\n\\r\\n" not in head:
        head += connection.recv(4096)
    connection.close()
    client.kill()
    print([line.split(b":", 1)[1].strip().decode() for line in head.split(b"\\r\\n")
           if line.lower().startswith(b"host:")][0])
""")


def test_negative_controls_loopback_gets_loopback_uris_and_a_foreign_host_gets_421(net, tmp_path):
    # The reason for the LAN: over loopback, libcups names a loopback host in Host, seen here on the wire: CUPS
    # 2.4.2 (Debian 12) sends localhost even for ipp://127.0.0.1 (cups/http.c: a client connection to a loopback
    # address names its host "localhost"), 2.4.10 (Debian 13) the address it was given. vprinter rightly answers
    # with URIs of that loopback host, which a phone could never use.
    (tmp_path / "gpa.test").write_text(GET_PRINTER_ATTRIBUTES)
    done = net.run_on_printer([sys.executable, "-c", HOST_SENT, str(tmp_path / "gpa.test")], timeout=30)
    assert done.returncode == 0, done.stderr
    sent = re.fullmatch(r"(localhost|127\.0\.0\.1)(:\d+)?", done.stdout.strip())
    assert sent, "ipptool sent Host: %s" % done.stdout
    attributes = ipptool_attributes(net.printer, "ipp://127.0.0.1:%d/ipp/print" % net.vp.port, tmp_path)
    assert all(value.startswith(("ipp://%s:" % sent.group(1), "ipps://%s:" % sent.group(1)))
               for value in attributes["printer-uri-supported"]), attributes["printer-uri-supported"]
    # A Host the Host policy does not know (docs/security.md) gets 421 Misdirected Request, even on the LAN.
    done = net.run_on_phone(["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: attacker.example",
                             "http://%s:%d/" % (net.printer.fqdn, net.vp.port)], timeout=30)
    assert done.stdout == "421", done.stdout + done.stderr
    done = net.run_on_phone(["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}",
                             "http://%s:%d/" % (net.printer.fqdn, net.vp.port)], timeout=30)
    assert done.stdout == "200", done.stdout + done.stderr


def test_sane_airscan_on_the_phone_finds_the_mfp_over_dns_sd_and_scans(net, tmp_path):
    """sane-airscan (scanimage) on the phone: the office MFP's eSCL scanner, found under _uscan._tcp through the
    phone's own daemon (airscan-zeroconf.c; WS-Discovery off, its probes would leave the host), scanned over the
    veth, since the printer host's loopback is not the phone's."""
    mfp = net.start_vprinter(name=names.unique("vp-lan-mfp"), profile="office-mfp")
    sane = tmp_path / "sane"
    sane.mkdir()
    (sane / "dll.conf").write_text("airscan\n")
    (sane / "airscan.conf").write_text("[options]\ndiscovery = enable\nws-discovery = off\n")
    environment = {"SANE_CONFIG_DIR": str(sane)}

    def listed():
        said = net.run_on_phone(["scanimage", "-L"], env=environment, timeout=LIMIT).stdout
        match = re.search(r"device `(airscan:[^']*%s)' is a eSCL" % re.escape(mfp.name), said)
        return match and match[1]

    device = waiting.wait_for(listed, "%s listed by scanimage -L on the phone" % mfp.name, LIMIT, interval=1)
    scanned = tmp_path / "scan.png"
    done = net.run_on_phone(["scanimage", "-d", device, "--source", "Flatbed", "--resolution", "75",
                             "--format=png", "-o", str(scanned)], env=environment, timeout=LIMIT)
    assert done.returncode == 0, done.stderr
    assert scanned.read_bytes().startswith(b"\x89PNG\r\n\x1a\n"), "scanimage wrote no PNG"
    status, body = mfp.api("/api/v1/scans?printer=%s" % urllib.parse.quote(mfp.name))
    assert status == 200 and json.loads(body)["scans"][0]["state"] == "Completed", body
