"""Names no other test on this machine uses: printers advertised on loopback share multicast with every other run,
and ports are the machine's."""
import os
import socket
import uuid


def unique(prefix):
    """``prefix``, this process's id and a random suffix: ``web-4242-1a2b3c``."""
    return "%s-%d-%s" % (prefix, os.getpid(), uuid.uuid4().hex[:6])


def free_port(host="127.0.0.1"):
    """A TCP port free on ``host`` now, for a server that cannot be given port 0 (a container's published port)."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]
