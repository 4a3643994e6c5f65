"""Avahi as the tests use it: avahi-browse's parsable lines read (names and TXT strings unescaped), what is
browsable now, a watcher that sees services come and go, and one service resolved through Avahi's D-Bus API as a
client resolves the one it picked. The daemon is the loopback-only one of vptest.services (DBUS_SYSTEM_BUS_ADDRESS);
when the stage started a private one (VP_AVAHI_DIR), a test may stop and start it. Standard library only.
"""
import os
import re
import subprocess
import threading
import time

from .services import avahi_daemon

# The longest a browse or a resolve may take, in seconds.
BROWSE_LIMIT = 60
# Avahi's address protocols (avahi-common/address.h).
INET, INET6 = 0, 1
# The longest one ``avahi-browse -r -t`` may take before wait_resolved asks again, in seconds: avahi-browse 0.8
# never ends when a service it is resolving says goodbye (its printer stopped) before the resolver answers.
RESOLVE_TRY = 10
# A quoted TXT string of a resolved line (a backslash escapes the next character).
TXT_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def unescape(text):
    """Undoes avahi-browse's escaping: \\DDD decimal bytes and a backslash before any other character."""
    out = bytearray()
    i = 0
    raw = text.encode()
    while i < len(raw):
        if raw[i] == 0x5C and i + 3 < len(raw) and raw[i + 1:i + 4].isdigit():
            out.append(int(raw[i + 1:i + 4]))
            i += 4
        elif raw[i] == 0x5C and i + 1 < len(raw):
            out.append(raw[i + 1])
            i += 2
        else:
            out.append(raw[i])
            i += 1
    return out.decode(errors="replace")


def parse_line(line):
    """One line of ``avahi-browse -p`` as a dict, or None for what is no service line.

    Every line: ``event`` (``+`` new, ``-`` gone, ``=`` resolved), ``interface``, ``protocol`` (IPv4, IPv6),
    ``name`` (unescaped), ``type``, ``domain``, ``raw`` (the line). Resolved lines add ``host``, ``address``,
    ``port`` (int) and ``txt``: (key, value or None) pairs in the order avahi-browse printed them (the reverse of
    the wire order).
    """
    fields = line.rstrip("\n").split(";", 9)
    if len(fields) < 6 or fields[0] not in ("+", "-", "="):
        return None
    entry = {"event": fields[0], "interface": fields[1], "protocol": fields[2], "name": unescape(fields[3]),
             "type": fields[4], "domain": fields[5], "raw": line.rstrip("\n")}
    if fields[0] == "=":
        if len(fields) < 9:
            return None
        strings = [unescape(item) for item in TXT_STRING.findall(fields[9] if len(fields) > 9 else "")]
        entry.update(host=fields[6], address=fields[7], port=int(fields[8]),
                     txt=[(item.split("=", 1)[0], item.split("=", 1)[1] if "=" in item else None)
                          for item in strings])
    return entry


def browse(service_type, resolve=False, timeout=BROWSE_LIMIT):
    """What ``avahi-browse -p -t`` lists of a service type now (resolved with ``resolve``): parsed lines."""
    command = ["avahi-browse", "-p", "-t", "-k", *(["-r"] if resolve else []), service_type]
    output = subprocess.run(command, capture_output=True, text=True, timeout=timeout).stdout
    return [entry for entry in map(parse_line, output.splitlines()) if entry]


def names(service_type, timeout=BROWSE_LIMIT):
    """The instance names browsable now under a service type (or subtype: ``_print._sub._ipp._tcp``)."""
    return {entry["name"] for entry in browse(service_type, timeout=timeout) if entry["event"] == "+"}


def reachable(timeout=BROWSE_LIMIT):
    """Whether an Avahi daemon answers on the bus of DBUS_SYSTEM_BUS_ADDRESS."""
    try:
        return subprocess.run(["avahi-browse", "-t", "-p", "-k", "_vprinter-none._tcp"], capture_output=True,
                              timeout=timeout).returncode == 0
    except subprocess.TimeoutExpired:
        return False


class Browser:
    """``avahi-browse -p`` on a service type in the background: which instance names are browsable now (on which
    interfaces and protocols), and how long a change took to show."""

    def __init__(self, service_type="_ipp._tcp"):
        self.present = {}  # name -> set of (interface, protocol)
        self.changed = threading.Condition()
        self.process = subprocess.Popen(["avahi-browse", "-p", "-k", service_type], stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        for line in self.process.stdout:
            entry = parse_line(line)
            if not entry or entry["event"] == "=":
                continue
            with self.changed:
                where = self.present.setdefault(entry["name"], set())
                (where.add if entry["event"] == "+" else where.discard)((entry["interface"], entry["protocol"]))
                self.changed.notify_all()

    def browsable(self, name):
        with self.changed:
            return bool(self.present.get(name))

    def wait(self, name, present=True, limit=BROWSE_LIMIT):
        """Waits until ``name`` is (or, with ``present=False``, is no longer) browsable; returns the seconds that
        took, or None after ``limit``."""
        started = time.monotonic()
        with self.changed:
            while bool(self.present.get(name)) != present:
                remaining = limit - (time.monotonic() - started)
                if remaining <= 0:
                    return None
                self.changed.wait(remaining)
        return time.monotonic() - started

    def count(self, prefix):
        """How many names that start with ``prefix`` are browsable."""
        with self.changed:
            return sum(1 for name, where in self.present.items() if name.startswith(prefix) and where)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


class Service:
    """One service instance resolved to one address; ``txt`` has lower-case keys (RFC 6763 section 6.4: keys
    compare without letter case), ``txt_pairs`` the strings as they came."""

    def __init__(self, name, host, address, port, txt_pairs):
        self.name, self.host, self.address, self.port = name, host, address, port
        self.txt_pairs = txt_pairs
        self.txt = {key.lower(): value for key, value in txt_pairs}


def resolve(name, address_protocol=INET, service_type="_ipp._tcp"):
    """Resolves one instance through Avahi's ResolveService (D-Bus), to an IPv4 (INET) or IPv6 (INET6) address;
    a Service, or None when it does not resolve."""
    result = subprocess.run(
        ["dbus-send", "--system", "--print-reply", "--reply-timeout=15000", "--dest=org.freedesktop.Avahi", "/",
         "org.freedesktop.Avahi.Server.ResolveService", "int32:-1", "int32:-1", "string:" + name,
         "string:" + service_type, "string:local", "int32:%d" % address_protocol, "uint32:0"],
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


def resolved(name, service_type="_ipp._tcp", timeout=BROWSE_LIMIT):
    """The resolved ``avahi-browse -p -t -r`` line (parse_line's dict) of the instance ``name``, IPv4 preferred,
    or None when avahi-browse resolves no such instance now."""
    found = [entry for entry in browse(service_type, resolve=True, timeout=timeout)
             if entry["event"] == "=" and entry["name"] == name]
    found.sort(key=lambda entry: entry["protocol"] != "IPv4")
    return found[0] if found else None


def wait_resolved(name, service_type="_ipp._tcp", limit=BROWSE_LIMIT):
    """resolved(), asked again (a browse that has not ended after RESOLVE_TRY seconds counts as not found) until it
    finds the instance; its entry, or None after ``limit`` seconds."""
    deadline = time.monotonic() + limit
    while True:
        try:
            found = resolved(name, service_type, timeout=min(RESOLVE_TRY, max(deadline - time.monotonic(), 1)))
        except subprocess.TimeoutExpired:
            found = None
        if found or time.monotonic() >= deadline:
            return found
        time.sleep(0.05)


def private_daemon():
    """Whether the daemon in use is a private one that vptest.services started (VP_AVAHI_DIR), which stop_daemon
    and start_daemon may stop and start."""
    return bool(os.environ.get("VP_AVAHI_DIR"))


def _private_folder():
    assert private_daemon(), "the Avahi daemon in use is not a private one (VP_AVAHI_DIR is empty)"
    return os.environ["VP_AVAHI_DIR"]


def stop_daemon():
    """Stops the private daemon (SIGTERM) and returns once it has exited; the bus stays up."""
    avahi_daemon.stop_daemon(_private_folder())


def start_daemon():
    """Starts the private daemon again and returns once it answers on the bus."""
    avahi_daemon.start_daemon(_private_folder())


def reachable_as(user):
    """Whether ``user`` (CUPS runs its backends as lp) reaches the daemon on the same bus as this process."""
    return avahi_daemon.reachable_as(user)
