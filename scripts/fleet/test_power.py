"""Power: off, a printer is withdrawn from DNS-SD and behaves as a network printer that is off: its own port refuses
connections, its path on a shared port leaves them without a byte until the client gives up, and neither costs CPU;
on, it is browsable again and prints. Through the API, the System Service and a fault effect."""
import os
import socket
import subprocess
import time

from vprinter import ipp

from vptest.artifacts import record_figure
from vptest.calls import connect, request_bytes
from vptest.names import unique
from vptest.waiting import wait_for

# Seconds the power fault of the last test holds the printer off.
UNPLUGGED_SECONDS = 1.5
# The longest the fault's power change may take to show, in seconds.
POWER_CHANGE_LIMIT = 10


# Seconds a request to a switched-off printer on a shared port is watched for an answer that must not come.
SILENCE_WATCHED = 2
# ipptool's seconds per request (-T) against a switched-off printer, and the longest it may then run in all.
IPPTOOL_TIMEOUT = 3
IPPTOOL_LIMIT = 30
# The most CPU (a fraction of one core) vprinter may spend while a client waits on a switched-off printer: a
# printer that spins on the client's retries spends a whole core.
IDLE_CPU_LIMIT = 0.1


def silent(printer, uri, request=None, seconds=SILENCE_WATCHED):
    """Whether a request to `uri` (raw HTTP; Get-Printer-Attributes by default) gets no byte back for ``seconds``
    (SILENCE_WATCHED), the connection staying open, as from a host that is not there."""
    if request is None:
        body = ipp.request(ipp.GET_PRINTER_ATTRIBUTES, uri, {"requesting-user-name": "fleet-test"})
        request = request_bytes("POST", uri, body, {"Content-Type": "application/ipp"})
    with connect(printer.authority, timeout=seconds) as connection:
        connection.sendall(request)
        try:
            connection.recv(1)  # a byte, or the connection closed: not silent
        except socket.timeout:
            return True
        return False


def cpu_seconds(pid):
    """The user and system CPU seconds a process has spent (/proc/PID/stat)."""
    fields = open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def ipptool_against(uri):
    """Runs ipptool's get-printer-attributes.test against `uri` with -T IPPTOOL_TIMEOUT; returns its exit status,
    output and wall seconds."""
    started = time.monotonic()
    result = subprocess.run(["ipptool", "-T", str(IPPTOOL_TIMEOUT), "-t", uri, "get-printer-attributes.test"],
                            capture_output=True, text=True, timeout=IPPTOOL_LIMIT)
    return result.returncode, result.stdout + result.stderr, time.monotonic() - started


def answers(printer, uri=None):
    """Whether the printer answers Get-Printer-Attributes with successful-ok."""
    return printer.ipp(ipp.GET_PRINTER_ATTRIBUTES, uri=uri).status == ipp.SUCCESSFUL_OK


def power_of(printer):
    return printer.checked("GET", "/api/v1/printers")[0]["power"]


def test_power_off_withdraws_and_silences_the_printer_and_power_on_brings_it_back(advertised, avahi_browser):
    name = unique("powered")
    uri = advertised.checked("POST", "/api/v1/printers", 201, {"name": name})["printer-uri-supported"]
    assert avahi_browser.wait(name) is not None

    started = time.monotonic()
    power = "/api/v1/printers/%s/power" % name
    assert advertised.checked("POST", power, 200, {"on": False}) == {"printer-name": name, "power": "off"}
    gone = avahi_browser.wait(name, present=False)
    assert gone is not None, "a switched-off printer is still browsable"
    withdrawn = time.monotonic() - started
    # Its path on the shared port answers nothing, IPP or web: the connection stays open without a byte.
    assert silent(advertised, uri)
    assert silent(advertised, uri, request_bytes("GET", uri))
    # The other printer and the API go on answering; the listing says it is off.
    assert answers(advertised)
    listed = {p["printer-name"]: p for p in advertised.checked("GET", "/api/v1/printers")}
    assert listed[name]["power"] == "off" and listed[advertised.name]["power"] == "on"
    assert advertised.checked("GET", "/readyz")["status"] == "ready"

    started = time.monotonic()
    advertised.checked("POST", power, 200, {"on": True})
    back = avahi_browser.wait(name)
    assert back is not None, "a printer switched on again never became browsable"
    browsable = time.monotonic() - started
    job = advertised.print_job(name="after power on", uri=uri)
    records = advertised.wait(1, printer=name)
    assert records[0]["job-id"] == job and records[0]["job-state"] == "completed"
    record_figure("power-off-withdrawn", seconds=round(withdrawn, 3))
    record_figure("power-on-browsable", seconds=round(browsable, 3))


def test_shutdown_and_startup_one_printer_switch_it_off_and_on(printer):
    system_uri = "ipp://%s/ipp/system" % printer.authority
    off = printer.ipp(ipp.SHUTDOWN_ONE_PRINTER, {"printer-id": 1}, uri=system_uri, target="system-uri")
    assert off.status == ipp.SUCCESSFUL_OK
    assert silent(printer, printer.uri)
    on = printer.ipp(ipp.STARTUP_ONE_PRINTER, {"printer-id": 1}, uri=system_uri, target="system-uri")
    assert on.status == ipp.SUCCESSFUL_OK
    assert answers(printer)


def test_a_power_fault_switches_the_printer_off_after_a_job_and_clears_itself(printer):
    name = printer.checked("GET", "/api/v1/printers")[0]["printer-name"]
    fault = {"name": "unplugged", "trigger": {"after-jobs": 1}, "effect": {"power": "off"},
             "clear-after": UNPLUGGED_SECONDS}
    printer.checked("POST", "/api/v1/printers/vprinter-duplex-laser/faults", 201, fault)
    printer.print_job(name="the last job before the plug is pulled")
    printer.wait(1)
    wait_for(lambda: power_of(printer) == "off", "the power fault to switch the printer off",
             limit=POWER_CHANGE_LIMIT)
    assert printer.checked("GET", "/api/v1/printers")[0]["printer-name"] == name
    # Watched for less than the fault lasts: its silence ends when it switches itself on again.
    assert silent(printer, printer.uri, seconds=UNPLUGGED_SECONDS / 3)
    wait_for(lambda: power_of(printer) == "on", "the power fault to clear itself", limit=POWER_CHANGE_LIMIT)
    assert answers(printer)


def test_a_printer_with_its_own_port_refuses_connections_while_off(printer):
    created = printer.checked("POST", "/api/v1/printers", 201, {"name": unique("own-port"), "port": 0})
    name, uri, port = created["printer-name"], created["printer-uri-supported"], created["port"]
    power = "/api/v1/printers/%s/power" % name
    printer.checked("POST", power, 200, {"on": False})
    try:
        socket.create_connection(("localhost", port), timeout=5).close()
        raise AssertionError("port %d of a switched-off printer accepted a connection" % port)
    except ConnectionRefusedError:
        pass
    status, output, seconds = ipptool_against(uri)
    assert status != 0 and seconds < IPPTOOL_TIMEOUT, "ipptool against the refused port: %s" % output
    # Its path on the process's port is silent meanwhile.
    assert silent(printer, "ipp://%s%s" % (printer.authority, created["resource"]))
    printer.checked("POST", power, 200, {"on": True})
    assert answers(printer, uri), "the printer does not answer on port %d again once on" % port
    job = printer.print_job(name="on its own port again", uri=uri)
    assert printer.wait(1, printer=name)[0]["job-id"] == job
    record_figure("power-off-own-port-ipptool", seconds=round(seconds, 3))


def test_a_client_of_a_switched_off_printer_on_a_shared_port_gives_up_in_its_own_time_and_costs_no_cpu(printer):
    created = printer.checked("POST", "/api/v1/printers", 201, {"name": unique("shared-port")})
    name, uri = created["printer-name"], created["printer-uri-supported"]
    power = "/api/v1/printers/%s/power" % name
    printer.checked("POST", power, 200, {"on": False})
    pid = printer.process.pid
    spent = cpu_seconds(pid)
    status, output, seconds = ipptool_against(uri)
    spent = cpu_seconds(pid) - spent
    assert status != 0, "ipptool had an answer from a switched-off printer: %s" % output
    assert seconds < IPPTOOL_LIMIT, output
    assert spent / seconds < IDLE_CPU_LIMIT, "vprinter spent %.2f s of CPU in %.1f s" % (spent, seconds)
    # Switched on, a connection held silent closes (within the check interval of 1 s), and the next one is answered.
    with connect(printer.authority, timeout=10) as held:
        body = ipp.request(ipp.GET_PRINTER_ATTRIBUTES, uri, {"requesting-user-name": "fleet-test"})
        held.sendall(request_bytes("POST", uri, body, {"Content-Type": "application/ipp"}))
        time.sleep(0.5)
        printer.checked("POST", power, 200, {"on": True})
        started = time.monotonic()
        assert held.recv(1) == b"", "a silence held while off answered"
        closed = time.monotonic() - started
    assert answers(printer, uri)
    record_figure("power-off-shared-port-ipptool", seconds=round(seconds, 3), cpu_seconds=round(spent, 3))
    record_figure("power-on-silence-closed", seconds=round(closed, 3))
